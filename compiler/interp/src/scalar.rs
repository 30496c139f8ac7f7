//! Primitive scalars and their arithmetic, with Futhark's semantics.
//!
//! Integers wrap at every width; `/` and `%` round towards negative infinity, `//` and
//! `%%` truncate; shifts by at least the bit width give zero (or the sign for an
//! arithmetic right shift). Floats follow IEEE, with `f16` computed in `f32` and
//! rounded. A float may carry an automatic-differentiation tag ([`Scalar::Ad`]); the
//! AD-aware wrappers live in [`crate::ops`], this module only handles plain values.

use std::rc::Rc;

use half::f16;
use syntax::ast::PrimType;

use crate::ad::AdNum;

/// A primitive value, or a float tagged for differentiation.
#[derive(Clone, Debug)]
pub enum Scalar {
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F16(f16),
    F32(f32),
    F64(f64),
    Bool(bool),
    /// A float carrying a derivative at some perturbation level.
    Ad(Rc<AdNum>),
}

/// A binary operator on scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// `/`: floor division on integers.
    Div,
    /// `%`: floor modulo on integers, `fmod` on floats.
    Mod,
    /// `//`: truncating division.
    Quot,
    /// `%%`: truncating remainder.
    Rem,
    Pow,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    /// `>>`: arithmetic on signed types.
    Shr,
    /// `>>>`: logical.
    UShr,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    LogAnd,
    LogOr,
    Min,
    Max,
    Atan2,
    Hypot,
    CopySign,
    NextAfter,
    /// High half of the double-width product (integers).
    MulHi,
}

impl BinOp {
    /// The builtin operator written as `s`, if any.
    pub fn from_symbol(s: &str) -> Option<BinOp> {
        Some(match s {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "/" => BinOp::Div,
            "%" => BinOp::Mod,
            "//" => BinOp::Quot,
            "%%" => BinOp::Rem,
            "**" => BinOp::Pow,
            "&" => BinOp::BitAnd,
            "|" => BinOp::BitOr,
            "^" => BinOp::BitXor,
            "<<" => BinOp::Shl,
            ">>" => BinOp::Shr,
            ">>>" => BinOp::UShr,
            "==" => BinOp::Eq,
            "!=" => BinOp::Neq,
            "<" => BinOp::Lt,
            "<=" => BinOp::Le,
            ">" => BinOp::Gt,
            ">=" => BinOp::Ge,
            "&&" => BinOp::LogAnd,
            "||" => BinOp::LogOr,
            _ => return None,
        })
    }

    /// Comparisons and logical operators: they see through derivatives.
    pub fn is_predicate(self) -> bool {
        matches!(
            self,
            BinOp::Eq
                | BinOp::Neq
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::LogAnd
                | BinOp::LogOr
        )
    }
}

/// A unary operator or math function on scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    /// `!`: logical not on bools, bitwise complement on integers.
    Not,
    Abs,
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
    /// The polygamma function of the given order (0 is digamma).
    Polygamma(u8),
    Floor,
    Ceil,
    Round,
    Trunc,
    IsNan,
    IsInf,
    Popc,
    Clz,
    Ctz,
}

impl UnOp {
    /// Operators with a derivative of zero almost everywhere or a non-float result:
    /// they are computed on the primal and the result carries no derivative.
    pub fn is_piecewise_constant(self) -> bool {
        matches!(
            self,
            UnOp::Signum
                | UnOp::Floor
                | UnOp::Ceil
                | UnOp::Round
                | UnOp::Trunc
                | UnOp::IsNan
                | UnOp::IsInf
                | UnOp::Popc
                | UnOp::Clz
                | UnOp::Ctz
                | UnOp::Not
        )
    }
}

/// The bit width of an integer type.
pub fn int_bits(t: PrimType) -> u32 {
    match t {
        PrimType::I8 | PrimType::U8 => 8,
        PrimType::I16 | PrimType::U16 | PrimType::F16 => 16,
        PrimType::I32 | PrimType::U32 | PrimType::F32 => 32,
        PrimType::I64 | PrimType::U64 | PrimType::F64 => 64,
        PrimType::Bool => 1,
    }
}

