//! Hoisting loop-invariant statements out of loops and out of the map
//! lambdas of `screma`, `hist` and `scatter`.
//!
//! A statement is hoisted when every variable it uses (and every size in
//! the types of what it binds) is bound outside the loop or lambda, it
//! consumes nothing bound outside, its results are not consumed, it
//! contains no assertion or call, and either it cannot fail at run time or
//! the loop (lambda) certainly runs at least once. Statements move in
//! order, so a statement that depends only on hoisted ones is hoisted too.
//!
//! A statement that could move but for its results being consumed, each
//! by one use only (a `copy` that a loop updates in place), waits for that
//! use: when the statement using it moves out, both do (the loop then
//! consumes its own copy once); otherwise both stay. A statement with both
//! invariant and variant results is split first ([`super::fission`]).
//!
//! An assertion of a map lambda (`screma`, `hist`, `scatter`) whose
//! operands are bound outside moves out too, when no statement before it
//! in the lambda can fail: the first iteration would fail there first. It
//! is guarded by `if 0 < w` (unless the width `w` is a positive
//! constant), so an empty map still fails on nothing; such a guarded
//! assertion moves out of an enclosing map the same way. Without its
//! assertions, a map that is not used any more is dead code (the
//! re-executed primal of reverse-mode AD, for one).

use std::collections::{HashMap, HashSet};

use ir::walk::{Occ, walk_body};
use ir::{Body, CmpOp, Exp, Function, Lambda, Operand, Stm, Type, VarId, VarInfo};

use super::analysis::{
    UniqueParams, consumes, free_consumed, free_vars, has_call, has_effect,
    loop_runs_at_least_once, may_fail, runs_at_least_once,
};

/// What hoisting needs to know about the function.
pub struct Hoister<'a> {
    /// The function (its body is taken out while hoisting); the variables
    /// made while hoisting are added to it.
    pub fun: &'a mut Function,
    /// Unique parameters of every function.
    pub uniq: &'a UniqueParams,
    /// Variables consumed somewhere (closed under aliasing).
    pub consumed: &'a HashSet<VarId>,
    /// Variables consumed somewhere, with a loop's results not aliasing
    /// what its body binds ([`super::analysis::consumed_after`]).
    consumed_after: HashSet<VarId>,
    /// The number of uses of each variable ([`ir::walk::use_counts`]),
    /// counted before hoisting.
    pub uses: HashMap<VarId, usize>,
    /// Set when something moved.
    pub changed: bool,
    /// The names of the function's variables, to name new ones.
    names: HashSet<String>,
}

