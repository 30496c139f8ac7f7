//! Futhark's scalar semantics on [`PrimValue`]s.
//!
//! The semantics (wrapping, rounding of division and modulo, shifts,
//! conversions, float functions) are those of [`values::scalar`], shared
//! with the reference interpreter; this module maps the IR's operators onto
//! them and gives run-time errors their messages.

use values::scalar::{self as sem, ArithError, FloatBinOp, FloatFn, IntBinOp, IntUnOp};
use values::{PrimType, PrimValue, f16};

use crate::syntax::{BinOp, CmpOp, ConvKind, MathFn, UnOp};

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
    PrimValue::int_of_type(t, sem::wrap(t, x)).unwrap_or(PrimValue::Bool(false))
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
        let op = match op {
            UnOp::Neg => IntUnOp::Neg,
            UnOp::Not => IntUnOp::Not,
            UnOp::Abs => IntUnOp::Abs,
            UnOp::Signum => IntUnOp::Signum,
        };
        wrap(t, sem::int_unop(op, t, int(x)))
    } else {
        let f = match op {
            UnOp::Neg => FloatFn::Neg,
            UnOp::Not => return x,
            UnOp::Abs => FloatFn::Abs,
            UnOp::Signum => FloatFn::Signum,
        };
        float(t, sem::float_fn(f, flt(x)))
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
        let iop = match op {
            BinOp::Add => IntBinOp::Add,
            BinOp::Sub => IntBinOp::Sub,
            BinOp::Mul => IntBinOp::Mul,
            BinOp::Div => IntBinOp::Div,
            BinOp::Mod => IntBinOp::Mod,
            BinOp::Quot => IntBinOp::Quot,
            BinOp::Rem => IntBinOp::Rem,
            BinOp::Pow => IntBinOp::Pow,
            BinOp::Min => IntBinOp::Min,
            BinOp::Max => IntBinOp::Max,
            BinOp::And => IntBinOp::And,
            BinOp::Or => IntBinOp::Or,
            BinOp::Xor => IntBinOp::Xor,
            BinOp::Shl => IntBinOp::Shl,
            BinOp::Shr => IntBinOp::Shr,
            BinOp::UShr => IntBinOp::UShr,
        };
        return match sem::int_binop(iop, t, int(x), int(y)) {
            Ok(r) => Ok(wrap(t, r)),
            Err(ArithError::DivisionByZero) => Err("Division by zero".to_string()),
            Err(ArithError::NegativeExponent) => {
                Err("Negative exponent in integer power".to_string())
            }
        };
    }
    let fop = match op {
        BinOp::Add => FloatBinOp::Add,
        BinOp::Sub => FloatBinOp::Sub,
        BinOp::Mul => FloatBinOp::Mul,
        BinOp::Div => FloatBinOp::Div,
        BinOp::Mod | BinOp::Rem => FloatBinOp::Mod,
        BinOp::Pow => FloatBinOp::Pow,
        BinOp::Min => FloatBinOp::Min,
        BinOp::Max => FloatBinOp::Max,
        _ => return Err(format!("`{}` is not defined on {t}", op.name())),
    };
    Ok(float(t, sem::float_binop(fop, flt(x), flt(y))))
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
            _ if from.is_integer() => sem::int_to_int(from, to, int(x)),
            _ => sem::float_to_int(to, flt(x)),
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
        let i32v = |n: i128| PrimValue::I32(n as i32);
        return match f {
            MathFn::Popc => i32v(sem::int_unop(IntUnOp::Popc, t, int(x))),
            MathFn::Clz => i32v(sem::int_unop(IntUnOp::Clz, t, int(x))),
            MathFn::Ctz => i32v(sem::int_unop(IntUnOp::Ctz, t, int(x))),
            MathFn::MulHi => match sem::int_binop(IntBinOp::MulHi, t, int(x), int(arg(1))) {
                Ok(r) => wrap(t, r),
                Err(_) => x,
            },
            _ => x,
        };
    }
    let a = flt(x);
    let b = flt(arg(1));
    let c = flt(arg(2));
    let f1 = |g: FloatFn| sem::float_fn(g, a);
    let r = match f {
        MathFn::Sqrt => f1(FloatFn::Sqrt),
        MathFn::Cbrt => f1(FloatFn::Cbrt),
        MathFn::Exp => f1(FloatFn::Exp),
        MathFn::Expm1 => f1(FloatFn::Expm1),
        MathFn::Log => f1(FloatFn::Log),
        MathFn::Log2 => f1(FloatFn::Log2),
        MathFn::Log10 => f1(FloatFn::Log10),
        MathFn::Log1p => f1(FloatFn::Log1p),
        MathFn::Sin => f1(FloatFn::Sin),
        MathFn::Cos => f1(FloatFn::Cos),
        MathFn::Tan => f1(FloatFn::Tan),
        MathFn::Asin => f1(FloatFn::Asin),
        MathFn::Acos => f1(FloatFn::Acos),
        MathFn::Atan => f1(FloatFn::Atan),
        MathFn::Sinh => f1(FloatFn::Sinh),
        MathFn::Cosh => f1(FloatFn::Cosh),
        MathFn::Tanh => f1(FloatFn::Tanh),
        MathFn::Asinh => f1(FloatFn::Asinh),
        MathFn::Acosh => f1(FloatFn::Acosh),
        MathFn::Atanh => f1(FloatFn::Atanh),
        MathFn::Atan2 => sem::float_binop(FloatBinOp::Atan2, a, b),
        MathFn::Hypot => sem::float_binop(FloatBinOp::Hypot, a, b),
        MathFn::Erf => f1(FloatFn::Erf),
        MathFn::Erfc => f1(FloatFn::Erfc),
        MathFn::Lgamma => f1(FloatFn::Lgamma),
        MathFn::Gamma => f1(FloatFn::Gamma),
        MathFn::Fma => {
            if t == PrimType::F32 {
                f64::from((a as f32).mul_add(b as f32, c as f32))
            } else {
                a.mul_add(b, c)
            }
        }
        MathFn::Mad => a * b + c,
        MathFn::Floor => f1(FloatFn::Floor),
        MathFn::Ceil => f1(FloatFn::Ceil),
        MathFn::Round => f1(FloatFn::Round),
        MathFn::Trunc => f1(FloatFn::Trunc),
        MathFn::IsNan => return PrimValue::Bool(a.is_nan()),
        MathFn::IsInf => return PrimValue::Bool(a.is_infinite()),
        MathFn::CopySign => sem::float_binop(FloatBinOp::CopySign, a, b),
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
            PrimValue::U32(255)
        );
        assert_eq!(
            convert(ConvKind::Convert, PrimType::I32, (-1i8).into()),
            PrimValue::I32(-1)
        );
        assert_eq!(
            convert(ConvKind::Convert, PrimType::U8, (-1.0f32).into()),
            PrimValue::U8(255)
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
