//! AD-aware scalar operations: every operator and math function, lifted over
//! derivative tags with its derivative rule.
//!
//! An operation on tagged operands computes the result on the primals (recursively,
//! so lower levels are handled by the same code), then the local partial derivatives
//! as scalar expressions of the primals, and combines them: in forward mode the
//! tangent is `Σ ∂f/∂xᵢ · ẋᵢ`, in reverse mode a tape node records the partials.

use std::rc::Rc;

use syntax::ast::PrimType;

use crate::ad::{AdNum, Node, Tangent, level_of};
use crate::scalar::{BinOp, Scalar, UnOp, binop_plain, convert_plain, unop_plain};

/// A float constant of the same type as `like`.
fn k(like: &Scalar, x: f64) -> Scalar {
    Scalar::from_f64(like.prim_type(), x)
}

/// `a + b`.
pub fn add(a: &Scalar, b: &Scalar) -> Result<Scalar, String> {
    binop(BinOp::Add, a, b)
}

/// `a - b`.
pub fn sub(a: &Scalar, b: &Scalar) -> Result<Scalar, String> {
    binop(BinOp::Sub, a, b)
}

/// `a * b`.
pub fn mul(a: &Scalar, b: &Scalar) -> Result<Scalar, String> {
    binop(BinOp::Mul, a, b)
}

/// `a / b`.
pub fn div(a: &Scalar, b: &Scalar) -> Result<Scalar, String> {
    binop(BinOp::Div, a, b)
}

/// Builds the tagged result at `level` from the primal result and, for each tagged
/// operand at that level, the partial derivative with respect to it.
fn lift(level: u32, primal: Scalar, parts: &[(&AdNum, Scalar)]) -> Result<Scalar, String> {
    let Some((first, _)) = parts.first() else {
        return Ok(primal);
    };
    let tan = match &first.tan {
        Tangent::Fwd(_) => {
            let mut acc: Option<Scalar> = None;
            for (a, d) in parts {
                if let Tangent::Fwd(t) = &a.tan {
                    let term = mul(d, t)?;
                    acc = Some(match acc {
                        Some(x) => add(&x, &term)?,
                        None => term,
                    });
                }
            }
            Tangent::Fwd(acc.unwrap_or_else(|| Scalar::zero(primal.prim_type())))
        }
        Tangent::Rev(tape, _) => {
            let parents = parts
                .iter()
                .filter_map(|(a, d)| match &a.tan {
                    Tangent::Rev(_, i) => Some((*i, d.clone())),
                    Tangent::Fwd(_) => None,
                })
                .collect();
            let idx = tape.push(Node {
                parents,
                ty: primal.prim_type(),
                custom: None,
            });
            Tangent::Rev(tape.clone(), idx)
        }
    };
    Ok(Scalar::Ad(Rc::new(AdNum { level, primal, tan })))
}

/// A binary operator on possibly tagged scalars.
pub fn binop(op: BinOp, a: &Scalar, b: &Scalar) -> Result<Scalar, String> {
    let (la, lb) = (level_of(a), level_of(b));
    if la == 0 && lb == 0 {
        return binop_plain(op, a, b);
    }
    if op.is_predicate() {
        return binop_plain(op, &a.strip(), &b.strip());
    }
    if !a.is_float() || !b.is_float() {
        return binop_plain(op, &a.strip(), &b.strip());
    }
    let level = la.max(lb);
    let an = match a {
        Scalar::Ad(x) if x.level == level => Some(x.as_ref()),
        _ => None,
    };
    let bn = match b {
        Scalar::Ad(x) if x.level == level => Some(x.as_ref()),
        _ => None,
    };
    let pa = an.map_or(a, |x| &x.primal);
    let pb = bn.map_or(b, |x| &x.primal);
    let y = binop(op, pa, pb)?;
    let (da, db) = bin_partials(op, pa, pb, &y)?;
    let mut parts = Vec::with_capacity(2);
    if let Some(x) = an {
        parts.push((x, da));
    }
    if let Some(x) = bn {
        parts.push((x, db));
    }
    lift(level, y, &parts)
}

