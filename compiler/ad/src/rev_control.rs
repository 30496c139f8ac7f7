//! Adjoints through `if` and `for` loops.
//!
//! - `if`: the return sweep is an `if` on the same condition whose
//!   branches re-execute the branch taken forward and sweep it back,
//!   returning the adjoints of the free variables either branch touches;
//!   an array's adjoint owned by the enclosing scope enters both branches,
//!   which update it in place or return it, and so does an owned array
//!   seed of the `if`'s results.
//! - `for` loops: the forward sweep saves the loop parameters at the start
//!   of every iteration in checkpoint arrays; the return sweep is a loop
//!   running the iterations backwards that restores an iteration's
//!   parameters, re-executes its body and sweeps it back. Its loop
//!   parameters are the adjoints of the loop parameters and of the free
//!   variables the body touches; those of arrays are unique, so the swept
//!   body updates them in place. In a `#[true_dep]` loop, an array changed
//!   only by in-place updates is not checkpointed: the return loop carries
//!   it and rebuilds each iteration's value ([`crate::true_dep`]). A `for`
//!   loop nested at the top level of a loop's body runs with its
//!   checkpoints in the enclosing forward sweep, which saves them and its
//!   results per iteration: the enclosing return sweep restores them
//!   instead of running the nested loop a second time.
//! - before either sweep, [`Ctx::prepare_loops`] rewrites the loops of the
//!   differentiated body: `while` loops become `for` loops
//!   ([`crate::while_loops`]) and `for` loops marked `#[stripmine(k)]` are
//!   split into `k` nested loops ([`crate::stripmine`]).

use std::collections::{HashMap, HashSet};

use ir::{
    Attr, BinOp, Body, CmpOp, DimIndex, Exp, LoopForm, Operand, Param, PrimType, Stm, Type, VarId,
};

use crate::ctx::{Ctx, R, differentiable, konst};

