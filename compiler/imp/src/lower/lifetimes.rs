//! Block lifetimes, decided on a lowered function:
//!
//! - **a branch's fresh block goes straight into the `if`'s handle.** A
//!   branch that builds its array in a block of its own and passes it on
//!   (`out = arr`) leaves two handles sharing one block; in a loop, the
//!   next iteration's `alloc` of `arr` then finds its block shared and
//!   allocates anew (one allocation and one free per iteration). When the
//!   branch's handle is used nowhere else, it is renamed to the `if`'s
//!   handle and the alias dropped, so the allocation reuses the block
//!   the handle held before ([`coalesce_branch_handles`]);
//! - **an allocation of constant size leaves the sequential loops around
//!   it** when its handle is never shared: one allocation before the loop
//!   instead of one reuse check per iteration ([`hoist_loop_allocations`]);
//! - **a block is released after its last use.** In a function's
//!   outermost statements, a handle mentioned for the last time by a
//!   statement that is not the last one is pointed at an empty block
//!   right after it, so the block it held is freed there (when nothing
//!   else shares it) instead of at the function's end
//!   ([`release_dead_blocks`]). Blocks allocated inside loops are left
//!   alone: they are what the next iteration reuses. A dead block is
//!   instead handed to a later allocation of the same type and count when
//!   nothing is allocated in between, which then reuses it.

use std::collections::{HashMap, HashSet};

use ir::PrimType;

use crate::syntax::*;

/// Calls `f` on every handle `s` mentions, with whether `s` sets it
/// (allocation, alias destination, swap, call result), nested blocks
/// included; `in_par` tells whether the mention is inside a parallel
/// loop.
fn visit_stm(s: &Stm, in_par: bool, f: &mut impl FnMut(MemId, bool, bool)) {
    match s {
        Stm::Alloc { mem, .. } => f(*mem, true, in_par),
        Stm::SwapMem(a, b) => {
            f(*a, true, in_par);
            f(*b, true, in_par);
        }
        Stm::AliasMem { dst, src } => {
            f(*dst, true, in_par);
            f(*src, false, in_par);
        }
        Stm::Read { view, .. } | Stm::Write { view, .. } => f(view.mem, false, in_par),
        Stm::AtomicUpdate { view, body, .. } => {
            f(view.mem, false, in_par);
            visit_block(body, in_par, f);
        }
        Stm::Copy { dst, src, .. } => {
            f(dst.mem, false, in_par);
            f(src.mem, false, in_par);
        }
        Stm::For { body, .. } | Stm::While { body, .. } | Stm::Planned { body, .. } => {
            visit_block(body, in_par, f)
        }
        Stm::ParFor { body, .. } => visit_block(body, true, f),
        Stm::If {
            then_block,
            else_block,
            ..
        } => {
            visit_block(then_block, in_par, f);
            visit_block(else_block, in_par, f);
        }
        Stm::Call { args, results, .. } => {
            for a in args {
                if let Arg::Mem(m) = a {
                    f(*m, false, in_par);
                }
            }
            for r in results {
                if let Slot::Mem(m) = r {
                    f(*m, true, in_par);
                }
            }
        }
        Stm::Assign { .. } | Stm::Assert { .. } | Stm::Barrier => {}
    }
}

fn visit_block(b: &Block, in_par: bool, f: &mut impl FnMut(MemId, bool, bool)) {
    for s in &b.stms {
        visit_stm(s, in_par, f);
    }
}

/// How many times each handle is mentioned in `stms`.
pub(super) fn count_mentions(stms: &[Stm]) -> HashMap<MemId, usize> {
    let mut n = HashMap::new();
    for s in stms {
        visit_stm(s, false, &mut |m, _, _| *n.entry(m).or_insert(0) += 1);
    }
    n
}

/// Whether `m` is mentioned in `stms`.
fn mentions(stms: &[Stm], m: MemId) -> bool {
    let mut found = false;
    for s in stms {
        visit_stm(s, false, &mut |x, _, _| found |= x == m);
    }
    found
}

/// Whether `m` is set inside a parallel loop of `stms`.
fn set_in_par(stms: &[Stm], m: MemId) -> bool {
    let mut found = false;
    for s in stms {
        visit_stm(s, false, &mut |x, set, par| found |= x == m && set && par);
    }
    found
}

fn rename_view(v: &mut View, from: MemId, to: MemId) {
    if v.mem == from {
        v.mem = to;
    }
}

fn rename_mem(m: &mut MemId, from: MemId, to: MemId) {
    if *m == from {
        *m = to;
    }
}

