//! Internalisation: from the checked, elaborated AST to the core IR.
//!
//! The internaliser is a static partial evaluator with the structure of the
//! reference interpreter (`interp`), producing IR instead of values:
//! module-level declarations are evaluated into environments ([`modules`]),
//! functors are applied by evaluating their bodies, and each entry point is
//! compiled for the concrete types of its parameters. Expressions
//! ([`exprs`]) denote static values ([`value::V`]): trees of IR operands.
//!
//! Invariants of the IR it produces, and the step that establishes each:
//! - **No modules, no polymorphism, no higher-order functions**: modules
//!   exist only as static environments ([`modules`]); every function value
//!   is a statically known closure ([`value::Closure`]), applied by
//!   inlining or by specialisation ([`specialise`]), so IR functions are
//!   first-order and monomorphic.
//! - **Flat values**: records and tuples are split into their components
//!   (record fields in name order), arrays of tuples are tuples of arrays
//!   ([`value`]); every IR value is a scalar or an array of primitives.
//! - **Explicit sizes**: every array dimension is a constant or an `i64`
//!   variable in scope. Values cross function, loop and branch boundaries
//!   as their dimensions followed by their leaves ([`value::V::flat`]):
//!   function results have `?` sizes and the caller binds the dimensions in
//!   the same pattern ([`specialise`], and `if`/`loop` in [`exprs`]). A
//!   result dimension that the specialised function returns as a constant
//!   or as one of its parameters is known at every call: the call's value
//!   and the types of its pattern use that constant or argument instead
//!   (`result_sizes.rs`), so sizes survive size-polymorphic functions.
//!   Likewise an `if` whose branches give a dimension the same constant or
//!   the same variable bound outside it has that size.
//! - **Legal consumption**: an in-place update, a unique argument or a
//!   SOAC destination is always a variable that may be consumed at that
//!   point; otherwise a copy is made first ([`fb`]).
//! - **Spans**: every statement carries the span of the source expression
//!   it came from ([`exprs`]).
//! - **Attributes**: the attributes of a `def` (`#[noinline]`,
//!   `#[inline]`, `#[sequential]`, …) are on every IR function specialised
//!   from it ([`specialise`]); those of an attributed expression `#[attr] e`
//!   are on every statement emitted for `e`, nested bodies included, but not
//!   on the bodies of functions specialised for calls in `e` ([`exprs`]).
//!   Attributes without an IR form are dropped.
//!
//! Entry points: an external parameter or result of array type and rank
//! `r` covers `r + 1` IR values, its dimensions (`i64`) and then the array;
//! a scalar covers one. A parameter that is a tuple or record of such
//! values (its shape read off the types in its pattern) covers each
//! component in turn, record fields in name order. [`expand_args`] and
//! [`collect_results`] convert between the two views. A dimension that
//! an array parameter's type writes as an integer literal is checked on
//! entry and known as that constant from there on (`entry_sizes.rs`).
//!
//! Unsupported constructs give an [`InternaliseError`] "internalisation
//! does not yet support …" with the source span; nothing panics.

mod captures;
mod coerce;
mod cx;
mod entry_sizes;
mod env;
mod error;
pub mod exprs;
mod fb;
mod index;
mod intrinsics;
mod invariant;
pub mod modules;
mod paths;
mod patterns;
mod result_sizes;
mod size_solve;
pub mod specialise;
mod sums;
mod types;
pub mod value;

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use ir::{EntryValue, Function, Operand, Param, PrimType, Size, Type};
use syntax::FileId;
use syntax::ast;

pub use error::InternaliseError;

use crate::cx::{Cx, Loaded};
use crate::env::{Env, Module};
use crate::error::IResult;
use crate::value::{Closure, V};

/// One checked file of the program.
pub struct InputFile<'a> {
    /// The file's id.
    pub id: FileId,
    /// The elaborated tree.
    pub ast: &'a ast::File,
    /// Each import path as written in the file, and the file it names.
    pub imports: HashMap<String, FileId>,
    /// The prelude to open first (`None` for the prelude's own files).
    pub prelude: Option<FileId>,
    /// The source text, for assertion messages.
    pub source: Option<Arc<str>>,
}

