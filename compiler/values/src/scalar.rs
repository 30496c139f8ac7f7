//! Futhark's scalar semantics, shared by the reference interpreter and the
//! IR interpreter.
//!
//! Integers are computed as `i128` and wrapped to the width of their type
//! ([`wrap`]): every operation wraps on overflow. `Div` and `Mod` round
//! towards negative infinity (the remainder has the sign of the divisor),
//! `Quot` and `Rem` towards zero; all four fail on a zero divisor. Integer
//! `Pow` fails on a negative exponent. A shift by a negative amount or by at
//! least the bit width gives 0 (or -1 for an arithmetic right shift of a
//! negative number); `>>` is arithmetic on signed types, `>>>` always
//! logical. Float operations are IEEE; `Mod` and `Rem` on floats are `fmod`,
//! `Min` and `Max` ignore a NaN operand. Float to integer conversion
//! truncates towards zero and saturates, NaN and the infinities giving 0.
//!
//! The callers keep their own value representations and error messages;
//! these functions see integers as `i128` and floats as `f64` or `f32`.

use half::f16;

use crate::PrimType;

/// The width in bits of a primitive type (1 for `bool`).
pub fn bits(t: PrimType) -> u32 {
    match t {
        PrimType::Bool => 1,
        _ => (t.byte_size() * 8) as u32,
    }
}

/// `x` modulo 2^bits, in the range of the integer type `t` (the two's
/// complement reading for a signed type). Other types leave `x` as it is.
pub fn wrap(t: PrimType, x: i128) -> i128 {
    if !t.is_integer() {
        return x;
    }
    let b = bits(t);
    let m = x & ((1i128 << b) - 1);
    if t.is_signed_integer() && m >= (1i128 << (b - 1)) {
        m - (1i128 << b)
    } else {
        m
    }
}

/// The least and greatest values of an integer type (`(0, 1)` otherwise).
pub fn int_range(t: PrimType) -> (i128, i128) {
    t.integer_range().unwrap_or((0, 1))
}

/// A float converted to the integer type `t`: truncated towards zero and
/// saturated at the type's bounds; NaN and the infinities give 0.
pub fn float_to_int(t: PrimType, x: f64) -> i128 {
    if !x.is_finite() {
        return 0;
    }
    let (lo, hi) = int_range(t);
    (x.trunc() as i128).clamp(lo, hi)
}

/// A failed integer operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithError {
    /// `Div`, `Mod`, `Quot` or `Rem` by zero.
    DivisionByZero,
    /// `Pow` with a negative exponent.
    NegativeExponent,
}

/// A binary operation on integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntBinOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`: rounds towards negative infinity.
    Div,
    /// `%`: the remainder of `Div`, with the sign of the divisor.
    Mod,
    /// `//`: rounds towards zero.
    Quot,
    /// `%%`: the remainder of `Quot`, with the sign of the dividend.
    Rem,
    /// `**`.
    Pow,
    /// `&`.
    And,
    /// `|`.
    Or,
    /// `^`.
    Xor,
    /// `<<`.
    Shl,
    /// `>>`: arithmetic on signed types, logical on unsigned ones.
    Shr,
    /// `>>>`: logical.
    UShr,
    /// The lesser operand.
    Min,
    /// The greater operand.
    Max,
    /// The high half of the double-width product.
    MulHi,
}

