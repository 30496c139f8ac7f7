//! The rounds of a reduction on a device: its chunks' partial results
//! combined by groups of threads, as a tree in local memory.
//!
//! A reduction outside other parallel loops is split, on a device, into
//! as many chunks as the device keeps busy (up to
//! [`super::soacs::DEVICE_CHUNKS`]), each leaving one partial result.
//! While more than [`CHUNKS`] are left, a group loop
//! ([`ParKind::Groups`]) combines each run of [`GROUP`] consecutive
//! results into one: every thread of a group puts one result in local
//! memory, then in `log2(GROUP)` steps thread `t` combines its element
//! with the one `2^s` to its right when `t` is a multiple of `2^(s+1)`,
//! with a barrier after each step; thread 0 writes the group's result.
//! Neighbours are always combined left to right, so operators that are
//! not commutative keep their order. The host combines the last
//! [`CHUNKS`] or fewer.

use ir::syntax::{Lambda, Screma};
use ir::{BinOp, CmpOp, PrimType};

use super::soacs::{CHUNKS, State};
use super::{Lowerer, R, Val, bin};
use crate::syntax::*;

/// The threads of a group that combines partial results: the number of
/// results one group combines in a round.
pub const GROUP: u32 = 256;

/// `log2(GROUP)`: the steps of a group's tree.
pub(super) const STEPS: i64 = GROUP.trailing_zeros() as i64;

/// Running values of the scalars `xs`.
pub(super) fn scalars(xs: &[SVar]) -> Vec<State> {
    xs.iter().map(|x| State::Scalar(*x)).collect()
}

impl<'p> Lowerer<'p> {
    /// The `k` partial results `parts` (one `[k]` block per component of
    /// each reduction of scalars) combined on the device in rounds (the
    /// module doc), in fresh blocks that the handles of `parts` then name.
    /// Returns the number left (a variable), which the host combines.
    pub(super) fn device_rounds(
        &mut self,
        s: &'p Screma,
        k: &SExp,
        parts: &[Vec<View>],
    ) -> R<SExp> {
        use SExp as E;
        let left_var = self.assign_fresh("parts_left", PrimType::I64, k.clone());
        let left = E::Var(left_var);
        let group = E::i64(i64::from(GROUP));
        let body = self.nested(|l| {
            let up = E::minus(E::plus(left.clone(), group.clone()), E::i64(1));
            let next = l.assign_fresh(
                "parts_next",
                PrimType::I64,
                bin(BinOp::Div, up, group.clone()),
            );
            let next = E::Var(next);
            let fresh: Vec<Vec<View>> = parts
                .iter()
                .map(|comps| {
                    comps
                        .iter()
                        .map(|p| l.alloc("red_round", p.elem, vec![next.clone()]))
                        .collect()
                })
                .collect();
            let elems = elem_types(parts);
            l.group_loop("segred-round", next.clone(), &elems, |l, g, t, local| {
                l.round_body(s, &left, parts, &fresh, (g, t, local))
            })?;
            for (old, new) in parts.iter().flatten().zip(fresh.iter().flatten()) {
                l.push(Stm::SwapMem(old.mem, new.mem));
            }
            l.push(Stm::Assign {
                var: left_var,
                exp: next,
                span: l.span,
            });
            Ok(())
        })?;
        self.push(Stm::While {
            cond: E::cmp(CmpOp::Gt, left.clone(), E::i64(CHUNKS)),
            body,
        });
        Ok(left)
    }

    /// Pushes a group loop (`label`) of `groups` groups of [`GROUP`]
    /// threads, with one local-memory array of [`GROUP`] elements per type
    /// of `elems` (per operator, per component). `body` lowers one
    /// thread's code from the group's index, the thread's index in its
    /// group and those arrays.
    pub(super) fn group_loop(
        &mut self,
        label: &'static str,
        groups: SExp,
        elems: &[Vec<PrimType>],
        body: impl FnOnce(&mut Self, &SExp, &SExp, &[Vec<View>]) -> R<()>,
    ) -> R<()> {
        use SExp as E;
        let g = self.new_var("group", PrimType::I64);
        let t = self.new_var("thread", PrimType::I64);
        let group = E::i64(i64::from(GROUP));
        let local: Vec<Vec<View>> = elems
            .iter()
            .map(|comps| {
                comps
                    .iter()
                    .map(|&elem| {
                        let mem = self.new_mem("local_mem", elem);
                        View::row_major(mem, elem, vec![group.clone()])
                    })
                    .collect()
            })
            .collect();
        let mut stms: Vec<Stm> = local
            .iter()
            .flatten()
            .map(|v| Stm::Alloc {
                mem: v.mem,
                count: group.clone(),
            })
            .collect();
        let prologue = stms.len();
        // The body is one thread's: whatever it lowers to runs on it.
        let saved = (
            self.parallel,
            self.inner_par,
            self.nest_here,
            self.inner_red,
        );
        (
            self.parallel,
            self.inner_par,
            self.nest_here,
            self.inner_red,
        ) = (true, false, false, false);
        let block = self.nested(|l| body(l, &E::Var(g), &E::Var(t), &local));
        (
            self.parallel,
            self.inner_par,
            self.nest_here,
            self.inner_red,
        ) = saved;
        stms.extend(block?.stms);
        self.push(Stm::ParFor {
            kind: ParKind::Groups {
                size: GROUP,
                kernel: None,
            },
            ids: vec![g, t],
            sizes: vec![groups, group],
            body: Block { stms },
            chunk_prologue: prologue,
            span: self.span,
            label,
        });
        Ok(())
    }

