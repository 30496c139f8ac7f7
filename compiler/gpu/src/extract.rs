//! Kernel extraction: which parallel loops of the imperative IR run on the
//! device.
//!
//! Copies in host code first become parallel loops
//! ([`imp::copies::parallel_copies`]), so that they run on the device too.
//! A parallel loop becomes a kernel when it is outermost (not inside
//! another parallel loop), its function is never called from inside a
//! parallel loop (so launches come from the host thread alone), and the
//! kernel emitter accepts its body ([`crate::kernel_c::kernel`]). It is
//! then marked [`ParKind::Kernel`] with its number; the host code launches
//! it there. Every other loop stays host code, run by the multicore
//! emitter's parallel loops over the host copies of the blocks (the GPU
//! runtime keeps the two copies coherent), so every program runs whatever
//! its kernels' coverage.

use std::collections::BTreeSet;

use imp::uses::loop_uses;
use imp::{Block, ParKind, Program, SExp, Stm};
use ir::Span;
use ir::ids::EntityId;

use crate::kernel_c::Target;
use crate::kernel_c::kernel::{Kernel, Refusal, group_kernel, kernel};

/// What extraction made of a program: its kernels and the outermost
/// parallel loops left on the host, with the reason.
#[derive(Clone, Debug, Default)]
pub struct Extracted {
    /// The kernels, in the order of their numbers.
    pub kernels: Vec<Kernel>,
    /// The loops that stay on the host: function name, span, why.
    pub host_loops: Vec<(String, Span, Refusal)>,
    /// The program's tuning parameters ([`imp::SExp::Tuned`]), numbered:
    /// name and default, in the order of their numbers.
    pub thresholds: Vec<(String, i64)>,
}

/// Marks the parallel loops of `prog` that become kernels for `target`;
/// `safe` keeps index bounds checks.
pub fn extract(prog: &mut Program, target: Target, safe: bool) -> Extracted {
    let inside = called_inside_parallel_loops(prog);
    let mut out = Extracted::default();
    for k in 0..prog.functions.len() {
        let inside_loops = inside.contains(&k);
        if !inside_loops {
            imp::copies::parallel_copies(&mut prog.functions[k]);
        }
        let mut body = std::mem::take(&mut prog.functions[k].body);
        let f = &prog.functions[k];
        if inside_loops {
            keep_thread_versions(&mut body);
            note_host_loops(&prog.functions[k].name, &body, &mut out);
        } else {
            mark(f, &mut body, target, safe, &mut out);
        }
        prog.functions[k].body = body;
        sequential_groups(&mut prog.functions[k]);
    }
    for f in &mut prog.functions {
        number_thresholds(&mut f.body, &mut out.thresholds);
    }
    out
}

