//! Tangents through accumulators (`with_acc` and `update_acc`), which the
//! return sweep of reverse mode emits: a `jvp` of a `vjp` (a
//! Hessian-vector product) differentiates them in forward mode.
//!
//! Accumulation is linear when the accumulator's operator is `+` or when
//! updates overwrite:
//! - `with_acc` over arrays `a` also turns the tangent arrays `a'` (copies,
//!   or zeros) into accumulators, passed to the lambda after the primal
//!   ones; the tangent of each result array is the array its tangent
//!   accumulator turns back into.
//! - `update_acc acc i v` is followed by `update_acc acc' i v'` (zero when
//!   `v` has no tangent, so that an overwrite also clears the tangent); the
//!   index carries no tangent.
//!
//! Accumulators passed through a `screma` get their tangent accumulators
//! passed alongside ([`crate::soacs`]); an `if` returning an accumulator
//! also returns its tangent accumulator, and a loop with an accumulator
//! parameter gets a tangent accumulator parameter (the rules of
//! [`crate::control`] followed by these).

use ir::{AccInput, BinOp, Body, Exp, Lambda, Operand, Param, Stm, VarId, WithAcc};

use crate::ctx::{Ctx, R, differentiable};

/// True when `op` is `\(a, b) -> a + b` (in either order), under which
/// accumulation is linear.
pub(crate) fn is_addition(op: &Lambda) -> bool {
    let [a, b] = op.params.as_slice() else {
        return false;
    };
    let [stm] = op.body.stms.as_slice() else {
        return false;
    };
    let ([y], [r]) = (stm.pat.as_slice(), op.body.result.as_slice()) else {
        return false;
    };
    let Exp::BinOp(BinOp::Add, x1, x2) = &stm.exp else {
        return false;
    };
    let (pa, pb) = (Operand::Var(a.var), Operand::Var(b.var));
    *r == Operand::Var(*y) && ((*x1 == pa && *x2 == pb) || (*x1 == pb && *x2 == pa))
}

