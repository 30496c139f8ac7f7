//! One kernel: the body of a parallel loop of the imperative IR as a
//! kernel function, one iteration per device thread.
//!
//! The kernel's parameters follow the runtime's ABI (`runtime-opencl`'s
//! `launch` module): the failure buffer, the number of iterations, the
//! loop's sizes, then the scalars and blocks the body uses from outside
//! ([`imp::uses::kernel_uses`], in that order). Thread `g` runs
//! iteration `g` of the row-major space; threads past its end return at
//! once. Statements the kernel runs sequentially per thread: assignments,
//! element reads and writes, `for`, `while`, `if`, nested parallel loops
//! and planned regions (as sequential loops), copies between views of one
//! shape, atomic updates (a compare-and-swap loop on 32- and 64-bit
//! elements) and assertions (the failure protocol: the first failing
//! thread records the assertion's number and arguments, every failing
//! thread returns). What a kernel cannot hold yet — allocations, calls,
//! `f16`, atomic updates of 8- and 16-bit elements — is a [`Refusal`], and
//! the loop stays on the host.

use std::collections::BTreeSet;
use std::fmt::Write;

use imp::uses::KernelUses;
use imp::{Block, Check, Function, SExp, SVar, Stm, View};
use ir::{BinOp, PrimType, Span};

use super::Target;
use super::scalar;

/// Why a parallel loop cannot be a kernel (it then runs on the host).
pub type Refusal = String;

/// An assertion of a kernel: what the runtime needs to report its failure.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelAssert {
    /// The message, with `{}` for each argument.
    pub msg: String,
    /// The source statement.
    pub span: Span,
    /// The types of the arguments.
    pub args: Vec<PrimType>,
}

/// An emitted kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// The kernel function's name.
    pub name: String,
    /// Its source (without the prelude).
    pub source: String,
    /// Its assertions, numbered from 0 in the failure protocol.
    pub asserts: Vec<KernelAssert>,
    /// The segmented operation it runs (`segmap`, `segred`, …) and the
    /// source statement of its loop, for profiles.
    pub origin: (&'static str, Span),
    /// The work-group size it must be launched with (a group loop's
    /// threads per group), or 0: the runtime's choice.
    pub group: u32,
}

/// A group loop as a kernel: its threads per group and its local memory
/// (blocks, element types and constant sizes).
struct Group {
    size: u32,
    local: Vec<(imp::MemId, PrimType, i64)>,
}

/// The parallel loop of `f` over `sizes` with indices `ids` and body
/// `body`, whose outside uses are `uses`, as kernel `name`; `safe` keeps
/// index bounds checks.
#[allow(clippy::too_many_arguments)]
pub fn kernel(
    f: &Function,
    name: &str,
    ids: &[SVar],
    sizes: &[SExp],
    body: &Block,
    uses: &KernelUses,
    target: Target,
    safe: bool,
) -> Result<Kernel, Refusal> {
    emit(f, name, (ids, sizes, body), uses, target, safe, None)
}

/// The group loop ([`imp::ParKind::Groups`]) of `f` with `size` threads
/// per group, indices `ids` (the group, the thread), space `sizes` and
/// body `body`, whose first `prologue` statements allocate its local
/// memory, as kernel `name`: one work-group per group, launched with
/// work-groups of exactly `size`, its local memory declared in the
/// kernel, barriers as the dialect's. `uses` are the loop's
/// ([`imp::uses::loop_uses`]). A body with assertions follows the group
/// failure protocol of [`super::group_failures`]: no thread returns early.
#[allow(clippy::too_many_arguments)]
pub fn group_kernel(
    f: &Function,
    name: &str,
    ids: &[SVar],
    sizes: &[SExp],
    (body, prologue): (&Block, usize),
    size: u32,
    uses: &KernelUses,
    target: Target,
    safe: bool,
) -> Result<Kernel, Refusal> {
    if ids.len() != 2 || sizes.len() != 2 {
        return Err("a group loop without a group and a thread index".into());
    }
    let (head, rest) = body.stms.split_at(prologue.min(body.stms.len()));
    let mut local = Vec::new();
    for s in head {
        let Stm::Alloc { mem, count } = s else {
            return Err("a group loop's prologue that is not local memory".into());
        };
        let Some(n) = count.as_i64().filter(|n| (1..=1 << 16).contains(n)) else {
            return Err("local memory of a size not known when compiling".into());
        };
        let t = f
            .mems
            .get(mem.0 as usize)
            .map(|i| i.elem)
            .ok_or("an unknown block")?;
        local.push((*mem, t, n));
    }
    let body = Block {
        stms: rest.to_vec(),
    };
    let group = Group { size, local };
    emit(
        f,
        name,
        (ids, sizes, &body),
        uses,
        target,
        safe,
        Some(group),
    )
}

