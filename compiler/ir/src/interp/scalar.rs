//! Futhark's scalar semantics.
//!
//! Integers wrap on overflow. `div` and `mod` round towards negative
//! infinity (the remainder has the sign of the divisor), `quot` and `rem`
//! towards zero; all four fail on a zero divisor. Integer `pow` fails on a
//! negative exponent. A shift by a negative amount or by at least the bit
//! width gives 0 (or -1 for an arithmetic right shift of a negative
//! number). Float operations are IEEE; `mod` and `rem` on floats are
//! `fmod`. Float to integer conversion truncates towards zero and
//! saturates, NaN giving 0.

use values::{PrimType, PrimValue, f16};

use crate::syntax::{BinOp, CmpOp, ConvKind, MathFn, UnOp};

fn bits(t: PrimType) -> u32 {
    (t.byte_size() * 8) as u32
}

/// The zero of a type (`false` for `bool`).
pub fn zero(t: PrimType) -> PrimValue {
    if t.is_integer() {
        wrap(t, 0)
    } else if t.is_float() {
        float(t, 0.0)
    } else {
        PrimValue::Bool(false)
    }
}

/// `x` modulo 2^bits as a value of the integer type `t`.
pub fn wrap(t: PrimType, x: i128) -> PrimValue {
    let b = bits(t);
    let m = x & ((1i128 << b) - 1);
    let v = if t.is_signed_integer() && m >= (1i128 << (b - 1)) {
        m - (1i128 << b)
    } else {
        m
    };
    PrimValue::int_of_type(t, v).unwrap_or(PrimValue::Bool(false))
}

fn float(t: PrimType, x: f64) -> PrimValue {
    PrimValue::float_of_type(t, x).unwrap_or(PrimValue::Bool(false))
}

fn int(x: PrimValue) -> i128 {
    x.as_i128().unwrap_or(0)
}

fn flt(x: PrimValue) -> f64 {
    x.as_f64().unwrap_or(0.0)
}

/// A unary operator.
pub fn unop(op: UnOp, x: PrimValue) -> PrimValue {
    let t = x.prim_type();
    if let Some(b) = x.as_bool() {
        return PrimValue::Bool(if op == UnOp::Not { !b } else { b });
    }
    if t.is_integer() {
        let i = int(x);
        wrap(
            t,
            match op {
                UnOp::Neg => -i,
                UnOp::Not => !i,
                UnOp::Abs => i.abs(),
                UnOp::Signum => i.signum(),
            },
        )
    } else {
        let f = flt(x);
        float(
            t,
            match op {
                UnOp::Neg => -f,
                UnOp::Not => f,
                UnOp::Abs => f.abs(),
                UnOp::Signum => {
                    if f > 0.0 {
                        1.0
                    } else if f < 0.0 {
                        -1.0
                    } else {
                        f
                    }
                }
            },
        )
    }
}

/// A binary operator; `Err` carries the run-time error message.
pub fn binop(op: BinOp, x: PrimValue, y: PrimValue) -> Result<PrimValue, String> {
    let t = x.prim_type();
    if let (Some(a), Some(b)) = (x.as_bool(), y.as_bool()) {
        return Ok(PrimValue::Bool(match op {
            BinOp::And => a && b,
            BinOp::Or => a || b,
            BinOp::Xor => a != b,
            BinOp::Min => a && b,
            BinOp::Max => a || b,
            _ => return Err(format!("`{}` is not defined on bool", op.name())),
        }));
    }
    if t.is_integer() {
        let (a, b) = (int(x), int(y));
        let w = bits(t);
        let mask = (1i128 << w) - 1;
        let zero_div = || Err("Division by zero".to_string());
        let r = match op {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem if b == 0 => return zero_div(),
            BinOp::Div => {
                let q = a / b;
                if a % b != 0 && ((a < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                }
            }
            BinOp::Mod => {
                let r = a % b;
                if r != 0 && ((r < 0) != (b < 0)) {
                    r + b
                } else {
                    r
                }
            }
            BinOp::Quot => a / b,
            BinOp::Rem => a % b,
            BinOp::Pow => {
                if b < 0 {
                    return Err("Negative exponent in integer power".into());
                }
                let (mut base, mut e, mut acc) = (a & mask, b, 1i128);
                while e > 0 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(base) & mask;
                    }
                    base = base.wrapping_mul(base) & mask;
                    e >>= 1;
                }
                acc
            }
            BinOp::Min => a.min(b),
            BinOp::Max => a.max(b),
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Shl => {
                if b < 0 || b >= i128::from(w) {
                    0
                } else {
                    (a & mask) << b
                }
            }
            BinOp::Shr if t.is_signed_integer() => {
                if b < 0 || b >= i128::from(w) {
                    if a < 0 { -1 } else { 0 }
                } else {
                    a >> b
                }
            }
            BinOp::Shr | BinOp::UShr => {
                if b < 0 || b >= i128::from(w) {
                    0
                } else {
                    (a & mask) >> b
                }
            }
        };
        return Ok(wrap(t, r));
    }
    let (a, b) = (flt(x), flt(y));
    let r = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        BinOp::Mod | BinOp::Rem => a % b,
        BinOp::Pow => a.powf(b),
        BinOp::Min => a.min(b),
        BinOp::Max => a.max(b),
        _ => return Err(format!("`{}` is not defined on {t}", op.name())),
    };
    Ok(float(t, r))
}

