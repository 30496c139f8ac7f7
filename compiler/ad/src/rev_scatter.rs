//! Adjoints through `scatter`.
//!
//! `y = scatter(dest, is, vs)` writes `vs[k]` at `is[k]` for every `k`
//! whose index is in bounds, in iteration order, so that of several writes
//! to one element the last one wins (as in the reference interpreter). The
//! return sweep:
//! - computes the indices and values again (a map of the scatter's
//!   lambda), and the winning iteration of every element of the
//!   destination, by scattering the iteration numbers with the same indices
//!   into an array of `-1`;
//! - gives each value the adjoint `ȳ[is[k]]` of its element when iteration
//!   `k` wrote it last, and zero otherwise (an index out of bounds, or a
//!   later write to the same element);
//! - passes `ȳ` to the destination with the written elements set to zero;
//! - sweeps the values' adjoints back through the lambda as a map.
//!
//! A destination that statements before the scatter also use is needed
//! again by their return sweep after the scatter consumed it: the forward
//! sweep saves the elements the scatter overwrites, and the return sweep
//! scatters them back into a copy of the result, which those statements'
//! return sweep then uses in place of the destination. When a later
//! statement consumes an array (possibly the result), the forward sweep
//! saves a copy of the whole destination instead.

use ir::{
    Body, CmpOp, DimIndex, Exp, Lambda, Operand, Param, PrimType, Scatter, ScatterDest, Stm, Type,
    VarId,
};

use crate::ctx::{Ctx, R};

/// The elements a scatter overwrote, saved by the forward sweep.
#[derive(Clone, Debug)]
pub struct SavedDest {
    /// The destination.
    pub dest: VarId,
    /// The index arrays (one per dimension indexed).
    pub idxs: Vec<VarId>,
    /// The elements at those indices before the scatter (zeros where an
    /// index is out of bounds).
    pub old: VarId,
}