/// Why a group kernel's first emission stopped: it has checks, and is
/// emitted again following the failure protocol of
/// [`super::group_failures`].
const NEEDS_GUARDS: &str = "a check in a group of threads";

fn emit(
    f: &Function,
    name: &str,
    parts: (&[SVar], &[SExp], &Block),
    uses: &KernelUses,
    target: Target,
    safe: bool,
    group: Option<Group>,
) -> Result<Kernel, Refusal> {
    match emit_as(f, name, parts, uses, target, safe, group.as_ref(), false) {
        Err(e) if e == NEEDS_GUARDS => {
            emit_as(f, name, parts, uses, target, safe, group.as_ref(), true)
        }
        r => r,
    }
}

/// [`emit`], with checks following the group kernels' failure protocol
/// when `guarded`.
#[allow(clippy::too_many_arguments)]
fn emit_as(
    f: &Function,
    name: &str,
    (ids, sizes, body): (&[SVar], &[SExp], &Block),
    uses: &KernelUses,
    target: Target,
    safe: bool,
    group: Option<&Group>,
    guarded: bool,
) -> Result<Kernel, Refusal> {
    // A kernel's text is the same in both dialects: the preludes define
    // the vocabulary it uses for each.
    let _ = target;
    let mut k = Em {
        f,
        safe,
        out: String::new(),
        asserts: Vec::new(),
        depth: 1,
        expanded: uses.allocated.clone(),
        outside: uses.scalars.iter().copied().collect(),
        local: group
            .as_ref()
            .map(|g| g.local.iter().map(|l| l.0).collect())
            .unwrap_or_default(),
        in_group: group.is_some(),
        guarded,
        frames: Vec::new(),
        pending: Vec::new(),
        unsynced: false,
    };
    let mut params = vec![
        "__global long *fut_fail".to_string(),
        "long fut_n".to_string(),
    ];
    for j in 0..sizes.len() {
        params.push(format!("long fut_s{j}"));
    }
    for v in &uses.scalars {
        params.push(format!("{} {}", k.storage(k.ty(*v))?, var(*v)));
    }
    for m in &uses.mems {
        let t = f
            .mems
            .get(m.0 as usize)
            .map(|i| i.elem)
            .ok_or("an unknown block")?;
        params.push(format!("__global {} *{}", k.storage(t)?, mem(m.0)));
    }
    let mut locals = BTreeSet::new();
    body.for_each_set(&mut |v| {
        locals.insert(v);
    });
    locals.extend(ids.iter().copied());
    for v in &uses.scalars {
        locals.remove(v);
    }
    if let Some(g) = group {
        for (m, t, n) in &g.local {
            let line = format!("__local {} {}[{n}];", k.storage(*t)?, mem(m.0));
            k.line(&line);
        }
        if guarded {
            k.failure_prologue();
        }
    }
    k.line("long fut_gid = get_global_id(0);");
    if group.is_none() {
        // The grid is rounded up to whole work-groups; a group loop's is
        // whole groups already, and every thread must reach its barriers.
        k.line("if (fut_gid >= fut_n) return;");
    }
    for v in &locals {
        let t = k.ty(*v);
        let line = format!("{} {};", k.value_type(t)?, var(*v));
        k.line(&line);
    }
    if group.is_some() {
        k.line(&format!("{} = get_group_id(0);", var(ids[0])));
        k.line(&format!("{} = get_local_id(0);", var(ids[1])));
    } else {
        k.line("long fut_r = fut_gid;");
        for (j, i) in ids.iter().enumerate().rev() {
            let t = k.value_type(k.ty(*i))?;
            let line = format!(
                "{} = ({t})(fut_r % fut_s{j});\nfut_r = fut_r / fut_s{j};",
                var(*i)
            );
            k.line(&line);
        }
    }
    k.block(body)?;
    let source = format!(
        "__kernel void {name}({}) {{\n{}}}\n",
        params.join(", "),
        k.out
    );
    Ok(Kernel {
        name: name.to_string(),
        source,
        asserts: k.asserts,
        origin: ("segmap", Span::NONE),
        group: group.map_or(0, |g| g.size),
    })
}

