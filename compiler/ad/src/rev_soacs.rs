//! Adjoints through `screma`.
//!
//! The return sweep of a `screma` is a `screma` over the same inputs and
//! the adjoints of the mapped results, whose lambda re-executes the map
//! lambda on one row and sweeps it back. It maps out the adjoints of the
//! input rows. The adjoint of an array free in the map lambda is an
//! accumulator passed to every iteration: a read of one element `x[i]`
//! adds `ȳ` at index `i` (an `update_acc`), so gathering `m` elements
//! costs `O(m)` and not a dense adjoint per iteration. Where the
//! enclosing scope holds that adjoint as an accumulator already (a map
//! inside a map's return sweep), the accumulator is passed on; otherwise a
//! `with_acc` around the return sweep turns the adjoint accumulated so far
//! (or zeros) into one. Scalars free in the map sum their adjoints over the
//! iterations with one `+` reduction each. An input row that the lambda
//! only reads by indexing, of an input whose adjoint is such an
//! accumulator already, is read from the input instead (`x[i, j]` for
//! `row[j]`), so its reads are updates of that accumulator and no dense
//! adjoint row is built per iteration; so is a row gathered in the lambda
//! from an array free in it (`y = x[k]`, then `y[j]`), see
//! `read_slices_at_source` in `rev_control.rs`. A map that only passes
//! rows of its inputs on (a `zip`) passes its results' adjoints to those
//! inputs as they are. A reduction with `+`
//! passes its result's adjoint unchanged to every element it reduced;
//! scans and reductions with other operators go through
//! [`crate::rev_scanred`].

use std::collections::{HashMap, HashSet};

use ir::{
    AccInput, BinOp, Body, DimIndex, Exp, Lambda, Operand, Param, PrimType, ScanRed, Screma, Size,
    Stm, Type, VarId, WithAcc,
};

use crate::ctx::{Ctx, R, differentiable, konst};
use crate::rev_scanred::is_binop;

