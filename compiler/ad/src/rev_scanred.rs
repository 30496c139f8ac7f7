//! Adjoints through reductions and scans with any operator.
//!
//! A `screma` whose scans or non-`+` reductions need adjoints is swept back
//! in two steps: a map-only `screma` re-computes the values the map lambda
//! feeds to its scans and reductions, the rules below turn the adjoints of
//! the scanned and reduced results into adjoints of those values, and the
//! map-only `screma` is then swept back like any map.
//!
//! Reductions `y = ne ⊙ x₀ ⊙ … ⊙ xₙ₋₁`:
//! - `+`: every element's adjoint is `ȳ`.
//! - `*` on floats: with `p` the product of `ne` and the non-zero elements
//!   and `z` the number of zeros, `x̄ᵢ = ȳ·p/xᵢ` when `z = 0`, `ȳ·p` for
//!   the zero element when `z = 1`, and `0` otherwise, written so that
//!   second derivatives through the zeros are right too
//!   ([`Ctx::zero_factor_adj`]).
//! - any other associative operator: the exclusive scans from both ends,
//!   `lᵢ = ne ⊙ x₀ ⊙ … ⊙ xᵢ₋₁` and `rᵢ = xᵢ₊₁ ⊙ … ⊙ xₙ₋₁ ⊙ ne`, then per
//!   element the vjp of `x ↦ (lᵢ ⊙ x) ⊙ rᵢ` at `xᵢ` with seed `ȳ`. `min`
//!   and `max` written with comparisons take this rule, which sends the
//!   adjoint to the element the operator selects: the first of equal
//!   extremes, as a left-to-right evaluation does.
//! - a selecting operator on scalars (its result is one of its operands:
//!   `min`, `max`): one reduction of (value, index) pairs finds the
//!   element it selects, which gets `ȳ` (ties as a left-to-right
//!   evaluation from the neutral element sends them).
//! - an elementwise operator (`map2 f` on rows, up to size assertions and
//!   reshapes): the rows are transposed into columns and each column takes
//!   the rule of `f` (zero counting for `map2 (*)`), in a map.
//!
//! Scans `yᵢ = yᵢ₋₁ ⊙ xᵢ` (`y₋₁ = ne`):
//! - `+`: `x̄ᵢ = Σ_{j ≥ i} ȳⱼ`, a `+` scan of the reversed adjoints.
//! - any other operator on scalars: with `aᵢ = ∂yᵢ/∂yᵢ₋₁` and
//!   `dᵢ = ∂yᵢ/∂xᵢ` (the vjp of the operator), the total adjoint of each
//!   result, `cᵢ = ȳᵢ + aᵢ₊₁·cᵢ₊₁`, is a scan from the end composing the
//!   linear functions `c ↦ ȳᵢ + aᵢ₊₁·c`; then `x̄ᵢ = dᵢ·cᵢ`.
//! - on tuples of `K` scalars (floats, or integers with integer arithmetic): the same with `K×K` Jacobians (row by
//!   row from `K` vjps of the operator with one-hot seeds), composed as
//!   affine maps `c ↦ ȳᵢ + Aᵢ₊₁ᵀ·c`; `x̄ᵢ` is the vjp with seed `cᵢ`.
//! - on rows of constant shapes with an operator that is not elementwise:
//!   each row becomes a tuple of its scalars and the tuple rule applies;
//!   on rows of one run-time length `d`, the tuple rule with `[d][d]`
//!   arrays composed by matrix products.
//! - elementwise operators: per column, as for reductions.
//! - scans whose elements mix arrays of unknown sizes, with an operator
//!   that is not elementwise, have no rule yet.

use ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, Lambda, Operand, Param, ScanRed, Screma, Stm, Type, VarId,
};

use crate::ctx::{Ctx, R, konst};

/// True when the operator of `sr` is the scalar binary operator `bop` on
/// its two parameters (in either order).
pub fn is_binop(sr: &ScanRed, bop: BinOp) -> bool {
    let k = sr.neutral.len();
    let op = &sr.op;
    if op.params.len() != 2 * k || op.body.result.len() != k {
        return false;
    }
    (0..k).all(|j| {
        let (a, b) = (op.params[j].var, op.params[k + j].var);
        let Some(Operand::Var(r)) = op.body.result.get(j) else {
            return false;
        };
        op.body.stms.iter().any(|s| {
            s.pat == [*r]
                && matches!(s.exp, Exp::BinOp(o, Operand::Var(x), Operand::Var(y))
                    if o == bop && ((x == a && y == b) || (x == b && y == a)))
        })
    })
}

/// When `op` (on `k`-tuples of arrays) applies a scalar operator
/// elementwise — its result is a map over its `2k` parameters, as `map2 f`
/// is, up to size assertions and reshapes — that map's lambda.
pub fn elementwise(op: &Lambda) -> Option<&Lambda> {
    let params: Vec<VarId> = op.params.iter().map(|p| p.var).collect();
    if params.is_empty() || op.ret.iter().any(|t| t.shape.is_empty()) {
        return None;
    }
    let mut found: Option<(&Stm, &Screma)> = None;
    for st in &op.body.stms {
        match &st.exp {
            Exp::Screma(s) => {
                if found.is_some() || !s.scans.is_empty() || !s.reduces.is_empty() {
                    return None;
                }
                found = Some((st, s));
            }
            Exp::Cmp(..) | Exp::Assert { .. } | Exp::Reshape { .. } | Exp::Atom(_) => {}
            _ => return None,
        }
    }
    let (st, s) = found?;
    if s.inputs != params || s.map.params.len() != params.len() {
        return None;
    }
    // Each result must be the map's result of the same position, possibly
    // reshaped or renamed.
    let source = |v: VarId| -> Option<VarId> {
        let mut v = v;
        loop {
            if st.pat.contains(&v) {
                return Some(v);
            }
            let def = op.body.stms.iter().find(|t| t.pat == [v])?;
            v = match &def.exp {
                Exp::Reshape { arr, .. } => *arr,
                Exp::Atom(Operand::Var(x)) => *x,
                _ => return None,
            };
        }
    };
    let ok = op.body.result.len() == st.pat.len()
        && op
            .body
            .result
            .iter()
            .zip(&st.pat)
            .all(|(r, p)| r.var().and_then(source) == Some(*p));
    ok.then_some(&s.map)
}

