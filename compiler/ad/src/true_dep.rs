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
//! all needs no per-iteration save.
//!
//! The chain may also sit in one branch of a top-level `if` whose other
//! branch returns the parameter unchanged, as in the body of a bounded
//! `while` loop (`if c then body else (c, x)`): the forward sweep then also
//! saves the condition of every iteration, the saves of the branch are
//! made inside it (the checkpoint arrays pass through the `if`), and the
//! return sweep writes the overwritten elements back only in the
//! iterations where the branch ran. A parameter changed any other way (by a
//! `map`, a nested loop, a slice update, both branches of an `if`) is
//! checkpointed as usual.

use std::collections::HashMap;

use ir::{Attr, Body, DimIndex, Exp, Operand, Param, Stm, Type, VarId};

use crate::ctx::{Ctx, R};

/// One in-place update of a parameter's chain.
#[derive(Clone, Debug)]
pub struct ChainUpdate {
    /// The position of the update among the statements of the body (or of
    /// the guarded branch).
    pub pos: usize,
    /// The array it updates (the parameter, or the previous update's
    /// result).
    pub cur: VarId,
    /// Its indices, one per dimension it fixes.
    pub idx: Vec<Operand>,
}

/// The `if` whose branch holds a guarded chain.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The position of the `if` among the body's statements.
    pub pos: usize,
    /// Its condition.
    pub cond: Operand,
    /// Whether the chain is in the `then` branch (else in the `else`
    /// branch; the other branch returns the parameter unchanged).
    pub in_then: bool,
}

/// How the body of a `#[true_dep]` loop changes one array parameter: a
/// chain of in-place updates, at the top level or in one branch of an
/// `if`.
#[derive(Clone, Debug)]
pub struct Chain {
    /// The updates, first to last.
    pub updates: Vec<ChainUpdate>,
    /// The `if` they are guarded by, if any.
    pub guard: Option<Guard>,
}

