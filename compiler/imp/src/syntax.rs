//! The data model of the imperative IR: functions over scalar variables and
//! memory blocks, statements, scalar expressions and array views.

use ir::{BinOp, CmpOp, ConvKind, FunId, MathFn, PrimType, PrimValue, Span, UnOp};

/// A scalar variable of a function (an index into [`Function::vars`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SVar(pub u32);

/// A memory block handle of a function (an index into [`Function::mems`]).
/// A handle names one block at a time: [`Stm::Alloc`] points it at a fresh
/// block, [`Stm::SwapMem`] exchanges two handles' blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemId(pub u32);

/// A whole program: one function per core IR function, in the same order
/// (the function of [`FunId`] `k` is `functions[k]`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// The functions.
    pub functions: Vec<Function>,
}

/// A scalar variable's name and type.
#[derive(Clone, Debug, PartialEq)]
pub struct VarInfo {
    /// The name (the core IR variable's, or a generated one).
    pub name: String,
    /// The type.
    pub ty: PrimType,
}

/// A memory block handle's name and element type.
#[derive(Clone, Debug, PartialEq)]
pub struct MemInfo {
    /// The name.
    pub name: String,
    /// The element type of the blocks it names.
    pub elem: PrimType,
}

/// A parameter or a result slot of a function: a scalar or a memory block.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Slot {
    /// A scalar variable.
    Scalar(SVar),
    /// A memory block handle.
    Mem(MemId),
}

/// How one core IR parameter or result travels through a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Passing {
    /// A scalar: one slot.
    Scalar,
    /// An array: its block, then its offset and one stride per dimension
    /// (parameters only), then the sizes its type leaves unknown (`?`).
    Array {
        /// The rank.
        rank: usize,
        /// The dimensions whose size travels as a scalar.
        dynamic: Vec<usize>,
    },
}

/// A function of the imperative IR.
///
/// Array parameters arrive as a block with a view given by scalar
/// parameters (offset and strides), so a caller passes any view without a
/// copy; array results leave as blocks holding the array in row-major
/// order from offset 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// The core IR function's name.
    pub name: String,
    /// The parameters, flattened into slots.
    pub params: Vec<Slot>,
    /// How each core IR parameter maps onto `params`, in order.
    pub param_passing: Vec<Passing>,
    /// The results, flattened into slots.
    pub results: Vec<Slot>,
    /// How each core IR result maps onto `results`, in order.
    pub result_passing: Vec<Passing>,
    /// The shape of each array result (empty for scalars), over the
    /// parameters and the scalar results: what a caller outside the
    /// imperative IR needs to read the results back.
    pub result_shapes: Vec<Vec<SExp>>,
    /// The body.
    pub body: Block,
    /// Every scalar variable.
    pub vars: Vec<VarInfo>,
    /// Every memory block handle.
    pub mems: Vec<MemInfo>,
}

/// A sequence of statements.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Block {
    /// The statements, in order.
    pub stms: Vec<Stm>,
}

/// A scalar expression: operands are variables and constants, operators
/// are the core IR's, with its semantics.
#[derive(Clone, Debug, PartialEq)]
pub enum SExp {
    /// A variable.
    Var(SVar),
    /// A constant.
    Const(PrimValue),
    /// A unary operator.
    UnOp(UnOp, Box<SExp>),
    /// A binary operator (both operands of one type).
    BinOp(BinOp, Box<SExp>, Box<SExp>),
    /// A comparison.
    Cmp(CmpOp, Box<SExp>, Box<SExp>),
    /// A conversion.
    Convert(ConvKind, PrimType, Box<SExp>),
    /// A math function.
    Math(MathFn, Vec<SExp>),
    /// The number of chunks (an `i64`) a parallel reduction, scan or
    /// histogram over `w` iterations is split into, chosen when it runs:
    /// between 1 and `min(w, most)`. `cost` estimates one iteration's work
    /// (see [`crate::cost`]), so cheap operations get fewer chunks;
    /// an operation nested in a parallel loop whose chunks already occupy
    /// every thread, or running on one thread, gets one.
    Chunks {
        /// The number of iterations.
        w: Box<SExp>,
        /// The work of one iteration, in statements.
        cost: u64,
        /// The most chunks.
        most: i64,
    },
    /// A tuning parameter (an `i64`): a threshold a GPU backend's
    /// executable lets its user set (`--param NAME=VALUE`), `default`
    /// elsewhere and when not set. It chooses between versions of code
    /// that compute the same thing, never what is computed.
    Tuned {
        /// Its name: a kind as the lowering makes it, numbered per program
        /// by a GPU backend (`row_group_threshold_0`).
        name: String,
        /// Its value when not set.
        default: i64,
    },
}

