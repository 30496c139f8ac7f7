//! Segmented reductions on a device with a group of threads per segment.
//!
//! A map whose body is one reduction of its row, `map (\row -> reduce op
//! ne (map g row)) rows` (with scalar work around the reduction: see
//! [`group_reducible`]), outside other parallel loops is, on a device, a
//! parallel loop over the rows whose threads each reduce their row
//! sequentially: one thread per segment, the right strategy for many short
//! rows. For long rows (at
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

/// The shortest rows reduced by a group of threads rather than one thread:
/// the default of the tuning parameter `row_group_threshold`.
pub const GROUP_SEGMENT: i64 = 128;

/// The label of the group loop over the rows. It is the `then` branch,
/// alone, of an `if` whose `else` branch is the loop of one thread per
/// row: a backend that cannot run the group loop keeps the `else` branch
/// alone.
pub const GROUP_ROWS_LABEL: &str = "segred-group";

/// The thread's index and the local arrays of the group loop a reduction
/// of one row is lowered in ([`Lowerer::group_red`]).
#[derive(Clone)]
pub(crate) struct GroupRow {
    thread: SExp,
    local: Vec<Vec<View>>,
}

/// The reduction inside the map `s` when a group of threads can run it
/// per row: the map's body is that one screma (reductions of scalars
/// only: no scans, no mapped results, not `#[sequential]`, over a width
/// the same for every row) and cheap statements on scalars and views
/// around it (arithmetic, indexing, aliases), which every thread of the
/// group computes; the map's results are scalars.
pub(super) fn group_reducible(s: &Screma) -> Option<&Screma> {
    use ir::Exp;
    if !s.map.ret.iter().all(|t| t.is_scalar() && !t.acc) {
        return None;
    }
    let mut bound: std::collections::HashSet<ir::VarId> =
        s.map.params.iter().map(|p| p.var).collect();
    let mut inner = None;
    for stm in &s.map.body.stms {
        match &stm.exp {
            Exp::Screma(r) if inner.is_none() => {
                if stm.attrs.contains(&ir::Attr::Sequential) {
                    return None;
                }
                if let ir::Operand::Var(w) = &r.w
                    && bound.contains(w)
                {
                    return None;
                }
                inner = Some(r);
            }
            Exp::Atom(_)
            | Exp::UnOp(..)
            | Exp::BinOp(..)
            | Exp::Cmp(..)
            | Exp::Convert(..)
            | Exp::Math(..)
            | Exp::Index(..) => {}
            _ => return None,
        }
        bound.extend(stm.pat.iter().copied());
    }
    let inner = inner?;
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
            l.group_loop(GROUP_ROWS_LABEL, rows, &elems, |l, g, t, local| {
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
            cond: SExp::cmp(
                CmpOp::Le,
                SExp::Tuned {
                    name: "row_group_threshold".into(),
                    default: GROUP_SEGMENT,
                },
                width,
            ),
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
        // The thread's iterations `start + j * step` for `j < len`. The
        // first `min(w, GROUP)` threads' results are combined (in runs of
        // consecutive iterations, the last of those threads may have none:
        // they keep the neutral element).
        let (start, step, len) = if commutative {
            let rest = E::minus(
                E::plus(w.clone(), group.clone()),
                E::plus(t.clone(), E::i64(1)),
            );
            let len = bin(BinOp::Max, bin(BinOp::Div, rest, group.clone()), E::i64(0));
            (t.clone(), group.clone(), len)
        } else {
            let up = E::minus(E::plus(w.clone(), group.clone()), E::i64(1));
            let run = self.assign_fresh("run", PrimType::I64, bin(BinOp::Div, up, group.clone()));
            let run = E::Var(run);
            let start = self.assign_fresh("start", PrimType::I64, E::times(t.clone(), run.clone()));
            let start = E::Var(start);
            let len = bin(
                BinOp::Max,
                bin(BinOp::Min, run, E::minus(w.clone(), start.clone())),
                E::i64(0),
            );
            (start, E::i64(1), len)
        };
        let busy = bin(BinOp::Min, w.clone(), group);
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
