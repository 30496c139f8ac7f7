//! Lowering from the core IR (optimised, AD expanded, with the `flatten`
//! crate's plans) to the imperative IR.
//!
//! Every core IR variable becomes a [`Val`]: a scalar expression, an array
//! view of a block, or an accumulator (a view and its operator). Statements
//! are lowered in order; a statement that produces an array gets a block
//! sized from its type, unless its consumer gave a destination for it (a
//! hint): the rows of a map's result, the next buffer of a loop parameter,
//! the block of an `if`'s result. The memory rules are in
//! `docs/imperative.md`; the parts:
//!
//! - this module: functions, bodies, scalar operations and the context;
//! - [`arrays`]: index, slice, update, iota, replicate, reshape,
//!   rearrange, concat, copy, scratch;
//! - [`control`]: `if`, loops, calls;
//! - [`soacs`]: `screma`, `hist`, `scatter`, accumulators;
//! - [`accs`]: maps updating accumulators with an operator, in parallel;
//! - [`lifetimes`]: on the lowered function, a branch's fresh block
//!   allocated in its `if`'s handle, allocations of constant size hoisted
//!   out of sequential loops, and blocks released after their last use.

mod accs;
mod arrays;
mod concat_in_place;
#[cfg(test)]
mod concat_in_place_tests;
mod control;
mod device_scan;
#[cfg(test)]
mod device_tests;
mod iota_index;
mod lifetimes;
#[cfg(test)]
mod lifetimes_tests;
mod partials;
mod per_chunk;
#[cfg(test)]
mod per_chunk_tests;
mod rounds;
mod scatter;
mod segred_groups;
pub use segred_groups::GROUP_ROWS_LABEL;
mod soacs;
mod strength;
#[cfg(test)]
mod strength_tests;

use std::collections::HashMap;

use ir::{Body, Exp, FunId, Lambda, Operand, PrimType, Size, Span, Type, VarId};

use super::syntax::*;

/// Why a program could not be lowered: the construct and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct LowerError {
    /// The message, naming the construct.
    pub message: String,
    /// The source statement ([`Span::NONE`] when unknown).
    pub span: Span,
    /// The core IR function.
    pub function: String,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "in function `{}`: {}", self.function, self.message)
    }
}

impl std::error::Error for LowerError {}

type R<T> = Result<T, LowerError>;

/// What the lowering produces code for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The parallel loops run as the threads of a GPU (a GPU backend):
    /// reductions, scans and histograms outside other parallel loops are
    /// split into as many chunks as the device keeps busy
    /// ([`SExp::Chunks`] with `device`), rather than about as many as the
    /// host has threads, and the partial results of a reduction of
    /// scalars are combined on the device in rounds
    /// (`docs/imperative.md`).
    pub device: bool,
}

/// Lowers every function of `prog` for the host's threads.
pub fn lower_program(prog: &ir::Program) -> Result<Program, LowerError> {
    lower_program_with(prog, Options::default())
}

/// Lowers every function of `prog` with `options`.
pub fn lower_program_with(prog: &ir::Program, options: Options) -> Result<Program, LowerError> {
    let mut functions = Vec::new();
    for (id, f) in prog.functions.iter() {
        functions.push(lower_function(prog, id, f, options)?);
    }
    Ok(Program { functions })
}

/// How a core IR parameter or result of type `t` is passed.
pub fn passing(t: &Type) -> Passing {
    if t.is_scalar() {
        Passing::Scalar
    } else {
        Passing::Array {
            rank: t.rank(),
            dynamic: (0..t.rank()).filter(|&k| t.shape[k] == Size::Any).collect(),
        }
    }
}

/// Whether function `id` is only ever called with its array parameters
/// row-major at offset 0: an entry point's function that no function
/// calls. The executables, servers and libraries call entry points with
/// arrays they hold row-major from offset 0 (`arr_mem`, `stride` in the
/// runtimes, `codegen`'s entry wrappers).
fn gets_row_major_arrays(prog: &ir::Program, id: FunId) -> bool {
    fn calls(b: &ir::Body, id: FunId) -> bool {
        b.stms.iter().any(|s| {
            matches!(&s.exp, ir::Exp::Apply { fun, .. } if *fun == id)
                || ir::uses::nested_bodies(&s.exp)
                    .into_iter()
                    .any(|(_, nb)| calls(nb, id))
        })
    }
    prog.entries.iter().any(|e| e.fun == id)
        && !prog.functions.iter().any(|(_, g)| calls(&g.body, id))
}

