//! Natively implemented prelude functions (`__intrinsic "NAME"`), as listed in
//! `prelude/INTRINSICS.md`: the SOACs, array construction and rearrangement, AD,
//! and per-type conversions and math functions.

use std::rc::Rc;

use syntax::Span;
use syntax::ast::PrimType;

use crate::error::{R, at, rt_err};
use crate::eval::Interp;
use crate::ops;
use crate::scalar::{BinOp, Scalar, UnOp};
use crate::slicing::show_shape;
use crate::value::{Array, Closure, Kernel, Value};

/// The polymorphic intrinsics and their arities.
const POLYMORPHIC: [(&str, usize); 20] = [
    ("map", 2),
    ("reduce", 3),
    ("reduce_comm", 3),
    ("scan", 3),
    ("reduce_by_index", 5),
    ("scatter", 3),
    ("iota", 1),
    ("replicate", 2),
    ("copy", 1),
    ("concat", 2),
    ("flatten", 1),
    ("unflatten", 3),
    ("transpose", 1),
    ("zip", 2),
    ("unzip", 1),
    ("jvp2", 3),
    ("vjp2", 3),
    ("jmp2", 3),
    ("mjp2", 3),
    ("with_vjp", 3),
];

fn float_unop(name: &str) -> Option<UnOp> {
    Some(match name {
        "sqrt" => UnOp::Sqrt,
        "cbrt" => UnOp::Cbrt,
        "exp" => UnOp::Exp,
        "log" => UnOp::Log,
        "log2" => UnOp::Log2,
        "log10" => UnOp::Log10,
        "log1p" => UnOp::Log1p,
        "sin" => UnOp::Sin,
        "cos" => UnOp::Cos,
        "tan" => UnOp::Tan,
        "asin" => UnOp::Asin,
        "acos" => UnOp::Acos,
        "atan" => UnOp::Atan,
        "sinh" => UnOp::Sinh,
        "cosh" => UnOp::Cosh,
        "tanh" => UnOp::Tanh,
        "asinh" => UnOp::Asinh,
        "acosh" => UnOp::Acosh,
        "atanh" => UnOp::Atanh,
        "gamma" => UnOp::Gamma,
        "lgamma" => UnOp::Lgamma,
        "erf" => UnOp::Erf,
        "erfc" => UnOp::Erfc,
        "floor" => UnOp::Floor,
        "ceil" => UnOp::Ceil,
        "round" => UnOp::Round,
        _ => return None,
    })
}

/// The number of value parameters a per-type intrinsic takes, if `name` is one.
fn per_type_arity(name: &str) -> Option<usize> {
    let (t, f) = name.split_once('.')?;
    let t = PrimType::from_name(t)?;
    if let Some(from) = PrimType::from_name(f) {
        return (from != t).then_some(1);
    }
    if t.is_integral() {
        return match f {
            "popc" | "clz" | "ctz" => Some(1),
            "mul_hi" => Some(2),
            _ => None,
        };
    }
    match (t, f) {
        (PrimType::F16 | PrimType::F32 | PrimType::F64, "to_bits" | "from_bits") => Some(1),
        (PrimType::F32 | PrimType::F64, _) => {
            if float_unop(f).is_some() {
                Some(1)
            } else {
                match f {
                    "atan2" | "hypot" | "ldexp" => Some(2),
                    "fma" => Some(3),
                    _ => None,
                }
            }
        }
        _ => None,
    }
}

/// The arity of intrinsic `name`, if the interpreter implements it.
pub fn intrinsic_arity(name: &str) -> Option<usize> {
    POLYMORPHIC
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, a)| *a)
        .or_else(|| per_type_arity(name))
}

/// Is `name` implemented, taking `arity` value parameters?
pub fn intrinsic_arity_ok(name: &str, arity: usize) -> bool {
    intrinsic_arity(name) == Some(arity)
}

fn arr(v: &Value, span: Span) -> R<&Array> {
    v.as_array()
        .ok_or_else(|| rt_err("expected an array", span))
}