impl Scalar {
    /// The primitive type (for a tagged float, that of its innermost primal).
    pub fn prim_type(&self) -> PrimType {
        match self {
            Scalar::I8(_) => PrimType::I8,
            Scalar::I16(_) => PrimType::I16,
            Scalar::I32(_) => PrimType::I32,
            Scalar::I64(_) => PrimType::I64,
            Scalar::U8(_) => PrimType::U8,
            Scalar::U16(_) => PrimType::U16,
            Scalar::U32(_) => PrimType::U32,
            Scalar::U64(_) => PrimType::U64,
            Scalar::F16(_) => PrimType::F16,
            Scalar::F32(_) => PrimType::F32,
            Scalar::F64(_) => PrimType::F64,
            Scalar::Bool(_) => PrimType::Bool,
            Scalar::Ad(a) => a.primal.prim_type(),
        }
    }

    /// The value without any derivative tags.
    pub fn strip(&self) -> Scalar {
        match self {
            Scalar::Ad(a) => a.primal.strip(),
            s => s.clone(),
        }
    }

    /// An integer (or bool) as `i128`; floats give `None`.
    pub fn as_i128(&self) -> Option<i128> {
        Some(match *self {
            Scalar::I8(x) => x as i128,
            Scalar::I16(x) => x as i128,
            Scalar::I32(x) => x as i128,
            Scalar::I64(x) => x as i128,
            Scalar::U8(x) => x as i128,
            Scalar::U16(x) => x as i128,
            Scalar::U32(x) => x as i128,
            Scalar::U64(x) => x as i128,
            Scalar::Bool(b) => b as i128,
            Scalar::Ad(ref a) => return a.primal.as_i128(),
            _ => return None,
        })
    }

    /// Any numeric value as `f64` (derivative tags ignored).
    pub fn as_f64(&self) -> Option<f64> {
        Some(match self {
            Scalar::F16(x) => x.to_f64(),
            Scalar::F32(x) => *x as f64,
            Scalar::F64(x) => *x,
            Scalar::Ad(a) => return a.primal.as_f64(),
            s => return s.as_i128().map(|x| x as f64),
        })
    }

    /// The value as a bool, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Scalar::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// An integer of type `t` from `x`, wrapping; for a float type the nearest float,
    /// for bool `x != 0`.
    pub fn from_i128(t: PrimType, x: i128) -> Scalar {
        match t {
            PrimType::I8 => Scalar::I8(x as i8),
            PrimType::I16 => Scalar::I16(x as i16),
            PrimType::I32 => Scalar::I32(x as i32),
            PrimType::I64 => Scalar::I64(x as i64),
            PrimType::U8 => Scalar::U8(x as u8),
            PrimType::U16 => Scalar::U16(x as u16),
            PrimType::U32 => Scalar::U32(x as u32),
            PrimType::U64 => Scalar::U64(x as u64),
            PrimType::F16 => Scalar::F16(f16::from_f32(x as f32)),
            PrimType::F32 => Scalar::F32(x as f32),
            PrimType::F64 => Scalar::F64(x as f64),
            PrimType::Bool => Scalar::Bool(x != 0),
        }
    }

    /// A value of type `t` from a float: rounded for float types, truncated towards
    /// zero and wrapped for integers (NaN gives 0), `x != 0` for bool.
    pub fn from_f64(t: PrimType, x: f64) -> Scalar {
        match t {
            PrimType::F16 => Scalar::F16(f16::from_f64(x)),
            PrimType::F32 => Scalar::F32(x as f32),
            PrimType::F64 => Scalar::F64(x),
            PrimType::Bool => Scalar::Bool(x != 0.0),
            _ => {
                let (lo, hi) = int_range(t);
                Scalar::from_i128(t, float_to_i128(x).clamp(lo, hi))
            }
        }
    }

    /// The zero of type `t` (`false` for bool).
    pub fn zero(t: PrimType) -> Scalar {
        Scalar::from_i128(t, 0)
    }

    /// Is this a float (tagged or not)?
    pub fn is_float(&self) -> bool {
        self.prim_type().is_float()
    }