impl SExp {
    /// An `i64` constant.
    pub fn i64(x: i64) -> SExp {
        SExp::Const(PrimValue::I64(x))
    }

    /// The constant, if it is an `i64` constant.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            SExp::Const(PrimValue::I64(x)) => Some(*x),
            _ => None,
        }
    }

    /// `a + b` on `i64`, folding constants and zeros.
    pub fn plus(a: SExp, b: SExp) -> SExp {
        match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => SExp::i64(x.wrapping_add(y)),
            (Some(0), _) => b,
            (_, Some(0)) => a,
            _ => SExp::BinOp(BinOp::Add, Box::new(a), Box::new(b)),
        }
    }

    /// `a * b` on `i64`, folding constants, ones and zeros.
    pub fn times(a: SExp, b: SExp) -> SExp {
        match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => SExp::i64(x.wrapping_mul(y)),
            (Some(0), _) | (_, Some(0)) => SExp::i64(0),
            (Some(1), _) => b,
            (_, Some(1)) => a,
            _ => SExp::BinOp(BinOp::Mul, Box::new(a), Box::new(b)),
        }
    }

    /// `a - b` on `i64`, folding constants and zeros.
    pub fn minus(a: SExp, b: SExp) -> SExp {
        match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => SExp::i64(x.wrapping_sub(y)),
            (_, Some(0)) => a,
            _ => SExp::BinOp(BinOp::Sub, Box::new(a), Box::new(b)),
        }
    }

    /// A comparison.
    pub fn cmp(op: CmpOp, a: SExp, b: SExp) -> SExp {
        SExp::Cmp(op, Box::new(a), Box::new(b))
    }

    /// Logical and of two `bool`s.
    pub fn and(a: SExp, b: SExp) -> SExp {
        match (&a, &b) {
            (SExp::Const(PrimValue::Bool(true)), _) => b,
            (_, SExp::Const(PrimValue::Bool(true))) => a,
            _ => SExp::BinOp(BinOp::And, Box::new(a), Box::new(b)),
        }
    }
}

/// An array as a view of a memory block: element `[i0, …, ik]` is at
/// `offset + i0*strides[0] + … + ik*strides[k]` of block `mem`.
///
/// Row-major arrays have strides that are the products of the inner
/// sizes; slicing, indexing a row and transposing change the offset, the
/// shape and the strides, never the data.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// The block.
    pub mem: MemId,
    /// The element type.
    pub elem: PrimType,
    /// Offset of element `[0, …, 0]`, in elements.
    pub offset: SExp,
    /// The sizes, outermost first.
    pub shape: Vec<SExp>,
    /// The distance between neighbours of each dimension, in elements.
    pub strides: Vec<SExp>,
}

