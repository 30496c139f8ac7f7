//! Reductions over a guarded `iota` run only over the range the guard
//! admits.
//!
//! A `screma` over `iota(n, 0, 1)` (an input defined so, or the lambda's
//! iteration index) whose map lambda ends in
//! `if c < x then e else ne` (`c` the iota element, `x` bound outside the
//! lambda) and returns that `if`'s results becomes a `screma` over the first
//! `min(n, max(x, 0))` elements whose lambda is `e`:
//!
//! ```text
//! reduce (+) 0 (map (\c -> if c < r then f c else 0) (iota n))
//!   ⇒ reduce (+) 0 (map (\c -> f c) (iota (min n (max r 0))))
//! ```
//!
//! The guard may be `c < x`, `c <= x` (the prefix is then
//! `max(min(x, n - 1) + 1, 0)` long, which cannot overflow), `c > x` or
//! `c >= x`, with the operands either way round, and either branch may be
//! the neutral one: the kept range is the prefix where the kept branch runs
//! on it, else the rest `[m, n)`, whose lambda computes `c` as its index
//! plus `m`. Only signed `i64` comparisons: the iota's own type.
//!
//! It fires only when every dropped iteration contributes nothing:
//! - there are no scans; each reduction result's dropped branch yields the
//!   reduction's neutral constant, bit for bit. Where a component of the
//!   operator is one binary operation of its two parameters, that constant
//!   must be neutral for it (`+` with 0, `*` with 1, `min`/`max` with the
//!   greatest/least value or ±infinity, `&`, `|`, `^` with all ones, zero,
//!   zero), so a wrong neutral (`reduce (+) 1`) keeps every iteration, and
//!   so does a component that returns a parameter (`\_ b -> b`, which has
//!   no neutral); an operator written as a function (the prelude's
//!   `f64.min`) is trusted to have the neutral the program gives it, as the
//!   language requires.
//!   Every chunk of a reduction starts from its neutral, so for floats
//!   `+ 0.0` is exact too: a sum that starts at `0.0` is never `-0.0`, and
//!   `a + 0.0` is `a` for every other `a`, NaN and infinities included.
//!   With every iteration dropped the result is the neutral, as it was;
//! - each other result is an accumulator, and the dropped branch returns the
//!   lambda's accumulator parameters unchanged, in order (the adjoint loops
//!   of reverse mode): a dropped iteration updates nothing;
//! - the dropped branch has no statements, and the statements before the
//!   `if` cannot fail, so dropping them loses no error.
//!
//! The kept branch's statements move into the lambda, the iota input
//! becomes the lambda's iteration index (plus `m` for the rest), the other
//! array inputs become slices of the kept rows (views: nothing is copied),
//! and the bound (two to five scalar operations) is computed before the
//! `screma`, once; each kept iteration saves the comparison, once dead code
//! goes (and pays an addition for the rest).

use ir::walk::{Occ, walk_lambda};
use ir::{
    BinOp, CmpOp, DimIndex, Exp, Lambda, Operand, Param, PrimType, PrimValue, Screma, Size, Stm,
    VarId,
};
use std::collections::HashSet;

use super::rules::{Ctx, Rewrite};

/// The guard as a range of the iota element `c`: it is true exactly on the
/// prefix `c < x` (`inclusive` false) or `c <= x` (true) when `on_prefix`,
/// else exactly on the rest.
struct Guard {
    x: Operand,
    inclusive: bool,
    on_prefix: bool,
}