    /// Does this scalar carry derivatives under AD? Floats and integers do (integer
    /// derivatives use integer arithmetic); bools do not.
    pub fn is_differentiable(&self) -> bool {
        self.prim_type() != PrimType::Bool
    }
}

/// Truncates towards zero; NaN and infinities give 0 (callers saturate finite values).
fn float_to_i128(x: f64) -> i128 {
    if x.is_finite() { x.trunc() as i128 } else { 0 }
}

/// The least and greatest values of an integer type.
pub fn int_range(t: PrimType) -> (i128, i128) {
    match t {
        PrimType::I8 => (i8::MIN as i128, i8::MAX as i128),
        PrimType::I16 => (i16::MIN as i128, i16::MAX as i128),
        PrimType::I32 => (i32::MIN as i128, i32::MAX as i128),
        PrimType::I64 => (i64::MIN as i128, i64::MAX as i128),
        PrimType::U8 => (0, u8::MAX as i128),
        PrimType::U16 => (0, u16::MAX as i128),
        PrimType::U32 => (0, u32::MAX as i128),
        PrimType::U64 => (0, u64::MAX as i128),
        _ => (0, 1),
    }
}

/// Converts a plain (untagged) scalar to type `to`.
pub fn convert_plain(x: &Scalar, to: PrimType) -> Scalar {
    match x {
        Scalar::F16(_) | Scalar::F32(_) | Scalar::F64(_) => {
            let f = x.as_f64().unwrap_or(0.0);
            match (x, to) {
                (Scalar::F32(v), PrimType::F16) => Scalar::F16(f16::from_f32(*v)),
                _ => Scalar::from_f64(to, f),
            }
        }
        Scalar::Ad(a) => convert_plain(&a.primal, to),
        _ => {
            let i = x.as_i128().unwrap_or(0);
            Scalar::from_i128(to, i)
        }
    }
}

fn float_bin(op: BinOp, t: PrimType, a: f64, b: f64) -> Result<Scalar, String> {
    let r = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div | BinOp::Quot => a / b,
        BinOp::Mod | BinOp::Rem => a % b,
        BinOp::Pow => a.powf(b),
        BinOp::Min => {
            if a.is_nan() {
                b
            } else if b.is_nan() {
                a
            } else {
                a.min(b)
            }
        }
        BinOp::Max => {
            if a.is_nan() {
                b
            } else if b.is_nan() {
                a
            } else {
                a.max(b)
            }
        }
        BinOp::Atan2 => a.atan2(b),
        BinOp::Hypot => a.hypot(b),
        BinOp::CopySign => a.copysign(b),
        BinOp::NextAfter => return Ok(next_after(t, a, b)),
        BinOp::Eq => return Ok(Scalar::Bool(a == b)),
        BinOp::Neq => return Ok(Scalar::Bool(a != b)),
        BinOp::Lt => return Ok(Scalar::Bool(a < b)),
        BinOp::Le => return Ok(Scalar::Bool(a <= b)),
        BinOp::Gt => return Ok(Scalar::Bool(a > b)),
        BinOp::Ge => return Ok(Scalar::Bool(a >= b)),
        _ => return Err(format!("operator {op:?} is not defined on {t}")),
    };
    Ok(Scalar::from_f64(t, r))
}

/// f32 arithmetic done in f32 so that results round exactly as in f32.
fn f32_bin(op: BinOp, a: f32, b: f32) -> Result<Scalar, String> {
    let r = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div | BinOp::Quot => a / b,
        BinOp::Mod | BinOp::Rem => a % b,
        BinOp::Pow => a.powf(b),
        BinOp::Atan2 => a.atan2(b),
        BinOp::Hypot => a.hypot(b),
        _ => return float_bin(op, PrimType::F32, a as f64, b as f64),
    };
    Ok(Scalar::F32(r))
}