    /// One thread's code in a round's group loop: group `g` combines
    /// results `g * GROUP ..` (fewer in the last group) of the `left` in
    /// `parts` into element `g` of `out`, through the local arrays
    /// `local`.
    fn round_body(
        &mut self,
        s: &'p Screma,
        left: &SExp,
        parts: &[Vec<View>],
        out: &[Vec<View>],
        (g_e, t_e, local): (&SExp, &SExp, &[Vec<View>]),
    ) -> R<()> {
        use SExp as E;
        let group = E::i64(i64::from(GROUP));
        let l = self;
        let (g_e, t_e) = (g_e.clone(), t_e.clone());
        let at = l.assign_fresh(
            "at",
            PrimType::I64,
            E::plus(E::times(g_e.clone(), group.clone()), t_e.clone()),
        );
        let at = E::Var(at);
        // Each thread puts one result (if any is left) in local memory.
        let load = l.nested(|l| {
            let comps: Vec<View> = parts.iter().flatten().cloned().collect();
            let xs = l.read_each(&comps, std::slice::from_ref(&at), "part");
            let local: Vec<View> = local.iter().flatten().cloned().collect();
            l.write_scalars(&local, &scalars(&xs), &t_e);
            Ok(())
        })?;
        l.push_when(E::cmp(CmpOp::Lt, at.clone(), left.clone()), load);
        l.push(Stm::Barrier);
        let ops: Vec<&'p Lambda> = s.reduces.iter().map(|r| &r.op).collect();
        let busy = E::minus(left.clone(), E::times(g_e.clone(), group.clone()));
        let busy = E::Var(l.assign_fresh("busy", PrimType::I64, busy));
        l.local_tree(&ops, local, &t_e, &busy)?;
        // Thread 0 writes the group's result.
        let first = l.nested(|l| {
            let local: Vec<View> = local.iter().flatten().cloned().collect();
            let xs = l.read_each(&local, &[E::i64(0)], "result");
            let out: Vec<View> = out.iter().flatten().cloned().collect();
            l.write_scalars(&out, &scalars(&xs), &g_e);
            Ok(())
        })?;
        l.push_when(E::cmp(CmpOp::Eq, t_e.clone(), E::i64(0)), first);
        Ok(())
    }
    /// The combination, by the operators `ops` (per reduction), of the
    /// first `busy` values of the group's local arrays `local` (per
    /// reduction, per component) into their element 0, which every thread
    /// may read afterwards; `t` is the thread's index. In step `s`, thread
    /// `t` combines its element with the one `2^s` to its right when `t` is
    /// a multiple of `2^(s+1)` and that element is among the `busy`, with
    /// a barrier after each step.
    pub(super) fn local_tree(
        &mut self,
        ops: &[&'p Lambda],
        local: &[Vec<View>],
        t: &SExp,
        busy: &SExp,
    ) -> R<()> {
        use SExp as E;
        self.tree_steps(|l, stride| {
            let mask = E::minus(E::times(stride.clone(), E::i64(2)), E::i64(1));
            let mine = E::cmp(CmpOp::Eq, bin(BinOp::And, t.clone(), mask), E::i64(0));
            let partner = E::plus(t.clone(), stride.clone());
            let cond = E::and(mine, E::cmp(CmpOp::Lt, partner.clone(), busy.clone()));
            let combine = l.nested(|l| {
                for (n, op) in ops.iter().enumerate() {
                    let state = scalars(&l.read_each(&local[n], std::slice::from_ref(t), "mine"));
                    let theirs = l.read_each(&local[n], std::slice::from_ref(&partner), "theirs");
                    l.combine(op, &state, &values(&theirs))?;
                    l.write_scalars(&local[n], &state, t);
                }
                Ok(())
            })?;
            l.push_when(cond, combine);
            Ok(())
        })
    }

    /// A `for` loop over the [`STEPS`] steps of a group's tree in local
    /// memory: `step` lowers one step's statements from its stride
    /// (`2^s` in step `s`), and a barrier ends each step.
    pub(super) fn tree_steps(&mut self, step: impl FnOnce(&mut Self, &SExp) -> R<()>) -> R<()> {
        use SExp as E;
        let s = self.new_var("step", PrimType::I64);
        let tree = self.nested(|l| {
            let stride = l.assign_fresh(
                "stride",
                PrimType::I64,
                bin(BinOp::Shl, E::i64(1), E::Var(s)),
            );
            step(l, &E::Var(stride))?;
            l.push(Stm::Barrier);
            Ok(())
        })?;
        self.push(Stm::For {
            i: s,
            bound: E::i64(STEPS),
            body: tree,
        });
        Ok(())
    }
}

/// The scalars `xs` as values.
pub(super) fn values<'p>(xs: &[SVar]) -> Vec<Val<'p>> {
    xs.iter().map(|x| Val::Scalar(SExp::Var(*x))).collect()
}

/// Types of the elements of `parts` (per operator, per component).
pub(super) fn elem_types(parts: &[Vec<View>]) -> Vec<Vec<PrimType>> {
    parts
        .iter()
        .map(|comps| comps.iter().map(|p| p.elem).collect())
        .collect()
}