/// For each loop parameter of `#[true_dep]` loop `stm`, its chain of
/// in-place updates when the body changes it only by such a chain
/// (possibly empty: the parameter is returned unchanged); `None` for the
/// other parameters, and for every parameter of a loop without the
/// attribute.
pub fn chains(stm: &Stm, params: &[(Param, Operand)], body: &Body) -> Vec<Option<Chain>> {
    if !stm.attrs.contains(&Attr::TrueDep) {
        return vec![None; params.len()];
    }
    params
        .iter()
        .zip(&body.result)
        .map(|((p, _), r)| {
            if let Some(updates) = chain(body, p.var, r) {
                return Some(Chain {
                    updates,
                    guard: None,
                });
            }
            guarded_chain(body, p.var, r)
        })
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

/// The chain from `p` to `result` through one branch of a top-level `if`
/// of `body` that `result` comes from, the other branch returning `p`
/// unchanged; no top-level statement may update `p`.
fn guarded_chain(body: &Body, p: VarId, result: &Operand) -> Option<Chain> {
    let Operand::Var(r) = result else {
        return None;
    };
    let (pos, s) = body
        .stms
        .iter()
        .enumerate()
        .find(|(_, s)| s.pat.contains(r))?;
    let Exp::If {
        cond,
        then_body,
        else_body,
    } = &s.exp
    else {
        return None;
    };
    if body
        .stms
        .iter()
        .any(|s| matches!(&s.exp, Exp::Update(x, ..) if *x == p))
    {
        return None;
    }
    let q = s.pat.iter().position(|v| v == r)?;
    let unchanged = |b: &Body| b.result.get(q) == Some(&Operand::Var(p));
    let (in_then, branch) = if unchanged(else_body) {
        (true, then_body)
    } else if unchanged(then_body) {
        (false, else_body)
    } else {
        return None;
    };
    let updates = chain(branch, p, branch.result.get(q)?)?;
    Some(Chain {
        updates,
        guard: Some(Guard {
            pos,
            cond: *cond,
            in_then,
        }),
    })
}

/// One checkpoint array of a loop's forward sweep (of a chained parameter,
/// see `Ctx::save_chain`, or any other, see `Ctx::ckpt_with`): the
/// loop parameter, its initial value, the value the body returns for it
/// and the variable bound to the loop's final value of it.
pub struct ChainCkpt {
    /// The loop parameter (unique).
    pub param: VarId,
    /// Its initial value (an empty array).
    pub init: VarId,
    /// The body's result for it.
    pub result: VarId,
    /// The loop's result.
    pub last: VarId,
}

/// The statements that the forward sweep of a loop inserts into its body
/// to save the chained arrays.
#[derive(Default)]
pub struct ChainSaves {
    /// Before a top-level statement, by position.
    top: HashMap<usize, Vec<Stm>>,
    /// Inside a guarded branch, by the position of the `if`.
    guarded: HashMap<usize, GuardedSaves>,
}

/// The saves of the chains in one branch of an `if`.
#[derive(Default)]
struct GuardedSaves {
    /// Before a statement of the `then` (`.0`) or `else` (`.1`) branch, by
    /// position.
    inserts: (HashMap<usize, Vec<Stm>>, HashMap<usize, Vec<Stm>>),
    /// Checkpoint arrays through the `if`: the array before it, its value
    /// at the end of the `then` and of the `else` branch, and the `if`'s
    /// result.
    threads: Vec<(VarId, VarId, VarId, VarId)>,
}

impl ChainSaves {
    /// The statements of `body` with the saves inserted, after `prefix`.
    pub fn apply(mut self, body: &Body, mut prefix: Vec<Stm>) -> Vec<Stm> {
        for (pos, s) in body.stms.iter().enumerate() {
            if let Some(ins) = self.top.remove(&pos) {
                prefix.extend(ins);
            }
            let mut s = s.clone();
            if let Some(g) = self.guarded.remove(&pos)
                && let Exp::If {
                    then_body,
                    else_body,
                    ..
                } = &mut s.exp
            {
                let (then_ins, else_ins) = g.inserts;
                insert_into(then_body, then_ins);
                insert_into(else_body, else_ins);
                for (_, t, e, out) in g.threads {
                    then_body.result.push(Operand::Var(t));
                    else_body.result.push(Operand::Var(e));
                    s.pat.push(out);
                }
            }
            prefix.push(s);
        }
        prefix
    }
}

/// `body` with statements inserted before the positions of `ins`.
fn insert_into(body: &mut Body, mut ins: HashMap<usize, Vec<Stm>>) {
    if ins.is_empty() {
        return;
    }
    let old = std::mem::take(&mut body.stms);
    for (pos, s) in old.into_iter().enumerate() {
        if let Some(i) = ins.remove(&pos) {
            body.stms.extend(i);
        }
        body.stms.push(s);
    }
}

impl Ctx<'_> {
    /// The forward sweep's saves of the chained parameter of type `pt`
    /// (its shape at the loop's start) in a loop of `n` iterations whose
    /// index, as an `i64`, is `i64v`: per update its indices and the
    /// element it overwrites, and for a guarded chain first the condition.
    /// The statements go into `saves`, the checkpoint arrays' empty
    /// initial values into `out`; returns the checkpoint arrays, in the
    /// order [`Ctx::restore_chained`] reads them.
    pub fn save_chain(
        &mut self,
        out: &mut Vec<Stm>,
        chain: &Chain,
        pt: &Type,
        n: ir::Size,
        i64v: Operand,
        saves: &mut ChainSaves,
    ) -> R<Vec<ChainCkpt>> {
        let mut cks = Vec::new();
        if let Some(g) = &chain.guard {
            let t = self.op_ty(&g.cond);
            let ck = self.ckpt_with(out, &t, n)?;
            let ins = saves.top.entry(g.pos).or_default();
            self.push(
                ins,
                vec![ck.result],
                Exp::Update(ck.param, vec![DimIndex::Fix(i64v)], g.cond),
            );
            cks.push(ck);
        }
        for u in &chain.updates {
            let mut ins = Vec::new();
            let mut values: Vec<(Type, Operand)> =
                u.idx.iter().map(|o| (self.op_ty(o), *o)).collect();
            let fixed = u.idx.iter().map(|o| DimIndex::Fix(*o)).collect();
            let old = self.bind(&mut ins, "overwritten", Exp::Index(u.cur, fixed))?;
            let row = Type::array(pt.elem, pt.shape[u.idx.len()..].to_vec());
            values.push((row, old.into()));
            for (t, o) in values {
                let ck = self.ckpt_with(out, &t, n)?;
                self.push(
                    &mut ins,
                    vec![ck.result],
                    Exp::Update(ck.param, vec![DimIndex::Fix(i64v)], o),
                );
                if let Some(g) = &chain.guard {
                    // Through the `if`: the untaken branch leaves the row.
                    let out_var = self.fresh("ckpt", self.ty(ck.param));
                    let g_saves = saves.guarded.entry(g.pos).or_default();
                    let (t, e) = if g.in_then {
                        (ck.result, ck.param)
                    } else {
                        (ck.param, ck.result)
                    };
                    g_saves.threads.push((ck.param, t, e, out_var));
                    cks.push(ChainCkpt {
                        result: out_var,
                        ..ck
                    });
                } else {
                    cks.push(ck);
                }
            }
            match &chain.guard {
                Some(g) => {
                    let g_saves = saves.guarded.entry(g.pos).or_default();
                    let side = if g.in_then {
                        &mut g_saves.inserts.0
                    } else {
                        &mut g_saves.inserts.1
                    };
                    side.entry(u.pos).or_default().extend(ins);
                }
                None => saves.top.entry(u.pos).or_default().extend(ins),
            }
        }
        Ok(cks)
    }

    /// A checkpoint array of `n` rows of type `t`: its empty initial value
    /// (appended to `out`), its loop parameter, and fresh variables for the
    /// body's result and the loop's.
    pub(crate) fn ckpt_with(&mut self, out: &mut Vec<Stm>, t: &Type, n: ir::Size) -> R<ChainCkpt> {
        let (param, init) = self.ckpt_array(out, t, n)?;
        let result = self.fresh("ckpt", self.ty(param));
        let last = self.fresh("ckpt", self.ty(param));
        Ok(ChainCkpt {
            param,
            init,
            result,
            last,
        })
    }

    /// The return sweep's restoration of a chained array at iteration
    /// `ii`: `cur`, the array at the end of the iteration, with the
    /// elements the chain's updates overwrote written back, last update
    /// first, from the checkpoint arrays `cks` (as [`Ctx::save_chain`]
    /// returned them, less the final copy); for a guarded chain, only when
    /// its branch ran in that iteration.
    pub fn restore_chained(
        &mut self,
        out: &mut Vec<Stm>,
        cur: VarId,
        chain: &Chain,
        cks: &mut dyn Iterator<Item = VarId>,
        ii: Operand,
    ) -> R<VarId> {
        let guard_ck = match chain.guard {
            Some(_) => match cks.next() {
                Some(ck) => Some(ck),
                None => return Err(self.err("internal error: a guard not saved")),
            },
            None => None,
        };
        let mut groups = Vec::new();
        for u in &chain.updates {
            let group: Vec<VarId> = cks.take(u.idx.len() + 1).collect();
            groups.push(group);
        }
        let (Some(g), Some(gck)) = (&chain.guard, guard_ck) else {
            return self.restore_chain(out, cur, &chain.updates, &groups, ii);
        };
        let ran = self.bind(out, "saved_guard", Exp::Index(gck, vec![DimIndex::Fix(ii)]))?;
        let mut b = Vec::new();
        let restored = self.restore_chain(&mut b, cur, &chain.updates, &groups, ii)?;
        let taken = Body {
            stms: b,
            result: vec![restored.into()],
        };
        let kept = Body {
            stms: Vec::new(),
            result: vec![cur.into()],
        };
        let (then_body, else_body) = if g.in_then {
            (taken, kept)
        } else {
            (kept, taken)
        };
        let start = self.fresh("restored", self.ty(cur));
        self.push(
            out,
            vec![start],
            Exp::If {
                cond: ran.into(),
                then_body,
                else_body,
            },
        );
        Ok(start)
    }

    /// The return sweep's restoration of one iteration's array: `cur` (the
    /// array at the end of iteration `ii`) with the elements that the
    /// updates of `chain` overwrote written back, last update first, from
    /// the checkpoint arrays `saved` (per update: its indices, then its
    /// overwritten elements).
    fn restore_chain(
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
