//! Splitting a statement whose results are partly invariant, so that the
//! invariant part can be hoisted ([`super::hoist`]).
//!
//! In a loop body or map lambda, a `screma`, `if` or loop statement may
//! compute some results from variables bound outside only, and others from
//! the lambda's (loop's) own variables. Forward-mode AD makes such
//! statements everywhere: the tangent of a map is computed by the same map
//! as its value, so a `jvp` inside a map over directions recomputes the
//! whole value once per direction. Such a statement is split in two:
//!
//! - a copy of it restricted to its invariant results (dead-code
//!   elimination drops the rest, down to the components of reduction
//!   operators), with fresh variables inside, which moves out;
//! - the statement restricted to its other results, which stays.
//!
//! A result is invariant when the statement restricted to it uses no
//! variant variable. The remainder recomputes the invariant values it
//! needs itself, so the work inside never grows; the copy runs once instead
//! of once per iteration. A unique loop parameter of the copy gets a fresh
//! `copy` of its initial value (of the source of that value, when it is
//! itself a `copy`), which moves out with it. The split is made only when
//! the copy can be hoisted: no call inside, and it cannot fail (has no
//! assertion) or the loop or map runs at least once. Assertions are copied
//! with the rest: the copy checks them first, and the remainder again.

use std::collections::{HashMap, HashSet};

use ir::walk::{Occ, Slot, subst_slot, subst_type, walk_exp, walk_exp_mut};
use ir::{Body, Exp, Operand, Stm, VarId};

use super::analysis::{free_vars, has_call};
use super::dce::dce_body;
use super::hoist::{Hoister, Relax};