/// Whether the integer operator `op` cannot fail because of its right
/// operand `b`: a constant divisor other than zero or one that is the
/// maximum of anything and a positive constant, a constant exponent of at
/// least zero.
fn constant_cannot_fail(op: BinOp, b: &SExp) -> bool {
    // A divisor `max(x, c)` with a constant `c > 0` is never zero.
    if let SExp::BinOp(BinOp::Max, x, y) = b
        && op != BinOp::Pow
        && [x, y]
            .iter()
            .any(|e| matches!(e.as_ref(), SExp::Const(c) if c.as_i128().is_some_and(|c| c > 0)))
    {
        return true;
    }
    let SExp::Const(c) = b else { return false };
    match (op, c.as_i128()) {
        (_, None) => false,
        (BinOp::Pow, Some(x)) => x >= 0,
        (_, Some(x)) => x != 0,
    }
}

/// The name of scalar `v` in kernel code.
pub(super) fn var(v: SVar) -> String {
    format!("v{}", v.0)
}

/// The name of block `m` in kernel code.
fn mem(m: u32) -> String {
    format!("m{m}")
}

/// Statements a loop may have once unrolled. NVRTC fully unrolls loops with
/// a small constant trip count; a kernel of many such loops over long bodies
/// (reverse-mode AD of 3-iteration loops with 4x4 adjoints live) becomes one
/// long straight line whose loads the scheduler hoists until the values live
/// at once spill to local memory: 255 registers and 96 bytes of spills,
/// against 160 registers and none with the long loops kept rolled.
const UNROLL_BUDGET: usize = 64;

/// Whether NVRTC may unroll a loop of `bound` iterations over `body`: its
/// statements times a constant trip count within [`UNROLL_BUDGET`]. A loop
/// whose trip count is known only at run time is left to NVRTC's own
/// judgement (at most a partial unroll).
fn worth_unrolling(bound: &SExp, body: &Block) -> bool {
    match bound {
        SExp::Const(values::PrimValue::I64(n)) => {
            ((*n).max(0) as usize).saturating_mul(statements(body)) <= UNROLL_BUDGET
        }
        _ => true,
    }
}

/// The statements of `b`, counting those inside loops and branches.
fn statements(b: &Block) -> usize {
    b.stms
        .iter()
        .map(|s| {
            1 + match s {
                Stm::For { body, .. }
                | Stm::While { body, .. }
                | Stm::ParFor { body, .. }
                | Stm::Planned { body, .. }
                | Stm::AtomicUpdate { body, .. } => statements(body),
                Stm::If {
                    then_block,
                    else_block,
                    ..
                } => statements(then_block) + statements(else_block),
                _ => 0,
            }
        })
        .sum()
}

pub(super) struct Em<'a> {
    f: &'a Function,
    safe: bool,
    pub(super) out: String,
    asserts: Vec<KernelAssert>,
    pub(super) depth: usize,
    /// The blocks each thread allocates, with their sizes: the host
    /// allocates them for every thread before the launch, element `i` of
    /// thread `t` at `i * fut_n + t` (neighbouring threads touch
    /// neighbouring elements).
    expanded: Vec<(imp::MemId, SExp)>,
    /// The scalars that are launch arguments.
    outside: BTreeSet<SVar>,
    /// The blocks in local memory (of a group loop's kernel).
    local: Vec<imp::MemId>,
    /// Whether the kernel is a group loop's.
    in_group: bool,
    /// Whether checks follow the group kernels' failure protocol
    /// ([`super::group_failures`]): a group kernel with checks.
    pub(super) guarded: bool,
    /// For each C block open, how many failure guards it has open.
    pub(super) frames: Vec<usize>,
    /// The conditions of failure guards asked for in the current C block
    /// and opened with its next line.
    pub(super) pending: Vec<String>,
    /// Whether a thread may have failed since the last counted barrier.
    pub(super) unsynced: bool,
}

pub(super) type E<T> = Result<T, Refusal>;