fn next_after(t: PrimType, a: f64, b: f64) -> Scalar {
    match t {
        PrimType::F32 => {
            let (a, b) = (a as f32, b as f32);
            Scalar::F32(if a.is_nan() || b.is_nan() {
                f32::NAN
            } else if a == b {
                b
            } else if a == 0.0 {
                f32::from_bits(1).copysign(b)
            } else if (a < b) == (a > 0.0) {
                f32::from_bits(a.to_bits() + 1)
            } else {
                f32::from_bits(a.to_bits() - 1)
            })
        }
        PrimType::F16 => {
            let (x, y) = (f16::from_f64(a), f16::from_f64(b));
            Scalar::F16(if x.is_nan() || y.is_nan() {
                f16::NAN
            } else if x == y {
                y
            } else if x.to_f32() == 0.0 {
                let tiny = f16::from_bits(1);
                if b < 0.0 { -tiny } else { tiny }
            } else if (a < b) == (a > 0.0) {
                f16::from_bits(x.to_bits() + 1)
            } else {
                f16::from_bits(x.to_bits() - 1)
            })
        }
        _ => Scalar::F64(if a.is_nan() || b.is_nan() {
            f64::NAN
        } else if a == b {
            b
        } else if a == 0.0 {
            f64::from_bits(1).copysign(b)
        } else if (a < b) == (a > 0.0) {
            f64::from_bits(a.to_bits() + 1)
        } else {
            f64::from_bits(a.to_bits() - 1)
        }),
    }
}

fn int_bin(op: BinOp, t: PrimType, a: i128, b: i128) -> Result<Scalar, String> {
    let bits = int_bits(t);
    let unsigned = t.is_unsigned();
    let r = match op {
        BinOp::Add => a.wrapping_add(b),
        BinOp::Sub => a.wrapping_sub(b),
        BinOp::Mul => a.wrapping_mul(b),
        BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem => {
            if b == 0 {
                return Err("Division by zero".to_string());
            }
            match op {
                BinOp::Div => a.div_euclid(b) - if b < 0 && a.rem_euclid(b) != 0 { 1 } else { 0 },
                BinOp::Mod => {
                    let r = a % b;
                    if r != 0 && ((r < 0) != (b < 0)) {
                        r + b
                    } else {
                        r
                    }
                }
                BinOp::Quot => a / b,
                _ => a % b,
            }
        }
        BinOp::Pow => {
            if b < 0 {
                return Err("Negative exponent".to_string());
            }
            let mut base = a;
            let mut e = b;
            let mut acc: i128 = 1;
            while e > 0 {
                if e & 1 == 1 {
                    acc = wrap(t, acc.wrapping_mul(base));
                }
                base = wrap(t, base.wrapping_mul(base));
                e >>= 1;
            }
            acc
        }
        BinOp::BitAnd => a & b,
        BinOp::BitOr => a | b,
        BinOp::BitXor => a ^ b,
        BinOp::Shl => {
            if b < 0 || b >= bits as i128 {
                0
            } else {
                a << b
            }
        }
        BinOp::Shr => {
            if b < 0 || b >= bits as i128 {
                if a < 0 { -1 } else { 0 }
            } else {
                a >> b
            }
        }
        BinOp::UShr => {
            let ua = if unsigned {
                a
            } else {
                a & ((1i128 << bits) - 1)
            };
            if b < 0 || b >= bits as i128 {
                0
            } else {
                ua >> b
            }
        }
        BinOp::Min => a.min(b),
        BinOp::Max => a.max(b),
        BinOp::MulHi => {
            let p = if bits == 64 && unsigned {
                let p = (a as u128).wrapping_mul(b as u128);
                return Ok(Scalar::from_i128(t, (p >> 64) as i128));
            } else {
                a.wrapping_mul(b)
            };
            p >> bits
        }
        BinOp::Eq => return Ok(Scalar::Bool(a == b)),
        BinOp::Neq => return Ok(Scalar::Bool(a != b)),
        BinOp::Lt => return Ok(Scalar::Bool(a < b)),
        BinOp::Le => return Ok(Scalar::Bool(a <= b)),
        BinOp::Gt => return Ok(Scalar::Bool(a > b)),
        BinOp::Ge => return Ok(Scalar::Bool(a >= b)),
        _ => return Err(format!("operator {op:?} is not defined on {t}")),
    };
    Ok(Scalar::from_i128(t, r))
}