impl Ctx<'_> {
    /// The indices and values of a scatter, computed again by a map of a
    /// fresh copy of its lambda: per destination, `rank` index arrays then
    /// a value array.
    fn scatter_vals(&mut self, out: &mut Vec<Stm>, s: &Scatter) -> Vec<VarId> {
        let lam = self.rename_lambda(&s.map);
        self.emit_screma(out, "vals", s.w, s.inputs.clone(), Vec::new(), lam)
    }

    /// `0 <= js[k] < dims[k]` for every `k`.
    pub(crate) fn in_bounds(
        &mut self,
        b: &mut Vec<Stm>,
        js: &[Operand],
        dims: &[Operand],
    ) -> R<Operand> {
        let mut ok = Operand::Const(ir::PrimValue::Bool(true));
        for (j, d) in js.iter().zip(dims) {
            let lo = self.cmp(b, CmpOp::Le, Operand::i64(0), *j)?;
            let hi = self.cmp(b, CmpOp::Lt, *j, *d)?;
            let both = self.bin(b, ir::BinOp::And, lo, hi)?;
            ok = self.bin(b, ir::BinOp::And, ok, both)?;
        }
        Ok(ok)
    }

    /// `r = if cond then (then_stms; a) else zeros of type t`.
    pub(crate) fn if_else_zero(
        &mut self,
        b: &mut Vec<Stm>,
        cond: Operand,
        then_stms: Vec<Stm>,
        a: Operand,
        t: &Type,
    ) -> R<Operand> {
        let mut eb = Vec::new();
        let z = self.zero_adj(&mut eb, t)?;
        let r = self.fresh("adj", t.clone());
        self.push_if(b, r, cond, (then_stms, a), (eb, z));
        Ok(r.into())
    }

    /// `scatter(w, idxs, values of lambda) into dest`: the lambda maps the
    /// indices and, last, the iteration index to the indices and a value
    /// made by `value`.
    fn scatter_with(
        &mut self,
        out: &mut Vec<Stm>,
        w: Operand,
        idxs: &[VarId],
        extra: Option<VarId>,
        dest: VarId,
        value: impl FnOnce(&mut Self, &mut Vec<Stm>, Option<VarId>, VarId) -> R<Operand>,
    ) -> R<VarId> {
        let i64t = Type::scalar(PrimType::I64);
        let js: Vec<VarId> = idxs.iter().map(|_| self.fresh("j", i64t.clone())).collect();
        let x = extra.map(|e| {
            let t = self.ty(e).row().unwrap_or_else(|| i64t.clone());
            self.fresh("x", t)
        });
        let i = self.fresh("i", i64t.clone());
        let mut stms = Vec::new();
        let v = value(self, &mut stms, x, i)?;
        let mut params: Vec<Param> = js.iter().copied().map(Param::new).collect();
        params.extend(x.map(Param::new));
        params.push(Param::new(i));
        let mut ret = vec![i64t; js.len()];
        ret.push(self.op_ty(&v));
        let mut result: Vec<Operand> = js.iter().copied().map(Operand::Var).collect();
        result.push(v);
        let mut inputs = idxs.to_vec();
        inputs.extend(extra);
        let r = self.fresh("scattered", self.ty(dest));
        self.push(
            out,
            vec![r],
            Exp::Scatter(Box::new(Scatter {
                w,
                inputs,
                dests: vec![ScatterDest {
                    arr: dest,
                    rank: idxs.len(),
                }],
                map: Lambda {
                    params,
                    ret,
                    body: Body { stms, result },
                },
            })),
        );
        Ok(r)
    }

    /// The forward sweep of a scatter: when statements before it (in
    /// `earlier`) use a destination, the elements it overwrites are saved
    /// first; then the scatter itself.
    pub fn fwd_scatter(
        &mut self,
        out: &mut Vec<Stm>,
        stm: &Stm,
        s: &Scatter,
        earlier: &[Stm],
        later: &[Stm],
    ) -> R<()> {
        let mut used = std::collections::HashSet::new();
        for e in earlier {
            ir::uses::exp_uses(self.vars(), &e.exp, &mut used);
        }
        let mut consumed = std::collections::HashSet::new();
        let no_functions = ir::PrimaryMap::new();
        for e in later {
            ir::uses::exp_consumes(&no_functions, self.vars(), &e.exp, &mut consumed);
        }
        if !consumed.is_empty() {
            for dest in &s.dests {
                if used.contains(&dest.arr) {
                    let c = self.bind(out, "saved", Exp::Copy(dest.arr))?;
                    self.saved_copies.insert(dest.arr, c);
                }
            }
        } else if s.dests.iter().any(|d| used.contains(&d.arr)) {
            let vals = self.scatter_vals(out, s);
            let mut off = 0;
            for dest in &s.dests {
                let idxs = vals[off..off + dest.rank].to_vec();
                off += dest.rank + 1;
                if !used.contains(&dest.arr) {
                    continue;
                }
                let dt = self.ty(dest.arr);
                let dims = (0..dest.rank)
                    .map(|k| self.size_op(&dt.shape[k]))
                    .collect::<R<Vec<_>>>()?;
                let rt = Type::array(dt.elem, dt.shape[dest.rank..].to_vec());
                let arr = dest.arr;
                let old =
                    self.map_index(out, "saved", s.w, std::slice::from_ref(&rt), |cx, b, i| {
                        let js = idxs
                            .iter()
                            .map(|x| cx.bind(b, "j", Exp::Index(*x, vec![DimIndex::Fix(i)])))
                            .map(|j| j.map(Operand::Var))
                            .collect::<R<Vec<_>>>()?;
                        let inb = cx.in_bounds(b, &js, &dims)?;
                        let mut tb = Vec::new();
                        let fix = js.iter().map(|j| DimIndex::Fix(*j)).collect();
                        let e = cx.bind(&mut tb, "e", Exp::Index(arr, fix))?;
                        let e = if rt.shape.is_empty() {
                            e
                        } else {
                            cx.bind(&mut tb, "e", Exp::Copy(e))?
                        };
                        Ok(vec![cx.if_else_zero(b, inb, tb, e.into(), &rt)?])
                    })?;
                self.saved_dests
                    .entry(stm.pat[0])
                    .or_default()
                    .push(SavedDest {
                        dest: arr,
                        idxs,
                        old: old[0],
                    });
            }
        }
        out.push(stm.clone());
        Ok(())
    }

    /// Restores the destinations that the forward sweep saved for the
    /// scatter `stm`, returning each destination with its restored copy.
    pub fn restore_scatter(
        &mut self,
        out: &mut Vec<Stm>,
        stm: &Stm,
        s: &Scatter,
    ) -> R<Vec<(VarId, VarId)>> {
        let mut res = Vec::new();
        for dest in &s.dests {
            if let Some(c) = self.saved_copies.remove(&dest.arr) {
                res.push((dest.arr, c));
            }
        }
        let saved = self.saved_dests.remove(&stm.pat[0]).unwrap_or_default();
        for sv in saved {
            let Some(d) = s.dests.iter().position(|d| d.arr == sv.dest) else {
                continue;
            };
            let y = self.bind(out, "restored", Exp::Copy(stm.pat[d]))?;
            let r = self.scatter_with(out, s.w, &sv.idxs, Some(sv.old), y, |_, _, x, _| {
                Ok(x.map(Operand::Var).unwrap_or(Operand::i64(0)))
            })?;
            res.push((sv.dest, r));
        }
        Ok(res)
    }

    /// The return sweep of a scatter.
    pub fn rev_scatter(&mut self, out: &mut Vec<Stm>, stm: &Stm, s: &Scatter) -> R<()> {
        if s.inputs.iter().any(|v| self.ty(*v).acc) {
            return Err(self.err("a scatter over accumulators inside vjp"));
        }
        let vals = self.scatter_vals(out, s);
        let mut off = 0;
        for (d, dest) in s.dests.iter().enumerate() {
            let y = stm.pat[d];
            let idxs = vals[off..off + dest.rank].to_vec();
            let v = vals[off + dest.rank];
            off += dest.rank + 1;
            let Some(Operand::Var(yb)) = self.adj.get(&y).copied() else {
                continue;
            };
            let yt = self.ty(yb);
            let dims = (0..dest.rank)
                .map(|k| self.size_op(&yt.shape[k]))
                .collect::<R<Vec<_>>>()?;
            let rt = Type::array(yt.elem, yt.shape[dest.rank..].to_vec());
            if self.active(&v.into()) {
                let wshape = yt.shape[..dest.rank].to_vec();
                let none = self.bind(
                    out,
                    "winner",
                    Exp::Replicate {
                        shape: wshape,
                        value: Operand::i64(-1),
                    },
                )?;
                let win =
                    self.scatter_with(out, s.w, &idxs, None, none, |_, _, _, i| Ok(i.into()))?;
                let adj = self.map_index(
                    out,
                    "adj_scatter",
                    s.w,
                    std::slice::from_ref(&rt),
                    |cx, b, i| {
                        let js = idxs
                            .iter()
                            .map(|x| cx.bind(b, "j", Exp::Index(*x, vec![DimIndex::Fix(i)])))
                            .map(|j| j.map(Operand::Var))
                            .collect::<R<Vec<_>>>()?;
                        let inb = cx.in_bounds(b, &js, &dims)?;
                        let fix: Vec<DimIndex> = js.iter().map(|j| DimIndex::Fix(*j)).collect();
                        let mut tb = Vec::new();
                        let k = cx.bind(&mut tb, "k", Exp::Index(win, fix.clone()))?;
                        let won = cx.cmp(&mut tb, CmpOp::Eq, k.into(), i)?;
                        let mut wb = Vec::new();
                        let e = cx.bind(&mut wb, "e", Exp::Index(yb, fix))?;
                        let e = if rt.shape.is_empty() {
                            e
                        } else {
                            cx.bind(&mut wb, "e", Exp::Copy(e))?
                        };
                        let a = cx.if_else_zero(&mut tb, won, wb, e.into(), &rt)?;
                        Ok(vec![cx.if_else_zero(b, inb, tb, a, &rt)?])
                    },
                )?;
                self.add_adj(out, &v.into(), adj[0].into(), true)?;
            }
            if self.active(&dest.arr.into()) {
                let Operand::Var(a) = self.take_owned_adj(out, y)? else {
                    return Err(self.err("internal error: a scalar adjoint of an array"));
                };
                let rt2 = rt.clone();
                let z = self
                    .scatter_with(out, s.w, &idxs, None, a, |cx, b, _, _| cx.zero_adj(b, &rt2))?;
                self.add_adj(out, &dest.arr.into(), z.into(), true)?;
            }
        }
        self.rev_map_part(out, stm, s.w, &s.inputs, &s.map, vals)
    }
}