impl Ctx<'_> {
    /// `body` with its loops, at every depth, rewritten for reverse mode:
    /// every `while` loop becomes a `for` loop, and every `for` loop marked
    /// `#[stripmine(k)]` (a `while` loop's too) is split into `k` nested
    /// loops. The loops it emits carry neither attribute, so a body is
    /// rewritten once.
    ///
    /// Internalisation puts the attributes of an attributed expression on
    /// every statement emitted for it, nested ones included. A `bound` or
    /// `stripmine` attribute that the enclosing statement carries as well
    /// is taken as inherited and ignored: `#[bound(3)]` on a loop does not
    /// bound the loops in its body.
    ///
    /// An unbounded `while` loop that no adjoint reaches
    /// ([`Ctx::reached`]) stays a `while` loop: it needs no inspector.
    pub fn prepare_loops(&mut self, body: &Body) -> R<Body> {
        let reached = self.reached(body);
        self.prepare_loops_in(body, &[], &reached)
    }

    fn prepare_loops_in(
        &mut self,
        body: &Body,
        inherited: &[Attr],
        reached: &HashSet<VarId>,
    ) -> R<Body> {
        let mut stms = Vec::with_capacity(body.stms.len());
        for stm in &body.stms {
            let mut stm = stm.clone();
            let mut inner: Vec<Attr> = inherited.to_vec();
            inner.extend(stm.attrs.iter().copied());
            for nested in ir::walk::nested_bodies_mut(&mut stm.exp) {
                *nested = self.prepare_loops_in(nested, &inner, reached)?;
            }
            stm.attrs.retain(|a| {
                !(matches!(a, Attr::Bound(_) | Attr::Stripmine(_)) && inherited.contains(a))
            });
            self.span = stm.span;
            let (stm, after) = match &stm.exp {
                Exp::Loop {
                    form: LoopForm::While { .. },
                    ..
                } if crate::while_loops::bound_attr(&stm.attrs).is_some()
                    || stm.pat.iter().any(|v| reached.contains(v)) =>
                {
                    self.while_to_for(&mut stms, &stm)?
                }
                _ => (stm, Vec::new()),
            };
            match (&stm.exp, crate::stripmine::stripmine_attr(&stm.attrs)) {
                (
                    Exp::Loop {
                        form: LoopForm::For { .. },
                        ..
                    },
                    Some(k),
                ) => self.stripmine(&mut stms, &stm, k)?,
                _ => stms.push(stm),
            }
            stms.extend(after);
        }
        Ok(Body {
            stms,
            result: body.result.clone(),
        })
    }

    /// The forward sweep of a loop: a `for` loop also writes its
    /// parameters of every iteration into checkpoint arrays.
    pub fn fwd_loop(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let Exp::Loop { params, form, body } = &stm.exp else {
            return Err(self.err("internal error: not a loop"));
        };
        let LoopForm::For { i, bound } = *form else {
            out.push(stm.clone());
            return Ok(());
        };
        if params.is_empty() {
            out.push(stm.clone());
            return Ok(());
        }
        let bt = self.op_ty(&bound).elem;
        // A constant bound stays a constant: a conversion bound here would be
        // out of scope for the checkpoints of an enclosing loop, whose rows
        // have this loop's checkpoints' type.
        let n64 = match bound {
            _ if bt == PrimType::I64 => bound,
            Operand::Const(c) if c.as_i128().is_some() => {
                Operand::Const(ir::PrimValue::I64(c.as_i128().unwrap_or(0) as i64))
            }
            _ => self.conv(out, PrimType::I64, bound)?,
        };
        let n = n64.to_size();
        let mut new_params = params.clone();
        let mut stms = Vec::new();
        let i64v: Operand = if bt == PrimType::I64 {
            i.into()
        } else {
            self.conv(&mut stms, PrimType::I64, i.into())?
        };
        let mut results = Vec::new();
        let mut finals = Vec::new();
        // Sizes that are loop parameters are taken at their initial values.
        let inits: std::collections::HashMap<VarId, Operand> =
            params.iter().map(|(p, x)| (p.var, *x)).collect();
        // That holds only for sizes the body passes on unchanged: the rows
        // of a checkpoint array all have one size. A size of an array
        // parameter that the body may change (its result is not the
        // parameter passed on) gets a run-time check that it did not.
        let resized: Vec<(usize, VarId)> = params
            .iter()
            .enumerate()
            .filter(|(j, (p, _))| {
                self.ty(p.var).shape.is_empty() && !passes_on(body, body.result[*j], p.var)
            })
            .map(|(j, (p, _))| (j, p.var))
            .filter(|(_, d)| {
                params
                    .iter()
                    .any(|(q, _)| self.ty(q.var).shape.contains(&ir::Size::Var(*d)))
            })
            .collect();
        // Arrays of a `#[true_dep]` loop changed by chains of in-place
        // updates save only the overwritten elements, inserted before
        // each update (`crate::true_dep`).
        let chains = crate::true_dep::chains(stm, params, body);
        let mut saves = crate::true_dep::ChainSaves::default();
        // Per parameter, the checkpoint arrays the loop returns: one for
        // a checkpointed parameter; per update of a chain, one per index
        // and one for the overwritten elements.
        let mut layout: Vec<Vec<VarId>> = Vec::new();
        for ((p, _), chain) in params.iter().zip(&chains) {
            let mut pt = self.ty(p.var);
            ir::walk::subst_type(&inits, &mut pt);
            if pt.shape.contains(&ir::Size::Any) {
                return Err(self.err("a loop whose parameters change size, inside vjp"));
            }
            let cks = match chain {
                Some(chain) if !pt.shape.is_empty() => {
                    self.save_chain(out, chain, &pt, n, i64v, &mut saves)?
                }
                _ => {
                    let ck = self.ckpt_with(out, &pt, n)?;
                    self.push(
                        &mut stms,
                        vec![ck.result],
                        Exp::Update(ck.param, vec![DimIndex::Fix(i64v)], p.var.into()),
                    );
                    vec![ck]
                }
            };
            let mut fins = Vec::new();
            for ck in cks {
                new_params.push((Param::unique(ck.param), ck.init.into()));
                results.push(Operand::Var(ck.result));
                finals.push(ck.last);
                fins.push(ck.last);
            }
            layout.push(fins);
        }
        let mut stms = saves.apply(body, stms);
        for (j, d) in resized {
            let arr = params
                .iter()
                .find(|(q, _)| self.ty(q.var).shape.contains(&ir::Size::Var(d)))
                .map(|(q, _)| self.name(q.var))
                .unwrap_or_default();
            let same = self.cmp(&mut stms, CmpOp::Eq, body.result[j], d.into())?;
            self.push(
                &mut stms,
                Vec::new(),
                Exp::Assert {
                    cond: same,
                    msg: format!(
                        "reverse mode through a loop whose array parameter `{arr}` changes \
                         size from one iteration to the next is not supported"
                    ),
                    args: Vec::new(),
                },
            );
        }
        let (stms, nested) = self.save_nested(
            out,
            (params, body),
            stms,
            (n, i64v),
            &mut new_params,
            &mut results,
            &mut finals,
        )?;
        let mut result = body.result.clone();
        result.extend(results);
        let mut pat = stm.pat.clone();
        pat.extend(finals.iter().copied());
        out.push(Stm {
            pat,
            exp: Exp::Loop {
                params: new_params,
                form: *form,
                body: Body { stms, result },
            },
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        // The final value of a chained array, saved once: the return sweep
        // rebuilds every iteration's array from it.
        let mut cks = Vec::new();
        for ((chain, fins), y) in chains.iter().zip(layout).zip(&stm.pat) {
            if chain.is_some() && !self.ty(*y).shape.is_empty() {
                let saved = self.bind(out, "saved_final", Exp::Copy(*y))?;
                cks.push(saved);
            }
            cks.extend(fins);
        }
        cks.extend(nested);
        self.ckpt.insert(stm.pat[0], cks);
        Ok(())
    }

    /// An empty checkpoint array of `n` rows of type `t` (appended to
    /// `out`), and a fresh variable of its type for the loop parameter.
    pub(crate) fn ckpt_array(
        &mut self,
        out: &mut Vec<Stm>,
        t: &Type,
        n: ir::Size,
    ) -> R<(VarId, VarId)> {
        let ct = t.array_of(n);
        let ck0 = self.bind(
            out,
            "ckpt",
            Exp::Scratch {
                elem: t.elem,
                shape: ct.shape.clone(),
            },
        )?;
        Ok((self.fresh("ckpt", ct), ck0))
    }

    /// The return sweep of a `for` loop checkpointed by [`Ctx::fwd_loop`].
    pub fn rev_loop(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let Exp::Loop { params, form, body } = &stm.exp else {
            return Err(self.err("internal error: not a loop"));
        };
        let LoopForm::For { i, bound } = *form else {
            return Err(self.err("internal error: a while loop left for the return sweep"));
        };
        let Some(cks) = self.ckpt.get(&stm.pat[0]).cloned() else {
            return Err(self.err("internal error: a loop without checkpoints"));
        };
        let bt = self.op_ty(&bound).elem;
        // The free variables of the body.
        let pvars: Vec<VarId> = params.iter().map(|(p, _)| p.var).collect();
        let mut uses = HashSet::new();
        ir::uses::body_uses(self.vars(), body, &mut uses);
        let mut binds: HashSet<VarId> = pvars.iter().copied().collect();
        binds.insert(i);
        ir::uses::body_binds(body, &mut binds);
        let mut free: Vec<VarId> = uses
            .into_iter()
            .filter(|v| !binds.contains(v) && differentiable(&self.ty(*v)))
            .collect();
        free.sort_by_key(|v| v.as_u32());
        // The re-executed body.
        let mut all = pvars.clone();
        all.push(i);
        let (ps, mut body2) = self.rename(&all, body);
        read_rows_at_source(self, &mut body2, &all);
        let k = self.fresh("rev_i", Type::scalar(bt));
        let mut b = Vec::new();
        let last = self.bin(&mut b, BinOp::Sub, bound, konst(bt, 1.0))?;
        let ii = self.bin(&mut b, BinOp::Sub, last, k.into())?;
        let ii64 = if bt == PrimType::I64 {
            ii
        } else {
            self.conv(&mut b, PrimType::I64, ii)?
        };
        self.push(&mut b, vec![ps[pvars.len()]], Exp::Atom(ii));
        // A parameter that the body consumes is a copy of its checkpoint.
        let mut consumed = HashSet::new();
        let no_functions = ir::PrimaryMap::new();
        for s in &body2.stms {
            ir::uses::exp_consumes(&no_functions, self.vars(), &s.exp, &mut consumed);
        }
        // A chained array of a `#[true_dep]` loop is carried by the return
        // loop, as it was at the end of the iteration being swept, and
        // rebuilt for the iteration's start.
        let chains = crate::true_dep::chains(stm, params, body);
        let mut carried = Vec::new();
        let mut cks = cks.into_iter();
        for (j, chain) in chains.iter().enumerate() {
            let src = match chain {
                Some(chain) if !self.ty(pvars[j]).shape.is_empty() => {
                    let Some(saved) = cks.next() else {
                        return Err(self.err("internal error: a chained array not saved"));
                    };
                    let cur = self.fresh("carried", self.ty(saved));
                    let start = self.restore_chained(&mut b, cur, chain, &mut cks, ii64)?;
                    carried.push((cur, saved, start));
                    if consumed.contains(&ps[j]) {
                        Exp::Copy(start)
                    } else {
                        Exp::Atom(start.into())
                    }
                }
                _ => {
                    let Some(ck) = cks.next() else {
                        return Err(self.err("internal error: a parameter not checkpointed"));
                    };
                    let idx = Exp::Index(ck, vec![DimIndex::Fix(ii64)]);
                    if consumed.contains(&ps[j]) {
                        let row = self.bind(&mut b, "ckpt_row", idx)?;
                        Exp::Copy(row)
                    } else {
                        idx
                    }
                }
            };
            self.push(&mut b, vec![ps[j]], src);
        }
        let body2_fwd =
            self.restore_nested(&mut b, (params, body), &body2, &mut cks, ii64, &consumed)?;
        self.fwd_body(&body2_fwd, &mut b)?;
        let diff: Vec<usize> = (0..pvars.len())
            .filter(|&j| differentiable(&self.ty(pvars[j])))
            .collect();
        let aps: Vec<VarId> = diff
            .iter()
            .map(|&j| {
                let name = format!("{}_adj", self.name(pvars[j]));
                self.fresh(&name, self.ty(stm.pat[j]))
            })
            .collect();
        let afs: Vec<VarId> = free
            .iter()
            .map(|f| {
                let name = format!("{}_adj", self.name(*f));
                self.fresh(&name, self.ty(*f))
            })
            .collect();
        let saved = self.enter_scope();
        // The adjoint of a free array is a unique loop parameter: owned, so
        // the reversed body updates it in place instead of copying it.
        for (f, af) in free.iter().zip(&afs) {
            self.adj.insert(*f, (*af).into());
            if !self.ty(*af).shape.is_empty() {
                self.owned.insert(*f);
            }
        }
        // The adjoint of an array loop parameter is a unique loop parameter
        // too: the seed of its result, owned.
        let mut seeds = vec![None; pvars.len()];
        let mut seeded = Ok(());
        for (&j, ap) in diff.iter().zip(&aps) {
            if self.ty(*ap).shape.is_empty() {
                seeds[j] = Some(Operand::Var(*ap));
            } else if seeded.is_ok() {
                seeded = self.add_adj(&mut b, &body2.result[j], Operand::Var(*ap), true);
            }
        }
        let swept = seeded
            .and_then(|()| self.rev_body(&body2, &seeds, &mut b))
            .and_then(|()| {
                let mut res = Vec::new();
                for &j in &diff {
                    res.push(self.adj_or_zero(&mut b, ps[j])?);
                }
                Ok(res)
            });
        let touched: Vec<usize> = (0..free.len())
            .filter(|&q| self.adj.get(&free[q]) != Some(&Operand::Var(afs[q])))
            .collect();
        let free_res: Vec<Operand> = touched
            .iter()
            .map(|&q| self.adj.get(&free[q]).copied().unwrap_or(afs[q].into()))
            .collect();
        self.leave_scope(saved);
        let mut result = swept?;
        result.extend(free_res);
        result.extend(carried.iter().map(|(_, _, start)| Operand::Var(*start)));
        let mut lparams = Vec::new();
        let mut pat = Vec::new();
        for (&j, ap) in diff.iter().zip(&aps) {
            if self.ty(*ap).shape.is_empty() {
                let init = self.adj_or_zero(out, stm.pat[j])?;
                lparams.push((Param::new(*ap), init));
            } else {
                let init = self.take_owned_adj(out, stm.pat[j])?;
                lparams.push((Param::unique(*ap), init));
            }
            pat.push(self.fresh("adj_loop", self.ty(*ap)));
        }
        for &q in &touched {
            if self.ty(afs[q]).shape.is_empty() {
                let init = self.adj_or_zero(out, free[q])?;
                lparams.push((Param::new(afs[q]), init));
            } else {
                // Consumed by the loop: the enclosing adjoint when it is
                // owned, else a copy made once, else zeros (also when the
                // enclosing adjoint is an accumulator, which the loop's
                // result is added to afterwards).
                let init = if self.acc_adj(free[q]).is_some() {
                    self.zeros_like(out, free[q])?
                } else {
                    self.take_owned_adj(out, free[q])?
                };
                lparams.push((Param::unique(afs[q]), init));
            }
            pat.push(self.fresh("adj_loop", self.ty(afs[q])));
        }
        for (cur, saved, _) in &carried {
            // A copy of its own: the return sweep may run in a scope
            // (a map over seeds) other than the forward sweep's.
            let init = self.bind(out, "carried_init", Exp::Copy(*saved))?;
            lparams.push((Param::unique(*cur), init.into()));
            pat.push(self.fresh("carried", self.ty(*cur)));
        }
        let params_restored: Vec<VarId> = (0..pvars.len())
            .filter(|&j| consumed.contains(&ps[j]))
            .map(|j| ps[j])
            .collect();
        let b = self.elide_restore_copies(b, &result, &params_restored);
        self.push(
            out,
            pat.clone(),
            Exp::Loop {
                params: lparams,
                form: LoopForm::For { i: k, bound },
                body: Body { stms: b, result },
            },
        );
        // The free variables' adjoints first: each replaces the adjoint it
        // started from, so the initial values' contributions are added after
        // it (a variable both free in the body and a parameter's initial
        // value, as `x` in `loop acc = x for i < n do x + acc`, gets both).
        for (n, &q) in touched.iter().enumerate() {
            let res = pat[diff.len() + n];
            if self.acc_adj(free[q]).is_some() {
                self.add_adj(out, &free[q].into(), res.into(), true)?;
                continue;
            }
            self.adj.insert(free[q], res.into());
            if self.ty(afs[q]).shape.is_empty() {
                self.owned.remove(&free[q]);
            } else {
                self.owned.insert(free[q]);
            }
        }
        for (n, &j) in diff.iter().enumerate() {
            let fresh = !self.ty(pat[n]).shape.is_empty();
            self.add_adj(out, &params[j].1, pat[n].into(), fresh)?;
        }
        Ok(())
    }

    /// The body `stms` of a return loop (with results `result`) without
    /// its dead statements, and with the copy restoring each parameter of
    /// `restored` made a plain alias of its source when nothing left
    /// consumes the parameter. The body consumes a parameter it updates in
    /// place, but the return sweep only needs the intermediate values of
    /// the re-executed body: when the updated arrays are dead, so is the
    /// update, and the copy is not needed.
    fn elide_restore_copies(
        &self,
        stms: Vec<Stm>,
        result: &[Operand],
        restored: &[VarId],
    ) -> Vec<Stm> {
        if restored.is_empty() {
            return stms;
        }
        // Dead statements, at the top level.
        let mut live: HashSet<VarId> = HashSet::new();
        for o in result {
            if let Some(v) = o.var() {
                self.mark_live(v, &mut live);
            }
        }
        let mut kept = Vec::with_capacity(stms.len());
        for stm in stms.into_iter().rev() {
            let needed = stm.pat.iter().any(|v| live.contains(v))
                || opt::simplify::analysis::has_effect(&stm.exp);
            if !needed {
                continue;
            }
            for v in &stm.pat {
                self.mark_live(*v, &mut live);
            }
            let mut uses = HashSet::new();
            ir::uses::exp_uses(self.vars(), &stm.exp, &mut uses);
            for v in uses {
                self.mark_live(v, &mut live);
            }
            kept.push(stm);
        }
        kept.reverse();
        // The variables consumed, and those aliasing each restored parameter.
        let no_functions = ir::PrimaryMap::new();
        let mut consumed = HashSet::new();
        for s in &kept {
            ir::uses::exp_consumes(&no_functions, self.vars(), &s.exp, &mut consumed);
        }
        let mut aliases: HashMap<VarId, VarId> = restored.iter().map(|&p| (p, p)).collect();
        for s in &kept {
            let src = match &s.exp {
                Exp::Atom(Operand::Var(x))
                | Exp::Index(x, _)
                | Exp::Reshape { arr: x, .. }
                | Exp::Rearrange { arr: x, .. } => aliases.get(x).copied(),
                _ => None,
            };
            if let (Some(p), [y]) = (src, s.pat.as_slice())
                && !self.ty(*y).shape.is_empty()
            {
                aliases.insert(*y, p);
            }
        }
        let still: HashSet<VarId> = consumed
            .iter()
            .filter_map(|v| aliases.get(v).copied())
            .collect();
        for s in &mut kept {
            if let (Exp::Copy(src), [p]) = (&s.exp, s.pat.as_slice())
                && restored.contains(p)
                && !still.contains(p)
            {
                s.exp = Exp::Atom(Operand::Var(*src));
            }
        }
        kept
    }

    /// Marks `v` and the sizes its type names as live.
    fn mark_live(&self, v: VarId, live: &mut HashSet<VarId>) {
        if live.insert(v) {
            for d in self.ty(v).shape {
                if let ir::Size::Var(s) = d {
                    self.mark_live(s, live);
                }
            }
        }
    }

    /// The return sweep of an `if`.
    pub fn rev_if(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let Exp::If {
            cond,
            then_body,
            else_body,
        } = &stm.exp
        else {
            return Err(self.err("internal error: not an if"));
        };
        let seeds: Vec<Option<Operand>> =
            stm.pat.iter().map(|v| self.adj.get(v).copied()).collect();
        // Arrays read in a branch whose adjoint is an array owned here
        // enter both branches with it: a branch updates it in place or
        // returns it, instead of returning zeros or a fresh adjoint that is
        // then added to it.
        let mut used = HashSet::new();
        ir::uses::body_uses(self.vars(), then_body, &mut used);
        ir::uses::body_uses(self.vars(), else_body, &mut used);
        let mut owned: Vec<(VarId, Operand)> = used
            .into_iter()
            .filter(|v| self.owned.contains(v) && self.acc_adj(*v).is_none())
            .filter_map(|v| self.adj.get(&v).map(|a| (v, *a)))
            .filter(|(_, a)| a.var().is_some_and(|a| !self.ty(a).shape.is_empty()))
            .collect();
        owned.sort_by_key(|(v, _)| v.as_u32());
        let own_seeds = self.owned_seeds(stm, &seeds, &owned);
        let mut branches = self.sweep_branches(stm, &seeds, &own_seeds, &owned, true)?;
        if branches
            .iter()
            .any(|b| owned.iter().any(|(v, _)| !b.adj.contains_key(v)))
        {
            // A branch gave an owned adjoint away: sweep them apart.
            owned.clear();
            branches = self.sweep_branches(stm, &seeds, &own_seeds, &owned, true)?;
        }
        for (v, &own) in stm.pat.iter().zip(&own_seeds) {
            if own {
                // Given to the branches: nothing else may consume it.
                self.owned.remove(v);
            }
        }
        let mut free: Vec<VarId> = branches
            .iter()
            .flat_map(|b| b.adj.keys().filter(|v| !b.binds.contains(v)).copied())
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        free.sort_by_key(|v| v.as_u32());
        if free.is_empty() {
            return Ok(());
        }
        // An adjoint is fresh after the `if` when every branch returns one
        // it owns (or zeros).
        let fresh: Vec<bool> = free
            .iter()
            .map(|f| {
                branches
                    .iter()
                    .all(|b| !b.adj.contains_key(f) || b.owned.contains(f))
            })
            .collect();
        let mut bodies = Vec::new();
        for b in branches {
            let mut stms = b.stms;
            let mut result = Vec::new();
            for f in &free {
                result.push(match b.adj.get(f) {
                    Some(a) => *a,
                    None => self.zeros_like(&mut stms, *f)?,
                });
            }
            bodies.push(Body { stms, result });
        }
        let pat: Vec<VarId> = free
            .iter()
            .map(|f| self.fresh("adj_if", self.ty(*f)))
            .collect();
        let else_body = bodies.pop().unwrap_or_default();
        let then_body = bodies.pop().unwrap_or_default();
        self.push(
            out,
            pat.clone(),
            Exp::If {
                cond: *cond,
                then_body,
                else_body,
            },
        );
        for ((f, r), fresh) in free.iter().zip(pat).zip(fresh) {
            if owned.iter().any(|(v, _)| v == f) {
                self.adj.insert(*f, r.into());
                self.owned.insert(*f);
            } else {
                let fresh = fresh && !self.ty(r).shape.is_empty();
                self.add_adj(out, &(*f).into(), r.into(), fresh)?;
            }
        }
        Ok(())
    }

    /// Which of the `seeds` of the results of the `if` `stm` its branches
    /// may consume: array adjoints that this scope owns, each the adjoint
    /// of one result only and of none of the arrays of `entry`. A branch
    /// then updates the adjoint of what it returns in place (a branch
    /// returning `x with [i] = v` sets the row of the seed to zero where it
    /// is, instead of in a copy).
    fn owned_seeds(
        &self,
        stm: &Stm,
        seeds: &[Option<Operand>],
        entry: &[(VarId, Operand)],
    ) -> Vec<bool> {
        let mut count: HashMap<VarId, usize> = HashMap::new();
        for a in seeds.iter().flatten().filter_map(Operand::var) {
            *count.entry(a).or_default() += 1;
        }
        for a in entry.iter().filter_map(|(_, a)| a.var()) {
            *count.entry(a).or_default() += 1;
        }
        stm.pat
            .iter()
            .zip(seeds)
            .map(|(v, s)| {
                s.and_then(|s| s.var()).is_some_and(|a| {
                    let t = self.ty(a);
                    self.owned.contains(v) && !t.acc && !t.shape.is_empty() && count[&a] == 1
                })
            })
            .collect()
    }

    /// The return sweeps of the two branches of the `if` `stm`, each
    /// re-executing its branch: their statements, their adjoints and the
    /// variables they bind. The adjoints of `entry` start as given (owned
    /// when `own`), the others empty.
    #[allow(clippy::type_complexity)]
    pub(crate) fn rev_branches(
        &mut self,
        stm: &Stm,
        seeds: &[Option<Operand>],
        entry: &[(VarId, Operand)],
        own: bool,
    ) -> R<Vec<(Vec<Stm>, HashMap<VarId, Operand>, HashSet<VarId>)>> {
        let branches = self.sweep_branches(stm, seeds, &[], entry, own)?;
        Ok(branches
            .into_iter()
            .map(|b| (b.stms, b.adj, b.binds))
            .collect())
    }

    /// [`Ctx::rev_branches`], where each seed marked in `own_seeds` is
    /// owned by the branches (they may consume it), and with the adjoints
    /// each branch owns at its end.
    fn sweep_branches(
        &mut self,
        stm: &Stm,
        seeds: &[Option<Operand>],
        own_seeds: &[bool],
        entry: &[(VarId, Operand)],
        own: bool,
    ) -> R<Vec<SweptBranch>> {
        let Exp::If {
            then_body,
            else_body,
            ..
        } = &stm.exp
        else {
            return Err(self.err("internal error: not an if"));
        };
        let mut branches = Vec::new();
        for branch in [then_body, else_body] {
            let (_, b2) = self.rename(&[], branch);
            let mut stms = Vec::new();
            self.fwd_body(&b2, &mut stms)?;
            let saved = self.enter_scope();
            for (v, a) in entry {
                self.adj.insert(*v, *a);
                if own {
                    self.owned.insert(*v);
                }
            }
            let mut rest = seeds.to_vec();
            let mut seeded = Ok(());
            for (k, s) in seeds.iter().enumerate() {
                if let (Some(s), true) = (s, own_seeds.get(k).copied().unwrap_or(false))
                    && seeded.is_ok()
                {
                    rest[k] = None;
                    seeded = self.add_adj(&mut stms, &b2.result[k], *s, true);
                }
            }
            // The `if` was swept with the arrays restored for it (copies of
            // those it consumes, say) already in place, nested bodies
            // included: inside a branch, a restored array's adjoint stays
            // with it, to be updated in place by the branch's reads, and
            // moves to the original array after the `if`.
            let restored = std::mem::take(&mut self.restored);
            let swept = seeded.and_then(|()| self.rev_body(&b2, &rest, &mut stms));
            self.restored = restored;
            let adj = std::mem::take(&mut self.adj);
            let owned = std::mem::take(&mut self.owned);
            self.leave_scope(saved);
            swept?;
            let mut binds = HashSet::new();
            ir::uses::body_binds(&b2, &mut binds);
            branches.push(SweptBranch {
                stms,
                adj,
                binds,
                owned,
            });
        }
        Ok(branches)
    }
}

/// The return sweep of one branch of an `if`: its statements, the
/// adjoints at its end, the variables it binds and the adjoints it owns.
struct SweptBranch {
    stms: Vec<Stm>,
    adj: HashMap<VarId, Operand>,
    binds: HashSet<VarId>,
    owned: HashSet<VarId>,
}

/// Nested loops whose checkpoints are saved by the enclosing loop's
/// forward sweep. The return sweep of a loop re-executes each iteration's
/// body before sweeping it back; a `for` loop in that body would run again
/// to rebuild its checkpoints (its body running three times in all: the
/// forward sweep, the re-execution, its own return sweep). Instead, the
/// enclosing loop's forward sweep runs it with its checkpoints and saves
/// them, with its results, once per iteration, and the re-executed body
/// restores them.
impl Ctx<'_> {
    /// The positions, last first, of the `for` loops at the top level of
    /// `body` (the body of a loop with parameters `params`) that the
    /// forward sweep saves: loops with parameters and no loop in their
    /// body (the levels of a strip-mined loop, which trade this memory for
    /// the re-execution, are nests of loops), whose bound and result and
    /// parameter types name no variable bound in `body` (each size at its
    /// initial value).
    fn nested_saves(&self, params: &[(Param, Operand)], body: &Body) -> Vec<usize> {
        let inits: HashMap<VarId, Operand> = params.iter().map(|(p, x)| (p.var, *x)).collect();
        let mut bound: HashSet<VarId> = params.iter().map(|(p, _)| p.var).collect();
        ir::uses::body_binds(body, &mut bound);
        let expressible = |t: &Type| {
            t.shape.iter().all(|d| match d {
                ir::Size::Var(v) => !bound.contains(v),
                ir::Size::Const(_) => true,
                ir::Size::Any => false,
            })
        };
        let mut out = Vec::new();
        for (pos, s) in body.stms.iter().enumerate() {
            let Exp::Loop {
                params: ip,
                form: LoopForm::For { bound: n, .. },
                body: ib,
            } = &s.exp
            else {
                continue;
            };
            if ip.is_empty()
                || n.var().is_some_and(|v| bound.contains(&v))
                || crate::true_dep::chains(s, ip, ib)
                    .iter()
                    .any(Option::is_some)
                || has_loop(ib)
            {
                continue;
            }
            let sub = nested_subst(s, &inits);
            let ok = s.pat.iter().chain(ip.iter().map(|(p, _)| &p.var)).all(|v| {
                let mut t = self.ty(*v);
                ir::walk::subst_type(&sub, &mut t);
                ir::walk::subst_type(&inits, &mut t);
                expressible(&t)
            });
            if ok {
                out.push(pos);
            }
        }
        out.reverse();
        out
    }

    /// Replaces, in `stms` (the forward sweep's body of the loop
    /// `params`/`body`, of `n` iterations with index `i`), each nested loop
    /// of [`Ctx::nested_saves`] by its forward sweep, followed by the
    /// updates saving its results and checkpoints into new checkpoint
    /// arrays of the enclosing loop (added to its parameters, results and
    /// final values). Returns the body and the final checkpoint arrays.
    #[allow(clippy::too_many_arguments)]
    fn save_nested(
        &mut self,
        out: &mut Vec<Stm>,
        (params, body): (&[(Param, Operand)], &Body),
        stms: Vec<Stm>,
        (n, i): (ir::Size, Operand),
        new_params: &mut Vec<(Param, Operand)>,
        results: &mut Vec<Operand>,
        finals: &mut Vec<VarId>,
    ) -> R<(Vec<Stm>, Vec<VarId>)> {
        let nested: HashSet<VarId> = self
            .nested_saves(params, body)
            .into_iter()
            .map(|pos| body.stms[pos].pat[0])
            .collect();
        if nested.is_empty() {
            return Ok((stms, Vec::new()));
        }
        let inits: HashMap<VarId, Operand> = params.iter().map(|(p, x)| (p.var, *x)).collect();
        let mut fins = Vec::new();
        let mut body_stms = Vec::with_capacity(stms.len());
        for s in stms {
            let is_nested = matches!(s.exp, Exp::Loop { .. })
                && s.pat.first().is_some_and(|v| nested.contains(v));
            if !is_nested {
                body_stms.push(s);
                continue;
            }
            self.fwd_loop(&mut body_stms, &s)?;
            let inner = self.ckpt.get(&s.pat[0]).cloned().unwrap_or_default();
            let sub = nested_subst(&s, &inits);
            for v in s.pat.iter().chain(&inner) {
                let mut t = self.ty(*v);
                ir::walk::subst_type(&sub, &mut t);
                ir::walk::subst_type(&inits, &mut t);
                let ck = self.ckpt_with(out, &t, n)?;
                self.push(
                    &mut body_stms,
                    vec![ck.result],
                    Exp::Update(ck.param, vec![DimIndex::Fix(i)], (*v).into()),
                );
                new_params.push((Param::unique(ck.param), ck.init.into()));
                results.push(Operand::Var(ck.result));
                finals.push(ck.last);
                fins.push(ck.last);
            }
        }
        Ok((body_stms, fins))
    }

    /// The re-executed body `body2` (a renamed copy of `body`, the body of
    /// the loop `params`) of a return sweep, with each nested loop of
    /// [`Ctx::nested_saves`] replaced by its results restored from the
    /// checkpoints `cks` at iteration `ii` (copies where `consumed` says
    /// the body consumes them); its own checkpoints, restored too, are
    /// recorded for its return sweep. The reads are appended to `b`.
    fn restore_nested(
        &mut self,
        b: &mut Vec<Stm>,
        (params, body): (&[(Param, Operand)], &Body),
        body2: &Body,
        cks: &mut impl Iterator<Item = VarId>,
        ii: Operand,
        consumed: &HashSet<VarId>,
    ) -> R<Body> {
        let mut positions = self.nested_saves(params, body);
        if positions.is_empty() {
            return Ok(body2.clone());
        }
        // The checkpoints were saved in statement order.
        positions.reverse();
        let mut restored: Vec<(usize, Vec<Stm>)> = Vec::new();
        for pos in positions {
            let Some(Stm {
                pat,
                exp: Exp::Loop { .. },
                ..
            }) = body2.stms.get(pos)
            else {
                return Err(self.err("internal error: a nested loop out of place"));
            };
            let mut stms = Vec::new();
            for v in pat {
                let Some(ck) = cks.next() else {
                    return Err(self.err("internal error: a nested loop's result not saved"));
                };
                let row = self.bind(b, "nested_res", Exp::Index(ck, vec![DimIndex::Fix(ii)]))?;
                let exp = if consumed.contains(v) && !self.ty(*v).shape.is_empty() {
                    Exp::Copy(row)
                } else {
                    Exp::Atom(row.into())
                };
                self.push(&mut stms, vec![*v], exp);
            }
            // As many as the forward sweep saved ([`Ctx::fwd_loop`] lays
            // them out; a `#[true_dep]` chain saves several per parameter).
            let saved = self.ckpt.get(&body.stms[pos].pat[0]).map_or(0, Vec::len);
            let mut inner = Vec::new();
            for _ in 0..saved {
                let Some(ck) = cks.next() else {
                    return Err(self.err("internal error: a nested loop's checkpoint not saved"));
                };
                inner.push(self.bind(b, "nested_ckpt", Exp::Index(ck, vec![DimIndex::Fix(ii)]))?);
            }
            self.ckpt.insert(pat[0], inner);
            restored.push((pos, stms));
        }
        let mut out = body2.clone();
        for (pos, stms) in restored.into_iter().rev() {
            out.stms.splice(pos..=pos, stms);
        }
        Ok(out)
    }
}