/// A comparison.
pub fn cmp(op: CmpOp, x: PrimValue, y: PrimValue) -> bool {
    use std::cmp::Ordering;
    let ord = if let (Some(a), Some(b)) = (x.as_bool(), y.as_bool()) {
        Some(a.cmp(&b))
    } else if let (Some(a), Some(b)) = (x.as_i128(), y.as_i128()) {
        Some(a.cmp(&b))
    } else {
        flt(x).partial_cmp(&flt(y))
    };
    match (op, ord) {
        (CmpOp::Ne, None) => true,
        (_, None) => false,
        (CmpOp::Eq, Some(o)) => o == Ordering::Equal,
        (CmpOp::Ne, Some(o)) => o != Ordering::Equal,
        (CmpOp::Lt, Some(o)) => o == Ordering::Less,
        (CmpOp::Le, Some(o)) => o != Ordering::Greater,
        (CmpOp::Gt, Some(o)) => o == Ordering::Greater,
        (CmpOp::Ge, Some(o)) => o != Ordering::Less,
    }
}

fn to_bits(x: PrimValue) -> u64 {
    match x {
        PrimValue::F16(f) => u64::from(f.to_bits()),
        PrimValue::F32(f) => u64::from(f.to_bits()),
        PrimValue::F64(f) => f.to_bits(),
        PrimValue::Bool(b) => u64::from(b),
        _ => (int(x) & i128::from(u64::MAX)) as u64,
    }
}

fn from_bits(t: PrimType, b: u64) -> PrimValue {
    match t {
        PrimType::F16 => PrimValue::F16(f16::from_bits(b as u16)),
        PrimType::F32 => PrimValue::F32(f32::from_bits(b as u32)),
        PrimType::F64 => PrimValue::F64(f64::from_bits(b)),
        PrimType::Bool => PrimValue::Bool(b != 0),
        _ => wrap(t, i128::from(b)),
    }
}

/// A conversion to `to`.
pub fn convert(kind: ConvKind, to: PrimType, x: PrimValue) -> PrimValue {
    if kind == ConvKind::Bitcast {
        return from_bits(to, to_bits(x));
    }
    let from = x.prim_type();
    if to == PrimType::Bool {
        return PrimValue::Bool(match x {
            PrimValue::Bool(b) => b,
            _ if from.is_integer() => int(x) != 0,
            _ => flt(x) != 0.0,
        });
    }
    if to.is_integer() {
        let i = match x {
            PrimValue::Bool(b) => i128::from(b),
            _ if from.is_integer() => int(x),
            _ => {
                let f = flt(x);
                if !f.is_finite() {
                    // NaN and the infinities give 0; finite values saturate.
                    0
                } else {
                    let (lo, hi) = to.integer_range().unwrap_or((0, 0));
                    (f.trunc() as i128).clamp(lo, hi)
                }
            }
        };
        return wrap(to, i);
    }
    match x {
        PrimValue::Bool(b) => float(to, if b { 1.0 } else { 0.0 }),
        _ if from.is_integer() => {
            let i = int(x);
            if to == PrimType::F32 {
                PrimValue::F32(i as f32)
            } else {
                float(to, i as f64)
            }
        }
        _ => float(to, flt(x)),
    }
}

