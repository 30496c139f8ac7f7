//! Dead maps kept alive only by their assertions.
//!
//! A `screma` none of whose results is used is dead code, unless its
//! lambda holds an assertion: dead-code elimination keeps every statement
//! with an assertion inside. Hoisting takes an assertion whose operands are
//! bound outside the lambda out of it only when no statement before it can
//! fail (the first iteration would otherwise fail there first), so a map
//! that indexes before it asserts a size (a `map2` of a gathered row and a
//! small array literal, in the re-executed primal of reverse-mode AD) stays
//! alive for its assertions alone.
//!
//! When the `screma` is dead, those earlier statements need not run at
//! all: dead-code elimination removes statements that may fail (an index
//! out of bounds) without keeping their failure. So a dead `screma` whose
//! effects are only assertions at the top level of its map lambda (or `if`s
//! holding only assertions) whose operands are all bound outside the lambda
//! is replaced by those assertions, in order, guarded by `if 0 < w` unless
//! its width `w` is a positive constant: an empty map asserts nothing. Its
//! operators must hold no assertion, and it must take no accumulator. The
//! rest of the map is then gone.
//!
//! The rewrite runs with dead-code elimination in [`crate::simplify`].

use std::collections::{HashMap, HashSet};

use ir::uses::{body_binds, exp_free};
use ir::walk::use_counts;
use ir::{Body, CmpOp, Exp, Function, Operand, PrimType, Screma, Size, Stm, Type, VarId, VarInfo};

use crate::simplify::analysis::{has_effect, runs_at_least_once};
use crate::simplify::hoist::only_asserts;

/// Replaces every dead `screma` of `fun` that only its assertions keep
/// alive by those assertions (see the module doc). Returns true when
/// something changed.
pub fn lift_asserts(fun: &mut Function) -> bool {
    let counts = use_counts(fun);
    let mut body = std::mem::take(&mut fun.body);
    let changed = rewrite_body(fun, &counts, &mut body);
    fun.body = body;
    changed
}

/// Rewrites the statements of `b` and of every body nested in them.
fn rewrite_body(fun: &mut Function, counts: &HashMap<VarId, usize>, b: &mut Body) -> bool {
    let mut changed = false;
    let mut out = Vec::with_capacity(b.stms.len());
    for mut stm in std::mem::take(&mut b.stms) {
        for nb in ir::walk::nested_bodies_mut(&mut stm.exp) {
            changed |= rewrite_body(fun, counts, nb);
        }
        let lifted = match &stm.exp {
            Exp::Screma(s) if is_dead(fun, counts, &stm) => {
                lifted_asserts(fun, s).map(|asserts| (asserts, s.w))
            }
            _ => None,
        };
        match lifted {
            Some((asserts, w)) => {
                changed = true;
                out.extend(guarded(fun, asserts, w, stm.span));
            }
            None => out.push(stm),
        }
    }
    b.stms = out;
    changed
}

/// True when no variable `stm` binds is used, other than as a size in the
/// type of another variable of the same pattern.
fn is_dead(fun: &Function, counts: &HashMap<VarId, usize>, stm: &Stm) -> bool {
    let mut own: HashMap<VarId, usize> = HashMap::new();
    for v in &stm.pat {
        for d in fun.var_type(*v).map(|t| t.shape.as_slice()).unwrap_or(&[]) {
            if let Size::Var(s) = d
                && stm.pat.contains(s)
            {
                *own.entry(*s).or_default() += 1;
            }
        }
    }
    stm.pat
        .iter()
        .all(|v| counts.get(v).copied().unwrap_or(0) <= own.get(v).copied().unwrap_or(0))
}

/// The assertion statements of a `screma` whose only effects they are, when
/// their operands are bound outside its lambda; `None` otherwise.
fn lifted_asserts(fun: &Function, s: &Screma) -> Option<Vec<Stm>> {
    let takes_acc = s
        .inputs
        .iter()
        .any(|v| fun.var_type(*v).is_none_or(|t| t.acc));
    let op_effects = s
        .scans
        .iter()
        .chain(&s.reduces)
        .any(|sr| sr.op.body.stms.iter().any(|stm| has_effect(&stm.exp)));
    if takes_acc || op_effects {
        return None;
    }
    let mut inside: HashSet<VarId> = s.map.params.iter().map(|p| p.var).collect();
    body_binds(&s.map.body, &mut inside);
    let mut asserts = Vec::new();
    for stm in &s.map.body.stms {
        if !has_effect(&stm.exp) {
            continue;
        }
        if !only_asserts(stm) || !exp_free(&fun.vars, &stm.exp).is_disjoint(&inside) {
            return None;
        }
        asserts.push(stm.clone());
    }
    (!asserts.is_empty()).then_some(asserts)
}

/// `asserts`, guarded by `0 < w` unless `w` is a positive constant.
fn guarded(fun: &mut Function, asserts: Vec<Stm>, w: Operand, span: ir::Span) -> Vec<Stm> {
    if runs_at_least_once(&w) {
        return asserts;
    }
    let pos = fresh_var(fun, "nonempty", Type::scalar(PrimType::Bool));
    vec![
        Stm {
            pat: vec![pos],
            exp: Exp::Cmp(CmpOp::Lt, Operand::i64(0), w),
            attrs: Vec::new(),
            span,
        },
        Stm {
            pat: Vec::new(),
            exp: Exp::If {
                cond: pos.into(),
                then_body: Body {
                    stms: asserts,
                    result: Vec::new(),
                },
                else_body: Body::default(),
            },
            attrs: Vec::new(),
            span,
        },
    ]
}

/// A new variable of `fun` named `base` (numbered if taken).
fn fresh_var(fun: &mut Function, base: &str, ty: Type) -> VarId {
    let mut name = base.to_string();
    let mut k = 0;
    while fun.vars.values().any(|v| v.name == name) {
        k += 1;
        name = format!("{base}_{k}");
    }
    fun.vars.push(VarInfo { name, ty })
}
