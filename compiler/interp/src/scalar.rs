//! Primitive scalars and their arithmetic, with Futhark's semantics.
//!
//! The semantics (integers wrap at every width; `/` and `%` round towards negative
//! infinity, `//` and `%%` truncate; shifts by at least the bit width give zero, or the
//! sign for an arithmetic right shift; float to integer conversion wraps) are those
//! of [`values::scalar`], shared with the IR interpreter; this module maps the
//! interpreter's [`Scalar`]s and operators onto them. Floats follow IEEE, with `f32`
//! computed in `f32`, and `f16` computed in `f32` and rounded. A float may carry an automatic-differentiation tag ([`Scalar::Ad`]); the
//! AD-aware wrappers live in [`crate::ops`], this module only handles plain values.

use std::rc::Rc;

use half::f16;
use syntax::ast::PrimType;
use values::scalar::{self as sem, ArithError, FloatBinOp, FloatFn, IntBinOp, IntUnOp};

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

/// The bit width of a primitive type (1 for bool).
pub fn int_bits(t: PrimType) -> u32 {
    sem::bits(vt(t))
}

/// The `values` crate's name for a primitive type.
fn vt(t: PrimType) -> values::PrimType {
    crate::convert::prim_to_values(t)
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
            _ => Scalar::from_i128(t, sem::float_to_int(vt(t), x)),
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

/// The least and greatest values of an integer type.
pub fn int_range(t: PrimType) -> (i128, i128) {
    sem::int_range(vt(t))
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
            let from = x.prim_type();
            if from.is_integral() && to.is_integral() {
                Scalar::from_i128(to, sem::int_to_int(vt(from), vt(to), i))
            } else {
                Scalar::from_i128(to, i)
            }
        }
    }
}

/// The float operation of a binary operator, if it has one.
fn float_op(op: BinOp) -> Option<FloatBinOp> {
    Some(match op {
        BinOp::Add => FloatBinOp::Add,
        BinOp::Sub => FloatBinOp::Sub,
        BinOp::Mul => FloatBinOp::Mul,
        BinOp::Div | BinOp::Quot => FloatBinOp::Div,
        BinOp::Mod | BinOp::Rem => FloatBinOp::Mod,
        BinOp::Pow => FloatBinOp::Pow,
        BinOp::Min => FloatBinOp::Min,
        BinOp::Max => FloatBinOp::Max,
        BinOp::Atan2 => FloatBinOp::Atan2,
        BinOp::Hypot => FloatBinOp::Hypot,
        BinOp::CopySign => FloatBinOp::CopySign,
        _ => return None,
    })
}

/// A comparison of two values of one type, if `op` is one.
fn compare<T: PartialOrd>(op: BinOp, a: T, b: T) -> Option<Scalar> {
    Some(Scalar::Bool(match op {
        BinOp::Eq => a == b,
        BinOp::Neq => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        BinOp::Ge => a >= b,
        _ => return None,
    }))
}

fn float_bin(op: BinOp, t: PrimType, a: f64, b: f64) -> Result<Scalar, String> {
    if let Some(f) = float_op(op) {
        return Ok(Scalar::from_f64(t, sem::float_binop(f, a, b)));
    }
    if op == BinOp::NextAfter {
        return Ok(match t {
            PrimType::F32 => Scalar::F32(sem::next_after_f32(a as f32, b as f32)),
            PrimType::F16 => Scalar::F16(sem::next_after_f16(f16::from_f64(a), f16::from_f64(b))),
            _ => Scalar::F64(sem::next_after(a, b)),
        });
    }
    compare(op, a, b).ok_or_else(|| format!("operator {op:?} is not defined on {t}"))
}

/// f32 arithmetic done in f32 so that results round exactly as in f32.
fn f32_bin(op: BinOp, a: f32, b: f32) -> Result<Scalar, String> {
    match float_op(op) {
        Some(f) => Ok(Scalar::F32(sem::float_binop_f32(f, a, b))),
        None => float_bin(op, PrimType::F32, a as f64, b as f64),
    }
}

