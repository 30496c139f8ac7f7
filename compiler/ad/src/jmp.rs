//! Forward mode over many seeds: `jmp f x u̇s`, which the internaliser
//! lowers to `map (\u̇ -> jvp f x u̇) u̇s`, computes the primal of `f` once
//! and all `k` tangents beside it.
//!
//! A map over `k` seeds whose lambda holds, at its top level, a `jvp`
//! whose function and point use nothing bound in the lambda and whose
//! seeds are the rows the map reads ([`vector_seed_map`]) has that `jvp`
//! expanded once, before the map, in vector mode ([`Ctx::vec`]): every
//! tangent holds the `k` seeds' tangents as an extra innermost dimension
//! (the tangent of an `f64` is a `[k]f64`, of a `[n]f64` a `[n][k]f64`).
//! With the seed dimension innermost, the rules of arrays, `if`, loops and
//! SOACs stay as they are: indexing a tangent gives the tangent of the
//! element for every seed, a loop carries `[..][k]` tangent parameters, a
//! map over rows passes `[..][k]` tangent rows, an operator's tangents are
//! `[k]` arrays. Only scalar statements change ([`Ctx::lift_scalar`]):
//! their tangent statements, built by the scalar rules for one seed,
//! become a map over the `k` seeds, and the partial derivatives that do
//! not depend on the seed are computed once, outside it. The seeds are
//! transposed to put their dimension innermost, and the tangents of the
//! results back; the map then only hands out the rows.
//!
//! With no seeds the primal still runs once, as the reference
//! interpreter's `jmp` does. Anything the vector mode has no rule for
//! (accumulators, from a `vjp` inside the function; inside a `vjp`, a
//! scan on pairs of values and `[k]` tangents, which reverse mode does not
//! differentiate) leaves the map to the usual expansion, one `jvp` per
//! seed.

use std::collections::HashSet;

use ir::{AdExp, Body, Exp, Lambda, Operand, Param, Screma, Size, Stm, VarId};

use crate::ctx::{Ctx, R, differentiable};