/// Wraps `x` to the range of integer type `t`, as an `i128`.
fn wrap(t: PrimType, x: i128) -> i128 {
    Scalar::from_i128(t, x).as_i128().unwrap_or(0)
}

/// A binary operator on untagged scalars of the same type.
pub fn binop_plain(op: BinOp, a: &Scalar, b: &Scalar) -> Result<Scalar, String> {
    // The most common cases, without the detour through `i128`.
    match (op, a, b) {
        (BinOp::Add, Scalar::I64(x), Scalar::I64(y)) => return Ok(Scalar::I64(x.wrapping_add(*y))),
        (BinOp::Sub, Scalar::I64(x), Scalar::I64(y)) => return Ok(Scalar::I64(x.wrapping_sub(*y))),
        (BinOp::Mul, Scalar::I64(x), Scalar::I64(y)) => return Ok(Scalar::I64(x.wrapping_mul(*y))),
        (BinOp::Lt, Scalar::I64(x), Scalar::I64(y)) => return Ok(Scalar::Bool(x < y)),
        (BinOp::Eq, Scalar::I64(x), Scalar::I64(y)) => return Ok(Scalar::Bool(x == y)),
        (BinOp::Add, Scalar::I32(x), Scalar::I32(y)) => return Ok(Scalar::I32(x.wrapping_add(*y))),
        (BinOp::Sub, Scalar::I32(x), Scalar::I32(y)) => return Ok(Scalar::I32(x.wrapping_sub(*y))),
        (BinOp::Mul, Scalar::I32(x), Scalar::I32(y)) => return Ok(Scalar::I32(x.wrapping_mul(*y))),
        (BinOp::Lt, Scalar::I32(x), Scalar::I32(y)) => return Ok(Scalar::Bool(x < y)),
        (BinOp::Eq, Scalar::I32(x), Scalar::I32(y)) => return Ok(Scalar::Bool(x == y)),
        (BinOp::Add, Scalar::F64(x), Scalar::F64(y)) => return Ok(Scalar::F64(x + y)),
        (BinOp::Sub, Scalar::F64(x), Scalar::F64(y)) => return Ok(Scalar::F64(x - y)),
        (BinOp::Mul, Scalar::F64(x), Scalar::F64(y)) => return Ok(Scalar::F64(x * y)),
        (BinOp::Add, Scalar::F32(x), Scalar::F32(y)) => return Ok(Scalar::F32(x + y)),
        (BinOp::Sub, Scalar::F32(x), Scalar::F32(y)) => return Ok(Scalar::F32(x - y)),
        (BinOp::Mul, Scalar::F32(x), Scalar::F32(y)) => return Ok(Scalar::F32(x * y)),
        _ => {}
    }
    match (a, b) {
        (Scalar::Bool(x), Scalar::Bool(y)) => {
            let r = match op {
                BinOp::LogAnd | BinOp::BitAnd | BinOp::Min => x & y,
                BinOp::LogOr | BinOp::BitOr | BinOp::Max => x | y,
                BinOp::BitXor | BinOp::Neq => x ^ y,
                BinOp::Eq => x == y,
                BinOp::Lt => !x & y,
                BinOp::Le => x <= y,
                BinOp::Gt => x & !y,
                BinOp::Ge => x >= y,
                _ => return Err(format!("operator {op:?} is not defined on bool")),
            };
            Ok(Scalar::Bool(r))
        }
        (Scalar::F64(x), Scalar::F64(y)) => float_bin(op, PrimType::F64, *x, *y),
        (Scalar::F32(x), Scalar::F32(y)) => f32_bin(op, *x, *y),
        (Scalar::F16(x), Scalar::F16(y)) => float_bin(op, PrimType::F16, x.to_f64(), y.to_f64()),
        _ => {
            let t = a.prim_type();
            if t != b.prim_type() {
                // Shift amounts and the like may come at another integer type.
                if let (Some(x), Some(y)) = (a.as_i128(), b.as_i128())
                    && t.is_integral()
                {
                    return int_bin(op, t, x, y);
                }
                return Err(format!(
                    "operands of {op:?} have different types {t} and {}",
                    b.prim_type()
                ));
            }
            match (a.as_i128(), b.as_i128()) {
                (Some(x), Some(y)) => int_bin(op, t, x, y),
                _ => Err(format!("operator {op:?} is not defined on {t}")),
            }
        }
    }
}