fn lower_function(
    prog: &ir::Program,
    id: FunId,
    f: &ir::Function,
    options: Options,
) -> R<Function> {
    let mut lw = Lowerer::new(prog, f);
    lw.device = options.device;
    let row_major_params = gets_row_major_arrays(prog, id);
    let mut params = Vec::new();
    let mut param_passing = Vec::new();
    for p in &f.params {
        let t = lw.var_type(p.var)?.clone();
        lw.span = Span::NONE;
        if t.acc {
            return lw.fail("an accumulator parameter is not lowered yet");
        }
        let pass = passing(&t);
        let name = lw.var_name(p.var);
        if t.is_scalar() {
            let v = lw.new_var(&name, t.elem);
            params.push(Slot::Scalar(v));
            lw.param_scalars.insert(v);
            lw.bind(p.var, Val::Scalar(SExp::Var(v)));
        } else {
            let mem = lw.new_mem(&format!("{name}_mem"), t.elem);
            params.push(Slot::Mem(mem));
            let off = lw.new_var(&format!("{name}_off"), PrimType::I64);
            params.push(Slot::Scalar(off));
            let mut strides = Vec::new();
            for k in 0..t.rank() {
                let s = lw.new_var(&format!("{name}_s{k}"), PrimType::I64);
                params.push(Slot::Scalar(s));
                strides.push(SExp::Var(s));
            }
            let mut offset = SExp::Var(off);
            let mut shape = Vec::new();
            for (k, d) in t.shape.iter().enumerate() {
                shape.push(match d {
                    Size::Any => {
                        let s = lw.new_var(&format!("{name}_d{k}"), PrimType::I64);
                        params.push(Slot::Scalar(s));
                        lw.param_scalars.insert(s);
                        SExp::Var(s)
                    }
                    d => lw.size(d)?,
                });
            }
            if row_major_params {
                // Known row-major at offset 0: the emitted loops index
                // with a constant unit stride, which LLVM vectorises.
                offset = SExp::i64(0);
                strides = row_major_strides(&shape);
            }
            let view = View {
                mem,
                elem: t.elem,
                offset,
                shape,
                strides,
            };
            lw.bind(p.var, Val::Array(view));
        }
        param_passing.push(pass);
    }
    let vals = lw.body(&f.body, &[])?;
    let sizes = lw.size_scalars();
    let mut results = Vec::new();
    let mut result_passing = Vec::new();
    let mut result_shapes = Vec::new();
    lw.span = Span::NONE;
    for (k, (v, t)) in vals.into_iter().zip(&f.ret).enumerate() {
        result_passing.push(passing(t));
        match v {
            Val::Scalar(e) => {
                let r = lw.assign_fresh(&format!("res{k}"), t.elem, e);
                results.push(Slot::Scalar(r));
                result_shapes.push(Vec::new());
            }
            Val::Array(view) => {
                let view = if view.is_row_major_at_zero() {
                    view
                } else {
                    let fresh = lw.alloc(&format!("res{k}"), t.elem, view.shape.clone());
                    lw.copy(&fresh, &view);
                    fresh
                };
                results.push(Slot::Mem(view.mem));
                let mut shape = Vec::new();
                for (d, size) in t.shape.iter().zip(&view.shape) {
                    if *d == Size::Any {
                        let r = lw.assign_fresh(&format!("res{k}_d"), PrimType::I64, size.clone());
                        results.push(Slot::Scalar(r));
                        shape.push(SExp::Var(r));
                    } else {
                        shape.push(lw.size(d)?);
                    }
                }
                result_shapes.push(shape);
            }
            Val::Acc(..) => {
                return lw.fail("a function returning an accumulator is not lowered yet");
            }
        }
    }
    let mut function = Function {
        name: f.name.clone(),
        params,
        param_passing,
        results,
        result_passing,
        result_shapes,
        body: Block { stms: lw.stms },
        vars: lw.vars,
        mems: lw.mems,
    };
    lifetimes::coalesce_branch_handles(&mut function);
    lifetimes::hoist_loop_allocations(&mut function);
    per_chunk::allocate_per_chunk(&mut function, &sizes);
    lifetimes::release_dead_blocks(&mut function);
    strength::reduce_quadratic_indices(&mut function);
    Ok(function)
}

