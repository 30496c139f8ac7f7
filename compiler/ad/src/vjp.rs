//! The expansion of one `vjp` node: the forward sweep (the lambda's
//! statements, loops checkpointed), then the return sweep over the
//! statements in reverse order, dispatching to the rules of the `rev_*`
//! modules; scalar statements are handled here with the partial
//! derivatives of [`crate::scalar`].

use std::collections::{HashMap, HashSet};

use ir::{AdExp, Body, ConvKind, CustomVjp, Exp, Operand, PrimType, Stm, VarId};

use crate::ctx::{Ctx, R};

impl Ctx<'_> {
    /// Emits the expansion of `pat = vjp(lambda, primals, seeds)`: the
    /// parameters bound to the primals, the forward sweep, the return sweep
    /// seeded with the result adjoints, then the results and the parameter
    /// adjoints bound to `pat`.
    pub fn vjp(&mut self, pat: &[VarId], ad: &AdExp, out: &mut Vec<Stm>) -> R<()> {
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
        let first_new = self.vars().len();
        for (p, x) in lam.params.iter().zip(&ad.primals) {
            self.push(out, vec![p.var], Exp::Atom(*x));
        }
        let body = self.prepare_loops(&lam.body)?;
        let params: Vec<VarId> = lam.params.iter().map(|p| p.var).collect();
        self.mark_constants(&params, &body);
        self.fwd_body(&body, out)?;
        let saved = self.enter_scope();
        let seeds: Vec<Option<Operand>> = ad.seeds.iter().copied().map(Some).collect();
        // Variables bound outside the lambda get no adjoints (those made
        // since the expansion began are all inside).
        let mut inside: HashSet<VarId> = lam.params.iter().map(|p| p.var).collect();
        ir::uses::body_binds(&lam.body, &mut inside);
        let outer_vjp = self.outside_vjp.replace((first_new, inside));
        let res = self.rev_body(&body, &seeds, out);
        self.outside_vjp = outer_vjp;
        let mut adjs = Vec::new();
        if res.is_ok() {
            for p in &lam.params {
                adjs.push(self.adj.get(&p.var).copied());
            }
        }
        self.leave_scope(saved);
        res?;
        self.bind_vjp_results(out, pat, &lam.body.result, adjs)
    }

    /// Binds the results of a `vjp` to `pat`: first its lambda's results
    /// `results`, then the adjoint of each parameter (`adjs`; zeros for a
    /// parameter that got none).
    pub(crate) fn bind_vjp_results(
        &mut self,
        out: &mut Vec<Stm>,
        pat: &[VarId],
        results: &[Operand],
        adjs: Vec<Option<Operand>>,
    ) -> R<()> {
        let n = results.len();
        for (y, r) in pat.iter().zip(results) {
            self.push(out, vec![*y], Exp::Atom(*r));
        }
        for (j, a) in adjs.into_iter().enumerate() {
            let a = match a {
                Some(a) => a,
                None => {
                    let t = self.ty(pat[n + j]);
                    self.zeros_of(out, &t)?
                }
            };
            self.push(out, vec![pat[n + j]], Exp::Atom(a));
        }
        Ok(())
    }

    /// The forward sweep of `body`: its statements, with every `for` loop
    /// checkpointing its parameters. A statement that consumes an array
    /// the return sweep still needs consumes a copy of it instead.
    pub fn fwd_body(&mut self, body: &Body, out: &mut Vec<Stm>) -> R<()> {
        for (k, stm) in body.stms.iter().enumerate() {
            self.span = stm.span;
            let copied;
            let stm = if matches!(stm.exp, Exp::Scatter(_)) {
                stm
            } else {
                match self.copy_consumed(out, stm, &body.stms[..k])? {
                    Some(s) => {
                        copied = s;
                        &copied
                    }
                    None => stm,
                }
            };
            match &stm.exp {
                Exp::Loop { .. } => self.fwd_loop(out, stm)?,
                Exp::Scatter(s) => {
                    self.fwd_scatter(out, stm, s, &body.stms[..k], &body.stms[k + 1..])?
                }
                Exp::Hist(h) => self.fwd_hist(out, stm, h)?,
                _ => out.push(stm.clone()),
            }
        }
        Ok(())
    }

    /// When `stm` consumes arrays that the return sweep needs, because the
    /// statements before it (in `earlier`) use them or because `stm` is an
    /// `if` whose return sweep runs its branch again, copies them and
    /// returns `stm` with the copies in their place. The arrays an `if`
    /// consumes are recorded, for its return sweep to copy them again.
    fn copy_consumed(&mut self, out: &mut Vec<Stm>, stm: &Stm, earlier: &[Stm]) -> R<Option<Stm>> {
        let mut consumed = HashSet::new();
        let no_functions = ir::PrimaryMap::new();
        ir::uses::exp_consumes(&no_functions, self.vars(), &stm.exp, &mut consumed);
        if consumed.is_empty() {
            return Ok(None);
        }
        let mut inner = HashSet::new();
        ir::uses::exp_binds(&stm.exp, &mut inner);
        let mut used = HashSet::new();
        for e in earlier {
            ir::uses::exp_uses(self.vars(), &e.exp, &mut used);
        }
        let again = matches!(stm.exp, Exp::If { .. });
        let mut xs: Vec<VarId> = consumed
            .into_iter()
            .filter(|x| !inner.contains(x) && (again || used.contains(x)))
            .filter(|x| !self.ty(*x).shape.is_empty() && !self.ty(*x).acc)
            .collect();
        if xs.is_empty() {
            return Ok(None);
        }
        xs.sort_by_key(|v| v.as_u32());
        let mut subst = HashMap::new();
        for &x in &xs {
            let c = self.bind(out, "saved", Exp::Copy(x))?;
            subst.insert(x, Operand::Var(c));
        }
        if again && let Some(&y) = stm.pat.first() {
            self.saved_consumed.insert(y, xs);
        }
        let mut b = Body {
            stms: vec![stm.clone()],
            result: Vec::new(),
        };
        ir::walk::walk_body_mut(&mut b, &mut |slot| ir::walk::subst_slot(&subst, slot));
        Ok(b.stms.pop())
    }

    /// The return sweep of `body`, whose forward sweep is in scope: adds
    /// the `seeds` that are present to the adjoints of the results, then propagates adjoints
    /// through the statements in reverse order.
    pub fn rev_body(
        &mut self,
        body: &Body,
        seeds: &[Option<Operand>],
        out: &mut Vec<Stm>,
    ) -> R<()> {
        for (r, s) in body.result.iter().zip(seeds) {
            if let Some(s) = s {
                self.add_adj(out, r, *s, false)?;
            }
        }
        let outer = self.restored.clone();
        let res = self.rev_stms(&body.stms, out);
        self.restored = outer;
        res
    }

    /// The return sweep of `stms` in reverse order. After a scatter whose
    /// forward sweep saved destination elements, the destinations are
    /// restored, and the statements before it are swept with the restored
    /// arrays in place of the destinations.
    fn rev_stms(&mut self, stms: &[Stm], out: &mut Vec<Stm>) -> R<()> {
        for orig in stms.iter().rev() {
            self.span = orig.span;
            // An `if` that consumes arrays runs its branch again on copies.
            let consumed = orig
                .pat
                .first()
                .and_then(|y| self.saved_consumed.remove(y))
                .unwrap_or_default();
            let mut before = Vec::new();
            if orig.pat.iter().any(|v| self.adj.contains_key(v)) {
                for x in consumed {
                    let src = self.restored.get(&x).copied().unwrap_or(x.into());
                    let Operand::Var(src) = src else { continue };
                    let c = self.bind(out, "saved", Exp::Copy(src))?;
                    before.push((x, self.restored.insert(x, c.into())));
                }
            }
            let subst;
            let stm = if self.restored.is_empty() {
                orig
            } else {
                let stm = orig;
                let mut b = Body {
                    stms: vec![stm.clone()],
                    result: Vec::new(),
                };
                ir::walk::walk_body_mut(&mut b, &mut |slot| {
                    ir::walk::subst_slot(&self.restored, slot)
                });
                subst = b.stms.pop().unwrap_or_else(|| stm.clone());
                &subst
            };
            if stm.pat.iter().any(|v| self.adj.contains_key(v)) {
                self.rev_stm(out, stm)?;
                // An accumulator adjoint of a restored array belongs to the
                // map whose lambda this is (the array is free in it): it
                // stays with the array the statements now read.
                let pairs: Vec<(VarId, VarId)> = self
                    .restored
                    .iter()
                    .filter_map(|(d, r)| Some((*d, r.var()?)))
                    .collect();
                let moved: Vec<(VarId, Operand)> = pairs
                    .into_iter()
                    .filter(|(_, r)| self.acc_adj(*r).is_none())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .filter_map(|(d, r)| Some((d, self.adj.remove(&r)?)))
                    .collect();
                for (d, a) in moved {
                    self.add_adj(out, &d.into(), a, false)?;
                }
            }
            for (x, prev) in before {
                match prev {
                    Some(p) => self.restored.insert(x, p),
                    None => self.restored.remove(&x),
                };
            }
            if let Exp::Scatter(s) = &orig.exp {
                for (d, r) in self.restore_scatter(out, orig, s)? {
                    self.restored.insert(d, r.into());
                }
            }
        }
        Ok(())
    }

    /// Propagates the adjoints of the pattern of `stm` to its operands.
    fn rev_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        match &stm.exp {
            Exp::Atom(o) => {
                let y = stm.pat[0];
                let owned = self.owned.contains(&y);
                let a = self.adj[&y];
                self.add_adj(out, o, a, owned)
            }
            Exp::UnOp(..) | Exp::BinOp(..) | Exp::Math(..) => {
                let y = stm.pat[0];
                let a = self.adj[&y];
                let operands: Vec<Operand> = match &stm.exp {
                    Exp::UnOp(_, x) => vec![*x],
                    Exp::BinOp(_, x, z) => vec![*x, *z],
                    Exp::Math(_, args) => args.clone(),
                    _ => Vec::new(),
                };
                let act: Vec<Operand> = operands.into_iter().filter(|o| self.active(o)).collect();
                let active = |o: &Operand| act.contains(o);
                let Some(partials) = self.scalar_partials(out, y, &stm.exp, &active)? else {
                    return Ok(());
                };
                let t = self.ty(y).elem;
                let one = crate::ctx::konst(t, 1.0);
                for (x, d) in partials {
                    let c = if d == one {
                        a
                    } else {
                        self.bin(out, ir::BinOp::Mul, d, a)?
                    };
                    self.add_adj(out, &x, c, true)?;
                }
                Ok(())
            }
            Exp::Convert(ConvKind::Convert, to, x) => {
                let from = self.op_ty(x).elem;
                if from == PrimType::Bool || *to == PrimType::Bool || !self.active(x) {
                    return Ok(());
                }
                let a = self.adj[&stm.pat[0]];
                let c = if from == *to {
                    a
                } else {
                    self.conv(out, from, a)?
                };
                self.add_adj(out, x, c, true)
            }
            Exp::Iota { n, .. } => self.rev_iota(out, stm.pat[0], *n),
            Exp::Convert(ConvKind::Bitcast, ..)
            | Exp::Cmp(..)
            | Exp::Scratch { .. }
            | Exp::Assert { .. } => Ok(()),
            Exp::Index(x, _) if self.acc_adj(*x).is_some() => self.rev_index_acc(out, stm),
            Exp::Index(..)
            | Exp::Update(..)
            | Exp::Replicate { .. }
            | Exp::Reshape { .. }
            | Exp::Rearrange { .. }
            | Exp::Concat { .. }
            | Exp::Copy(_) => self.rev_array(out, stm),
            Exp::If { .. } => {
                let accs = self.acc_adjs_used(stm);
                if accs.is_empty() {
                    self.rev_if(out, stm)
                } else {
                    self.rev_if_acc(out, stm, &accs)
                }
            }
            Exp::Loop { .. } => {
                let accs = self.acc_adjs_used(stm);
                self.with_accs_aside(out, &accs, |cx, out| cx.rev_loop(out, stm))
            }
            Exp::Screma(s) => self.rev_screma(out, stm, s),
            Exp::Hist(h) => self.rev_hist(out, stm, h),
            Exp::Scatter(s) => self.rev_scatter(out, stm, s),
            Exp::Apply { .. } => {
                Err(self.err("a function application inside vjp (the callee was not inlined)"))
            }
            Exp::WithAcc(w) => self.rev_with_acc(out, stm, w),
            Exp::UpdateAcc { .. } => Err(self.err(
                "an accumulator update outside its with_acc inside vjp (reverse mode has no rule for it)",
            )),
            Exp::Jvp(_) => Err(self.err("a jvp that could not be expanded, inside vjp")),
            Exp::Vjp(_) => Err(self.err("a vjp that could not be expanded, inside vjp")),
            Exp::CustomVjp(c) => self.rev_custom_vjp(out, stm, c),
        }
    }

    /// The return sweep of `y = iota(n, start, step)`: as in Futhark, the
    /// length `n` gets the sum of the adjoint of `y` (converted to `i64`)
    /// and `start` and `step` get nothing. So `vjp (\n -> i64.sum (iota n))
    /// n 1` is `n`, while forward mode gives `iota` a zero tangent.
    fn rev_iota(&mut self, out: &mut Vec<Stm>, y: VarId, n: Operand) -> R<()> {
        if !self.active(&n) {
            return Ok(());
        }
        let Some(a) = self.adj[&y].var() else {
            return Err(self.err("internal error: a scalar adjoint of an array"));
        };
        let elem = self.ty(a).elem;
        let mut c = self.sum_outer(out, a)?;
        let nt = self.op_ty(&n).elem;
        if elem != nt {
            c = self.conv(out, nt, c)?;
        }
        self.add_adj(out, &n, c, true)
    }

    /// The return sweep of `pat = custom_vjp(f, f', args)`: a fresh copy of
    /// `f'` applied to the results `pat` (computed by the forward sweep)
    /// and their adjoints gives the contributions to the adjoints of
    /// `args`; `f` is not differentiated.
    fn rev_custom_vjp(&mut self, out: &mut Vec<Stm>, stm: &Stm, c: &CustomVjp) -> R<()> {
        let fp = &c.fprime;
        let n = stm.pat.len();
        if fp.params.len() != 2 * n
            || fp.ret.len() != c.args.len()
            || fp.body.result.len() != c.args.len()
        {
            return Err(self.err("a custom_vjp whose derivative does not match its function"));
        }
        let params: Vec<VarId> = fp.params.iter().map(|p| p.var).collect();
        let (params, body) = self.rename(&params, &fp.body);
        for (p, y) in params.iter().zip(&stm.pat) {
            self.push(out, vec![*p], Exp::Atom((*y).into()));
        }
        for (p, y) in params[n..].iter().zip(&stm.pat) {
            let a = self.adj_or_zero(out, *y)?;
            self.push(out, vec![*p], Exp::Atom(a));
        }
        out.extend(body.stms);
        for (x, a) in c.args.iter().zip(&body.result) {
            self.add_adj(out, x, *a, false)?;
        }
        Ok(())
    }
}