impl Ctx<'_> {
    /// The return sweep of the map part of a SOAC `stm` (a `screma` with
    /// scans or reductions, a `hist`, a `scatter`): the map-only `screma`
    /// of `map` over `inputs` (`w` iterations) whose results `vals` the
    /// SOAC's own rule has given adjoints.
    pub(crate) fn rev_map_part(
        &mut self,
        out: &mut Vec<Stm>,
        stm: &Stm,
        w: Operand,
        inputs: &[VarId],
        map: &Lambda,
        vals: Vec<VarId>,
    ) -> R<()> {
        let s = Screma {
            w,
            inputs: inputs.to_vec(),
            scans: Vec::new(),
            reduces: Vec::new(),
            map: map.clone(),
        };
        let map_stm = Stm {
            pat: vals,
            exp: Exp::Atom(Operand::i64(0)),
            attrs: Vec::new(),
            span: stm.span,
        };
        self.rev_screma(out, &map_stm, &s)
    }

    /// The return sweep of a `screma`.
    pub fn rev_screma(&mut self, out: &mut Vec<Stm>, stm: &Stm, s: &Screma) -> R<()> {
        if s.inputs.iter().any(|v| self.ty(*v).acc) {
            return Err(self.err("a screma over accumulators inside vjp"));
        }
        if let Some(rows) = self.passed_rows(stm, s) {
            // A map passing rows on (a `zip`): each input's adjoint is
            // that of the results it became, with no map to copy them.
            for (v, x) in stm.pat.iter().zip(rows) {
                let (Some(Operand::Var(a)), true) =
                    (self.adj.get(v).copied(), self.active(&x.into()))
                else {
                    continue;
                };
                let owned = self.owned.contains(v);
                // The outer sizes are both the width: only their names may
                // differ (a `zip` of a literal `[3]` and a row `[n]`).
                let shape = self.ty(x).shape;
                let a = if self.ty(a).shape == shape {
                    a
                } else {
                    self.bind(out, "adj_reshape", Exp::Reshape { shape, arr: a })?
                };
                self.add_adj(out, &x.into(), a.into(), owned)?;
            }
            return Ok(());
        }
        let nscan: usize = s.scans.iter().map(|sr| sr.neutral.len()).sum();
        let mut split = stm.pat[..nscan].iter().any(|v| self.adj.contains_key(v));
        let mut at = nscan;
        for sr in &s.reduces {
            let k = sr.neutral.len();
            let used = stm.pat[at..at + k].iter().any(|v| self.adj.contains_key(v));
            split |= used && !is_binop(sr, BinOp::Add);
            at += k;
        }
        if split {
            return self.rev_screma_split(out, stm, s);
        }
        let nred = at - nscan;
        let nin = s.inputs.len();
        let pvars: Vec<VarId> = s.map.params.iter().map(|p| p.var).collect();
        let (mut ps, mut body) = self.rename(&pvars, &s.map.body);
        let indexed = self.index_rows(s, &mut ps, &mut body);
        crate::rev_control::read_slices_at_source(self, &mut body, &ps);
        // Seeds of the lambda's results and the extra inputs.
        let mut seeds: Vec<Option<Operand>> = vec![None; nscan];
        for v in &stm.pat[nscan..nscan + nred] {
            seeds.push(self.adj.get(v).copied());
        }
        let mut adj_inputs = Vec::new();
        let mut adj_rows = Vec::new();
        for v in &stm.pat[nscan + nred..] {
            match self.adj.get(v).and_then(Operand::var) {
                Some(a) if !self.ty(*v).acc => {
                    let t = self.ty(a);
                    let row = Type::array(t.elem, t.shape[1..].to_vec());
                    let r = self.fresh("adj_row", row);
                    adj_inputs.push(a);
                    adj_rows.push(r);
                    seeds.push(Some(r.into()));
                }
                _ => seeds.push(None),
            }
        }
        // Each array free in the lambda gets an accumulator parameter.
        let cands = self.acc_candidates(&Lambda {
            params: ps.iter().copied().map(Param::new).collect(),
            ret: s.map.ret.clone(),
            body: body.clone(),
        });
        let acc_params: Vec<VarId> = cands
            .iter()
            .map(|x| {
                let name = format!("{}_acc", self.name(*x));
                self.fresh(&name, self.ty(*x).to_acc())
            })
            .collect();
        let mut b = Vec::new();
        self.fwd_body(&body, &mut b)?;
        let saved = self.enter_scope();
        for (x, a) in cands.iter().zip(&acc_params) {
            self.adj.insert(*x, (*a).into());
        }
        let swept = self.rev_body(&body, &seeds, &mut b).and_then(|()| {
            let mut res = Vec::new();
            for p in &ps[..nin] {
                // A row that received no adjoint adds nothing.
                if self.active(&(*p).into()) && !indexed.contains(p) && self.adj.contains_key(p) {
                    res.push((*p, self.adj_or_zero(&mut b, *p)?));
                }
            }
            Ok(res)
        });
        let mut binds: HashSet<VarId> = ps.iter().copied().collect();
        ir::uses::body_binds(&body, &mut binds);
        // The accumulators the sweep updated: (array, parameter, final).
        let accs: Vec<(VarId, VarId, Operand)> = cands
            .iter()
            .zip(&acc_params)
            .filter_map(|(x, a)| match self.adj.get(x) {
                Some(f) if *f != Operand::Var(*a) => Some((*x, *a, *f)),
                _ => None,
            })
            .collect();
        let mut free: Vec<(VarId, Operand)> = self
            .adj
            .iter()
            .filter(|(v, _)| !binds.contains(v) && !cands.contains(v))
            .map(|(v, a)| (*v, *a))
            .collect();
        free.sort_by_key(|(v, _)| v.as_u32());
        self.leave_scope(saved);
        let param_adjs = swept?;
        // Threaded: every accumulator comes from the enclosing scope.
        let threaded = accs.iter().all(|(x, _, _)| self.acc_adj(*x).is_some());
        let mut params: Vec<Param> = ps[..nin].iter().copied().map(Param::new).collect();
        params.extend(adj_rows.iter().copied().map(Param::new));
        params.extend(accs.iter().map(|(_, a, _)| Param::new(*a)));
        if ps.len() > nin {
            params.push(Param::new(ps[nin]));
        }
        let mut inputs = s.inputs.clone();
        inputs.extend(adj_inputs);
        let mut with_params = Vec::new();
        for (x, a, _) in &accs {
            match self.acc_adj(*x) {
                Some(outer) if threaded => inputs.push(outer),
                _ => {
                    let name = format!("{}_acc", self.name(*x));
                    let w = self.fresh(&name, self.ty(*a));
                    with_params.push(w);
                    inputs.push(w);
                }
            }
        }
        let mut ret = Vec::new();
        let mut result = Vec::new();
        let mut reduces = Vec::new();
        let mut pat = Vec::new();
        for (f, a) in &free {
            let t = self.ty(*f);
            ret.push(t.clone());
            result.push(*a);
            let op = self.add_lambda(&t)?;
            let zero = if t.shape.is_empty() {
                konst(t.elem, 0.0)
            } else {
                self.zeros_of(out, &t)?
            };
            reduces.push(ScanRed {
                op,
                neutral: vec![zero],
                commutative: true,
            });
            pat.push(self.fresh("adj_free", t));
        }
        let nfree = pat.len();
        for (_, a, f) in &accs {
            let t = self.ty(*a);
            ret.push(t.clone());
            result.push(*f);
            pat.push(self.fresh("adj_acc", t));
        }
        let ws = s.w.to_size();
        let mut targets = Vec::new();
        for (p, a) in &param_adjs {
            let t = self.ty(*p);
            ret.push(t.clone());
            result.push(*a);
            pat.push(self.fresh("adj_in", t.array_of(ws)));
            targets.push(*p);
        }
        if pat.is_empty() {
            return Ok(());
        }
        let screma = Exp::Screma(Box::new(Screma {
            w: s.w,
            inputs,
            scans: Vec::new(),
            reduces,
            map: Lambda {
                params,
                ret,
                body: Body { stms: b, result },
            },
        }));
        let nacc = accs.len();
        let pat = if with_params.is_empty() {
            self.push(out, pat.clone(), screma);
            for ((x, _, _), a) in accs.iter().zip(&pat[nfree..nfree + nacc]) {
                self.adj.insert(*x, (*a).into());
            }
            pat
        } else {
            self.with_accs(out, &accs, with_params, pat, nfree, screma)?
        };
        for (n, (f, _)) in free.iter().enumerate() {
            self.add_adj(out, &(*f).into(), pat[n].into(), true)?;
        }
        for (n, p) in targets.iter().enumerate() {
            let j = ps.iter().position(|q| q == p).unwrap_or(0);
            let x = s.inputs[j];
            self.add_adj(out, &x.into(), pat[nfree + nacc + n].into(), true)?;
        }
        Ok(())
    }

    /// For a map whose lambda returns some of its rows unchanged and
    /// computes nothing, the input each result passes on, when they have
    /// the same row type.
    fn passed_rows(&self, stm: &Stm, s: &Screma) -> Option<Vec<VarId>> {
        if !s.scans.is_empty() || !s.reduces.is_empty() || !s.map.body.stms.is_empty() {
            return None;
        }
        let params = &s.map.params[..s.inputs.len()];
        s.map
            .body
            .result
            .iter()
            .zip(&stm.pat)
            .map(|(r, v)| {
                let j = params.iter().position(|p| Some(p.var) == r.var())?;
                let x = s.inputs[j];
                let (tx, tv) = (self.ty(x), self.ty(*v));
                let same = tx.elem == tv.elem
                    && !tx.acc
                    && !tv.acc
                    && !tx.shape.is_empty()
                    && tx.shape.len() == tv.shape.len()
                    && tx.shape[1..] == tv.shape[1..]
                    && !tx.shape.contains(&Size::Any)
                    && !tv.shape.contains(&Size::Any);
                same.then_some(x)
            })
            .collect()
    }

    /// Rewrites the re-executed lambda `body` of the return sweep of `s` so
    /// that an input row that the lambda only reads by indexing (`p[j]`,
    /// outside loops) is read from the input array instead (`x[i, j]`, `i`
    /// the iteration's index, added to `ps` if the lambda had none). The
    /// array is then free in the lambda and its adjoint an accumulator
    /// updated where the row was read, instead of a dense adjoint row
    /// built from zeros in every iteration. Returns the rewritten row
    /// parameters, which get no adjoint of their own.
    fn index_rows(&mut self, s: &Screma, ps: &mut Vec<VarId>, body: &mut Body) -> HashSet<VarId> {
        let nin = s.inputs.len();
        let mut rows = HashMap::new();
        for (p, x) in ps[..nin].iter().zip(&s.inputs) {
            let t = self.ty(*x);
            if t.shape.len() >= 2
                && !t.shape.contains(&Size::Any)
                && self.active(&(*x).into())
                && self.acc_adj(*x).is_some()
                && only_indexed(body, *p)
            {
                rows.insert(*p, *x);
            }
        }
        if rows.is_empty() {
            return HashSet::new();
        }
        if ps.len() == nin {
            let i = self.fresh("i", Type::scalar(PrimType::I64));
            ps.push(i);
        }
        let i = ps[nin];
        index_inputs(body, &rows, i);
        rows.into_keys().collect()
    }

    /// The arrays free in `lam` that can carry adjoints, in a fixed order:
    /// each gets an accumulator in the return sweep of a map of `lam`.
    fn acc_candidates(&self, lam: &Lambda) -> Vec<VarId> {
        let mut xs: Vec<VarId> = ir::uses::lambda_free(self.vars(), lam)
            .into_iter()
            .filter(|v| {
                let t = self.ty(*v);
                differentiable(&t) && !t.shape.is_empty() && !t.shape.contains(&Size::Any)
            })
            .collect();
        xs.sort_by_key(|v| v.as_u32());
        xs
    }

    /// Emits `with_acc` around the return sweep `screma` (bound to `pat`:
    /// `nfree` reduced adjoints, one accumulator per entry of `accs`, then
    /// the adjoints of the input rows), turning into accumulators the
    /// adjoints of the arrays of `accs` (their parameters `with_params`):
    /// the adjoint accumulated so far, or zeros where the enclosing scope
    /// holds it as an accumulator, to which the result is then added.
    /// Returns the variables bound outside in the order of `pat`, the
    /// accumulators replaced by the arrays.
    fn with_accs(
        &mut self,
        out: &mut Vec<Stm>,
        accs: &[(VarId, VarId, Operand)],
        with_params: Vec<VarId>,
        pat: Vec<VarId>,
        nfree: usize,
        screma: Exp,
    ) -> R<Vec<VarId>> {
        let nacc = accs.len();
        let mut inputs = Vec::new();
        let mut into_outer = Vec::new();
        for (x, _, _) in accs {
            let t = self.ty(*x);
            let init = if self.acc_adj(*x).is_some() {
                into_outer.push(true);
                self.zeros_of(out, &t)?
            } else {
                into_outer.push(false);
                self.take_owned_adj(out, *x)?
            };
            let Operand::Var(arr) = init else {
                return Err(self.err("internal error: a scalar adjoint of an array"));
            };
            let elem = Type::scalar(t.elem);
            let op = self.add_lambda(&elem)?;
            inputs.push(AccInput {
                arr,
                op: Some((op, konst(t.elem, 0.0))),
            });
        }
        let order: Vec<usize> = (nfree..nfree + nacc)
            .chain(0..nfree)
            .chain(nfree + nacc..pat.len())
            .collect();
        let ret: Vec<Type> = order.iter().map(|&k| self.ty(pat[k])).collect();
        let result: Vec<Operand> = order.iter().map(|&k| pat[k].into()).collect();
        let outer: Vec<VarId> = order
            .iter()
            .enumerate()
            .map(|(j, &k)| {
                let t = if j < nacc {
                    self.ty(accs[j].0)
                } else {
                    self.ty(pat[k])
                };
                self.fresh("adj_with", t)
            })
            .collect();
        let mut body = Vec::new();
        self.push(&mut body, pat, screma);
        self.push(
            out,
            outer.clone(),
            Exp::WithAcc(Box::new(WithAcc {
                inputs,
                lambda: Lambda {
                    params: with_params.into_iter().map(Param::new).collect(),
                    ret,
                    body: Body { stms: body, result },
                },
            })),
        );
        for (j, (x, _, _)) in accs.iter().enumerate() {
            if into_outer[j] {
                self.add_adj(out, &(*x).into(), outer[j].into(), true)?;
            } else {
                self.adj.insert(*x, outer[j].into());
                self.owned.insert(*x);
            }
        }
        let mut res = outer[nacc..nacc + nfree].to_vec();
        res.extend(&outer[..nacc]);
        res.extend(&outer[nacc + nfree..]);
        Ok(res)
    }
}