/// A math function.
pub fn math(f: MathFn, args: &[PrimValue]) -> PrimValue {
    let Some(&x) = args.first() else {
        return PrimValue::Bool(false);
    };
    let t = x.prim_type();
    let arg = |i: usize| args.get(i).copied().unwrap_or(x);
    if t.is_integer() {
        let w = bits(t);
        let m = (int(x) & ((1i128 << w) - 1)) as u128;
        let i32v = |n: u32| PrimValue::I32(n as i32);
        return match f {
            MathFn::Popc => i32v(m.count_ones()),
            MathFn::Clz => i32v(m.leading_zeros() - (128 - w)),
            MathFn::Ctz => i32v(if m == 0 { w } else { m.trailing_zeros() }),
            MathFn::MulHi => {
                let y = arg(1);
                if t.is_signed_integer() {
                    wrap(t, (int(x) * int(y)) >> w)
                } else {
                    let my = (int(y) & ((1i128 << w) - 1)) as u128;
                    wrap(t, ((m * my) >> w) as i128)
                }
            }
            _ => x,
        };
    }
    let a = flt(x);
    let b = flt(arg(1));
    let c = flt(arg(2));
    let r = match f {
        MathFn::Sqrt => a.sqrt(),
        MathFn::Cbrt => a.cbrt(),
        MathFn::Exp => a.exp(),
        MathFn::Expm1 => a.exp_m1(),
        MathFn::Log => a.ln(),
        MathFn::Log2 => a.log2(),
        MathFn::Log10 => a.log10(),
        MathFn::Log1p => a.ln_1p(),
        MathFn::Sin => a.sin(),
        MathFn::Cos => a.cos(),
        MathFn::Tan => a.tan(),
        MathFn::Asin => a.asin(),
        MathFn::Acos => a.acos(),
        MathFn::Atan => a.atan(),
        MathFn::Sinh => a.sinh(),
        MathFn::Cosh => a.cosh(),
        MathFn::Tanh => a.tanh(),
        MathFn::Asinh => a.asinh(),
        MathFn::Acosh => a.acosh(),
        MathFn::Atanh => a.atanh(),
        MathFn::Atan2 => a.atan2(b),
        MathFn::Hypot => a.hypot(b),
        MathFn::Erf => libm::erf(a),
        MathFn::Erfc => libm::erfc(a),
        MathFn::Lgamma => libm::lgamma(a),
        MathFn::Gamma => libm::tgamma(a),
        MathFn::Fma => {
            if t == PrimType::F32 {
                f64::from((a as f32).mul_add(b as f32, c as f32))
            } else {
                a.mul_add(b, c)
            }
        }
        MathFn::Mad => a * b + c,
        MathFn::Floor => a.floor(),
        MathFn::Ceil => a.ceil(),
        MathFn::Round => a.round_ties_even(),
        MathFn::Trunc => a.trunc(),
        MathFn::IsNan => return PrimValue::Bool(a.is_nan()),
        MathFn::IsInf => return PrimValue::Bool(a.is_infinite()),
        MathFn::CopySign => a.copysign(b),
        MathFn::Popc | MathFn::Clz | MathFn::Ctz | MathFn::MulHi => a,
    };
    float(t, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(op: BinOp, x: impl Into<PrimValue>, y: impl Into<PrimValue>) -> PrimValue {
        binop(op, x.into(), y.into()).unwrap()
    }

    #[test]
    fn integer_division_rounds_like_futhark() {
        assert_eq!(bin(BinOp::Div, -7i32, 2i32), PrimValue::I32(-4));
        assert_eq!(bin(BinOp::Mod, -7i32, 2i32), PrimValue::I32(1));
        assert_eq!(bin(BinOp::Mod, 7i32, -2i32), PrimValue::I32(-1));
        assert_eq!(bin(BinOp::Quot, -7i32, 2i32), PrimValue::I32(-3));
        assert_eq!(bin(BinOp::Rem, -7i32, 2i32), PrimValue::I32(-1));
        assert_eq!(bin(BinOp::Div, i32::MIN, -1i32), PrimValue::I32(i32::MIN));
        assert_eq!(bin(BinOp::Div, 7u8, 2u8), PrimValue::U8(3));
        assert_eq!(
            binop(BinOp::Div, 1i64.into(), 0i64.into()),
            Err("Division by zero".into())
        );
    }

    #[test]
    fn wrapping_and_shifts() {
        assert_eq!(bin(BinOp::Add, 127i8, 1i8), PrimValue::I8(-128));
        assert_eq!(
            bin(BinOp::Mul, u64::MAX, 2u64),
            PrimValue::U64(u64::MAX - 1)
        );
        assert_eq!(bin(BinOp::Sub, 0u32, 1u32), PrimValue::U32(u32::MAX));
        assert_eq!(bin(BinOp::Shl, 1i32, 31i32), PrimValue::I32(i32::MIN));
        assert_eq!(bin(BinOp::Shl, 1i32, 32i32), PrimValue::I32(0));
        assert_eq!(bin(BinOp::Shr, -8i32, 1i32), PrimValue::I32(-4));
        assert_eq!(bin(BinOp::UShr, -8i32, 28i32), PrimValue::I32(15));
        assert_eq!(bin(BinOp::Shr, 0x80u8, 7u8), PrimValue::U8(1));
        assert_eq!(bin(BinOp::Pow, 3i32, 4i32), PrimValue::I32(81));
        assert_eq!(bin(BinOp::Pow, 2i8, 8i8), PrimValue::I8(0));
        assert_eq!(unop(UnOp::Neg, i64::MIN.into()), PrimValue::I64(i64::MIN));
        assert_eq!(unop(UnOp::Not, 0u8.into()), PrimValue::U8(255));
    }

    #[test]
    fn conversions_and_math() {
        assert_eq!(
            convert(ConvKind::Convert, PrimType::I8, 300i32.into()),
            PrimValue::I8(44)
        );
        assert_eq!(
            convert(ConvKind::Convert, PrimType::I32, (-2.7f64).into()),
            PrimValue::I32(-2)
        );
        assert_eq!(
            convert(ConvKind::Convert, PrimType::U8, f64::NAN.into()),
            PrimValue::U8(0)
        );
        assert_eq!(
            convert(ConvKind::Convert, PrimType::F32, true.into()),
            PrimValue::F32(1.0)
        );
        assert_eq!(
            convert(ConvKind::Convert, PrimType::U32, (-1i8).into()),
            PrimValue::U32(u32::MAX)
        );
        assert_eq!(
            convert(ConvKind::Bitcast, PrimType::U64, 1.0f64.into()),
            PrimValue::U64(0x3ff0_0000_0000_0000)
        );
        assert_eq!(math(MathFn::Clz, &[1i32.into()]), PrimValue::I32(31));
        assert_eq!(math(MathFn::Ctz, &[0u16.into()]), PrimValue::I32(16));
        assert_eq!(math(MathFn::Popc, &[(-1i64).into()]), PrimValue::I32(64));
        assert_eq!(
            math(MathFn::MulHi, &[u64::MAX.into(), 2u64.into()]),
            PrimValue::U64(1)
        );
        assert_eq!(
            math(MathFn::Atan2, &[1.0f64.into(), 1.0f64.into()]),
            PrimValue::F64(std::f64::consts::FRAC_PI_4)
        );
        assert_eq!(math(MathFn::Round, &[2.5f64.into()]), PrimValue::F64(2.0));
        assert!((flt(math(MathFn::Erf, &[1.0f64.into()])) - 0.842_700_792_949_715).abs() < 1e-12);
        assert!((flt(math(MathFn::Lgamma, &[5.0f64.into()])) - 24f64.ln()).abs() < 1e-12);
        assert!(cmp(CmpOp::Ne, f64::NAN.into(), f64::NAN.into()));
        assert!(!cmp(CmpOp::Eq, f64::NAN.into(), f64::NAN.into()));
        assert!(cmp(CmpOp::Lt, false.into(), true.into()));
    }
}
