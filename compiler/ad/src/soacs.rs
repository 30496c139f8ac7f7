//! Tangents through the SOACs.
//!
//! - `screma`: the map lambda also takes the tangent rows of the inputs
//!   that carry one (before the optional index parameter) and also returns
//!   tangents (an accumulator input with a tangent gets its tangent
//!   accumulator as another input, returned beside it); each scan and reduction runs the jvp of its operator on
//!   (value, tangent) pairs, with zero tangents as neutral elements.
//! - `hist`: each histogram also updates a tangent destination with the
//!   paired operator, at the same bucket.
//! - `scatter`: the tangents are scattered with the same indices into a
//!   copy of the destination's tangent.
//!
//! Over many seeds ([`crate::jmp`]) the tangent rows and results have the
//! seeds as an innermost dimension, and a scan or reduction whose
//! operator's tangents do not read the values (`+`) runs as two: one on
//! the values, one on the tangent rows (`split_pair_op`).
//!
//! Reverse mode over many seeds (`mjp`, which the internaliser lowers to
//! `map (\ȳ -> vjp f x ȳ) ȳs`): a `vjp` inside a map whose function and
//! point do not depend on the map ([`split_seed_map`]) has its forward
//! sweep emitted once, before the map, and only its return sweep inside
//! the map, one per seed. So that a map of no iterations still runs
//! nothing, the split map is the `else` branch of an `if` on the map's
//! width being zero, whose `then` branch is the map unchanged.

use ir::{
    Body, Exp, Hist, HistOp, Lambda, Operand, Param, ScanRed, Scatter, ScatterDest, Screma, Stm,
    VarId,
};

use std::collections::HashSet;

use crate::AdError;
use crate::ctx::{Ctx, R, differentiable};