impl Em<'_> {
    /// How many assertions the kernel has so far.
    pub(super) fn checks_count(&self) -> usize {
        self.asserts.len()
    }

    /// The head of a loop of `i` from 0 below `n`, which a thread that
    /// failed leaves in a group kernel with checks.
    fn counted_loop(&self, i: &str, n: &str) -> String {
        if self.guarded {
            format!("for ({i} = 0; {i} < {n} && !fut_failed; {i}++)")
        } else {
            format!("for ({i} = 0; {i} < {n}; {i}++)")
        }
    }

    pub(super) fn line(&mut self, s: &str) {
        self.flush_guards();
        for l in s.lines() {
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
            self.out.push_str(l);
            self.out.push('\n');
        }
    }

    /// Whether `e` reads a scalar the kernel sets (not a launch argument).
    pub(super) fn sets_any(&self, e: &SExp) -> bool {
        let mut found = false;
        e.for_each_var(&mut |v| found |= !self.outside.contains(&v));
        found
    }

    fn ty(&self, v: SVar) -> PrimType {
        self.f
            .vars
            .get(v.0 as usize)
            .map_or(PrimType::I64, |i| i.ty)
    }

    fn value_type(&self, t: PrimType) -> E<&'static str> {
        scalar::c_type(t).ok_or_else(|| format!("{} values in kernels", t.name()))
    }

    fn storage(&self, t: PrimType) -> E<&'static str> {
        scalar::c_storage_type(t).ok_or_else(|| format!("{} arrays in kernels", t.name()))
    }

    fn type_of(&self, e: &SExp) -> PrimType {
        imp::type_of(self.f, e)
    }

    /// The C expression of `e`.
    pub(super) fn exp(&self, e: &SExp) -> E<String> {
        Ok(match e {
            SExp::Var(v) => {
                if self.ty(*v) == PrimType::Bool {
                    format!("(bool){}", var(*v))
                } else {
                    var(*v)
                }
            }
            SExp::Const(c) => {
                self.value_type(c.prim_type())?;
                scalar::literal(*c)
            }
            SExp::UnOp(op, x) => scalar::unop(*op, self.type_of(x), &self.exp(x)?),
            SExp::BinOp(op, a, b) => {
                scalar::binop(*op, self.type_of(a), &self.exp(a)?, &self.exp(b)?)
            }
            SExp::Cmp(op, a, b) => scalar::cmp(*op, self.type_of(a), &self.exp(a)?, &self.exp(b)?),
            SExp::Convert(k, t, x) => {
                self.value_type(*t)?;
                scalar::convert(*k, self.type_of(x), *t, &self.exp(x)?)
            }
            SExp::Math(m, args) => {
                let t = args.first().map_or(PrimType::F64, |a| self.type_of(a));
                let a = args.iter().map(|a| self.exp(a)).collect::<E<Vec<_>>>()?;
                scalar::math(*m, t, &a)
            }
            // A region nested in a kernel runs in one chunk: its thread is
            // one of many already.
            SExp::Chunks { .. } => "1L".to_string(),
            // Thresholds choose between versions on the host; one met in a
            // kernel keeps its default.
            SExp::Tuned { default, .. } => format!("{default}L"),
        })
    }

    /// Checks of the operators of `e` that can fail (integer division by
    /// zero, negative integer powers), reported at `span`.
    pub(super) fn checks(&mut self, e: &SExp, span: Span) -> E<()> {
        let mut found = Vec::new();
        self.failing(e, &mut found)?;
        for (cond, msg) in found {
            self.fail_if(&cond, &msg, &[], span)?;
        }
        Ok(())
    }

    /// The C expression of a `while` loop's condition, which must not
    /// fail (it is evaluated again at every iteration).
    pub(super) fn loop_condition(&self, cond: &SExp) -> E<String> {
        let mut found = Vec::new();
        self.failing(cond, &mut found)?;
        if !found.is_empty() {
            return Err("a loop condition that can fail".into());
        }
        self.exp(cond)
    }

    pub(super) fn failing(&self, e: &SExp, out: &mut Vec<(String, String)>) -> E<()> {
        match e {
            SExp::Var(_) | SExp::Const(_) | SExp::Chunks { .. } | SExp::Tuned { .. } => {}
            SExp::UnOp(_, x) | SExp::Convert(_, _, x) => self.failing(x, out)?,
            SExp::BinOp(op, a, b) => {
                self.failing(a, out)?;
                self.failing(b, out)?;
                let t = self.type_of(a);
                if t.is_integer()
                    && !constant_cannot_fail(*op, b)
                    && matches!(
                        op,
                        BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem | BinOp::Pow
                    )
                    && let Some((cond, msg)) = scalar::failure(*op, t, &self.exp(a)?, &self.exp(b)?)
                {
                    out.push((cond, msg.to_string()));
                }
            }
            SExp::Cmp(_, a, b) => {
                self.failing(a, out)?;
                self.failing(b, out)?;
            }
            SExp::Math(_, xs) => {
                for x in xs {
                    self.failing(x, out)?;
                }
            }
        }
        Ok(())
    }

    /// Records a failure of assertion `msg` with `args` at `span` and
    /// returns from the kernel when `cond` (C text) holds.
    fn fail_if(&mut self, cond: &str, msg: &str, args: &[SExp], span: Span) -> E<()> {
        if self.in_group && !self.guarded {
            return Err(NEEDS_GUARDS.into());
        }
        let k = self.asserts.len();
        let mut types = Vec::new();
        let mut stores = String::new();
        for (j, a) in args.iter().enumerate() {
            let t = self.type_of(a);
            types.push(t);
            let x = self.exp(a)?;
            let bits = match t {
                PrimType::F32 => format!("(long)futk_f32_bits({x})"),
                PrimType::F64 => format!("futk_f64_bits({x})"),
                PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64 => {
                    format!("(long)(ulong)({x})")
                }
                PrimType::Bool => format!("(long)(({x}) ? 1 : 0)"),
                _ => format!("(long)({x})"),
            };
            writeln!(stores, "    fut_fail[{}] = {bits};", j + 1).ok();
        }
        if args.len() > 15 {
            return Err("an assertion with more than 15 arguments in a kernel".into());
        }
        self.asserts.push(KernelAssert {
            msg: msg.to_string(),
            span,
            args: types,
        });
        let leave = if self.guarded {
            "  fut_failed = 1;\n  fut_gfail[0] = fut_epoch;"
        } else {
            "  return;"
        };
        let text = format!(
            "if ({cond}) {{\n  if (futk_cas32(fut_fail, 0, {}) == 0) {{\n{stores}  }}\n{leave}\n}}",
            k + 1
        );
        self.line(&text);
        if self.guarded {
            self.unsynced = true;
            self.open_guard("!fut_failed");
        }
        Ok(())
    }

    pub(super) fn block(&mut self, b: &Block) -> E<()> {
        self.frames.push(0);
        for s in &b.stms {
            if self.guarded {
                self.guarded_stm(s)?;
            } else {
                self.stm(s)?;
            }
        }
        self.close_frame();
        Ok(())
    }

    pub(super) fn nested(&mut self, head: &str, b: &Block) -> E<()> {
        self.line(&format!("{head} {{"));
        self.depth += 1;
        self.block(b)?;
        self.depth -= 1;
        self.line("}");
        Ok(())
    }

    fn position(&mut self, view: &View, idx: &[SExp]) -> E<String> {
        let p = view.position(idx);
        self.checks(&p, Span::NONE)?;
        let p = self.exp(&p)?;
        Ok(self.expand(view.mem, p))
    }

    /// Position `p` of block `m` in its memory: thread-interleaved when
    /// each thread has its own block.
    fn expand(&self, m: imp::MemId, p: String) -> String {
        if self.expanded.iter().any(|(e, _)| *e == m) {
            format!("({p}) * fut_n + fut_gid")
        } else {
            p
        }
    }

    pub(super) fn stm(&mut self, s: &Stm) -> E<()> {
        match s {
            Stm::Assign { var: v, exp, span } => {
                self.checks(exp, *span)?;
                let x = self.exp(exp)?;
                self.line(&format!("{} = {x};", var(*v)));
            }
            Stm::Read { var: v, view, idx } => {
                self.storage(view.elem)?;
                let p = self.position(view, idx)?;
                let read = format!("{}[{p}]", mem(view.mem.0));
                let read = if view.elem == PrimType::Bool {
                    format!("({read} != 0)")
                } else {
                    read
                };
                self.line(&format!("{} = {read};", var(*v)));
            }
            Stm::Write { view, idx, value } => {
                self.storage(view.elem)?;
                let p = self.position(view, idx)?;
                self.checks(value, Span::NONE)?;
                let x = self.exp(value)?;
                let x = if view.elem == PrimType::Bool {
                    format!("(uchar)(({x}) ? 1 : 0)")
                } else {
                    x
                };
                self.line(&format!("{}[{p}] = {x};", mem(view.mem.0)));
            }
            Stm::For { i, bound, body } => {
                self.checks(bound, Span::NONE)?;
                let n = self.exp(bound)?;
                let i = var(*i);
                if !worth_unrolling(bound, body) {
                    self.line("#pragma unroll 1");
                }
                let head = self.counted_loop(&i, &n);
                self.nested(&head, body)?;
            }
            Stm::While { cond, body } => {
                let c = self.loop_condition(cond)?;
                // A thread that failed in the body of a loop without
                // barriers leaves it (its body's statements are skipped).
                let c = if self.guarded {
                    format!("!fut_failed && ({c})")
                } else {
                    c
                };
                self.nested(&format!("while ({c})"), body)?;
            }
            Stm::If {
                cond,
                then_block,
                else_block,
            } => {
                self.checks(cond, Span::NONE)?;
                let c = self.exp(cond)?;
                self.nested(&format!("if ({c})"), then_block)?;
                if !else_block.stms.is_empty() {
                    self.nested("else", else_block)?;
                }
            }
            Stm::ParFor {
                ids, sizes, body, ..
            } => {
                let mut heads = Vec::new();
                for (i, n) in ids.iter().zip(sizes) {
                    self.checks(n, Span::NONE)?;
                    let n = self.exp(n)?;
                    let i = var(*i);
                    heads.push(self.counted_loop(&i, &n));
                }
                let last = heads.pop().unwrap_or_else(|| "".into());
                for h in &heads {
                    self.line(&format!("{h} {{"));
                    self.depth += 1;
                }
                if last.is_empty() {
                    self.nested("", body)?;
                } else {
                    self.nested(&last, body)?;
                }
                for _ in &heads {
                    self.depth -= 1;
                    self.line("}");
                }
            }
            Stm::Planned { body, .. } => self.nested("", body)?,
            Stm::Copy { dst: a, src: b, .. }
                if self.local.contains(&a.mem) || self.local.contains(&b.mem) =>
            {
                return Err("a copy of local memory".into());
            }
            Stm::AtomicUpdate { view, .. } if self.local.contains(&view.mem) => {
                return Err("an atomic update of local memory".into());
            }
            Stm::Copy { dst, src, span } => self.copy(dst, src, *span)?,
            Stm::AtomicUpdate {
                view,
                idx,
                old,
                body,
                new,
            } => self.atomic(view, idx, *old, body, new)?,
            Stm::Assert {
                cond,
                msg,
                args,
                span,
                check,
            } => {
                if *check == Check::Unsafe || (*check == Check::Bounds && !self.safe) {
                    return Ok(());
                }
                self.checks(cond, *span)?;
                for a in args {
                    self.checks(a, *span)?;
                }
                let c = self.exp(cond)?;
                self.fail_if(&format!("!({c})"), msg, args, *span)?;
            }
            Stm::Alloc { mem: m, count } => {
                let Some((_, first)) = self.expanded.iter().find(|(e, _)| e == m) else {
                    return Err("an allocation in a kernel".into());
                };
                if first != count {
                    return Err("a block allocated twice with other sizes in a kernel".into());
                }
                if self.sets_any(count) {
                    return Err("an allocation whose size the kernel computes".into());
                }
            }
            Stm::AliasMem { .. } | Stm::SwapMem(..) => {
                return Err("a block handle set in a kernel".into());
            }
            Stm::Call { .. } => return Err("a call in a kernel".into()),
            Stm::Barrier if self.in_group => self.line("barrier(CLK_LOCAL_MEM_FENCE);"),
            Stm::Barrier => return Err("a barrier outside a group of threads".into()),
        }
        Ok(())
    }

    /// A copy between views of one shape, element by element; shapes not
    /// known equal are checked first (a failure at `span`).
    fn copy(&mut self, dst: &View, src: &View, span: Span) -> E<()> {
        if dst.rank() != src.rank() {
            return Err("a copy between views of different ranks".into());
        }
        if dst.shape != src.shape {
            let mut same = Vec::new();
            for (a, b) in src.shape.iter().zip(&dst.shape) {
                self.checks(a, span)?;
                self.checks(b, span)?;
                same.push(format!("({} == {})", self.exp(a)?, self.exp(b)?));
            }
            let holes = vec!["{}"; src.rank()].join(", ");
            let msg = format!(
                "Size mismatch: copying an array of shape [{holes}] into one of shape [{holes}]"
            );
            let args: Vec<SExp> = src.shape.iter().chain(&dst.shape).cloned().collect();
            self.fail_if(&format!("!({})", same.join(" && ")), &msg, &args, span)?;
        }
        if dst.mem == src.mem {
            return Err("a copy within one block in a kernel".into());
        }
        self.storage(dst.elem)?;
        let rank = dst.rank();
        let idx: Vec<String> = (0..rank)
            .map(|j| format!("fut_c{}_{j}", self.depth))
            .collect();
        // Every check before the first loop opens: a group kernel's
        // failure guards close with the C block they open in.
        for n in &dst.shape {
            self.checks(n, Span::NONE)?;
        }
        let mut open = 0;
        for (j, n) in dst.shape.iter().enumerate() {
            let n = self.exp(n)?;
            let i = &idx[j];
            self.line(&format!("for (long {i} = 0; {i} < {n}; {i}++) {{"));
            self.depth += 1;
            open += 1;
        }
        // Positions with the C counters: the views' offsets plus the
        // counters times the strides.
        let pos = |em: &Self, v: &View| -> E<String> {
            let mut p = em.exp(&v.offset)?;
            for (j, s) in v.strides.iter().enumerate() {
                p = format!("{p} + {} * ({})", idx[j], em.exp(s)?);
            }
            Ok(p)
        };
        let (d, s) = (pos(self, dst)?, pos(self, src)?);
        let (d, s) = (self.expand(dst.mem, d), self.expand(src.mem, s));
        self.line(&format!(
            "{}[{d}] = {}[{s}];",
            mem(dst.mem.0),
            mem(src.mem.0)
        ));
        for _ in 0..open {
            self.depth -= 1;
            self.line("}");
        }
        Ok(())
    }

    /// An atomic update: a compare-and-swap loop on the element's bits.
    fn atomic(&mut self, view: &View, idx: &[SExp], old: SVar, body: &Block, new: &SExp) -> E<()> {
        if let Some(x) = added(body, old, new) {
            return self.atomic_add(view, idx, old, body, x);
        }
        let (cas, bits, from_bits, int) = match view.elem {
            PrimType::I32 | PrimType::U32 => ("futk_cas32", "(int)", "", "int"),
            PrimType::F32 => ("futk_cas32", "futk_f32_bits", "futk_f32_from", "int"),
            PrimType::I64 | PrimType::U64 => ("futk_cas64", "(long)", "", "long"),
            PrimType::F64 => ("futk_cas64", "futk_f64_bits", "futk_f64_from", "long"),
            t => return Err(format!("an atomic update of {} elements", t.name())),
        };
        let (t, d) = self.open_element(view, idx)?;
        let o = var(old);
        self.line(&format!("{o} = *fut_p{d};"));
        // A thread that failed in the body leaves the loop.
        self.line(if self.guarded {
            "while (!fut_failed) {"
        } else {
            "for (;;) {"
        });
        self.depth += 1;
        self.frames.push(0);
        self.block(body)?;
        self.checks(new, Span::NONE)?;
        let x = self.exp(new)?;
        self.line(&format!("{t} fut_new{d} = {x};"));
        self.line(&format!(
            "{int} fut_prev{d} = {cas}(fut_p{d}, {bits}({o}), {bits}(fut_new{d}));"
        ));
        self.line(&format!("if (fut_prev{d} == {bits}({o})) break;"));
        self.line(&format!("{o} = ({t}){from_bits}(fut_prev{d});"));
        self.close_frame();
        self.depth -= 1;
        self.line("}");
        self.close_frame();
        self.depth -= 1;
        self.line("}");
        Ok(())
    }
}

