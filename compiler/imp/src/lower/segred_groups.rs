//! Segmented reductions on a device with a group of threads per segment.
//!
//! A perfect nest `map (\row -> reduce op ne (map g row)) rows` outside
//! other parallel loops is, on a device, a parallel loop over the rows
//! whose threads each reduce their row sequentially: one thread per
//! segment, the right strategy for many short rows. For long rows (at
//! least [`GROUP_SEGMENT`] iterations, a guard at run time) a group loop
//! runs instead, one group of [`GROUP`] threads per row: each thread
//! reduces a share of the row (every `GROUP`-th iteration from its own
//! index when the operators are commutative, so that neighbouring threads
//! read neighbouring elements; a run of consecutive iterations
//! otherwise), the group combines the threads' results as a tree in local
//! memory ([`Lowerer::local_tree`]), and every thread then has the row's
//! result.

use ir::syntax::Screma;
use ir::{BinOp, CmpOp, PrimType};

use super::rounds::GROUP;
use super::{Lowerer, R, Val, bin};
use crate::syntax::*;

/// The shortest rows reduced by a group of threads rather than one thread.
pub const GROUP_SEGMENT: i64 = 128;

/// The thread's index and the local arrays of the group loop a reduction
/// of one row is lowered in ([`Lowerer::group_red`]).
#[derive(Clone)]
pub(crate) struct GroupRow {
    thread: SExp,
    local: Vec<Vec<View>>,
}

/// The inner screma of the perfect nest `s` when it is a segmented
/// reduction a group of threads can run per row: two levels, the inner
/// one reductions of scalars only (no mapped results, no scans).
pub(super) fn group_reducible<'p>(f: &ir::Function, s: &'p Screma) -> Option<&'p Screma> {
    let levels = flatten::nest::nest_levels(f, s)?;
    let [level] = levels.as_slice() else {
        return None;
    };
    let inner = level.next;
    let n_red: usize = inner.reduces.iter().map(|r| r.neutral.len()).sum();
    let scalar = inner.map.ret.iter().all(|t| t.is_scalar() && !t.acc);
    (inner.scans.is_empty() && n_red > 0 && n_red == inner.map.ret.len() && scalar).then_some(inner)
}

impl<'p> Lowerer<'p> {
    /// Lowers the rows of the segmented reduction whose inner screma is
    /// `inner` (from [`group_reducible`]): `rows` rows, `row` lowering row
    /// `i` (the outer map's iteration, which writes the row's results).
    /// Long rows run in a group loop (the module doc), short ones in a
    /// parallel loop of one thread per row (`threads`).
    pub(super) fn segred_versions(
        &mut self,
        inner: &'p Screma,
        rows: SExp,
        row: &dyn Fn(&mut Self, &SExp) -> R<()>,
        threads: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        let width = self.scalar(&inner.w)?;
        let elems: Vec<Vec<PrimType>> = {
            let mut off = 0;
            inner
                .reduces
                .iter()
                .map(|r| {
                    let m = r.neutral.len();
                    let e = inner.map.ret[off..off + m].iter().map(|t| t.elem).collect();
                    off += m;
                    e
                })
                .collect()
        };
        let groups = self.nested(|l| {
            l.group_loop("segred-group", rows, &elems, |l, g, t, local| {
                l.group_red = Some(GroupRow {
                    thread: t.clone(),
                    local: local.to_vec(),
                });
                // Taken by the row's reduction ([`Self::screma`]).
                let done = row(l, g);
                l.group_red = None;
                done
            })
        })?;
        let threads = self.nested(threads)?;
        self.push(Stm::If {
            cond: SExp::cmp(CmpOp::Le, SExp::i64(GROUP_SEGMENT), width),
            then_block: groups,
            else_block: threads,
        });
        Ok(())
    }

    /// The reduction `s` of one row by the group of threads `row` (set by
    /// [`Self::segred_versions`]): its results, the same on every thread.
    pub(super) fn group_row_reduction(&mut self, s: &'p Screma, row: GroupRow) -> R<Vec<Val<'p>>> {
        use SExp as E;
        let GroupRow { thread: t, local } = row;
        let w = self.scalar(&s.w)?;
        let inputs = self.inputs(&s.inputs)?;
        let index = self.index_inputs(&s.inputs, &inputs);
        let group = E::i64(i64::from(GROUP));
        let commutative = s.reduces.iter().all(|r| r.is_commutative());
        // The thread's iterations `start + j * step` for `j < len`, and the
        // number of threads with any (the others keep the neutral element).
        let (start, step, len, busy) = if commutative {
            let rest = E::minus(
                E::plus(w.clone(), group.clone()),
                E::plus(t.clone(), E::i64(1)),
            );
            let len = bin(BinOp::Max, bin(BinOp::Div, rest, group.clone()), E::i64(0));
            let busy = bin(BinOp::Min, w.clone(), group.clone());
            (t.clone(), group.clone(), len, busy)
        } else {
            let up = E::minus(E::plus(w.clone(), group.clone()), E::i64(1));
            let run = self.assign_fresh("run", PrimType::I64, bin(BinOp::Div, up, group));
            let run = E::Var(run);
            let start = self.assign_fresh("start", PrimType::I64, E::times(t.clone(), run.clone()));
            let start = E::Var(start);
            let len = bin(
                BinOp::Max,
                bin(BinOp::Min, run.clone(), E::minus(w.clone(), start.clone())),
                E::i64(0),
            );
            let up = E::minus(E::plus(w.clone(), run.clone()), E::i64(1));
            let busy = bin(BinOp::Div, up, bin(BinOp::Max, run, E::i64(1)));
            (start, E::i64(1), len, busy)
        };
        let len = self.assign_fresh("len", PrimType::I64, len);
        let busy = self.assign_fresh("busy", PrimType::I64, busy);
        let mut states = Vec::new();
        for r in &s.reduces {
            states.push(self.init_state(&r.neutral)?);
        }
        self.seq_loop(E::Var(len), |l, j| {
            let i = E::plus(start.clone(), E::times(j.clone(), step.clone()));
            let i = E::Var(l.assign_fresh("i", PrimType::I64, i));
            let args = l.row_args(&s.map, &inputs, &index, &i)?;
            let res = l.apply(&s.map, args, &[])?;
            let mut off = 0;
            for (r, st) in s.reduces.iter().zip(&states) {
                let m = r.neutral.len();
                l.combine(&r.op, st, &res[off..off + m])?;
                off += m;
            }
            Ok(())
        })?;
        for (n, st) in states.iter().enumerate() {
            self.write_scalars(&local[n], st, &t);
        }
        self.push(Stm::Barrier);
        let ops: Vec<&'p ir::Lambda> = s.reduces.iter().map(|r| &r.op).collect();
        self.local_tree(&ops, &local, &t, &E::Var(busy))?;
        let mut out = Vec::new();
        for comps in &local {
            for x in self.read_each(comps, &[E::i64(0)], "row_result") {
                out.push(Val::Scalar(E::Var(x)));
            }
        }
        Ok(out)
    }
}
