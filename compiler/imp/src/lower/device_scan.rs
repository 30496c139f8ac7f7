//! The prefixes of a scan's chunks on a device.
//!
//! A scan outside other parallel loops is split, on a device, into as
//! many chunks of consecutive iterations as the device keeps busy (up to
//! [`super::soacs::DEVICE_CHUNKS`]); each chunk scans its own iterations
//! from the neutral element and leaves its total. Each chunk's prefix
//! (the combination of the totals of the chunks before it) is then
//! computed on the device by three parallel loops, for any number of
//! chunks:
//!
//! 1. a group loop over the totals, [`GROUP`] per group: each group scans
//!    its totals in local memory ([`Lowerer::local_scan`]) and keeps the
//!    inclusive scan and its group's total;
//! 2. a group loop of one group over the groups' totals: each thread
//!    combines a run of consecutive totals sequentially, the group scans
//!    the threads' results in local memory, and each thread writes the
//!    prefix of every group of its run;
//! 3. a parallel loop over the chunks: a chunk's prefix is its group's
//!    prefix combined with the inclusive scan of the chunk before it in
//!    the group.
//!
//! Every combination keeps the left operand to the left, so operators
//! that are not commutative give the sequential order's result.

use ir::syntax::Screma;
use ir::{BinOp, CmpOp, PrimType};

use super::rounds::{GROUP, elem_types, scalars, values};
use super::soacs::State;
use super::{Lowerer, R, bin};
use crate::syntax::*;

impl<'p> Lowerer<'p> {
    /// Per scan of `s`, the `[k]` blocks of each chunk's prefix, from the
    /// `k` chunks' totals `parts` (one `[k]` block per component of each
    /// scan of scalars), computed on the device (the module doc).
    pub(super) fn device_scan_prefixes(
        &mut self,
        s: &'p Screma,
        k: &SExp,
        parts: &[Vec<View>],
    ) -> R<Vec<Vec<View>>> {
        use SExp as E;
        let group = E::i64(i64::from(GROUP));
        let up = E::minus(E::plus(k.clone(), group.clone()), E::i64(1));
        let groups = self.assign_fresh("scan_groups", PrimType::I64, bin(BinOp::Div, up, group));
        let groups = E::Var(groups);
        let elems = elem_types(parts);
        let blocks = |l: &mut Self, name: &str, n: &SExp| -> Vec<Vec<View>> {
            elems
                .iter()
                .map(|comps| {
                    comps
                        .iter()
                        .map(|&e| l.alloc(name, e, vec![n.clone()]))
                        .collect()
                })
                .collect()
        };
        let inclusive = blocks(self, "scan_incl", k);
        let totals = blocks(self, "group_total", &groups);
        let group_prefix = blocks(self, "group_prefix", &groups);
        self.group_loop(
            "segscan-groups",
            groups.clone(),
            &elems,
            |l, g, t, local| l.scan_groups(s, k, parts, (&inclusive, &totals), (g, t, local)),
        )?;
        self.group_loop("segscan-totals", E::i64(1), &elems, |l, _, t, local| {
            l.scan_totals(s, &groups, &totals, &group_prefix, (t, local))
        })?;
        let prefixes = blocks(self, "prefix", k);
        self.par_label = "segscan-prefix";
        self.loop_nest(vec![k.clone()], true, |l, c| {
            let c = &c[0];
            let g = bin(BinOp::Div, c.clone(), E::i64(i64::from(GROUP)));
            let later = E::cmp(
                CmpOp::Ne,
                bin(BinOp::Rem, c.clone(), E::i64(i64::from(GROUP))),
                E::i64(0),
            );
            for (n, sc) in s.scans.iter().enumerate() {
                let state = scalars(&l.read_each(
                    &group_prefix[n],
                    std::slice::from_ref(&g),
                    "group_prefix",
                ));
                let before = l.nested(|l| {
                    let prev = E::minus(c.clone(), E::i64(1));
                    let xs = l.read_each(&inclusive[n], &[prev], "before");
                    l.combine(&sc.op, &state, &values(&xs))
                })?;
                l.push_when(later.clone(), before);
                l.write_scalars(&prefixes[n], &state, c);
            }
            Ok(())
        })?;
        Ok(prefixes)
    }

    /// One thread's code in the first loop of the module doc: thread `t`
    /// of group `g` loads total `g * GROUP + t` of the `k` in `parts` (the
    /// neutral element past them), the group scans them, and the thread
    /// writes its inclusive scan to `inclusive` and, the last of its
    /// group, the group's total to `totals`.
    fn scan_groups(
        &mut self,
        s: &'p Screma,
        k: &SExp,
        parts: &[Vec<View>],
        (inclusive, totals): (&[Vec<View>], &[Vec<View>]),
        (g, t, local): (&SExp, &SExp, &[Vec<View>]),
    ) -> R<()> {
        use SExp as E;
        let group = E::i64(i64::from(GROUP));
        let at = self.assign_fresh(
            "at",
            PrimType::I64,
            E::plus(E::times(g.clone(), group.clone()), t.clone()),
        );
        let at = E::Var(at);
        let inside = E::cmp(CmpOp::Lt, at.clone(), k.clone());
        for (n, sc) in s.scans.iter().enumerate() {
            let state = self.init_state(&sc.neutral)?;
            let load = self.nested(|l| {
                read_into(l, &parts[n], &state, &at);
                Ok(())
            })?;
            self.push_when(inside.clone(), load);
            self.write_scalars(&local[n], &state, t);
        }
        self.push(Stm::Barrier);
        self.local_scan(s, local, t)?;
        let write = self.nested(|l| {
            for n in 0..s.scans.len() {
                let xs = scalars(&l.read_each(&local[n], std::slice::from_ref(t), "scanned"));
                l.write_scalars(&inclusive[n], &xs, &at);
                let last = bin(
                    BinOp::Or,
                    E::cmp(CmpOp::Eq, t.clone(), E::i64(i64::from(GROUP) - 1)),
                    E::cmp(CmpOp::Eq, at.clone(), E::minus(k.clone(), E::i64(1))),
                );
                let total = l.nested(|l| {
                    l.write_scalars(&totals[n], &xs, g);
                    Ok(())
                })?;
                l.push_when(last, total);
            }
            Ok(())
        })?;
        self.push_when(inside, write);
        Ok(())
    }