fn int_arg(v: &Value, span: Span) -> R<i64> {
    v.as_scalar()
        .and_then(|s| s.as_i128())
        .map(|x| x as i64)
        .ok_or_else(|| rt_err("expected an integer", span))
}

fn scalar(v: &Value, span: Span) -> R<&Scalar> {
    v.as_scalar()
        .ok_or_else(|| rt_err("expected a primitive value", span))
}

/// An empty vector with room for `n` elements, or an error when that much memory
/// cannot be had.
fn alloc(n: usize, span: Span) -> R<Vec<Value>> {
    let mut v = Vec::new();
    if n > u32::MAX as usize || v.try_reserve_exact(n).is_err() {
        return Err(rt_err(
            format!("Out of memory: cannot allocate an array of {n} elements."),
            span,
        ));
    }
    Ok(v)
}

fn row_shape(a: &Array) -> Vec<usize> {
    a.example().map(|e| e.shape()).unwrap_or_default()
}

impl Interp {
    /// Runs intrinsic `name` on its value parameters.
    pub fn call_intrinsic(&mut self, name: &str, args: Vec<Value>, span: Span) -> R<Value> {
        let mut args = args.into_iter();
        let mut next = || args.next().unwrap_or_else(Value::unit);
        match name {
            "map" => {
                let f = next();
                let xs = next();
                self.map(f, &xs, span)
            }
            "reduce" | "reduce_comm" => {
                let (op, ne, xs) = (next(), next(), next());
                let a = arr(&xs, span)?;
                if let Some(bop) = self.scalar_binop(&op)
                    && let Value::Scalar(ne) = &ne
                    && matches!(a.elems.first(), Some(Value::Scalar(_)))
                {
                    let mut acc = ne.clone();
                    for x in a.elems.iter() {
                        acc = at(ops::binop(bop, &acc, scalar(x, span)?), span)?;
                    }
                    return Ok(Value::Scalar(acc));
                }
                let mut acc = ne;
                for x in a.elems.iter() {
                    acc = self.apply(op.clone(), vec![acc, x.clone()], span)?;
                }
                Ok(acc)
            }
            "scan" => {
                let (op, ne, xs) = (next(), next(), next());
                let a = arr(&xs, span)?;
                if let Some(bop) = self.scalar_binop(&op)
                    && let Value::Scalar(ne) = &ne
                    && matches!(a.elems.first(), Some(Value::Scalar(_)))
                {
                    let mut acc = ne.clone();
                    let mut out = alloc(a.len(), span)?;
                    for x in a.elems.iter() {
                        acc = at(ops::binop(bop, &acc, scalar(x, span)?), span)?;
                        out.push(Value::Scalar(acc.clone()));
                    }
                    return Ok(Value::array(out, a.proto_rc()));
                }
                let mut acc = ne;
                let mut out = Vec::with_capacity(a.len());
                for x in a.elems.iter() {
                    acc = self.apply(op.clone(), vec![acc, x.clone()], span)?;
                    out.push(acc.clone());
                }
                Ok(Value::array(out, a.proto_rc()))
            }
            "reduce_by_index" => {
                let (dest, f, _ne, is, vs) = (next(), next(), next(), next(), next());
                self.indexed_updates("reduce_by_index", dest, &is, &vs, span, |it, old, v| {
                    it.apply(f.clone(), vec![old, v], span)
                })
            }
            "scatter" => {
                let (dest, is, vs) = (next(), next(), next());
                self.indexed_updates("scatter", dest, &is, &vs, span, |_, _, v| Ok(v))
            }
            "iota" => {
                let nv = next();
                let n = int_arg(&nv, span)?;
                if n < 0 {
                    return Err(rt_err(
                        format!("Invalid range: iota of negative size {n}."),
                        span,
                    ));
                }
                let mut out = alloc(n as usize, span)?;
                match nv.as_scalar() {
                    Some(s @ Scalar::Ad(_)) => {
                        out.extend((0..n).map(|i| Value::Scalar(crate::ad::iota_elem(s, i))))
                    }
                    _ => out.extend((0..n).map(Value::i64)),
                }
                Ok(Value::array(out, Some(Rc::new(Value::i64(0)))))
            }
            "replicate" => {
                let n = int_arg(&next(), span)?;
                let x = next();
                if n < 0 {
                    return Err(rt_err(
                        format!("Invalid range: replicate of negative size {n}."),
                        span,
                    ));
                }
                let mut out = alloc(n as usize, span)?;
                out.resize(n as usize, x.clone());
                Ok(Value::array(out, Some(Rc::new(x))))
            }
            "copy" => Ok(next()),
            "concat" => {
                let (xs, ys) = (next(), next());
                let (a, b) = (arr(&xs, span)?, arr(&ys, span)?);
                if !a.is_empty() && !b.is_empty() && row_shape(a) != row_shape(b) {
                    return Err(rt_err(
                        format!(
                            "Size mismatch: concatenating arrays with rows of shape {} and {}.",
                            show_shape(&row_shape(a)),
                            show_shape(&row_shape(b))
                        ),
                        span,
                    ));
                }
                let mut out = Vec::with_capacity(a.len() + b.len());
                out.extend(a.elems.iter().cloned());
                out.extend(b.elems.iter().cloned());
                Ok(Value::array(out, a.proto_rc().or_else(|| b.proto_rc())))
            }
            "flatten" => {
                let xs = next();
                let a = arr(&xs, span)?;
                let mut out = Vec::new();
                for row in a.elems.iter() {
                    out.extend(arr(row, span)?.elems.iter().cloned());
                }
                let proto = a
                    .example()
                    .and_then(|r| r.as_array().and_then(|r| r.proto_rc()));
                Ok(Value::array(out, proto))
            }
            "unflatten" => {
                let (n, m, xs) = (int_arg(&next(), span)?, int_arg(&next(), span)?, next());
                let a = arr(&xs, span)?;
                if n < 0 || m < 0 || (n as i128) * (m as i128) != a.len() as i128 {
                    return Err(rt_err(
                        format!(
                            "Invalid reshape: cannot unflatten an array of shape [{}] to [{n}][{m}].",
                            a.len()
                        ),
                        span,
                    ));
                }
                let proto = a.proto_rc();
                let rows = (0..n as usize)
                    .map(|i| {
                        let row: Vec<Value> =
                            a.elems[i * m as usize..(i + 1) * m as usize].to_vec();
                        Value::array(row, proto.clone())
                    })
                    .collect();
                let row_proto = Value::array(
                    match a.example() {
                        Some(e) => vec![e; m as usize],
                        None => Vec::new(),
                    },
                    proto.clone(),
                );
                Ok(Value::array(rows, Some(Rc::new(row_proto))))
            }
            "transpose" => {
                let xs = next();
                transpose(&xs, span)
            }
            "zip" => {
                let (xs, ys) = (next(), next());
                let (a, b) = (arr(&xs, span)?, arr(&ys, span)?);
                if a.len() != b.len() {
                    return Err(rt_err(
                        format!(
                            "Size mismatch: zip of arrays of sizes {} and {}.",
                            a.len(),
                            b.len()
                        ),
                        span,
                    ));
                }
                let out = a
                    .elems
                    .iter()
                    .zip(b.elems.iter())
                    .map(|(x, y)| Value::Tuple(Rc::from([x.clone(), y.clone()])))
                    .collect();
                let proto = match (a.example(), b.example()) {
                    (Some(x), Some(y)) => {
                        Some(Rc::new(Value::Tuple(crate::value::tup(vec![x, y]))))
                    }
                    _ => None,
                };
                Ok(Value::array(out, proto))
            }
            "unzip" => {
                let xys = next();
                let a = arr(&xys, span)?;
                let mut xs = Vec::with_capacity(a.len());
                let mut ys = Vec::with_capacity(a.len());
                for e in a.elems.iter() {
                    match e {
                        Value::Tuple(p) if p.len() == 2 => {
                            xs.push(p[0].clone());
                            ys.push(p[1].clone());
                        }
                        _ => return Err(rt_err("unzip of an array of non-pairs", span)),
                    }
                }
                let (px, py) = match a.example() {
                    Some(Value::Tuple(p)) if p.len() == 2 => {
                        (Some(Rc::new(p[0].clone())), Some(Rc::new(p[1].clone())))
                    }
                    _ => (None, None),
                };
                Ok(Value::Tuple(crate::value::tup(vec![
                    Value::array(xs, px),
                    Value::array(ys, py),
                ])))
            }
            "jvp2" => {
                let (f, x, dx) = (next(), next(), next());
                self.jvp2(f, &x, &dx, span)
            }
            "vjp2" => {
                let (f, x, dy) = (next(), next(), next());
                self.vjp2(f, &x, &dy, span)
            }
            "jmp2" | "mjp2" => {
                let (f, x, ds) = (next(), next(), next());
                self.many(name == "jmp2", f, &x, &ds, span)
            }
            "with_vjp" => {
                let (f, df, x) = (next(), next(), next());
                self.with_vjp(f, df, x, span)
            }
            _ => {
                let a = next();
                let b = next();
                let c = next();
                per_type(name, &a, &b, &c, span)
            }
        }
    }