/// A unary operator on an untagged scalar.
pub fn unop_plain(op: UnOp, a: &Scalar) -> Result<Scalar, String> {
    let t = a.prim_type();
    if t == PrimType::Bool {
        return match (op, a) {
            (UnOp::Not, Scalar::Bool(b)) => Ok(Scalar::Bool(!b)),
            _ => Err(format!("{op:?} is not defined on bool")),
        };
    }
    if let Some(x) = a.as_i128() {
        let bits = int_bits(t);
        let ubits = if t.is_unsigned() {
            x
        } else {
            x & ((1i128 << bits) - 1)
        };
        let r = match op {
            UnOp::Neg => x.wrapping_neg(),
            UnOp::Not => !x,
            UnOp::Abs => x.abs(),
            UnOp::Signum => x.signum(),
            UnOp::Popc => ubits.count_ones() as i128,
            UnOp::Clz => {
                if ubits == 0 {
                    bits as i128
                } else {
                    (bits - (128 - ubits.leading_zeros())) as i128
                }
            }
            UnOp::Ctz => {
                if ubits == 0 {
                    bits as i128
                } else {
                    ubits.trailing_zeros() as i128
                }
            }
            _ => return Err(format!("{op:?} is not defined on {t}")),
        };
        let ty = if matches!(op, UnOp::Popc | UnOp::Clz | UnOp::Ctz) {
            PrimType::I32
        } else {
            t
        };
        return Ok(Scalar::from_i128(ty, r));
    }
    if let Scalar::F32(x) = a {
        return Ok(match op {
            UnOp::IsNan => Scalar::Bool(x.is_nan()),
            UnOp::IsInf => Scalar::Bool(x.is_infinite()),
            _ => Scalar::F32(float_un32(op, *x)?),
        });
    }
    let x = a.as_f64().unwrap_or(0.0);
    Ok(match op {
        UnOp::IsNan => Scalar::Bool(x.is_nan()),
        UnOp::IsInf => Scalar::Bool(x.is_infinite()),
        _ => {
            if t == PrimType::F16 {
                Scalar::F16(f16::from_f32(float_un32(op, x as f32)?))
            } else {
                Scalar::F64(float_un64(op, x)?)
            }
        }
    })
}

fn float_un64(op: UnOp, x: f64) -> Result<f64, String> {
    Ok(match op {
        UnOp::Neg => -x,
        UnOp::Abs => x.abs(),
        UnOp::Signum => {
            if x.is_nan() {
                x
            } else if x == 0.0 {
                0.0
            } else {
                x.signum()
            }
        }
        UnOp::Sqrt => x.sqrt(),
        UnOp::Cbrt => x.cbrt(),
        UnOp::Exp => x.exp(),
        UnOp::Exp2 => x.exp2(),
        UnOp::Exp10 => 10f64.powf(x),
        UnOp::Expm1 => x.exp_m1(),
        UnOp::Log => x.ln(),
        UnOp::Log2 => x.log2(),
        UnOp::Log10 => x.log10(),
        UnOp::Log1p => x.ln_1p(),
        UnOp::Sin => x.sin(),
        UnOp::Cos => x.cos(),
        UnOp::Tan => x.tan(),
        UnOp::Asin => x.asin(),
        UnOp::Acos => x.acos(),
        UnOp::Atan => x.atan(),
        UnOp::Sinh => x.sinh(),
        UnOp::Cosh => x.cosh(),
        UnOp::Tanh => x.tanh(),
        UnOp::Asinh => x.asinh(),
        UnOp::Acosh => x.acosh(),
        UnOp::Atanh => x.atanh(),
        UnOp::Erf => libm::erf(x),
        UnOp::Erfc => libm::erfc(x),
        UnOp::Gamma => libm::tgamma(x),
        UnOp::Lgamma => libm::lgamma(x),
        UnOp::Polygamma(n) => crate::special::polygamma(n, x),
        UnOp::Floor => x.floor(),
        UnOp::Ceil => x.ceil(),
        UnOp::Round => x.round_ties_even(),
        UnOp::Trunc => x.trunc(),
        _ => return Err(format!("{op:?} is not defined on floats")),
    })
}