impl Ctx<'_> {
    /// The type of a row of the array `x` (`bool` for a scalar, which has
    /// no rows: the rules never use that type).
    fn row_type(&self, x: VarId) -> Type {
        self.ty(x)
            .row()
            .unwrap_or_else(|| Type::scalar(ir::PrimType::Bool))
    }

    /// The identity lambda on rows of types `ts`.
    pub(crate) fn id_lambda(&mut self, ts: &[Type]) -> Lambda {
        let ps: Vec<VarId> = ts.iter().map(|t| self.fresh("x", t.clone())).collect();
        Lambda {
            params: ps.iter().copied().map(Param::new).collect(),
            ret: ts.to_vec(),
            body: Body {
                stms: Vec::new(),
                result: ps.into_iter().map(Operand::Var).collect(),
            },
        }
    }

    /// A fresh copy of `op` (taking `2k` parameters) with its two argument
    /// groups swapped when `flip`.
    pub(crate) fn op_copy(&mut self, op: &Lambda, flip: bool) -> Lambda {
        let pvars: Vec<VarId> = op.params.iter().map(|p| p.var).collect();
        let (ps, body) = self.rename(&pvars, &op.body);
        let k = ps.len() / 2;
        let mut params: Vec<Param> = ps.into_iter().map(Param::new).collect();
        if flip {
            params.rotate_left(k);
        }
        Lambda {
            params,
            ret: op.ret.clone(),
            body,
        }
    }

    /// Emits `op(a, b)` inline into `out`, returning its results.
    pub(crate) fn apply_op(
        &mut self,
        out: &mut Vec<Stm>,
        op: &Lambda,
        a: &[Operand],
        b: &[Operand],
    ) -> Vec<Operand> {
        let copy = self.op_copy(op, false);
        for (p, x) in copy.params.iter().zip(a.iter().chain(b)) {
            self.push(out, vec![p.var], Exp::Atom(*x));
        }
        out.extend(copy.body.stms);
        copy.body.result
    }

    /// `screma(w, inputs)` with the given scans and map lambda, bound to
    /// fresh variables of the given types.
    pub(crate) fn emit_screma(
        &mut self,
        out: &mut Vec<Stm>,
        name: &str,
        w: Operand,
        inputs: Vec<VarId>,
        scans: Vec<ScanRed>,
        map: Lambda,
    ) -> Vec<VarId> {
        let ws = w.to_size();
        let pat: Vec<VarId> = map
            .ret
            .iter()
            .map(|t| self.fresh(name, t.array_of(ws)))
            .collect();
        self.push(
            out,
            pat.clone(),
            Exp::Screma(Box::new(Screma {
                w,
                inputs,
                scans,
                reduces: Vec::new(),
                map,
            })),
        );
        pat
    }

    /// An index-only map: `body` receives the iteration index and emits
    /// statements returning values of types `ts`.
    pub(crate) fn map_index(
        &mut self,
        out: &mut Vec<Stm>,
        name: &str,
        w: Operand,
        ts: &[Type],
        body: impl FnOnce(&mut Self, &mut Vec<Stm>, Operand) -> R<Vec<Operand>>,
    ) -> R<Vec<VarId>> {
        let i = self.fresh("i", Type::scalar(ir::PrimType::I64));
        let mut stms = Vec::new();
        let result = body(self, &mut stms, i.into())?;
        let lam = Lambda {
            params: vec![Param::new(i)],
            ret: ts.to_vec(),
            body: Body { stms, result },
        };
        Ok(self.emit_screma(out, name, w, Vec::new(), Vec::new(), lam))
    }

    /// `if c then a else (stms; b)` for values of types `ts`.
    pub(crate) fn select_many(
        &mut self,
        out: &mut Vec<Stm>,
        ts: &[Type],
        c: Operand,
        a: Vec<Operand>,
        else_body: Body,
    ) -> Vec<Operand> {
        let pat: Vec<VarId> = ts.iter().map(|t| self.fresh("sel", t.clone())).collect();
        self.push(
            out,
            pat.clone(),
            Exp::If {
                cond: c,
                then_body: Body {
                    stms: Vec::new(),
                    result: a,
                },
                else_body,
            },
        );
        pat.into_iter().map(Operand::Var).collect()
    }

    /// The arrays `xs` in reverse order.
    pub(crate) fn reverse_arrays(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        xs: &[VarId],
    ) -> R<Vec<VarId>> {
        let ts: Vec<Type> = xs.iter().map(|x| self.row_type(*x)).collect();
        let xs = xs.to_vec();
        self.map_index(out, "rev", w, &ts, |cx, b, i| {
            let last = cx.bin(b, BinOp::Sub, w, Operand::i64(1))?;
            let j = cx.bin(b, BinOp::Sub, last, i)?;
            cx.index_each(b, "e", &xs, j)
        })
    }

    /// The exclusive scan of `xs` by `op` from the left (`rev` false:
    /// `ne ⊙ x₀ ⊙ … ⊙ xᵢ₋₁`) or from the right (`rev` true:
    /// `xᵢ₊₁ ⊙ … ⊙ xₙ₋₁ ⊙ ne`).
    pub(crate) fn exclusive_scan(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        xs: &[VarId],
        op: &Lambda,
        ne: &[Operand],
        rev: bool,
    ) -> R<Vec<VarId>> {
        let ts: Vec<Type> = xs.iter().map(|x| self.row_type(*x)).collect();
        let ins = if rev {
            self.reverse_arrays(out, w, xs)?
        } else {
            xs.to_vec()
        };
        let sop = self.op_copy(op, rev);
        let id = self.id_lambda(&ts);
        let scan = ScanRed {
            op: sop,
            neutral: ne.to_vec(),
            commutative: false,
        };
        let incl = self.emit_screma(out, "scan", w, ins, vec![scan], id);
        let ne = ne.to_vec();
        let ts2 = ts.clone();
        self.map_index(out, "excl", w, &ts, |cx, b, i| {
            // Position i of the result reads position i-1 of the inclusive
            // scan (from the left) or n-2-i (from the right).
            let (edge, src) = if rev {
                let last = cx.bin(b, BinOp::Sub, w, Operand::i64(1))?;
                let src = cx.bin(b, BinOp::Sub, last, Operand::i64(1))?;
                (last, src)
            } else {
                (Operand::i64(0), Operand::i64(-1))
            };
            let c = cx.cmp(b, CmpOp::Eq, i, edge)?;
            let mut eb = Vec::new();
            let j = if rev {
                cx.bin(&mut eb, BinOp::Sub, src, i)?
            } else {
                cx.bin(&mut eb, BinOp::Add, i, src)?
            };
            let res = cx.rows_at(&mut eb, &incl, j)?;
            Ok(cx.select_many(
                b,
                &ts2,
                c,
                ne.clone(),
                Body {
                    stms: eb,
                    result: res,
                },
            ))
        })
    }

    /// The adjoints of the elements `xs` of a reduction `sr` whose results
    /// have adjoints `ybar`.
    pub fn rev_reduce(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        sr: &ScanRed,
        xs: &[VarId],
        ybar: &[Operand],
    ) -> R<Vec<VarId>> {
        let ts: Vec<Type> = xs.iter().map(|x| self.row_type(*x)).collect();
        if is_binop(sr, BinOp::Add) {
            let ws = w.to_size();
            let mut res = Vec::new();
            for a in ybar {
                let exp = Exp::Replicate {
                    shape: vec![ws],
                    value: *a,
                };
                res.push(self.bind(out, "adj_rep", exp)?);
            }
            return Ok(res);
        }
        if let Some(col) = elementwise(&sr.op) {
            return self.rev_by_columns(out, w, sr, col, &[], xs, ybar);
        }
        if xs.len() == 1 && ts[0].is_scalar() && crate::rev_hist::is_selection(&sr.op) {
            return self.rev_reduce_select(out, w, sr, xs[0], ybar[0]);
        }
        if xs.len() == 1
            && ts[0].shape.is_empty()
            && ts[0].elem.is_float()
            && is_binop(sr, BinOp::Mul)
        {
            return self.rev_product(out, w, sr.neutral[0], xs[0], ybar[0]);
        }
        let ls = self.exclusive_scan(out, w, xs, &sr.op, &sr.neutral, false)?;
        let rs = self.exclusive_scan(out, w, xs, &sr.op, &sr.neutral, true)?;
        let lp: Vec<VarId> = ts.iter().map(|t| self.fresh("l", t.clone())).collect();
        let xp: Vec<VarId> = ts.iter().map(|t| self.fresh("x", t.clone())).collect();
        let rp: Vec<VarId> = ts.iter().map(|t| self.fresh("r", t.clone())).collect();
        let closure = self.closure_vars(&sr.op);
        let ops = |v: &[VarId]| -> Vec<Operand> { v.iter().copied().map(Operand::Var).collect() };
        let mut b = Vec::new();
        let (xbar, cadj) = self.elem_adj(
            &mut b,
            &sr.op,
            [&ops(&lp), &ops(&xp), &ops(&rp)],
            ybar.to_vec(),
            &ts,
            &closure,
        )?;
        let mut params: Vec<Param> = Vec::new();
        for v in lp.iter().chain(&xp).chain(&rp) {
            params.push(Param::new(*v));
        }
        let mut ret: Vec<Type> = closure.iter().map(|c| self.ty(*c)).collect();
        ret.extend(ts.iter().cloned());
        let mut result = cadj;
        result.extend(xbar);
        let lam = Lambda {
            params,
            ret,
            body: Body { stms: b, result },
        };
        let mut inputs = ls;
        inputs.extend_from_slice(xs);
        inputs.extend(rs);
        self.emit_map_summing(out, "adj_red", w, inputs, lam, &closure)
    }

    /// The variables free in operator `op` that carry adjoints.
    pub(crate) fn closure_vars(&self, op: &Lambda) -> Vec<VarId> {
        let mut v: Vec<VarId> = ir::uses::lambda_free(self.vars(), op)
            .into_iter()
            .filter(|x| self.active(&(*x).into()))
            .collect();
        v.sort_by_key(|x| x.as_u32());
        v
    }

    /// The adjoint of `x` in `(l ⊙ x) ⊙ r` with seeds `seeds`, and the
    /// adjoints of the operator's free variables `closure` through the
    /// application `l ⊙ x` alone (each application of a reduction or
    /// histogram counts once): the adjoint `m̄` of `m = l ⊙ x` comes from
    /// the vjp of `m ↦ m ⊙ r`, then the vjp of `x ↦ l ⊙ x` with seed `m̄`
    /// gives both.
    pub(crate) fn elem_adj(
        &mut self,
        b: &mut Vec<Stm>,
        op: &Lambda,
        [l, x, r]: [&[Operand]; 3],
        seeds: Vec<Operand>,
        ts: &[Type],
        closure: &[VarId],
    ) -> R<(Vec<Operand>, Vec<Operand>)> {
        let k = ts.len();
        let fresh =
            |cx: &mut Self| -> Vec<VarId> { ts.iter().map(|t| cx.fresh("x", t.clone())).collect() };
        let lambda = |ps: Vec<VarId>, stms: Vec<Stm>, result: Vec<Operand>| Lambda {
            params: ps.into_iter().map(Param::new).collect(),
            ret: ts.to_vec(),
            body: Body { stms, result },
        };
        let pat = |cx: &mut Self| -> Vec<VarId> {
            ts.iter()
                .chain(ts)
                .map(|t| cx.fresh("g", t.clone()))
                .collect()
        };
        if closure.is_empty() {
            let xq = fresh(self);
            let xo: Vec<Operand> = xq.iter().copied().map(Operand::Var).collect();
            let mut fb = Vec::new();
            let m = self.apply_op(&mut fb, op, l, &xo);
            let y = self.apply_op(&mut fb, op, &m, r);
            let f = lambda(xq, fb, y);
            let pt = pat(self);
            self.vjp(
                &pt,
                &ir::AdExp {
                    lambda: f,
                    primals: x.to_vec(),
                    seeds,
                },
                b,
            )?;
            return Ok((
                pt[k..].iter().copied().map(Operand::Var).collect(),
                Vec::new(),
            ));
        }
        let m = self.apply_op(b, op, l, x);
        let mq = fresh(self);
        let mo: Vec<Operand> = mq.iter().copied().map(Operand::Var).collect();
        let mut gb = Vec::new();
        let y = self.apply_op(&mut gb, op, &mo, r);
        let g = lambda(mq, gb, y);
        let p1 = pat(self);
        self.vjp(
            &p1,
            &ir::AdExp {
                lambda: g,
                primals: m,
                seeds,
            },
            b,
        )?;
        let mbar: Vec<Operand> = p1[k..].iter().copied().map(Operand::Var).collect();
        let xq = fresh(self);
        let xo: Vec<Operand> = xq.iter().copied().map(Operand::Var).collect();
        let mut hb = Vec::new();
        let y2 = self.apply_op(&mut hb, op, l, &xo);
        let h = lambda(xq, hb, y2);
        let p2 = pat(self);
        let cadj = self.vjp_closure(
            &p2,
            &ir::AdExp {
                lambda: h,
                primals: x.to_vec(),
                seeds: mbar,
            },
            b,
            closure,
        )?;
        Ok((p2[k..].iter().copied().map(Operand::Var).collect(), cadj))
    }

    /// Like [`Ctx::vjp`], also returning the adjoints of the `closure`
    /// variables (zeros for those that got none).
    pub(crate) fn vjp_closure(
        &mut self,
        pat: &[VarId],
        ad: &ir::AdExp,
        b: &mut Vec<Stm>,
        closure: &[VarId],
    ) -> R<Vec<Operand>> {
        let (mut pre, mut rev) = (Vec::new(), Vec::new());
        let free = self.split_vjp(pat, ad, &mut pre, &mut rev)?;
        b.extend(pre);
        b.extend(rev);
        let mut res = Vec::new();
        for c in closure {
            match free.iter().find(|(v, _)| v == c) {
                Some((_, a)) => res.push(*a),
                None => {
                    let t = self.ty(*c);
                    res.push(self.zero_adj(b, &t)?);
                }
            }
        }
        Ok(res)
    }

    /// Emits a `screma` of `lam`, whose first results are one value per
    /// `closure` variable, summed over the iterations (`+` reductions) and
    /// added to those variables' adjoints; returns the mapped arrays.
    pub(crate) fn emit_map_summing(
        &mut self,
        out: &mut Vec<Stm>,
        name: &str,
        w: Operand,
        inputs: Vec<VarId>,
        lam: Lambda,
        closure: &[VarId],
    ) -> R<Vec<VarId>> {
        if closure.is_empty() {
            return Ok(self.emit_screma(out, name, w, inputs, Vec::new(), lam));
        }
        let mut reduces = Vec::new();
        let mut pat = Vec::new();
        for c in closure {
            let t = self.ty(*c);
            reduces.push(ScanRed {
                op: self.add_lambda(&t)?,
                neutral: vec![self.zero_adj(out, &t)?],
                commutative: true,
            });
            pat.push(self.fresh("adj_closure", t));
        }
        let ws = w.to_size();
        let mapped: Vec<VarId> = lam.ret[closure.len()..]
            .iter()
            .map(|t| self.fresh(name, t.array_of(ws)))
            .collect();
        pat.extend(&mapped);
        self.push(
            out,
            pat.clone(),
            Exp::Screma(Box::new(Screma {
                w,
                inputs,
                scans: Vec::new(),
                reduces,
                map: lam,
            })),
        );
        for (c, v) in closure.iter().zip(&pat) {
            self.add_adj(out, &(*c).into(), (*v).into(), true)?;
        }
        Ok(mapped)
    }

    /// The adjoints of the elements `xs` of a scan `sr` whose results `ys`
    /// have adjoints `ybar` (arrays).
    pub fn rev_scan(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        sr: &ScanRed,
        ys: &[VarId],
        xs: &[VarId],
        ybar: &[Operand],
    ) -> R<Vec<VarId>> {
        let ts: Vec<Type> = xs.iter().map(|x| self.row_type(*x)).collect();
        let mut bars = Vec::new();
        for a in ybar {
            match a.var() {
                Some(v) => bars.push(v),
                None => return Err(self.err("internal error: a scalar adjoint of a scan")),
            }
        }
        if is_binop(sr, BinOp::Add) {
            // x̄ᵢ = Σ_{j ≥ i} ȳⱼ: a `+` scan of the reversed adjoints.
            let rev = self.reverse_arrays(out, w, &bars)?;
            let mut ops = Vec::new();
            let mut zeros = Vec::new();
            for t in &ts {
                ops.push(self.add_lambda(t)?);
                zeros.push(self.zero_adj(out, t)?);
            }
            let mut res = Vec::new();
            for ((r, op), z) in rev.into_iter().zip(ops).zip(zeros) {
                let t = self.row_type(r);
                let id = self.id_lambda(std::slice::from_ref(&t));
                let scan = ScanRed {
                    op,
                    neutral: vec![z],
                    commutative: true,
                };
                let sc = self.emit_screma(out, "adj_scan", w, vec![r], vec![scan], id);
                res.extend(self.reverse_arrays(out, w, &sc)?);
            }
            return Ok(res);
        }
        if let Some(col) = elementwise(&sr.op) {
            return self.rev_by_columns(out, w, sr, col, ys, xs, ybar);
        }
        let consts = |t: &Type| t.shape.iter().all(|d| matches!(d, ir::Size::Const(_)));
        if ts.iter().any(|t| !t.shape.is_empty())
            && ts.iter().all(|t| t.elem != ir::PrimType::Bool && consts(t))
        {
            return self.rev_scan_flat(out, w, sr, ys, xs, &bars);
        }
        if xs.len() == 1 && ts[0].rank() == 1 && ts[0].elem != ir::PrimType::Bool {
            return self.rev_scan_matrix(out, w, sr, ys[0], xs[0], bars[0]);
        }
        if ts
            .iter()
            .any(|t| !t.shape.is_empty() || t.elem == ir::PrimType::Bool)
        {
            return Err(self.err(
                "a scan on booleans, or on tuples or multi-dimensional rows of sizes unknown at compile time, whose operator is not + (nor elementwise), inside vjp",
            ));
        }
        if xs.len() > 1 || !self.closure_vars(&sr.op).is_empty() {
            return self.rev_scan_jacobian(out, w, sr, ys, xs, &bars);
        }
        let t = ts[0].elem;
        let st = Type::scalar(t);
        let (x, y, ne, yb) = (xs[0], ys[0], sr.neutral[0], bars[0]);
        // The partial derivatives of yᵢ = yᵢ₋₁ ⊙ xᵢ in both operands.
        let op = sr.op.clone();
        let parts = self.map_index(out, "partials", w, &[st.clone(), st.clone()], |cx, b, i| {
            let c = cx.cmp(b, CmpOp::Eq, i, Operand::i64(0))?;
            let mut eb = Vec::new();
            let j = cx.bin(&mut eb, BinOp::Sub, i, Operand::i64(1))?;
            let e = cx.bind(&mut eb, "e", Exp::Index(y, vec![DimIndex::Fix(j)]))?;
            let prev = cx.select_many(
                b,
                std::slice::from_ref(&st),
                c,
                vec![ne],
                Body {
                    stms: eb,
                    result: vec![e.into()],
                },
            )[0];
            let xi = cx.bind(b, "x", Exp::Index(x, vec![DimIndex::Fix(i)]))?;
            let f = cx.op_copy(&op, false);
            let pat = vec![
                cx.fresh("y", st.clone()),
                cx.fresh("dl", st.clone()),
                cx.fresh("dx", st.clone()),
            ];
            cx.vjp(
                &pat,
                &ir::AdExp {
                    lambda: f,
                    primals: vec![prev, xi.into()],
                    seeds: vec![konst(t, 1.0)],
                },
                b,
            )?;
            Ok(vec![pat[1].into(), pat[2].into()])
        })?;
        let (dl, dx) = (parts[0], parts[1]);
        // cᵢ = ȳᵢ + dlᵢ₊₁·cᵢ₊₁ from the end: a scan of affine maps
        // c ↦ b + a·c, composed by (a₁, b₁) then (a₂, b₂) = (a₂a₁, b₂ + a₂b₁).
        let aff = self.map_index(out, "affine", w, &[st.clone(), st.clone()], |cx, b, j| {
            let last = cx.bin(b, BinOp::Sub, w, Operand::i64(1))?;
            let i = cx.bin(b, BinOp::Sub, last, j)?;
            let bj = cx.bind(b, "b", Exp::Index(yb, vec![DimIndex::Fix(i)]))?;
            let c = cx.cmp(b, CmpOp::Eq, j, Operand::i64(0))?;
            let mut eb = Vec::new();
            let i1 = cx.bin(&mut eb, BinOp::Add, i, Operand::i64(1))?;
            let e = cx.bind(&mut eb, "a", Exp::Index(dl, vec![DimIndex::Fix(i1)]))?;
            let a = cx.select_many(
                b,
                std::slice::from_ref(&st),
                c,
                vec![konst(t, 0.0)],
                Body {
                    stms: eb,
                    result: vec![e.into()],
                },
            )[0];
            Ok(vec![a, bj.into()])
        })?;
        let ps: Vec<VarId> = (0..4).map(|_| self.fresh("f", st.clone())).collect();
        let mut cb = Vec::new();
        let a = self.bin(&mut cb, BinOp::Mul, ps[2].into(), ps[0].into())?;
        let ab = self.bin(&mut cb, BinOp::Mul, ps[2].into(), ps[1].into())?;
        let bb = self.bin(&mut cb, BinOp::Add, ps[3].into(), ab)?;
        let compose = ScanRed {
            op: Lambda {
                params: ps.iter().copied().map(Param::new).collect(),
                ret: vec![st.clone(), st.clone()],
                body: Body {
                    stms: cb,
                    result: vec![a, bb],
                },
            },
            neutral: vec![konst(t, 1.0), konst(t, 0.0)],
            commutative: false,
        };
        let id = self.id_lambda(&[st.clone(), st.clone()]);
        let cs = self.emit_screma(out, "adj_scan", w, aff, vec![compose], id);
        let cs = cs[1];
        self.map_index(out, "adj_scan", w, std::slice::from_ref(&st), |cx, b, i| {
            let last = cx.bin(b, BinOp::Sub, w, Operand::i64(1))?;
            let j = cx.bin(b, BinOp::Sub, last, i)?;
            let c = cx.bind(b, "c", Exp::Index(cs, vec![DimIndex::Fix(j)]))?;
            let d = cx.bind(b, "d", Exp::Index(dx, vec![DimIndex::Fix(i)]))?;
            Ok(vec![cx.bin(b, BinOp::Mul, d.into(), c.into())?])
        })
    }

    /// The adjoints of the elements `xs` of a scan on tuples of `K` numeric
    /// scalars, whose results `ys` have adjoints `bars`: the rule for
    /// scalars with `K×K` Jacobians in place of the partial derivatives.
    /// `Aᵢ = ∂yᵢ/∂yᵢ₋₁` comes row by row from `K` vjps of the operator
    /// with one-hot seeds; `cᵢ = ȳᵢ + Aᵢ₊₁ᵀ·cᵢ₊₁` is a scan from the end
    /// composing the affine maps `c ↦ ȳᵢ + Aᵢ₊₁ᵀ·c`; then `x̄ᵢ` is the
    /// vjp of the operator at `(yᵢ₋₁, xᵢ)` with seed `cᵢ`.
    fn rev_scan_jacobian(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        sr: &ScanRed,
        ys: &[VarId],
        xs: &[VarId],
        bars: &[VarId],
    ) -> R<Vec<VarId>> {
        let k = xs.len();
        let ts: Vec<Type> = xs.iter().map(|x| Type::scalar(self.ty(*x).elem)).collect();
        let zero = |t: &Type| konst(t.elem, 0.0);
        let one = |t: &Type| konst(t.elem, 1.0);
        // The operands of the operator at step i: yᵢ₋₁ (ne at 0) and xᵢ.
        let operands = {
            let (ys, xs, ne, ts) = (ys.to_vec(), xs.to_vec(), sr.neutral.clone(), ts.clone());
            move |cx: &mut Self, b: &mut Vec<Stm>, i: Operand| -> R<Vec<Operand>> {
                let c = cx.cmp(b, CmpOp::Eq, i, Operand::i64(0))?;
                let mut eb = Vec::new();
                let j = cx.bin(&mut eb, BinOp::Sub, i, Operand::i64(1))?;
                let prev = cx.index_each(&mut eb, "e", &ys, j)?;
                let mut args = cx.select_many(
                    b,
                    &ts,
                    c,
                    ne.clone(),
                    Body {
                        stms: eb,
                        result: prev,
                    },
                );
                args.extend(cx.index_each(b, "x", &xs, i)?);
                Ok(args)
            }
        };
        // The vjp of the operator at `args` with `seeds`: the adjoints of
        // both operand groups.
        let op_vjp = {
            let (op, ts) = (sr.op.clone(), ts.clone());
            move |cx: &mut Self,
                  b: &mut Vec<Stm>,
                  args: &[Operand],
                  seeds: Vec<Operand>|
                  -> R<Vec<Operand>> {
                let f = cx.op_copy(&op, false);
                let pat: Vec<VarId> = ts
                    .iter()
                    .chain(&ts)
                    .chain(&ts)
                    .map(|t| cx.fresh("g", t.clone()))
                    .collect();
                cx.vjp(
                    &pat,
                    &ir::AdExp {
                        lambda: f,
                        primals: args.to_vec(),
                        seeds,
                    },
                    b,
                )?;
                Ok(pat[k..].iter().copied().map(Operand::Var).collect())
            }
        };
        // Aᵢ, row-major: row r is the adjoint of yᵢ₋₁ for seed e_r.
        let mts: Vec<Type> = (0..k * k).map(|n| ts[n % k].clone()).collect();
        let jac = {
            let (operands, ts) = (operands.clone(), ts.clone());
            self.map_index(out, "jacobian", w, &mts, move |cx, b, i| {
                let args = operands(cx, b, i)?;
                let mut m = Vec::new();
                for r in 0..k {
                    let seeds = (0..k)
                        .map(|c| if c == r { one(&ts[c]) } else { zero(&ts[c]) })
                        .collect();
                    let g = op_vjp(cx, b, &args, seeds)?;
                    m.extend_from_slice(&g[..k]);
                }
                Ok(m)
            })?
        };
        // The affine maps in reverse order: (Aᵢ₊₁ᵀ, ȳᵢ), Aₙ = 0.
        let mut ats = mts.clone();
        ats.extend(ts.iter().cloned());
        let aff = {
            let (jac, bars, ts) = (jac.clone(), bars.to_vec(), ts.clone());
            self.map_index(out, "affine", w, &ats, move |cx, b, j| {
                let last = cx.bin(b, BinOp::Sub, w, Operand::i64(1))?;
                let i = cx.bin(b, BinOp::Sub, last, j)?;
                let c = cx.cmp(b, CmpOp::Eq, j, Operand::i64(0))?;
                let mut eb = Vec::new();
                let i1 = cx.bin(&mut eb, BinOp::Add, i, Operand::i64(1))?;
                let mut mt = Vec::new();
                for r in 0..k {
                    for col in 0..k {
                        // Transposed: entry (r, col) of Aᵀ is A[col][r].
                        let src = jac[col * k + r];
                        mt.push(
                            cx.bind(&mut eb, "a", Exp::Index(src, vec![DimIndex::Fix(i1)]))?
                                .into(),
                        );
                    }
                }
                let mz: Vec<Operand> = (0..k * k).map(|n| zero(&ts[n % k])).collect();
                let mts: Vec<Type> = (0..k * k).map(|n| ts[n % k].clone()).collect();
                let mut res = cx.select_many(
                    b,
                    &mts,
                    c,
                    mz,
                    Body {
                        stms: eb,
                        result: mt,
                    },
                );
                res.extend(cx.index_each(b, "b", &bars, i)?);
                Ok(res)
            })?
        };
        // (M₁, b₁) then (M₂, b₂) = (M₂·M₁, b₂ + M₂·b₁).
        let p1: Vec<VarId> = ats.iter().map(|t| self.fresh("f", t.clone())).collect();
        let p2: Vec<VarId> = ats.iter().map(|t| self.fresh("f", t.clone())).collect();
        let mut cb = Vec::new();
        let mut result = Vec::new();
        for r in 0..k {
            for col in 0..k {
                let terms = (0..k)
                    .map(|l| (p2[r * k + l].into(), p1[l * k + col].into()))
                    .collect();
                result.push(self.lin(&mut cb, ts[0].elem, terms)?);
            }
        }
        for r in 0..k {
            let mut terms: Vec<(Operand, Operand)> = (0..k)
                .map(|l| (p2[r * k + l].into(), p1[k * k + l].into()))
                .collect();
            terms.push((one(&ts[r]), p2[k * k + r].into()));
            result.push(self.lin(&mut cb, ts[r].elem, terms)?);
        }
        let mut neutral: Vec<Operand> = (0..k * k)
            .map(|n| {
                if n / k == n % k {
                    one(&ts[n % k])
                } else {
                    zero(&ts[n % k])
                }
            })
            .collect();
        neutral.extend(ts.iter().map(zero));
        let mut params: Vec<Param> = p1.iter().copied().map(Param::new).collect();
        params.extend(p2.iter().copied().map(Param::new));
        let compose = ScanRed {
            op: Lambda {
                params,
                ret: ats.clone(),
                body: Body { stms: cb, result },
            },
            neutral,
            commutative: false,
        };
        let id = self.id_lambda(&ats);
        let cs = self.emit_screma(out, "adj_scan", w, aff, vec![compose], id);
        let cs = cs[k * k..].to_vec();
        // x̄ᵢ, and the adjoints of the operator's free variables through
        // each application, by the vjp with seed cᵢ.
        let closure = self.closure_vars(&sr.op);
        let i = self.fresh("i", Type::scalar(ir::PrimType::I64));
        let mut b = Vec::new();
        let last = self.bin(&mut b, BinOp::Sub, w, Operand::i64(1))?;
        let j = self.bin(&mut b, BinOp::Sub, last, i.into())?;
        let seeds = self.index_each(&mut b, "c", &cs, j)?;
        let args = operands(self, &mut b, i.into())?;
        let f = self.op_copy(&sr.op, false);
        let pat: Vec<VarId> = ts
            .iter()
            .chain(&ts)
            .chain(&ts)
            .map(|t| self.fresh("g", t.clone()))
            .collect();
        let mut result = self.vjp_closure(
            &pat,
            &ir::AdExp {
                lambda: f,
                primals: args,
                seeds,
            },
            &mut b,
            &closure,
        )?;
        result.extend(pat[2 * k..].iter().copied().map(Operand::Var));
        let mut ret: Vec<Type> = closure.iter().map(|c| self.ty(*c)).collect();
        ret.extend(ts.iter().cloned());
        let lam = Lambda {
            params: vec![Param::new(i)],
            ret,
            body: Body { stms: b, result },
        };
        self.emit_map_summing(out, "adj_scan", w, Vec::new(), lam, &closure)
    }

    /// The rule of an elementwise operator (`map2 f`): every array
    /// transposed so that each column is a scan (when `ys`, the scanned
    /// results, are given) or a reduction of its own with the scalar
    /// operator `col`, whose rule runs in a map over the columns; the
    /// adjoints are transposed back.
    #[allow(clippy::too_many_arguments)]
    fn rev_by_columns(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        sr: &ScanRed,
        col: &Lambda,
        ys: &[VarId],
        xs: &[VarId],
        ybar: &[Operand],
    ) -> R<Vec<VarId>> {
        let scan = !ys.is_empty();
        let mut bars = Vec::new();
        for a in ybar {
            match a.var() {
                Some(v) => bars.push(v),
                None => return Err(self.err("internal error: a scalar adjoint of rows")),
            }
        }
        let xt = self.ty(xs[0]);
        let Some(d) = xt.shape.get(1) else {
            return Err(self.err("internal error: an elementwise operator on scalars"));
        };
        let d = self.size_op(d)?;
        let transpose = |cx: &mut Self, out: &mut Vec<Stm>, v: VarId, outer: bool| -> R<VarId> {
            let r = cx.ty(v).rank();
            let mut perm: Vec<usize> = (0..r).collect();
            if outer && r >= 2 {
                perm.swap(0, 1);
            }
            cx.bind(out, "cols", Exp::Rearrange { perm, arr: v })
        };
        let mut inputs = Vec::new();
        for y in ys {
            inputs.push(transpose(self, out, *y, true)?);
        }
        for x in xs {
            inputs.push(transpose(self, out, *x, true)?);
        }
        for b in &bars {
            // Scan adjoints are [w][d]… arrays; reduction adjoints [d]….
            inputs.push(transpose(self, out, *b, scan)?);
        }
        let params: Vec<VarId> = inputs
            .iter()
            .map(|v| {
                let t = self.row_type(*v);
                self.fresh("col", t)
            })
            .collect();
        let c = self.fresh("c", Type::scalar(ir::PrimType::I64));
        let k = xs.len();
        let (yp, rest) = params.split_at(ys.len());
        let (xp, bp) = rest.split_at(k);
        let mut b = Vec::new();
        let mut neutral = Vec::new();
        for ne in &sr.neutral {
            match ne {
                Operand::Var(v) if !self.ty(*v).shape.is_empty() => {
                    let e =
                        self.bind(&mut b, "ne", Exp::Index(*v, vec![DimIndex::Fix(c.into())]))?;
                    let e = if self.ty(e).shape.is_empty() {
                        e
                    } else {
                        self.bind(&mut b, "ne", Exp::Copy(e))?
                    };
                    neutral.push(e.into());
                }
                other => neutral.push(*other),
            }
        }
        let csr = ScanRed {
            op: self.rename_lambda(col),
            neutral,
            commutative: sr.commutative,
        };
        let bops: Vec<Operand> = bp.iter().copied().map(Operand::Var).collect();
        // The column rules give the variables free in the operator their
        // adjoints through one column, inside the map over columns: the
        // map returns them (zeros where a column gave none) and they are
        // summed over the columns.
        let closure = self.closure_vars(&csr.op);
        let saved = self.enter_scope();
        let res = if scan {
            self.rev_scan(&mut b, w, &csr, yp, xp, &bops)
        } else {
            self.rev_reduce(&mut b, w, &csr, xp, &bops)
        };
        let res = res.and_then(|res| {
            let mut result = Vec::new();
            for v in &closure {
                result.push(self.adj_or_zero(&mut b, *v)?);
            }
            Ok((res, result))
        });
        self.leave_scope(saved);
        let (res, mut result) = res?;
        let mut ret: Vec<Type> = closure.iter().map(|v| self.ty(*v)).collect();
        ret.extend(res.iter().map(|v| self.ty(*v)));
        result.extend(res.into_iter().map(Operand::Var));
        let mut lparams: Vec<Param> = params.iter().copied().map(Param::new).collect();
        lparams.push(Param::new(c));
        let lam = Lambda {
            params: lparams,
            ret,
            body: Body { stms: b, result },
        };
        let cols = self.emit_map_summing(out, "adj_cols", d, inputs, lam, &closure)?;
        let mut adjs = Vec::new();
        for v in cols {
            let t = transpose(self, out, v, true)?;
            // A fresh array, for the caller to own.
            adjs.push(self.bind(out, "adj_rows", Exp::Copy(t))?);
        }
        Ok(adjs)
    }

    /// A scan whose elements hold arrays of constant shapes (rows such as
    /// `[2]f64`) with an operator that is not elementwise: every element
    /// becomes a tuple of its `K` scalars, the operator one on such tuples
    /// (rebuilding the arrays, applying the operator, reading the scalars
    /// back), and the tuple rule applies; the adjoints are rebuilt as rows.
    fn rev_scan_flat(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        sr: &ScanRed,
        ys: &[VarId],
        xs: &[VarId],
        bars: &[VarId],
    ) -> R<Vec<VarId>> {
        let ts: Vec<Type> = xs.iter().map(|x| self.row_type(*x)).collect();
        // The positions of each component's scalars, row-major.
        let positions: Vec<Vec<Vec<i64>>> = ts
            .iter()
            .map(|t| {
                let dims: Vec<i64> = t
                    .shape
                    .iter()
                    .map(|d| match d {
                        ir::Size::Const(n) => *n,
                        _ => 0,
                    })
                    .collect();
                let mut all = vec![Vec::new()];
                for n in dims {
                    all = all
                        .into_iter()
                        .flat_map(|p: Vec<i64>| {
                            (0..n).map(move |i| {
                                let mut q = p.clone();
                                q.push(i);
                                q
                            })
                        })
                        .collect();
                }
                all
            })
            .collect();
        let sts: Vec<Type> = ts
            .iter()
            .zip(&positions)
            .flat_map(|(t, ps)| ps.iter().map(|_| Type::scalar(t.elem)))
            .collect();
        let fix = |p: &[i64]| -> Vec<DimIndex> {
            p.iter().map(|i| DimIndex::Fix(Operand::i64(*i))).collect()
        };
        // The scalars of values `vals` (one per component).
        let scalars = {
            let positions = positions.clone();
            move |cx: &mut Self, b: &mut Vec<Stm>, vals: &[Operand]| -> R<Vec<Operand>> {
                let mut res = Vec::new();
                for (v, ps) in vals.iter().zip(&positions) {
                    let Operand::Var(v) = v else {
                        return Err(cx.err("internal error: a constant row"));
                    };
                    for p in ps {
                        res.push(cx.bind(b, "e", Exp::Index(*v, fix(p)))?.into());
                    }
                }
                Ok(res)
            }
        };
        // The rows (one per component) made of `scalars`.
        let rows = {
            let (positions, ts) = (positions.clone(), ts.clone());
            move |cx: &mut Self, b: &mut Vec<Stm>, scalars: &[Operand]| -> R<Vec<Operand>> {
                let mut res = Vec::new();
                let mut at = 0;
                for (t, ps) in ts.iter().zip(&positions) {
                    let mut arr = cx.bind(
                        b,
                        "row",
                        Exp::Scratch {
                            elem: t.elem,
                            shape: t.shape.clone(),
                        },
                    )?;
                    for p in ps {
                        arr = cx.bind(b, "row", Exp::Update(arr, fix(p), scalars[at]))?;
                        at += 1;
                    }
                    res.push(arr.into());
                }
                Ok(res)
            }
        };
        let split = |cx: &mut Self, out: &mut Vec<Stm>, arrs: &[VarId]| -> R<Vec<VarId>> {
            let arrs = arrs.to_vec();
            let scalars = scalars.clone();
            cx.map_index(out, "scalars", w, &sts, move |cx, b, i| {
                let vals = cx.rows_at(b, &arrs, i)?;
                scalars(cx, b, &vals)
            })
        };
        let ys_s = split(self, out, ys)?;
        let xs_s = split(self, out, xs)?;
        let bars_s = split(self, out, bars)?;
        let neutral = scalars(self, out, &sr.neutral)?;
        let pa: Vec<VarId> = sts.iter().map(|t| self.fresh("a", t.clone())).collect();
        let pb: Vec<VarId> = sts.iter().map(|t| self.fresh("b", t.clone())).collect();
        let mut body = Vec::new();
        let ra = rows(
            self,
            &mut body,
            &pa.iter().copied().map(Operand::Var).collect::<Vec<_>>(),
        )?;
        let rb = rows(
            self,
            &mut body,
            &pb.iter().copied().map(Operand::Var).collect::<Vec<_>>(),
        )?;
        let r = self.apply_op(&mut body, &sr.op, &ra, &rb);
        let result = scalars(self, &mut body, &r)?;
        let mut params: Vec<Param> = pa.into_iter().map(Param::new).collect();
        params.extend(pb.into_iter().map(Param::new));
        let flat = ScanRed {
            op: Lambda {
                params,
                ret: sts.clone(),
                body: Body { stms: body, result },
            },
            neutral,
            commutative: sr.commutative,
        };
        let adj = self.rev_scan_jacobian(out, w, &flat, &ys_s, &xs_s, &bars_s)?;
        self.map_index(out, "adj_rows", w, &ts, move |cx, b, i| {
            let vals = cx.index_each(b, "e", &adj, i)?;
            rows(cx, b, &vals)
        })
    }

    /// A scan of float rows of a length `d` known only at run time, with
    /// an operator on whole rows that is not elementwise: the tuple rule
    /// with the Jacobians as `[d][d]` arrays. Row `r` of `Aᵢ` is the vjp
    /// of the operator with the one-hot seed `e_r` (a map over `r`), the
    /// affine maps compose by matrix products, and `x̄ᵢ` is the vjp with
    /// seed `cᵢ`. Work `O(n·d³)`.
    fn rev_scan_matrix(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        sr: &ScanRed,
        y: VarId,
        x: VarId,
        bar: VarId,
    ) -> R<Vec<VarId>> {
        let rt = self.row_type(x);
        let t = rt.elem;
        let st = Type::scalar(t);
        let ds = rt.shape[0];
        let d = self.size_op(&ds)?;
        let mt = Type::array(t, vec![ds, ds]);
        let ne = sr.neutral[0];
        let prev_x = {
            let rt = rt.clone();
            move |cx: &mut Self, b: &mut Vec<Stm>, i: Operand| -> R<(Operand, Operand)> {
                let c = cx.cmp(b, CmpOp::Eq, i, Operand::i64(0))?;
                let mut eb = Vec::new();
                let j = cx.bin(&mut eb, BinOp::Sub, i, Operand::i64(1))?;
                let e = cx.index_row(&mut eb, y, j)?;
                let prev = cx.select_many(
                    b,
                    std::slice::from_ref(&rt),
                    c,
                    vec![ne],
                    Body {
                        stms: eb,
                        result: vec![e],
                    },
                )[0];
                let xi = cx.index_row(b, x, i)?;
                Ok((prev, xi))
            }
        };
        let op_vjp = {
            let (op, rt) = (sr.op.clone(), rt.clone());
            move |cx: &mut Self,
                  b: &mut Vec<Stm>,
                  prev: Operand,
                  xi: Operand,
                  seed: Operand|
                  -> R<(Operand, Operand)> {
                let f = cx.op_copy(&op, false);
                let pat: Vec<VarId> = (0..3).map(|_| cx.fresh("g", rt.clone())).collect();
                cx.vjp(
                    &pat,
                    &ir::AdExp {
                        lambda: f,
                        primals: vec![prev, xi],
                        seeds: vec![seed],
                    },
                    b,
                )?;
                Ok((pat[1].into(), pat[2].into()))
            }
        };
        // Aᵢ for every i.
        let jac = {
            let (prev_x, op_vjp, rt, st) = (prev_x.clone(), op_vjp.clone(), rt.clone(), st.clone());
            self.map_index(
                out,
                "jacobian",
                w,
                std::slice::from_ref(&mt),
                move |cx, b, i| {
                    let (prev, xi) = prev_x(cx, b, i)?;
                    let rows =
                        cx.map_index(b, "jac_row", d, std::slice::from_ref(&rt), |cx, b, r| {
                            let seed = cx.map_index(
                                b,
                                "onehot",
                                d,
                                std::slice::from_ref(&st),
                                |cx, b, c| {
                                    let eq = cx.cmp(b, CmpOp::Eq, c, r)?;
                                    Ok(vec![cx.select(b, t, eq, konst(t, 1.0), konst(t, 0.0))])
                                },
                            )?[0];
                            let (ga, _) = op_vjp(cx, b, prev, xi, seed.into())?;
                            Ok(vec![ga])
                        })?;
                    Ok(vec![rows[0].into()])
                },
            )?[0]
        };
        // The affine maps in reverse order: (Aᵢ₊₁ᵀ, ȳᵢ), Aₙ = 0.
        let aff = {
            let mt = mt.clone();
            self.map_index(
                out,
                "affine",
                w,
                &[mt.clone(), rt.clone()],
                move |cx, b, j| {
                    let last = cx.bin(b, BinOp::Sub, w, Operand::i64(1))?;
                    let i = cx.bin(b, BinOp::Sub, last, j)?;
                    let c = cx.cmp(b, CmpOp::Eq, j, Operand::i64(0))?;
                    let z = cx.zeros_of(b, &mt)?;
                    let mut eb = Vec::new();
                    let i1 = cx.bin(&mut eb, BinOp::Add, i, Operand::i64(1))?;
                    let a = cx.bind(&mut eb, "a", Exp::Index(jac, vec![DimIndex::Fix(i1)]))?;
                    let at = cx.bind(
                        &mut eb,
                        "at",
                        Exp::Rearrange {
                            perm: vec![1, 0],
                            arr: a,
                        },
                    )?;
                    let at = cx.bind(&mut eb, "at", Exp::Copy(at))?;
                    let m = cx.select_many(
                        b,
                        std::slice::from_ref(&mt),
                        c,
                        vec![z],
                        Body {
                            stms: eb,
                            result: vec![at.into()],
                        },
                    )[0];
                    let bi = cx.index_row(b, bar, i)?;
                    Ok(vec![m, bi])
                },
            )?
        };
        // (M₁, b₁) then (M₂, b₂) = (M₂·M₁, b₂ + M₂·b₁).
        let ps: Vec<VarId> = [&mt, &rt, &mt, &rt]
            .iter()
            .map(|ty| self.fresh("f", (*ty).clone()))
            .collect();
        let mut cb = Vec::new();
        let m1t = self.bind(
            &mut cb,
            "m1t",
            Exp::Rearrange {
                perm: vec![1, 0],
                arr: ps[0],
            },
        )?;
        let dot = |cx: &mut Self, b: &mut Vec<Stm>, u: VarId, v: VarId| -> R<Operand> {
            let p = cx.fresh("p", st.clone());
            let q = cx.fresh("q", st.clone());
            let mut mb = Vec::new();
            let pq = cx.bin(&mut mb, BinOp::Mul, p.into(), q.into())?;
            let add = cx.add_lambda(&st)?;
            let r = cx.fresh("dot", st.clone());
            cx.push(
                b,
                vec![r],
                Exp::Screma(Box::new(Screma {
                    w: d,
                    inputs: vec![u, v],
                    scans: Vec::new(),
                    reduces: vec![ScanRed {
                        op: add,
                        neutral: vec![konst(t, 0.0)],
                        commutative: true,
                    }],
                    map: Lambda {
                        params: vec![Param::new(p), Param::new(q)],
                        ret: vec![st.clone()],
                        body: Body {
                            stms: mb,
                            result: vec![pq],
                        },
                    },
                })),
            );
            Ok(r.into())
        };
        let (m2, b1, b2) = (ps[2], ps[1], ps[3]);
        let row = self.fresh("row", rt.clone());
        let mut rb = Vec::new();
        let entries = self.map_index(
            &mut rb,
            "entries",
            d,
            std::slice::from_ref(&st),
            |cx, b, c| {
                let col = cx.bind(b, "col", Exp::Index(m1t, vec![DimIndex::Fix(c)]))?;
                Ok(vec![dot(cx, b, row, col)?])
            },
        )?;
        let mb_ = dot(self, &mut rb, row, b1)?;
        let prod = self.emit_screma(
            &mut cb,
            "prod",
            d,
            vec![m2],
            Vec::new(),
            Lambda {
                params: vec![Param::new(row)],
                ret: vec![rt.clone(), st.clone()],
                body: Body {
                    stms: rb,
                    result: vec![entries[0].into(), mb_],
                },
            },
        );
        let bb = self.add_values(&mut cb, &rt, b2.into(), prod[1].into())?;
        let id_m = self.map_index(out, "identity", d, std::slice::from_ref(&rt), |cx, b, r| {
            Ok(vec![
                cx.map_index(
                    b,
                    "identity_row",
                    d,
                    std::slice::from_ref(&st),
                    |cx, b, c| {
                        let eq = cx.cmp(b, CmpOp::Eq, c, r)?;
                        Ok(vec![cx.select(b, t, eq, konst(t, 1.0), konst(t, 0.0))])
                    },
                )?[0]
                    .into(),
            ])
        })?[0];
        let zb = self.zeros_of(out, &rt)?;
        let compose = ScanRed {
            op: Lambda {
                params: ps.iter().copied().map(Param::new).collect(),
                ret: vec![mt.clone(), rt.clone()],
                body: Body {
                    stms: cb,
                    result: vec![prod[0].into(), bb],
                },
            },
            neutral: vec![id_m.into(), zb],
            commutative: false,
        };
        let id = self.id_lambda(&[mt, rt.clone()]);
        let cs = self.emit_screma(out, "adj_scan", w, aff, vec![compose], id)[1];
        // x̄ᵢ, and the adjoints of the operator's free variables through
        // each application, by the vjp at (yᵢ₋₁, xᵢ) with seed cᵢ.
        let closure = self.closure_vars(&sr.op);
        let i = self.fresh("i", Type::scalar(ir::PrimType::I64));
        let mut b = Vec::new();
        let last = self.bin(&mut b, BinOp::Sub, w, Operand::i64(1))?;
        let j = self.bin(&mut b, BinOp::Sub, last, i.into())?;
        let c = self.index_row(&mut b, cs, j)?;
        let (prev, xi) = prev_x(self, &mut b, i.into())?;
        let f = self.op_copy(&sr.op, false);
        let pat: Vec<VarId> = (0..3).map(|_| self.fresh("g", rt.clone())).collect();
        let mut result = self.vjp_closure(
            &pat,
            &ir::AdExp {
                lambda: f,
                primals: vec![prev, xi],
                seeds: vec![c],
            },
            &mut b,
            &closure,
        )?;
        result.push(pat[2].into());
        let mut ret: Vec<Type> = closure.iter().map(|c| self.ty(*c)).collect();
        ret.push(rt);
        let lam = Lambda {
            params: vec![Param::new(i)],
            ret,
            body: Body { stms: b, result },
        };
        self.emit_map_summing(out, "adj_scan", w, Vec::new(), lam, &closure)
    }

    /// The adjoints of the elements `xs` of a reduction with a selecting
    /// operator (`min`, `max`): one reduction of (value, index) pairs finds
    /// the element the operator selects (the neutral element counting as
    /// index `-1`, so that it keeps ties as a left-to-right evaluation
    /// starting from it does), which gets `ȳ`; every other element `0`.
    fn rev_reduce_select(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        sr: &ScanRed,
        xs: VarId,
        ybar: Operand,
    ) -> R<Vec<VarId>> {
        let t = Type::scalar(self.ty(xs).elem);
        let i64t = Type::scalar(ir::PrimType::I64);
        let pair = self.selection_pair(&sr.op, &t)?;
        let e = self.fresh("e", t.clone());
        let i = self.fresh("i", i64t.clone());
        let wv = self.fresh("win_val", t.clone());
        let wi = self.fresh("win", i64t.clone());
        self.push(
            out,
            vec![wv, wi],
            Exp::Screma(Box::new(Screma {
                w,
                inputs: vec![xs],
                scans: Vec::new(),
                reduces: vec![ScanRed {
                    op: pair,
                    neutral: vec![sr.neutral[0], Operand::i64(-1)],
                    commutative: false,
                }],
                map: Lambda {
                    params: vec![Param::new(e), Param::new(i)],
                    ret: vec![t.clone(), i64t],
                    body: Body {
                        stms: Vec::new(),
                        result: vec![e.into(), i.into()],
                    },
                },
            })),
        );
        let zero = konst(t.elem, 0.0);
        self.map_index(out, "adj_red", w, std::slice::from_ref(&t), |cx, b, j| {
            let won = cx.cmp(b, CmpOp::Eq, j, wi.into())?;
            Ok(vec![cx.select(b, t.elem, won, ybar, zero)])
        })
    }

    /// The adjoints of the elements of a float product, by counting zeros.
    fn rev_product(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        ne: Operand,
        xs: VarId,
        ybar: Operand,
    ) -> R<Vec<VarId>> {
        let t = self.ty(xs).elem;
        let (zero, one) = (konst(t, 0.0), konst(t, 1.0));
        // (number of zeros, product of the non-zero elements, sum of the
        // zero elements: zero, but carrying their derivatives).
        let x = self.fresh("x", Type::scalar(t));
        let mut b = Vec::new();
        let isz = self.cmp(&mut b, CmpOp::Eq, x.into(), zero)?;
        let cnt = self.select(
            &mut b,
            ir::PrimType::I64,
            isz,
            Operand::i64(1),
            Operand::i64(0),
        );
        let nz = self.select(&mut b, t, isz, one, x.into());
        let zv = self.select(&mut b, t, isz, x.into(), zero);
        let st = Type::scalar(t);
        let zs = self.fresh("zeros", Type::scalar(ir::PrimType::I64));
        let prod = self.fresh("prod", st.clone());
        let zsum = self.fresh("zsum", st.clone());
        let reduces = vec![
            ScanRed {
                op: self.add_lambda(&Type::scalar(ir::PrimType::I64))?,
                neutral: vec![Operand::i64(0)],
                commutative: true,
            },
            ScanRed {
                op: self.binop_lambda(t, BinOp::Mul)?,
                neutral: vec![one],
                commutative: true,
            },
            ScanRed {
                op: self.add_lambda(&st)?,
                neutral: vec![zero],
                commutative: true,
            },
        ];
        self.push(
            out,
            vec![zs, prod, zsum],
            Exp::Screma(Box::new(Screma {
                w,
                inputs: vec![xs],
                scans: Vec::new(),
                reduces,
                map: Lambda {
                    params: vec![Param::new(x)],
                    ret: vec![Type::scalar(ir::PrimType::I64), st.clone(), st.clone()],
                    body: Body {
                        stms: b,
                        result: vec![cnt, nz, zv],
                    },
                },
            })),
        );
        let p = self.bin(out, BinOp::Mul, ne, prod.into())?;
        let py = self.bin(out, BinOp::Mul, p, ybar)?;
        self.map_index(out, "adj_prod", w, &[st], |cx, b, i| {
            let xi = cx.bind(b, "x", Exp::Index(xs, vec![DimIndex::Fix(i)]))?;
            let a = cx.zero_factor_adj(b, t, xi.into(), zs.into(), py, zsum.into())?;
            Ok(vec![a])
        })
    }

    /// The return sweep of a `screma` with scans or non-`+` reductions
    /// whose results have adjoints: the values fed to them are computed
    /// again by a map-only `screma`, given adjoints by the reduction and
    /// scan rules, and the map is swept back.
    pub fn rev_screma_split(&mut self, out: &mut Vec<Stm>, stm: &Stm, s: &Screma) -> R<()> {
        let lam = self.rename_lambda(&s.map);
        let vals = self.emit_screma(out, "vals", s.w, s.inputs.clone(), Vec::new(), lam);
        let mut at = 0;
        for sr in &s.scans {
            let k = sr.neutral.len();
            let ys = &stm.pat[at..at + k];
            if ys.iter().any(|v| self.adj.contains_key(v)) {
                let mut ybar = Vec::new();
                for y in ys {
                    ybar.push(self.adj_or_zero(out, *y)?);
                }
                let adjs = self.rev_scan(out, s.w, sr, ys, &vals[at..at + k], &ybar)?;
                for (v, a) in vals[at..at + k].iter().zip(adjs) {
                    self.add_adj(out, &(*v).into(), a.into(), true)?;
                }
            }
            at += k;
        }
        for sr in &s.reduces {
            let k = sr.neutral.len();
            let ys = &stm.pat[at..at + k];
            if ys.iter().any(|v| self.adj.contains_key(v)) {
                let mut ybar = Vec::new();
                for y in ys {
                    ybar.push(self.adj_or_zero(out, *y)?);
                }
                let adjs = self.rev_reduce(out, s.w, sr, &vals[at..at + k], &ybar)?;
                for (v, a) in vals[at..at + k].iter().zip(adjs) {
                    self.add_adj(out, &(*v).into(), a.into(), true)?;
                }
            }
            at += k;
        }
        for (v, y) in vals[at..].iter().zip(&stm.pat[at..]) {
            if let Some(a) = self.adj.get(y).copied() {
                let owned = self.owned.contains(y);
                self.add_adj(out, &(*v).into(), a, owned)?;
            }
        }
        self.rev_map_part(out, stm, s.w, &s.inputs, &s.map, vals.clone())
    }
}