/// Partial derivatives of `y = a op b` with respect to `a` and `b`.
fn bin_partials(op: BinOp, a: &Scalar, b: &Scalar, y: &Scalar) -> Result<(Scalar, Scalar), String> {
    let one = k(a, 1.0);
    let zero = k(a, 0.0);
    Ok(match op {
        BinOp::Add => (one.clone(), one),
        BinOp::Sub => (one.clone(), k(a, -1.0)),
        BinOp::Mul => (b.clone(), a.clone()),
        BinOp::Div | BinOp::Quot => {
            let inv = div(&one, b)?;
            (inv.clone(), unop(UnOp::Neg, &mul(y, &inv)?)?)
        }
        BinOp::Mod | BinOp::Rem => {
            let q = unop(UnOp::Trunc, &div(a, b)?)?;
            (one, unop(UnOp::Neg, &q)?)
        }
        BinOp::Pow => {
            // d/da a^b = b a^(b-1); d/db a^b = a^b ln a (taken as 0 where a <= 0).
            let da = if b.strip().as_f64() == Some(0.0) {
                zero.clone()
            } else {
                mul(b, &binop(BinOp::Pow, a, &sub(b, &one)?)?)?
            };
            let db = if a.as_f64().is_some_and(|x| x > 0.0) {
                mul(y, &unop(UnOp::Log, a)?)?
            } else {
                zero
            };
            (da, db)
        }
        BinOp::Min | BinOp::Max => {
            let pick_a = match op {
                BinOp::Min => a.as_f64() <= b.as_f64() || b.as_f64().is_some_and(f64::is_nan),
                _ => a.as_f64() >= b.as_f64() || b.as_f64().is_some_and(f64::is_nan),
            };
            if pick_a { (one, zero) } else { (zero, one) }
        }
        BinOp::Atan2 => {
            // atan2(a, b): ∂a = b/(a²+b²), ∂b = -a/(a²+b²).
            let r2 = add(&mul(a, a)?, &mul(b, b)?)?;
            (div(b, &r2)?, unop(UnOp::Neg, &div(a, &r2)?)?)
        }
        BinOp::Hypot => (div(a, y)?, div(b, y)?),
        BinOp::CopySign => {
            let same = (a.as_f64().unwrap_or(0.0) < 0.0) == (b.as_f64().unwrap_or(0.0) < 0.0);
            (if same { one } else { k(a, -1.0) }, zero)
        }
        BinOp::NextAfter => (one, zero),
        _ => (zero.clone(), zero),
    })
}

/// A unary operator or math function on a possibly tagged scalar.
pub fn unop(op: UnOp, a: &Scalar) -> Result<Scalar, String> {
    let Scalar::Ad(x) = a else {
        return unop_plain(op, a);
    };
    if op.is_piecewise_constant() {
        return unop_plain(op, &a.strip());
    }
    let p = &x.primal;
    let y = unop(op, p)?;
    let d = un_partial(op, p, &y)?;
    lift(x.level, y, &[(x.as_ref(), d)])
}

