//! Futhark's scalar semantics for generated code, where Rust's operators
//! differ: integer division and remainder rounding towards negative
//! infinity (failing on a zero divisor), integer powers, shifts by any
//! amount, the high half of products, float to integer conversion
//! (truncating, saturating, 0 for NaN and the infinities), `signum` on
//! floats, and the math functions of all three float types (computed in
//! `f64`, as the reference interpreter does).

use values::f16;

/// Integer operations with Futhark's semantics.
pub trait Int: Copy {
    /// Division rounding towards negative infinity.
    fn fdiv(self, b: Self) -> Result<Self, String>;
    /// The remainder of [`Int::fdiv`] (the sign of the divisor).
    fn fmod(self, b: Self) -> Result<Self, String>;
    /// Division rounding towards zero.
    fn fquot(self, b: Self) -> Result<Self, String>;
    /// The remainder of [`Int::fquot`].
    fn frem(self, b: Self) -> Result<Self, String>;
    /// Power (wrapping); a negative exponent fails.
    fn fpow(self, b: Self) -> Result<Self, String>;
    /// Shift left; 0 for shifts outside `0..bits`.
    fn fshl(self, b: Self) -> Self;
    /// Shift right, arithmetic for signed types.
    fn fshr(self, b: Self) -> Self;
    /// Logical shift right.
    fn fushr(self, b: Self) -> Self;
    /// The high half of the full product.
    fn mul_hi(self, b: Self) -> Self;
    /// -1, 0 or 1.
    fn sgn(self) -> Self;
}

const DIV0: &str = "Division by zero";

macro_rules! int {
    ($($t:ty, $u:ty, $signed:expr);*) => {
        $(impl Int for $t {
            #[inline]
            fn fdiv(self, b: Self) -> Result<Self, String> {
                if b == 0 {
                    return Err(DIV0.into());
                }
                let q = self.wrapping_div(b);
                #[allow(unused_comparisons)]
                let adjust = self.wrapping_rem(b) != 0 && ((self < 0) != (b < 0));
                Ok(if adjust { q.wrapping_sub(1) } else { q })
            }
            #[inline]
            fn fmod(self, b: Self) -> Result<Self, String> {
                if b == 0 {
                    return Err(DIV0.into());
                }
                let r = self.wrapping_rem(b);
                #[allow(unused_comparisons)]
                let adjust = r != 0 && ((r < 0) != (b < 0));
                Ok(if adjust { r.wrapping_add(b) } else { r })
            }
            #[inline]
            fn fquot(self, b: Self) -> Result<Self, String> {
                if b == 0 {
                    return Err(DIV0.into());
                }
                Ok(self.wrapping_div(b))
            }
            #[inline]
            fn frem(self, b: Self) -> Result<Self, String> {
                if b == 0 {
                    return Err(DIV0.into());
                }
                Ok(self.wrapping_rem(b))
            }
            fn fpow(self, b: Self) -> Result<Self, String> {
                #[allow(unused_comparisons)]
                if b < 0 {
                    return Err("Negative exponent in integer power".into());
                }
                let (mut base, mut e, mut acc) = (self, b, 1 as $t);
                while e > 0 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                Ok(acc)
            }
            #[inline]
            fn fshl(self, b: Self) -> Self {
                let bits = <$t>::BITS as i128;
                if (b as i128) < 0 || (b as i128) >= bits { 0 } else { self.wrapping_shl(b as u32) }
            }
            #[inline]
            fn fshr(self, b: Self) -> Self {
                let bits = <$t>::BITS as i128;
                if (b as i128) < 0 || (b as i128) >= bits {
                    #[allow(unused_comparisons)]
                    if $signed && self < 0 { !0 } else { 0 }
                } else {
                    self.wrapping_shr(b as u32)
                }
            }
            #[inline]
            fn fushr(self, b: Self) -> Self {
                let bits = <$t>::BITS as i128;
                if (b as i128) < 0 || (b as i128) >= bits {
                    0
                } else {
                    ((self as $u) >> (b as u32)) as $t
                }
            }
            #[inline]
            fn mul_hi(self, b: Self) -> Self {
                if $signed {
                    (((self as i128) * (b as i128)) >> <$t>::BITS) as $t
                } else {
                    (((self as $u as u128) * (b as $u as u128)) >> <$t>::BITS) as $t
                }
            }
            #[inline]
            fn sgn(self) -> Self {
                #[allow(unused_comparisons)]
                if self < 0 { (0 as $t).wrapping_sub(1) } else if self == 0 { 0 } else { 1 }
            }
        })*
    };
}