impl Ctx<'_> {
    /// The parameters of a map lambda over `inputs` extended with tangent
    /// parameters for the inputs that carry tangents, and those inputs'
    /// tangent arrays.
    fn map_params(&mut self, lam: &Lambda, inputs: &[VarId]) -> R<(Vec<Param>, Vec<VarId>)> {
        let n = inputs.len();
        let mut params = lam.params[..n.min(lam.params.len())].to_vec();
        let mut tin = Vec::new();
        for (k, inp) in inputs.iter().enumerate() {
            if let Some(Operand::Var(t)) = self.tangent(&(*inp).into()) {
                let p = lam.params[k].var;
                let tp = self.fresh_tan(p);
                self.tan.insert(p, tp.into());
                params.push(Param::new(tp));
                tin.push(t);
            }
        }
        params.extend_from_slice(&lam.params[n.min(lam.params.len())..]);
        Ok((params, tin))
    }

    /// The jvp of an operator with `k` = `neutral.len()` elements on
    /// (value, tangent) pairs: `(a, da, b, db) -> (r, dr)`, its neutral
    /// elements, and the element positions that have tangents.
    fn pair_op(
        &mut self,
        out: &mut Vec<Stm>,
        op: &Lambda,
        neutral: &[Operand],
    ) -> R<(Lambda, Vec<Operand>, Vec<usize>)> {
        let k = neutral.len();
        if op.params.len() != 2 * k || op.ret.len() != k {
            return Err(self.err("internal error: a malformed operator"));
        }
        let slots: Vec<usize> = (0..k)
            .filter(|&j| differentiable(&self.ty(op.params[j].var)))
            .collect();
        let mut params = op.params[..k].to_vec();
        for &j in &slots {
            let p = op.params[j].var;
            let tp = self.fresh_tan(p);
            self.tan.insert(p, tp.into());
            params.push(Param::new(tp));
        }
        params.extend_from_slice(&op.params[k..]);
        for &j in &slots {
            let p = op.params[k + j].var;
            let tp = self.fresh_tan(p);
            self.tan.insert(p, tp.into());
            params.push(Param::new(tp));
        }
        let mut bout = Vec::new();
        self.diff_body(&op.body, &mut bout)?;
        let mut result = op.body.result.clone();
        let mut ret = op.ret.clone();
        let mut ne = neutral.to_vec();
        for &j in &slots {
            result.push(self.tan_or_zero(&mut bout, &op.body.result[j])?);
            ret.push(self.tan_ty(&op.ret[j]));
            let t = self.tan_ty(&self.op_ty(&neutral[j]));
            ne.push(self.zeros_of(out, &t)?);
        }
        let lam = Lambda {
            params,
            ret,
            body: Body { stms: bout, result },
        };
        Ok((lam, ne, slots))
    }

    /// Over many seeds, the tangent part of a paired operator (from
    /// [`Self::pair_op`], `k` values and `t` tangents) as an operator of its
    /// own, when the tangents it computes do not depend on the values (as
    /// for `+`): the scan or reduction then runs twice, once on the values
    /// and once on the `[k]` tangent rows with an elementwise operator,
    /// instead of once on pairs that mix scalars and rows, which reverse
    /// mode does not differentiate.
    fn split_pair_op(&mut self, paired: &ScanRed, k: usize, t: usize) -> Option<ScanRed> {
        self.vec?;
        let op = &paired.op;
        if t == 0 || op.params.len() != 2 * (k + t) || op.body.result.len() != k + t {
            return None;
        }
        let mut primal: HashSet<VarId> = op.params[..k]
            .iter()
            .chain(&op.params[k + t..2 * k + t])
            .map(|p| p.var)
            .collect();
        let mut stms = Vec::new();
        for st in &op.body.stms {
            if ir::uses::exp_free(self.vars(), &st.exp)
                .iter()
                .any(|v| primal.contains(v))
            {
                primal.extend(st.pat.iter().copied());
            } else {
                stms.push(st.clone());
            }
        }
        let result = op.body.result[k..].to_vec();
        if result
            .iter()
            .any(|r| r.var().is_some_and(|v| primal.contains(&v)))
        {
            return None;
        }
        let params = op.params[k..k + t]
            .iter()
            .chain(&op.params[2 * k + t..])
            .copied()
            .collect();
        // Renamed: statements that do not depend on the values (constants)
        // are in the operator on values too.
        let op = self.rename_lambda(&Lambda {
            params,
            ret: op.ret[k..].to_vec(),
            body: Body { stms, result },
        });
        Some(ScanRed {
            op,
            neutral: paired.neutral[k..].to_vec(),
            commutative: paired.commutative,
        })
    }

    /// Appends to `pat` a fresh tangent variable for `v` and records it.
    fn tan_result(&mut self, pat: &mut Vec<VarId>, v: VarId) {
        let t = self.fresh_tan(v);
        pat.push(t);
        self.tan.insert(v, t.into());
    }

    /// Emits a `screma` with tangents.
    pub fn screma_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm, s: &Screma) -> R<()> {
        let lam = &s.map;
        let (params, tin) = self.map_params(lam, &s.inputs)?;
        let mut bout = Vec::new();
        self.diff_body(&lam.body, &mut bout)?;
        let (mut result, mut ret, mut pat) = (Vec::new(), Vec::new(), Vec::new());
        let mut off = 0;
        let (mut scans, mut reduces) = (Vec::new(), Vec::new());
        for (i, sr) in s.scans.iter().chain(&s.reduces).enumerate() {
            let k = sr.neutral.len();
            let (op, neutral, slots) = self.pair_op(out, &sr.op, &sr.neutral)?;
            result.extend_from_slice(&lam.body.result[off..off + k]);
            ret.extend_from_slice(&lam.ret[off..off + k]);
            pat.extend_from_slice(&stm.pat[off..off + k]);
            for &j in &slots {
                result.push(self.tan_or_zero(&mut bout, &lam.body.result[off + j])?);
                ret.push(self.tan_ty(&lam.ret[off + j]));
                self.tan_result(&mut pat, stm.pat[off + j]);
            }
            let paired = ScanRed {
                op,
                neutral,
                commutative: sr.commutative,
            };
            let ops = if i < s.scans.len() {
                &mut scans
            } else {
                &mut reduces
            };
            match self.split_pair_op(&paired, k, slots.len()) {
                Some(tangent) => {
                    ops.push(sr.clone());
                    ops.push(tangent);
                }
                None if i < s.scans.len()
                    && !slots.is_empty()
                    && self.vec.is_some()
                    && self.under_vjp > 0 =>
                {
                    return Err(
                        self.err("a scan on values and the tangents of many seeds, inside vjp")
                    );
                }
                None => ops.push(paired),
            }
            off += k;
        }
        let mapped: Vec<usize> = (off..lam.ret.len()).collect();
        result.extend_from_slice(&lam.body.result[off..]);
        ret.extend_from_slice(&lam.ret[off..]);
        pat.extend_from_slice(&stm.pat[off..]);
        let acc_tans: Vec<bool> = s
            .inputs
            .iter()
            .filter(|v| self.ty(**v).acc)
            .map(|v| self.tangent(&(*v).into()).is_some())
            .collect();
        let mut acc_ord = 0;
        for &m in &mapped {
            if lam.ret[m].acc {
                // The k-th accumulator result continues the k-th
                // accumulator input, and so do their tangents.
                let r = lam.body.result[m];
                let want = acc_tans.get(acc_ord).copied().unwrap_or(false);
                acc_ord += 1;
                match (self.tangent(&r), want) {
                    (Some(t), true) => {
                        result.push(t);
                        ret.push(self.tan_ty(&lam.ret[m]));
                        self.tan_result(&mut pat, stm.pat[m]);
                    }
                    (None, false) => {}
                    _ => {
                        return Err(self.err(
                            "an accumulator result of a screma whose tangent does not follow its input's",
                        ));
                    }
                }
                continue;
            }
            if differentiable(&lam.ret[m]) {
                result.push(self.tan_or_zero(&mut bout, &lam.body.result[m])?);
                ret.push(self.tan_ty(&lam.ret[m]));
                self.tan_result(&mut pat, stm.pat[m]);
            }
        }
        let mut inputs = s.inputs.clone();
        inputs.extend(tin);
        out.push(Stm {
            pat,
            exp: Exp::Screma(Box::new(Screma {
                w: s.w,
                inputs,
                scans,
                reduces,
                map: Lambda {
                    params,
                    ret,
                    body: Body { stms: bout, result },
                },
            })),
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        Ok(())
    }

    /// Emits a `hist` with tangent destinations.
    pub fn hist_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm, h: &Hist) -> R<()> {
        let lam = &h.map;
        if h.inputs.iter().any(|v| self.ty(*v).acc) {
            return Err(self.err("an accumulator input of a hist"));
        }
        let (params, tin) = self.map_params(lam, &h.inputs)?;
        let mut bout = Vec::new();
        self.diff_body(&lam.body, &mut bout)?;
        let (mut result, mut ret, mut pat) = (Vec::new(), Vec::new(), Vec::new());
        let mut hists = Vec::new();
        let (mut off, mut poff) = (0, 0);
        for op in &h.hists {
            let k = op.dests.len();
            let (pop, neutral, slots) = self.pair_op(out, &op.op, &op.neutral)?;
            let mut dests = op.dests.clone();
            for &j in &slots {
                match self.consumable_tan(out, op.dests[j])? {
                    Operand::Var(t) => dests.push(t),
                    Operand::Const(_) => return Err(self.err("a scalar histogram destination")),
                }
            }
            result.extend_from_slice(&lam.body.result[off..off + 1 + k]);
            ret.extend_from_slice(&lam.ret[off..off + 1 + k]);
            pat.extend_from_slice(&stm.pat[poff..poff + k]);
            for &j in &slots {
                result.push(self.tan_or_zero(&mut bout, &lam.body.result[off + 1 + j])?);
                ret.push(self.tan_ty(&lam.ret[off + 1 + j]));
                self.tan_result(&mut pat, stm.pat[poff + j]);
            }
            hists.push(HistOp {
                dests,
                neutral,
                op: pop,
            });
            off += 1 + k;
            poff += k;
        }
        let mut inputs = h.inputs.clone();
        inputs.extend(tin);
        out.push(Stm {
            pat,
            exp: Exp::Hist(Box::new(Hist {
                w: h.w,
                inputs,
                hists,
                map: Lambda {
                    params,
                    ret,
                    body: Body { stms: bout, result },
                },
            })),
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        Ok(())
    }

    /// Emits a `scatter` with tangent destinations.
    pub fn scatter_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm, s: &Scatter) -> R<()> {
        let lam = &s.map;
        if s.inputs.iter().any(|v| self.ty(*v).acc) {
            return Err(self.err("an accumulator input of a scatter"));
        }
        let (params, tin) = self.map_params(lam, &s.inputs)?;
        let mut bout = Vec::new();
        self.diff_body(&lam.body, &mut bout)?;
        let mut result = lam.body.result.clone();
        let mut ret = lam.ret.clone();
        let mut pat = stm.pat.clone();
        let mut dests = s.dests.clone();
        let mut off = 0;
        for (d, dest) in s.dests.iter().enumerate() {
            let value = lam.body.result[off + dest.rank];
            let has = self.tangent(&dest.arr.into()).is_some() || self.tangent(&value).is_some();
            if has && differentiable(&self.ty(dest.arr)) {
                let Operand::Var(ta) = self.consumable_tan(out, dest.arr)? else {
                    return Err(self.err("a scalar scatter destination"));
                };
                dests.push(ScatterDest {
                    arr: ta,
                    rank: dest.rank,
                });
                result.extend_from_slice(&lam.body.result[off..off + dest.rank]);
                ret.extend_from_slice(&lam.ret[off..off + dest.rank]);
                result.push(self.tan_or_zero(&mut bout, &value)?);
                ret.push(self.tan_ty(&lam.ret[off + dest.rank]));
                self.tan_result(&mut pat, stm.pat[d]);
            }
            off += dest.rank + 1;
        }
        let mut inputs = s.inputs.clone();
        inputs.extend(tin);
        out.push(Stm {
            pat,
            exp: Exp::Scatter(Box::new(Scatter {
                w: s.w,
                inputs,
                dests,
                map: Lambda {
                    params,
                    ret,
                    body: Body { stms: bout, result },
                },
            })),
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        Ok(())
    }
}

/// The variables bound inside `lam`: its parameters and every variable
/// its body binds, at any depth.
pub(crate) fn lambda_binds(lam: &Lambda) -> HashSet<VarId> {
    let mut inner: HashSet<VarId> = lam.params.iter().map(|p| p.var).collect();
    ir::uses::body_binds(&lam.body, &mut inner);
    inner
}

/// Whether the function and the primal point of the AD node `ad` use
/// nothing in `inner` (see [`lambda_binds`]).
pub(crate) fn ad_invariant(cx: &Ctx<'_>, ad: &ir::AdExp, inner: &HashSet<VarId>) -> bool {
    let free = ir::uses::lambda_free(cx.vars(), &ad.lambda);
    free.iter().all(|v| !inner.contains(v))
        && ad
            .primals
            .iter()
            .all(|o| o.var().is_none_or(|v| !inner.contains(&v)))
}

/// When `stm` is a `screma` whose map lambda holds, at its top level, a
/// `vjp` whose function and primal point use nothing bound in the lambda
/// (only its seeds vary), returns `if w == 0 then stm else (forward sweep;
/// stm with only the return sweep in its lambda)`, binding `stm`'s
/// pattern, after the statements computing its condition; AD nodes inside
/// the `vjp`'s function are expanded first.
pub fn split_seed_map(
    cx: &mut Ctx<'_>,
    stm: &Stm,
    errors: &mut Vec<AdError>,
) -> Option<(Vec<Stm>, Stm)> {
    let Exp::Screma(s) = &stm.exp else {
        return None;
    };
    let lam = &s.map;
    let inner = lambda_binds(lam);
    let invariant = |cx: &Ctx<'_>, ad: &ir::AdExp| ad_invariant(cx, ad, &inner);
    let k = lam
        .body
        .stms
        .iter()
        .position(|st| matches!(&st.exp, Exp::Vjp(ad) if invariant(cx, ad)))?;
    cx.span = stm.span;
    let copy = |cx: &mut Ctx<'_>| -> Body {
        let b = Body {
            stms: vec![stm.clone()],
            result: stm.pat.iter().copied().map(Operand::Var).collect(),
        };
        cx.rename(&[], &b).1
    };
    // The map unchanged, its AD nodes expanded here so that it is not
    // split again.
    let mut then_body = copy(cx);
    if let Some(Exp::Screma(t)) = then_body.stms.first_mut().map(|st| &mut st.exp) {
        crate::expand_body(cx, &mut t.map.body, errors);
    }
    let mut else_body = copy(cx);
    let mut split = else_body.stms.pop()?;
    let Exp::Screma(sc) = &mut split.exp else {
        return None;
    };
    let vstm = sc.map.body.stms[k].clone();
    let Exp::Vjp(mut ad) = vstm.exp else {
        return None;
    };
    cx.under_vjp += 1;
    crate::expand_body(cx, &mut ad.lambda.body, errors);
    cx.under_vjp -= 1;
    let mut pre = Vec::new();
    let mut rev = Vec::new();
    match cx.split_vjp(&vstm.pat, &ad, &mut pre, &mut rev) {
        Ok(_) => {}
        Err(e) => {
            errors.push(e);
            return None;
        }
    }
    let rev = match cx.copy_outer_consumed(rev) {
        Ok(r) => r,
        Err(e) => {
            errors.push(e);
            return None;
        }
    };
    let tail = sc.map.body.stms.split_off(k + 1);
    sc.map.body.stms.pop();
    sc.map.body.stms.extend(rev);
    sc.map.body.stms.extend(tail);
    pre.push(split);
    else_body.stms = pre;
    let w = s.w;
    let zero = cx.fresh("no_seeds", ir::Type::scalar(ir::PrimType::Bool));
    let mut cond = Vec::new();
    cx.push(
        &mut cond,
        vec![zero],
        Exp::Cmp(ir::CmpOp::Eq, w, Operand::i64(0)),
    );
    let split = Stm {
        pat: stm.pat.clone(),
        exp: Exp::If {
            cond: Operand::Var(zero),
            then_body,
            else_body,
        },
        attrs: stm.attrs.clone(),
        span: stm.span,
    };
    Some((cond, split))
}

impl Ctx<'_> {
    /// `stms` with every array they consume but do not bind (the forward
    /// sweep's, outside the map) replaced by a copy made first: a lambda
    /// may not consume what is bound outside it.
    fn copy_outer_consumed(&mut self, stms: Vec<Stm>) -> R<Vec<Stm>> {
        let no_functions = ir::PrimaryMap::new();
        let mut consumed = std::collections::HashSet::new();
        for st in &stms {
            ir::uses::exp_consumes(&no_functions, self.vars(), &st.exp, &mut consumed);
        }
        let mut body = Body {
            stms,
            result: Vec::new(),
        };
        let mut bound = std::collections::HashSet::new();
        ir::uses::body_binds(&body, &mut bound);
        let mut outer: Vec<VarId> = consumed
            .into_iter()
            .filter(|v| !bound.contains(v) && !self.ty(*v).shape.is_empty() && !self.ty(*v).acc)
            .collect();
        if outer.is_empty() {
            return Ok(body.stms);
        }
        outer.sort_by_key(|v| v.as_u32());
        let mut copies = Vec::new();
        let mut subst = std::collections::HashMap::new();
        for v in outer {
            let c = self.bind(&mut copies, "fwd_copy", Exp::Copy(v))?;
            subst.insert(v, Operand::Var(c));
        }
        ir::walk::walk_body_mut(&mut body, &mut |slot| ir::walk::subst_slot(&subst, slot));
        copies.extend(body.stms);
        Ok(copies)
    }

    /// The expansion of `pat = vjp(lambda, primals, seeds)` in two parts:
    /// the forward sweep into `pre` and the return sweep (with the
    /// bindings of `pat`) into `rev`. Returns the adjoints that variables
    /// free in the lambda got (which `vjp` itself does not return).
    pub fn split_vjp(
        &mut self,
        pat: &[VarId],
        ad: &ir::AdExp,
        pre: &mut Vec<Stm>,
        rev: &mut Vec<Stm>,
    ) -> R<Vec<(VarId, Operand)>> {
        let lam = &ad.lambda;
        let n = lam.ret.len();
        let m = lam.params.len();
        if ad.primals.len() != m
            || ad.seeds.len() != n
            || pat.len() != n + m
            || lam.body.result.len() != n
        {
            return Err(self.err("a vjp whose operands do not match its lambda"));
        }
        for (p, x) in lam.params.iter().zip(&ad.primals) {
            self.push(pre, vec![p.var], Exp::Atom(*x));
        }
        let body = self.prepare_loops(&lam.body)?;
        self.fwd_body(&body, pre)?;
        let saved = self.enter_scope();
        let seeds: Vec<Option<Operand>> = ad.seeds.iter().copied().map(Some).collect();
        let res = self.rev_body(&body, &seeds, rev);
        let mut adjs = Vec::new();
        let mut free = Vec::new();
        if res.is_ok() {
            for p in &lam.params {
                adjs.push(self.adj.get(&p.var).copied());
            }
            let mut bound: std::collections::HashSet<VarId> =
                lam.params.iter().map(|p| p.var).collect();
            ir::uses::body_binds(&body, &mut bound);
            free = self
                .adj
                .iter()
                .filter(|(v, _)| !bound.contains(v))
                .map(|(v, a)| (*v, *a))
                .collect();
            free.sort_by_key(|(v, _)| v.as_u32());
        }
        self.leave_scope(saved);
        res?;
        self.bind_vjp_results(rev, pat, &body.result, adjs)?;
        Ok(free)
    }
}