/// The most elements a copy of constant shape writes one by one.
pub(crate) const UNROLLED_COPY: i64 = 16;

/// The shape of `dst` and `src` when it is the same constant shape in
/// both, of at most [`UNROLLED_COPY`] elements.
fn small_constant_shape(dst: &View, src: &View) -> Option<Vec<i64>> {
    if dst.elem != src.elem || dst.rank() != src.rank() {
        return None;
    }
    let mut shape = Vec::with_capacity(dst.rank());
    let mut count: i64 = 1;
    for (a, b) in dst.shape.iter().zip(&src.shape) {
        let n = a.as_i64()?;
        if b.as_i64() != Some(n) || n < 0 {
            return None;
        }
        count = count.checked_mul(n)?;
        shape.push(n);
    }
    (count <= UNROLLED_COPY).then_some(shape)
}

/// The value of a core IR variable.
#[derive(Clone, Debug)]
pub(crate) enum Val<'p> {
    /// A scalar.
    Scalar(SExp),
    /// An array.
    Array(View),
    /// An accumulator: the array's view and its operator, if any.
    Acc(View, Option<&'p Lambda>),
}

pub(crate) struct Lowerer<'p> {
    pub(crate) prog: &'p ir::Program,
    pub(crate) f: &'p ir::Function,
    env: HashMap<VarId, Val<'p>>,
    pub(crate) stms: Vec<Stm>,
    vars: Vec<VarInfo>,
    mems: Vec<MemInfo>,
    /// Inside a parallel loop: everything nested runs sequentially, except
    /// the SOACs of [`Self::inner_par`].
    pub(crate) parallel: bool,
    /// Inside the parallel loop of a map with parallelism inside (a
    /// [`flatten::Plan::Nest`] or [`flatten::Plan::Versioned`]): the maps,
    /// reductions and scans of its body that `flatten` plans as parallel
    /// are parallel loops nested in it (the runtime splits them only while
    /// the outer loop leaves threads idle). Nothing deeper is parallel.
    pub(crate) inner_par: bool,
    /// Set just before a parallel loop: the loop is the parallel loop of a
    /// map with parallelism inside, and its body gets [`Self::inner_par`].
    pub(crate) inner_next: bool,
    /// Set while a SOAC of an [`Self::inner_par`] body lowers its own
    /// parallel loops: they nest in the enclosing one.
    pub(crate) nest_here: bool,
    /// With [`Self::inner_par`], in a perfect nest: its reduction or scan
    /// is split too (versioned on its chunk count). In a map with several
    /// SOACs inside, only the maps are: a second, chunked copy of every
    /// inner reduction's body would make the generated code much larger.
    pub(crate) inner_red: bool,
    /// [`Self::inner_red`] for the body of the next parallel loop.
    pub(crate) inner_red_next: bool,
    /// Set just before the parallel loop over the chunks of a reduction,
    /// scan, histogram or accumulator map ([`ParKind::Chunks`]).
    pub(crate) chunk_loop_next: bool,
    /// The span of the statement being lowered.
    pub(crate) span: Span,
    /// Whether the statement being lowered is marked `#[unsafe]`.
    pub(crate) unsafe_here: bool,
    /// The function's scalar parameters (sizes among them).
    param_scalars: std::collections::HashSet<SVar>,
    /// The label of the next parallel loop (`segmap` unless set just
    /// before it).
    pub(crate) par_label: &'static str,
    /// The blocks of the accumulators that the iterations of the parallel
    /// loop being lowered share: their updates are atomic ([`accs`]).
    pub(crate) atomic_accs: Vec<MemId>,
    /// The concatenations built in place ([`concat_in_place`]).
    pub(crate) in_place: concat_in_place::InPlace,
    /// The `iota`s lowered as loop indices ([`iota_index`]), found once.
    pub(crate) index_iotas: std::cell::OnceCell<std::collections::HashSet<VarId>>,
    /// The code is for a GPU ([`Options::device`]).
    pub(crate) device: bool,
    /// Set while lowering a row of a segmented reduction by a group of
    /// threads ([`segred_groups`]): the row's reduction, the next screma
    /// lowered, takes it.
    pub(crate) group_red: Option<segred_groups::GroupRow>,
}

