//! Primitive types and typed scalar values.
//!
//! [`PrimType`] names one of Futhark's twelve primitive types and prints the
//! way Futhark spells it (`i32`, `f16`, `bool`, ...). [`PrimValue`] is one
//! scalar of such a type; its `Display` writes the scalar in Futhark's textual
//! value format (`1i32`, `2.5f32`, `f64.nan`, `-f32.inf`, `true`).

use std::fmt;
use std::str::FromStr;

use half::f16;

/// One of Futhark's primitive types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrimType {
    /// 8-bit signed integer.
    I8,
    /// 16-bit signed integer.
    I16,
    /// 32-bit signed integer.
    I32,
    /// 64-bit signed integer.
    I64,
    /// 8-bit unsigned integer.
    U8,
    /// 16-bit unsigned integer.
    U16,
    /// 32-bit unsigned integer.
    U32,
    /// 64-bit unsigned integer.
    U64,
    /// IEEE 754 binary16 float.
    F16,
    /// IEEE 754 binary32 float.
    F32,
    /// IEEE 754 binary64 float.
    F64,
    /// Boolean.
    Bool,
}

impl PrimType {
    /// All primitive types, in a fixed order.
    pub const ALL: [PrimType; 12] = [
        PrimType::I8,
        PrimType::I16,
        PrimType::I32,
        PrimType::I64,
        PrimType::U8,
        PrimType::U16,
        PrimType::U32,
        PrimType::U64,
        PrimType::F16,
        PrimType::F32,
        PrimType::F64,
        PrimType::Bool,
    ];

    /// The type's name as Futhark spells it (`"i32"`, `"bool"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            PrimType::I8 => "i8",
            PrimType::I16 => "i16",
            PrimType::I32 => "i32",
            PrimType::I64 => "i64",
            PrimType::U8 => "u8",
            PrimType::U16 => "u16",
            PrimType::U32 => "u32",
            PrimType::U64 => "u64",
            PrimType::F16 => "f16",
            PrimType::F32 => "f32",
            PrimType::F64 => "f64",
            PrimType::Bool => "bool",
        }
    }

    /// Looks a type up by its Futhark name; `None` for anything else.
    pub fn from_name(name: &str) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Size of one element in bytes (in the binary format and in memory).
    pub fn byte_size(self) -> usize {
        match self {
            PrimType::I8 | PrimType::U8 | PrimType::Bool => 1,
            PrimType::I16 | PrimType::U16 | PrimType::F16 => 2,
            PrimType::I32 | PrimType::U32 | PrimType::F32 => 4,
            PrimType::I64 | PrimType::U64 | PrimType::F64 => 8,
        }
    }

    /// The four-byte type tag of the binary value format (`b" i32"`, `b"bool"`).
    pub fn binary_tag(self) -> [u8; 4] {
        let name = self.name().as_bytes();
        let mut tag = [b' '; 4];
        let start = 4 - name.len();
        tag[start..].copy_from_slice(name);
        tag
    }

    /// The type whose binary tag is `tag`, if any.
    pub fn from_binary_tag(tag: [u8; 4]) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|t| t.binary_tag() == tag)
    }

    /// True for the signed and unsigned integer types.
    pub fn is_integer(self) -> bool {
        self.is_signed_integer() || self.is_unsigned_integer()
    }

    /// True for `i8`, `i16`, `i32`, `i64`.
    pub fn is_signed_integer(self) -> bool {
        matches!(
            self,
            PrimType::I8 | PrimType::I16 | PrimType::I32 | PrimType::I64
        )
    }

    /// True for `u8`, `u16`, `u32`, `u64`.
    pub fn is_unsigned_integer(self) -> bool {
        matches!(
            self,
            PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64
        )
    }

    /// True for `f16`, `f32`, `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, PrimType::F16 | PrimType::F32 | PrimType::F64)
    }

    /// The inclusive range of an integer type as `i128`s; `None` for
    /// floats and `bool`.
    pub fn integer_range(self) -> Option<(i128, i128)> {
        let r = match self {
            PrimType::I8 => (i8::MIN as i128, i8::MAX as i128),
            PrimType::I16 => (i16::MIN as i128, i16::MAX as i128),
            PrimType::I32 => (i32::MIN as i128, i32::MAX as i128),
            PrimType::I64 => (i64::MIN as i128, i64::MAX as i128),
            PrimType::U8 => (0, u8::MAX as i128),
            PrimType::U16 => (0, u16::MAX as i128),
            PrimType::U32 => (0, u32::MAX as i128),
            PrimType::U64 => (0, u64::MAX as i128),
            _ => return None,
        };
        Some(r)
    }
}