/// The rewrite of the module doc, when it applies to `s`.
pub fn rewrite(cx: &mut dyn Ctx, s: &Screma) -> Option<Rewrite> {
    if !s.scans.is_empty() {
        return None;
    }
    let body = &s.map.body;
    let (if_stm, prefix) = body.stms.split_last()?;
    let Exp::If {
        cond: Operand::Var(cv),
        then_body,
        else_body,
    } = &if_stm.exp
    else {
        return None;
    };
    let cmp = prefix.iter().find(|st| st.pat == [*cv])?;
    let Exp::Cmp(op, a, b) = cmp.exp else {
        return None;
    };
    if cx.elem(&a) != Some(PrimType::I64) {
        return None;
    }
    let index = iota_element(cx, s, a, b)?;
    let inside = bound_in(&s.map);
    let guard = guard(op, a, b, index.var, &inside)?;
    if !prefix.iter().all(|st| cannot_fail(cx, &st.exp)) {
        return None;
    }
    let positions = result_positions(&s.map, if_stm)?;
    let drops = |d: &ir::Body| d.stms.is_empty() && drops_nothing(cx, s, &positions, d);
    // The kept branch, and whether it runs on the prefix.
    let (kept, on_prefix) = if drops(else_body) {
        (then_body, guard.on_prefix)
    } else if drops(then_body) {
        (else_body, !guard.on_prefix)
    } else {
        return None;
    };
    let span = cmp.span;
    let (mut pre, m) = bound_stms(cx, &s.w, &guard, span);
    // The kept range: `[0, m)`, or `[m, w)`.
    let (start, width) = if on_prefix {
        (Operand::Const(PrimValue::I64(0)), m)
    } else {
        let rest = cx.fresh("kept", PrimType::I64);
        pre.push(stm(
            rest,
            Exp::BinOp(BinOp::Sub, s.w, Operand::Var(m)),
            span,
        ));
        (Operand::Var(m), rest)
    };
    let mut map = s.map.clone();
    let mut inputs = s.inputs.clone();
    // The other array inputs are sliced to the kept rows.
    for (k, inp) in inputs.iter_mut().enumerate() {
        let mut ty = cx.var_type(*inp)?.clone();
        if Some(k) == index.input || ty.acc {
            continue;
        }
        *ty.shape.first_mut()? = Size::Var(width);
        let rows = cx.fresh_array(*inp, ty);
        let slice = DimIndex::Range {
            start,
            len: Operand::Var(width),
            stride: Operand::Const(PrimValue::I64(1)),
        };
        pre.push(stm(rows, Exp::Index(*inp, vec![slice]), span));
        *inp = rows;
    }
    // The lambda's iteration index: the old one (if any) and the iota
    // element are bound to it, plus `start`.
    let old_index = if map.params.len() > inputs.len() {
        map.params.pop().map(|p| p.var)
    } else {
        None
    };
    if let Some(k) = index.input {
        inputs.remove(k);
        map.params.remove(k);
    }
    let mut bound: Vec<VarId> = old_index.into_iter().collect();
    if index.input.is_some() {
        bound.push(index.var);
    }
    let i = if on_prefix && let Some(&first) = bound.first() {
        // The prefix keeps the indices: the first becomes the index itself.
        bound.remove(0);
        first
    } else {
        cx.fresh("i", PrimType::I64)
    };
    map.params.push(Param::new(i));
    let mut stms: Vec<Stm> = bound
        .iter()
        .map(|&v| {
            let exp = if on_prefix {
                Exp::Atom(Operand::Var(i))
            } else {
                Exp::BinOp(BinOp::Add, Operand::Var(i), start)
            };
            stm(v, exp, span)
        })
        .collect();
    stms.extend(prefix.iter().cloned());
    stms.extend(kept.stms.iter().cloned());
    map.body.stms = stms;
    map.body.result = positions.iter().map(|&p| kept.result[p]).collect();
    let new = Screma {
        w: Operand::Var(width),
        inputs,
        scans: Vec::new(),
        reduces: s.reduces.clone(),
        map,
    };
    Some(Rewrite::Pre(pre, Exp::Screma(Box::new(new))))
}

/// The statement `let v = exp`.
fn stm(v: VarId, exp: Exp, span: ir::Span) -> Stm {
    Stm {
        pat: vec![v],
        exp,
        attrs: Vec::new(),
        span,
    }
}

/// The iota element of a `screma`: the parameter of an input defined by
/// `iota(n, 0, 1)` (`input` its position) or the iteration index.
struct IotaElement {
    var: VarId,
    input: Option<usize>,
}

/// The iota element that the comparison `op(a, b)` tests: the parameter
/// of an input defined by `iota(n, 0, 1)`, or else the iteration index.
fn iota_element(cx: &dyn Ctx, s: &Screma, a: Operand, b: Operand) -> Option<IotaElement> {
    let tested = |v: VarId| a == Operand::Var(v) || b == Operand::Var(v);
    for (k, inp) in s.inputs.iter().enumerate() {
        let Some(p) = s.map.params.get(k) else { break };
        let zero_one = matches!(
            cx.def(*inp),
            Some(Exp::Iota {
                start: Operand::Const(PrimValue::I64(0)),
                step: Operand::Const(PrimValue::I64(1)),
                ..
            })
        );
        if zero_one && tested(p.var) {
            return Some(IotaElement {
                var: p.var,
                input: Some(k),
            });
        }
    }
    if s.map.params.len() == s.inputs.len() + 1 {
        let i = s.map.params[s.inputs.len()].var;
        if tested(i) {
            return Some(IotaElement {
                var: i,
                input: None,
            });
        }
    }
    None
}