impl<'p> Lowerer<'p> {
    fn new(prog: &'p ir::Program, f: &'p ir::Function) -> Self {
        Lowerer {
            prog,
            f,
            env: HashMap::new(),
            stms: Vec::new(),
            vars: Vec::new(),
            mems: Vec::new(),
            parallel: false,
            inner_par: false,
            inner_next: false,
            nest_here: false,
            inner_red: false,
            inner_red_next: false,
            chunk_loop_next: false,
            span: Span::NONE,
            par_label: "segmap",
            unsafe_here: false,
            param_scalars: Default::default(),
            atomic_accs: Vec::new(),
            in_place: Default::default(),
            index_iotas: Default::default(),
            device: false,
            group_red: None,
        }
    }

    pub(crate) fn fail<T>(&self, message: impl Into<String>) -> R<T> {
        Err(LowerError {
            message: message.into(),
            span: self.span,
            function: self.f.name.clone(),
        })
    }

    pub(crate) fn var_type(&self, v: VarId) -> R<&'p Type> {
        match self.f.var_type(v) {
            Some(t) => Ok(t),
            None => self.fail(format!("variable {v:?} does not belong to the function")),
        }
    }

    pub(crate) fn var_name(&self, v: VarId) -> String {
        self.f.var_name(v).unwrap_or("v").to_string()
    }

    pub(crate) fn new_var(&mut self, name: &str, ty: PrimType) -> SVar {
        self.vars.push(VarInfo {
            name: name.to_string(),
            ty,
        });
        SVar(self.vars.len() as u32 - 1)
    }

    pub(crate) fn new_mem(&mut self, name: &str, elem: PrimType) -> MemId {
        self.mems.push(MemInfo {
            name: name.to_string(),
            elem,
        });
        MemId(self.mems.len() as u32 - 1)
    }

    pub(crate) fn var_elem(&self, v: SVar) -> PrimType {
        self.vars[v.0 as usize].ty
    }

    pub(crate) fn push(&mut self, s: Stm) {
        self.stms.push(s);
    }

    /// Pushes `then_block`, run only when `cond` holds (an `if` without
    /// `else`).
    pub(crate) fn push_when(&mut self, cond: SExp, then_block: Block) {
        self.push(Stm::If {
            cond,
            then_block,
            else_block: Block::default(),
        });
    }

    /// Lowers `f` into a block of its own.
    pub(crate) fn nested(&mut self, f: impl FnOnce(&mut Self) -> R<()>) -> R<Block> {
        let saved = std::mem::take(&mut self.stms);
        let r = f(self);
        let stms = std::mem::replace(&mut self.stms, saved);
        r.map(|()| Block { stms })
    }

    /// A fresh variable holding `e`.
    pub(crate) fn assign_fresh(&mut self, name: &str, ty: PrimType, e: SExp) -> SVar {
        let v = self.new_var(name, ty);
        self.push(Stm::Assign {
            var: v,
            exp: e,
            span: self.span,
        });
        v
    }

    /// A fresh block for an array of shape `shape`, in row-major order.
    pub(crate) fn alloc(&mut self, name: &str, elem: PrimType, shape: Vec<SExp>) -> View {
        let mem = self.new_mem(&format!("{name}_mem"), elem);
        let view = View::row_major(mem, elem, shape);
        self.push(Stm::Alloc {
            mem,
            count: view.count(),
        });
        view
    }

    /// The destination for an array result: the hint, or a fresh block.
    pub(crate) fn dest(
        &mut self,
        hint: Option<&View>,
        name: &str,
        elem: PrimType,
        shape: Vec<SExp>,
    ) -> View {
        match hint {
            Some(h) if h.elem == elem && h.rank() == shape.len() => h.clone(),
            _ => self.alloc(name, elem, shape),
        }
    }

    /// Copies `src` into `dst`: element by element when both have the same
    /// constant shape of at most [`UNROLLED_COPY`] elements (a small
    /// array costs a few reads and writes instead of a call walking its
    /// views), with a [`Stm::Copy`] otherwise.
    ///
    /// Inside a parallel loop, a copy between two handles whose size is
    /// not a constant tests it at run time: at most [`UNROLLED_COPY`]
    /// elements are copied by a loop of reads and writes (after checking
    /// the shapes agree, as [`Stm::Copy`] does), more by [`Stm::Copy`].
    /// Sizes that are the function's parameters (its inputs' sizes,
    /// usually large) and constants over [`UNROLLED_COPY`] are left to
    /// [`Stm::Copy`].
    pub(crate) fn copy(&mut self, dst: &View, src: &View) {
        if let Some(shape) = small_constant_shape(dst, src) {
            self.copy_elements(dst, src, &shape);
            return;
        }
        let sized_late = src.shape.iter().all(|d| match d {
            SExp::Const(_) => d.as_i64().is_some_and(|n| n <= UNROLLED_COPY),
            SExp::Var(v) => !self.param_scalars.contains(v),
            _ => true,
        });
        if self.parallel
            && sized_late
            && dst.mem != src.mem
            && dst.rank() == src.rank()
            && dst.elem == src.elem
        {
            self.copy_small_at_run_time(dst, src);
            return;
        }
        self.push(Stm::Copy {
            dst: dst.clone(),
            src: src.clone(),
            span: self.span,
        });
    }

    /// Copies the elements of `src` (of constant shape `shape`) into
    /// `dst`: every element is read before any is written, so views of
    /// one block that overlap copy as [`Stm::Copy`] does.
    fn copy_elements(&mut self, dst: &View, src: &View, shape: &[i64]) {
        let mut indices: Vec<Vec<SExp>> = vec![Vec::new()];
        for &n in shape {
            indices = indices
                .into_iter()
                .flat_map(|idx| {
                    (0..n).map(move |k| {
                        let mut idx = idx.clone();
                        idx.push(SExp::i64(k));
                        idx
                    })
                })
                .collect();
        }
        let mut temps = Vec::with_capacity(indices.len());
        for idx in &indices {
            let var = self.new_var("elem", src.elem);
            self.push(Stm::Read {
                var,
                view: src.clone(),
                idx: idx.clone(),
            });
            temps.push(var);
        }
        for (idx, var) in indices.into_iter().zip(temps) {
            self.push(Stm::Write {
                view: dst.clone(),
                idx,
                value: SExp::Var(var),
            });
        }
    }

    /// `if count <= UNROLLED_COPY { loops of reads and writes } else { copy }`
    /// for views `dst` and `src` of two handles.
    fn copy_small_at_run_time(&mut self, dst: &View, src: &View) {
        let small = SExp::cmp(ir::CmpOp::Le, src.count(), SExp::i64(UNROLLED_COPY));
        let span = self.span;
        let then_block = Block {
            stms: self.element_loops(dst, src),
        };
        let else_block = Block {
            stms: vec![Stm::Copy {
                dst: dst.clone(),
                src: src.clone(),
                span,
            }],
        };
        self.push(Stm::If {
            cond: small,
            then_block,
            else_block,
        });
    }

    /// The shape check and the nested loops copying `src` into `dst`
    /// element by element.
    fn element_loops(&mut self, dst: &View, src: &View) -> Vec<Stm> {
        let mut stms = Vec::new();
        let same = dst.shape.iter().zip(&src.shape).fold(
            SExp::Const(ir::PrimValue::Bool(true)),
            |acc, (a, b)| {
                if a == b {
                    acc
                } else {
                    SExp::and(acc, SExp::cmp(ir::CmpOp::Eq, a.clone(), b.clone()))
                }
            },
        );
        if same != SExp::Const(ir::PrimValue::Bool(true)) {
            let dims = vec!["{}"; src.rank()].join(", ");
            stms.push(Stm::Assert {
                cond: same,
                msg: format!(
                    "Size mismatch: copying an array of shape [{dims}] into one of shape [{dims}]"
                ),
                args: src.shape.iter().chain(&dst.shape).cloned().collect(),
                span: self.span,
                check: Check::Always,
            });
        }
        let ids: Vec<SVar> = (0..src.rank())
            .map(|_| self.new_var("k", PrimType::I64))
            .collect();
        let idx: Vec<SExp> = ids.iter().map(|&v| SExp::Var(v)).collect();
        let elem = self.new_var("elem", src.elem);
        let mut body = vec![
            Stm::Read {
                var: elem,
                view: src.clone(),
                idx: idx.clone(),
            },
            Stm::Write {
                view: dst.clone(),
                idx,
                value: SExp::Var(elem),
            },
        ];
        for (k, &i) in ids.iter().enumerate().rev() {
            body = vec![Stm::For {
                i,
                bound: src.shape[k].clone(),
                body: Block { stms: body },
            }];
        }
        stms.extend(body);
        stms
    }

    pub(crate) fn bind(&mut self, v: VarId, val: Val<'p>) {
        self.env.insert(v, val);
    }

    pub(crate) fn lookup(&self, v: VarId) -> R<Val<'p>> {
        match self.env.get(&v) {
            Some(x) => Ok(x.clone()),
            None => self.fail(format!("variable `{}` is not bound", self.var_name(v))),
        }
    }

    pub(crate) fn operand(&self, o: &Operand) -> R<Val<'p>> {
        match o {
            Operand::Const(c) => Ok(Val::Scalar(SExp::Const(*c))),
            Operand::Var(v) => self.lookup(*v),
        }
    }

    pub(crate) fn scalar(&self, o: &Operand) -> R<SExp> {
        match self.operand(o)? {
            Val::Scalar(e) => Ok(e),
            _ => self.fail("an array where a scalar was expected"),
        }
    }

    pub(crate) fn array(&self, v: VarId) -> R<View> {
        match self.lookup(v)? {
            Val::Array(view) => Ok(view),
            _ => self.fail(format!("`{}` is not an array", self.var_name(v))),
        }
    }

    pub(crate) fn size(&self, s: &Size) -> R<SExp> {
        match s {
            Size::Const(n) => Ok(SExp::i64(*n)),
            Size::Var(v) => self.scalar(&Operand::Var(*v)),
            Size::Any => self.fail("an array whose size is unknown (`?`) here is not lowered yet"),
        }
    }

    pub(crate) fn shape(&self, shape: &[Size]) -> R<Vec<SExp>> {
        shape.iter().map(|s| self.size(s)).collect()
    }

    /// Lowers a body; `hints` gives destinations for its array results
    /// (by position), used by the statements that bind them when they can.
    pub(crate) fn body(&mut self, b: &'p Body, hints: &[Option<View>]) -> R<Vec<Val<'p>>> {
        let mut by_var: HashMap<VarId, View> = HashMap::new();
        for (o, h) in b.result.iter().zip(hints) {
            if let (Operand::Var(v), Some(h)) = (o, h) {
                by_var.entry(*v).or_insert_with(|| h.clone());
            }
        }
        self.place_concats(b, &mut by_var)?;
        for s in &b.stms {
            self.span = s.span;
            self.unsafe_here = s.attrs.contains(&ir::Attr::Unsafe);
            self.before_stm(s);
            let hints: Vec<Option<View>> = s.pat.iter().map(|v| by_var.get(v).cloned()).collect();
            let vals = self.exp(s, &hints)?;
            if vals.len() != s.pat.len() {
                return self.fail("a statement bound the wrong number of values");
            }
            for (v, x) in s.pat.iter().zip(vals) {
                self.bind(*v, x);
            }
        }
        b.result.iter().map(|o| self.operand(o)).collect()
    }

    /// Lowers lambda `l` applied to `args` (one per parameter).
    pub(crate) fn apply(
        &mut self,
        l: &'p Lambda,
        args: Vec<Val<'p>>,
        hints: &[Option<View>],
    ) -> R<Vec<Val<'p>>> {
        if args.len() != l.params.len() {
            return self.fail("a lambda applied to the wrong number of arguments");
        }
        for (p, a) in l.params.iter().zip(args) {
            self.bind(p.var, a);
        }
        let span = self.span;
        let out = self.body(&l.body, hints);
        self.span = span;
        out
    }

    /// A scalar operation's result in a fresh variable named after `pat`.
    fn scalar_result(&mut self, stm: &ir::Stm, e: SExp) -> R<Vec<Val<'p>>> {
        let Some(&v) = stm.pat.first() else {
            return self.fail("a scalar operation without a result");
        };
        let t = self.var_type(v)?.elem;
        let name = self.var_name(v);
        let x = self.assign_fresh(&name, t, e);
        Ok(vec![Val::Scalar(SExp::Var(x))])
    }

    fn exp(&mut self, stm: &'p ir::Stm, hints: &[Option<View>]) -> R<Vec<Val<'p>>> {
        let hint = hints.first().and_then(|h| h.as_ref());
        match &stm.exp {
            Exp::Atom(o) => Ok(vec![self.operand(o)?]),
            Exp::UnOp(op, x) => {
                let e = SExp::UnOp(*op, Box::new(self.scalar(x)?));
                self.scalar_result(stm, e)
            }
            Exp::BinOp(op, x, y) => {
                let e = SExp::BinOp(*op, Box::new(self.scalar(x)?), Box::new(self.scalar(y)?));
                self.scalar_result(stm, e)
            }
            Exp::Cmp(op, x, y) => {
                let e = SExp::cmp(*op, self.scalar(x)?, self.scalar(y)?);
                self.scalar_result(stm, e)
            }
            Exp::Convert(k, t, x) => {
                let e = SExp::Convert(*k, *t, Box::new(self.scalar(x)?));
                self.scalar_result(stm, e)
            }
            Exp::Math(m, args) => {
                let args = args.iter().map(|a| self.scalar(a)).collect::<R<Vec<_>>>()?;
                self.scalar_result(stm, SExp::Math(*m, args))
            }
            Exp::Assert { cond, msg, args } => {
                let cond = self.scalar(cond)?;
                let args = args.iter().map(|a| self.scalar(a)).collect::<R<Vec<_>>>()?;
                let msg = if args.is_empty() {
                    format!("Assertion is false: {msg}")
                } else {
                    msg.clone()
                };
                self.push(Stm::Assert {
                    cond,
                    msg,
                    args,
                    span: self.span,
                    check: Check::Always,
                });
                Ok(Vec::new())
            }
            Exp::Index(arr, idx) => self.index(stm, *arr, idx),
            Exp::Update(arr, idx, v) => self.update(*arr, idx, v),
            Exp::Iota { n, start, step } => self.iota(stm, hint, n, start, step),
            Exp::Replicate { shape, value } => self.replicate(stm, hint, shape, value),
            Exp::Reshape { shape, arr } => self.reshape(stm, shape, *arr),
            Exp::Rearrange { perm, arr } => self.rearrange(perm, *arr),
            Exp::Concat { dim, len, arrs } => self.concat(stm, hint, *dim, len, arrs),
            Exp::Copy(arr) => {
                let src = self.array(*arr)?;
                let name = self.pat_name(stm);
                let dst = self.dest(hint, &name, src.elem, src.shape.clone());
                self.copy(&dst, &src);
                Ok(vec![Val::Array(dst)])
            }
            Exp::Scratch { elem, shape } => {
                let shape = self.shape(shape)?;
                let name = self.pat_name(stm);
                Ok(vec![Val::Array(self.dest(hint, &name, *elem, shape))])
            }
            Exp::If {
                cond,
                then_body,
                else_body,
            } => self.if_exp(stm, hints, cond, then_body, else_body),
            Exp::Loop { params, form, body } => self.loop_exp(stm, params, form, body),
            Exp::Apply { fun, args } => self.call(stm, *fun, args),
            Exp::Screma(s) => self.screma(stm, s, hints),
            Exp::Hist(h) => self.hist(stm, h),
            Exp::Scatter(s) => self.scatter(stm, s),
            Exp::WithAcc(w) => self.with_acc(w),
            Exp::UpdateAcc { acc, idx, value } => self.update_acc(*acc, idx, value),
            Exp::Jvp(_) | Exp::Vjp(_) => {
                self.fail("a `jvp` or `vjp` the AD pass left unexpanded cannot be lowered")
            }
            Exp::CustomVjp(c) => {
                let args = c
                    .args
                    .iter()
                    .map(|a| self.operand(a))
                    .collect::<R<Vec<_>>>()?;
                self.apply(&c.f, args, hints)
            }
        }
    }

    /// The name of a statement's first bound variable.
    pub(crate) fn pat_name(&self, stm: &ir::Stm) -> String {
        stm.pat
            .first()
            .map(|v| self.var_name(*v))
            .unwrap_or_else(|| "t".into())
    }
}

/// The binary operation `op` on `a` and `b`.
pub(crate) fn bin(op: ir::BinOp, a: SExp, b: SExp) -> SExp {
    SExp::BinOp(op, Box::new(a), Box::new(b))
}
