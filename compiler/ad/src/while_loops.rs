//! `while` loops made `for` loops, so that reverse mode can checkpoint
//! them: a checkpoint array needs its number of rows before the loop runs.
//!
//! - With `#[bound(n)]`, `loop (c, x) = (c0, x0) while c do body` becomes
//!   `loop (c, x) = (c0, x0) for j < n do if c then body else (c, x)`,
//!   followed by an assertion that the condition is false at the end: a
//!   loop that would run more than `n` iterations is a run-time error
//!   rather than a wrong derivative.
//! - Without a bound, an inspector runs the loop once (on copies of the
//!   arrays it consumes) counting its iterations `t`, and the loop becomes
//!   `loop (c, x) = (c0, x0) for j < t do body`, which runs exactly the
//!   iterations of the `while` loop (the condition is true in each).
//!
//! Both give the `while` loop's results exactly; the bounded form always
//! runs `n` iterations (the extra ones do nothing), the inspector form runs
//! the loop twice forward.
//!
//! A loop that no adjoint reaches (its results feed only comparisons,
//! indices, loop bounds or nothing at all, see [`Ctx::reached`]) is never
//! swept back, so an unbounded one stays a `while` loop: no inspector.

use std::collections::HashSet;

use ir::{Attr, BinOp, Body, ConvKind, Exp, LoopForm, Operand, Param, PrimType, Stm, Type, VarId};

use crate::ctx::{Ctx, R, differentiable};

/// The iteration bound of `#[bound(n)]` among `attrs`.
pub fn bound_attr(attrs: &[Attr]) -> Option<i64> {
    attrs.iter().find_map(|a| match a {
        Attr::Bound(n) => Some(*n),
        _ => None,
    })
}