/// The variables bound inside a lambda, its parameters included.
fn bound_in(l: &Lambda) -> HashSet<VarId> {
    let mut out: HashSet<VarId> = l.params.iter().map(|p| p.var).collect();
    walk_lambda(l, &mut |o| {
        if let Occ::Bind(v) = o {
            out.insert(v);
        }
    });
    out
}

/// The guard `op(a, b)` as a range of the iota element `c`, when one
/// operand is `c` and the other is bound outside the lambda.
fn guard(op: CmpOp, a: Operand, b: Operand, c: VarId, inside: &HashSet<VarId>) -> Option<Guard> {
    let outside = |o: Operand| match o {
        Operand::Const(_) => true,
        Operand::Var(v) => !inside.contains(&v),
    };
    // The comparison with `c` on the left.
    let (op, x) = if a == Operand::Var(c) && outside(b) {
        (op, b)
    } else if b == Operand::Var(c) && outside(a) {
        let flipped = match op {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            other => other,
        };
        (flipped, a)
    } else {
        return None;
    };
    let (inclusive, on_prefix) = match op {
        CmpOp::Lt => (false, true),
        CmpOp::Le => (true, true),
        // `c > x` is false exactly on `c <= x`; `c >= x` on `c < x`.
        CmpOp::Gt => (true, false),
        CmpOp::Ge => (false, false),
        CmpOp::Eq | CmpOp::Ne => return None,
    };
    Some(Guard {
        x,
        inclusive,
        on_prefix,
    })
}

/// True when evaluating the scalar expression `e` cannot fail.
fn cannot_fail(cx: &dyn Ctx, e: &Exp) -> bool {
    match e {
        Exp::Atom(_) | Exp::UnOp(..) | Exp::Cmp(..) | Exp::Convert(..) | Exp::Math(..) => true,
        Exp::BinOp(op, x, y) => {
            let int = cx.elem(x).is_some_and(|t| t.is_integer());
            let nonzero = matches!(y, Operand::Const(c) if c.as_i128().is_some_and(|v| v != 0));
            let nonneg = matches!(y, Operand::Const(c) if c.as_i128().is_some_and(|v| v >= 0));
            match op {
                BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem => !int || nonzero,
                BinOp::Pow => !int || nonneg,
                _ => true,
            }
        }
        _ => false,
    }
}

/// For each result of the lambda, the position in the final `if`'s pattern
/// it returns; `None` when a result is not one of the `if`'s.
fn result_positions(map: &Lambda, if_stm: &Stm) -> Option<Vec<usize>> {
    map.body
        .result
        .iter()
        .map(|r| {
            let v = r.var()?;
            if_stm.pat.iter().position(|p| *p == v)
        })
        .collect()
}

/// True when the branch `dropped` yields, for every result, what leaves that
/// result unchanged: the reductions' neutral constants (of operators they
/// are neutral for), and the accumulator parameters as they came.
fn drops_nothing(cx: &dyn Ctx, s: &Screma, positions: &[usize], dropped: &ir::Body) -> bool {
    let mut red = Vec::new();
    for sr in &s.reduces {
        for (k, ne) in sr.neutral.iter().enumerate() {
            red.push((&sr.op, k, *ne));
        }
    }
    if positions.len() < red.len() {
        return false;
    }
    let (red_pos, map_pos) = positions.split_at(red.len());
    for (&p, &(op, k, ne)) in red_pos.iter().zip(&red) {
        if !same_const(&dropped.result[p], &ne) || !neutral_for(op, k, &ne) {
            return false;
        }
    }
    let accs: Vec<VarId> = s
        .map
        .params
        .iter()
        .zip(&s.inputs)
        .filter(|(_, inp)| cx.var_type(**inp).is_some_and(|t| t.acc))
        .map(|(p, _)| p.var)
        .collect();
    map_pos.len() == accs.len()
        && map_pos
            .iter()
            .zip(&accs)
            .all(|(&p, acc)| dropped.result[p] == Operand::Var(*acc))
}

