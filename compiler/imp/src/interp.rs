//! An interpreter for the imperative IR, to test lowering on real
//! programs.
//!
//! Blocks are buffers of elements; a handle names one buffer at a time.
//! [`run_function`] takes and returns [`Value`]s: each array argument is
//! put in a block of its own (row-major, offset 0), each array result is
//! read back through its block and the shape of
//! [`Function::result_shapes`].
//!
//! The iterations of a parallel loop run in reverse order: a lowering that
//! made one iteration depend on an earlier one gives wrong results here
//! instead of passing by luck.
//!
//! [`Counters`] measure what the memory rules are about: blocks allocated
//! and their bytes, elements copied by copies, elements read and written
//! one at a time, scalar operations.

use std::fmt;

use ir::interp::scalar as sem;
use ir::{PrimType, PrimValue, Span};
use values::{Data, Value};

use super::syntax::*;

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Scalar operators evaluated (index arithmetic included).
    pub scalar_ops: u64,
    /// Elements read by [`Stm::Read`].
    pub reads: u64,
    /// Elements written by [`Stm::Write`].
    pub writes: u64,
    /// Elements copied by [`Stm::Copy`].
    pub copied: u64,
    /// Blocks allocated by [`Stm::Alloc`] (the arguments' blocks excluded).
    pub allocs: u64,
    /// Bytes of those blocks.
    pub alloc_bytes: u64,
}

impl fmt::Display for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "scalar_ops: {}, reads: {}, writes: {}, copied: {}, allocs: {}, alloc_bytes: {}",
            self.scalar_ops, self.reads, self.writes, self.copied, self.allocs, self.alloc_bytes
        )
    }
}

/// A run-time failure: a failed check of the program, or a malformed
/// imperative program.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeError {
    /// The message.
    pub message: String,
    /// The source statement, where known.
    pub span: Span,
    /// The function.
    pub function: String,
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error: {} (in `{}`)", self.message, self.function)
    }
}

impl std::error::Error for RuntimeError {}

/// The results of a run and its counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// One value per core IR result.
    pub values: Vec<Value>,
    /// What the run did.
    pub counters: Counters,
}

type R<T> = Result<T, RuntimeError>;

const MAX_DEPTH: u32 = 256;

/// How the interpreter chooses the number of chunks of a parallel
/// reduction, scan or histogram ([`SExp::Chunks`]), which a backend chooses
/// when the operation runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Chunking {
    /// The most chunks allowed, as with many idle threads.
    #[default]
    Most,
    /// One chunk, as on one thread or nested in a loop that occupies them.
    One,
}

/// Runs the function named `name` on one value per core IR parameter,
/// with the most chunks in every parallel reduction.
pub fn run_function(prog: &Program, name: &str, args: Vec<Value>) -> R<Outcome> {
    run_function_chunked(prog, name, args, Chunking::Most)
}

