//! Adjoints through `hist` (reduce_by_index).
//!
//! A histogram computes, for every bucket `b`, `H[b] = D[b] ⊙ v_{i₁} ⊙ … ⊙
//! v_{iₖ}` where `D` is the destination and `i₁ < … < iₖ` are the
//! iterations whose index is `b` (indices out of bounds are ignored). The
//! return sweep computes the indices and values again (a map of a fresh
//! copy of the lambda), turns the adjoint `H̄` of the result into adjoints
//! of the destination and of the values by one of the rules below, then
//! sweeps the values' adjoints back through the lambda as a map.
//!
//! - `+` (or `map2 (+)` on rows): `D̄ = H̄` and `v̄ᵢ = H̄[isᵢ]`.
//! - `*` on floats, counting zeros as the reduction rule does, with the
//!   destination element as one more factor of its bucket: per bucket the
//!   number of zero factors `z`, the product `p` of the non-zero ones and
//!   the sum of the zero ones (three histograms); a factor `x` of bucket
//!   `b` gets `H̄[b]` times the product of the others, written so that its
//!   derivatives are right too (see `zero_factor_adj`).
//! - a selecting operator (one that returns one of its two operands, as
//!   `min` and `max` do): per bucket the winning iteration, by a histogram
//!   of (value, iteration) pairs whose operator puts the earlier iteration
//!   first (the destination counts as iteration `-1`) and keeps the
//!   operand that the operator's own derivative selects. Ties therefore go
//!   where a left-to-right evaluation sends them, as in the reference
//!   interpreter (`f64.min` keeps the earlier operand). The winner gets
//!   `H̄[b]`, every other factor `0`.
//! - any other operator (tuples, arrays such as `map2 (+)`, anything
//!   associative): the updates are sorted by bucket (a stable radix sort
//!   on the bucket numbers, one stable partition by a scan and a scatter
//!   per bit), which makes each bucket a segment in iteration order. Two
//!   segmented scans give each update the combination of the factors
//!   before it, `Lᵢ` (starting with `D[b]`), and after it, `Rᵢ`; the
//!   update's adjoint is the vjp of `x ↦ (Lᵢ ⊙ x) ⊙ Rᵢ` at `vᵢ` with seed
//!   `H̄[b]`, scattered back to iteration order. The destination gets the
//!   vjp of `d ↦ d ⊙ T[b]` at `D[b]`, where `T` is the histogram of the
//!   values into neutral elements. Work `O(n log m)` for `n` updates and
//!   `m` buckets.
//!
//! The last three rules need the destination, which the histogram
//! consumes: the forward sweep saves a copy of it first.

use ir::{
    BinOp, Body, CmpOp, DimIndex, Exp, Hist, HistOp, Lambda, LoopForm, MathFn, Operand, Param,
    PrimType, ScanRed, Scatter, ScatterDest, Screma, Stm, Type, VarId,
};

use crate::ctx::{Ctx, R, differentiable, konst};
use crate::rev_scanred::{elementwise, is_binop};

/// How the return sweep treats one histogram operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistRule {
    /// `+` on every component, or `map2 (+)` on rows.
    Add,
    /// `*` on one float.
    Mul,
    /// An operator on one scalar returning one of its operands.
    Select,
    /// Anything else.
    General,
}

/// The rule for the operator of `op`.
pub fn hist_rule(op: &HistOp) -> HistRule {
    let sr = ScanRed {
        op: op.op.clone(),
        neutral: op.neutral.clone(),
        commutative: true,
    };
    let scalar = op.dests.len() == 1 && op.op.ret.first().is_some_and(Type::is_scalar);
    // `map2 (+)` on rows adds like `+`.
    let rows_add = elementwise(&op.op).is_some_and(|col| {
        let csr = ScanRed {
            op: col.clone(),
            ..sr.clone()
        };
        is_binop(&csr, BinOp::Add)
    });
    if is_binop(&sr, BinOp::Add) || rows_add {
        HistRule::Add
    } else if scalar && op.op.ret[0].elem.is_float() && is_binop(&sr, BinOp::Mul) {
        HistRule::Mul
    } else if scalar && is_selection(&op.op) {
        HistRule::Select
    } else {
        HistRule::General
    }
}

/// True when `op` takes two scalars and returns one of them unchanged: its
/// result is `min` or `max` of its parameters, or an `if` whose branches
/// return one parameter each.
pub fn is_selection(op: &Lambda) -> bool {
    let [a, b] = op.params.as_slice() else {
        return false;
    };
    let [Operand::Var(r)] = op.body.result.as_slice() else {
        return false;
    };
    let param = |o: &Operand| matches!(o, Operand::Var(v) if *v == a.var || *v == b.var);
    let leaf = |body: &Body| match (body.stms.as_slice(), body.result.as_slice()) {
        ([], [x]) if param(x) => Some(*x),
        _ => None,
    };
    op.body.stms.iter().any(|s| {
        s.pat == [*r]
            && match &s.exp {
                Exp::BinOp(BinOp::Min | BinOp::Max, x, y) => param(x) && param(y) && x != y,
                Exp::If {
                    then_body,
                    else_body,
                    ..
                } => matches!((leaf(then_body), leaf(else_body)), (Some(x), Some(y)) if x != y),
                _ => false,
            }
    })
}

/// The row type of array `t` (a scalar of `t`'s element type for a
/// one-dimensional array).
fn row_of(t: &Type) -> Type {
    Type::array(t.elem, t.shape.get(1..).unwrap_or(&[]).to_vec())
}

