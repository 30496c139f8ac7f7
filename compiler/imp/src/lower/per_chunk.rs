//! Allocations once per chunk of a parallel loop.
//!
//! A parallel loop's iterations run in chunks, each chunk a sequential
//! loop on one thread. A block the body allocates at every iteration and
//! uses only within it can be allocated once in the chunk's prologue
//! (the loop's `chunk_prologue`) and reused by the chunk's
//! iterations, when
//!
//! - its handle is never shared (aliased, swapped, passed to or returned
//!   by a call, a parameter or result slot) and mentioned nowhere outside
//!   the loop, so the block cannot escape an iteration;
//! - every allocation of the handle is in the loop's body, of one size
//!   that depends on nothing the body sets;
//! - that size is known not to be negative (built by `+` and `*` from
//!   non-negative constants, array parameters' sizes, loop counters and
//!   variables only ever assigned such sizes), so allocating it before
//!   the iterations, or when the branch allocating it is not taken,
//!   cannot fail.

use std::collections::{HashMap, HashSet};

use ir::{BinOp, PrimValue};

use super::lifetimes::{collect_allocs, count_mentions, handle_use, remove_allocs};
use super::{Lowerer, Val};
use crate::syntax::*;

impl Lowerer<'_> {
    /// The scalar variables holding the sizes of the function's array
    /// parameters (size parameters and sizes passed with the array).
    pub(crate) fn size_scalars(&self) -> HashSet<SVar> {
        let mut out = HashSet::new();
        for p in &self.f.params {
            if let Some(Val::Array(view)) = self.env.get(&p.var) {
                for d in &view.shape {
                    if let SExp::Var(v) = d {
                        out.insert(*v);
                    }
                }
            }
        }
        out
    }
}

/// Moves the allocations of each parallel loop of `f` that may run once
/// per chunk into the loop's chunk prologue; `sizes` are the scalars
/// known to be array sizes (never negative).
pub(crate) fn allocate_per_chunk(f: &mut Function, sizes: &HashSet<SVar>) {
    let nonneg = nonnegative_vars(f, sizes);
    let uses = handle_use(f);
    let total = count_mentions(&f.body.stms);
    let cx = Cx {
        nonneg,
        shared: uses.shared,
        allocs: uses.allocs,
        total,
    };
    walk(&mut f.body.stms, &cx);
}

/// What the function does with its handles and scalars.
struct Cx {
    nonneg: HashSet<SVar>,
    shared: HashSet<MemId>,
    allocs: HashMap<MemId, Vec<SExp>>,
    total: HashMap<MemId, usize>,
}

fn walk(stms: &mut [Stm], cx: &Cx) {
    for k in 0..stms.len() {
        // A group loop's prologue is its local memory: nothing moves there.
        if matches!(
            stms[k],
            Stm::ParFor {
                kind: ParKind::Groups { .. },
                ..
            }
        ) {
            continue;
        }
        if matches!(stms[k], Stm::ParFor { .. }) {
            let here = count_mentions(&stms[k..=k]);
            if let Stm::ParFor {
                body,
                chunk_prologue,
                ..
            } = &mut stms[k]
            {
                to_prologue(body, chunk_prologue, &here, cx);
            }
            continue;
        }
        match &mut stms[k] {
            Stm::For { body, .. } | Stm::While { body, .. } | Stm::Planned { body, .. } => {
                walk(&mut body.stms, cx)
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                walk(&mut then_block.stms, cx);
                walk(&mut else_block.stms, cx);
            }
            _ => {}
        }
    }
}

/// Moves the allocations of one parallel loop's body that may run once
/// per chunk to its prologue; `here` counts the mentions of each handle
/// in the loop.
fn to_prologue(body: &mut Block, prologue: &mut usize, here: &HashMap<MemId, usize>, cx: &Cx) {
    let mut found: HashMap<MemId, Vec<SExp>> = HashMap::new();
    collect_allocs(&body.stms[(*prologue).min(body.stms.len())..], &mut found);
    let mut set = HashSet::new();
    sets_vars(&body.stms, &mut set);
    let mut moved: Vec<(MemId, SExp)> = found
        .into_iter()
        .filter(|(m, counts)| {
            let count = &counts[0];
            let mut vars = HashSet::new();
            count.for_each_var(&mut |v| {
                vars.insert(v);
            });
            !cx.shared.contains(m)
                && here.get(m) == cx.total.get(m)
                && cx.allocs.get(m).map(Vec::len) == Some(counts.len())
                && counts.iter().all(|c| c == count)
                && vars.is_disjoint(&set)
                && nonnegative(count, &cx.nonneg)
        })
        .map(|(m, counts)| (m, counts[0].clone()))
        .collect();
    if moved.is_empty() {
        return;
    }
    moved.sort_by_key(|(m, _)| *m);
    let mems: HashSet<MemId> = moved.iter().map(|(m, _)| *m).collect();
    let at = (*prologue).min(body.stms.len());
    let mut rest = body.stms.split_off(at);
    remove_allocs(&mut rest, &mems);
    *prologue = at + moved.len();
    body.stms.extend(
        moved
            .into_iter()
            .map(|(mem, count)| Stm::Alloc { mem, count }),
    );
    body.stms.extend(rest);
}

