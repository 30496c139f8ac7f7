//! The local rewrite rules: each looks at one statement's expression (with
//! the definitions of its operands) and proposes a cheaper replacement.
//! Constant folding evaluates with [`ir::interp::scalar`], the interpreter's
//! own scalar semantics, so the two cannot disagree.

use ir::interp::scalar;
use ir::{BinOp, CmpOp, ConvKind, DimIndex, Exp, LoopForm, Operand, PrimType, PrimValue, UnOp};
use ir::{Size, Stm, VarId};

/// What a rule proposes for a statement.
#[derive(Debug)]
pub enum Rewrite {
    /// The statement's results are these operands; the statement goes.
    Values(Vec<Operand>),
    /// Replace the expression.
    Exp(Exp),
    /// Insert these statements before, then replace the expression.
    Pre(Vec<Stm>, Exp),
    /// The statement is replaced by these statements, and its results are
    /// these operands (an `if` with a known condition).
    Inline(Vec<Stm>, Vec<Operand>),
}

/// What the rules may ask about the program around a statement.
pub trait Ctx {
    /// The element type of an operand.
    fn elem(&self, o: &Operand) -> Option<PrimType>;
    /// The expression that defines `v`, when `v` is the only result of a
    /// statement in scope.
    fn def(&self, v: VarId) -> Option<&Exp>;
    /// How many times `v` is used in the function.
    fn uses(&self, v: VarId) -> usize;
    /// A fresh scalar variable of type `t`, named after `hint`.
    fn fresh(&mut self, hint: &str, t: PrimType) -> VarId;
    /// True when `v` (or an alias of it) is consumed somewhere.
    fn consumed(&self, v: VarId) -> bool;
    /// The type of `v`.
    fn var_type(&self, v: VarId) -> Option<&ir::Type>;
    /// A fresh variable of type `ty`, named after `like` (`like_kept`).
    fn fresh_array(&mut self, like: VarId, ty: ir::Type) -> VarId;
    /// True when `0 <= i < n` is known wherever this statement runs: `i` is
    /// the index of an enclosing `for i < n`, or the element of an `iota n`
    /// that an enclosing SOAC maps over, or both are constants.
    fn known_below(&self, i: &Operand, n: &Operand) -> bool;
}

/// A size as an operand (`None` for an unknown size).
fn size_operand(s: &Size) -> Option<Operand> {
    match s {
        Size::Const(c) => Some(Operand::Const(PrimValue::I64(*c))),
        Size::Var(v) => Some(Operand::Var(*v)),
        Size::Any => None,
    }
}

fn konst(o: &Operand) -> Option<PrimValue> {
    match o {
        Operand::Const(c) => Some(*c),
        Operand::Var(_) => None,
    }
}

fn is_int(t: PrimType) -> bool {
    t.is_integer()
}

fn int_is(o: &Operand, x: i128) -> bool {
    konst(o).is_some_and(|c| c.prim_type().is_integer() && c.as_i128() == Some(x))
}

fn float_is(o: &Operand, x: f64) -> bool {
    // Compares bits, so that 0.0 and -0.0 differ.
    konst(o).is_some_and(|c| {
        c.prim_type().is_float() && c.as_f64().is_some_and(|f| f.to_bits() == x.to_bits())
    })
}

fn bool_is(o: &Operand, b: bool) -> bool {
    konst(o).is_some_and(|c| c.as_bool() == Some(b))
}

fn zero(t: PrimType) -> Operand {
    Operand::Const(scalar::zero(t))
}

/// Folds a scalar expression whose operands are all constants.
pub fn fold(e: &Exp) -> Option<Rewrite> {
    let v = match e {
        Exp::UnOp(op, x) => scalar::unop(*op, konst(x)?),
        Exp::BinOp(op, x, y) => scalar::binop(*op, konst(x)?, konst(y)?).ok()?,
        Exp::Cmp(op, x, y) => PrimValue::Bool(scalar::cmp(*op, konst(x)?, konst(y)?)),
        Exp::Convert(k, t, x) => scalar::convert(*k, *t, konst(x)?),
        Exp::Math(f, args) => {
            let args = args.iter().map(konst).collect::<Option<Vec<_>>>()?;
            scalar::math(*f, &args)
        }
        _ => return None,
    };
    Some(Rewrite::Values(vec![Operand::Const(v)]))
}

fn same(x: &Operand, y: &Operand) -> bool {
    matches!((x, y), (Operand::Var(a), Operand::Var(b)) if a == b)
}

fn one(o: Operand) -> Option<Rewrite> {
    Some(Rewrite::Values(vec![o]))
}

