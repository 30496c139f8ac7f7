//! Parallel loops (`ParFor`) on the runtime's chunks.
//!
//! The iteration space is split by `mem::par_for` (the chunking of the
//! runtime's `par`, with an estimate of the body's cost so small bodies
//! are not split finely); each chunk runs a sequential loop over its
//! iterations. The closure of a chunk owns copies of what the body reads
//! from outside: the scalars, and borrowed handles of the blocks (the
//! iterations write disjoint elements). Variables and blocks the body sets
//! are declared inside it, one per iteration's chunk. A failure returns
//! from the chunk; the first in chunk order wins.

use std::collections::BTreeSet;
use std::fmt::Write;

use ir::Span;

use super::decls;
use super::exps::{exp, exps};
use super::function::FnEm;
use super::names::{mem, var};
use crate::imp::{Block, MemId, ParKind, SExp, SVar, Slot, Stm, cost::cost};

type E<T> = Result<T, String>;

/// The scalars and blocks a block sets (assignments, reads, loop indices,
/// allocations, aliases, swaps and call results).
#[derive(Default)]
struct Sets {
    vars: BTreeSet<SVar>,
    mems: BTreeSet<MemId>,
}

fn sets(b: &Block, out: &mut Sets) {
    for s in &b.stms {
        match s {
            Stm::Assign { var, .. } | Stm::Read { var, .. } => {
                out.vars.insert(*var);
            }
            Stm::Alloc { mem, .. } => {
                out.mems.insert(*mem);
            }
            Stm::SwapMem(a, b) => {
                out.mems.insert(*a);
                out.mems.insert(*b);
            }
            Stm::AliasMem { dst, .. } => {
                out.mems.insert(*dst);
            }
            Stm::For { i, body, .. } => {
                out.vars.insert(*i);
                sets(body, out);
            }
            Stm::ParFor { ids, body, .. } => {
                out.vars.extend(ids.iter().copied());
                sets(body, out);
            }
            Stm::While { body, .. } | Stm::Planned { body, .. } => sets(body, out),
            Stm::AtomicUpdate { old, body, .. } => {
                out.vars.insert(*old);
                sets(body, out);
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                sets(then_block, out);
                sets(else_block, out);
            }
            Stm::Call { results, .. } => {
                for r in results {
                    match r {
                        Slot::Scalar(v) => out.vars.insert(*v),
                        Slot::Mem(m) => out.mems.insert(*m),
                    };
                }
            }
            Stm::Write { .. } | Stm::Copy { .. } | Stm::Assert { .. } | Stm::Barrier => {}
        }
    }
}

/// The scalars a parallel loop's body sets (its own: declared in it).
pub fn own_vars(body: &Block) -> std::collections::HashSet<SVar> {
    let mut set = Sets::default();
    sets(body, &mut set);
    set.vars.into_iter().collect()
}