/// Renames handle `from` to `to` in `stms`.
fn rename(stms: &mut [Stm], from: MemId, to: MemId) {
    for s in stms {
        match s {
            Stm::Alloc { mem, .. } => rename_mem(mem, from, to),
            Stm::SwapMem(a, b) | Stm::AliasMem { dst: a, src: b } => {
                rename_mem(a, from, to);
                rename_mem(b, from, to);
            }
            Stm::Read { view, .. } | Stm::Write { view, .. } => rename_view(view, from, to),
            Stm::AtomicUpdate { view, body, .. } => {
                rename_view(view, from, to);
                rename(&mut body.stms, from, to);
            }
            Stm::Copy { dst, src, .. } => {
                rename_view(dst, from, to);
                rename_view(src, from, to);
            }
            Stm::For { body, .. }
            | Stm::While { body, .. }
            | Stm::Planned { body, .. }
            | Stm::ParFor { body, .. } => rename(&mut body.stms, from, to),
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                rename(&mut then_block.stms, from, to);
                rename(&mut else_block.stms, from, to);
            }
            Stm::Call { args, results, .. } => {
                for a in args {
                    if let Arg::Mem(m) = a {
                        rename_mem(m, from, to);
                    }
                }
                for r in results {
                    if let Slot::Mem(m) = r {
                        rename_mem(m, from, to);
                    }
                }
            }
            Stm::Assign { .. } | Stm::Assert { .. } | Stm::Barrier => {}
        }
    }
}

/// The handles of a function's parameter and result slots.
fn slot_mems(f: &Function) -> HashSet<MemId> {
    f.params
        .iter()
        .chain(&f.results)
        .filter_map(|s| match s {
            Slot::Mem(m) => Some(*m),
            Slot::Scalar(_) => None,
        })
        .collect()
}

/// Renames, in every `if` branch of `f` that ends by passing a block of
/// its own on (`out = arr`), the branch's handle `arr` to `out` and drops
/// the alias, when `arr` is mentioned nowhere but in the branch before
/// the alias, is set in no parallel loop there, is no parameter or
/// result of `f`, and `out` is not mentioned in the branch before the
/// alias (its block is not read there).
pub(crate) fn coalesce_branch_handles(f: &mut Function) {
    let slots = slot_mems(f);
    // Renaming one pair can enable another (nested `if`s): repeat until
    // nothing changes; each round removes one alias.
    loop {
        let total = count_mentions(&f.body.stms);
        let Some((from, to)) = find_coalescible(&total, &f.body.stms, &slots) else {
            break;
        };
        rename(&mut f.body.stms, from, to);
        remove_self_aliases(&mut f.body.stms);
    }
}