impl Em<'_> {
    /// An atomic update that adds `x` to the element: one atomic addition
    /// (`futk_add…`: the hardware's on CUDA, for every 32- and 64-bit type;
    /// on OpenCL for integers, and a compare-and-swap loop for floats),
    /// which sets `old` to the element before it; `body` then computes the
    /// new value from it as in the general case.
    fn atomic_add(
        &mut self,
        view: &View,
        idx: &[SExp],
        old: SVar,
        body: &Block,
        x: &SExp,
    ) -> E<()> {
        let (add, arg) = match view.elem {
            PrimType::I32 | PrimType::U32 => ("futk_add32", "int"),
            PrimType::I64 | PrimType::U64 => ("futk_add64", "long"),
            PrimType::F32 => ("futk_addf32", "float"),
            PrimType::F64 => ("futk_addf64", "double"),
            t => return Err(format!("an atomic update of {} elements", t.name())),
        };
        self.checks(x, Span::NONE)?;
        let x = self.exp(x)?;
        let (t, d) = self.open_element(view, idx)?;
        self.line(&format!(
            "{} = ({t}){add}(fut_p{d}, ({arg})({x}));",
            var(old)
        ));
        self.block(body)?;
        self.close_frame();
        self.depth -= 1;
        self.line("}");
        Ok(())
    }
}

