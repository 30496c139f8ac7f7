//! A reference interpreter for the IR.
//!
//! [`run_function`] runs one function on argument [`Value`]s and returns
//! its results together with [`Counters`], a deterministic cost measure:
//!
//! - `scalar_ops`: executed unary, binary, comparison, conversion and math
//!   operations (one each, wherever they run, including inside lambdas);
//! - `reads`: array elements read: a scalar index reads one element; a
//!   SOAC reads every element of each input row it passes to its lambda;
//!   `copy` and `concat` read what they copy; a `hist` or accumulator update
//!   with an operator reads the old elements it combines;
//! - `writes`: array elements written into arrays: results of `iota`,
//!   `replicate`, `copy`, `concat`, the mapped and scanned arrays of a
//!   `screma`, the elements written by `update`, `scatter`, `hist` and
//!   `update_acc`.
//!
//! Slicing, `reshape` and `rearrange` are views in a compiled program and
//! cost nothing here; a `scratch` array costs nothing until written.
//!
//! [`Outcome::largest_array`] is a memory measure: the number of elements
//! of the largest array any statement produced (a `scratch` array
//! included), which bounds, for instance, the checkpoints of a loop
//! differentiated in reverse mode.
//!
//! Run-time checks fail with a [`RuntimeError`] that carries the message
//! (with the phrases of `docs/diagnostics.md`: `Index [i] out of bounds
//! for array of shape [n].`, `Assertion is false: …`, `Size mismatch`,
//! `Division by zero`, `Invalid slice`, `Invalid range`, `Invalid
//! reshape`) and the span of the statement that failed. Bound variables are
//! checked against their declared types, so a size that disagrees with the
//! value of its size variable is a `Size mismatch`. Out-of-bounds writes of
//! `scatter`, `hist` and `update_acc` are ignored, as in Futhark.
//!
//! Scalar semantics are Futhark's; see [`scalar`].
//!
//! `jvp` and `vjp` are not evaluated: they fail with "not expanded", since
//! the AD pass replaces them before a program is interpreted. A
//! `custom_vjp` outside them is its function applied to its arguments. An
//! accumulator with an operator is combined in the function that created
//! it; passing one to another function is not supported.

pub mod array;
pub mod scalar;

use std::fmt;

use values::{Data, PrimType, PrimValue, Value};

use crate::ids::{EntityId, VarId};
use crate::print::type_string;
use crate::syntax::*;
use crate::types::{Size, Span, Type};
use array::{Dim, blocks, copy_elems, gather, shape_text, stack, zeros};

/// Operation counts of a run; see the module doc for what each counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Scalar operations executed.
    pub scalar_ops: u64,
    /// Array elements read.
    pub reads: u64,
    /// Array elements written.
    pub writes: u64,
}

impl fmt::Display for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "scalar_ops: {}, reads: {}, writes: {}",
            self.scalar_ops, self.reads, self.writes
        )
    }
}

/// The results of a run and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The function's results.
    pub values: Vec<Value>,
    /// The operation counts.
    pub counters: Counters,
    /// The number of elements of the largest array a statement produced.
    pub largest_array: usize,
}

/// A run-time error with the span of the failing statement.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeError {
    /// The message.
    pub message: String,
    /// The failing statement's span ([`Span::NONE`] for errors in the
    /// arguments).
    pub span: Span,
    /// The function the statement is in.
    pub function: String,
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error: {}", self.message)?;
        if !self.span.is_none() {
            write!(f, "\n  at {} in `{}`", self.span, self.function)?;
        }
        Ok(())
    }
}

impl std::error::Error for RuntimeError {}

/// Runs the function named `name` of `prog` on `args`.
pub fn run_function(prog: &Program, name: &str, args: Vec<Value>) -> Result<Outcome, RuntimeError> {
    let Some(fun) = prog.function_by_name(name) else {
        return Err(RuntimeError {
            message: format!("no function named `{name}`"),
            span: Span::NONE,
            function: name.to_string(),
        });
    };
    let mut it = Interp {
        prog,
        counters: Counters::default(),
        depth: 0,
        largest_array: 0,
    };
    let args = args.into_iter().map(Val::V).collect();
    let vals = it.call(fun_of(prog, fun)?, args, Span::NONE)?;
    let mut values = Vec::new();
    for v in vals {
        match v {
            Val::V(v) => values.push(v),
            Val::Acc(_) => {
                return Err(RuntimeError {
                    message: "a function returned an accumulator".into(),
                    span: Span::NONE,
                    function: name.to_string(),
                });
            }
        }
    }
    Ok(Outcome {
        values,
        counters: it.counters,
        largest_array: it.largest_array,
    })
}

fn fun_of(prog: &Program, id: crate::ids::FunId) -> Result<&Function, RuntimeError> {
    prog.functions.get(id).ok_or_else(|| RuntimeError {
        message: format!("unknown function {id:?}"),
        span: Span::NONE,
        function: String::new(),
    })
}