/// [`run_function`] with the chunk counts chosen by `chunking`.
pub fn run_function_chunked(
    prog: &Program,
    name: &str,
    args: Vec<Value>,
    chunking: Chunking,
) -> R<Outcome> {
    let fail = |m: String| RuntimeError {
        message: m,
        span: Span::NONE,
        function: name.to_string(),
    };
    let Some(k) = prog.functions.iter().position(|f| f.name == name) else {
        return Err(fail(format!("no function named `{name}`")));
    };
    let f = &prog.functions[k];
    if args.len() != f.param_passing.len() {
        return Err(fail(format!(
            "`{name}` takes {} arguments, but {} were given",
            f.param_passing.len(),
            args.len()
        )));
    }
    let mut m = Machine {
        prog,
        buffers: Vec::new(),
        counters: Counters::default(),
        depth: 0,
        chunking,
    };
    let mut slots = Vec::new();
    for (a, p) in args.into_iter().zip(&f.param_passing) {
        match p {
            Passing::Scalar => match a.as_scalar() {
                Some(x) => slots.push(Slotted::Scalar(x)),
                None => return Err(fail("an array given for a scalar parameter".into())),
            },
            Passing::Array { rank, dynamic } => {
                if a.rank() != *rank {
                    return Err(fail(format!(
                        "an argument of rank {} for rank {rank}",
                        a.rank()
                    )));
                }
                let shape = a.shape().to_vec();
                m.buffers.push(a.data().iter().collect());
                slots.push(Slotted::Mem(m.buffers.len() - 1));
                slots.push(Slotted::Scalar(PrimValue::I64(0)));
                let mut stride = 1i64;
                let mut strides = vec![0i64; shape.len()];
                for j in (0..shape.len()).rev() {
                    strides[j] = stride;
                    stride *= shape[j] as i64;
                }
                for s in strides {
                    slots.push(Slotted::Scalar(PrimValue::I64(s)));
                }
                for &j in dynamic {
                    slots.push(Slotted::Scalar(PrimValue::I64(shape[j] as i64)));
                }
            }
        }
    }
    let (results, frame) = m.call(k, slots, Span::NONE)?;
    let mut values = Vec::new();
    let mut it = results.into_iter().zip(&f.results).map(|(x, slot)| {
        let elem = match slot {
            Slot::Mem(m) => f.mems.get(m.0 as usize).map(|i| i.elem),
            Slot::Scalar(_) => None,
        };
        (x, elem)
    });
    for (p, shape) in f.result_passing.iter().zip(&f.result_shapes) {
        match p {
            Passing::Scalar => match it.next() {
                Some((Slotted::Scalar(x), _)) => values.push(Value::scalar(x)),
                _ => return Err(fail("a scalar result missing".into())),
            },
            Passing::Array { dynamic, .. } => {
                let Some((Slotted::Mem(b), elem)) = it.next() else {
                    return Err(fail("an array result missing".into()));
                };
                for _ in dynamic {
                    it.next();
                }
                let mut dims = Vec::new();
                for s in shape {
                    let n = frame.i64(&mut m.counters, s)?;
                    dims.push(usize::try_from(n).map_err(|_| fail(format!("negative size {n}")))?);
                }
                let count: usize = dims.iter().product();
                let buf = &m.buffers[b];
                let t = elem.unwrap_or(PrimType::Bool);
                let mut data = Data::with_capacity(t, count);
                for x in buf.iter().take(count) {
                    data.push(*x);
                }
                if data.len() != count {
                    return Err(fail("an array result's block is too small".into()));
                }
                values.push(Value::new(dims, data).map_err(|e| fail(e.to_string()))?);
            }
        }
    }
    Ok(Outcome {
        values,
        counters: m.counters,
    })
}

#[derive(Clone, Copy, Debug)]
enum Slotted {
    Scalar(PrimValue),
    Mem(usize),
}

struct Machine<'p> {
    prog: &'p Program,
    buffers: Vec<Vec<PrimValue>>,
    counters: Counters,
    depth: u32,
    chunking: Chunking,
}

#[derive(Clone)]
struct Frame<'p> {
    f: &'p Function,
    vars: Vec<Option<PrimValue>>,
    mems: Vec<Option<usize>>,
    span: Span,
    chunking: Chunking,
}

