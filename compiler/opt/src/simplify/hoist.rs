//! Hoisting loop-invariant statements out of loops and out of the map
//! lambdas of `screma`, `hist` and `scatter`.
//!
//! A statement is hoisted when every variable it uses (and every size in
//! the types of what it binds) is bound outside the loop or lambda, it
//! consumes nothing, its results are not consumed, it contains no
//! assertion or call, and either it cannot fail at run time or the loop
//! (lambda) certainly runs at least once. Statements move in order, so a
//! statement that depends only on hoisted ones is hoisted too.

use std::collections::HashSet;

use ir::walk::{Occ, walk_body};
use ir::{Body, Exp, Function, Lambda, Stm, VarId};

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
                let safe = runs_at_least_once(&s.w);
                self.extract_lambda(&mut s.map, safe)
            }
            Exp::Hist(h) => {
                for op in &mut h.hists {
                    self.lambda(&mut op.op);
                }
                self.lambda(&mut h.map);
                let safe = runs_at_least_once(&h.w);
                self.extract_lambda(&mut h.map, safe)
            }
            Exp::Scatter(s) => {
                self.lambda(&mut s.map);
                let safe = runs_at_least_once(&s.w);
                self.extract_lambda(&mut s.map, safe)
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

    fn extract_lambda(&mut self, l: &mut Lambda, safe: bool) -> Vec<Stm> {
        let variant = l.params.iter().map(|p| p.var).collect();
        self.extract(&mut l.body, variant, safe)
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