    /// The builtin operator a function value computes on two scalars, if it is one:
    /// an operator section such as `(+)`, or a function whose body is just that
    /// operator applied to its two parameters (like the prelude's `f64.+`).
    pub fn scalar_binop(&self, f: &Value) -> Option<BinOp> {
        let Value::Fun(c) = f else {
            return None;
        };
        match &**c {
            Closure::Op { op, args } if args.is_empty() => Some(*op),
            Closure::User {
                def,
                env,
                args,
                sizes,
            } if args.is_empty() && sizes.is_empty() => match &def.kernel {
                Kernel::BinOp(name, op) if env.val(name).is_none() => Some(*op),
                _ => None,
            },
            _ => None,
        }
    }

    /// `map` with a function that spreads a tuple over the arguments of another
    /// (the lambda of `map2`, `map3`, …): applies that function directly, and when it
    /// is a builtin operator on scalars, computes it without any call. `None` when
    /// `f` is not of that shape.
    fn map_spread(&mut self, f: &Value, a: &Array, span: Span) -> R<Option<Vec<Value>>> {
        let Value::Fun(c) = f else {
            return Ok(None);
        };
        let Closure::User {
            def,
            env,
            args,
            sizes,
        } = &**c
        else {
            return Ok(None);
        };
        let Kernel::Spread(g, n) = &def.kernel else {
            return Ok(None);
        };
        if !args.is_empty() || !sizes.is_empty() {
            return Ok(None);
        }
        let Some(g) = env.val(g) else {
            return Ok(None);
        };
        let op = if *n == 2 { self.scalar_binop(&g) } else { None };
        let mut out = alloc(a.len(), span)?;
        for x in a.elems.iter() {
            let Value::Tuple(parts) = x else {
                return Ok(None);
            };
            if parts.len() != *n {
                return Ok(None);
            }
            if let (Some(op), Value::Scalar(l), Value::Scalar(r)) = (op, &parts[0], &parts[1]) {
                out.push(Value::Scalar(at(ops::binop(op, l, r), span)?));
            } else {
                out.push(self.apply(g.clone(), parts.to_vec(), span)?);
            }
        }
        Ok(Some(out))
    }