/// The algebraic identities of binary operators.
pub fn binop(cx: &mut dyn Ctx, op: BinOp, x: &Operand, y: &Operand) -> Option<Rewrite> {
    use BinOp::*;
    let t = cx.elem(x)?;
    let int = is_int(t);
    let float = t.is_float();
    let boolean = t == PrimType::Bool;
    match op {
        Add if int && int_is(y, 0) => one(*x),
        Add if int && int_is(x, 0) => one(*y),
        // x + -0.0 is x for every x (x + 0.0 is not: -0.0 + 0.0 is 0.0).
        Add if float && float_is(y, -0.0) => one(*x),
        Add if float && float_is(x, -0.0) => one(*y),
        Add if int => factor(cx, x, y, t),
        Sub if int && int_is(y, 0) => one(*x),
        Sub if float && float_is(y, 0.0) => one(*x),
        Sub if int && same(x, y) => one(zero(t)),
        Mul if int && (int_is(y, 0) || int_is(x, 0)) => one(zero(t)),
        Mul if (int && int_is(y, 1)) || (float && float_is(y, 1.0)) => one(*x),
        Mul if (int && int_is(x, 1)) || (float && float_is(x, 1.0)) => one(*y),
        Div | Quot if (int && int_is(y, 1)) || (float && op == Div && float_is(y, 1.0)) => one(*x),
        Mod | Rem if int && int_is(y, 1) => one(zero(t)),
        Pow if (int && int_is(y, 1)) || (float && float_is(y, 1.0)) => one(*x),
        Pow if int && int_is(y, 0) => one(Operand::Const(scalar::wrap(t, 1))),
        Min | Max | And | Or if same(x, y) => one(*x),
        And if boolean && (bool_is(y, true)) => one(*x),
        And if boolean && (bool_is(x, true)) => one(*y),
        And if boolean && (bool_is(x, false) || bool_is(y, false)) => {
            one(Operand::Const(PrimValue::Bool(false)))
        }
        Or if boolean && bool_is(y, false) => one(*x),
        Or if boolean && bool_is(x, false) => one(*y),
        Or if boolean && (bool_is(x, true) || bool_is(y, true)) => {
            one(Operand::Const(PrimValue::Bool(true)))
        }
        And if int && (int_is(x, 0) || int_is(y, 0)) => one(zero(t)),
        And if int && int_is(y, -1) && t.is_signed_integer() => one(*x),
        Or | Xor if int && int_is(y, 0) => one(*x),
        Or | Xor if int && int_is(x, 0) => one(*y),
        Xor if boolean && bool_is(y, false) => one(*x),
        Xor if boolean && bool_is(x, false) => one(*y),
        Xor if (int || boolean) && same(x, y) => one(zero(t)),
        Shl | Shr | UShr if int && int_is(y, 0) => one(*x),
        _ => None,
    }
}

/// `a*b + a*c → a*(b+c)` for integers, when both products are used only
/// here (three operations become two).
fn factor(cx: &mut dyn Ctx, x: &Operand, y: &Operand, t: PrimType) -> Option<Rewrite> {
    let (Operand::Var(p), Operand::Var(q)) = (x, y) else {
        return None;
    };
    if p == q || cx.uses(*p) != 1 || cx.uses(*q) != 1 {
        return None;
    }
    let (Exp::BinOp(BinOp::Mul, a, b), Exp::BinOp(BinOp::Mul, c, d)) = (cx.def(*p)?, cx.def(*q)?)
    else {
        return None;
    };
    let (a, b, c, d) = (*a, *b, *c, *d);
    let (common, r1, r2) = if same(&a, &c) {
        (a, b, d)
    } else if same(&a, &d) {
        (a, b, c)
    } else if same(&b, &c) {
        (b, a, d)
    } else if same(&b, &d) {
        (b, a, c)
    } else {
        return None;
    };
    let s = cx.fresh("sum", t);
    let stm = Stm {
        pat: vec![s],
        exp: Exp::BinOp(BinOp::Add, r1, r2),
        attrs: vec![],
        span: ir::Span::NONE,
    };
    Some(Rewrite::Pre(
        vec![stm],
        Exp::BinOp(BinOp::Mul, common, Operand::Var(s)),
    ))
}

fn negate(op: CmpOp) -> CmpOp {
    use CmpOp::*;
    match op {
        Eq => Ne,
        Ne => Eq,
        Lt => Ge,
        Le => Gt,
        Gt => Le,
        Ge => Lt,
    }
}