impl<'a> Hoister<'a> {
    /// A hoister for `fun`, whose body has been taken out; `consumed`,
    /// `consumed_after` and `uses` are computed before that
    /// ([`super::analysis::consumed_vars`],
    /// [`super::analysis::consumed_after`], [`ir::walk::use_counts`]).
    pub fn new(
        fun: &'a mut Function,
        uniq: &'a UniqueParams,
        consumed: &'a HashSet<VarId>,
        consumed_after: HashSet<VarId>,
        uses: HashMap<VarId, usize>,
    ) -> Hoister<'a> {
        let names = fun.vars.values().map(|v| v.name.clone()).collect();
        Hoister {
            fun,
            uniq,
            consumed,
            consumed_after,
            uses,
            changed: false,
            names,
        }
    }

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

    /// A new variable of the function, named `base` or `base_N`.
    pub(super) fn fresh_var(&mut self, base: &str, ty: Type) -> VarId {
        let mut name = base.to_string();
        let mut k = 0;
        while self.names.contains(&name) {
            k += 1;
            name = format!("{base}_{k}");
        }
        self.names.insert(name.clone());
        self.fun.vars.push(VarInfo { name, ty })
    }

    /// Takes the invariant statements out of `b` (a loop body or map lambda
    /// whose parameters are `variant`), in order. A statement with both
    /// invariant and variant results is split first ([`Self::split`]). An
    /// invariant statement whose results are consumed, each used once, waits
    /// for its user: it moves out with it, or stays.
    fn extract(&mut self, b: &mut Body, mut variant: HashSet<VarId>, safe: bool) -> Vec<Stm> {
        let mut hoisted = Vec::new();
        let mut kept: Vec<Option<Stm>> = Vec::new();
        let mut pending: HashMap<VarId, usize> = HashMap::new();
        let none = HashSet::new();
        let mut returned: HashMap<VarId, usize> = HashMap::new();
        for v in b.result.iter().filter_map(Operand::var) {
            *returned.entry(v).or_default() += 1;
        }
        for stm in std::mem::take(&mut b.stms) {
            let free = free_vars(&stm.exp, self.fun);
            let mut needs: Vec<usize> = free
                .iter()
                .filter_map(|v| pending.get(v).copied())
                .collect();
            needs.sort_unstable();
            needs.dedup();
            let allowed: HashSet<VarId> = needs
                .iter()
                .filter_map(|&i| kept[i].as_ref())
                .flat_map(|s| s.pat.iter().copied())
                .collect();
            if self.hoistable(&stm, &variant, safe, &allowed, Relax::NONE) {
                for &i in &needs {
                    if let Some(h) = kept[i].take() {
                        hoisted.push(h);
                    }
                }
                pending.retain(|v, _| !allowed.contains(v));
                hoisted.push(stm);
                continue;
            }
            let pending_vars: HashSet<VarId> = pending.keys().copied().collect();
            let (stm, split) =
                match self.split(&stm, &variant, safe, &kept, &pending_vars, &returned) {
                    Some((out, rest)) => {
                        hoisted.extend(out);
                        (rest, true)
                    }
                    None => (stm, false),
                };
            if !split
                && needs.is_empty()
                && self.hoistable(&stm, &variant, safe, &none, Relax::CONSUMED)
                && stm.pat.iter().all(|v| self.uses.get(v) == Some(&1))
            {
                for v in &stm.pat {
                    pending.insert(*v, kept.len());
                }
                kept.push(Some(stm));
                continue;
            }
            for v in &allowed {
                pending.remove(v);
                variant.insert(*v);
            }
            mark_bound(&stm, &mut variant);
            kept.push(Some(stm));
        }
        b.stms = kept.into_iter().flatten().collect();
        if !hoisted.is_empty() {
            self.changed = true;
        }
        hoisted
    }

    /// True when `stm` may move out of a loop body or map lambda whose
    /// variant variables are `variant` (`safe`: it certainly runs at least
    /// once). It may consume the variables `allowed` (bound by statements
    /// moving out with it, used only here) and variables bound inside it;
    /// `relax` lifts two more conditions.
    pub(super) fn hoistable(
        &self,
        stm: &Stm,
        variant: &HashSet<VarId>,
        safe: bool,
        allowed: &HashSet<VarId>,
        relax: Relax,
    ) -> bool {
        let e = &stm.exp;
        !stm.pat.is_empty()
            && !matches!(e, Exp::Atom(_) | Exp::Scratch { .. })
            && !stm.pat.iter().any(|v| {
                (!relax.results_consumed && self.consumed_after.contains(v))
                    || self.fun.var_type(*v).is_none_or(|t| t.acc)
            })
            && if relax.asserts {
                safe && !has_call(e)
            } else {
                !has_effect(e)
            }
            && self.consumption_ok(e, allowed)
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

    /// True when `e` consumes nothing, or only variables bound inside it
    /// and the variables `allowed`, and uses no other variable consumed
    /// somewhere (or aliasing one).
    fn consumption_ok(&self, e: &Exp, allowed: &HashSet<VarId>) -> bool {
        if !consumes(e, self.fun, self.uniq) {
            return true;
        }
        free_consumed(e, self.fun, self.uniq).is_subset(allowed)
            && free_vars(e, self.fun)
                .iter()
                .all(|v| !self.consumed.contains(v) || allowed.contains(v))
    }
}

/// Conditions of [`Hoister::hoistable`] that may be lifted.
#[derive(Clone, Copy, Debug)]
pub(super) struct Relax {
    /// The statement's results may be consumed (it moves out with the one
    /// statement consuming them, or not at all).
    pub results_consumed: bool,
    /// The statement may contain assertions (not calls), when the loop or
    /// map certainly runs at least once: the copy a split hoists keeps
    /// the assertions of what it copies, which the statement left inside
    /// checks again.
    pub asserts: bool,
}

impl Relax {
    /// Every condition holds.
    pub const NONE: Relax = Relax {
        results_consumed: false,
        asserts: false,
    };
    /// Results may be consumed.
    pub const CONSUMED: Relax = Relax {
        results_consumed: true,
        asserts: false,
    };
    /// Assertions are allowed.
    pub const ASSERTS: Relax = Relax {
        results_consumed: false,
        asserts: true,
    };
}

/// Adds the variables `stm` binds (its pattern and everything nested) to
/// `set`.
pub(super) fn mark_bound(stm: &Stm, set: &mut HashSet<VarId>) {
    set.extend(stm.pat.iter().copied());
    ir::walk::walk_exp(&stm.exp, &mut |o| {
        if let Occ::Bind(v) = o {
            set.insert(v);
        }
    });
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