/// Internalises a program: `files` in dependency order (the prelude's
/// files first), `root` the file whose `entries` become IR entry points.
pub fn internalise(
    files: &[InputFile<'_>],
    root: FileId,
    entries: &[semantic::EntryPoint],
) -> Result<ir::Program, InternaliseError> {
    let mut cx = Cx::new();
    for f in files {
        cx.imports = f.imports.clone();
        if let Some(s) = &f.source {
            cx.sources.insert(f.id, s.clone());
        }
        for (node, args) in &f.ast.size_args {
            cx.size_args.insert((f.id, *node), Rc::new(args.clone()));
        }
        for (node, t) in &f.ast.empty_array_types {
            cx.empty_array_types.insert((f.id, *node), t.clone());
        }
        let parent = match f.prelude.and_then(|p| cx.files.get(&p)) {
            Some(p) => Env::default().open(p.module.clone()),
            None => Env::default(),
        };
        let mut module = Module::default();
        let env = cx.decs(&f.ast.decs, parent, &mut module)?;
        cx.files.insert(
            f.id,
            Loaded {
                env,
                module: Rc::new(module),
            },
        );
    }
    let root_env = cx
        .files
        .get(&root)
        .map(|f| f.env.clone())
        .ok_or_else(|| InternaliseError {
            message: "internalisation failed: the root file is not loaded".into(),
            span: None,
        })?;
    for e in entries {
        entry_point(&mut cx, &root_env, e)?;
    }
    Ok(cx.prog)
}

fn entry_type_string(t: &semantic::EntryType) -> String {
    match t {
        semantic::EntryType::Array { elem, rank } => format!("{}{}", "[]".repeat(*rank), elem),
        semantic::EntryType::Opaque(s) => s.clone(),
    }
}

fn entry_point(cx: &mut Cx, env: &Env, e: &semantic::EntryPoint) -> IResult<()> {
    let nowhere = || InternaliseError {
        message: format!("internalisation failed: entry point {} not found", e.name),
        span: None,
    };
    let f = env.val(&e.name).ok_or_else(nowhere)?;
    let (def, denv) = match &f {
        V::Fun(c) => match &**c {
            Closure::Def { def, env, .. } => (def.clone(), env.clone()),
            _ => return Err(nowhere()),
        },
        _ => return Err(nowhere()),
    };
    let span = def.body.span;
    cx.fb = fb::Fb::new();
    let mut params: Vec<Param> = Vec::new();
    let mut ext_params = Vec::new();
    let mut args = Vec::new();
    for (k, t) in e.params.iter().enumerate() {
        let semantic::EntryType::Array { elem, rank } = t else {
            // A tuple or record of arrays: its shape is read off the
            // parameter's pattern, and it covers the dimensions and then
            // the leaves of that shape.
            let unique = def.params.get(k).is_some_and(specialise::unique_param);
            if let Some(pat) = def.params.get(k)
                && let Some(shape) = pat_template(cx, pat, &denv)?
                && entry_shape(&shape)
            {
                let mut vars = Vec::new();
                let what = format!("parameter {} of entry point `{}`", k + 1, e.name);
                let v = entry_component(cx, &shape, unique, &what, &mut vars)?;
                params.extend(vars.iter().copied());
                ext_params.push(EntryValue {
                    ty: entry_type_string(t),
                    unique,
                    values: vars.len() as u32,
                });
                args.push(v);
                continue;
            }
            return Err(InternaliseError::unsupported(
                format!(
                    "entry points with parameters of type {}",
                    entry_type_string(t)
                ),
                span,
            ));
        };
        let elem = exprs::prim(*elem);
        let unique = def.params.get(k).is_some_and(specialise::unique_param);
        let dims: Vec<Size> = (0..*rank)
            .map(|_| Size::Var(cx.fb.param("n", Type::scalar(PrimType::I64), false).var))
            .collect();
        for d in &dims {
            if let Size::Var(v) = d {
                params.push(Param::new(*v));
            }
        }
        let p = cx
            .fb
            .param("x", Type::array(elem, dims.clone()), unique && *rank > 0);
        params.push(p);
        ext_params.push(EntryValue {
            ty: entry_type_string(t),
            unique,
            values: (*rank + 1) as u32,
        });
        // Dimensions the parameter's type writes as constants are checked
        // and known from here on (`entry_sizes`).
        let declared = match def.params.get(k) {
            Some(pat) => cx.literal_dims(pat, &denv, *rank),
            None => Vec::new(),
        };
        let what = format!("parameter {} of entry point `{}`", k + 1, e.name);
        let pspan = def.params.get(k).map_or(span, |pat| pat.span);
        let dims = cx.entry_constant_dims(dims, &declared, &what, pspan)?;
        let leaf = V::Leaf(Operand::Var(p.var));
        args.push(if dims.is_empty() {
            leaf
        } else {
            V::Arr(dims, Box::new(leaf))
        });
    }
    let result = if def.params.is_empty() {
        // A point-free entry point: its body is a function value that
        // takes the parameters.
        let body = cx.expr(&def.body, &denv)?;
        cx.apply(body, args, span)?
    } else {
        cx.apply(f.clone(), args, span)?
    };
    let parts = if e.results.len() == 1 {
        vec![result]
    } else {
        match result {
            V::Tuple(vs) if vs.len() == e.results.len() => vs,
            _ => {
                return Err(InternaliseError::unsupported(
                    "this entry point's result type",
                    span,
                ));
            }
        }
    };
    // The declared result types, one per result: sums are widened to all
    // their variants, and a unique (`*`) result is marked so.
    let declared = result_types(def.ret.as_ref(), e.results.len());
    let mut res = Vec::new();
    let mut ret = Vec::new();
    let mut ext_results = Vec::new();
    for (k, (v, t)) in parts.into_iter().zip(&e.results).enumerate() {
        let te = declared.get(k).copied().flatten();
        let v = match te {
            Some(te) if mentions_sum(&v) => cx.widen_to_type(v, te, &denv)?,
            // No return type is written: the sum is widened to the type the
            // checker inferred (its structure, read back as a type).
            None if mentions_sum(&v) => match inferred_type(t, span) {
                Some(te) => cx.widen_to_type(v, &te, &denv)?,
                None => {
                    return Err(InternaliseError::unsupported(
                        format!(
                            "entry points with results of sum type {} whose result type is not written (give the entry point a return type)",
                            entry_type_string(t)
                        ),
                        span,
                    ));
                }
            },
            _ => v,
        };
        // A tuple or record result covers its components in turn (tuples by
        // position, records by field name), each an array's dimensions and
        // then the array, as parameters do; a sum covers its variant's
        // number and then every variant's payload.
        let components = match t {
            semantic::EntryType::Array { .. } => Some(vec![v]),
            semantic::EntryType::Opaque(_) => {
                let mut out = Vec::new();
                result_components(cx, &v, &mut out)?.then_some(out)
            }
        };
        let Some(components) = components else {
            return Err(InternaliseError::unsupported(
                format!("entry points with results of type {}", entry_type_string(t)),
                span,
            ));
        };
        let mut count = 0;
        for c in components {
            let flat = c.flat();
            let last = flat.len() - 1;
            for (k, o) in flat.iter().enumerate() {
                let mut t = cx.fb.op_ty(o);
                if k == last {
                    t.shape = vec![Size::Any; t.shape.len()];
                }
                ret.push(t);
            }
            count += flat.len();
            res.extend(flat);
        }
        if let semantic::EntryType::Array { rank, .. } = t
            && count != rank + 1
        {
            return Err(InternaliseError::unsupported(
                "this entry point's result type",
                span,
            ));
        }
        ext_results.push(EntryValue {
            ty: entry_type_string(t),
            unique: te.is_some_and(|te| matches!(te.kind, ast::TypeExpKind::Unique(_))),
            values: count as u32,
        });
    }
    let body = cx.fb.end(res);
    let name = cx.fun_name(&format!("entry_{}", e.name));
    let fun = cx.prog.functions.push(Function {
        name,
        attrs: Vec::new(),
        params,
        ret,
        body,
        vars: cx.fb.arena(),
    });
    cx.prog.entries.push(ir::EntryPoint {
        name: e.name.clone(),
        fun,
        params: ext_params,
        results: ext_results,
    });
    Ok(())
}

/// The shape of an entry parameter of tuple or record type, from the
/// types ascribed in its pattern; `None` where a part has no type.
fn pat_template(cx: &mut Cx, pat: &ast::Pat, env: &Env) -> IResult<Option<value::T>> {
    use ast::PatKind as P;
    Ok(match &pat.kind {
        P::Ascribed(_, te) => Some(cx.type_template(te, env)?),
        P::Attr(_, p) => pat_template(cx, p, env)?,
        P::Tuple(ps) => {
            let mut ts = Vec::new();
            for p in ps {
                let Some(t) = pat_template(cx, p, env)? else {
                    return Ok(None);
                };
                ts.push(t);
            }
            Some(value::T::Tuple(ts))
        }
        P::Record(fs) => {
            let mut ts = Vec::new();
            for (n, p) in fs {
                let Some(t) = pat_template(cx, p, env)? else {
                    return Ok(None);
                };
                ts.push((n.name.clone(), t));
            }
            ts.sort_by(|a, b| a.0.cmp(&b.0));
            Some(value::T::Record(ts))
        }
        _ => None,
    })
}

/// Parameters for a tuple, record or sum entry parameter of shape `t`:
/// each component as an entry parameter of its own (an array: its
/// dimensions, then the array), in order; a sum's first component is its
/// variant's number among the variants sorted by name.
fn entry_component(
    cx: &mut Cx,
    t: &value::T,
    unique: bool,
    what: &str,
    vars: &mut Vec<Param>,
) -> IResult<V> {
    Ok(match t {
        value::T::Tuple(ts) => V::Tuple(
            ts.iter()
                .map(|t| entry_component(cx, t, unique, what, vars))
                .collect::<IResult<_>>()?,
        ),
        value::T::Record(fs) => V::Record(
            fs.iter()
                .map(|(n, t)| Ok((n.clone(), entry_component(cx, t, unique, what, vars)?)))
                .collect::<IResult<_>>()?,
        ),
        value::T::Sum(cs) => {
            let number = cx.fb.param("variant", Type::scalar(PrimType::I64), false);
            vars.push(number);
            let mut payloads = Vec::new();
            for (n, ts) in cs {
                let p = ts
                    .iter()
                    .map(|t| entry_component(cx, t, unique, what, vars))
                    .collect::<IResult<_>>()?;
                payloads.push((n.clone(), p));
            }
            let positions: Vec<i64> = (0..cs.len() as i64).collect();
            let tags: Vec<i64> = cs.iter().map(|(n, _)| cx.ctor_tag(n)).collect();
            let tag = renumber(cx, Operand::Var(number.var), &positions, &tags)?;
            V::Sum(Box::new(V::Leaf(tag)), payloads)
        }
        t if sum_array(t).is_some() || array_holding_sums(t) => {
            // An array of sums, or of tuples or records holding sums: its
            // variants' numbers (and those of sums in the payloads),
            // arrays, turned into the constructors' tags element by
            // element.
            let v = plain_component(cx, t, unique, what, vars)?;
            let V::Arr(ds, e) = v else {
                return Err(unsupported_here(
                    "entry points with parameters of arrays holding sum types of this shape",
                ));
            };
            let e = renumber_elements(cx, &ds, &e, true)?.ok_or_else(|| {
                unsupported_here("entry points with parameters of arrays of sum types")
            })?;
            V::Arr(ds, Box::new(e))
        }
        t => plain_component(cx, t, unique, what, vars)?,
    })
}

/// The parameters of a component of shape `t` that is not a tuple, record
/// or sum at its top: its dimensions and leaves, each array after its own
/// sizes ([`each_array_with_its_sizes`]).
fn plain_component(
    cx: &mut Cx,
    t: &value::T,
    unique: bool,
    what: &str,
    vars: &mut Vec<Param>,
) -> IResult<V> {
    // The parameters keep their uniqueness (arrays of a unique parameter
    // are consumed).
    let mut made = Vec::new();
    let (v, _) = t.instantiate(&mut cx.fb, "x", &mut |fb, n, ty| {
        let u = unique && !ty.shape.is_empty();
        let p = fb.param(n, ty, u);
        made.push(p);
        p.var
    });
    each_array_with_its_sizes(cx, made, what, vars)?;
    Ok(v)
}

/// Orders the parameters `made` for one value (its dimensions, then its
/// arrays) so that each array comes after its own sizes, as callers pass
/// them: an array of records is one array per field, all of the same
/// outer size, and each field's array gets size parameters of its own,
/// checked at run time to equal the first field's (the message names
/// `what`, the parameter).
fn each_array_with_its_sizes(
    cx: &mut Cx,
    made: Vec<Param>,
    what: &str,
    vars: &mut Vec<Param>,
) -> IResult<()> {
    let is_dim = |p: &Param, made: &[Param], fb: &fb::Fb| {
        made.iter()
            .any(|q| fb.ty(q.var).shape.contains(&Size::Var(p.var)))
    };
    let (dims, leaves): (Vec<Param>, Vec<Param>) =
        made.iter().partition(|p| is_dim(p, &made, &cx.fb));
    let mut placed: Vec<ir::VarId> = Vec::new();
    for leaf in leaves {
        for d in cx.fb.ty(leaf.var).shape {
            let Size::Var(dv) = d else { continue };
            if !placed.contains(&dv) {
                placed.push(dv);
                if let Some(p) = dims.iter().find(|p| p.var == dv) {
                    vars.push(*p);
                }
                continue;
            }
            // A size the array shares with an earlier one.
            let own = cx.fb.param("n", Type::scalar(PrimType::I64), false);
            vars.push(own);
            let cond = cx.fb.scalar(
                "same_size",
                ir::Exp::Cmp(ir::CmpOp::Eq, Operand::Var(own.var), Operand::Var(dv)),
            )?;
            cx.fb.push(
                Vec::new(),
                ir::Exp::Assert {
                    cond,
                    msg: format!(
                        "Size mismatch: the arrays of {what}, an array of records or tuples, differ in their outer sizes."
                    ),
                    args: Vec::new(),
                },
            );
        }
        vars.push(leaf);
    }
    Ok(())
}

/// The arrays of an array whose elements are tuples or records: one per
/// field (nested ones too), each with the outer dimensions and then its
/// own; `None` when an element holds a sum or function.
fn split_array(ds: &[Size], e: &V) -> Option<Vec<V>> {
    Some(match e {
        V::Leaf(_) => vec![V::Arr(ds.to_vec(), Box::new(e.clone()))],
        V::Arr(inner, e) => {
            let mut all = ds.to_vec();
            all.extend(inner.iter().copied());
            split_array(&all, e)?
        }
        V::Tuple(vs) => {
            let mut out = Vec::new();
            for v in vs {
                out.extend(split_array(ds, v)?);
            }
            out
        }
        V::Record(fs) => {
            let mut out = Vec::new();
            for (_, v) in fs {
                out.extend(split_array(ds, v)?);
            }
            out
        }
        V::Fun(_) | V::Sum(..) => return None,
    })
}

/// An unsupported construct at an entry point, where no source span is at hand
/// (the caller's message names the entry point).
fn unsupported_here(what: &str) -> InternaliseError {
    InternaliseError {
        message: format!("internalisation does not yet support {what}"),
        span: None,
    }
}

/// Whether `t` is an array whose elements are tuples or records holding
/// sums (whose tags must be renumbered like an array of sums').
fn array_holding_sums(t: &value::T) -> bool {
    fn holds(t: &value::T) -> bool {
        match t {
            value::T::Sum(_) => true,
            value::T::Tuple(ts) => ts.iter().any(holds),
            value::T::Record(fs) => fs.iter().any(|(_, t)| holds(t)),
            _ => false,
        }
    }
    matches!(t, value::T::Arr(r, e) if *r > 0 && holds(e))
}

/// The variants of `t` when it is an array of a sum type whose payloads are
/// made of primitives, arrays and sums by tuples and records.
fn sum_array(t: &value::T) -> Option<&[(ast::Name, Vec<value::T>)]> {
    fn plain(t: &value::T) -> bool {
        match t {
            value::T::Prim(_) => true,
            value::T::Tuple(ts) => ts.iter().all(plain),
            value::T::Record(fs) => fs.iter().all(|(_, t)| plain(t)),
            value::T::Arr(_, e) => !matches!(**e, value::T::Sum(_)) && plain(e),
            value::T::Sum(cs) => cs.iter().all(|(_, ts)| ts.iter().all(plain)),
            value::T::Fun(_) => false,
        }
    }
    match t {
        value::T::Arr(r, e) if *r > 0 => match &**e {
            value::T::Sum(cs) if cs.iter().all(|(_, ts)| ts.iter().all(plain)) => Some(cs),
            _ => None,
        },
        _ => None,
    }
}

/// The element `e` of an array of outer sizes `ds` with every sum's tags
/// (arrays of those sizes) renumbered: constructors' tags to the variants'
/// numbers, or back when `to_tags`; `None` when a part is no array of
/// these sizes or a sum inside an inner array.
fn renumber_elements(cx: &mut Cx, ds: &[Size], e: &V, to_tags: bool) -> IResult<Option<V>> {
    Ok(Some(match e {
        V::Sum(tag, cs) => {
            let Some(tag) = tag.scalar() else {
                return Ok(None);
            };
            let tags: Vec<i64> = cs.iter().map(|(n, _)| cx.ctor_tag(n)).collect();
            let positions: Vec<i64> = (0..cs.len() as i64).collect();
            let (from, to) = if to_tags {
                (&positions, &tags)
            } else {
                (&tags, &positions)
            };
            let tag = renumber_array(cx, ds, tag, from, to)?;
            let mut payloads = Vec::new();
            for (n, ps) in cs {
                let mut p = Vec::new();
                for v in ps {
                    let Some(v) = renumber_elements(cx, ds, v, to_tags)? else {
                        return Ok(None);
                    };
                    p.push(v);
                }
                payloads.push((n.clone(), p));
            }
            V::Sum(Box::new(V::Leaf(tag)), payloads)
        }
        V::Tuple(vs) => {
            let mut out = Vec::new();
            for v in vs {
                let Some(v) = renumber_elements(cx, ds, v, to_tags)? else {
                    return Ok(None);
                };
                out.push(v);
            }
            V::Tuple(out)
        }
        V::Record(fs) => {
            let mut out = Vec::new();
            for (n, v) in fs {
                let Some(v) = renumber_elements(cx, ds, v, to_tags)? else {
                    return Ok(None);
                };
                out.push((n.clone(), v));
            }
            V::Record(out)
        }
        V::Leaf(_) => e.clone(),
        V::Arr(..) if !mentions_sum(e) => e.clone(),
        V::Arr(..) | V::Fun(_) => return Ok(None),
    }))
}

/// The components of the element `e` (tags already renumbered) of an
/// array of outer sizes `ds`, in order, each as an array with those outer
/// sizes: a sum's numbers, then every variant's payload; `false` when a
/// part is not made of arrays.
fn array_components(ds: &[Size], e: &V, out: &mut Vec<V>) -> bool {
    match e {
        V::Sum(tag, cs) => {
            out.push(V::Arr(ds.to_vec(), tag.clone()));
            cs.iter()
                .flat_map(|(_, ps)| ps)
                .all(|p| array_components(ds, p, out))
        }
        V::Tuple(vs) => vs.iter().all(|v| array_components(ds, v, out)),
        V::Record(fs) => fs.iter().all(|(_, v)| array_components(ds, v, out)),
        _ => match split_array(ds, e) {
            Some(arrays) => {
                out.extend(arrays);
                true
            }
            None => false,
        },
    }
}

/// [`renumber`] applied to every element of the `i64` array `xs` of sizes
/// `ds`, by a map (a map of maps for several dimensions).
fn renumber_array(
    cx: &mut Cx,
    ds: &[Size],
    xs: Operand,
    from: &[i64],
    to: &[i64],
) -> IResult<Operand> {
    let (Operand::Var(xs), Some((&n, inner)), false) = (
        xs,
        ds.split_first(),
        ds.iter().any(|d| matches!(d, Size::Any)),
    ) else {
        return Err(unsupported_here(
            "arrays of sum types of unknown size at entry points",
        ));
    };
    cx.fb.begin_scope();
    let x = cx
        .fb
        .var("variant", Type::array(PrimType::I64, inner.to_vec()));
    let r = if inner.is_empty() {
        renumber(cx, Operand::Var(x), from, to)
    } else {
        renumber_array(cx, inner, Operand::Var(x), from, to)
    };
    let r = match r {
        Ok(r) => r,
        Err(e) => {
            cx.fb.end_scope(Vec::new());
            return Err(e);
        }
    };
    let body = cx.fb.end_scope(vec![r]);
    let map = ir::Lambda {
        params: vec![Param::new(x)],
        ret: vec![Type::array(PrimType::I64, inner.to_vec())],
        body,
    };
    let out = cx
        .fb
        .var("renumbered", Type::array(PrimType::I64, ds.to_vec()));
    cx.fb.push(
        vec![out],
        ir::Exp::Screma(Box::new(ir::Screma {
            w: value::size_operand(n),
            inputs: vec![xs],
            scans: Vec::new(),
            reduces: Vec::new(),
            map,
        })),
    );
    Ok(Operand::Var(out))
}

/// `to[i]` for the `i` with `from[i] == x` (0 when there is none): a sum of
/// `(x == from[i]) * to[i]`, which turns a variant's number into its
/// constructor's tag and back.
fn renumber(cx: &mut Cx, x: Operand, from: &[i64], to: &[i64]) -> IResult<Operand> {
    if let [t] = to {
        return Ok(Operand::i64(*t));
    }
    let mut acc = Operand::i64(0);
    for (f, t) in from.iter().zip(to) {
        let hit = cx.fb.scalar(
            "is_variant",
            ir::Exp::Cmp(ir::CmpOp::Eq, x, Operand::i64(*f)),
        )?;
        let one = cx.fb.scalar(
            "variant_hit",
            ir::Exp::Convert(ir::ConvKind::Convert, PrimType::I64, hit),
        )?;
        let part = cx.fb.scalar(
            "variant_part",
            ir::Exp::BinOp(ir::BinOp::Mul, one, Operand::i64(*t)),
        )?;
        acc = cx
            .fb
            .scalar("variant_sum", ir::Exp::BinOp(ir::BinOp::Add, acc, part))?;
    }
    Ok(acc)
}

/// The components of a tuple, record or sum entry result, in order:
/// scalars and arrays of primitives (a sum's tag turned into its variant's
/// number); `false` when a part is anything else.
fn result_components(cx: &mut Cx, v: &V, out: &mut Vec<V>) -> IResult<bool> {
    match v {
        V::Leaf(_) => out.push(v.clone()),
        V::Arr(_, e) if matches!(**e, V::Leaf(_)) => out.push(v.clone()),
        V::Arr(ds, e) => match (split_array(ds, e), &**e, ds.as_slice()) {
            (Some(arrays), _, _) => out.extend(arrays),
            // An array of sums: the variants' numbers (from the tags,
            // element by element), then every variant's payload arrays.
            (None, _, _) => match renumber_elements(cx, ds, e, false)? {
                Some(e) => return Ok(array_components(ds, &e, out)),
                None => return Ok(false),
            },
        },
        V::Tuple(vs) => {
            for v in vs {
                if !result_components(cx, v, out)? {
                    return Ok(false);
                }
            }
        }
        V::Record(fs) => {
            for (_, v) in fs {
                if !result_components(cx, v, out)? {
                    return Ok(false);
                }
            }
        }
        V::Sum(tag, cs) => {
            let Some(tag) = tag.scalar() else {
                return Ok(false);
            };
            let tags: Vec<i64> = cs.iter().map(|(n, _)| cx.ctor_tag(n)).collect();
            let positions: Vec<i64> = (0..cs.len() as i64).collect();
            let number = if cs.len() == 1 {
                Operand::i64(0)
            } else {
                renumber(cx, tag, &tags, &positions)?
            };
            out.push(V::Leaf(number));
            for (_, ps) in cs {
                for p in ps {
                    if !result_components(cx, p, out)? {
                        return Ok(false);
                    }
                }
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The type expression of an entry result's inferred type, parsed from its
/// structure as the checker writes it (`#a f64 | #b []i32`), with `span` for
/// its nodes; `None` for a transparent type or a text that does not parse.
fn inferred_type(t: &semantic::EntryType, span: syntax::Span) -> Option<ast::TypeExp> {
    let semantic::EntryType::Opaque(text) = t else {
        return None;
    };
    let structure = text.split_once(" = ").map_or(text.as_str(), |(_, s)| s);
    let (file, diags) = syntax::parse_file(span.file, &format!("type t = {structure}\n"));
    if !diags.is_empty() {
        return None;
    }
    match file.decs.into_iter().next().map(|d| d.kind) {
        Some(ast::DecKind::Type(tb)) => {
            let mut def = tb.def;
            def.span = span;
            Some(def)
        }
        _ => None,
    }
}

/// Does the value hold a sum anywhere?
fn mentions_sum(v: &V) -> bool {
    match v {
        V::Sum(..) => true,
        V::Tuple(vs) => vs.iter().any(mentions_sum),
        V::Record(fs) => fs.iter().any(|(_, v)| mentions_sum(v)),
        V::Arr(_, e) => mentions_sum(e),
        _ => false,
    }
}

/// The declared type of each of an entry point's `n` results, from its
/// return type (a tuple type gives one per component when there are
/// several results); `None` where it is not written.
fn result_types(ret: Option<&ast::TypeExp>, n: usize) -> Vec<Option<&ast::TypeExp>> {
    let Some(te) = ret else {
        return vec![None; n];
    };
    if n == 1 {
        return vec![Some(te)];
    }
    let mut inner = te;
    while let ast::TypeExpKind::Existential(_, t) = &inner.kind {
        inner = t;
    }
    match &inner.kind {
        ast::TypeExpKind::Tuple(ts) if ts.len() == n => ts.iter().map(Some).collect(),
        _ => vec![None; n],
    }
}

/// Whether a tuple, record or sum entry parameter of shape `t` can be
/// passed: its parts are arrays of primitives ([`of_arrays`]) or arrays of
/// sums ([`sum_array`]), at any depth of tuples and records.
fn entry_shape(t: &value::T) -> bool {
    match t {
        value::T::Tuple(ts) => ts.iter().all(entry_shape),
        value::T::Record(fs) => fs.iter().all(|(_, t)| entry_shape(t)),
        t => of_arrays(t) || sum_array(t).is_some(),
    }
}

/// Is the shape built from primitives and arrays by tuples and records?
fn of_arrays(t: &value::T) -> bool {
    match t {
        value::T::Prim(_) => true,
        value::T::Tuple(ts) => ts.iter().all(of_arrays),
        value::T::Record(fs) => fs.iter().all(|(_, t)| of_arrays(t)),
        value::T::Arr(_, e) => !matches!(**e, value::T::Sum(_)) && of_arrays(e),
        value::T::Sum(cs) => cs.iter().all(|(_, ts)| ts.iter().all(of_arrays)),
        value::T::Fun(_) => false,
    }
}

/// The IR arguments of an entry point for external argument values: each
/// array's dimensions, then the array.
pub fn expand_args(args: Vec<values::Value>) -> Vec<values::Value> {
    let mut out = Vec::new();
    for a in args {
        for d in a.shape() {
            out.push(values::Value::scalar(*d as i64));
        }
        out.push(a);
    }
    out
}

/// The external results of an entry point from its IR results.
pub fn collect_results(entry: &ir::EntryPoint, results: Vec<values::Value>) -> Vec<values::Value> {
    let mut out = Vec::new();
    let mut it = results.into_iter();
    for r in &entry.results {
        let mut last = None;
        for _ in 0..r.values {
            last = it.next();
        }
        if let Some(v) = last {
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod result_sizes_tests;
#[cfg(test)]
mod tests;