impl Ctx<'_> {
    /// Emits a scalar statement and, over many seeds, its tangent: the
    /// scalar rule's tangent statements for one seed, those that depend on
    /// the seed in a map over the seeds, the others before it.
    pub fn lift_scalar(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        out.push(stm.clone());
        let (Some(k), [y]) = (self.vec, stm.pat.as_slice()) else {
            return Ok(());
        };
        let y = *y;
        let mut vars: Vec<VarId> = ir::uses::exp_free(self.vars(), &stm.exp)
            .into_iter()
            .filter(|v| self.tan.contains_key(v))
            .collect();
        if vars.is_empty() {
            return Ok(());
        }
        vars.sort_by_key(|v| v.as_u32());
        let mut arrays = Vec::new();
        let mut rows = Vec::new();
        for v in &vars {
            let Some(Operand::Var(t)) = self.tan.get(v).copied() else {
                return Err(self.err("internal error: a tangent over many seeds is a constant"));
            };
            let name = format!("{}_tan", self.name(*v));
            let ty = self.ty(*v);
            let r = self.fresh(&name, ty);
            self.tan.insert(*v, r.into());
            arrays.push(t);
            rows.push(r);
        }
        self.vec = None;
        let mut buf = Vec::new();
        let res = self.scalar_tangent(&mut buf, y, &stm.exp);
        self.vec = Some(k);
        for (v, t) in vars.iter().zip(&arrays) {
            self.tan.insert(*v, (*t).into());
        }
        let Some(t) = res? else {
            return Ok(());
        };
        let mut dep: HashSet<VarId> = rows.iter().copied().collect();
        let mut inner = Vec::new();
        for st in buf {
            let uses = ir::uses::exp_free(self.vars(), &st.exp);
            if uses.iter().any(|u| dep.contains(u)) {
                dep.extend(st.pat.iter().copied());
                inner.push(st);
            } else {
                out.push(st);
            }
        }
        let ty = self.ty(y);
        let name = format!("{}_tan", self.name(y));
        let tan = match t {
            Operand::Var(r) if rows.contains(&r) => {
                let i = rows.iter().position(|x| *x == r).unwrap_or(0);
                arrays[i]
            }
            Operand::Var(r) if dep.contains(&r) => {
                let w = self.size_op(&k)?;
                let v = self.fresh(&name, self.tan_ty(&ty));
                let lam = Lambda {
                    params: rows.iter().map(|r| Param::new(*r)).collect(),
                    ret: vec![ty],
                    body: Body {
                        stms: inner,
                        result: vec![t],
                    },
                };
                let exp = Exp::Screma(Box::new(Screma {
                    w,
                    inputs: arrays,
                    scans: Vec::new(),
                    reduces: Vec::new(),
                    map: lam,
                }));
                self.push(out, vec![v], exp);
                v
            }
            c => {
                let exp = Exp::Replicate {
                    shape: vec![k],
                    value: c,
                };
                self.bind(out, &name, exp)?
            }
        };
        self.tan.insert(y, tan.into());
        Ok(())
    }

    /// Emits `jvp(lambda, primals, ·)` for `k` seeds at once: `seeds[i]`
    /// is an array of the `k` tangents of parameter `i`, seed dimension
    /// outermost. Returns the results and, for each result that carries
    /// tangents, the array of its `k` tangents, seed dimension outermost.
    fn jvp_many(
        &mut self,
        ad: &AdExp,
        k: Size,
        seeds: &[VarId],
        out: &mut Vec<Stm>,
    ) -> R<(Vec<Operand>, Vec<Option<VarId>>)> {
        let saved = std::mem::take(&mut self.tan);
        let saved_vec = self.vec.replace(k);
        let res = self.jvp_many_in(ad, seeds, out);
        self.tan = saved;
        self.vec = saved_vec;
        res
    }

    fn jvp_many_in(
        &mut self,
        ad: &AdExp,
        seeds: &[VarId],
        out: &mut Vec<Stm>,
    ) -> R<(Vec<Operand>, Vec<Option<VarId>>)> {
        let lam = &ad.lambda;
        if lam.params.len() != ad.primals.len()
            || lam.params.len() != seeds.len()
            || lam.body.result.len() != lam.ret.len()
        {
            return Err(self.err("a jvp whose operands do not match its lambda"));
        }
        for (p, x) in lam.params.iter().zip(&ad.primals) {
            self.push(out, vec![p.var], Exp::Atom(*x));
        }
        for (p, s) in lam.params.iter().zip(seeds) {
            if differentiable(&self.ty(p.var)) {
                let rank = self.ty(*s).shape.len();
                let t = if rank > 1 {
                    let perm = (1..rank).chain([0]).collect();
                    self.bind(out, "seeds", Exp::Rearrange { perm, arr: *s })?
                } else {
                    *s
                };
                self.tan.insert(p.var, t.into());
            }
        }
        self.diff_body(&lam.body, out)?;
        let mut tans = Vec::new();
        for (r, ty) in lam.body.result.iter().zip(&lam.ret) {
            if !differentiable(ty) {
                tans.push(None);
                continue;
            }
            let Operand::Var(t) = self.tan_or_zero(out, r)? else {
                return Err(self.err("internal error: a tangent over many seeds is a constant"));
            };
            let rank = self.ty(t).shape.len();
            let t = if rank > 1 {
                let perm = [rank - 1].into_iter().chain(0..rank - 1).collect();
                self.bind(out, "tangents", Exp::Rearrange { perm, arr: t })?
            } else {
                t
            };
            tans.push(Some(t));
        }
        Ok((lam.body.result.clone(), tans))
    }
}

