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
    let arithmetic = matches!(
        op,
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Min | BinOp::Max | BinOp::Pow
    );
    if !a.is_differentiable() || !b.is_differentiable() || (!a.is_float() && !arithmetic) {
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
        BinOp::Div | BinOp::Quot if !a.is_float() => {
            // Integers: d(a/b) = da/b - a·db/b², in integer arithmetic.
            (div(&one, b)?, unop(UnOp::Neg, &div(a, &mul(b, b)?)?)?)
        }
        BinOp::Div | BinOp::Quot => {
            let inv = div(&one, b)?;
            (inv.clone(), unop(UnOp::Neg, &mul(y, &inv)?)?)
        }
        BinOp::Mod | BinOp::Rem => {
            let q = unop(UnOp::Trunc, &div(a, b)?)?;
            (one, unop(UnOp::Neg, &q)?)
        }
        BinOp::Pow if !a.is_float() => {
            // Integers: d/da a^b = b a^(b-1); no derivative with respect to b.
            let bm1 = sub(b, &one)?;
            let da = if bm1.as_i128().is_some_and(|e| e < 0) {
                zero.clone()
            } else {
                mul(b, &binop(BinOp::Pow, a, &bm1)?)?
            };
            (da, zero)
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
    if op.is_piecewise_constant() || (!a.is_float() && !matches!(op, UnOp::Neg | UnOp::Abs)) {
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
            k(
                x,
                if v > 0.0 {
                    1.0
                } else if v < 0.0 {
                    -1.0
                } else {
                    0.0
                },
            )
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
        UnOp::Acos => unop(UnOp::Neg, &recip(&unop(UnOp::Sqrt, &sub(&one, &sq(x)?)?)?)?)?,
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
    // Derivatives survive every numeric conversion (integers carry tangents too, as in
    // Futhark: the derivative of `f64.i32` and of `i32.f64` is 1); a conversion to
    // bool drops them.
    if to == PrimType::Bool || a.prim_type() == PrimType::Bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ad::{self, Tape};

    fn f64_of(s: &Scalar) -> f64 {
        s.as_f64().unwrap_or(f64::NAN)
    }

    /// Forward-mode derivative of `f` at `x` (f64).
    fn fwd(f: &dyn Fn(&Scalar) -> Scalar, x: f64) -> f64 {
        let l = ad::fresh_level();
        let y = f(&ad::dual(l, &Scalar::F64(x), &Scalar::F64(1.0)));
        f64_of(&ad::split_dual(l, &y).1)
    }

    /// Reverse-mode derivative of `f` at `x` (f64).
    fn rev(f: &dyn Fn(&Scalar) -> Scalar, x: f64) -> f64 {
        let l = ad::fresh_level();
        let tape = Rc::new(Tape::default());
        let (xt, i) = ad::tag_input(l, &tape, &Scalar::F64(x));
        let y = f(&xt);
        let n = tape.nodes.borrow().len();
        let mut adj = vec![None; n];
        if let Some(o) = ad::rev_node(l, &y) {
            adj[o] = Some(Scalar::F64(1.0));
        }
        for k in (0..n).rev() {
            let Some(a) = adj[k].clone() else { continue };
            let parents = tape.nodes.borrow()[k].parents.clone();
            for (p, d) in parents {
                let c = convert(&mul(&d, &a).unwrap(), tape.nodes.borrow()[p].ty);
                adj[p] = Some(match &adj[p] {
                    Some(o) => add(o, &c).unwrap(),
                    None => c,
                });
            }
        }
        adj[i.unwrap()].as_ref().map_or(0.0, f64_of)
    }

    fn central(f: &dyn Fn(f64) -> f64, x: f64) -> f64 {
        let h = 1e-6 * (1.0 + x.abs());
        (f(x + h) - f(x - h)) / (2.0 * h)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-5 * (1.0 + a.abs().max(b.abs()))
    }

    #[test]
    fn unary_rules_match_finite_differences() {
        let cases: &[(UnOp, f64)] = &[
            (UnOp::Neg, 0.7),
            (UnOp::Abs, -0.7),
            (UnOp::Sqrt, 2.3),
            (UnOp::Cbrt, 2.3),
            (UnOp::Exp, 0.4),
            (UnOp::Exp2, 0.4),
            (UnOp::Exp10, 0.4),
            (UnOp::Expm1, 0.4),
            (UnOp::Log, 1.7),
            (UnOp::Log2, 1.7),
            (UnOp::Log10, 1.7),
            (UnOp::Log1p, 0.7),
            (UnOp::Sin, 0.9),
            (UnOp::Cos, 0.9),
            (UnOp::Tan, 0.9),
            (UnOp::Asin, 0.3),
            (UnOp::Acos, 0.3),
            (UnOp::Atan, 0.3),
            (UnOp::Sinh, 0.8),
            (UnOp::Cosh, 0.8),
            (UnOp::Tanh, 0.8),
            (UnOp::Asinh, 0.8),
            (UnOp::Acosh, 1.8),
            (UnOp::Atanh, 0.4),
            (UnOp::Erf, 0.6),
            (UnOp::Erfc, 0.6),
            (UnOp::Gamma, 2.6),
            (UnOp::Lgamma, 2.6),
            (UnOp::Polygamma(0), 1.6),
            (UnOp::Polygamma(1), 1.6),
        ];
        for &(op, x) in cases {
            let f = |s: &Scalar| unop(op, s).unwrap();
            let plain = |v: f64| f64_of(&unop(op, &Scalar::F64(v)).unwrap());
            let fd = central(&plain, x);
            assert!(
                close(fwd(&f, x), fd),
                "{op:?} forward: {} vs {fd}",
                fwd(&f, x)
            );
            assert!(
                close(rev(&f, x), fd),
                "{op:?} reverse: {} vs {fd}",
                rev(&f, x)
            );
            // Second derivative: forward over forward against differences of the first.
            let d1 = |v: f64| fwd(&f, v);
            let fd2 = central(&d1, x);
            let d2 = fwd(
                &|s: &Scalar| {
                    let l = ad::fresh_level();
                    let y = f(&ad::dual(l, s, &Scalar::F64(1.0)));
                    ad::split_dual(l, &y).1
                },
                x,
            );
            assert!(close(d2, fd2), "{op:?} second: {d2} vs {fd2}");
        }
    }

    #[test]
    fn binary_rules_match_finite_differences() {
        let cases: &[(BinOp, f64, f64)] = &[
            (BinOp::Add, 1.3, 0.4),
            (BinOp::Sub, 1.3, 0.4),
            (BinOp::Mul, 1.3, 0.4),
            (BinOp::Div, 1.3, 0.4),
            (BinOp::Pow, 1.3, 2.4),
            (BinOp::Mod, 1.3, 0.4),
            (BinOp::Min, 1.3, 0.4),
            (BinOp::Max, 1.3, 0.4),
            (BinOp::Atan2, 1.3, -0.4),
            (BinOp::Hypot, 1.3, -0.4),
        ];
        for &(op, a, b) in cases {
            let plain =
                |x: f64, y: f64| f64_of(&binop(op, &Scalar::F64(x), &Scalar::F64(y)).unwrap());
            let fa = |s: &Scalar| binop(op, s, &Scalar::F64(b)).unwrap();
            let fb = |s: &Scalar| binop(op, &Scalar::F64(a), s).unwrap();
            let fda = central(&|x| plain(x, b), a);
            let fdb = central(&|y| plain(a, y), b);
            assert!(close(fwd(&fa, a), fda), "{op:?} d/da");
            assert!(close(fwd(&fb, b), fdb), "{op:?} d/db");
            assert!(close(rev(&fa, a), fda), "{op:?} rev d/da");
            assert!(close(rev(&fb, b), fdb), "{op:?} rev d/db");
        }
        // Both operands tagged at once: d/dx (x * x) = 2x.
        let sq = |s: &Scalar| mul(s, s).unwrap();
        assert!(close(fwd(&sq, 3.0), 6.0));
        assert!(close(rev(&sq, 3.0), 6.0));
        let fm = |s: &Scalar| fma(s, s, s).unwrap();
        assert!(close(rev(&fm, 2.0), 5.0));
    }

    #[test]
    fn conversions_carry_derivatives_between_float_types() {
        let f = |s: &Scalar| {
            let t = convert(s, PrimType::F32);
            let u = mul(&t, &t).unwrap();
            convert(&u, PrimType::F64)
        };
        assert!(close(fwd(&f, 1.5), 3.0));
        assert!(close(rev(&f, 1.5), 3.0));
        // Between floats and integers too, as in Futhark; to bool they are dropped.
        let l = ad::fresh_level();
        let x = ad::dual(l, &Scalar::F64(2.7), &Scalar::F64(1.0));
        let (p, t) = ad::split_dual(l, &convert(&x, PrimType::I32));
        assert!(matches!((p, t), (Scalar::I32(2), Scalar::I32(1))));
        assert!(matches!(convert(&x, PrimType::Bool), Scalar::Bool(true)));
    }

    #[test]
    fn integers_differentiate_with_integer_arithmetic() {
        let l = ad::fresh_level();
        let x = ad::dual(l, &Scalar::I32(7), &Scalar::I32(1));
        let y = add(&mul(&x, &x).unwrap(), &Scalar::I32(3)).unwrap();
        assert!(matches!(ad::split_dual(l, &y).1, Scalar::I32(14)));
        let z = binop(BinOp::BitAnd, &x, &Scalar::I32(3)).unwrap();
        assert!(matches!(z, Scalar::I32(3)));
        let w = convert(&x, PrimType::I64);
        assert!(matches!(ad::split_dual(l, &w).1, Scalar::I64(1)));
        let f = convert(&x, PrimType::F64);
        assert!(matches!(ad::split_dual(l, &f).1, Scalar::F64(t) if t == 1.0));
    }

    #[test]
    fn nested_levels_do_not_confuse_perturbations() {
        // d/dx (x * d/dy (x * y)) at y = 1 is d/dx (x * x) = 2x.
        let outer = |x: &Scalar| {
            let inner = |y: &Scalar| mul(x, y).unwrap();
            let l = ad::fresh_level();
            let r = inner(&ad::dual(l, &Scalar::F64(1.0), &Scalar::F64(1.0)));
            mul(x, &ad::split_dual(l, &r).1).unwrap()
        };
        assert!(close(fwd(&outer, 3.0), 6.0));
        assert!(close(rev(&outer, 3.0), 6.0));
    }
}