/// The scalars `stms` set: assignments, reads, loop counters, atomic
/// updates' old values and call results.
fn sets_vars(stms: &[Stm], out: &mut HashSet<SVar>) {
    for s in stms {
        match s {
            Stm::Assign { var, .. } | Stm::Read { var, .. } => {
                out.insert(*var);
            }
            Stm::For { i, body, .. } => {
                out.insert(*i);
                sets_vars(&body.stms, out);
            }
            Stm::ParFor { ids, body, .. } => {
                out.extend(ids.iter().copied());
                sets_vars(&body.stms, out);
            }
            Stm::While { body, .. } | Stm::Planned { body, .. } => sets_vars(&body.stms, out),
            Stm::AtomicUpdate { old, body, .. } => {
                out.insert(*old);
                sets_vars(&body.stms, out);
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                sets_vars(&then_block.stms, out);
                sets_vars(&else_block.stms, out);
            }
            Stm::Call { results, .. } => {
                for r in results {
                    if let Slot::Scalar(v) = r {
                        out.insert(*v);
                    }
                }
            }
            Stm::Alloc { .. }
            | Stm::SwapMem(..)
            | Stm::AliasMem { .. }
            | Stm::Write { .. }
            | Stm::Copy { .. }
            | Stm::Assert { .. }
            | Stm::Barrier => {}
        }
    }
}

/// Whether `e` is built by `+` and `*` from non-negative `i64` constants
/// and variables of `nonneg`.
fn nonnegative(e: &SExp, nonneg: &HashSet<SVar>) -> bool {
    match e {
        SExp::Const(PrimValue::I64(x)) => *x >= 0,
        SExp::Var(v) => nonneg.contains(v),
        SExp::BinOp(BinOp::Add | BinOp::Mul, a, b) => {
            nonnegative(a, nonneg) && nonnegative(b, nonneg)
        }
        _ => false,
    }
}

/// How a scalar is set, for [`nonnegative_vars`].
#[derive(Default)]
struct Defs<'a> {
    /// The expressions assigned to each variable.
    assigned: HashMap<SVar, Vec<&'a SExp>>,
    /// Loop counters (from 0 up).
    counters: HashSet<SVar>,
    /// Variables set some other way (reads, calls, atomic updates).
    other: HashSet<SVar>,
}

fn defs<'a>(stms: &'a [Stm], d: &mut Defs<'a>) {
    for s in stms {
        match s {
            Stm::Assign { var, exp, .. } => d.assigned.entry(*var).or_default().push(exp),
            Stm::Read { var, .. } => {
                d.other.insert(*var);
            }
            Stm::For { i, body, .. } => {
                d.counters.insert(*i);
                defs(&body.stms, d);
            }
            Stm::ParFor { ids, body, .. } => {
                d.counters.extend(ids.iter().copied());
                defs(&body.stms, d);
            }
            Stm::While { body, .. } | Stm::Planned { body, .. } => defs(&body.stms, d),
            Stm::AtomicUpdate { old, body, .. } => {
                d.other.insert(*old);
                defs(&body.stms, d);
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                defs(&then_block.stms, d);
                defs(&else_block.stms, d);
            }
            Stm::Call { results, .. } => {
                for r in results {
                    if let Slot::Scalar(v) = r {
                        d.other.insert(*v);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The scalars of `f` that are never negative: the sizes `sizes`, loop
/// counters, and the variables every assignment of which is
/// [`nonnegative`] (the largest such set: by induction on the order of
/// the assignments, each value assigned is then non-negative).
fn nonnegative_vars(f: &Function, sizes: &HashSet<SVar>) -> HashSet<SVar> {
    let mut d = Defs::default();
    defs(&f.body.stms, &mut d);
    let params: HashSet<SVar> = f
        .params
        .iter()
        .filter_map(|s| match s {
            Slot::Scalar(v) => Some(*v),
            Slot::Mem(_) => None,
        })
        .collect();
    let mut nonneg: HashSet<SVar> = HashSet::new();
    for v in sizes {
        if !d.other.contains(v) && !d.assigned.contains_key(v) && !d.counters.contains(v) {
            nonneg.insert(*v);
        }
    }
    for v in &d.counters {
        if !d.other.contains(v) && !d.assigned.contains_key(v) && !params.contains(v) {
            nonneg.insert(*v);
        }
    }
    let mut assigned: HashSet<SVar> = d
        .assigned
        .keys()
        .filter(|v| !d.other.contains(v) && !d.counters.contains(v) && !params.contains(v))
        .copied()
        .collect();
    loop {
        let all: HashSet<SVar> = nonneg.union(&assigned).copied().collect();
        let before = assigned.len();
        assigned.retain(|v| d.assigned[v].iter().all(|e| nonnegative(e, &all)));
        if assigned.len() == before {
            nonneg.extend(assigned);
            return nonneg;
        }
    }
}