/// An accumulator: the array being accumulated into and its operator.
#[derive(Clone, Debug)]
struct Acc {
    arr: Value,
    op: Option<(Lambda, PrimValue)>,
}

#[derive(Clone, Debug)]
enum Val {
    V(Value),
    Acc(Box<Acc>),
}

const MAX_DEPTH: u32 = 256;

struct Interp<'p> {
    prog: &'p Program,
    counters: Counters,
    depth: u32,
    largest_array: usize,
}

struct Frame<'p> {
    f: &'p Function,
    env: Vec<Option<Val>>,
    span: Span,
}

type R<T> = Result<T, RuntimeError>;

/// An assertion's message: `msg` with each `{}` replaced by the next of
/// `vals` (integers and booleans as Futhark writes them without a suffix).
fn fill_message(msg: &str, vals: &[PrimValue]) -> String {
    let mut out = String::new();
    let mut vals = vals.iter();
    let mut rest = msg;
    while let Some(k) = rest.find("{}") {
        let Some(v) = vals.next() else {
            break;
        };
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

impl Frame<'_> {
    fn err<T>(&self, message: impl Into<String>) -> R<T> {
        Err(RuntimeError {
            message: message.into(),
            span: self.span,
            function: self.f.name.clone(),
        })
    }

    fn name(&self, v: VarId) -> String {
        self.f
            .var_name(v)
            .map(str::to_string)
            .unwrap_or_else(|| format!("{v:?}"))
    }

    fn get(&self, v: VarId) -> R<&Val> {
        match self.env.get(v.index()) {
            Some(Some(x)) => Ok(x),
            _ => self.err(format!(
                "variable `{}` is not bound (or was consumed)",
                self.name(v)
            )),
        }
    }

    fn take(&mut self, v: VarId) -> R<Val> {
        match self.env.get_mut(v.index()).and_then(Option::take) {
            Some(x) => Ok(x),
            None => self.err(format!(
                "variable `{}` is not bound (or was consumed)",
                self.name(v)
            )),
        }
    }

    fn value(&self, v: VarId) -> R<&Value> {
        match self.get(v)? {
            Val::V(x) => Ok(x),
            Val::Acc(_) => self.err(format!(
                "`{}` is an accumulator, not an array",
                self.name(v)
            )),
        }
    }

    fn take_value(&mut self, v: VarId) -> R<Value> {
        match self.take(v)? {
            Val::V(x) => Ok(x),
            Val::Acc(_) => self.err(format!(
                "`{}` is an accumulator, not an array",
                self.name(v)
            )),
        }
    }

    fn operand(&self, o: &Operand) -> R<Val> {
        match o {
            Operand::Var(v) => self.get(*v).cloned(),
            Operand::Const(c) => Ok(Val::V(Value::scalar(*c))),
        }
    }

    fn scalar(&self, o: &Operand) -> R<PrimValue> {
        match o {
            Operand::Const(c) => Ok(*c),
            Operand::Var(v) => match self.value(*v)?.as_scalar() {
                Some(x) => Ok(x),
                None => self.err(format!("`{}` is not a scalar", self.name(*v))),
            },
        }
    }

    fn i64(&self, o: &Operand) -> R<i64> {
        match self.scalar(o)? {
            PrimValue::I64(x) => Ok(x),
            x => self.err(format!("expected an i64, found {x}")),
        }
    }

    fn size(&self, s: &Size) -> R<usize> {
        let n = match s {
            Size::Const(n) => *n,
            Size::Var(v) => self.i64(&Operand::Var(*v))?,
            Size::Any => return self.err("a size `?` cannot be evaluated"),
        };
        usize::try_from(n).or_else(|_| self.err(format!("Invalid range: negative size {n}")))
    }

    fn shape(&self, shape: &[Size]) -> R<Vec<usize>> {
        shape.iter().map(|s| self.size(s)).collect()
    }

    /// The shape of type `t` where it can be evaluated (0 elsewhere), for
    /// empty results.
    fn best_shape(&self, t: &Type) -> Vec<usize> {
        t.shape.iter().map(|s| self.size(s).unwrap_or(0)).collect()
    }

    fn check_type(&self, v: VarId, val: &Val) -> R<()> {
        let Some(t) = self.f.var_type(v) else {
            return self.err(format!("variable {v:?} does not belong to the function"));
        };
        let (value, is_acc) = match val {
            Val::V(x) => (x, false),
            Val::Acc(a) => (&a.arr, true),
        };
        if is_acc != t.acc || value.prim_type() != t.elem || value.rank() != t.rank() {
            return self.err(format!(
                "`{}` of type {} bound to a value of type {}",
                self.name(v),
                type_string(&self.f.vars, t),
                value.value_type()
            ));
        }
        for (d, s) in value.shape().iter().zip(&t.shape) {
            let expected = match s {
                Size::Const(n) => Some(*n),
                Size::Var(sv) => match self.env.get(sv.index()) {
                    Some(Some(Val::V(x))) => {
                        x.as_scalar().and_then(|p| p.as_i128()).map(|n| n as i64)
                    }
                    _ => None,
                },
                Size::Any => None,
            };
            if let Some(n) = expected
                && n != *d as i64
            {
                return self.err(format!(
                    "Size mismatch: `{}` is declared as {} but its value has shape {}",
                    self.name(v),
                    type_string(&self.f.vars, t),
                    shape_text(value.shape())
                ));
            }
        }
        Ok(())
    }

    fn bind(&mut self, vs: &[VarId], vals: Vec<Val>) -> R<()> {
        if vs.len() != vals.len() {
            return self.err(format!(
                "{} values bound to {} variables",
                vals.len(),
                vs.len()
            ));
        }
        for (v, x) in vs.iter().zip(vals) {
            match self.env.get_mut(v.index()) {
                Some(slot) => *slot = Some(x),
                None => return self.err(format!("variable {v:?} does not belong to the function")),
            }
        }
        for v in vs {
            if let Some(Some(x)) = self.env.get(v.index()) {
                self.check_type(*v, x)?;
            }
        }
        Ok(())
    }

    fn dims(&self, idx: &[DimIndex]) -> R<Vec<Dim>> {
        idx.iter()
            .map(|d| match d {
                DimIndex::Fix(i) => Ok(Dim::Fix(self.i64(i)?)),
                DimIndex::Range { start, len, stride } => Ok(Dim::Range {
                    start: self.i64(start)?,
                    len: self.i64(len)?,
                    stride: self.i64(stride)?,
                }),
            })
            .collect()
    }
}

/// Appends the iteration index `i` when the map lambda takes one (one
/// parameter more than there are inputs). Reads no array.
fn with_index(l: &Lambda, inputs: &[Val], i: usize, args: &mut Vec<Val>) {
    if l.params.len() == inputs.len() + 1 {
        args.push(sval(PrimValue::I64(i as i64)));
    }
}

fn sval(x: PrimValue) -> Val {
    Val::V(Value::scalar(x))
}

fn mk(shape: Vec<usize>, data: Data, fr: &Frame) -> R<Val> {
    match Value::new(shape, data) {
        Ok(v) => Ok(Val::V(v)),
        Err(e) => fr.err(e.to_string()),
    }
}

impl<'p> Interp<'p> {
    fn call(&mut self, f: &'p Function, args: Vec<Val>, span: Span) -> R<Vec<Val>> {
        self.depth += 1;
        let mut fr = Frame {
            f,
            env: vec![None; f.vars.len()],
            span,
        };
        if self.depth > MAX_DEPTH {
            return fr.err("call depth limit exceeded");
        }
        if args.len() != f.params.len() {
            return fr.err(format!(
                "`{}` takes {} arguments, but {} were given",
                f.name,
                f.params.len(),
                args.len()
            ));
        }
        let params: Vec<VarId> = f.params.iter().map(|p| p.var).collect();
        fr.bind(&params, args)?;
        fr.span = Span::NONE;
        let out = self.body(&mut fr, &f.body)?;
        for (i, (x, t)) in out.iter().zip(&f.ret).enumerate() {
            if let Val::V(x) = x {
                for (d, s) in x.shape().iter().zip(&t.shape) {
                    let n = match s {
                        Size::Any => continue,
                        s => fr.size(s)?,
                    };
                    if n != *d {
                        return fr.err(format!(
                            "Size mismatch: result {i} of `{}` should have type {} but has shape {}",
                            f.name,
                            type_string(&f.vars, t),
                            shape_text(x.shape())
                        ));
                    }
                }
            }
        }
        self.depth -= 1;
        Ok(out)
    }

    fn body(&mut self, fr: &mut Frame<'p>, b: &Body) -> R<Vec<Val>> {
        for s in &b.stms {
            fr.span = s.span;
            let vals = self.exp(fr, &s.exp)?;
            for v in &vals {
                let x = match v {
                    Val::V(x) => x,
                    Val::Acc(a) => &a.arr,
                };
                if x.rank() > 0 {
                    self.largest_array = self.largest_array.max(x.num_elements());
                }
            }
            fr.span = s.span;
            fr.bind(&s.pat, vals)?;
        }
        b.result.iter().map(|o| fr.operand(o)).collect()
    }

    fn lambda(&mut self, fr: &mut Frame<'p>, l: &Lambda, args: Vec<Val>) -> R<Vec<Val>> {
        let span = fr.span;
        let params: Vec<VarId> = l.params.iter().map(|p| p.var).collect();
        fr.bind(&params, args)?;
        let out = self.body(fr, &l.body)?;
        fr.span = span;
        Ok(out)
    }

    fn scalar_op(&mut self, fr: &Frame, r: Result<PrimValue, String>) -> R<Vec<Val>> {
        self.counters.scalar_ops += 1;
        match r {
            Ok(x) => Ok(vec![sval(x)]),
            Err(m) => fr.err(m),
        }
    }

    fn exp(&mut self, fr: &mut Frame<'p>, e: &Exp) -> R<Vec<Val>> {
        match e {
            Exp::Atom(o) => Ok(vec![fr.operand(o)?]),
            Exp::UnOp(op, x) => {
                let x = fr.scalar(x)?;
                self.scalar_op(fr, Ok(scalar::unop(*op, x)))
            }
            Exp::BinOp(op, x, y) => {
                let (x, y) = (fr.scalar(x)?, fr.scalar(y)?);
                self.scalar_op(fr, scalar::binop(*op, x, y))
            }
            Exp::Cmp(op, x, y) => {
                let (x, y) = (fr.scalar(x)?, fr.scalar(y)?);
                self.scalar_op(fr, Ok(PrimValue::Bool(scalar::cmp(*op, x, y))))
            }
            Exp::Convert(k, t, x) => {
                let x = fr.scalar(x)?;
                self.scalar_op(fr, Ok(scalar::convert(*k, *t, x)))
            }
            Exp::Math(f, args) => {
                let args = args.iter().map(|a| fr.scalar(a)).collect::<R<Vec<_>>>()?;
                self.scalar_op(fr, Ok(scalar::math(*f, &args)))
            }
            Exp::Index(arr, idx) => {
                let dims = fr.dims(idx)?;
                let a = fr.value(*arr)?;
                let full = a.rank() == idx.len() && dims.iter().all(|d| matches!(d, Dim::Fix(_)));
                let r = gather(a, &dims).or_else(|m| fr.err(m))?;
                if full {
                    self.counters.reads += 1;
                }
                Ok(vec![Val::V(r)])
            }
            Exp::Update(arr, idx, v) => {
                let dims = fr.dims(idx)?;
                let v = fr.operand(v)?;
                let a = fr.take_value(*arr)?;
                let (shape, starts, block) = blocks(a.shape(), &dims).or_else(|m| fr.err(m))?;
                let Val::V(v) = v else {
                    return fr.err("cannot write an accumulator into an array");
                };
                if v.shape() != shape.as_slice() {
                    return fr.err(format!(
                        "Size mismatch: writing a value of shape {} into a slice of shape {}",
                        shape_text(v.shape()),
                        shape_text(&shape)
                    ));
                }
                let (ashape, mut data) = a.into_parts();
                for (k, s) in starts.iter().enumerate() {
                    if !copy_elems(&mut data, *s, v.data(), k * block, block) {
                        return fr.err("element type mismatch in update");
                    }
                }
                self.counters.writes += (starts.len() * block) as u64;
                Ok(vec![mk(ashape, data, fr)?])
            }
            Exp::Iota { n, start, step } => {
                let n = fr.i64(n)?;
                if n < 0 {
                    return fr.err(format!("Invalid range: iota of negative length {n}"));
                }
                let (start, step) = (fr.scalar(start)?, fr.scalar(step)?);
                let t = start.prim_type();
                let (s, d) = (start.as_i128().unwrap_or(0), step.as_i128().unwrap_or(0));
                let mut data = Data::with_capacity(t, n as usize);
                for k in 0..i128::from(n) {
                    data.push(scalar::wrap(t, s.wrapping_add(d.wrapping_mul(k))));
                }
                self.counters.writes += n as u64;
                Ok(vec![mk(vec![n as usize], data, fr)?])
            }
            Exp::Replicate { shape, value } => {
                let outer = fr.shape(shape)?;
                let Val::V(v) = fr.operand(value)? else {
                    return fr.err("cannot replicate an accumulator");
                };
                let count: usize = outer.iter().product();
                let mut data = Data::with_capacity(v.prim_type(), count * v.num_elements());
                for _ in 0..count {
                    for x in v.data().iter() {
                        data.push(x);
                    }
                }
                self.counters.writes += data.len() as u64;
                let mut s = outer;
                s.extend_from_slice(v.shape());
                Ok(vec![mk(s, data, fr)?])
            }
            Exp::Reshape { shape, arr } => {
                let s = fr.shape(shape)?;
                let a = fr.value(*arr)?;
                if s.iter().product::<usize>() != a.num_elements() {
                    return fr.err(format!(
                        "Invalid reshape: cannot reshape array of shape {} into {}",
                        shape_text(a.shape()),
                        shape_text(&s)
                    ));
                }
                Ok(vec![mk(s, a.data().clone(), fr)?])
            }
            Exp::Rearrange { perm, arr } => {
                let a = fr.value(*arr)?;
                if perm.len() != a.rank() || perm.iter().any(|&p| p >= a.rank()) {
                    return fr.err("invalid permutation");
                }
                let new_shape: Vec<usize> = perm.iter().map(|&p| a.shape()[p]).collect();
                let mut data = Data::with_capacity(a.prim_type(), a.num_elements());
                let probe = Value::new(new_shape.clone(), zeros(PrimType::Bool, a.num_elements()))
                    .or_else(|e| fr.err(e.to_string()))?;
                for i in 0..a.num_elements() {
                    let ni = probe.unflatten_index(i);
                    let mut old = vec![0; a.rank()];
                    for (k, &p) in perm.iter().enumerate() {
                        old[p] = ni[k];
                    }
                    if let Some(x) = a.get(&old) {
                        data.push(x);
                    }
                }
                Ok(vec![mk(new_shape, data, fr)?])
            }
            Exp::Concat { dim, len, arrs } => {
                let len = fr.size(len)?;
                let vs: Vec<&Value> = arrs.iter().map(|a| fr.value(*a)).collect::<R<_>>()?;
                let Some(first) = vs.first() else {
                    return fr.err("concat of no arrays");
                };
                if *dim >= first.rank() {
                    return fr.err("concat along a missing dimension");
                }
                let total: usize = vs
                    .iter()
                    .map(|v| v.shape().get(*dim).copied().unwrap_or(0))
                    .sum();
                for v in &vs {
                    let mut a = v.shape().to_vec();
                    let mut b = first.shape().to_vec();
                    if a.len() == b.len() {
                        a[*dim] = 0;
                        b[*dim] = 0;
                    }
                    if a != b {
                        return fr.err(format!(
                            "Size mismatch: cannot concatenate arrays of shape {} and {}",
                            shape_text(first.shape()),
                            shape_text(v.shape())
                        ));
                    }
                }
                if total != len {
                    return fr.err(format!(
                        "Size mismatch: concatenation has {total} elements along dimension {dim}, expected {len}"
                    ));
                }
                let outer: usize = first.shape()[..*dim].iter().product();
                let mut data = Data::with_capacity(first.prim_type(), 0);
                for o in 0..outer {
                    for v in &vs {
                        let chunk: usize = v.shape()[*dim..].iter().product();
                        for k in 0..chunk {
                            if let Some(x) = v.data().get(o * chunk + k) {
                                data.push(x);
                            }
                        }
                    }
                }
                let mut shape = first.shape().to_vec();
                shape[*dim] = len;
                self.counters.reads += data.len() as u64;
                self.counters.writes += data.len() as u64;
                Ok(vec![mk(shape, data, fr)?])
            }
            Exp::Copy(arr) => {
                let a = fr.value(*arr)?.clone();
                self.counters.reads += a.num_elements() as u64;
                self.counters.writes += a.num_elements() as u64;
                Ok(vec![Val::V(a)])
            }
            Exp::Scratch { elem, shape } => {
                let s = fr.shape(shape)?;
                let n = s.iter().product();
                Ok(vec![mk(s, zeros(*elem, n), fr)?])
            }
            Exp::If {
                cond,
                then_body,
                else_body,
            } => {
                let c = fr.scalar(cond)?.as_bool().unwrap_or(false);
                let span = fr.span;
                let out = self.body(fr, if c { then_body } else { else_body })?;
                fr.span = span;
                Ok(out)
            }
            Exp::Loop { params, form, body } => self.loop_exp(fr, params, form, body),
            Exp::Apply { fun, args } => {
                let f = fun_of(self.prog, *fun)?;
                let args = args.iter().map(|a| fr.operand(a)).collect::<R<Vec<_>>>()?;
                let span = fr.span;
                self.call(f, args, span).map_err(|mut e| {
                    if e.span.is_none() {
                        e.span = span;
                    }
                    e
                })
            }
            Exp::Assert { cond, msg, args } => {
                if fr.scalar(cond)?.as_bool() == Some(true) {
                    Ok(vec![])
                } else if args.is_empty() {
                    fr.err(format!("Assertion is false: {msg}"))
                } else {
                    let vals = args.iter().map(|a| fr.scalar(a)).collect::<R<Vec<_>>>()?;
                    fr.err(fill_message(msg, &vals))
                }
            }
            Exp::Screma(s) => self.screma(fr, s),
            Exp::Hist(h) => self.hist(fr, h),
            Exp::Scatter(s) => self.scatter(fr, s),
            Exp::WithAcc(w) => {
                let mut accs = Vec::new();
                for i in &w.inputs {
                    let arr = fr.take_value(i.arr)?;
                    let op = match &i.op {
                        Some((l, ne)) => Some((l.clone(), fr.scalar(ne)?)),
                        None => None,
                    };
                    accs.push(Val::Acc(Box::new(Acc { arr, op })));
                }
                let mut out = self.lambda(fr, &w.lambda, accs)?;
                for v in out.iter_mut().take(w.inputs.len()) {
                    if let Val::Acc(a) = v {
                        *v = Val::V(a.arr.clone());
                    }
                }
                Ok(out)
            }
            Exp::UpdateAcc { acc, idx, value } => {
                let idx = idx
                    .iter()
                    .map(|i| Ok(Dim::Fix(fr.i64(i)?)))
                    .collect::<R<Vec<_>>>()?;
                let Val::V(v) = fr.operand(value)? else {
                    return fr.err("cannot write an accumulator into an accumulator");
                };
                let Val::Acc(mut a) = fr.take(*acc)? else {
                    return fr.err(format!("`{}` is not an accumulator", fr.name(*acc)));
                };
                if let Ok((_, starts, block)) = blocks(a.arr.shape(), &idx) {
                    let start = starts.first().copied().unwrap_or(0);
                    let (shape, mut data) = a.arr.into_parts();
                    for k in 0..block.min(v.num_elements()) {
                        let Some(new) = v.data().get(k) else { break };
                        let x = match &a.op {
                            Some((l, _)) => {
                                let old = data.get(start + k).unwrap_or(new);
                                self.counters.reads += 1;
                                let r = self.lambda(fr, l, vec![sval(old), sval(new)])?;
                                match r.first() {
                                    Some(Val::V(x)) => x.as_scalar().unwrap_or(new),
                                    _ => new,
                                }
                            }
                            None => new,
                        };
                        array::set(&mut data, start + k, x);
                        self.counters.writes += 1;
                    }
                    a.arr = Value::new(shape, data).or_else(|e| fr.err(e.to_string()))?;
                }
                Ok(vec![Val::Acc(a)])
            }
            Exp::Jvp(_) => fr.err("jvp is not expanded: run the AD pass before interpreting"),
            Exp::Vjp(_) => fr.err("vjp is not expanded: run the AD pass before interpreting"),
            Exp::CustomVjp(c) => {
                let args = c
                    .args
                    .iter()
                    .map(|a| fr.operand(a))
                    .collect::<R<Vec<_>>>()?;
                self.lambda(fr, &c.f, args)
            }
        }
    }

    fn loop_exp(
        &mut self,
        fr: &mut Frame<'p>,
        params: &[(Param, Operand)],
        form: &LoopForm,
        body: &Body,
    ) -> R<Vec<Val>> {
        let span = fr.span;
        let vars: Vec<VarId> = params.iter().map(|(p, _)| p.var).collect();
        let mut vals = params
            .iter()
            .map(|(_, init)| fr.operand(init))
            .collect::<R<Vec<_>>>()?;
        match form {
            LoopForm::For { i, bound } => {
                let b = fr.scalar(bound)?;
                let n = b.as_i128().unwrap_or(0);
                let mut k = 0i128;
                while k < n {
                    fr.span = span;
                    fr.bind(&vars, vals)?;
                    fr.bind(&[*i], vec![sval(scalar::wrap(b.prim_type(), k))])?;
                    vals = self.body(fr, body)?;
                    k += 1;
                }
            }
            LoopForm::While { cond } => {
                let pos = vars.iter().position(|v| v == cond);
                loop {
                    let go = match pos.and_then(|p| vals.get(p)) {
                        Some(Val::V(x)) => x.as_scalar().and_then(|c| c.as_bool()),
                        _ => None,
                    };
                    match go {
                        Some(true) => {}
                        Some(false) => break,
                        None => return fr.err("while condition is not a bool loop parameter"),
                    }
                    fr.span = span;
                    fr.bind(&vars, vals)?;
                    vals = self.body(fr, body)?;
                }
            }
        }
        fr.span = span;
        Ok(vals)
    }

    fn width(&self, fr: &Frame, w: &Operand) -> R<usize> {
        let n = fr.i64(w)?;
        usize::try_from(n).or_else(|_| fr.err(format!("Invalid range: negative width {n}")))
    }

    /// The lambda arguments for iteration `i`: rows of the inputs, and
    /// accumulators passed whole (taken from `accs`).
    fn rows(
        &mut self,
        fr: &Frame,
        inputs: &[Val],
        i: usize,
        accs: &mut [Option<Val>],
    ) -> R<Vec<Val>> {
        let mut args = Vec::with_capacity(inputs.len());
        for (k, x) in inputs.iter().enumerate() {
            match x {
                Val::V(a) => match a.row(i) {
                    Some(r) => {
                        self.counters.reads += r.num_elements() as u64;
                        args.push(Val::V(r));
                    }
                    None => {
                        return fr.err(format!(
                            "Index [{i}] out of bounds for array of shape {}.",
                            shape_text(a.shape())
                        ));
                    }
                },
                Val::Acc(_) => match accs.get_mut(k).and_then(Option::take) {
                    Some(acc) => args.push(acc),
                    None => return fr.err("accumulator input was lost"),
                },
            }
        }
        Ok(args)
    }

    fn inputs(&self, fr: &mut Frame, inputs: &[VarId]) -> R<(Vec<Val>, Vec<Option<Val>>)> {
        let mut vals = Vec::new();
        let mut accs = Vec::new();
        for v in inputs {
            let is_acc = matches!(fr.get(*v)?, Val::Acc(_));
            if is_acc {
                let a = fr.take(*v)?;
                vals.push(Val::Acc(Box::new(Acc {
                    arr: Value::scalar(false),
                    op: None,
                })));
                accs.push(Some(a));
            } else {
                vals.push(fr.get(*v)?.clone());
                accs.push(None);
            }
        }
        Ok((vals, accs))
    }

    fn screma(&mut self, fr: &mut Frame<'p>, s: &Screma) -> R<Vec<Val>> {
        let w = self.width(fr, &s.w)?;
        let (inputs, mut accs) = self.inputs(fr, &s.inputs)?;
        let mut scan_state: Vec<Vec<Val>> = Vec::new();
        let mut red_state: Vec<Vec<Val>> = Vec::new();
        for sc in &s.scans {
            scan_state.push(sc.neutral.iter().map(|n| fr.operand(n)).collect::<R<_>>()?);
        }
        for r in &s.reduces {
            red_state.push(r.neutral.iter().map(|n| fr.operand(n)).collect::<R<_>>()?);
        }
        let n_scan: usize = s.scans.iter().map(|x| x.neutral.len()).sum();
        let n_red: usize = s.reduces.iter().map(|x| x.neutral.len()).sum();
        let n_map = s.map.ret.len().saturating_sub(n_scan + n_red);
        let mut scan_out: Vec<Vec<Value>> = vec![Vec::with_capacity(w); n_scan];
        let mut map_out: Vec<Vec<Value>> = vec![Vec::with_capacity(w); n_map];
        let mut acc_out: Vec<Option<Val>> = vec![None; n_map];
        for i in 0..w {
            let mut args = self.rows(fr, &inputs, i, &mut accs)?;
            with_index(&s.map, &inputs, i, &mut args);
            let mut res = self.lambda(fr, &s.map, args)?;
            if res.len() != n_scan + n_red + n_map {
                return fr.err("screma lambda returned the wrong number of values");
            }
            let map_part = res.split_off(n_scan + n_red);
            let red_part = res.split_off(n_scan);
            let scan_part = res;
            let mut off = 0;
            for (k, sc) in s.scans.iter().enumerate() {
                let m = sc.neutral.len();
                let mut args = std::mem::take(&mut scan_state[k]);
                args.extend_from_slice(&scan_part[off..off + m]);
                scan_state[k] = self.lambda(fr, &sc.op, args)?;
                for (j, x) in scan_state[k].iter().enumerate() {
                    if let Val::V(x) = x {
                        scan_out[off + j].push(x.clone());
                    }
                }
                off += m;
            }
            let mut off = 0;
            for (k, r) in s.reduces.iter().enumerate() {
                let m = r.neutral.len();
                let mut args = std::mem::take(&mut red_state[k]);
                args.extend_from_slice(&red_part[off..off + m]);
                red_state[k] = self.lambda(fr, &r.op, args)?;
                off += m;
            }
            let mut next_acc = 0;
            for (j, x) in map_part.into_iter().enumerate() {
                match x {
                    Val::V(x) => map_out[j].push(x),
                    Val::Acc(a) => {
                        // The k-th accumulator result feeds the k-th
                        // accumulator input of the next iteration.
                        while next_acc < accs.len() && !matches!(inputs[next_acc], Val::Acc(_)) {
                            next_acc += 1;
                        }
                        if next_acc < accs.len() {
                            accs[next_acc] = Some(Val::Acc(a.clone()));
                            next_acc += 1;
                        }
                        acc_out[j] = Some(Val::Acc(a));
                    }
                }
            }
        }
        let mut out = Vec::new();
        let ret = &s.map.ret;
        for (j, rows) in scan_out.into_iter().enumerate() {
            let t = &ret[j];
            out.push(self.stacked(fr, t, &rows)?);
        }
        for st in red_state {
            out.extend(st);
        }
        for (j, rows) in map_out.into_iter().enumerate() {
            let t = &ret[n_scan + n_red + j];
            if t.acc {
                let a = match acc_out[j].take() {
                    Some(a) => a,
                    // No iterations: the accumulator passes through.
                    None => match accs.iter_mut().find_map(Option::take) {
                        Some(a) => a,
                        None => return fr.err("accumulator result without an accumulator input"),
                    },
                };
                out.push(a);
            } else {
                out.push(self.stacked(fr, t, &rows)?);
            }
        }
        Ok(out)
    }

    fn stacked(&mut self, fr: &Frame, row_type: &Type, rows: &[Value]) -> R<Val> {
        let row_shape = match rows.first() {
            Some(r) => r.shape().to_vec(),
            None => fr.best_shape(row_type),
        };
        let v = stack(row_type.elem, &row_shape, rows).or_else(|m| fr.err(m))?;
        self.counters.writes += v.num_elements() as u64;
        Ok(Val::V(v))
    }

    fn hist(&mut self, fr: &mut Frame<'p>, h: &Hist) -> R<Vec<Val>> {
        let w = self.width(fr, &h.w)?;
        let (inputs, mut accs) = self.inputs(fr, &h.inputs)?;
        let mut dests: Vec<Vec<(Vec<usize>, Data)>> = Vec::new();
        for op in &h.hists {
            let mut ds = Vec::new();
            for d in &op.dests {
                ds.push(fr.take_value(*d)?.into_parts());
            }
            dests.push(ds);
        }
        for i in 0..w {
            let mut args = self.rows(fr, &inputs, i, &mut accs)?;
            with_index(&h.map, &inputs, i, &mut args);
            let res = self.lambda(fr, &h.map, args)?;
            let mut off = 0;
            for (k, op) in h.hists.iter().enumerate() {
                let m = op.dests.len();
                let Some(Val::V(ix)) = res.get(off) else {
                    return fr.err("hist lambda returned the wrong values");
                };
                let ix = ix.as_scalar().and_then(|x| x.as_i128()).unwrap_or(-1);
                let vals = res.get(off + 1..off + 1 + m).unwrap_or(&[]).to_vec();
                off += 1 + m;
                let bins = dests[k].first().map(|d| d.0[0]).unwrap_or(0);
                if ix < 0 || ix >= bins as i128 {
                    continue;
                }
                let ix = ix as usize;
                let mut olds = Vec::new();
                for (shape, data) in &dests[k] {
                    let row: usize = shape[1..].iter().product();
                    let old = Value::new(
                        shape[1..].to_vec(),
                        data.slice(ix * row, (ix + 1) * row)
                            .unwrap_or(Data::empty(data.prim_type())),
                    )
                    .or_else(|e| fr.err(e.to_string()))?;
                    self.counters.reads += row as u64;
                    olds.push(Val::V(old));
                }
                olds.extend(vals);
                let new = self.lambda(fr, &op.op, olds)?;
                for ((shape, data), x) in dests[k].iter_mut().zip(new) {
                    let row: usize = shape[1..].iter().product();
                    let Val::V(x) = x else {
                        return fr.err("hist operator returned an accumulator");
                    };
                    if x.num_elements() != row || !copy_elems(data, ix * row, x.data(), 0, row) {
                        return fr.err("Size mismatch: hist operator result does not fit a bucket");
                    }
                    self.counters.writes += row as u64;
                }
            }
        }
        let mut out = Vec::new();
        for ds in dests {
            for (shape, data) in ds {
                out.push(mk(shape, data, fr)?);
            }
        }
        Ok(out)
    }

    fn scatter(&mut self, fr: &mut Frame<'p>, s: &Scatter) -> R<Vec<Val>> {
        let w = self.width(fr, &s.w)?;
        let (inputs, mut accs) = self.inputs(fr, &s.inputs)?;
        let mut dests = Vec::new();
        for d in &s.dests {
            dests.push(fr.take_value(d.arr)?.into_parts());
        }
        for i in 0..w {
            let mut args = self.rows(fr, &inputs, i, &mut accs)?;
            with_index(&s.map, &inputs, i, &mut args);
            let res = self.lambda(fr, &s.map, args)?;
            let mut off = 0;
            for (k, d) in s.dests.iter().enumerate() {
                let mut idx = Vec::new();
                for j in 0..d.rank {
                    match res.get(off + j) {
                        Some(Val::V(x)) => idx.push(Dim::Fix(
                            x.as_scalar().and_then(|x| x.as_i128()).unwrap_or(-1) as i64,
                        )),
                        _ => return fr.err("scatter lambda returned the wrong values"),
                    }
                }
                let Some(Val::V(v)) = res.get(off + d.rank) else {
                    return fr.err("scatter lambda returned the wrong values");
                };
                off += d.rank + 1;
                let (shape, data) = &mut dests[k];
                if let Ok((_, starts, block)) = blocks(shape, &idx) {
                    let start = starts.first().copied().unwrap_or(0);
                    if v.num_elements() != block || !copy_elems(data, start, v.data(), 0, block) {
                        return fr
                            .err("Size mismatch: scattered value does not fit its destination");
                    }
                    self.counters.writes += block as u64;
                }
            }
        }
        let mut out = Vec::new();
        for (shape, data) in dests {
            out.push(mk(shape, data, fr)?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
