//! Which variables of a `vjp`'s lambda depend on its parameters.
//!
//! A variable bound in the lambda whose value does not depend on the
//! parameters (data the lambda computes from free variables only, such as
//! the rows of a matrix it gathers) has a derivative of zero with respect
//! to them: reverse mode need not compute its adjoint, nor re-execute
//! what only that adjoint would read. [`varied`] finds the variables that
//! may depend on the parameters, going forwards through the body:
//!
//! - a statement's results depend on the parameters when any variable it
//!   mentions does;
//! - the `i`th parameter of a `screma`'s map lambda when its `i`th input
//!   does (not merely because the lambda reads a varied free variable), and
//!   the results of the `screma` when any result of its lambdas does or a
//!   neutral element does;
//! - the `k`th result of an `if` when the `k`th result of either branch
//!   does;
//! - a loop parameter when its initial value or the body's result at its
//!   position does (to a fixpoint), the loop's results like its parameters.
//!
//! Everything bound inside other constructs with bodies (`hist`,
//! `scatter`, `with_acc`, nested `jvp`/`vjp`) is taken as varied when the
//! construct mentions a varied variable. The analysis only ever errs
//! towards "varied", which costs work, never a wrong derivative.

use std::collections::HashSet;

use ir::uses::Vars;
use ir::{Body, Exp, Operand, VarId};

use crate::ctx::Ctx;

impl Ctx<'_> {
    /// Marks inactive the variables bound in `body` (the lambda of the
    /// `vjp` being expanded, with parameters `params`) that do not depend
    /// on the parameters. Only for a `vjp` inside no other: an enclosing
    /// `vjp` differentiates the code this expansion emits with respect to
    /// its own parameters, on which they may depend.
    pub fn mark_constants(&mut self, params: &[VarId], body: &Body) {
        if self.under_vjp > 0 {
            return;
        }
        let v = varied(self.vars(), params, body);
        let mut binds = HashSet::new();
        ir::uses::body_binds(body, &mut binds);
        self.inactive
            .extend(binds.into_iter().filter(|b| !v.contains(b)));
    }
}

/// The variables bound in `body` (nested bodies included), and `params`,
/// whose values may depend on `params`.
pub fn varied(vars: &Vars, params: &[VarId], body: &Body) -> HashSet<VarId> {
    let mut v: HashSet<VarId> = params.iter().copied().collect();
    walk_body(vars, body, &mut v);
    v
}

/// Adds to `v` the variables of `b` that depend on those already in `v`.
fn walk_body(vars: &Vars, b: &Body, v: &mut HashSet<VarId>) {
    for s in &b.stms {
        match &s.exp {
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                walk_body(vars, then_body, v);
                walk_body(vars, else_body, v);
                for (k, y) in s.pat.iter().enumerate() {
                    let r = |b: &Body| b.result.get(k).is_some_and(|o| is_varied(o, v));
                    if r(then_body) || r(else_body) {
                        v.insert(*y);
                    }
                }
            }
            Exp::Loop { params, body, .. } => {
                loop {
                    let before = v.len();
                    for (k, (p, init)) in params.iter().enumerate() {
                        let back = body.result.get(k).is_some_and(|o| is_varied(o, v));
                        if is_varied(init, v) || back {
                            v.insert(p.var);
                        }
                    }
                    walk_body(vars, body, v);
                    if v.len() == before {
                        break;
                    }
                }
                for (y, (p, _)) in s.pat.iter().zip(params) {
                    if v.contains(&p.var) {
                        v.insert(*y);
                    }
                }
            }
            Exp::Screma(sc) => {
                for (p, x) in sc.map.params.iter().zip(&sc.inputs) {
                    if v.contains(x) {
                        v.insert(p.var);
                    }
                }
                walk_body(vars, &sc.map.body, v);
                let mut any = sc.map.body.result.iter().any(|o| is_varied(o, v));
                for op in sc.scans.iter().chain(&sc.reduces) {
                    any |= op.neutral.iter().any(|o| is_varied(o, v));
                    let mut uses = HashSet::new();
                    ir::uses::lambda_uses(vars, &op.op, &mut uses);
                    any |= uses.iter().any(|u| v.contains(u));
                }
                if any {
                    v.extend(s.pat.iter().copied());
                    // The operators see the map's results.
                    for op in sc.scans.iter().chain(&sc.reduces) {
                        v.extend(op.op.params.iter().map(|p| p.var));
                        let mut binds = HashSet::new();
                        ir::uses::body_binds(&op.op.body, &mut binds);
                        v.extend(binds);
                    }
                }
            }
            e => {
                let mut uses = HashSet::new();
                ir::uses::exp_uses(vars, e, &mut uses);
                if uses.iter().any(|u| v.contains(u)) {
                    v.extend(s.pat.iter().copied());
                    for (ps, nb) in ir::uses::nested_bodies(e) {
                        v.extend(ps);
                        let mut binds = HashSet::new();
                        ir::uses::body_binds(nb, &mut binds);
                        v.extend(binds);
                    }
                }
            }
        }
    }
}

/// True when `o` is a variable in `v`.
fn is_varied(o: &Operand, v: &HashSet<VarId>) -> bool {
    o.var().is_some_and(|x| v.contains(&x))
}
