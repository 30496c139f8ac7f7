//! `#[true_dep]` loops: array parameters saved once rather than per
//! iteration.
//!
//! A loop marked `#[true_dep]` carries arrays from iteration to iteration
//! by in-place updates (a true, loop-carried dependency). Checkpointing
//! such an array at every iteration costs `n` copies of it. Instead, for a
//! parameter whose body only changes it by a chain of in-place updates at
//! fixed indices,
//!
//! ```text
//! let x1 = x with [a] = u
//! let x2 = x1 with [b] = v
//! in (..., x2, ...)
//! ```
//!
//! the forward sweep saves, per iteration, only the indices and the
//! elements each update overwrites (`x[a]`, `x1[b]`), and the loop's final
//! array once. The return sweep carries the array as it was at the end of
//! the iteration it sweeps back, and rebuilds the iteration's start by
//! writing the overwritten elements back, last update first
//! (`x1 = x2 with [b] = x1[b]`, `x = x1 with [a] = x[a]`). The result is
//! exact whatever the indices are; a parameter the body does not change at
//! all needs no per-iteration save. A parameter changed any other way (by a
//! `map`, an `if`, a nested loop, a slice update) is checkpointed as usual.

use ir::{Attr, Body, DimIndex, Exp, Operand, Param, Stm, VarId};

use crate::ctx::{Ctx, R};

/// One in-place update of a parameter's chain.
#[derive(Clone, Debug)]
pub struct ChainUpdate {
    /// The position of the update among the body's statements.
    pub pos: usize,
    /// The array it updates (the parameter, or the previous update's
    /// result).
    pub cur: VarId,
    /// Its indices, one per dimension it fixes.
    pub idx: Vec<Operand>,
}

/// For each loop parameter of `#[true_dep]` loop `stm`, its chain of
/// in-place updates when the body changes it only by such a chain
/// (possibly empty: the parameter is returned unchanged); `None` for the
/// other parameters, and for every parameter of a loop without the
/// attribute.
pub fn chains(
    stm: &Stm,
    params: &[(Param, Operand)],
    body: &Body,
) -> Vec<Option<Vec<ChainUpdate>>> {
    if !stm.attrs.contains(&Attr::TrueDep) {
        return vec![None; params.len()];
    }
    params
        .iter()
        .zip(&body.result)
        .map(|((p, _), r)| chain(body, p.var, r))
        .collect()
}

/// The chain of in-place updates from `p` to `result` among the top-level
/// statements of `body`.
fn chain(body: &Body, p: VarId, result: &Operand) -> Option<Vec<ChainUpdate>> {
    let mut cur = p;
    let mut updates = Vec::new();
    for (pos, s) in body.stms.iter().enumerate() {
        if let (Exp::Update(x, idx, _), [next]) = (&s.exp, s.pat.as_slice())
            && *x == cur
        {
            let fixed: Option<Vec<Operand>> = idx
                .iter()
                .map(|d| match d {
                    DimIndex::Fix(o) => Some(*o),
                    DimIndex::Range { .. } => None,
                })
                .collect();
            updates.push(ChainUpdate {
                pos,
                cur,
                idx: fixed?,
            });
            cur = *next;
        }
    }
    (*result == Operand::Var(cur)).then_some(updates)
}

impl Ctx<'_> {
    /// The return sweep's restoration of one iteration's array: `cur` (the
    /// array at the end of iteration `ii`) with the elements that the
    /// updates of `chain` overwrote written back, last update first, from
    /// the checkpoint arrays `saved` (per update: its indices, then its
    /// overwritten elements).
    pub fn restore_chain(
        &mut self,
        out: &mut Vec<Stm>,
        cur: VarId,
        chain: &[ChainUpdate],
        saved: &[Vec<VarId>],
        ii: Operand,
    ) -> R<VarId> {
        let mut arr = cur;
        for (u, cks) in chain.iter().zip(saved).rev() {
            let Some((old_ck, idx_cks)) = cks.split_last() else {
                return Err(self.err("internal error: an update without saved elements"));
            };
            if idx_cks.len() != u.idx.len() {
                return Err(self.err("internal error: an update's saved indices"));
            }
            let mut idx = Vec::new();
            for ck in idx_cks {
                let v = self.bind(out, "saved_idx", Exp::Index(*ck, vec![DimIndex::Fix(ii)]))?;
                idx.push(DimIndex::Fix(v.into()));
            }
            let old = self.bind(
                out,
                "saved_old",
                Exp::Index(*old_ck, vec![DimIndex::Fix(ii)]),
            )?;
            let old = if self.ty(old).shape.is_empty() {
                old
            } else {
                self.bind(out, "saved_old", Exp::Copy(old))?
            };
            let t = self.ty(arr);
            let next = self.fresh("restored", t);
            self.push(out, vec![next], Exp::Update(arr, idx, old.into()));
            arr = next;
        }
        Ok(arr)
    }
}
