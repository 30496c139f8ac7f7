//! Groups of threads ([`ParKind::Groups`]): where barriers are, and the
//! sequential equivalent that host code runs when a group loop is not a
//! kernel.
//!
//! A group's threads run from one barrier to the next before any of them
//! goes on. On the host, [`sequential`] turns a group loop into a
//! parallel loop over the groups whose body runs each stretch between
//! barriers as a loop over the threads; a scalar a thread sets in one
//! stretch and reads in a later one lives in a block with an element per
//! thread in between. A `for`, `while` or `if` with a barrier inside runs
//! once per group, its bound or condition read from thread 0 (the same
//! on every thread, by the rule of [`ParKind::Groups`]).

use std::collections::BTreeSet;

use crate::syntax::*;

/// Whether `s` is or contains a barrier.
pub fn has_barrier(s: &Stm) -> bool {
    matches!(s, Stm::Barrier) || s.blocks().into_iter().any(block_has_barrier)
}

/// Whether a statement of `b` is or contains a barrier.
pub fn block_has_barrier(b: &Block) -> bool {
    b.stms.iter().any(has_barrier)
}

/// The sequential equivalent of the group loop `s` of `f` (a
/// [`Stm::ParFor`] of kind [`ParKind::Groups`]): a [`ParKind::Map`] over
/// the groups. Any other statement is returned unchanged.
pub fn sequential(f: &mut Function, s: Stm) -> Stm {
    let Stm::ParFor {
        kind: ParKind::Groups { size, .. },
        ids,
        sizes,
        mut body,
        chunk_prologue,
        span,
        label,
    } = s
    else {
        return s;
    };
    let (group, thread) = (ids[0], ids[1]);
    let rest = Block {
        stms: body.stms.split_off(chunk_prologue.min(body.stms.len())),
    };
    let mut uniform = BTreeSet::from([group, thread]);
    uniform_indices(&rest.stms, &mut uniform);
    let own: Vec<SVar> = set_vars(&rest).difference(&uniform).copied().collect();
    let mut em = Seq {
        f,
        thread,
        threads: SExp::i64(i64::from(size)),
        spilled: Vec::new(),
    };
    for v in &own {
        let ty = em.f.vars[v.0 as usize].ty;
        let mem = MemId(em.f.mems.len() as u32);
        em.f.mems.push(MemInfo {
            name: format!("{}_per_thread", em.f.vars[v.0 as usize].name),
            elem: ty,
        });
        body.stms.push(Stm::Alloc {
            mem,
            count: em.threads.clone(),
        });
        em.spilled
            .push((*v, View::row_major(mem, ty, vec![em.threads.clone()])));
    }
    let prologue = body.stms.len();
    body.stms.extend(em.stretches(rest.stms));
    Stm::ParFor {
        kind: ParKind::Map,
        ids: vec![group],
        sizes: vec![sizes[0].clone()],
        body,
        chunk_prologue: prologue,
        span,
        label,
    }
}

/// The counters of the loops with barriers inside: the same on every
/// thread.
fn uniform_indices(stms: &[Stm], out: &mut BTreeSet<SVar>) {
    for s in stms {
        if !has_barrier(s) {
            continue;
        }
        if let Stm::For { i, .. } = s {
            out.insert(*i);
        }
        for b in s.blocks() {
            uniform_indices(&b.stms, out);
        }
    }
}

struct Seq<'a> {
    f: &'a mut Function,
    /// The thread index, the counter of each stretch's loop.
    thread: SVar,
    /// The threads of a group.
    threads: SExp,
    /// The scalars each thread sets, and their blocks of one element per
    /// thread.
    spilled: Vec<(SVar, View)>,
}

impl Seq<'_> {
    /// `stms` with each stretch between barriers a loop over the threads.
    fn stretches(&mut self, stms: Vec<Stm>) -> Vec<Stm> {
        let mut out = Vec::new();
        let mut run = Vec::new();
        for s in stms {
            if !has_barrier(&s) {
                run.push(s);
                continue;
            }
            self.flush(&mut run, &mut out);
            match s {
                Stm::Barrier => {}
                Stm::For { i, bound, body } => {
                    self.read_thread_zero(&[&bound], &mut out);
                    out.push(Stm::For {
                        i,
                        bound,
                        body: Block {
                            stms: self.stretches(body.stms),
                        },
                    });
                }
                Stm::While { cond, body } => {
                    // The condition is read again after each iteration.
                    let mut stms = self.stretches(body.stms);
                    self.read_thread_zero(&[&cond], &mut stms);
                    self.read_thread_zero(&[&cond], &mut out);
                    out.push(Stm::While {
                        cond,
                        body: Block { stms },
                    });
                }
                Stm::If {
                    cond,
                    then_block,
                    else_block,
                } => {
                    self.read_thread_zero(&[&cond], &mut out);
                    out.push(Stm::If {
                        cond,
                        then_block: Block {
                            stms: self.stretches(then_block.stms),
                        },
                        else_block: Block {
                            stms: self.stretches(else_block.stms),
                        },
                    });
                }
                // The rule of `ParKind::Groups` allows no other place; the
                // interpreter reports it. Kept as it is (one thread's run).
                other => out.push(other),
            }
        }
        self.flush(&mut run, &mut out);
        out
    }

    /// Reads the spilled scalars `exps` mention from thread 0's elements.
    fn read_thread_zero(&self, exps: &[&SExp], out: &mut Vec<Stm>) {
        for (v, view) in &self.spilled {
            if exps.iter().any(|e| e.mentions(*v)) {
                out.push(Stm::Read {
                    var: *v,
                    view: view.clone(),
                    idx: vec![SExp::i64(0)],
                });
            }
        }
    }

    /// The stretch `run` as a loop over the threads: each thread's spilled
    /// scalars read at its start and written back at its end.
    fn flush(&mut self, run: &mut Vec<Stm>, out: &mut Vec<Stm>) {
        if run.is_empty() {
            return;
        }
        let stms = Block {
            stms: std::mem::take(run),
        };
        let read = crate::uses::read_vars(&stms);
        let set = set_vars(&stms);
        let at = vec![SExp::Var(self.thread)];
        let mut body = Vec::new();
        for (v, view) in &self.spilled {
            if read.contains(v) {
                body.push(Stm::Read {
                    var: *v,
                    view: view.clone(),
                    idx: at.clone(),
                });
            }
        }
        body.extend(stms.stms);
        for (v, view) in &self.spilled {
            if set.contains(v) {
                body.push(Stm::Write {
                    view: view.clone(),
                    idx: at.clone(),
                    value: SExp::Var(*v),
                });
            }
        }
        out.push(Stm::For {
            i: self.thread,
            bound: self.threads.clone(),
            body: Block { stms: body },
        });
    }
}

/// The scalars `b` sets, in the blocks inside its statements too.
fn set_vars(b: &Block) -> BTreeSet<SVar> {
    let mut out = BTreeSet::new();
    b.for_each_set(&mut |v| {
        out.insert(v);
    });
    out
}