impl Frame<'_> {
    fn err<T>(&self, m: impl Into<String>) -> R<T> {
        Err(RuntimeError {
            message: m.into(),
            span: self.span,
            function: self.f.name.clone(),
        })
    }

    fn eval(&self, c: &mut Counters, e: &SExp) -> R<PrimValue> {
        Ok(match e {
            SExp::Var(v) => match self.vars.get(v.0 as usize) {
                Some(Some(x)) => *x,
                _ => return self.err(format!("variable #{} read before it is set", v.0)),
            },
            SExp::Const(x) => *x,
            SExp::UnOp(op, x) => {
                let x = self.eval(c, x)?;
                c.scalar_ops += 1;
                sem::unop(*op, x)
            }
            SExp::BinOp(op, a, b) => {
                let (a, b) = (self.eval(c, a)?, self.eval(c, b)?);
                c.scalar_ops += 1;
                match sem::binop(*op, a, b) {
                    Ok(x) => x,
                    Err(m) => return self.err(m),
                }
            }
            SExp::Cmp(op, a, b) => {
                let (a, b) = (self.eval(c, a)?, self.eval(c, b)?);
                c.scalar_ops += 1;
                PrimValue::Bool(sem::cmp(*op, a, b))
            }
            SExp::Convert(k, t, x) => {
                let x = self.eval(c, x)?;
                c.scalar_ops += 1;
                sem::convert(*k, *t, x)
            }
            SExp::Math(m, args) => {
                let args = args
                    .iter()
                    .map(|a| self.eval(c, a))
                    .collect::<R<Vec<_>>>()?;
                c.scalar_ops += 1;
                sem::math(*m, &args)
            }
            SExp::Tuned { default, .. } => PrimValue::I64(*default),
            SExp::Chunks { w, most, .. } => {
                let w = self.i64(c, w)?;
                PrimValue::I64(match self.chunking {
                    Chunking::Most => w.min(*most).max(1),
                    Chunking::One => 1,
                })
            }
        })
    }

    fn i64(&self, c: &mut Counters, e: &SExp) -> R<i64> {
        match self.eval(c, e)? {
            PrimValue::I64(x) => Ok(x),
            x => self.err(format!("expected an i64, found {x}")),
        }
    }

    fn bool(&self, c: &mut Counters, e: &SExp) -> R<bool> {
        match self.eval(c, e)?.as_bool() {
            Some(b) => Ok(b),
            None => self.err("a condition that is not a bool"),
        }
    }

    fn set(&mut self, v: SVar, x: PrimValue) -> R<()> {
        match self.vars.get_mut(v.0 as usize) {
            Some(slot) => {
                *slot = Some(x);
                Ok(())
            }
            None => self.err(format!("unknown variable #{}", v.0)),
        }
    }

    fn mem(&self, m: MemId) -> R<usize> {
        match self.mems.get(m.0 as usize) {
            Some(Some(b)) => Ok(*b),
            _ => self.err(format!(
                "block handle #{} used before it names a block",
                m.0
            )),
        }
    }
}

/// `msg` with each `{}` replaced by the next of `vals`.
fn fill(msg: &str, vals: &[PrimValue]) -> String {
    let mut out = String::new();
    let mut rest = msg;
    let mut vals = vals.iter();
    while let Some(k) = rest.find("{}") {
        let Some(v) = vals.next() else { break };
        out.push_str(&rest[..k]);
        match (v.as_i128(), v.as_bool()) {
            (Some(i), _) => out.push_str(&i.to_string()),
            (None, Some(b)) => out.push_str(if b { "true" } else { "false" }),
            _ => out.push_str(&v.to_string()),
        }
        rest = &rest[k + 2..];
    }
    out.push_str(rest);
    out
}