fn int_bin(op: BinOp, t: PrimType, a: i128, b: i128) -> Result<Scalar, String> {
    let iop = match op {
        BinOp::Add => IntBinOp::Add,
        BinOp::Sub => IntBinOp::Sub,
        BinOp::Mul => IntBinOp::Mul,
        BinOp::Div => IntBinOp::Div,
        BinOp::Mod => IntBinOp::Mod,
        BinOp::Quot => IntBinOp::Quot,
        BinOp::Rem => IntBinOp::Rem,
        BinOp::Pow => IntBinOp::Pow,
        BinOp::BitAnd => IntBinOp::And,
        BinOp::BitOr => IntBinOp::Or,
        BinOp::BitXor => IntBinOp::Xor,
        BinOp::Shl => IntBinOp::Shl,
        BinOp::Shr => IntBinOp::Shr,
        BinOp::UShr => IntBinOp::UShr,
        BinOp::Min => IntBinOp::Min,
        BinOp::Max => IntBinOp::Max,
        BinOp::MulHi => IntBinOp::MulHi,
        _ => {
            return compare(op, a, b)
                .ok_or_else(|| format!("operator {op:?} is not defined on {t}"));
        }
    };
    match sem::int_binop(iop, vt(t), a, b) {
        Ok(r) => Ok(Scalar::from_i128(t, r)),
        Err(ArithError::DivisionByZero) => Err("Division by zero".to_string()),
        Err(ArithError::NegativeExponent) => Err("Negative exponent".to_string()),
    }
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
        let iop = match op {
            UnOp::Neg => IntUnOp::Neg,
            UnOp::Not => IntUnOp::Not,
            UnOp::Abs => IntUnOp::Abs,
            UnOp::Signum => IntUnOp::Signum,
            UnOp::Popc => IntUnOp::Popc,
            UnOp::Clz => IntUnOp::Clz,
            UnOp::Ctz => IntUnOp::Ctz,
            _ => return Err(format!("{op:?} is not defined on {t}")),
        };
        let ty = if matches!(op, UnOp::Popc | UnOp::Clz | UnOp::Ctz) {
            PrimType::I32
        } else {
            t
        };
        return Ok(Scalar::from_i128(ty, sem::int_unop(iop, vt(t), x)));
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

/// The shared float function of a unary operator, if it has one.
fn float_fn(op: UnOp) -> Option<FloatFn> {
    Some(match op {
        UnOp::Neg => FloatFn::Neg,
        UnOp::Abs => FloatFn::Abs,
        UnOp::Signum => FloatFn::Signum,
        UnOp::Sqrt => FloatFn::Sqrt,
        UnOp::Cbrt => FloatFn::Cbrt,
        UnOp::Exp => FloatFn::Exp,
        UnOp::Exp2 => FloatFn::Exp2,
        UnOp::Exp10 => FloatFn::Exp10,
        UnOp::Expm1 => FloatFn::Expm1,
        UnOp::Log => FloatFn::Log,
        UnOp::Log2 => FloatFn::Log2,
        UnOp::Log10 => FloatFn::Log10,
        UnOp::Log1p => FloatFn::Log1p,
        UnOp::Sin => FloatFn::Sin,
        UnOp::Cos => FloatFn::Cos,
        UnOp::Tan => FloatFn::Tan,
        UnOp::Asin => FloatFn::Asin,
        UnOp::Acos => FloatFn::Acos,
        UnOp::Atan => FloatFn::Atan,
        UnOp::Sinh => FloatFn::Sinh,
        UnOp::Cosh => FloatFn::Cosh,
        UnOp::Tanh => FloatFn::Tanh,
        UnOp::Asinh => FloatFn::Asinh,
        UnOp::Acosh => FloatFn::Acosh,
        UnOp::Atanh => FloatFn::Atanh,
        UnOp::Erf => FloatFn::Erf,
        UnOp::Erfc => FloatFn::Erfc,
        UnOp::Gamma => FloatFn::Gamma,
        UnOp::Lgamma => FloatFn::Lgamma,
        UnOp::Floor => FloatFn::Floor,
        UnOp::Ceil => FloatFn::Ceil,
        UnOp::Round => FloatFn::Round,
        UnOp::Trunc => FloatFn::Trunc,
        _ => return None,
    })
}

fn float_un64(op: UnOp, x: f64) -> Result<f64, String> {
    match (op, float_fn(op)) {
        (UnOp::Polygamma(n), _) => Ok(crate::special::polygamma(n, x)),
        (_, Some(f)) => Ok(sem::float_fn(f, x)),
        _ => Err(format!("{op:?} is not defined on floats")),
    }
}

/// In `f32` where the result rounds exactly as Futhark's `f32` functions;
/// `exp10`, `signum` and `polygamma` go through `f64`.
fn float_un32(op: UnOp, x: f32) -> Result<f32, String> {
    match (op, float_fn(op)) {
        (UnOp::Exp10 | UnOp::Signum | UnOp::Polygamma(_), _) | (_, None) => {
            Ok(float_un64(op, x as f64)? as f32)
        }
        (_, Some(f)) => Ok(sem::float_fn_f32(f, x)),
    }
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
            Scalar::U8(44)
        ));
        assert!(matches!(
            convert_plain(&Scalar::F64(-1.5), PrimType::U8),
            Scalar::U8(255)
        ));
        assert!(matches!(
            convert_plain(&Scalar::F64(300.0), PrimType::I8),
            Scalar::I8(44)
        ));
        assert!(matches!(
            convert_plain(&Scalar::I16(-32768), PrimType::U64),
            Scalar::U64(32768)
        ));
        assert!(matches!(
            convert_plain(&Scalar::I8(-1), PrimType::I64),
            Scalar::I64(-1)
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