    /// `map f (zip xs ys)` without building the pairs, when `f` spreads a pair over
    /// the arguments of another function (the lambda of `map2`) and both arrays are
    /// non-empty and of equal length. `None` otherwise: the caller then zips and maps
    /// as usual, which also reports any error.
    pub fn map_zip2(&mut self, f: &Value, xs: &Value, ys: &Value, span: Span) -> R<Option<Value>> {
        let (Value::Array(a), Value::Array(b)) = (xs, ys) else {
            return Ok(None);
        };
        if a.is_empty() || a.len() != b.len() {
            return Ok(None);
        }
        let Value::Fun(c) = f else {
            return Ok(None);
        };
        let Closure::User {
            def,
            env,
            args,
            sizes,
        } = &**c
        else {
            return Ok(None);
        };
        let Kernel::Spread(g, 2) = &def.kernel else {
            return Ok(None);
        };
        if !args.is_empty() || !sizes.is_empty() {
            return Ok(None);
        }
        let Some(g) = env.val(g) else {
            return Ok(None);
        };
        let op = self.scalar_binop(&g);
        let mut out = alloc(a.len(), span)?;
        for (x, y) in a.elems.iter().zip(b.elems.iter()) {
            if let (Some(op), Value::Scalar(l), Value::Scalar(r)) = (op, x, y) {
                out.push(Value::Scalar(at(ops::binop(op, l, r), span)?));
            } else {
                out.push(self.apply(g.clone(), vec![x.clone(), y.clone()], span)?);
            }
        }
        Ok(Some(Value::array(out, None)))
    }