impl Ctx<'_> {
    /// Emits `pat = with_acc(inputs, lambda)` with tangent accumulators
    /// for the inputs that carry tangents.
    pub fn with_acc_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm, w: &WithAcc) -> R<()> {
        let lam = &w.lambda;
        let k = w.inputs.len();
        if lam.params.len() != k || lam.ret.len() < k || lam.body.result.len() != lam.ret.len() {
            return Err(self.err("internal error: a malformed with_acc"));
        }
        if stm.pat.len() != lam.ret.len() {
            return Err(self.err("internal error: a with_acc whose pattern does not match"));
        }
        let mut inputs = w.inputs.clone();
        let mut params = lam.params.clone();
        let mut slots = Vec::new();
        for (j, inp) in w.inputs.iter().enumerate() {
            if !differentiable(&self.ty(inp.arr)) {
                continue;
            }
            if let Some((op, _)) = &inp.op
                && !is_addition(op)
            {
                return Err(self.err(
                    "an accumulator whose operator is not `+` inside jvp (its tangent is not linear)",
                ));
            }
            let Operand::Var(ta) = self.consumable_tan(out, inp.arr)? else {
                return Err(self.err("internal error: a scalar with_acc input"));
            };
            let op = match &inp.op {
                Some((op, ne)) => {
                    let (ps, body) = self.rename(
                        &op.params.iter().map(|p| p.var).collect::<Vec<_>>(),
                        &op.body,
                    );
                    let op = Lambda {
                        params: ps.into_iter().map(Param::new).collect(),
                        ret: op.ret.clone(),
                        body,
                    };
                    let zero = crate::ctx::konst(self.op_ty(ne).elem, 0.0);
                    Some((op, zero))
                }
                None => None,
            };
            inputs.push(AccInput { arr: ta, op });
            let p = lam.params[j].var;
            let tp = self.fresh_tan(p);
            self.tan.insert(p, tp.into());
            params.push(Param::new(tp));
            slots.push(j);
        }
        let mut bout = Vec::new();
        self.diff_body(&lam.body, &mut bout)?;
        let mut result = lam.body.result[..k].to_vec();
        let mut ret = lam.ret[..k].to_vec();
        let mut pat = stm.pat[..k].to_vec();
        for &j in &slots {
            let r = lam.body.result[j];
            let Some(t) = self.tangent(&r) else {
                return Err(self
                    .err("an accumulator returned by with_acc that lost its tangent inside jvp"));
            };
            result.push(t);
            ret.push(lam.ret[j].clone());
            let tp = self.fresh_tan(stm.pat[j]);
            self.tan.insert(stm.pat[j], tp.into());
            pat.push(tp);
        }
        result.extend_from_slice(&lam.body.result[k..]);
        ret.extend_from_slice(&lam.ret[k..]);
        pat.extend_from_slice(&stm.pat[k..]);
        for m in k..lam.ret.len() {
            if lam.ret[m].acc {
                return Err(self.err("an accumulator among the other results of a with_acc"));
            }
            if differentiable(&lam.ret[m]) {
                result.push(self.tan_or_zero(&mut bout, &lam.body.result[m])?);
                ret.push(lam.ret[m].clone());
                let tp = self.fresh_tan(stm.pat[m]);
                self.tan.insert(stm.pat[m], tp.into());
                pat.push(tp);
            }
        }
        out.push(Stm {
            pat,
            exp: Exp::WithAcc(Box::new(WithAcc {
                inputs,
                lambda: Lambda {
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

    /// Emits `pat = update_acc(acc, idx, value)` followed by the same
    /// update of the tangent accumulator with the value's tangent.
    pub fn update_acc_stm(
        &mut self,
        out: &mut Vec<Stm>,
        stm: &Stm,
        acc: VarId,
        idx: &[Operand],
        value: &Operand,
    ) -> R<()> {
        out.push(stm.clone());
        let [y] = stm.pat.as_slice() else {
            return Err(self.err("internal error: an update_acc with several results"));
        };
        match self.tangent(&acc.into()) {
            Some(Operand::Var(ta)) => {
                let tv = self.tan_or_zero(out, value)?;
                let ty = self.fresh_tan(*y);
                self.push(
                    out,
                    vec![ty],
                    Exp::UpdateAcc {
                        acc: ta,
                        idx: idx.to_vec(),
                        value: tv,
                    },
                );
                self.tan.insert(*y, ty.into());
                Ok(())
            }
            Some(Operand::Const(_)) => Err(self.err("internal error: a constant accumulator")),
            None if self.tangent(value).is_some() => Err(self.err(
                "an update with a tangent of an accumulator bound outside jvp (its tangent cannot be tracked)",
            )),
            None => Ok(()),
        }
    }

    /// Emits an `if` with tangents, its accumulator results included.
    pub fn if_acc_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        self.if_stm(out, stm)?;
        let accs: Vec<usize> = (0..stm.pat.len())
            .filter(|&k| self.ty(stm.pat[k]).acc)
            .collect();
        if accs.is_empty() {
            return Ok(());
        }
        let mut tans = Vec::new();
        let Some(Stm {
            exp:
                Exp::If {
                    then_body,
                    else_body,
                    ..
                },
            ..
        }) = out.last()
        else {
            return Err(self.err("internal error: an if without its tangent if"));
        };
        for &k in &accs {
            let (tr, er) = (then_body.result[k], else_body.result[k]);
            match (self.tangent(&tr), self.tangent(&er)) {
                (Some(t), Some(e)) => tans.push((k, t, e)),
                (None, None) => {}
                _ => {
                    return Err(self.err(
                        "an if whose branches return an accumulator with a tangent in only one branch",
                    ));
                }
            }
        }
        let mut pats = Vec::new();
        for &(k, _, _) in &tans {
            let tp = self.fresh_tan(stm.pat[k]);
            self.tan.insert(stm.pat[k], tp.into());
            pats.push(tp);
        }
        if let Some(Stm {
            pat,
            exp:
                Exp::If {
                    then_body,
                    else_body,
                    ..
                },
            ..
        }) = out.last_mut()
        {
            for ((_, t, e), tp) in tans.into_iter().zip(pats) {
                then_body.result.push(t);
                else_body.result.push(e);
                pat.push(tp);
            }
        }
        Ok(())
    }

    /// Emits a `loop` with tangent parameters, its accumulator parameters
    /// included: each gets a tangent accumulator parameter starting from
    /// the initial accumulator's tangent.
    pub fn loop_acc_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let Exp::Loop { params, .. } = &stm.exp else {
            return Err(self.err("internal error: not a loop"));
        };
        let mut added = Vec::new();
        for (k, (p, init)) in params.iter().enumerate() {
            if !self.ty(p.var).acc {
                continue;
            }
            match self.tangent(init) {
                Some(ti) => {
                    let tp = self.fresh_tan(p.var);
                    self.tan.insert(p.var, tp.into());
                    added.push((k, *p, tp, ti));
                }
                None => {
                    self.tan.remove(&p.var);
                }
            }
        }
        self.loop_stm(out, stm)?;
        if added.is_empty() {
            return Ok(());
        }
        let mut results = Vec::new();
        let mut pats = Vec::new();
        for &(k, _, _, _) in &added {
            let Exp::Loop { body, .. } = &stm.exp else {
                return Err(self.err("internal error: not a loop"));
            };
            let Some(t) = self.tangent(&body.result[k]) else {
                return Err(self.err(
                    "a loop whose body returns an accumulator that lost its tangent inside jvp",
                ));
            };
            results.push(t);
            let tp = self.fresh_tan(stm.pat[k]);
            self.tan.insert(stm.pat[k], tp.into());
            pats.push(tp);
        }
        let Some(Stm {
            pat,
            exp: Exp::Loop { params, body, .. },
            ..
        }) = out.last_mut()
        else {
            return Err(self.err("internal error: a loop without its tangent loop"));
        };
        for (((_, p, tp, ti), r), y) in added.into_iter().zip(results).zip(pats) {
            params.push((
                Param {
                    var: tp,
                    unique: p.unique,
                },
                ti,
            ));
            body.result.push(r);
            pat.push(y);
        }
        Ok(())
    }
}
