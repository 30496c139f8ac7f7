//! Hoisting loop-invariant statements out of loops and out of the map
//! lambdas of `screma`, `hist` and `scatter`.
//!
//! A statement is hoisted when every variable it uses (and every size in
//! the types of what it binds) is bound outside the loop or lambda, it
//! consumes nothing, its results are not consumed, it contains no
//! assertion or call, and either it cannot fail at run time or the loop
//! (lambda) certainly runs at least once. Statements move in order, so a
//! statement that depends only on hoisted ones is hoisted too.
//!
//! An assertion of a map lambda (`screma`, `hist`, `scatter`) whose
//! operands are bound outside moves out too, when no statement before it
//! in the lambda can fail: the first iteration would fail there first. It
//! is guarded by `if 0 < w` (unless the width `w` is a positive
//! constant), so an empty map still fails on nothing; such a guarded
//! assertion moves out of an enclosing map the same way. Without its
//! assertions, a map that is not used any more is dead code (the
//! re-executed primal of reverse-mode AD, for one).

use std::collections::HashSet;

use ir::ids::EntityId;
use ir::walk::{Occ, walk_body};
use ir::{Body, CmpOp, Exp, Function, Lambda, Operand, Stm, Type, VarId, VarInfo};

use super::analysis::{
    UniqueParams, consumes, free_vars, has_effect, loop_runs_at_least_once, may_fail,
    runs_at_least_once,
};

/// What hoisting needs to know about the function.
pub struct Hoister<'a> {
    /// The function (its body is taken out while hoisting).
    pub fun: &'a Function,
    /// Unique parameters of every function.
    pub uniq: &'a UniqueParams,
    /// Variables consumed somewhere (closed under aliasing).
    pub consumed: &'a HashSet<VarId>,
    /// Set when something moved.
    pub changed: bool,
    /// Variables made while hoisting, to be added to the function's
    /// variables in order (their ids follow the function's last one).
    pub new_vars: Vec<VarInfo>,
}