/// The sizes of the results and parameters of the loop `s`, nested in a
/// loop whose parameters start at `outer`, as values outside the nested
/// loop: each at the initial value of its parameter (sizes do not change
/// along a loop), an enclosing parameter in turn at its initial value.
/// Whether `r`, a result of `body`, is `p` passed on unchanged: `p`
/// itself, or bound to it through copies, `if`s both of whose branches pass
/// it on, and loops that start from it and pass it on.
fn passes_on(body: &Body, r: Operand, p: VarId) -> bool {
    let Operand::Var(v) = r else {
        return false;
    };
    if v == p {
        return true;
    }
    let Some((s, k)) = body
        .stms
        .iter()
        .find_map(|s| s.pat.iter().position(|x| *x == v).map(|k| (s, k)))
    else {
        return false;
    };
    match &s.exp {
        Exp::Atom(op) => passes_on(body, *op, p),
        Exp::If {
            then_body,
            else_body,
            ..
        } => {
            passes_on(then_body, then_body.result[k], p)
                && passes_on(else_body, else_body.result[k], p)
        }
        Exp::Loop {
            params, body: lb, ..
        } => params.get(k).is_some_and(|(q, init)| {
            passes_on(body, *init, p) && passes_on(lb, lb.result[k], q.var)
        }),
        _ => false,
    }
}