/// Names the tuning parameters of the conditions in `b` (the lowering's
/// versions of code: [`imp::SExp::Tuned`]) uniquely, their kind and the
/// next number (`row_group_threshold_0`), adding them to `out`.
fn number_thresholds(b: &mut Block, out: &mut Vec<(String, i64)>) {
    fn walk(e: &mut SExp, out: &mut Vec<(String, i64)>) {
        match e {
            SExp::Tuned { name, default } => {
                *name = format!("{name}_{}", out.len());
                out.push((name.clone(), *default));
            }
            SExp::UnOp(_, x) | SExp::Convert(_, _, x) => walk(x, out),
            SExp::BinOp(_, a, b) | SExp::Cmp(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            SExp::Math(_, xs) => xs.iter_mut().for_each(|x| walk(x, out)),
            SExp::Chunks { w, .. } => walk(w, out),
            SExp::Var(_) | SExp::Const(_) => {}
        }
    }
    for s in &mut b.stms {
        if let Stm::If { cond, .. } = s {
            walk(cond, out);
        }
        for inner in s.blocks_mut() {
            number_thresholds(inner, out);
        }
    }
}

/// The two versions of a segmented reduction the lowering made, a group
/// loop over the rows and a loop of one thread per row
/// ([`imp::lower::GROUP_ROWS_LABEL`]): the `if` holding them, its
/// `then` branch that group loop alone, if `s` is one.
fn row_versions(s: &mut Stm) -> Option<(&mut Block, &mut Block)> {
    let Stm::If {
        then_block,
        else_block,
        ..
    } = s
    else {
        return None;
    };
    let [Stm::ParFor { kind, label, .. }] = then_block.stms.as_slice() else {
        return None;
    };
    (matches!(kind, ParKind::Groups { .. }) && *label == imp::lower::GROUP_ROWS_LABEL)
        .then_some((then_block, else_block))
}

/// Keeps the loops of one thread per row alone in `b` ([`row_versions`]),
/// for a function that runs inside parallel loops, where no group loop
/// can be a kernel.
fn keep_thread_versions(b: &mut Block) {
    let mut i = 0;
    while i < b.stms.len() {
        if let Some((_, threads)) = row_versions(&mut b.stms[i]) {
            let threads = std::mem::take(&mut threads.stms);
            b.stms.splice(i..=i, threads);
            continue;
        }
        for inner in b.stms[i].blocks_mut() {
            keep_thread_versions(inner);
        }
        i += 1;
    }
}

/// Replaces the group loops of `f` that are not kernels by their
/// sequential equivalent ([`imp::groups::sequential`]), which host code
/// runs.
fn sequential_groups(f: &mut imp::Function) {
    fn walk(b: &mut Block, f: &mut imp::Function) {
        for s in &mut b.stms {
            if let Stm::ParFor {
                kind: ParKind::Groups { kernel: None, .. },
                ..
            } = s
            {
                let taken = std::mem::replace(s, Stm::Barrier);
                *s = imp::groups::sequential(f, taken);
            }
            for inner in s.blocks_mut() {
                walk(inner, f);
            }
        }
    }
    let mut body = std::mem::take(&mut f.body);
    walk(&mut body, f);
    f.body = body;
}

/// The most memory blocks a kernel may take. The bodies that reach more
/// (the chunk loop of a reduction of dozens of arrays, as nested AD makes
/// them: `tests/ad/jmp_nested.fut`, 74 blocks) keep so many addresses and
/// values live that ptxas spills registers; they run on the host.
const MAX_BLOCKS: usize = 64;

fn mark(f: &imp::Function, b: &mut Block, target: Target, safe: bool, out: &mut Extracted) {
    let mut i = 0;
    while i < b.stms.len() {
        // A segmented reduction's group loop that cannot be a kernel (a
        // check in a group of threads) gives way to its loop of one thread
        // per row, which can, rather than running on the host.
        if let Some((groups, threads)) = row_versions(&mut b.stms[i]) {
            let (kernels, refused) = (out.kernels.len(), out.host_loops.len());
            mark(f, groups, target, safe, out);
            if out.host_loops.len() > refused {
                out.host_loops.truncate(refused);
                out.kernels.truncate(kernels);
                let threads = std::mem::take(&mut threads.stms);
                b.stms.splice(i..=i, threads);
                continue;
            }
            mark(f, threads, target, safe, out);
            i += 1;
            continue;
        }
        let s = &mut b.stms[i];
        if let Stm::ParFor {
            kind,
            ids,
            sizes,
            body,
            span,
            label,
            chunk_prologue,
        } = s
        {
            let uses = loop_uses(*kind, ids, body, *chunk_prologue);
            if uses.mems.len() > MAX_BLOCKS {
                out.host_loops.push((
                    f.name.clone(),
                    *span,
                    format!(
                        "it reads or writes {} memory blocks, more than {MAX_BLOCKS}: a kernel that large spills registers",
                        uses.mems.len()
                    ),
                ));
                i += 1;
                continue;
            }
            let name = format!("k{}", out.kernels.len());
            let number = out.kernels.len() as u32;
            let made = match *kind {
                ParKind::Groups { size, .. } => {
                    let body = (&*body, *chunk_prologue);
                    group_kernel(f, &name, ids, sizes, body, size, &uses, target, safe).map(|k| {
                        (
                            k,
                            ParKind::Groups {
                                size,
                                kernel: Some(number),
                            },
                        )
                    })
                }
                _ => kernel(f, &name, ids, sizes, body, &uses, target, safe)
                    .map(|k| (k, ParKind::Kernel(number))),
            };
            match made {
                Ok((mut kern, marked)) => {
                    kern.origin = (label, *span);
                    *kind = marked;
                    out.kernels.push(kern);
                }
                Err(why) => out.host_loops.push((f.name.clone(), *span, why)),
            }
            i += 1;
            continue;
        }
        for inner in s.blocks_mut() {
            mark(f, inner, target, safe, out);
        }
        i += 1;
    }
}

fn note_host_loops(name: &str, b: &Block, out: &mut Extracted) {
    for s in &b.stms {
        if let Stm::ParFor { span, .. } = s {
            out.host_loops.push((
                name.to_string(),
                *span,
                "its function is called inside a parallel loop".into(),
            ));
            continue;
        }
        for inner in s.blocks() {
            note_host_loops(name, inner, out);
        }
    }
}

/// The functions called, directly or not, from inside a parallel loop.
fn called_inside_parallel_loops(prog: &Program) -> BTreeSet<usize> {
    let mut found = BTreeSet::new();
    let mut work = Vec::new();
    for f in &prog.functions {
        calls(&f.body, false, &mut |callee, inside| {
            if inside {
                work.push(callee);
            }
        });
    }
    while let Some(k) = work.pop() {
        if !found.insert(k) {
            continue;
        }
        if let Some(f) = prog.functions.get(k) {
            calls(&f.body, true, &mut |callee, _| work.push(callee));
        }
    }
    found
}

fn calls(b: &Block, inside: bool, f: &mut dyn FnMut(usize, bool)) {
    for s in &b.stms {
        if let Stm::Call { fun, .. } = s {
            f(fun.index(), inside);
        }
        let deeper = inside || matches!(s, Stm::ParFor { .. });
        for inner in s.blocks() {
            calls(inner, deeper, f);
        }
    }
}