impl Em<'_> {
    /// Opens a C block holding `fut_pD`, a pointer to element `idx` of
    /// `view` (`D` the depth); returns the element's storage type and `D`.
    fn open_element(&mut self, view: &View, idx: &[SExp]) -> E<(String, usize)> {
        let t = self.storage(view.elem)?;
        let p = self.position(view, idx)?;
        let d = self.depth;
        self.line("{");
        self.depth += 1;
        self.line(&format!(
            "__global {t} *fut_p{d} = &{}[{p}];",
            mem(view.mem.0)
        ));
        self.frames.push(0);
        Ok((t.to_string(), d))
    }
}

/// The value an atomic update's `body` adds to the element (`old`), when
/// the body is just `new = old + x` (or `x + old`) with `x` not reading
/// `old`: the updates of accumulators and histograms by `+`.
fn added<'b>(body: &'b Block, old: SVar, new: &SExp) -> Option<&'b SExp> {
    let [
        Stm::Assign {
            var,
            exp: SExp::BinOp(ir::BinOp::Add, a, b),
            ..
        },
    ] = body.stms.as_slice()
    else {
        return None;
    };
    if *new != SExp::Var(*var) {
        return None;
    }
    let x = match (&**a, &**b) {
        (SExp::Var(v), x) | (x, SExp::Var(v)) if *v == old => x,
        _ => return None,
    };
    (!x.mentions(old)).then_some(x)
}