/// Rules for every expression that is not a constant fold.
pub fn rewrite(cx: &mut dyn Ctx, e: &Exp) -> Option<Rewrite> {
    match e {
        Exp::BinOp(op, x, y) => binop(cx, *op, x, y),
        Exp::Cmp(op, x, y) => {
            let t = cx.elem(x)?;
            if same(x, y) && !t.is_float() {
                let r = matches!(op, CmpOp::Eq | CmpOp::Le | CmpOp::Ge);
                return one(Operand::Const(PrimValue::Bool(r)));
            }
            None
        }
        Exp::UnOp(op, Operand::Var(v)) => match (op, cx.def(*v)?) {
            (UnOp::Neg, Exp::UnOp(UnOp::Neg, inner)) | (UnOp::Not, Exp::UnOp(UnOp::Not, inner)) => {
                one(*inner)
            }
            (UnOp::Not, Exp::Cmp(c, a, b)) if !cx.elem(a)?.is_float() => {
                Some(Rewrite::Exp(Exp::Cmp(negate(*c), *a, *b)))
            }
            _ => None,
        },
        Exp::Convert(ConvKind::Convert | ConvKind::Bitcast, t, x) if cx.elem(x)? == *t => one(*x),
        Exp::Index(arr, idx) => index(cx, *arr, idx),
        Exp::If {
            cond,
            then_body,
            else_body,
        } => {
            if let Some(b) = konst(cond).and_then(|c| c.as_bool()) {
                let body = if b { then_body } else { else_body };
                return Some(Rewrite::Inline(body.stms.clone(), body.result.clone()));
            }
            if then_body.stms.is_empty()
                && else_body.stms.is_empty()
                && then_body.result.len() == else_body.result.len()
                && then_body
                    .result
                    .iter()
                    .zip(&else_body.result)
                    .all(|(a, b)| {
                        same(a, b) || (konst(a).is_some() && format!("{a:?}") == format!("{b:?}"))
                    })
            {
                return Some(Rewrite::Values(then_body.result.clone()));
            }
            if then_body.stms.is_empty()
                && else_body.stms.is_empty()
                && then_body.result.len() == 1
                && bool_is(&then_body.result[0], true)
                && bool_is(&else_body.result[0], false)
            {
                return one(*cond);
            }
            None
        }
        Exp::Loop { params, form, .. } => {
            let zero_trips = match form {
                LoopForm::For { bound, .. } => {
                    konst(bound).is_some_and(|c| c.as_i128().is_some_and(|n| n <= 0))
                }
                LoopForm::While { cond } => params
                    .iter()
                    .any(|(p, init)| p.var == *cond && bool_is(init, false)),
            };
            // The results become the initial values; an array result that
            // is consumed later must stay a fresh value.
            if zero_trips
                && params
                    .iter()
                    .all(|(p, init)| p.unique || !init.var().is_some_and(|v| cx.consumed(v)))
            {
                return Some(Rewrite::Values(params.iter().map(|(_, i)| *i).collect()));
            }
            None
        }
        Exp::Assert { cond, .. } if bool_is(cond, true) => Some(Rewrite::Values(vec![])),
        Exp::Screma(s) => {
            super::replicated::rewrite(cx, s).or_else(|| super::guarded_iota::rewrite(cx, s))
        }
        _ => None,
    }
}

/// `iota(n, 0, 1)[i] → i` (for `i64`) and `replicate(shape, x)[i...] → x`
/// (or an index of `x` when there are more indices than replicated
/// dimensions).
/// `iota(n, 0, 1)[i]` → `i` and `replicate(s, x)[i...]` → `x` (or an index
/// of `x`), only where every index dropped is known to be in bounds
/// ([`Ctx::known_below`]): the index being rewritten away checks its bounds,
/// and an index out of bounds must still fail.
fn index(cx: &mut dyn Ctx, arr: VarId, idx: &[DimIndex]) -> Option<Rewrite> {
    let fixed: Vec<Operand> = idx
        .iter()
        .map(|d| match d {
            DimIndex::Fix(o) => Some(*o),
            DimIndex::Range { .. } => None,
        })
        .collect::<Option<_>>()?;
    match cx.def(arr)? {
        Exp::Iota {
            n,
            start: Operand::Const(PrimValue::I64(0)),
            step: Operand::Const(PrimValue::I64(1)),
        } if fixed.len() == 1 && cx.known_below(&fixed[0], n) => one(fixed[0]),
        Exp::Replicate { shape, value } if fixed.len() >= shape.len() => {
            let in_bounds = shape
                .iter()
                .zip(&fixed)
                .all(|(s, i)| size_operand(s).is_some_and(|n| cx.known_below(i, &n)));
            if !in_bounds {
                return None;
            }
            let rest = &idx[shape.len()..];
            if rest.is_empty() {
                return one(*value);
            }
            let Operand::Var(v) = value else {
                return None;
            };
            Some(Rewrite::Exp(Exp::Index(*v, rest.to_vec())))
        }
        _ => None,
    }
}