int!(i8, u8, true; i16, u16, true; i32, u32, true; i64, u64, true;
    u8, u8, false; u16, u16, false; u32, u32, false; u64, u64, false);

/// Float operations shared by `f16`, `f32` and `f64`.
pub trait Float: Copy {
    /// As an `f64` (exact).
    fn to64(self) -> f64;
    /// From an `f64` (rounded to nearest).
    fn from64(x: f64) -> Self;
}

impl Float for f64 {
    #[inline]
    fn to64(self) -> f64 {
        self
    }
    #[inline]
    fn from64(x: f64) -> Self {
        x
    }
}

impl Float for f32 {
    #[inline]
    fn to64(self) -> f64 {
        f64::from(self)
    }
    #[inline]
    fn from64(x: f64) -> Self {
        x as f32
    }
}

impl Float for f16 {
    #[inline]
    fn to64(self) -> f64 {
        self.to_f64()
    }
    #[inline]
    fn from64(x: f64) -> Self {
        f16::from_f64(x)
    }
}

/// A float to an integer: truncated towards zero, saturating, 0 for NaN
/// and the infinities. `lo` and `hi` are the target type's range.
#[inline]
pub fn float_to_int(x: f64, lo: i128, hi: i128) -> i128 {
    if !x.is_finite() {
        0
    } else {
        (x.trunc() as i128).clamp(lo, hi)
    }
}

/// -1, 0 or 1 by sign; NaN and zeros stay as they are.
#[inline]
pub fn fsignum(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x
    }
}

/// Applies a one-argument `f64` function to any float type.
#[inline]
pub fn map1<T: Float>(x: T, f: impl Fn(f64) -> f64) -> T {
    T::from64(f(x.to64()))
}

/// Applies a two-argument `f64` function to any float type.
#[inline]
pub fn map2<T: Float>(x: T, y: T, f: impl Fn(f64, f64) -> f64) -> T {
    T::from64(f(x.to64(), y.to64()))
}

/// Is `x` NaN.
#[inline]
pub fn is_nan<T: Float>(x: T) -> bool {
    x.to64().is_nan()
}

/// Is `x` infinite.
#[inline]
pub fn is_inf<T: Float>(x: T) -> bool {
    x.to64().is_infinite()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_semantics() {
        assert_eq!((-7i32).fdiv(2), Ok(-4));
        assert_eq!((-7i32).fmod(2), Ok(1));
        assert_eq!(7i32.fmod(-2), Ok(-1));
        assert_eq!((-7i32).fquot(2), Ok(-3));
        assert_eq!((-7i32).frem(2), Ok(-1));
        assert_eq!(i32::MIN.fdiv(-1), Ok(i32::MIN));
        assert_eq!(1i64.fdiv(0), Err("Division by zero".into()));
        assert_eq!(2i8.fpow(8), Ok(0));
        assert_eq!(3u32.fpow(4), Ok(81));
        assert!((-1i32).fpow(-1).is_err());
        assert_eq!(1i32.fshl(32), 0);
        assert_eq!((-8i32).fshr(1), -4);
        assert_eq!((-8i32).fshr(40), -1);
        assert_eq!((-8i32).fushr(28), 15);
        assert_eq!(0x80u8.fshr(7), 1);
        assert_eq!(u64::MAX.mul_hi(2), 1);
        assert_eq!((-5i16).sgn(), -1);
        assert_eq!(float_to_int(f64::INFINITY, 0, 255), 0);
        assert_eq!(float_to_int(300.7, 0, 255), 255);
        assert_eq!(map1(2.0f32, f64::sqrt), 2.0f32.sqrt());
    }
}