impl Hoister<'_> {
    /// Splits `stm`, a statement of a loop body or map lambda whose variant
    /// variables are `variant`, into statements to hoist (in order) and the
    /// statement that stays; `None` when it has no invariant result, only
    /// invariant ones, or its invariant part cannot be hoisted. `kept` are
    /// the statements of the body kept so far, `pending` the variables of
    /// those waiting to move out with their user (the copy must not use
    /// them), `returned` how many times the body's result names each
    /// variable.
    pub(super) fn split(
        &mut self,
        stm: &Stm,
        variant: &HashSet<VarId>,
        safe: bool,
        kept: &[Option<Stm>],
        pending: &HashSet<VarId>,
        returned: &HashMap<VarId, usize>,
    ) -> Option<(Vec<Stm>, Stm)> {
        if !matches!(stm.exp, Exp::Screma(_) | Exp::If { .. } | Exp::Loop { .. })
            || stm.pat.len() < 2
            || has_call(&stm.exp)
            || stm
                .pat
                .iter()
                .any(|v| self.fun.var_type(*v).is_none_or(|t| t.acc))
            || free_vars(&stm.exp, self.fun).is_disjoint(variant)
        {
            return None;
        }
        let outside = |h: &Hoister<'_>, s: &Stm| {
            let free = free_vars(&s.exp, h.fun);
            free.is_disjoint(variant) && free.is_disjoint(pending)
        };
        // The copy of a loop starts its unique parameters from copies of
        // their initial values' sources (see `copy_source`).
        let mut probe = stm.clone();
        if let Exp::Loop { params, .. } = &mut probe.exp {
            for (p, init) in params.iter_mut() {
                if let (true, Operand::Var(v)) = (p.unique, *init) {
                    *init = Operand::Var(copy_source(kept, v).unwrap_or(v));
                }
            }
        }
        let n = stm.pat.len();
        let mut inv = vec![false; n];
        for (k, flag) in inv.iter_mut().enumerate() {
            // Only a result another statement uses is worth a copy: that
            // statement may move out too. (A result nothing uses is one of a
            // remainder's, needed inside it.)
            let uses = self.uses.get(&stm.pat[k]).copied().unwrap_or(0);
            if uses <= returned.get(&stm.pat[k]).copied().unwrap_or(0) {
                continue;
            }
            let only: Vec<bool> = (0..n).map(|j| j == k).collect();
            *flag = self
                .restrict(&probe, &only)
                .is_some_and(|r| outside(self, &r))
                && self.fun.var_type(stm.pat[k]).is_some_and(|t| {
                    t.shape
                        .iter()
                        .all(|d| !matches!(d, ir::Size::Var(s) if variant.contains(s)))
                });
        }
        if inv.iter().all(|&i| i) || !inv.iter().any(|&i| i) {
            return None;
        }
        let mut copy = self.restrict(&probe, &inv)?;
        let inv_vars: HashSet<VarId> = (0..n).filter(|&k| inv[k]).map(|k| stm.pat[k]).collect();
        if !copy.pat.iter().all(|v| inv_vars.contains(v)) || !outside(self, &copy) {
            return None;
        }
        let mut out = Vec::new();
        let mut allowed = HashSet::new();
        if let Exp::Loop { params, .. } = &mut copy.exp {
            for (p, init) in params.iter_mut() {
                let Operand::Var(source) = *init else {
                    continue;
                };
                if !p.unique {
                    continue;
                }
                let ty = self.fun.var_type(source)?.clone();
                let base = self.fun.vars[source].name.clone();
                let fresh = self.fresh_var(&base, ty);
                out.push(Stm {
                    pat: vec![fresh],
                    exp: Exp::Copy(source),
                    attrs: Vec::new(),
                    span: stm.span,
                });
                *init = Operand::Var(fresh);
                allowed.insert(fresh);
            }
        }
        let none = HashSet::new();
        if !out
            .iter()
            .all(|s| self.hoistable(s, variant, safe, &none, Relax::CONSUMED))
        {
            return None;
        }
        self.rename_inside(&mut copy);
        if !self.hoistable(&copy, variant, safe, &allowed, Relax::ASSERTS) {
            return None;
        }
        let mut rest = stm.clone();
        for (v, _) in rest.pat.iter_mut().zip(&inv).filter(|(_, i)| **i) {
            let name = self.fun.vars[*v].name.clone();
            let ty = self.fun.vars[*v].ty.clone();
            *v = self.fresh_var(&name, ty);
        }
        let keep: Vec<bool> = inv.iter().map(|i| !i).collect();
        let rest = self.restrict(&rest, &keep)?;
        out.push(copy);
        Some((out, rest))
    }

    /// `stm` restricted to the results at the positions `keep`: dead-code
    /// elimination of a body holding only `stm` and returning those.
    /// Positions another kept result needs (a loop parameter) stay.
    fn restrict(&self, stm: &Stm, keep: &[bool]) -> Option<Stm> {
        let mut b = Body {
            stms: vec![stm.clone()],
            result: stm
                .pat
                .iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(v, _)| Operand::Var(*v))
                .collect(),
        };
        dce_body(self.fun, &mut b);
        b.stms.pop()
    }

    /// Gives every variable bound inside `stm` (not its pattern) a fresh
    /// variable, so that `stm` can stand next to the statement it copies.
    fn rename_inside(&mut self, stm: &mut Stm) {
        let mut bound = Vec::new();
        walk_exp(&stm.exp, &mut |o| {
            if let Occ::Bind(v) = o {
                bound.push(v);
            }
        });
        let mut map: HashMap<VarId, Operand> = HashMap::new();
        let mut fresh = Vec::new();
        for v in bound {
            if map.contains_key(&v) {
                continue;
            }
            let info = self.fun.vars[v].clone();
            let n = self.fresh_var(&info.name, info.ty);
            map.insert(v, Operand::Var(n));
            fresh.push(n);
        }
        for n in fresh {
            subst_type(&map, &mut self.fun.vars[n].ty);
        }
        walk_exp_mut(&mut stm.exp, &mut |s| match s {
            Slot::Bind(v) => {
                if let Some(Operand::Var(n)) = map.get(v) {
                    *v = *n;
                }
            }
            other => subst_slot(&map, other),
        });
    }
}

/// The array `v` is a copy of, when one of the statements `kept` binds it
/// by `copy`.
fn copy_source(kept: &[Option<Stm>], v: VarId) -> Option<VarId> {
    kept.iter().flatten().find_map(|s| match s.exp {
        Exp::Copy(x) if s.pat == [v] => Some(x),
        _ => None,
    })
}