/// The derivative of `y = op(x)` with respect to `x`.
fn un_partial(op: UnOp, x: &Scalar, y: &Scalar) -> Result<Scalar, String> {
    let one = k(x, 1.0);
    let sq = |s: &Scalar| mul(s, s);
    let recip = |s: &Scalar| div(&one, s);
    Ok(match op {
        UnOp::Neg => k(x, -1.0),
        UnOp::Abs => {
            let v = x.as_f64().unwrap_or(0.0);
            k(x, if v > 0.0 { 1.0 } else if v < 0.0 { -1.0 } else { 0.0 })
        }
        UnOp::Sqrt => recip(&mul(&k(x, 2.0), y)?)?,
        UnOp::Cbrt => recip(&mul(&k(x, 3.0), &sq(y)?)?)?,
        UnOp::Exp => y.clone(),
        UnOp::Exp2 => mul(y, &k(x, std::f64::consts::LN_2))?,
        UnOp::Exp10 => mul(y, &k(x, std::f64::consts::LN_10))?,
        UnOp::Expm1 => add(y, &one)?,
        UnOp::Log => recip(x)?,
        UnOp::Log2 => recip(&mul(x, &k(x, std::f64::consts::LN_2))?)?,
        UnOp::Log10 => recip(&mul(x, &k(x, std::f64::consts::LN_10))?)?,
        UnOp::Log1p => recip(&add(x, &one)?)?,
        UnOp::Sin => unop(UnOp::Cos, x)?,
        UnOp::Cos => unop(UnOp::Neg, &unop(UnOp::Sin, x)?)?,
        UnOp::Tan => add(&one, &sq(y)?)?,
        UnOp::Asin => recip(&unop(UnOp::Sqrt, &sub(&one, &sq(x)?)?)?)?,
        UnOp::Acos => unop(
            UnOp::Neg,
            &recip(&unop(UnOp::Sqrt, &sub(&one, &sq(x)?)?)?)?,
        )?,
        UnOp::Atan => recip(&add(&one, &sq(x)?)?)?,
        UnOp::Sinh => unop(UnOp::Cosh, x)?,
        UnOp::Cosh => unop(UnOp::Sinh, x)?,
        UnOp::Tanh => sub(&one, &sq(y)?)?,
        UnOp::Asinh => recip(&unop(UnOp::Sqrt, &add(&sq(x)?, &one)?)?)?,
        UnOp::Acosh => recip(&unop(UnOp::Sqrt, &sub(&sq(x)?, &one)?)?)?,
        UnOp::Atanh => recip(&sub(&one, &sq(x)?)?)?,
        UnOp::Erf | UnOp::Erfc => {
            let c = 2.0 / std::f64::consts::PI.sqrt();
            let c = if op == UnOp::Erf { c } else { -c };
            mul(&k(x, c), &unop(UnOp::Exp, &unop(UnOp::Neg, &sq(x)?)?)?)?
        }
        UnOp::Gamma => mul(y, &unop(UnOp::Polygamma(0), x)?)?,
        UnOp::Lgamma => unop(UnOp::Polygamma(0), x)?,
        UnOp::Polygamma(n) => unop(UnOp::Polygamma(n.saturating_add(1)), x)?,
        _ => k(x, 0.0),
    })
}

/// Fused multiply-add `a * b + c` (exact derivatives through the composition).
pub fn fma(a: &Scalar, b: &Scalar, c: &Scalar) -> Result<Scalar, String> {
    if level_of(a) == 0 && level_of(b) == 0 && level_of(c) == 0 {
        return Ok(match (a, b, c) {
            (Scalar::F64(x), Scalar::F64(y), Scalar::F64(z)) => Scalar::F64(x.mul_add(*y, *z)),
            (Scalar::F32(x), Scalar::F32(y), Scalar::F32(z)) => Scalar::F32(x.mul_add(*y, *z)),
            _ => add(&mul(a, b)?, c)?,
        });
    }
    add(&mul(a, b)?, c)
}

/// Converts a possibly tagged scalar to type `to`. Float-to-float conversions keep
/// derivatives (converted to the new type); anything else drops them.
pub fn convert(a: &Scalar, to: PrimType) -> Scalar {
    let Scalar::Ad(x) = a else {
        return convert_plain(a, to);
    };
    if !to.is_float() {
        return convert_plain(a, to);
    }
    if to == a.prim_type() {
        return a.clone();
    }
    let primal = convert(&x.primal, to);
    let tan = match &x.tan {
        Tangent::Fwd(t) => Tangent::Fwd(convert(t, to)),
        Tangent::Rev(tape, i) => {
            let idx = tape.push(Node {
                parents: vec![(*i, Scalar::from_f64(to, 1.0))],
                ty: to,
                custom: None,
            });
            Tangent::Rev(tape.clone(), idx)
        }
    };
    Scalar::Ad(Rc::new(AdNum {
        level: x.level,
        primal,
        tan,
    }))
}