fn nested_subst(s: &Stm, outer: &HashMap<VarId, Operand>) -> HashMap<VarId, Operand> {
    let mut sub = HashMap::new();
    if let Exp::Loop { params, .. } = &s.exp {
        for ((p, init), y) in params.iter().zip(&s.pat) {
            let init = init
                .var()
                .and_then(|v| outer.get(&v))
                .copied()
                .unwrap_or(*init);
            sub.insert(p.var, init);
            sub.insert(*y, init);
        }
    }
    sub
}

/// True when `body` contains a loop, at any depth.
fn has_loop(body: &Body) -> bool {
    body.stms.iter().any(|s| {
        matches!(s.exp, Exp::Loop { .. })
            || ir::uses::nested_bodies(&s.exp)
                .into_iter()
                .any(|(_, b)| has_loop(b))
    })
}

/// Rewrites the maps at the top level of `body` (a loop body whose
/// parameters and index are `params`, re-executed by the return sweep) so
/// that an input row that the map only reads element by element is read
/// from the array the input was sliced from: for `e = x[k]` (or its
/// transpose `t = rearrange((1, 0), e)`) with `x` free in the loop, a read
/// `row[j]` of the map's iteration `i` becomes `x[k, i, j]` (or
/// `x[k, j, i]`). The adjoint of `x` is then updated in place where the
/// element was read, instead of building an adjoint row in every
/// iteration, summing them into an adjoint of `e` and adding that to the
/// adjoint of `x`.
fn read_rows_at_source(cx: &mut Ctx<'_>, body: &mut Body, params: &[VarId]) {
    let mut bound: HashSet<VarId> = params.iter().copied().collect();
    ir::uses::body_binds(body, &mut bound);
    // Slices at fixed indices of arrays free in the loop, and their
    // transposes: (array, indices, transposed).
    let mut sources: HashMap<VarId, (VarId, Vec<DimIndex>, bool)> = HashMap::new();
    for s in &body.stms {
        // Plain copies and maps passing rows on (a `zip`) keep the source.
        match &s.exp {
            Exp::Atom(Operand::Var(x)) => {
                if let (Some(src), [y]) = (sources.get(x).cloned(), &s.pat[..]) {
                    sources.insert(*y, src);
                }
                continue;
            }
            Exp::Screma(sc)
                if sc.scans.is_empty() && sc.reduces.is_empty() && sc.map.body.stms.is_empty() =>
            {
                for (y, r) in s.pat.iter().zip(&sc.map.body.result) {
                    let j = r
                        .var()
                        .and_then(|v| sc.map.params.iter().position(|p| p.var == v));
                    if let Some(src) = j
                        .and_then(|j| sc.inputs.get(j))
                        .and_then(|x| sources.get(x))
                    {
                        sources.insert(*y, src.clone());
                    }
                }
                continue;
            }
            _ => {}
        }
        let [y] = s.pat[..] else { continue };
        match &s.exp {
            Exp::Index(x, idx)
                if !bound.contains(x) && idx.iter().all(|d| matches!(d, DimIndex::Fix(_))) =>
            {
                sources.insert(y, (*x, idx.clone(), false));
            }
            Exp::Rearrange { perm, arr } if perm[..] == [1, 0] => {
                if let Some((x, idx, false)) = sources.get(arr).cloned() {
                    sources.insert(y, (x, idx, true));
                }
            }
            _ => {}
        }
    }
    if sources.is_empty() {
        return;
    }
    for s in &mut body.stms {
        let Exp::Screma(sc) = &mut s.exp else {
            continue;
        };
        let nin = sc.inputs.len();
        let mut redirect = Vec::new();
        for (j, input) in sc.inputs.clone().iter().enumerate() {
            let Some((x, idx, transposed)) = sources.get(input) else {
                continue;
            };
            let Some(p) = sc.map.params.get(j).map(|p| p.var) else {
                continue;
            };
            let rank = cx.ty(p).shape.len();
            if rank == 0 || !cx.active(&(*x).into()) {
                continue;
            }
            let Some(b) = only_indexed_unaliased(&sc.map.body, p) else {
                continue;
            };
            if *transposed && !full_indexes(&b, p, rank) {
                continue;
            }
            sc.map.body = b;
            redirect.push((p, *x, idx.clone(), *transposed));
        }
        if redirect.is_empty() {
            continue;
        }
        if sc.map.params.len() == nin {
            let i = cx.fresh("i", Type::scalar(PrimType::I64));
            sc.map.params.push(Param::new(i));
        }
        let i = sc.map.params[nin].var;
        for (p, x, idx, transposed) in redirect {
            redirect_indexes(&mut sc.map.body, p, &|rest: &[DimIndex]| {
                let mut full = idx.clone();
                if transposed {
                    full.extend(rest.iter().cloned());
                    full.push(DimIndex::Fix(i.into()));
                } else {
                    full.push(DimIndex::Fix(i.into()));
                    full.extend(rest.iter().cloned());
                }
                (x, full)
            });
        }
    }
}