impl FnEm<'_> {
    /// A parallel loop over `sizes` with index variables `ids`; the first
    /// `prologue` statements of `body` run once per chunk, before its
    /// iterations.
    pub fn par_for(
        &mut self,
        kind: ParKind,
        ids: &[SVar],
        sizes: &[SExp],
        body: &Block,
        prologue: usize,
        at: (Span, &str),
    ) -> E<()> {
        // A loop whose body is only loops that run no iteration (their
        // counts do not change in it) is skipped: a map over 2^40 rows of
        // empty arrays takes no time.
        let skip = match kind {
            ParKind::Map => self.empty_body(ids, body)?,
            _ => None,
        };
        if let Some(cond) = &skip {
            writeln!(self.out, "if !({cond}) {{").ok();
        }
        self.par_for_loop(kind, ids, sizes, body, prologue, at)?;
        if skip.is_some() {
            self.w("}\n");
        }
        Ok(())
    }

    /// When every statement of `body` is a loop whose count the body does
    /// not set, the Rust condition that all of them run no iteration.
    fn empty_body(&self, ids: &[SVar], body: &Block) -> E<Option<String>> {
        let mut set = Sets::default();
        sets(body, &mut set);
        let invariant = |e: &SExp| !ids.iter().chain(&set.vars).any(|v| e.mentions(*v));
        let mut conds = Vec::new();
        for s in &body.stms {
            match s {
                Stm::ParFor {
                    kind: ParKind::Map,
                    sizes,
                    ..
                } if sizes.iter().all(invariant) => {
                    let zero: Vec<String> = sizes
                        .iter()
                        .map(|n| Ok(format!("{} <= 0", exp(self.f, n, Span::NONE)?)))
                        .collect::<E<_>>()?;
                    conds.push(format!("({})", zero.join(" || ")));
                }
                Stm::For { bound, .. } if invariant(bound) => {
                    conds.push(format!("{} <= 0", exp(self.f, bound, Span::NONE)?));
                }
                _ => return Ok(None),
            }
        }
        Ok((!conds.is_empty()).then(|| conds.join(" && ")))
    }

    fn par_for_loop(
        &mut self,
        kind: ParKind,
        ids: &[SVar],
        sizes: &[SExp],
        body: &Block,
        prologue: usize,
        (span, label): (Span, &str),
    ) -> E<()> {
        match kind {
            ParKind::Kernel(k)
            | ParKind::Groups {
                kernel: Some(k), ..
            } => return self.launch(k, kind, ids, sizes, (body, prologue), span),
            // Kernel extraction replaces the group loops it does not make
            // kernels by their sequential equivalent.
            ParKind::Groups { kernel: None, .. } => {
                return Err("a group of threads outside a kernel".into());
            }
            ParKind::Map | ParKind::Chunks => {}
        }
        let mut set = Sets::default();
        sets(body, &mut set);
        for i in ids {
            set.vars.remove(i);
        }
        let used = crate::imp::uses::used_mems(body);
        self.w("{\n");
        for m in used.difference(&set.mems) {
            writeln!(self.out, "let {0} = {0}.handle();", mem(*m)).ok();
        }
        writeln!(self.out, "let sz_ = [{}];", exps(self.f, sizes, span)?).ok();
        let loc = (self.locate)(span);
        let name = if loc.is_empty() {
            label.to_string()
        } else {
            format!("{label} {loc}")
        };
        // A loop over chunks the lowering sized: every chunk its own task
        // (as many as the runtime allows), whatever its statements count.
        let cost = match kind {
            ParKind::Map => cost(body).to_string(),
            ParKind::Chunks | ParKind::Kernel(_) | ParKind::Groups { .. } => "u64::MAX".to_string(),
        };
        writeln!(
            self.out,
            "par_for({name:?}, space(&sz_), {cost}, move |lo_: usize, hi_: usize| -> R<()> {{"
        )
        .ok();
        let vars: Vec<SVar> = set.vars.into_iter().collect();
        let mems: Vec<MemId> = set.mems.into_iter().collect();
        let locals = vars.iter().copied().collect();
        match decls::plan(body, &locals, &[], &own_vars) {
            Some(d) => {
                self.decls.extend(d);
                self.declare(&[], &mems);
            }
            None => self.declare(&vars, &mems),
        }
        let from = prologue.min(body.stms.len());
        for s in &body.stms[..from] {
            self.stm(s)?;
        }
        let plan = match ids {
            [i] => self.plan(*i, body),
            _ => Default::default(),
        };
        if !plan.checks.is_empty() {
            let head = format!("for k_ in lo_..hi_ {{\nlet {} = k_ as i64;\n", var(ids[0]));
            self.versioned(&plan, "lo_ as i64", "hi_ as i64", &head, body, from)?;
            self.w("Ok(())\n})?;\n}\n");
            return Ok(());
        }
        if ids.len() == 1 {
            writeln!(
                self.out,
                "for k_ in lo_..hi_ {{\nlet {} = k_ as i64;",
                var(ids[0])
            )
            .ok();
        } else {
            writeln!(
                self.out,
                "let mut ix_ = [0i64; {}];\nunflatten(lo_, &sz_, &mut ix_);\nfor _ in lo_..hi_ {{",
                ids.len()
            )
            .ok();
            for (j, i) in ids.iter().enumerate() {
                writeln!(self.out, "let {} = ix_[{j}];", var(*i)).ok();
            }
        }
        self.block_from(body, from)?;
        if ids.len() != 1 {
            self.w("step(&mut ix_, &sz_);\n");
        }
        self.w("}\nOk(())\n})?;\n}\n");
        Ok(())
    }

    /// The launch of kernel `k` of the module's `KERNELS` for the parallel
    /// loop over `sizes` with indices `ids` and body `body`: its arguments
    /// are the body's uses ([`crate::imp::uses::kernel_uses`]), in the
    /// kernel's parameter order.
    fn launch(
        &mut self,
        k: u32,
        kind: ParKind,
        ids: &[SVar],
        sizes: &[SExp],
        (body, prologue): (&Block, usize),
        span: Span,
    ) -> E<()> {
        let uses = crate::imp::uses::loop_uses(kind, ids, body, prologue);
        let scalars: Vec<String> = uses
            .scalars
            .iter()
            .map(|v| format!("{}.to_prim()", var(*v)))
            .collect();
        let mems: Vec<String> = uses
            .mems
            .iter()
            .map(|m| format!("&{} as &dyn DevArg", mem(*m)))
            .collect();
        let written: Vec<String> = uses.written.iter().map(|w| w.to_string()).collect();
        // Each iteration's own blocks, for every thread at once: element
        // `i` of thread `t`'s block is at `i * threads + t`.
        self.w("{\n");
        writeln!(self.out, "let sz_ = [{}];", exps(self.f, sizes, span)?).ok();
        for (m, count) in &uses.allocated {
            let elem = self
                .f
                .mems
                .get(m.0 as usize)
                .map_or("i64", |i| crate::scalar::rust_prim(i.elem));
            writeln!(
                self.out,
                "let {} = Mem::<{elem}>::alloc(({}).saturating_mul(space(&sz_) as i64), {})?;",
                mem(*m),
                exps(self.f, std::slice::from_ref(count), span)?,
                super::names::span_lit(span)
            )
            .ok();
        }
        writeln!(
            self.out,
            "launch(&KERNELS, {k}, &sz_, &[{}], &[{}], &[{}])?;\n}}",
            scalars.join(", "),
            mems.join(", "),
            written.join(", ")
        )
        .ok();
        Ok(())
    }
}