impl fmt::Display for PrimType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error from parsing a [`PrimType`] name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPrimType(pub String);

impl fmt::Display for UnknownPrimType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown primitive type `{}`", self.0)
    }
}

impl std::error::Error for UnknownPrimType {}

impl FromStr for PrimType {
    type Err = UnknownPrimType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PrimType::from_name(s).ok_or_else(|| UnknownPrimType(s.to_string()))
    }
}

/// One scalar of a primitive type.
///
/// `PartialEq` compares bit-for-bit semantics of Rust's `==`, so a NaN is not
/// equal to itself; use [`crate::compare`] for test-style comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PrimValue {
    /// An `i8`.
    I8(i8),
    /// An `i16`.
    I16(i16),
    /// An `i32`.
    I32(i32),
    /// An `i64`.
    I64(i64),
    /// A `u8`.
    U8(u8),
    /// A `u16`.
    U16(u16),
    /// A `u32`.
    U32(u32),
    /// A `u64`.
    U64(u64),
    /// An `f16`.
    F16(f16),
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// A `bool`.
    Bool(bool),
}

impl PrimValue {
    /// The value's type.
    pub fn prim_type(&self) -> PrimType {
        match self {
            PrimValue::I8(_) => PrimType::I8,
            PrimValue::I16(_) => PrimType::I16,
            PrimValue::I32(_) => PrimType::I32,
            PrimValue::I64(_) => PrimType::I64,
            PrimValue::U8(_) => PrimType::U8,
            PrimValue::U16(_) => PrimType::U16,
            PrimValue::U32(_) => PrimType::U32,
            PrimValue::U64(_) => PrimType::U64,
            PrimValue::F16(_) => PrimType::F16,
            PrimValue::F32(_) => PrimType::F32,
            PrimValue::F64(_) => PrimType::F64,
            PrimValue::Bool(_) => PrimType::Bool,
        }
    }

    /// The value as an `f64` when it is a float (exact for all three float
    /// types); `None` otherwise.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            PrimValue::F16(x) => Some(x.to_f64()),
            PrimValue::F32(x) => Some(f64::from(x)),
            PrimValue::F64(x) => Some(x),
            _ => None,
        }
    }

    /// The value as an `i128` when it is an integer (exact for all eight
    /// integer types); `None` otherwise.
    pub fn as_i128(&self) -> Option<i128> {
        match *self {
            PrimValue::I8(x) => Some(x.into()),
            PrimValue::I16(x) => Some(x.into()),
            PrimValue::I32(x) => Some(x.into()),
            PrimValue::I64(x) => Some(x.into()),
            PrimValue::U8(x) => Some(x.into()),
            PrimValue::U16(x) => Some(x.into()),
            PrimValue::U32(x) => Some(x.into()),
            PrimValue::U64(x) => Some(x.into()),
            _ => None,
        }
    }

    /// The value when it is a `bool`.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            PrimValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// Converts an integer to the integer type `t`, or `None` if `t` is not
    /// an integer type or the value does not fit.
    pub fn int_of_type(t: PrimType, x: i128) -> Option<PrimValue> {
        let v = match t {
            PrimType::I8 => PrimValue::I8(i8::try_from(x).ok()?),
            PrimType::I16 => PrimValue::I16(i16::try_from(x).ok()?),
            PrimType::I32 => PrimValue::I32(i32::try_from(x).ok()?),
            PrimType::I64 => PrimValue::I64(i64::try_from(x).ok()?),
            PrimType::U8 => PrimValue::U8(u8::try_from(x).ok()?),
            PrimType::U16 => PrimValue::U16(u16::try_from(x).ok()?),
            PrimType::U32 => PrimValue::U32(u32::try_from(x).ok()?),
            PrimType::U64 => PrimValue::U64(u64::try_from(x).ok()?),
            _ => return None,
        };
        Some(v)
    }

    /// Converts an `f64` to the float type `t` (rounding to nearest), or
    /// `None` if `t` is not a float type.
    pub fn float_of_type(t: PrimType, x: f64) -> Option<PrimValue> {
        match t {
            PrimType::F16 => Some(PrimValue::F16(f16::from_f64(x))),
            PrimType::F32 => Some(PrimValue::F32(x as f32)),
            PrimType::F64 => Some(PrimValue::F64(x)),
            _ => None,
        }
    }
}