/// When `stm` is a map over seeds whose lambda holds, at its top level, a
/// `jvp` whose function and point use nothing bound in the lambda and
/// whose seeds are rows the map reads, returns the `jvp` expanded for
/// every seed at once and `stm` handing out the rows of its results; AD
/// nodes inside the `jvp`'s function are expanded first. `None` leaves
/// the map to the usual expansion.
pub fn vector_seed_map(cx: &mut Ctx<'_>, stm: &Stm) -> Option<(Vec<Stm>, Stm)> {
    let Exp::Screma(s) = &stm.exp else {
        return None;
    };
    if !s.scans.is_empty() || !s.reduces.is_empty() {
        return None;
    }
    let k = s.w.to_size();
    if k == Size::Any {
        return None;
    }
    let lam = &s.map;
    let ninputs = s.inputs.len();
    let inner = crate::soacs::lambda_binds(lam);
    let row_input = |p: &Operand| {
        lam.params[..ninputs.min(lam.params.len())]
            .iter()
            .position(|q| Some(q.var) == p.var())
    };
    let fits = |cx: &Ctx<'_>, ad: &AdExp| {
        crate::soacs::ad_invariant(cx, ad, &inner)
            && ad
                .seeds
                .iter()
                .all(|o| row_input(o).is_some_and(|i| !cx.ty(s.inputs[i]).acc))
    };
    let at = lam
        .body
        .stms
        .iter()
        .position(|st| matches!(&st.exp, Exp::Jvp(ad) if fits(cx, ad)))?;
    let seed_inputs: Vec<usize> = match &lam.body.stms[at].exp {
        Exp::Jvp(ad) => ad.seeds.iter().filter_map(row_input).collect(),
        _ => return None,
    };
    cx.span = stm.span;
    // A renamed copy, so that nothing is changed when a rule is missing.
    let copy = |cx: &mut Ctx<'_>| -> Body {
        let b = Body {
            stms: vec![stm.clone()],
            result: Vec::new(),
        };
        cx.rename(&[], &b).1
    };
    let mut split = copy(cx).stms.pop()?;
    let Exp::Screma(sc) = &mut split.exp else {
        return None;
    };
    let jstm = sc.map.body.stms[at].clone();
    let Exp::Jvp(mut ad) = jstm.exp else {
        return None;
    };
    let mut inner_errors = Vec::new();
    crate::expand_body(cx, &mut ad.lambda.body, &mut inner_errors);
    if !inner_errors.is_empty() {
        return None;
    }
    let seeds: Vec<VarId> = seed_inputs.iter().map(|&i| sc.inputs[i]).collect();
    let mut pre = Vec::new();
    let (primals, tans) = cx.jvp_many(&ad, k, &seeds, &mut pre).ok()?;
    let n = primals.len();
    if jstm.pat.len() != 2 * n {
        return None;
    }
    // The results become aliases of arrays bound outside the lambda (or
    // of its rows): those the rest of the lambda consumes are copies.
    let no_functions = ir::PrimaryMap::new();
    let mut consumed = HashSet::new();
    for st in &sc.map.body.stms[at + 1..] {
        ir::uses::exp_consumes(&no_functions, cx.vars(), &st.exp, &mut consumed);
    }
    let bind = |cx: &mut Ctx<'_>, out: &mut Vec<Stm>, y: VarId, v: Operand| {
        let exp = match v {
            Operand::Var(a) if consumed.contains(&y) && !cx.ty(a).shape.is_empty() => Exp::Copy(a),
            v => Exp::Atom(v),
        };
        cx.push(out, vec![y], exp);
    };
    let mut repl = Vec::new();
    for (y, p) in jstm.pat.iter().zip(&primals) {
        bind(cx, &mut repl, *y, *p);
    }
    let mut new_params = Vec::new();
    for (j, t) in tans.into_iter().enumerate() {
        let y = jstm.pat[n + j];
        let v = match t {
            Some(t) => {
                let mut row = cx.ty(t);
                row.shape.remove(0);
                let name = format!("{}_row", cx.name(y));
                let r = cx.fresh(&name, row);
                new_params.push(Param::new(r));
                sc.inputs.push(t);
                Operand::Var(r)
            }
            None => {
                let ty = cx.ty(y);
                cx.zeros_of(&mut repl, &ty).ok()?
            }
        };
        bind(cx, &mut repl, y, v);
    }
    let pos = ninputs.min(sc.map.params.len());
    sc.map.params.splice(pos..pos, new_params);
    sc.map.body.stms.splice(at..=at, repl);
    split.pat = stm.pat.clone();
    Some((pre, split))
}