impl View {
    /// The row-major view of shape `shape` at offset 0 of `mem`.
    pub fn row_major(mem: MemId, elem: PrimType, shape: Vec<SExp>) -> View {
        let strides = row_major_strides(&shape);
        View {
            mem,
            elem,
            offset: SExp::i64(0),
            shape,
            strides,
        }
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Whether the view is the row-major layout of its shape from offset
    /// 0 (known at compile time).
    pub fn is_row_major_at_zero(&self) -> bool {
        self.offset.as_i64() == Some(0) && self.strides == row_major_strides(&self.shape)
    }

    /// Whether the view is row-major (any offset), known at compile time.
    pub fn is_row_major(&self) -> bool {
        self.strides == row_major_strides(&self.shape)
    }

    /// The number of elements (a product of the sizes).
    pub fn count(&self) -> SExp {
        self.shape.iter().cloned().fold(SExp::i64(1), SExp::times)
    }

    /// The flat position of element `idx` (as many indices as the rank or
    /// fewer: the start of that sub-array).
    pub fn position(&self, idx: &[SExp]) -> SExp {
        idx.iter()
            .zip(&self.strides)
            .fold(self.offset.clone(), |acc, (i, s)| {
                SExp::plus(acc, SExp::times(i.clone(), s.clone()))
            })
    }

    /// The view of the sub-array at `idx` (fixing the outer dimensions).
    pub fn at(&self, idx: &[SExp]) -> View {
        View {
            mem: self.mem,
            elem: self.elem,
            offset: self.position(idx),
            shape: self.shape[idx.len()..].to_vec(),
            strides: self.strides[idx.len()..].to_vec(),
        }
    }
}

/// The row-major strides of `shape`: the products of the inner sizes.
pub fn row_major_strides(shape: &[SExp]) -> Vec<SExp> {
    let mut strides = vec![SExp::i64(1); shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        strides[k] = SExp::times(strides[k + 1].clone(), shape[k + 1].clone());
    }
    strides
}

/// What a parallel region computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParKind {
    /// Independent iterations (a `SegMap`, the chunks of a `SegRed`,
    /// `SegScan` or `SegHist` writing their partial results, the buckets
    /// of a histogram combining them): any order, any number of threads.
    Map,
    /// The chunks of a reduction, scan, histogram or accumulator map, whose
    /// number the lowering already chose for the work and the threads
    /// ([`SExp::Chunks`]): each iteration is a chunk of many iterations, so
    /// the backend runs them as separate tasks rather than weighing one
    /// iteration's statements.
    Chunks,
    /// A loop that a GPU backend runs as kernel `k` of its kernel program
    /// (one iteration per device thread): its body reads only scalars and
    /// blocks from outside, which [`crate::uses::kernel_uses`] lists
    /// in the order of the kernel's parameters. Other backends and the
    /// interpreter run it as a [`ParKind::Map`].
    Kernel(u32),
    /// A grid of groups of `size` threads that cooperate (a GPU's
    /// work-groups or thread blocks): `ids` are the group and the thread
    /// within it, `sizes` the number of groups and `size` (a constant).
    /// The blocks the prologue allocates are the group's local memory,
    /// shared by its threads (their sizes are constants); the threads of a
    /// group wait for each other at each [`Stm::Barrier`]. A barrier may
    /// only appear where every thread of the group reaches it: at the top
    /// level of the body, or inside `for` loops and `if`s whose bound or
    /// condition is the same for all of them. Scalars are each thread's
    /// own. A GPU backend runs it as kernel `kernel` (with work-groups of
    /// `size`); where it is not a kernel, host code runs the sequential
    /// equivalent ([`crate::groups::sequential`]).
    Groups {
        /// The threads of a group.
        size: u32,
        /// The kernel it runs as, once a GPU backend has chosen.
        kernel: Option<u32>,
    },
}

