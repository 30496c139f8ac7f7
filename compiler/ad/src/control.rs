//! Tangents through `if` and `loop`.
//!
//! An `if` returns, after its results, the tangents of the results that
//! carry one in either branch (zeros in a branch where they do not). A
//! loop gets one tangent parameter per differentiable loop parameter,
//! initialised with the initial value's tangent (copied where the parameter
//! is unique) and updated with the body's result tangents.

use ir::{Body, Exp, LoopForm, Operand, Param, Stm};

use crate::ctx::{Ctx, R, differentiable};

impl Ctx<'_> {
    /// Emits an `if` with tangents.
    pub fn if_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let Exp::If {
            cond,
            then_body,
            else_body,
        } = &stm.exp
        else {
            return Err(self.err("internal error: not an if"));
        };
        let mut tout = Vec::new();
        self.diff_body(then_body, &mut tout)?;
        let mut eout = Vec::new();
        self.diff_body(else_body, &mut eout)?;
        let which: Vec<usize> = (0..stm.pat.len())
            .filter(|&k| {
                differentiable(&self.ty(stm.pat[k]))
                    && (self.tangent(&then_body.result[k]).is_some()
                        || self.tangent(&else_body.result[k]).is_some())
            })
            .collect();
        let mut tres = then_body.result.clone();
        let mut eres = else_body.result.clone();
        let mut pat = stm.pat.clone();
        for &k in &which {
            tres.push(self.tan_or_zero(&mut tout, &then_body.result[k])?);
            eres.push(self.tan_or_zero(&mut eout, &else_body.result[k])?);
            let t = self.fresh_tan(stm.pat[k]);
            pat.push(t);
            self.tan.insert(stm.pat[k], t.into());
        }
        out.push(Stm {
            pat,
            exp: Exp::If {
                cond: *cond,
                then_body: Body {
                    stms: tout,
                    result: tres,
                },
                else_body: Body {
                    stms: eout,
                    result: eres,
                },
            },
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        Ok(())
    }

    /// Emits a `loop` with tangent parameters.
    pub fn loop_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let Exp::Loop { params, form, body } = &stm.exp else {
            return Err(self.err("internal error: not a loop"));
        };
        if stm.pat.len() != params.len() {
            return Err(self.err("a loop that binds fewer results than it has parameters"));
        }
        let cond = match form {
            LoopForm::While { cond } => Some(*cond),
            LoopForm::For { .. } => None,
        };
        let which: Vec<usize> = (0..params.len())
            .filter(|&k| {
                let v = params[k].0.var;
                Some(v) != cond && differentiable(&self.ty(v))
            })
            .collect();
        let mut new_params = params.clone();
        for &k in &which {
            let (p, init) = params[k];
            let ti = if p.unique {
                match init {
                    Operand::Var(v) => self.consumable_tan(out, v)?,
                    c => self.tan_or_zero(out, &c)?,
                }
            } else {
                self.tan_or_zero(out, &init)?
            };
            let tp = self.fresh_tan(p.var);
            self.tan.insert(p.var, tp.into());
            new_params.push((
                Param {
                    var: tp,
                    unique: p.unique,
                },
                ti,
            ));
        }
        let mut bout = Vec::new();
        self.diff_body(body, &mut bout)?;
        let mut res = body.result.clone();
        for &k in &which {
            res.push(self.tan_or_zero(&mut bout, &body.result[k])?);
        }
        let mut pat = stm.pat.clone();
        for &k in &which {
            let t = self.fresh_tan(stm.pat[k]);
            pat.push(t);
            self.tan.insert(stm.pat[k], t.into());
        }
        out.push(Stm {
            pat,
            exp: Exp::Loop {
                params: new_params,
                form: *form,
                body: Body {
                    stms: bout,
                    result: res,
                },
            },
            attrs: stm.attrs.clone(),
            span: stm.span,
        });
        Ok(())
    }
}