impl Ctx<'_> {
    /// The forward sweep of a `hist`: the destinations of operators other
    /// than `+` are saved first, for the return sweep.
    pub fn fwd_hist(&mut self, out: &mut Vec<Stm>, stm: &Stm, h: &Hist) -> R<()> {
        for op in &h.hists {
            if hist_rule(op) == HistRule::Add {
                continue;
            }
            for d in &op.dests {
                if differentiable(&self.ty(*d)) && !self.saved_copies.contains_key(d) {
                    let c = self.bind(out, "saved", Exp::Copy(*d))?;
                    self.saved_copies.insert(*d, c);
                }
            }
        }
        out.push(stm.clone());
        Ok(())
    }

    /// The return sweep of a `hist`.
    pub fn rev_hist(&mut self, out: &mut Vec<Stm>, stm: &Stm, h: &Hist) -> R<()> {
        if h.inputs.iter().any(|v| self.ty(*v).acc) {
            return Err(self.err("a hist over accumulators inside vjp"));
        }
        let lam = self.rename_lambda(&h.map);
        let vals = self.emit_screma(out, "vals", h.w, h.inputs.clone(), Vec::new(), lam);
        let (mut at, mut res) = (0, 0);
        for op in &h.hists {
            let k = op.dests.len();
            let ys = stm.pat[res..res + k].to_vec();
            let saved: Vec<VarId> = op
                .dests
                .iter()
                .map(|d| self.saved_copies.remove(d).unwrap_or(*d))
                .collect();
            let idxs = vals[at];
            let vs = vals[at + 1..at + 1 + k].to_vec();
            at += 1 + k;
            res += k;
            if !ys.iter().any(|y| self.adj.contains_key(y)) {
                continue;
            }
            let m = self.size_op(&self.ty(ys[0]).shape[0])?;
            let rule = hist_rule(op);
            if rule == HistRule::Add {
                for (d, dest) in op.dests.iter().enumerate() {
                    let Some(Operand::Var(hb)) = self.adj.get(&ys[d]).copied() else {
                        continue;
                    };
                    let owned = self.owned.contains(&ys[d]);
                    self.add_adj(out, &(*dest).into(), hb.into(), owned)?;
                    let rt = row_of(&self.ty(hb));
                    let adj = self.map_index(out, "adj_hist", h.w, &[rt], |cx, b, i| {
                        let (j, inb) = cx.bucket(b, idxs, i, m)?;
                        Ok(vec![cx.gather_or_zero(b, hb, j, inb)?])
                    })?;
                    self.add_adj(out, &vs[d].into(), adj[0].into(), true)?;
                }
                continue;
            }
            let mut hbar = Vec::new();
            for y in &ys {
                match self.adj_or_zero(out, *y)? {
                    Operand::Var(v) => hbar.push(v),
                    Operand::Const(_) => {
                        return Err(self.err("internal error: a scalar adjoint of a histogram"));
                    }
                }
            }
            let g = HistArgs {
                w: h.w,
                m,
                idxs,
                vs,
                dests: saved,
                hbar,
            };
            let (dadj, vadj) = match rule {
                HistRule::Mul => self.hist_mul(out, &g)?,
                HistRule::Select => self.hist_select(out, &g, op)?,
                _ => self.hist_general(out, &g, op)?,
            };
            for (d, a) in op.dests.iter().zip(dadj) {
                self.add_adj(out, &(*d).into(), a.into(), true)?;
            }
            for (v, a) in g.vs.iter().zip(vadj) {
                self.add_adj(out, &(*v).into(), a.into(), true)?;
            }
        }
        self.rev_map_part(out, stm, h.w, &h.inputs, &h.map, vals)
    }

    /// The bucket `idxs[i]` and whether it is in `0..m`.
    fn bucket(
        &mut self,
        b: &mut Vec<Stm>,
        idxs: VarId,
        i: Operand,
        m: Operand,
    ) -> R<(Operand, Operand)> {
        let j: Operand = self
            .bind(b, "j", Exp::Index(idxs, vec![DimIndex::Fix(i)]))?
            .into();
        let inb = self.in_bounds(b, &[j], &[m])?;
        Ok((j, inb))
    }

    /// `if inb then arr[j] else zeros` (a copy of the row for arrays).
    fn gather_or_zero(
        &mut self,
        b: &mut Vec<Stm>,
        arr: VarId,
        j: Operand,
        inb: Operand,
    ) -> R<Operand> {
        let rt = row_of(&self.ty(arr));
        let mut tb = Vec::new();
        let e = self.index_row(&mut tb, arr, j)?;
        self.if_else_zero(b, inb, tb, e, &rt)
    }

    /// `\a b -> op(a, b)` on scalars of type `t`.
    pub(crate) fn binop_lambda(&mut self, t: PrimType, op: BinOp) -> R<Lambda> {
        let a = self.fresh("a", Type::scalar(t));
        let c = self.fresh("b", Type::scalar(t));
        let mut s = Vec::new();
        let r = self.bin(&mut s, op, a.into(), c.into())?;
        Ok(Lambda {
            params: vec![Param::new(a), Param::new(c)],
            ret: vec![Type::scalar(t)],
            body: Body {
                stms: s,
                result: vec![r],
            },
        })
    }

    /// Emits `hist(w, inputs)` with the given operators, whose lambda is
    /// built by `body` from its parameters (one per input row, then the
    /// iteration index).
    fn emit_hist(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        inputs: Vec<VarId>,
        hists: Vec<HistOp>,
        ret: Vec<Type>,
        body: impl FnOnce(&mut Self, &mut Vec<Stm>, &[VarId]) -> R<Vec<Operand>>,
    ) -> R<Vec<VarId>> {
        let mut ps: Vec<VarId> = inputs
            .iter()
            .map(|x| {
                let t = row_of(&self.ty(*x));
                self.fresh("p", t)
            })
            .collect();
        ps.push(self.fresh("i", Type::scalar(PrimType::I64)));
        let mut stms = Vec::new();
        let result = body(self, &mut stms, &ps)?;
        let pat: Vec<VarId> = hists
            .iter()
            .flat_map(|o| o.dests.clone())
            .map(|d| {
                let t = self.ty(d);
                self.fresh("hist", t)
            })
            .collect();
        self.push(
            out,
            pat.clone(),
            Exp::Hist(Box::new(Hist {
                w,
                inputs,
                hists,
                map: Lambda {
                    params: ps.into_iter().map(Param::new).collect(),
                    ret,
                    body: Body { stms, result },
                },
            })),
        );
        Ok(pat)
    }

    /// The adjoint of factor `x` of a product with `cnt` zero factors,
    /// `py` = ȳ times the product of the non-zero factors, and `zsum` the
    /// sum of the zero factors (zero, but carrying their derivatives):
    /// `py/x` without zeros; for the only zero `py`; for one of two zeros
    /// `py·(zsum − x)` (the other zero); for a non-zero factor beside one
    /// zero `(py/x)·zsum`; else `0`. Each is `ȳ` times the product of the
    /// other factors written so that its own derivatives are right too
    /// (second derivatives through zeros).
    pub(crate) fn zero_factor_adj(
        &mut self,
        b: &mut Vec<Stm>,
        t: PrimType,
        x: Operand,
        cnt: Operand,
        py: Operand,
        zsum: Operand,
    ) -> R<Operand> {
        let (zero, one) = (konst(t, 0.0), konst(t, 1.0));
        let none = self.cmp(b, CmpOp::Eq, cnt, Operand::i64(0))?;
        let mut tb = Vec::new();
        let q = self.bin(&mut tb, BinOp::Div, py, x)?;
        let mut eb = Vec::new();
        let isz = self.cmp(&mut eb, CmpOp::Eq, x, zero)?;
        let mut zb = Vec::new();
        let c1 = self.cmp(&mut zb, CmpOp::Eq, cnt, Operand::i64(1))?;
        let c2 = self.cmp(&mut zb, CmpOp::Eq, cnt, Operand::i64(2))?;
        let other = self.bin(&mut zb, BinOp::Sub, zsum, x)?;
        let f2 = self.select(&mut zb, t, c2, other, zero);
        let f = self.select(&mut zb, t, c1, one, f2);
        let za = self.bin(&mut zb, BinOp::Mul, py, f)?;
        let mut nb = Vec::new();
        let c1n = self.cmp(&mut nb, CmpOp::Eq, cnt, Operand::i64(1))?;
        let qn = self.bin(&mut nb, BinOp::Div, py, x)?;
        let qz = self.bin(&mut nb, BinOp::Mul, qn, zsum)?;
        let na = self.select(&mut nb, t, c1n, qz, zero);
        let e = self.fresh("adj", Type::scalar(t));
        self.push_if(&mut eb, e, isz, (zb, za), (nb, na));
        let r = self.fresh("adj", Type::scalar(t));
        self.push_if(b, r, none, (tb, q), (eb, e.into()));
        Ok(r.into())
    }

    /// The `*` rule: zero counts and products of the non-zero factors per
    /// bucket, the destination element included.
    fn hist_mul(&mut self, out: &mut Vec<Stm>, g: &HistArgs) -> R<(Vec<VarId>, Vec<VarId>)> {
        let (dest, vs, hbar) = (g.dests[0], g.vs[0], g.hbar[0]);
        let t = self.ty(vs).elem;
        let (zero, one) = (konst(t, 0.0), konst(t, 1.0));
        let i64t = Type::scalar(PrimType::I64);
        // (is a zero, the factor or 1 when zero, the factor when zero or 0).
        let split =
            |cx: &mut Self, b: &mut Vec<Stm>, x: Operand| -> R<(Operand, Operand, Operand)> {
                let isz = cx.cmp(b, CmpOp::Eq, x, zero)?;
                let c = cx.select(b, PrimType::I64, isz, Operand::i64(1), Operand::i64(0));
                let nz = cx.select(b, t, isz, one, x);
                let zv = cx.select(b, t, isz, x, zero);
                Ok((c, nz, zv))
            };
        let init = self.map_index(
            out,
            "init",
            g.m,
            &[i64t.clone(), Type::scalar(t), Type::scalar(t)],
            |cx, b, i| {
                let d = cx.index_row(b, dest, i)?;
                let (c, nz, zv) = split(cx, b, d)?;
                Ok(vec![c, nz, zv])
            },
        )?;
        let hists = vec![
            HistOp {
                dests: vec![init[0]],
                neutral: vec![Operand::i64(0)],
                op: self.binop_lambda(PrimType::I64, BinOp::Add)?,
            },
            HistOp {
                dests: vec![init[1]],
                neutral: vec![one],
                op: self.binop_lambda(t, BinOp::Mul)?,
            },
            HistOp {
                dests: vec![init[2]],
                neutral: vec![zero],
                op: self.binop_lambda(t, BinOp::Add)?,
            },
        ];
        let ret = vec![
            i64t.clone(),
            i64t.clone(),
            i64t.clone(),
            Type::scalar(t),
            i64t,
            Type::scalar(t),
        ];
        let ch = self.emit_hist(out, g.w, vec![g.idxs, vs], hists, ret, |cx, b, ps| {
            let (c, nz, zv) = split(cx, b, ps[1].into())?;
            let j: Operand = ps[0].into();
            Ok(vec![j, c, j, nz, j, zv])
        })?;
        let (cnt, prod, zsum) = (ch[0], ch[1], ch[2]);
        // The adjoint of factor x of bucket j.
        let factor = move |cx: &mut Self, b: &mut Vec<Stm>, x: Operand, j: Operand| -> R<Operand> {
            let c = cx.bind(b, "c", Exp::Index(cnt, vec![DimIndex::Fix(j)]))?;
            let p = cx.bind(b, "p", Exp::Index(prod, vec![DimIndex::Fix(j)]))?;
            let z = cx.bind(b, "z", Exp::Index(zsum, vec![DimIndex::Fix(j)]))?;
            let hb = cx.bind(b, "hb", Exp::Index(hbar, vec![DimIndex::Fix(j)]))?;
            let py = cx.bin(b, BinOp::Mul, p.into(), hb.into())?;
            cx.zero_factor_adj(b, t, x, c.into(), py, z.into())
        };
        let st = [Type::scalar(t)];
        let dadj = self.map_index(out, "adj_dest", g.m, &st, |cx, b, i| {
            let x = cx.index_row(b, dest, i)?;
            Ok(vec![factor(cx, b, x, i)?])
        })?;
        let (idxs, m) = (g.idxs, g.m);
        let vadj = self.map_index(out, "adj_hist", g.w, &st, |cx, b, i| {
            let (j, inb) = cx.bucket(b, idxs, i, m)?;
            let mut tb = Vec::new();
            let x = cx.index_row(&mut tb, vs, i)?;
            let a = factor(cx, &mut tb, x, j)?;
            cx.if_else_zero(b, inb, tb, a, &Type::scalar(t))
                .map(|r| vec![r])
        })?;
        Ok((dadj, vadj))
    }

    /// The operator on (value, iteration) pairs that finds the winner of
    /// a selecting operator `op` on values of type `t`: `(a, ia) ⊙ (b, ib)`
    /// puts the earlier iteration first and keeps the operand that `op`'s
    /// derivative selects (its vjp with seed 1), so that ties go where a
    /// left-to-right evaluation sends them.
    pub(crate) fn selection_pair(&mut self, op: &Lambda, t: &Type) -> R<Lambda> {
        let i64t = Type::scalar(PrimType::I64);
        let ps: Vec<VarId> = [t, &i64t, t, &i64t]
            .iter()
            .map(|ty| self.fresh("w", (*ty).clone()))
            .collect();
        let mut b = Vec::new();
        let first = self.cmp(&mut b, CmpOp::Le, ps[1].into(), ps[3].into())?;
        let x = self.select(&mut b, t.elem, first, ps[0].into(), ps[2].into());
        let y = self.select(&mut b, t.elem, first, ps[2].into(), ps[0].into());
        let xi = self.select(&mut b, PrimType::I64, first, ps[1].into(), ps[3].into());
        let yi = self.select(&mut b, PrimType::I64, first, ps[3].into(), ps[1].into());
        let f = self.rename_lambda(op);
        let pat = vec![
            self.fresh("r", t.clone()),
            self.fresh("dx", t.clone()),
            self.fresh("dy", t.clone()),
        ];
        let seed = if differentiable(t) {
            konst(t.elem, 1.0)
        } else {
            return Err(self.err("a min/max of booleans inside vjp"));
        };
        self.vjp(
            &pat,
            &ir::AdExp {
                lambda: f,
                primals: vec![x, y],
                seeds: vec![seed],
            },
            &mut b,
        )?;
        let pick = self.cmp(&mut b, CmpOp::Ne, pat[1].into(), konst(t.elem, 0.0))?;
        let rv = self.select(&mut b, t.elem, pick, x, y);
        let ri = self.select(&mut b, PrimType::I64, pick, xi, yi);
        Ok(Lambda {
            params: ps.iter().copied().map(Param::new).collect(),
            ret: vec![t.clone(), i64t.clone()],
            body: Body {
                stms: b,
                result: vec![rv, ri],
            },
        })
    }

    /// The selection rule (`min`, `max`): the winning iteration of every
    /// bucket gets its adjoint.
    fn hist_select(
        &mut self,
        out: &mut Vec<Stm>,
        g: &HistArgs,
        op: &HistOp,
    ) -> R<(Vec<VarId>, Vec<VarId>)> {
        let (dest, vs, hbar) = (g.dests[0], g.vs[0], g.hbar[0]);
        let t = row_of(&self.ty(vs));
        let i64t = Type::scalar(PrimType::I64);
        let d0 = self.bind(out, "win_val", Exp::Copy(dest))?;
        let ms = g.m.to_size();
        let i0 = self.bind(
            out,
            "win_iter",
            Exp::Replicate {
                shape: vec![ms],
                value: Operand::i64(-1),
            },
        )?;
        let pair = self.selection_pair(&op.op, &t)?;
        let hists = vec![HistOp {
            dests: vec![d0, i0],
            neutral: vec![op.neutral[0], Operand::i64(i64::MAX)],
            op: pair,
        }];
        let ret = vec![i64t.clone(), t.clone(), i64t.clone()];
        let win = self.emit_hist(out, g.w, vec![g.idxs, vs], hists, ret, |_, _, ps| {
            Ok(vec![ps[0].into(), ps[1].into(), ps[2].into()])
        })?;
        let wi = win[1];
        let rt = [t.clone()];
        let dadj = self.map_index(out, "adj_dest", g.m, &rt, |cx, b, i| {
            let k = cx.bind(b, "k", Exp::Index(wi, vec![DimIndex::Fix(i)]))?;
            let c = cx.cmp(b, CmpOp::Eq, k.into(), Operand::i64(-1))?;
            let mut tb = Vec::new();
            let e = cx.index_row(&mut tb, hbar, i)?;
            Ok(vec![cx.if_else_zero(b, c, tb, e, &t)?])
        })?;
        let (idxs, m) = (g.idxs, g.m);
        let vadj = self.map_index(out, "adj_hist", g.w, &rt, |cx, b, i| {
            let (j, inb) = cx.bucket(b, idxs, i, m)?;
            let mut tb = Vec::new();
            let k = cx.bind(&mut tb, "k", Exp::Index(wi, vec![DimIndex::Fix(j)]))?;
            let won = cx.cmp(&mut tb, CmpOp::Eq, k.into(), i)?;
            let mut wb = Vec::new();
            let e = cx.index_row(&mut wb, hbar, j)?;
            let a = cx.if_else_zero(&mut tb, won, wb, e, &rt[0])?;
            Ok(vec![cx.if_else_zero(b, inb, tb, a, &rt[0])?])
        })?;
        Ok((dadj, vadj))
    }

    /// The general rule: the updates sorted by bucket, then segmented
    /// scans from both ends.
    fn hist_general(
        &mut self,
        out: &mut Vec<Stm>,
        g: &HistArgs,
        op: &HistOp,
    ) -> R<(Vec<VarId>, Vec<VarId>)> {
        let k = g.vs.len();
        let ts: Vec<Type> = g.vs.iter().map(|v| row_of(&self.ty(*v))).collect();
        let i64t = Type::scalar(PrimType::I64);
        let boolt = Type::scalar(PrimType::Bool);
        let (w, m, idxs) = (g.w, g.m, g.idxs);
        // The key of an update: its bucket, or m when out of bounds.
        let keys = self.map_index(out, "keys", w, std::slice::from_ref(&i64t), |cx, b, i| {
            let (j, inb) = cx.bucket(b, idxs, i, m)?;
            Ok(vec![cx.select(b, PrimType::I64, inb, j, m)])
        })?[0];
        let (sk, sp) = self.radix_sort(out, w, m, keys)?;
        let vs = g.vs.clone();
        let sv = self.map_index(out, "sorted", w, &ts, |cx, b, i| {
            let p = cx.bind(b, "p", Exp::Index(sp, vec![DimIndex::Fix(i)]))?;
            cx.rows_at(b, &vs, p.into())
        })?;
        // Where segments start and end.
        let fl = self.map_index(
            out,
            "seg",
            w,
            &[boolt.clone(), boolt.clone()],
            |cx, b, i| {
                let key = cx.bind(b, "key", Exp::Index(sk, vec![DimIndex::Fix(i)]))?;
                let mut flags = Vec::new();
                for (edge, step) in [(Operand::i64(0), -1), (Operand::i64(-1), 1)] {
                    let edge = if step < 0 {
                        edge
                    } else {
                        cx.bin(b, BinOp::Sub, w, Operand::i64(1))?
                    };
                    let c = cx.cmp(b, CmpOp::Eq, i, edge)?;
                    let mut eb = Vec::new();
                    let j = cx.bin(&mut eb, BinOp::Add, i, Operand::i64(step))?;
                    let kj = cx.bind(&mut eb, "key", Exp::Index(sk, vec![DimIndex::Fix(j)]))?;
                    let d = cx.cmp(&mut eb, CmpOp::Ne, kj.into(), key.into())?;
                    let body = Body {
                        stms: eb,
                        result: vec![d],
                    };
                    let t = Operand::Const(ir::PrimValue::Bool(true));
                    flags
                        .push(cx.select_many(b, std::slice::from_ref(&boolt), c, vec![t], body)[0]);
                }
                Ok(flags)
            },
        )?;
        let (st, en) = (fl[0], fl[1]);
        let ne = op.neutral.clone();
        let dests = g.dests.clone();
        // Lᵢ: the destination element, then the updates before i.
        let incl = self.seg_scan(out, w, st, &sv, &op.op, &ne, false)?;
        let oplam = op.op.clone();
        let ls = self.map_index(out, "left", w, &ts, |cx, b, i| {
            let key = cx.bind(b, "key", Exp::Index(sk, vec![DimIndex::Fix(i)]))?;
            let out_of = cx.cmp(b, CmpOp::Ge, key.into(), m)?;
            let mut tb = Vec::new();
            let ds = cx.rows_at(&mut tb, &dests, key.into())?;
            let s = cx.bind(&mut tb, "start", Exp::Index(st, vec![DimIndex::Fix(i)]))?;
            let mut eb = Vec::new();
            let j = cx.bin(&mut eb, BinOp::Sub, i, Operand::i64(1))?;
            let prev = cx.rows_at(&mut eb, &incl, j)?;
            let r = cx.apply_op(&mut eb, &oplam, &ds, &prev);
            let inner = cx.select_many(
                &mut tb,
                &ts,
                s.into(),
                ds,
                Body {
                    stms: eb,
                    result: r,
                },
            );
            Ok(cx.select_many(
                b,
                &ts,
                out_of,
                ne.clone(),
                Body {
                    stms: tb,
                    result: inner,
                },
            ))
        })?;
        // Rᵢ: the updates after i in its segment.
        let ren = self.reverse_arrays(out, w, &[en])?[0];
        let rsv = self.reverse_arrays(out, w, &sv)?;
        let rincl = self.seg_scan(out, w, ren, &rsv, &op.op, &ne, true)?;
        let rincl = self.reverse_arrays(out, w, &rincl)?;
        let ne = op.neutral.clone();
        let rs = self.map_index(out, "right", w, &ts, |cx, b, i| {
            let e = cx.bind(b, "end", Exp::Index(en, vec![DimIndex::Fix(i)]))?;
            let mut eb = Vec::new();
            let j = cx.bin(&mut eb, BinOp::Add, i, Operand::i64(1))?;
            let next = cx.rows_at(&mut eb, &rincl, j)?;
            Ok(cx.select_many(
                b,
                &ts,
                e.into(),
                ne.clone(),
                Body {
                    stms: eb,
                    result: next,
                },
            ))
        })?;
        // The adjoint of each update in sorted order: the vjp of
        // x ↦ (Lᵢ ⊙ x) ⊙ Rᵢ seeded with the bucket's adjoint.
        let lp: Vec<VarId> = ts.iter().map(|t| self.fresh("l", t.clone())).collect();
        let xp: Vec<VarId> = ts.iter().map(|t| self.fresh("x", t.clone())).collect();
        let rp: Vec<VarId> = ts.iter().map(|t| self.fresh("r", t.clone())).collect();
        let kp = self.fresh("key", i64t.clone());
        let mut b = Vec::new();
        let out_of = self.cmp(&mut b, CmpOp::Ge, kp.into(), m)?;
        // The operator's free variables get their adjoints through each
        // application `Lᵢ ⊙ vᵢ`, summed over the updates.
        let closure = self.closure_vars(&op.op);
        let mut rts: Vec<Type> = closure.iter().map(|c| self.ty(*c)).collect();
        rts.extend(ts.iter().cloned());
        let mut zb = Vec::new();
        let mut zs = Vec::new();
        for t in &rts {
            zs.push(self.zero_adj(&mut zb, t)?);
        }
        let mut tb = Vec::new();
        let seeds = self.rows_at(&mut tb, &g.hbar, kp.into())?;
        let ops = |v: &[VarId]| -> Vec<Operand> { v.iter().copied().map(Operand::Var).collect() };
        let (xbar, mut cadj) = self.elem_adj(
            &mut tb,
            &op.op,
            [&ops(&lp), &ops(&xp), &ops(&rp)],
            seeds,
            &ts,
            &closure,
        )?;
        cadj.extend(xbar);
        let res = self.select_many(
            &mut b,
            &rts,
            out_of,
            zs,
            Body {
                stms: tb,
                result: cadj,
            },
        );
        let mut zstms = zb;
        zstms.extend(b);
        let mut params: Vec<Param> = Vec::new();
        for v in lp.iter().chain(&xp).chain(&rp).chain([&kp]) {
            params.push(Param::new(*v));
        }
        let mut inputs = ls;
        inputs.extend(&sv);
        inputs.extend(rs);
        inputs.push(sk);
        let lam = Lambda {
            params,
            ret: rts,
            body: Body {
                stms: zstms,
                result: res,
            },
        };
        let gs = self.emit_map_summing(out, "adj_sorted", w, inputs, lam, &closure)?;
        // Back to iteration order.
        let ws = w.to_size();
        let mut zdests = Vec::new();
        for t in &ts {
            let z = self.zero_adj(out, t)?;
            let exp = Exp::Replicate {
                shape: vec![ws],
                value: z,
            };
            zdests.push(self.bind(out, "adj_hist", exp)?);
        }
        let pp = self.fresh("p", i64t.clone());
        let gp: Vec<VarId> = ts.iter().map(|t| self.fresh("g", t.clone())).collect();
        let mut sres = Vec::new();
        let mut sret = Vec::new();
        for (g, t) in gp.iter().zip(&ts) {
            sres.push(Operand::Var(pp));
            sres.push(Operand::Var(*g));
            sret.push(i64t.clone());
            sret.push(t.clone());
        }
        let vadj: Vec<VarId> = zdests
            .iter()
            .map(|d| {
                let t = self.ty(*d);
                self.fresh("adj_hist", t)
            })
            .collect();
        let mut sinputs = vec![sp];
        sinputs.extend(gs);
        let mut sparams = vec![Param::new(pp)];
        sparams.extend(gp.iter().copied().map(Param::new));
        self.push(
            out,
            vadj.clone(),
            Exp::Scatter(Box::new(Scatter {
                w,
                inputs: sinputs,
                dests: zdests
                    .iter()
                    .map(|d| ScatterDest { arr: *d, rank: 1 })
                    .collect(),
                map: Lambda {
                    params: sparams,
                    ret: sret,
                    body: Body {
                        stms: Vec::new(),
                        result: sres,
                    },
                },
            })),
        );
        // The destination: the vjp of d ↦ d ⊙ T[b], T the bucket totals.
        let ms = m.to_size();
        let mut tinit = Vec::new();
        for n in &op.neutral {
            let exp = Exp::Replicate {
                shape: vec![ms],
                value: *n,
            };
            tinit.push(self.bind(out, "totals", exp)?);
        }
        let hists = vec![HistOp {
            dests: tinit,
            neutral: op.neutral.clone(),
            op: self.rename_lambda(&op.op),
        }];
        let mut ret = vec![i64t.clone()];
        ret.extend(ts.iter().cloned());
        let mut hin = vec![idxs];
        hin.extend(&g.vs);
        let tot = self.emit_hist(out, w, hin, hists, ret, |_, _, ps| {
            Ok(ps[..=k].iter().copied().map(Operand::Var).collect())
        })?;
        let dq: Vec<VarId> = ts.iter().map(|t| self.fresh("d", t.clone())).collect();
        let tq: Vec<VarId> = ts.iter().map(|t| self.fresh("t", t.clone())).collect();
        let hq: Vec<VarId> = ts.iter().map(|t| self.fresh("h", t.clone())).collect();
        let dp: Vec<VarId> = ts.iter().map(|t| self.fresh("d", t.clone())).collect();
        let mut fb = Vec::new();
        let dops: Vec<Operand> = dp.iter().copied().map(Operand::Var).collect();
        let tops: Vec<Operand> = tq.iter().copied().map(Operand::Var).collect();
        let y = self.apply_op(&mut fb, &op.op, &dops, &tops);
        let f = Lambda {
            params: dp.iter().copied().map(Param::new).collect(),
            ret: ts.clone(),
            body: Body {
                stms: fb,
                result: y,
            },
        };
        let pat: Vec<VarId> = ts
            .iter()
            .chain(&ts)
            .map(|t| self.fresh("g", t.clone()))
            .collect();
        let mut b = Vec::new();
        self.vjp(
            &pat,
            &ir::AdExp {
                lambda: f,
                primals: dq.iter().copied().map(Operand::Var).collect(),
                seeds: hq.iter().copied().map(Operand::Var).collect(),
            },
            &mut b,
        )?;
        let mut params: Vec<Param> = Vec::new();
        for v in dq.iter().chain(&tq).chain(&hq) {
            params.push(Param::new(*v));
        }
        let mut inputs = g.dests.clone();
        inputs.extend(tot);
        inputs.extend(&g.hbar);
        let lam = Lambda {
            params,
            ret: ts.clone(),
            body: Body {
                stms: b,
                result: pat[k..].iter().copied().map(Operand::Var).collect(),
            },
        };
        let dadj = self.emit_screma(out, "adj_dest", m, inputs, Vec::new(), lam);
        Ok((dadj, vadj))
    }

    /// The inclusive scan of `xs` by `op` in segments starting where
    /// `flags` holds; with `flip`, each step computes `x ⊙ acc` instead of
    /// `acc ⊙ x` (a scan of reversed arrays from the right).
    #[allow(clippy::too_many_arguments)]
    fn seg_scan(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        flags: VarId,
        xs: &[VarId],
        op: &Lambda,
        ne: &[Operand],
        flip: bool,
    ) -> R<Vec<VarId>> {
        let ts: Vec<Type> = xs.iter().map(|x| row_of(&self.ty(*x))).collect();
        let boolt = Type::scalar(PrimType::Bool);
        let fa = self.fresh("fa", boolt.clone());
        let fb = self.fresh("fb", boolt.clone());
        let a: Vec<VarId> = ts.iter().map(|t| self.fresh("a", t.clone())).collect();
        let bb: Vec<VarId> = ts.iter().map(|t| self.fresh("b", t.clone())).collect();
        let aops: Vec<Operand> = a.iter().copied().map(Operand::Var).collect();
        let bops: Vec<Operand> = bb.iter().copied().map(Operand::Var).collect();
        let mut body = Vec::new();
        let f = self.bin(&mut body, BinOp::Or, fa.into(), fb.into())?;
        let mut eb = Vec::new();
        let r = if flip {
            self.apply_op(&mut eb, op, &bops, &aops)
        } else {
            self.apply_op(&mut eb, op, &aops, &bops)
        };
        let sel = self.select_many(
            &mut body,
            &ts,
            fb.into(),
            bops,
            Body {
                stms: eb,
                result: r,
            },
        );
        let mut params = vec![Param::new(fa)];
        params.extend(a.iter().copied().map(Param::new));
        params.push(Param::new(fb));
        params.extend(bb.iter().copied().map(Param::new));
        let mut ret = vec![boolt.clone()];
        ret.extend(ts.iter().cloned());
        let mut result = vec![f];
        result.extend(sel);
        let mut neutral = vec![Operand::Const(ir::PrimValue::Bool(false))];
        neutral.extend_from_slice(ne);
        let scan = ScanRed {
            op: Lambda {
                params,
                ret: ret.clone(),
                body: Body { stms: body, result },
            },
            neutral,
            commutative: false,
        };
        let id = self.id_lambda(&ret);
        let mut inputs = vec![flags];
        inputs.extend_from_slice(xs);
        let res = self.emit_screma(out, "seg_scan", w, inputs, vec![scan], id);
        Ok(res[1..].to_vec())
    }

    /// A stable sort of `keys` (each in `0..=m`): one stable partition per
    /// bit of `m`, by a scan counting the zeros and a scatter. Returns the
    /// sorted keys and, for each, its position in `keys`.
    fn radix_sort(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        m: Operand,
        keys: VarId,
    ) -> R<(VarId, VarId)> {
        let i64t = Type::scalar(PrimType::I64);
        let arrt = i64t.array_of(w.to_size());
        let lz = self.math(out, MathFn::Clz, vec![m])?;
        let lz = self.conv(out, PrimType::I64, lz)?;
        let nbits = self.bin(out, BinOp::Sub, Operand::i64(64), lz)?;
        let perm = self.bind(
            out,
            "perm",
            Exp::Iota {
                n: w,
                start: Operand::i64(0),
                step: Operand::i64(1),
            },
        )?;
        let ks = self.fresh("ks", arrt.clone());
        let ps = self.fresh("ps", arrt.clone());
        let bit = self.fresh("bit", i64t.clone());
        let mut b = Vec::new();
        // The zero bits: their inclusive count (a scan) and their total.
        let bitof = move |cx: &mut Self, b: &mut Vec<Stm>, k: Operand| -> R<Operand> {
            let s = cx.bin(b, BinOp::Shr, k, bit.into())?;
            cx.bin(b, BinOp::And, s, Operand::i64(1))
        };
        let kx = self.fresh("k", i64t.clone());
        let mut mb = Vec::new();
        let one = bitof(self, &mut mb, kx.into())?;
        let z = self.bin(&mut mb, BinOp::Sub, Operand::i64(1), one)?;
        let add1 = self.binop_lambda(PrimType::I64, BinOp::Add)?;
        let add2 = self.binop_lambda(PrimType::I64, BinOp::Add)?;
        let zs = self.fresh("zs", arrt.clone());
        let nz = self.fresh("nz", i64t.clone());
        self.push(
            &mut b,
            vec![zs, nz],
            Exp::Screma(Box::new(Screma {
                w,
                inputs: vec![ks],
                scans: vec![ScanRed {
                    op: add1,
                    neutral: vec![Operand::i64(0)],
                    commutative: true,
                }],
                reduces: vec![ScanRed {
                    op: add2,
                    neutral: vec![Operand::i64(0)],
                    commutative: true,
                }],
                map: Lambda {
                    params: vec![Param::new(kx)],
                    ret: vec![i64t.clone(), i64t.clone()],
                    body: Body {
                        stms: mb,
                        result: vec![z, z],
                    },
                },
            })),
        );
        let pos = self.map_index(&mut b, "pos", w, std::slice::from_ref(&i64t), |cx, b, i| {
            let k = cx.bind(b, "k", Exp::Index(ks, vec![DimIndex::Fix(i)]))?;
            let c = cx.bind(b, "c", Exp::Index(zs, vec![DimIndex::Fix(i)]))?;
            let one = bitof(cx, b, k.into())?;
            let isz = cx.cmp(b, CmpOp::Eq, one, Operand::i64(0))?;
            let lo = cx.bin(b, BinOp::Sub, c.into(), Operand::i64(1))?;
            let ic = cx.bin(b, BinOp::Sub, i, c.into())?;
            let hi = cx.bin(b, BinOp::Add, nz.into(), ic)?;
            Ok(vec![cx.select(b, PrimType::I64, isz, lo, hi)])
        })?[0];
        let mut dests = Vec::new();
        for name in ["ks", "ps"] {
            let exp = Exp::Replicate {
                shape: vec![w.to_size()],
                value: Operand::i64(0),
            };
            dests.push(self.bind(&mut b, name, exp)?);
        }
        let (pq, kq, qq) = (
            self.fresh("p", i64t.clone()),
            self.fresh("k", i64t.clone()),
            self.fresh("q", i64t.clone()),
        );
        let nks = self.fresh("ks", arrt.clone());
        let nps = self.fresh("ps", arrt.clone());
        self.push(
            &mut b,
            vec![nks, nps],
            Exp::Scatter(Box::new(Scatter {
                w,
                inputs: vec![pos, ks, ps],
                dests: dests
                    .iter()
                    .map(|d| ScatterDest { arr: *d, rank: 1 })
                    .collect(),
                map: Lambda {
                    params: vec![Param::new(pq), Param::new(kq), Param::new(qq)],
                    ret: vec![i64t.clone(); 4],
                    body: Body {
                        stms: Vec::new(),
                        result: vec![pq.into(), kq.into(), pq.into(), qq.into()],
                    },
                },
            })),
        );
        let sk = self.fresh("sorted_keys", arrt.clone());
        let sp = self.fresh("sorted_perm", arrt);
        self.push(
            out,
            vec![sk, sp],
            Exp::Loop {
                params: vec![(Param::new(ks), keys.into()), (Param::new(ps), perm.into())],
                form: LoopForm::For {
                    i: bit,
                    bound: nbits,
                },
                body: Body {
                    stms: b,
                    result: vec![nks.into(), nps.into()],
                },
            },
        );
        Ok((sk, sp))
    }
}

/// The operands of one histogram's return sweep.
#[derive(Clone, Debug)]
pub(crate) struct HistArgs {
    /// The number of updates.
    pub w: Operand,
    /// The number of buckets.
    pub m: Operand,
    /// The bucket of every update.
    pub idxs: VarId,
    /// The values of every update, one array per destination.
    pub vs: Vec<VarId>,
    /// The destinations as they were before the histogram.
    pub dests: Vec<VarId>,
    /// The adjoints of the results.
    pub hbar: Vec<VarId>,
}