/// The first `(arr, out)` pair [`coalesce_branch_handles`] may rename in
/// `stms`, given the number of mentions of each handle in the whole
/// function.
fn find_coalescible(
    total: &HashMap<MemId, usize>,
    stms: &[Stm],
    slots: &HashSet<MemId>,
) -> Option<(MemId, MemId)> {
    for s in stms {
        let found = match s {
            Stm::If {
                then_block,
                else_block,
                ..
            } => branch_pair(total, &then_block.stms, slots)
                .or_else(|| branch_pair(total, &else_block.stms, slots))
                .or_else(|| find_coalescible(total, &then_block.stms, slots))
                .or_else(|| find_coalescible(total, &else_block.stms, slots)),
            Stm::For { body, .. }
            | Stm::While { body, .. }
            | Stm::Planned { body, .. }
            | Stm::ParFor { body, .. } => find_coalescible(total, &body.stms, slots),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// An alias `out = arr` among the outermost statements of branch `b`
/// whose `arr` may become `out`.
fn branch_pair(
    total: &HashMap<MemId, usize>,
    b: &[Stm],
    slots: &HashSet<MemId>,
) -> Option<(MemId, MemId)> {
    for (k, s) in b.iter().enumerate() {
        let Stm::AliasMem { dst, src } = s else {
            continue;
        };
        if dst == src || slots.contains(src) {
            continue;
        }
        let before = &b[..k];
        let here = count_mentions(&b[..=k]);
        if here.get(src) != total.get(src) || mentions(before, *dst) || set_in_par(before, *src) {
            continue;
        }
        return Some((*src, *dst));
    }
    None
}

/// Drops aliases of a handle to itself.
fn remove_self_aliases(stms: &mut Vec<Stm>) {
    stms.retain(|s| !matches!(s, Stm::AliasMem { dst, src } if dst == src));
    for s in stms {
        match s {
            Stm::For { body, .. }
            | Stm::While { body, .. }
            | Stm::Planned { body, .. }
            | Stm::ParFor { body, .. } => remove_self_aliases(&mut body.stms),
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                remove_self_aliases(&mut then_block.stms);
                remove_self_aliases(&mut else_block.stms);
            }
            _ => {}
        }
    }
}

/// Points each handle of `f`'s outermost statements at an empty block
/// right after the statement that mentions it last, unless that is the
/// last statement or the handle is a parameter or result of `f`. One
/// empty block per element type is allocated first, when some handle is
/// released.
pub(crate) fn release_dead_blocks(f: &mut Function) {
    let slots = slot_mems(f);
    let stms = &f.body.stms;
    let mut last: HashMap<MemId, usize> = HashMap::new();
    for (k, s) in stms.iter().enumerate() {
        visit_stm(s, false, &mut |m, _, _| {
            last.insert(m, k);
        });
    }
    let mut after: Vec<Vec<MemId>> = vec![Vec::new(); stms.len()];
    for (m, k) in last {
        if k + 1 < stms.len() && !slots.contains(&m) {
            after[k].push(m);
        }
    }
    if after.iter().all(Vec::is_empty) {
        return;
    }
    for v in after.iter_mut() {
        v.sort();
    }
    let reuse = reused_blocks(f, &after);
    let mut empties: HashMap<PrimType, MemId> = HashMap::new();
    let mut empty = |f: &mut Function, elem: PrimType| {
        *empties.entry(elem).or_insert_with(|| {
            f.mems.push(MemInfo {
                name: format!("empty_{elem}"),
                elem,
            });
            MemId(f.mems.len() as u32 - 1)
        })
    };
    let mut out = Vec::with_capacity(stms.len() + 8);
    let old = std::mem::take(&mut f.body.stms);
    for (k, (s, dead)) in old.into_iter().zip(after).enumerate() {
        if let Some(&(d, m)) = reuse.get(&k) {
            // `m` takes the block of `d`, which nothing else holds now,
            // and its allocation reuses it.
            let e = empty(f, f.mems[d.0 as usize].elem);
            out.push(Stm::AliasMem { dst: m, src: d });
            out.push(Stm::AliasMem { dst: d, src: e });
        }
        out.push(s);
        for m in dead {
            if reuse.values().any(|&(d, _)| d == m) {
                continue;
            }
            let elem = f.mems[m.0 as usize].elem;
            let e = empty(f, elem);
            out.push(Stm::AliasMem { dst: m, src: e });
        }
    }
    let mut empties: Vec<MemId> = empties.into_values().collect();
    empties.sort();
    f.body.stms = empties
        .into_iter()
        .map(|mem| Stm::Alloc {
            mem,
            count: SExp::i64(0),
        })
        .chain(out)
        .collect();
}

/// The blocks handed from a dead handle to a later allocation, by the
/// position of the allocation among `f`'s outermost statements: `(d, m)`
/// when handle `d`, released after statement `k` (`dead[k]`), was
/// allocated once, among the outermost statements, with the same element
/// type and count as the allocation of `m` at a later position `j`, both
/// handles never shared and allocated nowhere else, and no statement
/// between `k` and `j` allocates (or calls): keeping `d`'s block until `j`
/// then holds no more memory than freeing it, and `m`'s allocation
/// reuses it instead of freeing one block and making another (for large
/// blocks, returning pages to the system and faulting them in again).
fn reused_blocks(f: &Function, dead: &[Vec<MemId>]) -> HashMap<usize, (MemId, MemId)> {
    let u = handle_use(f);
    let stms = &f.body.stms;
    let top_alloc = |k: usize| match &stms[k] {
        Stm::Alloc { mem, count }
            if !u.shared.contains(mem) && u.allocs.get(mem).map(Vec::len) == Some(1) =>
        {
            Some((*mem, count))
        }
        _ => None,
    };
    let allocates = |s: &Stm| {
        let mut found = matches!(s, Stm::Call { .. });
        visit_stm(s, false, &mut |_, set, _| found |= set);
        found
    };
    let count_of: HashMap<MemId, &SExp> = (0..stms.len()).filter_map(top_alloc).collect();
    let mut out = HashMap::new();
    for (k, ds) in dead.iter().enumerate() {
        for d in ds {
            let Some(&c) = count_of.get(d) else {
                continue;
            };
            let elem = f.mems[d.0 as usize].elem;
            for (j, s) in stms.iter().enumerate().skip(k + 1) {
                match top_alloc(j) {
                    Some((m, n))
                        if n == c && f.mems[m.0 as usize].elem == elem && !out.contains_key(&j) =>
                    {
                        out.insert(j, (*d, m));
                        break;
                    }
                    _ if allocates(s) => break,
                    _ => {}
                }
            }
        }
    }
    out
}

/// What the whole function does with each handle: its allocations'
/// counts, and whether it is ever shared (aliased, swapped, passed to or
/// returned by a call, a parameter or result slot).
pub(super) struct HandleUse {
    /// The counts of each handle's allocations.
    pub(super) allocs: HashMap<MemId, Vec<SExp>>,
    /// The handles ever shared.
    pub(super) shared: HashSet<MemId>,
}

pub(super) fn handle_use(f: &Function) -> HandleUse {
    fn walk(stms: &[Stm], u: &mut HandleUse) {
        for s in stms {
            match s {
                Stm::Alloc { mem, count } => u.allocs.entry(*mem).or_default().push(count.clone()),
                Stm::SwapMem(a, b) | Stm::AliasMem { dst: a, src: b } => {
                    u.shared.insert(*a);
                    u.shared.insert(*b);
                }
                Stm::Call { .. } => visit_stm(s, false, &mut |m, _, _| {
                    u.shared.insert(m);
                }),
                Stm::For { body, .. }
                | Stm::While { body, .. }
                | Stm::Planned { body, .. }
                | Stm::ParFor { body, .. }
                | Stm::AtomicUpdate { body, .. } => walk(&body.stms, u),
                Stm::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    walk(&then_block.stms, u);
                    walk(&else_block.stms, u);
                }
                _ => {}
            }
        }
    }
    let mut u = HandleUse {
        allocs: HashMap::new(),
        shared: slot_mems(f),
    };
    walk(&f.body.stms, &mut u);
    u
}

/// Moves the allocation of a block of constant size out of the sequential
/// loops around it (up to the enclosing parallel loop's body or the
/// function's), when its handle is never shared and every allocation of
/// it is of that size and inside the loop: each iteration would reuse the
/// block anyway, so one allocation before the loop does, and the loop
/// no longer asks at each iteration whether it may.
pub(crate) fn hoist_loop_allocations(f: &mut Function) {
    let mut u = handle_use(f);
    hoist_in(&mut f.body.stms, &mut u);
}

/// Hoists the allocations of `stms`' loops; `u` follows the allocations
/// moved (several become one before the loop).
fn hoist_in(stms: &mut Vec<Stm>, u: &mut HandleUse) {
    let mut out = Vec::with_capacity(stms.len());
    for mut s in std::mem::take(stms) {
        match &mut s {
            Stm::For { body, .. } | Stm::While { body, .. } => {
                hoist_in(&mut body.stms, u);
                let mut found: HashMap<MemId, Vec<SExp>> = HashMap::new();
                collect_allocs(&body.stms, &mut found);
                let hoisted: HashSet<MemId> = found
                    .iter()
                    .filter(|(m, counts)| {
                        !u.shared.contains(m)
                            && counts[0].as_i64().is_some()
                            && u.allocs.get(m).map(Vec::len) == Some(counts.len())
                            && counts.iter().all(|c| *c == counts[0])
                    })
                    .map(|(m, _)| *m)
                    .collect();
                if !hoisted.is_empty() {
                    remove_allocs(&mut body.stms, &hoisted);
                    let mut hoisted: Vec<MemId> = hoisted.into_iter().collect();
                    hoisted.sort();
                    for m in hoisted {
                        u.allocs.insert(m, vec![found[&m][0].clone()]);
                        out.push(Stm::Alloc {
                            mem: m,
                            count: found[&m][0].clone(),
                        });
                    }
                }
            }
            Stm::ParFor { body, .. }
            | Stm::Planned { body, .. }
            | Stm::AtomicUpdate { body, .. } => hoist_in(&mut body.stms, u),
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                hoist_in(&mut then_block.stms, u);
                hoist_in(&mut else_block.stms, u);
            }
            _ => {}
        }
        out.push(s);
    }
    *stms = out;
}

/// The allocations in `stms` outside parallel loops (nested sequential
/// blocks included), by handle.
pub(super) fn collect_allocs(stms: &[Stm], out: &mut HashMap<MemId, Vec<SExp>>) {
    for s in stms {
        match s {
            Stm::Alloc { mem, count } => out.entry(*mem).or_default().push(count.clone()),
            Stm::For { body, .. } | Stm::While { body, .. } | Stm::Planned { body, .. } => {
                collect_allocs(&body.stms, out)
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                collect_allocs(&then_block.stms, out);
                collect_allocs(&else_block.stms, out);
            }
            _ => {}
        }
    }
}

/// Removes the allocations of `mems` from `stms` outside parallel loops.
pub(super) fn remove_allocs(stms: &mut Vec<Stm>, mems: &HashSet<MemId>) {
    stms.retain(|s| !matches!(s, Stm::Alloc { mem, .. } if mems.contains(mem)));
    for s in stms {
        match s {
            Stm::For { body, .. } | Stm::While { body, .. } | Stm::Planned { body, .. } => {
                remove_allocs(&mut body.stms, mems)
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                remove_allocs(&mut then_block.stms, mems);
                remove_allocs(&mut else_block.stms, mems);
            }
            _ => {}
        }
    }
}