/// `a op b` on values of the integer type `t` (given in range), wrapped to
/// `t`.
pub fn int_binop(op: IntBinOp, t: PrimType, a: i128, b: i128) -> Result<i128, ArithError> {
    let w = bits(t);
    let mask = (1i128 << w) - 1;
    let out_of_range = b < 0 || b >= i128::from(w);
    let r = match op {
        IntBinOp::Add => a.wrapping_add(b),
        IntBinOp::Sub => a.wrapping_sub(b),
        IntBinOp::Mul => a.wrapping_mul(b),
        IntBinOp::Div | IntBinOp::Mod | IntBinOp::Quot | IntBinOp::Rem if b == 0 => {
            return Err(ArithError::DivisionByZero);
        }
        IntBinOp::Div => {
            let q = a / b;
            if a % b != 0 && ((a < 0) != (b < 0)) {
                q - 1
            } else {
                q
            }
        }
        IntBinOp::Mod => {
            let r = a % b;
            if r != 0 && ((r < 0) != (b < 0)) {
                r + b
            } else {
                r
            }
        }
        IntBinOp::Quot => a / b,
        IntBinOp::Rem => a % b,
        IntBinOp::Pow => {
            if b < 0 {
                return Err(ArithError::NegativeExponent);
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
        IntBinOp::And => a & b,
        IntBinOp::Or => a | b,
        IntBinOp::Xor => a ^ b,
        IntBinOp::Shl if out_of_range => 0,
        IntBinOp::Shl => (a & mask) << b,
        IntBinOp::Shr if t.is_signed_integer() => {
            if out_of_range {
                if a < 0 { -1 } else { 0 }
            } else {
                a >> b
            }
        }
        IntBinOp::Shr | IntBinOp::UShr if out_of_range => 0,
        IntBinOp::Shr | IntBinOp::UShr => (a & mask) >> b,
        IntBinOp::Min => a.min(b),
        IntBinOp::Max => a.max(b),
        IntBinOp::MulHi => {
            if t.is_signed_integer() {
                (a * b) >> w
            } else {
                (((a & mask) as u128 * (b & mask) as u128) >> w) as i128
            }
        }
    };
    Ok(wrap(t, r))
}

/// A unary operation on integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntUnOp {
    /// Negation.
    Neg,
    /// Bitwise complement.
    Not,
    /// Absolute value.
    Abs,
    /// -1, 0 or 1.
    Signum,
    /// The number of one bits (an `i32` in Futhark).
    Popc,
    /// The number of leading zero bits (an `i32` in Futhark).
    Clz,
    /// The number of trailing zero bits, the width for 0 (an `i32` in
    /// Futhark).
    Ctz,
}

/// `op x` on a value of the integer type `t`. The bit counts are plain
/// numbers; the other results are wrapped to `t`.
pub fn int_unop(op: IntUnOp, t: PrimType, x: i128) -> i128 {
    let w = bits(t);
    let m = (x & ((1i128 << w) - 1)) as u128;
    match op {
        IntUnOp::Neg => wrap(t, x.wrapping_neg()),
        IntUnOp::Not => wrap(t, !x),
        IntUnOp::Abs => wrap(t, x.abs()),
        IntUnOp::Signum => x.signum(),
        IntUnOp::Popc => i128::from(m.count_ones()),
        IntUnOp::Clz => i128::from(m.leading_zeros() - (128 - w)),
        IntUnOp::Ctz => i128::from(if m == 0 { w } else { m.trailing_zeros() }),
    }
}

/// A binary operation on floats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatBinOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `fmod`: the remainder with the sign of the dividend.
    Mod,
    /// `**`.
    Pow,
    /// The lesser operand; a NaN operand is ignored.
    Min,
    /// The greater operand; a NaN operand is ignored.
    Max,
    /// The angle of the point `(b, a)`.
    Atan2,
    /// `sqrt(a² + b²)` without undue overflow.
    Hypot,
    /// `a` with the sign of `b`.
    CopySign,
}

macro_rules! float_binop_at {
    ($name:ident, $t:ty) => {
        #[doc = concat!("`a op b` computed in `", stringify!($t), "`.")]
        pub fn $name(op: FloatBinOp, a: $t, b: $t) -> $t {
            match op {
                FloatBinOp::Add => a + b,
                FloatBinOp::Sub => a - b,
                FloatBinOp::Mul => a * b,
                FloatBinOp::Div => a / b,
                FloatBinOp::Mod => a % b,
                FloatBinOp::Pow => a.powf(b),
                FloatBinOp::Min => a.min(b),
                FloatBinOp::Max => a.max(b),
                FloatBinOp::Atan2 => a.atan2(b),
                FloatBinOp::Hypot => a.hypot(b),
                FloatBinOp::CopySign => a.copysign(b),
            }
        }
    };
}

float_binop_at!(float_binop, f64);
float_binop_at!(float_binop_f32, f32);

/// A function of one float.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FloatFn {
    Neg,
    Abs,
    /// -1, 0 or 1 (0 for both zeros); NaN for NaN.
    Signum,
    Sqrt,
    Cbrt,
    Exp,
    Exp2,
    Exp10,
    Expm1,
    Log,
    Log2,
    Log10,
    Log1p,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Asinh,
    Acosh,
    Atanh,
    Erf,
    Erfc,
    Gamma,
    Lgamma,
    Floor,
    Ceil,
    /// To the nearest integer, ties to even.
    Round,
    Trunc,
}

