//! The expansion of one `jvp` node, and the per-statement dispatch to the
//! rules of the other modules.

use ir::{AdExp, Body, CustomVjp, Exp, Stm, VarId};

use crate::ctx::{Ctx, R, differentiable};

impl Ctx<'_> {
    /// Emits the expansion of `pat = jvp(lambda, primals, seeds)`: the
    /// lambda's parameters bound to the primals, its body with tangents,
    /// then the results and their tangents bound to `pat`.
    ///
    /// The tangent map is this expansion's own: it starts empty and is
    /// given back afterwards. The statements of an inner `jvp`'s expansion
    /// reappear in an outer one, and a tangent that the inner expansion
    /// left in the map (its seed, say, on a variable the outer expansion
    /// sees as a plain copy of a constant) would otherwise be taken for the
    /// outer expansion's tangent.
    pub fn jvp(&mut self, pat: &[VarId], ad: &AdExp, out: &mut Vec<Stm>) -> R<()> {
        let saved = std::mem::take(&mut self.tan);
        let res = self.jvp_in(pat, ad, out);
        self.tan = saved;
        res
    }

    fn jvp_in(&mut self, pat: &[VarId], ad: &AdExp, out: &mut Vec<Stm>) -> R<()> {
        let lam = &ad.lambda;
        let n = lam.ret.len();
        if lam.params.len() != ad.primals.len()
            || lam.params.len() != ad.seeds.len()
            || pat.len() != 2 * n
            || lam.body.result.len() != n
        {
            return Err(self.err("a jvp whose operands do not match its lambda"));
        }
        for (p, x) in lam.params.iter().zip(&ad.primals) {
            self.push(out, vec![p.var], Exp::Atom(*x));
        }
        for (p, s) in lam.params.iter().zip(&ad.seeds) {
            if differentiable(&self.ty(p.var)) {
                self.tan.insert(p.var, *s);
            }
        }
        self.diff_body(&lam.body, out)?;
        for k in 0..n {
            let r = lam.body.result[k];
            self.push(out, vec![pat[k]], Exp::Atom(r));
            let t = if differentiable(&self.ty(pat[n + k])) {
                self.tan_or_zero(out, &r)?
            } else {
                let ty = self.ty(pat[n + k]);
                self.zeros_of(out, &ty)?
            };
            self.push(out, vec![pat[n + k]], Exp::Atom(t));
        }
        Ok(())
    }

    /// Emits every statement of `body` with its tangent statements.
    pub fn diff_body(&mut self, body: &Body, out: &mut Vec<Stm>) -> R<()> {
        for stm in &body.stms {
            self.span = stm.span;
            self.diff_stm(stm, out)?;
        }
        Ok(())
    }

    /// Emits one statement with its tangent statements.
    fn diff_stm(&mut self, stm: &Stm, out: &mut Vec<Stm>) -> R<()> {
        match &stm.exp {
            Exp::Atom(o) => {
                out.push(stm.clone());
                if let (Some(t), [y]) = (self.tangent(o), stm.pat.as_slice())
                    && differentiable(&self.ty(*y))
                {
                    self.tan.insert(*y, t);
                }
                Ok(())
            }
            Exp::UnOp(..) | Exp::BinOp(..) | Exp::Convert(..) | Exp::Math(..)
                if self.vec.is_some() =>
            {
                self.lift_scalar(out, stm)
            }
            Exp::UnOp(..) | Exp::BinOp(..) | Exp::Convert(..) | Exp::Math(..) => {
                out.push(stm.clone());
                if let [y] = stm.pat.as_slice()
                    && let Some(t) = self.scalar_tangent(out, *y, &stm.exp)?
                {
                    self.tan.insert(*y, t);
                }
                Ok(())
            }
            Exp::Cmp(..) | Exp::Iota { .. } | Exp::Scratch { .. } | Exp::Assert { .. } => {
                out.push(stm.clone());
                Ok(())
            }
            Exp::Index(..)
            | Exp::Update(..)
            | Exp::Replicate { .. }
            | Exp::Reshape { .. }
            | Exp::Rearrange { .. }
            | Exp::Concat { .. }
            | Exp::Copy(_) => self.array_stm(out, stm),
            Exp::If { .. } => self.if_acc_stm(out, stm),
            Exp::Loop { .. } => self.loop_acc_stm(out, stm),
            Exp::Screma(s) => self.screma_stm(out, stm, s),
            Exp::Hist(h) => self.hist_stm(out, stm, h),
            Exp::Scatter(s) => self.scatter_stm(out, stm, s),
            Exp::Apply { .. } => {
                Err(self.err("a function application inside jvp (the callee was not inlined)"))
            }
            Exp::WithAcc(_) | Exp::UpdateAcc { .. } if self.vec.is_some() => {
                Err(self.err("accumulators in forward mode over many seeds"))
            }
            Exp::WithAcc(w) => self.with_acc_stm(out, stm, w),
            Exp::UpdateAcc { acc, idx, value } => self.update_acc_stm(out, stm, *acc, idx, value),
            Exp::Jvp(_) => Err(self.err("a jvp that could not be expanded, inside jvp")),
            Exp::Vjp(_) => Err(self.err("vjp inside jvp (reverse mode is not compiled yet)")),
            Exp::CustomVjp(c) => self.custom_vjp_stm(out, stm, c),
        }
    }

    /// Emits `pat = custom_vjp(f, f', args)` with tangents: a fresh copy
    /// of `f`'s body, differentiated as usual (`f'` is not used).
    fn custom_vjp_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm, c: &CustomVjp) -> R<()> {
        let f = &c.f;
        if f.params.len() != c.args.len()
            || stm.pat.len() != f.ret.len()
            || f.body.result.len() != f.ret.len()
        {
            return Err(self.err("a custom_vjp whose operands do not match its function"));
        }
        let params: Vec<VarId> = f.params.iter().map(|p| p.var).collect();
        let (params, body) = self.rename(&params, &f.body);
        let mut stms: Vec<Stm> = Vec::new();
        for (p, a) in params.iter().zip(&c.args) {
            self.push(&mut stms, vec![*p], Exp::Atom(*a));
        }
        stms.extend(body.stms);
        for (y, r) in stm.pat.iter().zip(&body.result) {
            self.push(&mut stms, vec![*y], Exp::Atom(*r));
        }
        self.diff_body(
            &Body {
                stms,
                result: Vec::new(),
            },
            out,
        )
    }
}