/// True when every index `p[…]` in `body` (and in the branches and map
/// lambdas nested in it) gives all `rank` indices, each fixed.
fn full_indexes(body: &Body, p: VarId, rank: usize) -> bool {
    let mut full = true;
    for_each_index(body, p, &mut |idx| {
        full &= idx.len() == rank && idx.iter().all(|d| matches!(d, DimIndex::Fix(_)));
    });
    full
}

/// Calls `f` with the indices of every `p[…]` in `body` and in the
/// branches and map lambdas nested in it (the statements that
/// [`redirect_indexes`] rewrites).
pub(crate) fn for_each_index(body: &Body, p: VarId, f: &mut dyn FnMut(&[DimIndex])) {
    for stm in &body.stms {
        match &stm.exp {
            Exp::Index(x, idx) if *x == p => f(idx),
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                for_each_index(then_body, p, f);
                for_each_index(else_body, p, f);
            }
            Exp::Screma(s) => for_each_index(&s.map.body, p, f),
            _ => {}
        }
    }
}

/// Where a redirected index reads: the array and the whole index, given
/// the indices of the row.
pub(crate) type IndexAt<'a> = &'a dyn Fn(&[DimIndex]) -> (VarId, Vec<DimIndex>);

/// Replaces every `p[j…]` in `body` (and in the branches and map lambdas
/// nested in it) by the index `at(j…)` gives.
pub(crate) fn redirect_indexes(body: &mut Body, p: VarId, at: IndexAt<'_>) {
    for stm in &mut body.stms {
        match &mut stm.exp {
            Exp::Index(x, idx) if *x == p => {
                let (arr, full) = at(idx);
                *x = arr;
                *idx = full;
            }
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                redirect_indexes(then_body, p, at);
                redirect_indexes(else_body, p, at);
            }
            Exp::Screma(s) => redirect_indexes(&mut s.map.body, p, at),
            _ => {}
        }
    }
}