    /// One thread's code in the second loop of the module doc (one
    /// group): thread `t` combines its run of the `groups` totals in
    /// `totals`, the group scans the runs' results, and the thread writes
    /// the prefix of each group of its run to `group_prefix`.
    fn scan_totals(
        &mut self,
        s: &'p Screma,
        groups: &SExp,
        totals: &[Vec<View>],
        group_prefix: &[Vec<View>],
        (t, local): (&SExp, &[Vec<View>]),
    ) -> R<()> {
        use SExp as E;
        let threads = E::i64(i64::from(GROUP));
        let up = E::minus(E::plus(groups.clone(), threads.clone()), E::i64(1));
        let run = self.assign_fresh("run", PrimType::I64, bin(BinOp::Div, up, threads));
        let start = self.assign_fresh("start", PrimType::I64, E::times(t.clone(), E::Var(run)));
        let end = bin(
            BinOp::Min,
            E::plus(E::Var(start), E::Var(run)),
            groups.clone(),
        );
        let len = self.assign_fresh(
            "len",
            PrimType::I64,
            bin(BinOp::Max, E::minus(end, E::Var(start)), E::i64(0)),
        );
        let at = |j: &SExp| E::plus(E::Var(start), j.clone());
        for (n, sc) in s.scans.iter().enumerate() {
            let state = self.init_state(&sc.neutral)?;
            self.seq_loop(E::Var(len), |l, j| {
                let xs = l.read_each(&totals[n], &[at(j)], "total");
                l.combine(&sc.op, &state, &values(&xs))
            })?;
            self.write_scalars(&local[n], &state, t);
        }
        self.push(Stm::Barrier);
        self.local_scan(s, local, t)?;
        for (n, sc) in s.scans.iter().enumerate() {
            // The prefix of the thread's first group: the scan of the runs
            // before it.
            let prefix = self.init_state(&sc.neutral)?;
            let before = self.nested(|l| {
                read_into(l, &local[n], &prefix, &E::minus(t.clone(), E::i64(1)));
                Ok(())
            })?;
            self.push_when(E::cmp(CmpOp::Lt, E::i64(0), t.clone()), before);
            self.seq_loop(E::Var(len), |l, j| {
                l.write_scalars(&group_prefix[n], &prefix, &at(j));
                let xs = l.read_each(&totals[n], &[at(j)], "total");
                l.combine(&sc.op, &prefix, &values(&xs))
            })?;
        }
        Ok(())
    }

    /// The inclusive scan, by each scan of `s`, of the [`GROUP`] values in
    /// the group's local arrays `local` (per scan, per component), in
    /// place; `t` is the thread's index. In step `i`, each thread from
    /// `2^i` on reads the value `2^i` to its left and, after a barrier,
    /// combines it with its own (left operand first) and writes the
    /// result, followed by another barrier.
    pub(super) fn local_scan(&mut self, s: &'p Screma, local: &[Vec<View>], t: &SExp) -> R<()> {
        use SExp as E;
        self.tree_steps(|l, stride| {
            let active = E::cmp(CmpOp::Le, stride.clone(), t.clone());
            // Every thread reads (threads left of the stride their own
            // value), so that no value is defined under a condition.
            let left = bin(BinOp::Max, E::minus(t.clone(), stride.clone()), E::i64(0));
            let theirs: Vec<Vec<State>> = local
                .iter()
                .map(|comps| scalars(&l.read_each(comps, std::slice::from_ref(&left), "left")))
                .collect();
            l.push(Stm::Barrier);
            let combine = l.nested(|l| {
                for (n, sc) in s.scans.iter().enumerate() {
                    let mine = l.read_each(&local[n], std::slice::from_ref(t), "mine");
                    l.combine(&sc.op, &theirs[n], &values(&mine))?;
                    l.write_scalars(&local[n], &theirs[n], t);
                }
                Ok(())
            })?;
            l.push_when(active, combine);
            Ok(())
        })
    }
}

/// Reads element `idx` of each of `views` into the running values `state`.
fn read_into(l: &mut Lowerer<'_>, views: &[View], state: &[State], idx: &SExp) {
    for (v, st) in views.iter().zip(state) {
        if let State::Scalar(x) = st {
            l.push(Stm::Read {
                var: *x,
                view: v.clone(),
                idx: vec![idx.clone()],
            });
        }
    }
}
