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

use ir::syntax::Screma;
use ir::{BinOp, CmpOp, PrimType};

use super::soacs::{CHUNKS, State};
use super::{Lowerer, R, Val, bin};
use crate::syntax::*;

/// The threads of a group that combines partial results: the number of
/// results one group combines in a round.
pub const GROUP: u32 = 256;

/// `log2(GROUP)`: the steps of a group's tree.
const STEPS: i64 = GROUP.trailing_zeros() as i64;

/// Running values of the scalars `xs`.
fn scalars(xs: &[SVar]) -> Vec<State> {
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
            let round = l.group_round(s, &left, parts, &fresh)?;
            l.push(Stm::ParFor {
                kind: ParKind::Groups {
                    size: GROUP,
                    kernel: None,
                },
                ids: round.ids,
                sizes: vec![next.clone(), group.clone()],
                body: round.body,
                chunk_prologue: round.prologue,
                span: l.span,
                label: "segred-round",
            });
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

    /// The body of one round's group loop: group `g` combines results
    /// `g * GROUP ..` (fewer in the last group) of the `left` in `parts`
    /// into element `g` of `out`.
    fn group_round(
        &mut self,
        s: &'p Screma,
        left: &SExp,
        parts: &[Vec<View>],
        out: &[Vec<View>],
    ) -> R<GroupLoop> {
        use SExp as E;
        let g = self.new_var("group", PrimType::I64);
        let t = self.new_var("thread", PrimType::I64);
        let (g_e, t_e) = (E::Var(g), E::Var(t));
        let group = E::i64(i64::from(GROUP));
        let local: Vec<Vec<View>> = parts
            .iter()
            .map(|comps| {
                comps
                    .iter()
                    .map(|p| {
                        let mem = self.new_mem("local_mem", p.elem);
                        View::row_major(mem, p.elem, vec![group.clone()])
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
        let body = self.nested(|l| {
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
            let step = l.new_var("step", PrimType::I64);
            let tree = l.nested(|l| {
                let stride = l.assign_fresh(
                    "stride",
                    PrimType::I64,
                    bin(BinOp::Shl, E::i64(1), E::Var(step)),
                );
                let stride = E::Var(stride);
                let mask = E::minus(E::times(stride.clone(), E::i64(2)), E::i64(1));
                let mine = E::cmp(CmpOp::Eq, bin(BinOp::And, t_e.clone(), mask), E::i64(0));
                let there = E::plus(at.clone(), stride.clone());
                let cond = E::and(mine, E::cmp(CmpOp::Lt, there, left.clone()));
                let partner = E::plus(t_e.clone(), stride);
                let combine = l.nested(|l| {
                    for (n, r) in s.reduces.iter().enumerate() {
                        let state =
                            scalars(&l.read_each(&local[n], std::slice::from_ref(&t_e), "mine"));
                        let theirs =
                            l.read_each(&local[n], std::slice::from_ref(&partner), "theirs");
                        let vals: Vec<Val<'p>> =
                            theirs.into_iter().map(|y| Val::Scalar(E::Var(y))).collect();
                        l.combine(&r.op, &state, &vals)?;
                        l.write_scalars(&local[n], &state, &t_e);
                    }
                    Ok(())
                })?;
                l.push_when(cond, combine);
                l.push(Stm::Barrier);
                Ok(())
            })?;
            l.push(Stm::For {
                i: step,
                bound: E::i64(STEPS),
                body: tree,
            });
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
        });
        (
            self.parallel,
            self.inner_par,
            self.nest_here,
            self.inner_red,
        ) = saved;
        stms.extend(body?.stms);
        Ok(GroupLoop {
            ids: vec![g, t],
            body: Block { stms },
            prologue,
        })
    }
}

/// A group loop's indices, body and prologue length.
struct GroupLoop {
    ids: Vec<SVar>,
    body: Block,
    prologue: usize,
}