fn float_un32(op: UnOp, x: f32) -> Result<f32, String> {
    Ok(match op {
        UnOp::Neg => -x,
        UnOp::Abs => x.abs(),
        UnOp::Sqrt => x.sqrt(),
        UnOp::Cbrt => x.cbrt(),
        UnOp::Exp => x.exp(),
        UnOp::Exp2 => x.exp2(),
        UnOp::Expm1 => x.exp_m1(),
        UnOp::Log => x.ln(),
        UnOp::Log2 => x.log2(),
        UnOp::Log10 => x.log10(),
        UnOp::Log1p => x.ln_1p(),
        UnOp::Sin => x.sin(),
        UnOp::Cos => x.cos(),
        UnOp::Tan => x.tan(),
        UnOp::Asin => x.asin(),
        UnOp::Acos => x.acos(),
        UnOp::Atan => x.atan(),
        UnOp::Sinh => x.sinh(),
        UnOp::Cosh => x.cosh(),
        UnOp::Tanh => x.tanh(),
        UnOp::Asinh => x.asinh(),
        UnOp::Acosh => x.acosh(),
        UnOp::Atanh => x.atanh(),
        UnOp::Erf => libm::erff(x),
        UnOp::Erfc => libm::erfcf(x),
        UnOp::Gamma => libm::tgammaf(x),
        UnOp::Lgamma => libm::lgammaf(x),
        UnOp::Floor => x.floor(),
        UnOp::Ceil => x.ceil(),
        UnOp::Round => x.round_ties_even(),
        UnOp::Trunc => x.trunc(),
        _ => float_un64(op, x as f64)? as f32,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32s(op: BinOp, a: i32, b: i32) -> Result<i32, String> {
        match binop_plain(op, &Scalar::I32(a), &Scalar::I32(b))? {
            Scalar::I32(r) => Ok(r),
            s => Err(format!("{s:?}")),
        }
    }

    #[test]
    fn division_rounds_towards_negative_infinity() {
        assert_eq!(i32s(BinOp::Div, 7, 2), Ok(3));
        assert_eq!(i32s(BinOp::Div, -7, 2), Ok(-4));
        assert_eq!(i32s(BinOp::Div, 7, -2), Ok(-4));
        assert_eq!(i32s(BinOp::Div, -7, -2), Ok(3));
        assert_eq!(i32s(BinOp::Mod, -7, 2), Ok(1));
        assert_eq!(i32s(BinOp::Mod, 7, -2), Ok(-1));
        assert_eq!(i32s(BinOp::Mod, -7, -2), Ok(-1));
        assert_eq!(i32s(BinOp::Quot, -7, 2), Ok(-3));
        assert_eq!(i32s(BinOp::Rem, -7, 2), Ok(-1));
        assert_eq!(i32s(BinOp::Rem, 7, -2), Ok(1));
        assert_eq!(i32s(BinOp::Div, i32::MIN, -1), Ok(i32::MIN));
        assert_eq!(i32s(BinOp::Div, 1, 0), Err("Division by zero".into()));
        assert_eq!(i32s(BinOp::Rem, 1, 0), Err("Division by zero".into()));
    }

    #[test]
    fn integers_wrap() {
        assert_eq!(i32s(BinOp::Add, i32::MAX, 1), Ok(i32::MIN));
        assert_eq!(i32s(BinOp::Mul, 65536, 65536), Ok(0));
        let r = binop_plain(BinOp::Add, &Scalar::U8(250), &Scalar::U8(10)).unwrap();
        assert!(matches!(r, Scalar::U8(4)));
        let r = binop_plain(BinOp::Sub, &Scalar::U64(0), &Scalar::U64(1)).unwrap();
        assert!(matches!(r, Scalar::U64(u64::MAX)));
        let r = binop_plain(BinOp::Mul, &Scalar::U64(u64::MAX), &Scalar::U64(u64::MAX)).unwrap();
        assert!(matches!(r, Scalar::U64(1)));
        assert_eq!(i32s(BinOp::Pow, 2, 10), Ok(1024));
        assert_eq!(i32s(BinOp::Pow, 2, 31), Ok(i32::MIN));
        assert_eq!(i32s(BinOp::Pow, 3, 0), Ok(1));
    }

    #[test]
    fn shifts() {
        assert_eq!(i32s(BinOp::Shl, 1, 31), Ok(i32::MIN));
        assert_eq!(i32s(BinOp::Shl, 1, 32), Ok(0));
        assert_eq!(i32s(BinOp::Shr, -8, 1), Ok(-4));
        assert_eq!(i32s(BinOp::Shr, -8, 40), Ok(-1));
        assert_eq!(i32s(BinOp::UShr, -8, 28), Ok(15));
        let r = binop_plain(BinOp::Shr, &Scalar::U8(0x80), &Scalar::U8(7)).unwrap();
        assert!(matches!(r, Scalar::U8(1)));
        assert_eq!(i32s(BinOp::BitAnd, -1, 12), Ok(12));
        assert_eq!(i32s(BinOp::BitXor, 5, 3), Ok(6));
    }

    #[test]
    fn conversions() {
        assert!(matches!(
            convert_plain(&Scalar::F64(-2.7), PrimType::I32),
            Scalar::I32(-2)
        ));
        assert!(matches!(
            convert_plain(&Scalar::F64(300.0), PrimType::U8),
            Scalar::U8(255)
        ));
        assert!(matches!(
            convert_plain(&Scalar::F64(-1.5), PrimType::U8),
            Scalar::U8(0)
        ));
        assert!(matches!(
            convert_plain(&Scalar::F64(300.0), PrimType::I8),
            Scalar::I8(127)
        ));
        assert!(matches!(
            convert_plain(&Scalar::F64(f64::NAN), PrimType::I32),
            Scalar::I32(0)
        ));
        assert!(matches!(
            convert_plain(&Scalar::F64(f64::NAN), PrimType::Bool),
            Scalar::Bool(true)
        ));
        assert!(matches!(
            convert_plain(&Scalar::I32(-1), PrimType::U16),
            Scalar::U16(65535)
        ));
        assert!(matches!(
            convert_plain(&Scalar::U8(200), PrimType::I8),
            Scalar::I8(-56)
        ));
        assert!(matches!(
            convert_plain(&Scalar::Bool(true), PrimType::F32),
            Scalar::F32(1.0)
        ));
        assert!(matches!(
            convert_plain(&Scalar::I64(3), PrimType::Bool),
            Scalar::Bool(true)
        ));
        match convert_plain(&Scalar::F64(0.1), PrimType::F16) {
            Scalar::F16(h) => assert!((h.to_f64() - 0.1).abs() < 1e-3),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn bit_counts_and_float_ops() {
        let r = unop_plain(UnOp::Popc, &Scalar::I8(-1)).unwrap();
        assert!(matches!(r, Scalar::I32(8)));
        let r = unop_plain(UnOp::Clz, &Scalar::U32(1)).unwrap();
        assert!(matches!(r, Scalar::I32(31)));
        let r = unop_plain(UnOp::Ctz, &Scalar::I64(0)).unwrap();
        assert!(matches!(r, Scalar::I32(64)));
        let r = unop_plain(UnOp::Round, &Scalar::F64(2.5)).unwrap();
        assert!(matches!(r, Scalar::F64(2.0)));
        let r = binop_plain(BinOp::Min, &Scalar::F64(f64::NAN), &Scalar::F64(1.0)).unwrap();
        assert!(matches!(r, Scalar::F64(1.0)));
        let r = binop_plain(BinOp::Mod, &Scalar::F64(-7.5), &Scalar::F64(2.0)).unwrap();
        assert!(matches!(r, Scalar::F64(-1.5)));
        let r = unop_plain(UnOp::Neg, &Scalar::U8(1)).unwrap();
        assert!(matches!(r, Scalar::U8(255)));
        let r = binop_plain(BinOp::MulHi, &Scalar::U64(u64::MAX), &Scalar::U64(2)).unwrap();
        assert!(matches!(r, Scalar::U64(1)));
    }
}