/// True when `a` and `b` are the same constant, bit for bit.
fn same_const(a: &Operand, b: &Operand) -> bool {
    let (Operand::Const(x), Operand::Const(y)) = (a, b) else {
        return false;
    };
    if x.prim_type() != y.prim_type() {
        return false;
    }
    match (x.as_f64(), y.as_f64()) {
        (Some(f), Some(g)) => f.to_bits() == g.to_bits(),
        _ => x == y,
    }
}

/// Whether `ne` may be taken as neutral for component `k` of the operator
/// `op`. When the component is one binary operation, it must be of its two
/// parameters and `ne` neutral for it; when it returns a parameter or
/// something from outside (`\_ b -> b` has no neutral element), never. Any
/// other operator (written as a function: the prelude's `f64.min`) is taken
/// at its word: the language requires a reduction's neutral element to be
/// neutral.
fn neutral_for(op: &Lambda, k: usize, ne: &Operand) -> bool {
    let Operand::Const(ne) = ne else {
        return false;
    };
    let half = op.params.len() / 2;
    let (Some(x), Some(y), Some(Operand::Var(r))) = (
        op.params.get(k),
        op.params.get(half + k),
        op.body.result.get(k),
    ) else {
        return false;
    };
    let Some(def) = op.body.stms.iter().find(|st| st.pat == [*r]) else {
        return false;
    };
    match def.exp {
        Exp::BinOp(bop, Operand::Var(a), Operand::Var(b)) => {
            let pair = (a == x.var && b == y.var) || (a == y.var && b == x.var);
            pair && is_neutral(bop, ne)
        }
        Exp::BinOp(..) | Exp::Atom(_) => false,
        _ => true,
    }
}

/// True when `ne` is a neutral element of `op` on its type.
fn is_neutral(op: BinOp, ne: &PrimValue) -> bool {
    let t = ne.prim_type();
    if let Some(f) = ne.as_f64() {
        return match op {
            BinOp::Add => f == 0.0,
            BinOp::Mul => f == 1.0,
            BinOp::Min => f == f64::INFINITY,
            BinOp::Max => f == f64::NEG_INFINITY,
            _ => false,
        };
    }
    if let Some(b) = ne.as_bool() {
        return match op {
            BinOp::And | BinOp::Min => b,
            BinOp::Or | BinOp::Xor | BinOp::Max => !b,
            _ => false,
        };
    }
    let Some(v) = ne.as_i128() else {
        return false;
    };
    let bits = 8 * t.byte_size() as u32;
    let (lo, hi) = if t.is_signed_integer() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    match op {
        BinOp::Add | BinOp::Or | BinOp::Xor => v == 0,
        BinOp::Mul => v == 1,
        BinOp::Min => v == hi,
        BinOp::Max => v == lo,
        BinOp::And => v == if t.is_signed_integer() { -1 } else { hi },
        _ => false,
    }
}

/// The statements computing the length of the prefix of `[0, w)` on which
/// the guard's `c < x` (`c <= x`) holds, and the variable holding it.
fn bound_stms(cx: &mut dyn Ctx, w: &Operand, g: &Guard, span: ir::Span) -> (Vec<Stm>, VarId) {
    let mut stms = Vec::new();
    let mut emit = |cx: &mut dyn Ctx, exp: Exp| {
        let v = cx.fresh("kept", PrimType::I64);
        stms.push(stm(v, exp, span));
        v
    };
    let zero = Operand::Const(PrimValue::I64(0));
    let one = Operand::Const(PrimValue::I64(1));
    let m = if g.inclusive {
        // max(min(x, w - 1) + 1, 0): w >= 0, so nothing overflows.
        let last = emit(cx, Exp::BinOp(BinOp::Sub, *w, one));
        let upto = emit(cx, Exp::BinOp(BinOp::Min, g.x, Operand::Var(last)));
        let count = emit(cx, Exp::BinOp(BinOp::Add, Operand::Var(upto), one));
        emit(cx, Exp::BinOp(BinOp::Max, Operand::Var(count), zero))
    } else {
        let count = emit(cx, Exp::BinOp(BinOp::Max, g.x, zero));
        emit(cx, Exp::BinOp(BinOp::Min, *w, Operand::Var(count)))
    };
    (stms, m)
}