macro_rules! float_fn_at {
    ($name:ident, $t:ty, $erf:path, $erfc:path, $gamma:path, $lgamma:path) => {
        #[doc = concat!("`f(x)` computed in `", stringify!($t), "`.")]
        pub fn $name(f: FloatFn, x: $t) -> $t {
            match f {
                FloatFn::Neg => -x,
                FloatFn::Abs => x.abs(),
                FloatFn::Signum => {
                    if x.is_nan() {
                        x
                    } else if x > 0.0 {
                        1.0
                    } else if x < 0.0 {
                        -1.0
                    } else {
                        0.0
                    }
                }
                FloatFn::Sqrt => x.sqrt(),
                FloatFn::Cbrt => x.cbrt(),
                FloatFn::Exp => x.exp(),
                FloatFn::Exp2 => x.exp2(),
                FloatFn::Exp10 => (10.0 as $t).powf(x),
                FloatFn::Expm1 => x.exp_m1(),
                FloatFn::Log => x.ln(),
                FloatFn::Log2 => x.log2(),
                FloatFn::Log10 => x.log10(),
                FloatFn::Log1p => x.ln_1p(),
                FloatFn::Sin => x.sin(),
                FloatFn::Cos => x.cos(),
                FloatFn::Tan => x.tan(),
                FloatFn::Asin => x.asin(),
                FloatFn::Acos => x.acos(),
                FloatFn::Atan => x.atan(),
                FloatFn::Sinh => x.sinh(),
                FloatFn::Cosh => x.cosh(),
                FloatFn::Tanh => x.tanh(),
                FloatFn::Asinh => x.asinh(),
                FloatFn::Acosh => x.acosh(),
                FloatFn::Atanh => x.atanh(),
                FloatFn::Erf => $erf(x),
                FloatFn::Erfc => $erfc(x),
                FloatFn::Gamma => $gamma(x),
                FloatFn::Lgamma => $lgamma(x),
                FloatFn::Floor => x.floor(),
                FloatFn::Ceil => x.ceil(),
                FloatFn::Round => x.round_ties_even(),
                FloatFn::Trunc => x.trunc(),
            }
        }
    };
}

float_fn_at!(
    float_fn,
    f64,
    libm::erf,
    libm::erfc,
    libm::tgamma,
    libm::lgamma
);
float_fn_at!(
    float_fn_f32,
    f32,
    libm::erff,
    libm::erfcf,
    libm::tgammaf,
    libm::lgammaf
);

macro_rules! next_after_at {
    ($name:ident, $t:ty) => {
        #[doc = concat!("The next `", stringify!($t), "` after `a` in the direction of `b`.")]
        pub fn $name(a: $t, b: $t) -> $t {
            if a.is_nan() || b.is_nan() {
                <$t>::NAN
            } else if a == b {
                b
            } else if a == 0.0 {
                <$t>::from_bits(1).copysign(b)
            } else if (a < b) == (a > 0.0) {
                <$t>::from_bits(a.to_bits() + 1)
            } else {
                <$t>::from_bits(a.to_bits() - 1)
            }
        }
    };
}

next_after_at!(next_after, f64);
next_after_at!(next_after_f32, f32);

