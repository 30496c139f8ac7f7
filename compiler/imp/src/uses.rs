//! What the body of a parallel loop uses from outside it: the scalars it
//! reads and the blocks it reads or writes. A GPU kernel takes exactly
//! these as parameters, in the order given here, so the kernel emitter and
//! the host code launching the kernel agree on it.

use std::collections::BTreeSet;

use super::syntax::{Block, MemId, ParKind, SExp, SVar, Slot, Stm};

/// The scalars and blocks a kernel body uses from outside, in parameter
/// order (ascending numbers), and whether the body writes each block.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KernelUses {
    /// The scalars read and not set inside (the loop's indices excluded).
    pub scalars: Vec<SVar>,
    /// The blocks read or written.
    pub mems: Vec<MemId>,
    /// For each of [`KernelUses::mems`], whether the body writes it.
    pub written: Vec<bool>,
    /// The blocks the body allocates (among [`KernelUses::mems`]), with
    /// the number of elements of their first allocation: each iteration's
    /// own block, which a GPU backend allocates before the kernel for
    /// every thread at once (memory expansion).
    pub allocated: Vec<(MemId, SExp)>,
}

/// The uses of a parallel loop with indices `ids` and body `body`.
pub fn kernel_uses(ids: &[SVar], body: &Block) -> KernelUses {
    let mut set = BTreeSet::new();
    body.for_each_set(&mut |v| {
        set.insert(v);
    });
    set.extend(ids.iter().copied());
    let mut read = BTreeSet::new();
    let mut mems = BTreeSet::new();
    let mut written = BTreeSet::new();
    walk(body, &mut read, &mut mems, &mut written);
    let mut allocated: Vec<(MemId, SExp)> = Vec::new();
    allocations(body, &mut allocated);
    KernelUses {
        scalars: read.difference(&set).copied().collect(),
        written: mems.iter().map(|m| written.contains(m)).collect(),
        mems: mems.into_iter().collect(),
        allocated,
    }
}

/// The uses of a parallel loop of kind `kind` whose body's first
/// `prologue` statements are its prologue: [`kernel_uses`], less a group
/// loop's local memory (the blocks its prologue allocates), which its
/// kernel declares itself.
pub fn loop_uses(kind: ParKind, ids: &[SVar], body: &Block, prologue: usize) -> KernelUses {
    let mut uses = kernel_uses(ids, body);
    if let ParKind::Groups { .. } = kind {
        let local: BTreeSet<MemId> = body.stms[..prologue.min(body.stms.len())]
            .iter()
            .filter_map(|s| match s {
                Stm::Alloc { mem, .. } => Some(*mem),
                _ => None,
            })
            .collect();
        let (mems, written) = uses
            .mems
            .iter()
            .zip(&uses.written)
            .filter(|(m, _)| !local.contains(m))
            .map(|(m, w)| (*m, *w))
            .unzip();
        uses.mems = mems;
        uses.written = written;
        uses.allocated.retain(|(m, _)| !local.contains(m));
    }
    uses
}

/// The scalars `b` reads, in the blocks inside its statements too.
pub fn read_vars(b: &Block) -> BTreeSet<SVar> {
    let (mut read, mut mems, mut written) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    walk(b, &mut read, &mut mems, &mut written);
    read
}

/// The blocks `b` mentions: read, written, allocated, aliased, swapped or
/// passed to calls, in the blocks inside its statements too.
pub fn used_mems(b: &Block) -> BTreeSet<MemId> {
    let (mut read, mut mems, mut written) = (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    walk(b, &mut read, &mut mems, &mut written);
    mems
}

/// The first allocation of each block allocated in `b`, in order.
fn allocations(b: &Block, out: &mut Vec<(MemId, SExp)>) {
    for s in &b.stms {
        if let Stm::Alloc { mem, count } = s
            && !out.iter().any(|(m, _)| m == mem)
        {
            out.push((*mem, count.clone()));
        }
        for inner in s.blocks() {
            allocations(inner, out);
        }
    }
}

fn walk(
    b: &Block,
    read: &mut BTreeSet<SVar>,
    mems: &mut BTreeSet<MemId>,
    written: &mut BTreeSet<MemId>,
) {
    for s in &b.stms {
        s.for_each_exp(&mut |e| {
            e.for_each_var(&mut |v| {
                read.insert(v);
            })
        });
        match s {
            Stm::Read { view, .. } => {
                mems.insert(view.mem);
            }
            Stm::Write { view, .. } | Stm::AtomicUpdate { view, .. } => {
                mems.insert(view.mem);
                written.insert(view.mem);
            }
            Stm::Copy { dst, src, .. } => {
                mems.insert(src.mem);
                mems.insert(dst.mem);
                written.insert(dst.mem);
            }
            Stm::Alloc { mem, .. } => {
                mems.insert(*mem);
                written.insert(*mem);
            }
            Stm::SwapMem(a, c) | Stm::AliasMem { dst: a, src: c } => {
                for m in [a, c] {
                    mems.insert(*m);
                    written.insert(*m);
                }
            }
            Stm::Call { args, results, .. } => {
                for a in args {
                    if let super::syntax::Arg::Mem(m) = a {
                        mems.insert(*m);
                        written.insert(*m);
                    }
                }
                for r in results {
                    if let Slot::Mem(m) = r {
                        mems.insert(*m);
                        written.insert(*m);
                    }
                }
            }
            _ => {}
        }
        for inner in s.blocks() {
            walk(inner, read, mems, written);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SExp, View};
    use ir::{BinOp, PrimType, Span};

    #[test]
    fn outer_scalars_and_blocks_in_order_with_writes() {
        let (i, x, n, a) = (SVar(0), SVar(1), SVar(2), SVar(3));
        let (src, dst) = (MemId(1), MemId(0));
        let v = |m| View::row_major(m, PrimType::F64, vec![SExp::Var(n)]);
        let body = Block {
            stms: vec![
                Stm::Read {
                    var: x,
                    view: v(src),
                    idx: vec![SExp::Var(i)],
                },
                Stm::Write {
                    view: v(dst),
                    idx: vec![SExp::Var(i)],
                    value: SExp::BinOp(BinOp::Mul, Box::new(SExp::Var(x)), Box::new(SExp::Var(a))),
                },
            ],
        };
        let u = kernel_uses(&[i], &body);
        assert_eq!(u.scalars, vec![n, a]);
        assert_eq!(u.mems, vec![dst, src]);
        assert_eq!(u.written, vec![true, false]);
        assert!(u.allocated.is_empty());
        let _ = Span::NONE;
    }
}