/// The helpers the kernels' failure protocol and atomic updates use, for
/// `target`: compare-and-swap on 32- and 64-bit words of global memory and
/// the bits of floats (always with address-space-qualified casts: PoCL
/// rejects unqualified ones).
pub fn helpers(target: Target) -> &'static str {
    match target {
        Target::OpenCl => {
            "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n\
             static inline int futk_cas32(volatile __global void *p, int cmp, int val) {\n  return atomic_cmpxchg((volatile __global int *)p, cmp, val);\n}\n\
             static inline long futk_cas64(volatile __global void *p, long cmp, long val) {\n  return atom_cmpxchg((volatile __global long *)p, cmp, val);\n}\n\
             static inline int futk_f32_bits(float x) { return as_int(x); }\n\
             static inline float futk_f32_from(int x) { return as_float(x); }\n\
             static inline long futk_f64_bits(double x) { return as_long(x); }\n\
             static inline double futk_f64_from(long x) { return as_double(x); }\n\
             static inline int futk_add32(volatile __global void *p, int x) {\n  return atomic_add((volatile __global int *)p, x);\n}\n\
             static inline long futk_add64(volatile __global void *p, long x) {\n  return atom_add((volatile __global long *)p, x);\n}\n\
             static inline float futk_addf32(volatile __global void *p, float x) {\n  float old = *(volatile __global float *)p;\n  for (;;) {\n    int prev = futk_cas32(p, as_int(old), as_int(old + x));\n    if (prev == as_int(old)) return old;\n    old = as_float(prev);\n  }\n}\n\
             static inline double futk_addf64(volatile __global void *p, double x) {\n  double old = *(volatile __global double *)p;\n  for (;;) {\n    long prev = futk_cas64(p, as_long(old), as_long(old + x));\n    if (prev == as_long(old)) return old;\n    old = as_double(prev);\n  }\n}\n"
        }
        Target::Cuda => {
            "static __device__ inline int futk_cas32(volatile void *p, int cmp, int val) {\n  return (int)atomicCAS((unsigned int *)p, (unsigned int)cmp, (unsigned int)val);\n}\n\
             static __device__ inline long futk_cas64(volatile void *p, long cmp, long val) {\n  return (long)atomicCAS((unsigned long long *)p, (unsigned long long)cmp, (unsigned long long)val);\n}\n\
             static __device__ inline int futk_f32_bits(float x) { return __float_as_int(x); }\n\
             static __device__ inline float futk_f32_from(int x) { return __int_as_float(x); }\n\
             static __device__ inline long futk_f64_bits(double x) { return __double_as_longlong(x); }\n\
             static __device__ inline double futk_f64_from(long x) { return __longlong_as_double(x); }\n\
             static __device__ inline int futk_add32(volatile void *p, int x) {\n  return (int)atomicAdd((unsigned int *)p, (unsigned int)x);\n}\n\
             static __device__ inline long futk_add64(volatile void *p, long x) {\n  return (long)atomicAdd((unsigned long long *)p, (unsigned long long)x);\n}\n\
             static __device__ inline float futk_addf32(volatile void *p, float x) {\n  return atomicAdd((float *)p, x);\n}\n\
             static __device__ inline double futk_addf64(volatile void *p, double x) {\n  return atomicAdd((double *)p, x);\n}\n"
        }
    }
}