/// True when every use of `p` in `body` is an index `p[…]`, in `body` or in
/// the branches and map lambdas nested in it (not in loops, whose return
/// sweeps build dense adjoints).
pub(crate) fn only_indexed(body: &Body, p: VarId) -> bool {
    let mut uses = 0usize;
    ir::walk::walk_body(body, &mut |o| {
        if o == ir::walk::Occ::Use(p) {
            uses += 1;
        }
    });
    uses > 0 && count_indexes(body, p) == uses
}

/// The number of statements `… = p[…]` in `body` and in the branches and
/// map lambdas nested in it.
fn count_indexes(body: &Body, p: VarId) -> usize {
    let mut n = 0;
    crate::rev_control::for_each_index(body, p, &mut |_| n += 1);
    n
}

/// Replaces every `p[j…]` in `body` (and in the branches and map lambdas
/// nested in it) by `x[i, j…]`, for each row parameter `p` of input `x` in
/// `rows`.
fn index_inputs(body: &mut Body, rows: &HashMap<VarId, VarId>, i: VarId) {
    for (p, x) in rows {
        crate::rev_control::redirect_indexes(body, *p, &|rest: &[DimIndex]| {
            let mut full = vec![DimIndex::Fix(i.into())];
            full.extend(rest.iter().cloned());
            (*x, full)
        });
    }
}