    /// `dest` with each value of `vs` combined by `combine` (given the old
    /// element and the value) into the element of `dest` at the matching
    /// index of `is`; indices out of bounds are skipped. `what` names the
    /// operation in the size error.
    fn indexed_updates(
        &mut self,
        what: &str,
        dest: Value,
        is: &Value,
        vs: &Value,
        span: Span,
        mut combine: impl FnMut(&mut Self, Value, Value) -> R<Value>,
    ) -> R<Value> {
        let Value::Array(mut d) = dest else {
            return Err(rt_err("expected an array", span));
        };
        let (ia, va) = (arr(is, span)?, arr(vs, span)?);
        if ia.len() != va.len() {
            return Err(rt_err(
                format!(
                    "Size mismatch: {what} with {} indices and {} values.",
                    ia.len(),
                    va.len()
                ),
                span,
            ));
        }
        let elems = Rc::make_mut(&mut d.elems);
        for (i, v) in ia.elems.iter().zip(va.elems.iter()) {
            let i = int_arg(i, span)?;
            if i >= 0 && (i as usize) < elems.len() {
                let old = std::mem::replace(&mut elems[i as usize], Value::unit());
                elems[i as usize] = combine(self, old, v.clone())?;
            }
        }
        Ok(Value::Array(d))
    }

    fn map(&mut self, f: Value, xs: &Value, span: Span) -> R<Value> {
        let a = arr(xs, span)?;
        let spread = if a.is_empty() {
            None
        } else {
            self.map_spread(&f, a, span)?
        };
        let out = match spread {
            Some(out) => out,
            None => {
                let mut out = alloc(a.len(), span)?;
                for x in a.elems.iter() {
                    out.push(self.apply(f.clone(), vec![x.clone()], span)?);
                }
                out
            }
        };
        // The shape of an empty result comes from applying `f` to an example
        // element, when one is known and `f` succeeds on it.
        let proto = match (&a.proto, out.is_empty()) {
            (Some(p), true) => self.apply(f, vec![(**p).clone()], span).ok().map(Rc::new),
            _ => None,
        };
        Ok(Value::array(out, proto))
    }
}

fn transpose(xs: &Value, span: Span) -> R<Value> {
    let a = arr(xs, span)?;
    let n = a.len();
    let rows: Vec<&Array> = a
        .elems
        .iter()
        .map(|r| arr(r, span))
        .collect::<R<Vec<_>>>()?;
    let example_row = a.example();
    let example_row = match &example_row {
        Some(r) => arr(r, span)?.clone(),
        None => return Err(rt_err("transpose of an array of unknown shape", span)),
    };
    let m = example_row.len();
    if rows.iter().any(|r| r.len() != m) {
        return Err(rt_err(
            "Size mismatch: transpose of an irregular array.",
            span,
        ));
    }
    let inner = example_row.proto_rc();
    let out: Vec<Value> = (0..m)
        .map(|j| {
            Value::array(
                rows.iter().map(|r| r.elems[j].clone()).collect(),
                inner.clone(),
            )
        })
        .collect();
    let proto = Value::array(
        match example_row.example() {
            Some(e) => vec![e; n],
            None => Vec::new(),
        },
        inner,
    );
    Ok(Value::array(out, Some(Rc::new(proto))))
}