impl Hoister<'_> {
    /// Hoists in `b` and in everything nested in it, bottom-up.
    pub fn body(&mut self, b: &mut Body) {
        let mut out = Vec::with_capacity(b.stms.len());
        for mut stm in std::mem::take(&mut b.stms) {
            let hoisted = self.stm(&mut stm);
            out.extend(hoisted);
            out.push(stm);
        }
        b.stms = out;
    }

    fn lambda(&mut self, l: &mut Lambda) {
        self.body(&mut l.body);
    }

    /// Recurses into `stm`, then takes the invariant statements out of its
    /// loop body or map lambda.
    fn stm(&mut self, stm: &mut Stm) -> Vec<Stm> {
        match &mut stm.exp {
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                self.body(then_body);
                self.body(else_body);
                vec![]
            }
            Exp::Loop { params, form, body } => {
                self.body(body);
                let mut variant: HashSet<VarId> = params.iter().map(|(p, _)| p.var).collect();
                if let ir::LoopForm::For { i, .. } = form {
                    variant.insert(*i);
                }
                let safe = loop_runs_at_least_once(form, params);
                self.extract(body, variant, safe)
            }
            Exp::Screma(s) => {
                for sr in s.scans.iter_mut().chain(s.reduces.iter_mut()) {
                    self.lambda(&mut sr.op);
                }
                self.lambda(&mut s.map);
                let w = s.w;
                self.extract_lambda(&mut s.map, w)
            }
            Exp::Hist(h) => {
                for op in &mut h.hists {
                    self.lambda(&mut op.op);
                }
                self.lambda(&mut h.map);
                let w = h.w;
                self.extract_lambda(&mut h.map, w)
            }
            Exp::Scatter(s) => {
                self.lambda(&mut s.map);
                let w = s.w;
                self.extract_lambda(&mut s.map, w)
            }
            Exp::WithAcc(w) => {
                for i in &mut w.inputs {
                    if let Some((l, _)) = &mut i.op {
                        self.lambda(l);
                    }
                }
                self.lambda(&mut w.lambda);
                vec![]
            }
            Exp::Jvp(a) | Exp::Vjp(a) => {
                self.lambda(&mut a.lambda);
                vec![]
            }
            Exp::CustomVjp(c) => {
                self.lambda(&mut c.f);
                self.lambda(&mut c.fprime);
                vec![]
            }
            _ => vec![],
        }
    }

    /// Takes the invariant statements, then the invariant assertions, out
    /// of the lambda of a map of width `w`.
    fn extract_lambda(&mut self, l: &mut Lambda, w: Operand) -> Vec<Stm> {
        let safe = runs_at_least_once(&w);
        let variant: HashSet<VarId> = l.params.iter().map(|p| p.var).collect();
        let mut hoisted = self.extract(&mut l.body, variant.clone(), safe);
        hoisted.extend(self.extract_asserts(&mut l.body, variant, w));
        hoisted
    }

    /// The assertions of `b` (and `if`s holding only assertions) whose
    /// operands are invariant and before which no statement can fail,
    /// taken out of `b` and guarded by `0 < w` unless `w` is positive.
    fn extract_asserts(
        &mut self,
        b: &mut Body,
        mut variant: HashSet<VarId>,
        w: Operand,
    ) -> Vec<Stm> {
        let mut out = Vec::new();
        let mut taken = Vec::new();
        let mut clean = true;
        let mut kept = Vec::new();
        for stm in std::mem::take(&mut b.stms) {
            if clean && only_asserts(&stm) && free_vars(&stm.exp, self.fun).is_disjoint(&variant) {
                taken.push(stm);
                continue;
            }
            clean &= !has_effect(&stm.exp) && !may_fail(&stm.exp, self.fun);
            walk_body(
                &Body {
                    stms: vec![stm.clone()],
                    result: vec![],
                },
                &mut |o| {
                    if let Occ::Bind(v) = o {
                        variant.insert(v);
                    }
                },
            );
            kept.push(stm);
        }
        b.stms = kept;
        if taken.is_empty() {
            return out;
        }
        self.changed = true;
        if runs_at_least_once(&w) {
            return taken;
        }
        let pos = self.fresh_var("nonempty", Type::scalar(ir::PrimType::Bool));
        let span = taken[0].span;
        out.push(Stm {
            pat: vec![pos],
            exp: Exp::Cmp(CmpOp::Lt, Operand::i64(0), w),
            attrs: Vec::new(),
            span,
        });
        out.push(Stm {
            pat: Vec::new(),
            exp: Exp::If {
                cond: pos.into(),
                then_body: Body {
                    stms: taken,
                    result: Vec::new(),
                },
                else_body: Body::default(),
            },
            attrs: Vec::new(),
            span,
        });
        out
    }

    /// A new variable, numbered after the function's variables and the
    /// ones made before it.
    fn fresh_var(&mut self, base: &str, ty: Type) -> VarId {
        let taken = |n: &str| {
            self.fun.vars.values().any(|v| v.name == n) || self.new_vars.iter().any(|v| v.name == n)
        };
        let mut name = base.to_string();
        let mut k = 0;
        while taken(&name) {
            k += 1;
            name = format!("{base}_{k}");
        }
        let id = VarId::new(self.fun.vars.len() + self.new_vars.len());
        self.new_vars.push(VarInfo { name, ty });
        id
    }

    fn extract(&mut self, b: &mut Body, mut variant: HashSet<VarId>, safe: bool) -> Vec<Stm> {
        let mut hoisted = Vec::new();
        let mut kept = Vec::new();
        for stm in std::mem::take(&mut b.stms) {
            if self.hoistable(&stm, &variant, safe) {
                hoisted.push(stm);
            } else {
                walk_body(
                    &Body {
                        stms: vec![stm.clone()],
                        result: vec![],
                    },
                    &mut |o| {
                        if let Occ::Bind(v) = o {
                            variant.insert(v);
                        }
                    },
                );
                kept.push(stm);
            }
        }
        b.stms = kept;
        if !hoisted.is_empty() {
            self.changed = true;
        }
        hoisted
    }

    fn hoistable(&self, stm: &Stm, variant: &HashSet<VarId>, safe: bool) -> bool {
        let e = &stm.exp;
        !stm.pat.is_empty()
            && !matches!(e, Exp::Atom(_) | Exp::Scratch { .. })
            && !stm
                .pat
                .iter()
                .any(|v| self.consumed.contains(v) || self.fun.var_type(*v).is_none_or(|t| t.acc))
            && !has_effect(e)
            && !consumes(e, self.fun, self.uniq)
            && (safe || !may_fail(e, self.fun))
            && free_vars(e, self.fun).is_disjoint(variant)
            && stm.pat.iter().all(|v| {
                self.fun.var_type(*v).is_some_and(|t| {
                    t.shape
                        .iter()
                        .all(|d| !matches!(d, ir::Size::Var(s) if variant.contains(s)))
                })
            })
    }
}

/// True for an assertion, or an `if` without results whose branches hold
/// only such statements.
pub(crate) fn only_asserts(stm: &Stm) -> bool {
    match &stm.exp {
        Exp::Assert { .. } => true,
        Exp::If {
            then_body,
            else_body,
            ..
        } => {
            stm.pat.is_empty()
                && [then_body, else_body]
                    .iter()
                    .all(|b| b.result.is_empty() && b.stms.iter().all(only_asserts))
        }
        _ => false,
    }
}
