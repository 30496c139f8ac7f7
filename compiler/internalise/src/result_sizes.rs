//! Result sizes of specialised functions that their calls know.
//!
//! A specialised function returns the dimensions of its results as `i64`
//! values, with `?` in its IR result types (crate doc, "Explicit sizes"),
//! and its caller binds them to fresh variables. Where a dimension of the
//! body's result is a constant, or is one of the function's own `i64`
//! parameters (a dimension of an argument, or an `i64` argument), every
//! call of that specialisation knows it without running the function: the
//! call's value takes the constant, or the operand passed for that
//! parameter, in place of the returned dimension, and so do the types of
//! the variables bound to the results. The returned dimension is still
//! bound, and left for dead-code elimination.
//!
//! This is what keeps sizes through size-polymorphic functions: in
//! `map3 f xs ys zs` with `f` returning `[2][15]f64`, the specialised `f`
//! returns the constants 2 and 15, so the lambda that `map3`'s body maps
//! returns `[2][15]f64` rows and the `map` is `[n][2][15]f64` in the IR
//! rather than `[n][?][?]f64` rows sized by the first one; and `zip3`
//! returning its parameter's size `[n]` lets `map3`'s caller see that its
//! result has the size of the arrays it passed.

use ir::{Operand, Param, PrimType, PrimValue, Size};

use crate::fb::Fb;
use crate::value::V;

/// A dimension of a specialised function's result that every call knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KnownDim {
    /// A constant.
    Const(i64),
    /// The value of the function's parameter at this position (in the
    /// flat list of IR parameters).
    Param(usize),
}

/// For each dimension of `result` (in [`V::dims`] order, the order in
/// which the function returns them), what every call knows of it, given
/// the function's IR parameters.
pub(crate) fn known_dims(result: &V, params: &[Param]) -> Vec<Option<KnownDim>> {
    let mut ds = Vec::new();
    result.dims(&mut ds);
    ds.iter()
        .map(|d| match d {
            Size::Const(c) => Some(KnownDim::Const(*c)),
            Size::Var(v) => params.iter().position(|p| p.var == *v).map(KnownDim::Param),
            Size::Any => None,
        })
        .collect()
}

/// The sizes an argument `a` passes, one per IR value of `a.flat()`: its
/// dimensions, then each leaf that is an `i64` scalar; `None` for the
/// other leaves.
pub(crate) fn arg_sizes(a: &V, fb: &Fb) -> Vec<Option<Size>> {
    let mut ds = Vec::new();
    a.dims(&mut ds);
    let mut out: Vec<Option<Size>> = ds
        .into_iter()
        .map(|d| (!matches!(d, Size::Any)).then_some(d))
        .collect();
    out.extend(a.leaf_list().iter().map(|o| i64_size(o, fb)));
    out
}

/// An `i64` scalar operand as a size.
pub(crate) fn i64_size(o: &Operand, fb: &Fb) -> Option<Size> {
    match o {
        Operand::Const(PrimValue::I64(c)) => Some(Size::Const(*c)),
        Operand::Var(v) => {
            let t = fb.ty(*v);
            (t.shape.is_empty() && t.elem == PrimType::I64 && !t.acc).then_some(Size::Var(*v))
        }
        Operand::Const(_) => None,
    }
}

/// The sizes a call knows of its result's dimensions: `known` resolved
/// against the sizes its arguments pass (`args`, one per IR argument).
pub(crate) fn call_dims(known: &[Option<KnownDim>], args: &[Option<Size>]) -> Vec<Option<Size>> {
    known
        .iter()
        .map(|k| match k {
            Some(KnownDim::Const(c)) => Some(Size::Const(*c)),
            Some(KnownDim::Param(i)) => args.get(*i).copied().flatten(),
            None => None,
        })
        .collect()
}