/// A bit cast (`to_bits`/`from_bits`). Under forward-mode AD it is treated as a
/// linear map, as Futhark does: the tangent is cast the same way as the value. In
/// reverse mode the cast drops the derivative.
fn bitcast(x: &Scalar, cast: &dyn Fn(&Scalar) -> Option<Scalar>) -> Option<Scalar> {
    match x {
        Scalar::Ad(a) => match &a.tan {
            crate::ad::Tangent::Fwd(t) => Some(Scalar::Ad(Rc::new(crate::ad::AdNum {
                level: a.level,
                primal: bitcast(&a.primal, cast)?,
                tan: crate::ad::Tangent::Fwd(bitcast(t, cast)?),
            }))),
            crate::ad::Tangent::Rev(..) => bitcast(&a.primal, cast),
        },
        x => cast(x),
    }
}

/// The per-type intrinsics `"<type>.<fn>"`.
fn per_type(name: &str, a: &Value, b: &Value, c: &Value, span: Span) -> R<Value> {
    let unknown = || rt_err(format!("unknown intrinsic \"{name}\""), span);
    let (t, f) = name.split_once('.').ok_or_else(unknown)?;
    let t = PrimType::from_name(t).ok_or_else(unknown)?;
    let x = scalar(a, span)?;
    if PrimType::from_name(f).is_some() {
        return Ok(Value::Scalar(ops::convert(x, t)));
    }
    if let Some(op) = float_unop(f) {
        return at(ops::unop(op, x), span).map(Value::Scalar);
    }
    let r = match f {
        "popc" => ops::unop(UnOp::Popc, x),
        "clz" => ops::unop(UnOp::Clz, x),
        "ctz" => ops::unop(UnOp::Ctz, x),
        "mul_hi" => ops::binop(BinOp::MulHi, x, scalar(b, span)?),
        "atan2" => ops::binop(BinOp::Atan2, x, scalar(b, span)?),
        "hypot" => ops::binop(BinOp::Hypot, x, scalar(b, span)?),
        "fma" => ops::fma(x, scalar(b, span)?, scalar(c, span)?),
        "ldexp" => {
            let k = scalar(b, span)?.as_i128().unwrap_or(0);
            if matches!(x, Scalar::Ad(_)) {
                let f = Scalar::from_f64(t, 2f64.powi(k.clamp(-2000, 2000) as i32));
                ops::mul(x, &f)
            } else {
                let v = x.as_f64().unwrap_or(0.0);
                let k = k.clamp(i32::MIN as i128, i32::MAX as i128) as i32;
                Ok(match t {
                    PrimType::F32 => Scalar::F32(libm::ldexpf(v as f32, k)),
                    _ => Scalar::F64(libm::ldexp(v, k)),
                })
            }
        }
        "to_bits" => match bitcast(x, &|x| match x {
            Scalar::F16(h) => Some(Scalar::U16(h.to_bits())),
            Scalar::F32(v) => Some(Scalar::U32(v.to_bits())),
            Scalar::F64(v) => Some(Scalar::U64(v.to_bits())),
            _ => None,
        }) {
            Some(v) => Ok(v),
            None => return Err(unknown()),
        },
        "from_bits" => match bitcast(x, &|x| match (t, x) {
            (PrimType::F16, Scalar::U16(v)) => Some(Scalar::F16(half::f16::from_bits(*v))),
            (PrimType::F32, Scalar::U32(v)) => Some(Scalar::F32(f32::from_bits(*v))),
            (PrimType::F64, Scalar::U64(v)) => Some(Scalar::F64(f64::from_bits(*v))),
            _ => None,
        }) {
            Some(v) => Ok(v),
            None => return Err(unknown()),
        },
        _ => return Err(unknown()),
    };
    at(r, span).map(Value::Scalar)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn prelude_files() -> Vec<(String, String)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prelude");
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("prelude directory") {
            let path = entry.expect("directory entry").path();
            if path.extension().is_some_and(|e| e == "fut") {
                let text = std::fs::read_to_string(&path).expect("readable prelude file");
                out.push((path.display().to_string(), text));
            }
        }
        out
    }

    #[test]
    fn every_prelude_intrinsic_is_implemented() {
        let mut names = Vec::new();
        for (_, text) in prelude_files() {
            let mut rest = text.as_str();
            while let Some(i) = rest.find("__intrinsic \"") {
                rest = &rest[i + "__intrinsic \"".len()..];
                if let Some(end) = rest.find('"') {
                    names.push(rest[..end].to_string());
                }
            }
        }
        assert!(
            names.len() > 200,
            "found only {} intrinsic uses",
            names.len()
        );
        let missing: Vec<&String> = names
            .iter()
            .filter(|n| intrinsic_arity(n).is_none())
            .collect();
        assert!(missing.is_empty(), "not implemented: {missing:?}");
    }

    #[test]
    fn intrinsic_definitions_have_the_expected_arity() {
        let mut checked = 0;
        for (k, (path, text)) in prelude_files().into_iter().enumerate() {
            let (file, _) = syntax::parse_file(syntax::FileId(k as u32), &text);
            let mut decs: Vec<&syntax::ast::Dec> = file.decs.iter().collect();
            while let Some(d) = decs.pop() {
                match &d.kind {
                    syntax::ast::DecKind::Val(vb) => {
                        if let Some(name) = crate::eval::intrinsic_name(&vb.body) {
                            assert!(
                                intrinsic_arity_ok(&name, vb.params.len()),
                                "{path}: {name} with {} parameters",
                                vb.params.len()
                            );
                            checked += 1;
                        }
                    }
                    syntax::ast::DecKind::Local(inner) => decs.push(inner),
                    syntax::ast::DecKind::Mod(mb) => {
                        if let syntax::ast::ModExpKind::Struct(ds) = &mb.body.kind {
                            decs.extend(ds.iter());
                        }
                    }
                    _ => {}
                }
            }
        }
        assert!(checked > 200, "checked only {checked} definitions");
    }

    #[test]
    fn unknown_names_are_rejected() {
        assert_eq!(intrinsic_arity("map"), Some(2));
        assert_eq!(intrinsic_arity("f64.i32"), Some(1));
        assert_eq!(intrinsic_arity("f64.f64"), None);
        assert_eq!(intrinsic_arity("f16.sqrt"), None);
        assert_eq!(intrinsic_arity("i32.sqrt"), None);
        assert_eq!(intrinsic_arity("nosuch"), None);
    }

    #[test]
    fn conversions_follow_the_documented_table() {
        let span = Span::default();
        let conv = |name: &str, x: Scalar| match per_type(
            name,
            &Value::Scalar(x),
            &Value::unit(),
            &Value::unit(),
            span,
        ) {
            Ok(Value::Scalar(s)) => s,
            _ => panic!("{name} failed"),
        };
        assert!(matches!(conv("u8.i8", Scalar::I8(-1)), Scalar::U8(255)));
        assert!(matches!(conv("i8.u8", Scalar::U8(200)), Scalar::I8(-56)));
        assert!(matches!(
            conv("i64.u32", Scalar::U32(u32::MAX)),
            Scalar::I64(4294967295)
        ));
        assert!(matches!(conv("u8.f64", Scalar::F64(-1.5)), Scalar::U8(255)));
        assert!(matches!(conv("i8.f64", Scalar::F64(300.0)), Scalar::I8(44)));
        assert!(matches!(
            conv("u64.i16", Scalar::I16(-32768)),
            Scalar::U64(32768)
        ));
        assert!(matches!(
            conv("i32.f32", Scalar::F32(f32::INFINITY)),
            Scalar::I32(0)
        ));
        assert!(matches!(
            conv("bool.f64", Scalar::F64(-0.0)),
            Scalar::Bool(false)
        ));
        assert!(matches!(
            conv("f32.bool", Scalar::Bool(true)),
            Scalar::F32(1.0)
        ));
        assert!(matches!(
            conv("f64.to_bits", Scalar::F64(1.0)),
            Scalar::U64(0x3ff0_0000_0000_0000)
        ));
        assert!(matches!(
            conv("f32.from_bits", Scalar::U32(0x4000_0000)),
            Scalar::F32(2.0)
        ));
        assert!(matches!(conv("i32.clz", Scalar::I32(1)), Scalar::I32(31)));
    }
}