/// Every index of `shape` in row-major order.
fn indices(shape: &[i64]) -> Vec<Vec<i64>> {
    let total: i64 = shape.iter().product();
    let mut out = Vec::new();
    if shape.iter().any(|&n| n <= 0) {
        return out;
    }
    let mut idx = vec![0i64; shape.len()];
    for _ in 0..total {
        out.push(idx.clone());
        for k in (0..shape.len()).rev() {
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    out
}

/// A view evaluated: block, offset, shape and strides.
struct Place {
    buf: usize,
    offset: i64,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

impl Place {
    fn at(&self, idx: &[i64]) -> i64 {
        idx.iter()
            .zip(&self.strides)
            .fold(self.offset, |a, (i, s)| a + i * s)
    }
}

impl<'p> Machine<'p> {
    fn call(&mut self, k: usize, args: Vec<Slotted>, span: Span) -> R<(Vec<Slotted>, Frame<'p>)> {
        let prog = self.prog;
        let f = &prog.functions[k];
        let mut fr = Frame {
            f,
            vars: vec![None; f.vars.len()],
            mems: vec![None; f.mems.len()],
            span,
            chunking: self.chunking,
        };
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return fr.err("call depth limit exceeded");
        }
        if args.len() != f.params.len() {
            return fr.err("a call with the wrong number of arguments");
        }
        for (p, a) in f.params.iter().zip(args) {
            match (p, a) {
                (Slot::Scalar(v), Slotted::Scalar(x)) => fr.set(*v, x)?,
                (Slot::Mem(m), Slotted::Mem(b)) => fr.mems[m.0 as usize] = Some(b),
                _ => return fr.err("an argument of the wrong kind"),
            }
        }
        self.block(&mut fr, &f.body)?;
        let mut out = Vec::new();
        for r in &f.results {
            out.push(match r {
                Slot::Scalar(v) => Slotted::Scalar(fr.eval(&mut self.counters, &SExp::Var(*v))?),
                Slot::Mem(m) => Slotted::Mem(fr.mem(*m)?),
            });
        }
        self.depth -= 1;
        Ok((out, fr))
    }

    fn place(&mut self, fr: &Frame, v: &View) -> R<Place> {
        let c = &mut self.counters;
        Ok(Place {
            buf: fr.mem(v.mem)?,
            offset: fr.i64(c, &v.offset)?,
            shape: v.shape.iter().map(|s| fr.i64(c, s)).collect::<R<_>>()?,
            strides: v.strides.iter().map(|s| fr.i64(c, s)).collect::<R<_>>()?,
        })
    }

    fn position(&mut self, fr: &Frame, v: &View, idx: &[SExp]) -> R<(usize, usize)> {
        let buf = fr.mem(v.mem)?;
        let p = v.position(idx);
        let p = fr.i64(&mut self.counters, &p)?;
        match usize::try_from(p) {
            Ok(p) if p < self.buffers[buf].len() => Ok((buf, p)),
            _ => fr.err(format!(
                "access at {p} outside a block of {} elements",
                self.buffers[buf].len()
            )),
        }
    }

    /// An [`Stm::AtomicUpdate`]: iterations run one at a time here, so
    /// the update is a read, the operator and a write.
    fn atomic_update(
        &mut self,
        fr: &mut Frame<'p>,
        view: &'p View,
        idx: &'p [SExp],
        old: SVar,
        body: &'p Block,
        new: &'p SExp,
    ) -> R<()> {
        let (b, p) = self.position(fr, view, idx)?;
        self.counters.reads += 1;
        fr.set(old, self.buffers[b][p])?;
        self.block(fr, body)?;
        let x = fr.eval(&mut self.counters, new)?;
        self.store(fr, view, (b, p), x)
    }

    /// Writes `x` at position `p` of buffer `b`, which `view` addresses,
    /// after checking that `x` has the view's element type.
    fn store(
        &mut self,
        fr: &Frame<'p>,
        view: &View,
        (b, p): (usize, usize),
        x: PrimValue,
    ) -> R<()> {
        if x.prim_type() != view.elem {
            return fr.err(format!(
                "writing a {} into a block of {}",
                x.prim_type(),
                view.elem
            ));
        }
        self.counters.writes += 1;
        self.buffers[b][p] = x;
        Ok(())
    }

    /// Runs a grid of groups ([`ParKind::Groups`]): per group (the last
    /// first), the prologue once (its blocks are the group's local
    /// memory), then the body on `size` threads with frames of their own,
    /// thread by thread from one barrier to the next.
    fn groups(
        &mut self,
        fr: &mut Frame<'p>,
        size: u32,
        ids: &[SVar],
        sizes: &[SExp],
        body: &'p Block,
        prologue: usize,
    ) -> R<()> {
        let ([group, thread], [groups, threads]) = (ids, sizes) else {
            return fr.err("a group loop without a group and a thread index");
        };
        let groups = fr.i64(&mut self.counters, groups)?;
        let threads = fr.i64(&mut self.counters, threads)?;
        if threads != i64::from(size) {
            return fr.err(format!(
                "a group loop of {threads} threads per group, declared {size}"
            ));
        }
        let (prologue, rest) = body.stms.split_at(prologue.min(body.stms.len()));
        for g in (0..groups).rev() {
            fr.set(*group, PrimValue::I64(g))?;
            for s in prologue {
                self.stm(fr, s)?;
            }
            let mut frames = Vec::with_capacity(threads as usize);
            for t in 0..threads {
                let mut own = fr.clone();
                own.set(*thread, PrimValue::I64(t))?;
                frames.push(own);
            }
            self.lockstep(&mut frames, rest)?;
        }
        Ok(())
    }

    /// Runs `stms` on the threads of one group: a statement without a
    /// barrier runs on each thread in turn (the last first); one with
    /// barriers inside runs its parts in step, its bound or condition
    /// being the same on every thread (else the threads would diverge at
    /// a barrier, an error).
    fn lockstep(&mut self, threads: &mut [Frame<'p>], stms: &'p [Stm]) -> R<()> {
        for s in stms {
            if !crate::groups::has_barrier(s) {
                for fr in threads.iter_mut().rev() {
                    self.stm(fr, s)?;
                }
                continue;
            }
            match s {
                Stm::Barrier => {}
                Stm::For { i, bound, body } => {
                    let n = self.uniform(threads, bound, "a loop's bound")?;
                    let t = n.prim_type();
                    let n = n.as_i128().unwrap_or(0);
                    let mut k = 0i128;
                    while k < n {
                        for fr in threads.iter_mut() {
                            fr.set(*i, sem::wrap(t, k))?;
                        }
                        self.lockstep(threads, &body.stms)?;
                        k += 1;
                    }
                }
                Stm::While { cond, body } => {
                    while self.uniform(threads, cond, "a loop's condition")?
                        == PrimValue::Bool(true)
                    {
                        self.lockstep(threads, &body.stms)?;
                    }
                }
                Stm::If {
                    cond,
                    then_block,
                    else_block,
                } => {
                    let c = self.uniform(threads, cond, "a condition")?;
                    let b = if c == PrimValue::Bool(true) {
                        then_block
                    } else {
                        else_block
                    };
                    self.lockstep(threads, &b.stms)?;
                }
                _ => {
                    let fr = &threads[0];
                    return fr.err("a barrier where the threads of a group may diverge");
                }
            }
        }
        Ok(())
    }

    /// The value of `e`, which must be the same on every thread: it
    /// decides whether they reach a barrier.
    fn uniform(&mut self, threads: &[Frame<'p>], e: &SExp, what: &str) -> R<PrimValue> {
        let mut seen: Option<PrimValue> = None;
        for fr in threads {
            let x = fr.eval(&mut self.counters, e)?;
            match seen {
                Some(y) if y != x => {
                    return fr.err(format!(
                        "{what} around a barrier differs between the threads of a group \
                         ({y} and {x})"
                    ));
                }
                _ => seen = Some(x),
            }
        }
        match seen {
            Some(x) => Ok(x),
            None => Err(RuntimeError {
                message: "a group of no threads".into(),
                span: Span::NONE,
                function: String::new(),
            }),
        }
    }

    fn block(&mut self, fr: &mut Frame<'p>, b: &'p Block) -> R<()> {
        for s in &b.stms {
            self.stm(fr, s)?;
        }
        Ok(())
    }

    fn stm(&mut self, fr: &mut Frame<'p>, s: &'p Stm) -> R<()> {
        match s {
            Stm::Assign { var, exp, span } => {
                fr.span = *span;
                let x = fr.eval(&mut self.counters, exp)?;
                fr.set(*var, x)?;
            }
            Stm::Alloc { mem, count } => {
                let n = fr.i64(&mut self.counters, count)?;
                let Ok(n) = usize::try_from(n) else {
                    return fr.err(format!("Invalid range: negative size {n}"));
                };
                let elem = fr.f.mems[mem.0 as usize].elem;
                self.counters.allocs += 1;
                self.counters.alloc_bytes += (n * elem.byte_size()) as u64;
                self.buffers.push(vec![sem::zero(elem); n]);
                fr.mems[mem.0 as usize] = Some(self.buffers.len() - 1);
            }
            Stm::SwapMem(a, b) => fr.mems.swap(a.0 as usize, b.0 as usize),
            Stm::AliasMem { dst, src } => {
                let b = fr.mem(*src)?;
                fr.mems[dst.0 as usize] = Some(b);
            }
            Stm::Read { var, view, idx } => {
                let (b, p) = self.position(fr, view, idx)?;
                self.counters.reads += 1;
                let x = self.buffers[b][p];
                fr.set(*var, x)?;
            }
            Stm::Write { view, idx, value } => {
                let x = fr.eval(&mut self.counters, value)?;
                let at = self.position(fr, view, idx)?;
                self.store(fr, view, at, x)?;
            }
            Stm::Copy { dst, src, span } => {
                fr.span = *span;
                let d = self.place(fr, dst)?;
                let s = self.place(fr, src)?;
                if d.shape != s.shape {
                    return fr.err(format!(
                        "Size mismatch: copying an array of shape {:?} into one of shape {:?}",
                        s.shape, d.shape
                    ));
                }
                let idx = indices(&d.shape);
                let mut vals = Vec::with_capacity(idx.len());
                for i in &idx {
                    let p = s.at(i);
                    match usize::try_from(p)
                        .ok()
                        .and_then(|p| self.buffers[s.buf].get(p))
                    {
                        Some(x) => vals.push(*x),
                        None => return fr.err("a copy reading outside its block"),
                    }
                }
                for (i, x) in idx.iter().zip(vals) {
                    let p = d.at(i);
                    match usize::try_from(p)
                        .ok()
                        .and_then(|p| self.buffers[d.buf].get_mut(p))
                    {
                        Some(slot) => *slot = x,
                        None => return fr.err("a copy writing outside its block"),
                    }
                }
                self.counters.copied += idx.len() as u64;
            }
            Stm::For { i, bound, body } => {
                let n = fr.eval(&mut self.counters, bound)?;
                let t = n.prim_type();
                let n = n.as_i128().unwrap_or(0);
                let mut k = 0i128;
                while k < n {
                    fr.set(*i, sem::wrap(t, k))?;
                    self.block(fr, body)?;
                    k += 1;
                }
            }
            Stm::While { cond, body } => {
                while fr.bool(&mut self.counters, cond)? {
                    self.block(fr, body)?;
                }
            }
            Stm::If {
                cond,
                then_block,
                else_block,
            } => {
                if fr.bool(&mut self.counters, cond)? {
                    self.block(fr, then_block)?;
                } else {
                    self.block(fr, else_block)?;
                }
            }
            Stm::ParFor {
                kind: ParKind::Groups { size, .. },
                ids,
                sizes,
                body,
                chunk_prologue,
                ..
            } => self.groups(fr, *size, ids, sizes, body, *chunk_prologue)?,
            Stm::Barrier => return fr.err("a barrier outside a group of threads"),
            Stm::ParFor {
                ids,
                sizes,
                body,
                chunk_prologue,
                ..
            } => {
                let sizes = sizes
                    .iter()
                    .map(|s| fr.i64(&mut self.counters, s))
                    .collect::<R<Vec<_>>>()?;
                // One chunk: the prologue once, when there are iterations.
                let (prologue, rest) = body.stms.split_at((*chunk_prologue).min(body.stms.len()));
                let all = indices(&sizes);
                if !all.is_empty() {
                    for s in prologue {
                        self.stm(fr, s)?;
                    }
                }
                for idx in all.into_iter().rev() {
                    for (v, i) in ids.iter().zip(idx) {
                        fr.set(*v, PrimValue::I64(i))?;
                    }
                    for s in rest {
                        self.stm(fr, s)?;
                    }
                }
            }
            Stm::Planned { body, .. } => self.block(fr, body)?,
            Stm::AtomicUpdate {
                view,
                idx,
                old,
                body,
                new,
            } => self.atomic_update(fr, view, idx, *old, body, new)?,
            Stm::Call {
                fun,
                args,
                results,
                span,
            } => {
                fr.span = *span;
                let mut vals = Vec::new();
                for a in args {
                    vals.push(match a {
                        Arg::Scalar(e) => Slotted::Scalar(fr.eval(&mut self.counters, e)?),
                        Arg::Mem(m) => Slotted::Mem(fr.mem(*m)?),
                    });
                }
                let k = ir::ids::EntityId::index(*fun);
                if k >= self.prog.functions.len() {
                    return fr.err("a call of an unknown function");
                }
                let (out, _) = self.call(k, vals, *span)?;
                if out.len() != results.len() {
                    return fr.err("a call with the wrong number of results");
                }
                for (r, x) in results.iter().zip(out) {
                    match (r, x) {
                        (Slot::Scalar(v), Slotted::Scalar(x)) => fr.set(*v, x)?,
                        (Slot::Mem(m), Slotted::Mem(b)) => fr.mems[m.0 as usize] = Some(b),
                        _ => return fr.err("a result of the wrong kind"),
                    }
                }
            }
            Stm::Assert {
                cond,
                msg,
                args,
                span,
                ..
            } => {
                fr.span = *span;
                if !fr.bool(&mut self.counters, cond)? {
                    let vals = args
                        .iter()
                        .map(|a| fr.eval(&mut self.counters, a))
                        .collect::<R<Vec<_>>>()?;
                    return fr.err(fill(msg, &vals));
                }
            }
        }
        Ok(())
    }
}