/// The next `f16` after `a` in the direction of `b`.
pub fn next_after_f16(a: f16, b: f16) -> f16 {
    if a.is_nan() || b.is_nan() {
        f16::NAN
    } else if a == b {
        b
    } else if a.to_f32() == 0.0 {
        let tiny = f16::from_bits(1);
        if b.to_f32() < 0.0 { -tiny } else { tiny }
    } else if (a < b) == (a.to_f32() > 0.0) {
        f16::from_bits(a.to_bits() + 1)
    } else {
        f16::from_bits(a.to_bits() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32op(op: IntBinOp, a: i32, b: i32) -> Result<i128, ArithError> {
        int_binop(op, PrimType::I32, a.into(), b.into())
    }

    #[test]
    fn division_rounds_like_futhark() {
        assert_eq!(i32op(IntBinOp::Div, -7, 2), Ok(-4));
        assert_eq!(i32op(IntBinOp::Div, 7, -2), Ok(-4));
        assert_eq!(i32op(IntBinOp::Div, -7, -2), Ok(3));
        assert_eq!(i32op(IntBinOp::Mod, -7, 2), Ok(1));
        assert_eq!(i32op(IntBinOp::Mod, 7, -2), Ok(-1));
        assert_eq!(i32op(IntBinOp::Quot, -7, 2), Ok(-3));
        assert_eq!(i32op(IntBinOp::Rem, -7, 2), Ok(-1));
        assert_eq!(i32op(IntBinOp::Rem, 7, -2), Ok(1));
        assert_eq!(i32op(IntBinOp::Div, i32::MIN, -1), Ok(i128::from(i32::MIN)));
        assert_eq!(i32op(IntBinOp::Rem, 1, 0), Err(ArithError::DivisionByZero));
        assert_eq!(
            i32op(IntBinOp::Pow, 2, -1),
            Err(ArithError::NegativeExponent)
        );
    }

    #[test]
    fn integers_wrap() {
        assert_eq!(i32op(IntBinOp::Add, i32::MAX, 1), Ok(i128::from(i32::MIN)));
        assert_eq!(i32op(IntBinOp::Mul, 65536, 65536), Ok(0));
        assert_eq!(i32op(IntBinOp::Pow, 2, 31), Ok(i128::from(i32::MIN)));
        assert_eq!(int_binop(IntBinOp::Pow, PrimType::I8, 2, 8), Ok(0));
        let max = i128::from(u64::MAX);
        assert_eq!(int_binop(IntBinOp::Mul, PrimType::U64, max, max), Ok(1));
        assert_eq!(
            int_binop(IntBinOp::Sub, PrimType::U32, 0, 1),
            Ok(i128::from(u32::MAX))
        );
        assert_eq!(int_unop(IntUnOp::Neg, PrimType::U8, 1), 255);
        assert_eq!(
            int_unop(IntUnOp::Neg, PrimType::I64, i64::MIN.into()),
            i128::from(i64::MIN)
        );
        assert_eq!(wrap(PrimType::I8, 300), 44);
        assert_eq!(wrap(PrimType::U16, -1), 65535);
    }

    #[test]
    fn shifts_and_bits() {
        assert_eq!(i32op(IntBinOp::Shl, 1, 31), Ok(i128::from(i32::MIN)));
        assert_eq!(i32op(IntBinOp::Shl, 1, 32), Ok(0));
        assert_eq!(i32op(IntBinOp::Shr, -8, 1), Ok(-4));
        assert_eq!(i32op(IntBinOp::Shr, -8, 40), Ok(-1));
        assert_eq!(i32op(IntBinOp::UShr, -8, 28), Ok(15));
        assert_eq!(int_binop(IntBinOp::Shr, PrimType::U8, 0x80, 7), Ok(1));
        let max = i128::from(u64::MAX);
        assert_eq!(int_binop(IntBinOp::MulHi, PrimType::U64, max, 2), Ok(1));
        assert_eq!(int_binop(IntBinOp::MulHi, PrimType::I32, -1, 1), Ok(-1));
        assert_eq!(int_unop(IntUnOp::Popc, PrimType::I8, -1), 8);
        assert_eq!(int_unop(IntUnOp::Clz, PrimType::U32, 1), 31);
        assert_eq!(int_unop(IntUnOp::Ctz, PrimType::I64, 0), 64);
    }

    #[test]
    fn floats() {
        assert_eq!(float_to_int(PrimType::I32, -2.7), -2);
        assert_eq!(float_to_int(PrimType::U8, 300.0), 255);
        assert_eq!(float_to_int(PrimType::I8, -300.0), -128);
        assert_eq!(float_to_int(PrimType::I32, f64::NAN), 0);
        assert_eq!(float_binop(FloatBinOp::Mod, -7.5, 2.0), -1.5);
        assert_eq!(float_binop(FloatBinOp::Min, f64::NAN, 1.0), 1.0);
        assert_eq!(float_fn(FloatFn::Round, 2.5), 2.0);
        assert!(float_fn(FloatFn::Signum, -0.0).is_sign_positive());
        assert!(float_fn(FloatFn::Signum, f64::NAN).is_nan());
        assert!((float_fn(FloatFn::Erf, 1.0) - 0.842_700_792_949_715).abs() < 1e-12);
        assert_eq!(next_after(1.0, 2.0), 1.0 + f64::EPSILON);
        assert_eq!(next_after_f32(0.0, -1.0), -f32::from_bits(1));
        assert_eq!(
            next_after_f16(f16::from_f32(1.0), f16::from_f32(0.0)),
            f16::from_bits(f16::from_f32(1.0).to_bits() - 1)
        );
    }
}