/// One statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stm {
    /// `var = exp`; fails (division by zero, …) with `span`.
    Assign {
        /// The variable.
        var: SVar,
        /// The value.
        exp: SExp,
        /// The source statement.
        span: Span,
    },
    /// Points `mem` at a fresh block of `count` elements (contents
    /// unspecified).
    Alloc {
        /// The handle.
        mem: MemId,
        /// The number of elements (`i64`).
        count: SExp,
    },
    /// Exchanges the blocks of two handles (double buffering of loops).
    SwapMem(MemId, MemId),
    /// Points `dst` at the block `src` names (no copy).
    AliasMem {
        /// The handle set.
        dst: MemId,
        /// The handle read.
        src: MemId,
    },
    /// `var = view[idx]`: one element.
    Read {
        /// The variable.
        var: SVar,
        /// The array.
        view: View,
        /// One index per dimension.
        idx: Vec<SExp>,
    },
    /// `view[idx] = value`: one element.
    Write {
        /// The array.
        view: View,
        /// One index per dimension.
        idx: Vec<SExp>,
        /// The value.
        value: SExp,
    },
    /// Copies every element of `src` to the same position of `dst`; the
    /// shapes must agree (checked, failing with `span`).
    Copy {
        /// Destination.
        dst: View,
        /// Source.
        src: View,
        /// The source statement.
        span: Span,
    },
    /// `for i in 0..bound` (`i` of the bound's type).
    For {
        /// The index variable.
        i: SVar,
        /// The number of iterations.
        bound: SExp,
        /// The body.
        body: Block,
    },
    /// Runs `body` while `cond` holds before it.
    While {
        /// The condition (`bool`), tested before each iteration.
        cond: SExp,
        /// The body.
        body: Block,
    },
    /// A conditional.
    If {
        /// The condition (`bool`).
        cond: SExp,
        /// Taken when true.
        then_block: Block,
        /// Taken when false.
        else_block: Block,
    },
    /// A parallel loop over the space `0..sizes[0] × … ` with index
    /// variables `ids`; iterations are independent and may run in any order.
    ParFor {
        /// What it computes.
        kind: ParKind,
        /// The index variables, outermost first.
        ids: Vec<SVar>,
        /// The size of each dimension of the space.
        sizes: Vec<SExp>,
        /// The body of one iteration.
        body: Block,
        /// How many of the body's first statements form the chunk's
        /// prologue: allocations of blocks the iterations reuse, whose
        /// sizes depend on nothing the body sets. They run once per chunk
        /// of iterations, before its first iteration; running them at
        /// every iteration instead means the same (a fresh block's
        /// contents are unspecified).
        chunk_prologue: usize,
        /// The source statement it comes from (names the loop for the
        /// profiler).
        span: Span,
        /// The segmented operation it is part of (`segmap`, `segred`,
        /// `segscan`, `seghist`), for the profiler.
        label: &'static str,
    },
    /// A sequential loop standing for a segmented operation that `flatten`
    /// planned as parallel but whose parallel lowering is not written yet
    /// (histograms with destinations of higher rank, scremas whose scans or
    /// reductions have array operands or that update accumulators without
    /// an operator): the planned operation's name, and the loop.
    Planned {
        /// The segmented operation's name.
        seg_op: &'static str,
        /// The sequential code.
        body: Block,
    },
    /// An update of one element by an operator, atomic with respect to
    /// the other iterations of the parallel loop around it: `old` is set to
    /// `view[idx]`, `body` computes `new` from it, and the element becomes
    /// `new` unless another iteration changed it meanwhile, in which case
    /// the update runs again from the changed element. The updates of an
    /// accumulator that the iterations of a parallel loop share; `body`
    /// only assigns scalars (it may run more than once).
    AtomicUpdate {
        /// The array.
        view: View,
        /// One index per dimension.
        idx: Vec<SExp>,
        /// The variable holding the element before the update.
        old: SVar,
        /// The operator's statements.
        body: Block,
        /// The updated element.
        new: SExp,
    },
    /// Calls function `fun`: arguments and results as the callee's slots.
    Call {
        /// The callee.
        fun: FunId,
        /// One per parameter slot: a scalar or a memory block.
        args: Vec<Arg>,
        /// One per result slot.
        results: Vec<Slot>,
        /// The source statement.
        span: Span,
    },
    /// Waits until every thread of the group ([`ParKind::Groups`]) has
    /// reached it; their writes to local memory before it are visible
    /// after it.
    Barrier,
    /// Fails with `msg` (each `{}` replaced by the next of `args`) at
    /// `span` when `cond` is false: bounds, size and user assertions.
    Assert {
        /// The condition (`bool`).
        cond: SExp,
        /// The message or its template.
        msg: String,
        /// The scalars the message shows.
        args: Vec<SExp>,
        /// The source statement.
        span: Span,
        /// What kind of check it is.
        check: Check,
    },
}

/// The kind of an [`Stm::Assert`]: whether generated code may leave it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Always checked: user assertions, sizes, slices, ranges.
    Always,
    /// The bounds check of an index, which `--safe=false` removes.
    Bounds,
    /// The bounds check of an index in a statement marked `#[unsafe]`,
    /// which emitters leave out.
    Unsafe,
}

/// An argument of a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A scalar.
    Scalar(SExp),
    /// A memory block.
    Mem(MemId),
}

impl SExp {
    /// Calls `f` on each variable `self` reads (once per occurrence).
    pub fn for_each_var(&self, f: &mut impl FnMut(SVar)) {
        match self {
            SExp::Var(v) => f(*v),
            SExp::Const(_) => {}
            SExp::UnOp(_, x) | SExp::Convert(_, _, x) => x.for_each_var(f),
            SExp::BinOp(_, a, b) | SExp::Cmp(_, a, b) => {
                a.for_each_var(f);
                b.for_each_var(f);
            }
            SExp::Math(_, xs) => xs.iter().for_each(|x| x.for_each_var(f)),
            SExp::Chunks { w, .. } => w.for_each_var(f),
            SExp::Tuned { .. } => {}
        }
    }
}

impl SExp {
    /// Whether `self` reads variable `v`.
    pub fn mentions(&self, v: SVar) -> bool {
        let mut found = false;
        self.for_each_var(&mut |x| found |= x == v);
        found
    }
}