/// Writes a float in Futhark's syntax, shortest digits that round-trip,
/// followed by the type suffix; NaN and infinities as `f32.nan`,
/// `f32.inf`, `-f32.inf`.
pub(crate) fn fmt_float(
    f: &mut dyn fmt::Write,
    x: f64,
    digits: FloatDigits,
    t: PrimType,
) -> fmt::Result {
    if x.is_nan() {
        write!(f, "{t}.nan")
    } else if x.is_infinite() {
        if x < 0.0 {
            write!(f, "-{t}.inf")
        } else {
            write!(f, "{t}.inf")
        }
    } else {
        // `Debug` for floats prints the shortest representation that reads
        // back to the same value, with an exponent for very large or small
        // magnitudes (`1e-7`), and always a `.0` or exponent otherwise.
        match digits {
            FloatDigits::F32(y) => write!(f, "{y:?}{t}"),
            FloatDigits::F64(y) => write!(f, "{y:?}{t}"),
        }
    }
}

/// Which precision to print a float's digits at.
#[derive(Clone, Copy)]
pub(crate) enum FloatDigits {
    F32(f32),
    F64(f64),
}

impl fmt::Display for PrimValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.prim_type();
        match *self {
            PrimValue::I8(x) => write!(f, "{x}{t}"),
            PrimValue::I16(x) => write!(f, "{x}{t}"),
            PrimValue::I32(x) => write!(f, "{x}{t}"),
            PrimValue::I64(x) => write!(f, "{x}{t}"),
            PrimValue::U8(x) => write!(f, "{x}{t}"),
            PrimValue::U16(x) => write!(f, "{x}{t}"),
            PrimValue::U32(x) => write!(f, "{x}{t}"),
            PrimValue::U64(x) => write!(f, "{x}{t}"),
            // Every f16 is exactly an f32, and the shortest f32 digits read
            // back (through f64 and rounding to f16) to the same f16.
            PrimValue::F16(x) => fmt_float(f, x.to_f64(), FloatDigits::F32(x.to_f32()), t),
            PrimValue::F32(x) => fmt_float(f, f64::from(x), FloatDigits::F32(x), t),
            PrimValue::F64(x) => fmt_float(f, x, FloatDigits::F64(x), t),
            PrimValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

macro_rules! prim_from {
    ($($t:ty => $v:ident),*) => {
        $(impl From<$t> for PrimValue {
            fn from(x: $t) -> Self {
                PrimValue::$v(x)
            }
        })*
    };
}

prim_from!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, f16 => F16, f32 => F32, f64 => F64, bool => Bool);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for t in PrimType::ALL {
            assert_eq!(t.name().parse::<PrimType>(), Ok(t));
            assert_eq!(t.to_string(), t.name());
            assert_eq!(PrimType::from_binary_tag(t.binary_tag()), Some(t));
        }
        assert!("i33".parse::<PrimType>().is_err());
    }

    #[test]
    fn binary_tags_are_right_aligned() {
        assert_eq!(&PrimType::I8.binary_tag(), b"  i8");
        assert_eq!(&PrimType::I32.binary_tag(), b" i32");
        assert_eq!(&PrimType::F16.binary_tag(), b" f16");
        assert_eq!(&PrimType::Bool.binary_tag(), b"bool");
    }

    #[test]
    fn scalar_display() {
        assert_eq!(PrimValue::I32(-5).to_string(), "-5i32");
        assert_eq!(PrimValue::U8(255).to_string(), "255u8");
        assert_eq!(PrimValue::F64(2.5).to_string(), "2.5f64");
        assert_eq!(PrimValue::F64(1.0).to_string(), "1.0f64");
        assert_eq!(PrimValue::F32(0.1).to_string(), "0.1f32");
        assert_eq!(PrimValue::F64(1e-7).to_string(), "1e-7f64");
        assert_eq!(PrimValue::F32(f32::NAN).to_string(), "f32.nan");
        assert_eq!(PrimValue::F32(f32::NEG_INFINITY).to_string(), "-f32.inf");
        assert_eq!(PrimValue::F64(f64::INFINITY).to_string(), "f64.inf");
        assert_eq!(PrimValue::F16(f16::from_f32(0.5)).to_string(), "0.5f16");
        assert_eq!(PrimValue::Bool(true).to_string(), "true");
    }

    #[test]
    fn integer_fitting() {
        assert_eq!(
            PrimValue::int_of_type(PrimType::U8, 255),
            Some(PrimValue::U8(255))
        );
        assert_eq!(PrimValue::int_of_type(PrimType::U8, 256), None);
        assert_eq!(PrimValue::int_of_type(PrimType::U8, -1), None);
        assert_eq!(
            PrimValue::int_of_type(PrimType::I64, i64::MIN as i128),
            Some(PrimValue::I64(i64::MIN))
        );
        assert_eq!(PrimValue::int_of_type(PrimType::F32, 1), None);
    }
}