/// `body` without the plain copies `q = p` at its top level (every use of
/// `q` reading `p` instead), when `p` is then only read by indexing
/// ([`crate::rev_soacs::only_indexed`]).
fn only_indexed_unaliased(body: &Body, p: VarId) -> Option<Body> {
    let mut b = body.clone();
    unalias(&mut b, p);
    crate::rev_soacs::only_indexed(&b, p).then_some(b)
}

/// Rewrites `body`, the lambda of a map whose return sweep is being built
/// (with parameters `params`), so that a row `y = x[k]` of an array `x`
/// free in the lambda, which the lambda then only reads by indexing (also
/// through plain copies), is read from `x`: `y[j]` becomes `x[k, j]`. The
/// reads are then updates of the accumulator of `x` where the elements
/// were read, instead of a dense adjoint row per iteration added to it
/// whole.
pub(crate) fn read_slices_at_source(cx: &Ctx<'_>, body: &mut Body, params: &[VarId]) {
    let mut bound: HashSet<VarId> = params.iter().copied().collect();
    ir::uses::body_binds(body, &mut bound);
    let mut rows: Vec<(VarId, VarId, Vec<DimIndex>)> = Vec::new();
    for s in &body.stms {
        if let ([y], Exp::Index(x, idx)) = (&s.pat[..], &s.exp)
            && !bound.contains(x)
            && idx.iter().all(|d| matches!(d, DimIndex::Fix(_)))
            && !cx.ty(*y).shape.is_empty()
            && cx.active(&(*x).into())
        {
            rows.push((*y, *x, idx.clone()));
        }
    }
    for (y, x, idx) in rows {
        let Some(b) = only_indexed_unaliased(body, y) else {
            continue;
        };
        *body = b;
        redirect_indexes(body, y, &|rest: &[DimIndex]| {
            let mut full = idx.clone();
            full.extend(rest.iter().cloned());
            (x, full)
        });
    }
}

/// Removes the plain copies `q = p` at the top level of `body`, every use
/// of `q` reading `p` instead.
fn unalias(body: &mut Body, p: VarId) {
    let mut subst = HashMap::new();
    body.stms.retain(|stm| match (&stm.pat[..], &stm.exp) {
        ([q], Exp::Atom(Operand::Var(v))) if *v == p => {
            subst.insert(*q, Operand::Var(p));
            false
        }
        _ => true,
    });
    if subst.is_empty() {
        return;
    }
    ir::walk::walk_body_mut(body, &mut |slot| ir::walk::subst_slot(&subst, slot));
}