/// The type of `e` in function `f` (the emitters' operators are chosen by
/// their operands' types).
pub fn type_of(f: &Function, e: &SExp) -> PrimType {
    match e {
        SExp::Var(v) => f.vars.get(v.0 as usize).map_or(PrimType::I64, |i| i.ty),
        SExp::Const(c) => c.prim_type(),
        SExp::UnOp(_, x) => type_of(f, x),
        SExp::BinOp(_, a, _) => type_of(f, a),
        SExp::Cmp(..) => PrimType::Bool,
        SExp::Convert(_, t, _) => *t,
        SExp::Math(m, args) => match m {
            MathFn::IsNan | MathFn::IsInf => PrimType::Bool,
            MathFn::Popc | MathFn::Clz | MathFn::Ctz => PrimType::I32,
            _ => args.first().map_or(PrimType::F64, |a| type_of(f, a)),
        },
        SExp::Chunks { .. } | SExp::Tuned { .. } => PrimType::I64,
    }
}

impl Block {
    /// Calls `f` on each scalar the block's statements set, those of the
    /// blocks inside them included ([`Stm::for_each_set`]).
    pub fn for_each_set(&self, f: &mut impl FnMut(SVar)) {
        for s in &self.stms {
            s.for_each_set(f);
            for b in s.blocks() {
                b.for_each_set(f);
            }
        }
    }
}

impl View {
    /// Calls `f` on the offset, the sizes and the strides.
    pub fn for_each_exp(&self, f: &mut impl FnMut(&SExp)) {
        f(&self.offset);
        self.shape.iter().chain(&self.strides).for_each(&mut *f);
    }
}

impl Stm {
    /// Calls `f` on each scalar expression of the statement itself (not of
    /// the blocks inside it): values, indices, views, bounds, conditions,
    /// arguments.
    pub fn for_each_exp(&self, f: &mut impl FnMut(&SExp)) {
        match self {
            Stm::Assign { exp, .. } => f(exp),
            Stm::Alloc { count, .. } => f(count),
            Stm::SwapMem(..) | Stm::AliasMem { .. } | Stm::Planned { .. } | Stm::Barrier => {}
            Stm::Read { view, idx, .. } => {
                view.for_each_exp(f);
                idx.iter().for_each(&mut *f);
            }
            Stm::Write { view, idx, value } => {
                view.for_each_exp(f);
                idx.iter().for_each(&mut *f);
                f(value);
            }
            Stm::Copy { dst, src, .. } => {
                dst.for_each_exp(f);
                src.for_each_exp(f);
            }
            Stm::For { bound, .. } => f(bound),
            Stm::While { cond, .. } | Stm::If { cond, .. } => f(cond),
            Stm::ParFor { sizes, .. } => sizes.iter().for_each(&mut *f),
            Stm::AtomicUpdate { view, idx, new, .. } => {
                view.for_each_exp(f);
                idx.iter().for_each(&mut *f);
                f(new);
            }
            Stm::Call { args, .. } => {
                for a in args {
                    if let Arg::Scalar(e) = a {
                        f(e);
                    }
                }
            }
            Stm::Assert { cond, args, .. } => {
                f(cond);
                args.iter().for_each(&mut *f);
            }
        }
    }

    /// Calls `f` on each scalar the statement itself sets (not the blocks
    /// inside it): assigned and read variables, loop counters, an atomic
    /// update's old value, a call's scalar results.
    pub fn for_each_set(&self, f: &mut impl FnMut(SVar)) {
        match self {
            Stm::Assign { var, .. } | Stm::Read { var, .. } => f(*var),
            Stm::For { i, .. } => f(*i),
            Stm::ParFor { ids, .. } => ids.iter().for_each(|v| f(*v)),
            Stm::AtomicUpdate { old, .. } => f(*old),
            Stm::Call { results, .. } => {
                for r in results {
                    if let Slot::Scalar(v) = r {
                        f(*v);
                    }
                }
            }
            _ => {}
        }
    }

    /// The blocks directly inside the statement.
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            Stm::For { body, .. }
            | Stm::While { body, .. }
            | Stm::ParFor { body, .. }
            | Stm::Planned { body, .. }
            | Stm::AtomicUpdate { body, .. } => vec![body],
            Stm::If {
                then_block,
                else_block,
                ..
            } => vec![then_block, else_block],
            _ => Vec::new(),
        }
    }

    /// The blocks directly inside the statement, mutably.
    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            Stm::For { body, .. }
            | Stm::While { body, .. }
            | Stm::ParFor { body, .. }
            | Stm::Planned { body, .. }
            | Stm::AtomicUpdate { body, .. } => vec![body],
            Stm::If {
                then_block,
                else_block,
                ..
            } => vec![then_block, else_block],
            _ => Vec::new(),
        }
    }
}