impl Ctx<'_> {
    /// The variables of `body`, at any depth, that may get an adjoint when
    /// every result of `body` is seeded: a statement none of whose results
    /// is reached is never swept back. An over-approximation of the return
    /// sweep's rules: adjoints flow from a statement's results to its
    /// differentiable operands, except the indices of `x[i]` and
    /// `x with [i] = v`, the condition of an `if`, the bound of a loop and
    /// the operands of comparisons, bitcasts and conversions to or from
    /// `bool`; a nested body is taken with all its results seeded.
    pub fn reached(&self, body: &Body) -> HashSet<VarId> {
        let mut reached = HashSet::new();
        self.reach_body(body, &mut reached);
        reached
    }

    fn reach_body(&self, body: &Body, reached: &mut HashSet<VarId>) {
        for r in &body.result {
            self.reach_op(r, reached);
        }
        for stm in body.stms.iter().rev() {
            if stm.pat.iter().any(|v| reached.contains(v)) {
                self.reach_stm(stm, reached);
            }
        }
    }

    fn reach_op(&self, o: &Operand, reached: &mut HashSet<VarId>) {
        if let Operand::Var(v) = o
            && differentiable(&self.ty(*v))
        {
            reached.insert(*v);
        }
    }

    fn reach_stm(&self, stm: &Stm, reached: &mut HashSet<VarId>) {
        match &stm.exp {
            Exp::Atom(o) => self.reach_op(o, reached),
            Exp::UnOp(_, x) => self.reach_op(x, reached),
            Exp::BinOp(_, x, y) => {
                self.reach_op(x, reached);
                self.reach_op(y, reached);
            }
            Exp::Math(_, args) => args.iter().for_each(|a| self.reach_op(a, reached)),
            Exp::Convert(ConvKind::Convert, to, x) => {
                if *to != PrimType::Bool && self.op_ty(x).elem != PrimType::Bool {
                    self.reach_op(x, reached);
                }
            }
            Exp::Convert(ConvKind::Bitcast, ..)
            | Exp::Cmp(..)
            | Exp::Iota { .. }
            | Exp::Scratch { .. }
            | Exp::Assert { .. } => {}
            Exp::Index(x, _) => self.reach_op(&Operand::Var(*x), reached),
            Exp::Update(x, _, v) => {
                self.reach_op(&Operand::Var(*x), reached);
                self.reach_op(v, reached);
            }
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                self.reach_body(then_body, reached);
                self.reach_body(else_body, reached);
            }
            Exp::Loop { params, body, .. } => {
                for (p, init) in params {
                    self.reach_op(&Operand::Var(p.var), reached);
                    self.reach_op(init, reached);
                }
                self.reach_body(body, reached);
            }
            e => {
                let mut uses = HashSet::new();
                ir::uses::exp_uses(self.vars(), e, &mut uses);
                for v in uses {
                    self.reach_op(&Operand::Var(v), reached);
                }
                for (_, b) in ir::uses::nested_bodies(e) {
                    self.reach_body(b, reached);
                }
            }
        }
    }

    /// Rewrites the `while` loop `stm` as a `for` loop: statements it needs
    /// first are appended to `out`; returns the `for` loop and the
    /// statements that follow it.
    pub fn while_to_for(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<(Stm, Vec<Stm>)> {
        let Exp::Loop { params, form, body } = &stm.exp else {
            return Err(self.err("internal error: not a loop"));
        };
        let LoopForm::While { cond } = *form else {
            return Err(self.err("internal error: not a while loop"));
        };
        if stm.pat.len() != params.len() || body.result.len() != params.len() {
            return Err(self.err("a loop that binds fewer results than it has parameters"));
        }
        let Some(ci) = params.iter().position(|(p, _)| p.var == cond) else {
            return Err(self.err("internal error: a while condition that is not a parameter"));
        };
        let attrs: Vec<Attr> = stm
            .attrs
            .iter()
            .copied()
            .filter(|a| !matches!(a, Attr::Bound(_)))
            .collect();
        let j = self.fresh("while_iter", Type::scalar(PrimType::I64));
        match bound_attr(&stm.attrs) {
            Some(n) => {
                let n = n.max(0);
                let new_body = self.guarded_body(params, body, cond)?;
                let for_stm = Stm {
                    pat: stm.pat.clone(),
                    exp: Exp::Loop {
                        params: params.clone(),
                        form: LoopForm::For {
                            i: j,
                            bound: Operand::i64(n),
                        },
                        body: new_body,
                    },
                    attrs,
                    span: stm.span,
                };
                let mut after = Vec::new();
                let done = self.bind(
                    &mut after,
                    "while_done",
                    Exp::UnOp(ir::UnOp::Not, stm.pat[ci].into()),
                )?;
                self.push(
                    &mut after,
                    Vec::new(),
                    Exp::Assert {
                        cond: done.into(),
                        msg: format!("a while loop ran more than its bound({n}) iterations"),
                        args: Vec::new(),
                    },
                );
                Ok((for_stm, after))
            }
            None => {
                let count = self.inspect(out, stm, params, body, cond)?;
                let for_stm = Stm {
                    pat: stm.pat.clone(),
                    exp: Exp::Loop {
                        params: params.clone(),
                        form: LoopForm::For { i: j, bound: count },
                        body: body.clone(),
                    },
                    attrs,
                    span: stm.span,
                };
                Ok((for_stm, Vec::new()))
            }
        }
    }

    /// `if c then body else (params)`, as a body whose results are the
    /// loop's.
    fn guarded_body(&mut self, params: &[(Param, Operand)], body: &Body, c: VarId) -> R<Body> {
        let vars: Vec<VarId> = params.iter().map(|(p, _)| p.var).collect();
        let pat = self.fresh_like(&vars, "next");
        let mut stms = Vec::new();
        self.push(
            &mut stms,
            pat.clone(),
            Exp::If {
                cond: c.into(),
                then_body: body.clone(),
                else_body: Body {
                    stms: Vec::new(),
                    result: params.iter().map(|(p, _)| p.var.into()).collect(),
                },
            },
        );
        Ok(Body {
            stms,
            result: pat.into_iter().map(Operand::Var).collect(),
        })
    }

    /// Appends the inspector of a `while` loop: a renamed copy of the loop
    /// with one more parameter counting its iterations, run on copies of
    /// the arrays it consumes. Returns the count.
    fn inspect(
        &mut self,
        out: &mut Vec<Stm>,
        stm: &Stm,
        params: &[(Param, Operand)],
        body: &Body,
        cond: VarId,
    ) -> R<Operand> {
        let pvars: Vec<VarId> = params.iter().map(|(p, _)| p.var).collect();
        let (ps, mut body2) = self.rename(&pvars, body);
        let counter = self.fresh("while_count", Type::scalar(PrimType::I64));
        let next = self.bin(&mut body2.stms, BinOp::Add, counter.into(), Operand::i64(1))?;
        body2.result.push(next);
        let mut new_params = Vec::new();
        for ((p, init), v) in params.iter().zip(&ps) {
            let init = match init {
                Operand::Var(x) if p.unique && !self.ty(*x).shape.is_empty() => {
                    self.bind(out, "while_copy", Exp::Copy(*x))?.into()
                }
                o => *o,
            };
            new_params.push((
                Param {
                    var: *v,
                    unique: p.unique,
                },
                init,
            ));
        }
        new_params.push((Param::new(counter), Operand::i64(0)));
        let ci = pvars.iter().position(|v| *v == cond).unwrap_or(0);
        let mut pat = self.fresh_like(&stm.pat, "inspect");
        let total = self.fresh("while_total", Type::scalar(PrimType::I64));
        pat.push(total);
        out.push(Stm {
            pat,
            exp: Exp::Loop {
                params: new_params,
                form: LoopForm::While { cond: ps[ci] },
                body: body2,
            },
            attrs: Vec::new(),
            span: stm.span,
        });
        Ok(total.into())
    }
}
