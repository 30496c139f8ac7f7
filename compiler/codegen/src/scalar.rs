//! Rust expressions for scalar operations, with Futhark's semantics.
//!
//! Integer arithmetic wraps; division, remainders, powers and shifts go
//! through the runtime's `Int` trait (which fails on a zero divisor with
//! the interpreter's message); float math functions are computed in `f64`
//! and rounded to the operand's type, as the reference interpreter does;
//! `f16` arithmetic goes through `f64` as well.

use ir::{BinOp, CmpOp, ConvKind, MathFn, UnOp};
use values::{PrimType, PrimValue};

/// The Rust name of a primitive type.
pub fn rust_prim(t: PrimType) -> &'static str {
    t.name()
}

/// A Rust literal for a constant.
pub fn literal(c: PrimValue) -> String {
    match c {
        PrimValue::I8(x) => format!("({x}i8)"),
        PrimValue::I16(x) => format!("({x}i16)"),
        PrimValue::I32(x) => format!("({x}i32)"),
        PrimValue::I64(x) => format!("({x}i64)"),
        PrimValue::U8(x) => format!("{x}u8"),
        PrimValue::U16(x) => format!("{x}u16"),
        PrimValue::U32(x) => format!("{x}u32"),
        PrimValue::U64(x) => format!("{x}u64"),
        PrimValue::F16(x) => format!("f16::from_bits({:#x}u16)", x.to_bits()),
        PrimValue::F32(x) => format!("f32::from_bits({:#x}u32)", x.to_bits()),
        PrimValue::F64(x) => format!("f64::from_bits({:#x}u64)", x.to_bits()),
        PrimValue::Bool(b) => b.to_string(),
    }
}

/// A unary operator on `x` of type `t`.
pub fn unop(op: UnOp, t: PrimType, x: &str) -> String {
    if t == PrimType::Bool {
        return match op {
            UnOp::Not => format!("!{x}"),
            _ => x.to_string(),
        };
    }
    if t.is_integer() {
        return match op {
            UnOp::Neg => format!("{x}.wrapping_neg()"),
            UnOp::Not => format!("!{x}"),
            UnOp::Abs if t.is_signed_integer() => format!("{x}.wrapping_abs()"),
            UnOp::Abs => x.to_string(),
            UnOp::Signum => format!("{x}.sgn()"),
        };
    }
    match op {
        UnOp::Neg => format!("map1({x}, |a| -a)"),
        UnOp::Not => x.to_string(),
        UnOp::Abs => format!("map1({x}, f64::abs)"),
        UnOp::Signum => format!("map1({x}, fsignum)"),
    }
}

/// A binary operator on `x` and `y` of type `t`; operators that can fail
/// use `span` (a Rust tuple expression) in their error.
pub fn binop(op: BinOp, t: PrimType, x: &str, y: &str, span: &str) -> Result<String, String> {
    if t == PrimType::Bool {
        return Ok(match op {
            BinOp::And | BinOp::Min => format!("({x} & {y})"),
            BinOp::Or | BinOp::Max => format!("({x} | {y})"),
            BinOp::Xor => format!("({x} ^ {y})"),
            _ => return Err(format!("`{}` is not defined on bool", op.name())),
        });
    }
    if t.is_integer() {
        let checked = |m: &str| format!("at({x}.{m}({y}), {span})?");
        return Ok(match op {
            BinOp::Add => format!("{x}.wrapping_add({y})"),
            BinOp::Sub => format!("{x}.wrapping_sub({y})"),
            BinOp::Mul => format!("{x}.wrapping_mul({y})"),
            BinOp::Div => checked("fdiv"),
            BinOp::Mod => checked("fmod"),
            BinOp::Quot => checked("fquot"),
            BinOp::Rem => checked("frem"),
            BinOp::Pow => checked("fpow"),
            BinOp::Min => format!("{x}.min({y})"),
            BinOp::Max => format!("{x}.max({y})"),
            BinOp::And => format!("({x} & {y})"),
            BinOp::Or => format!("({x} | {y})"),
            BinOp::Xor => format!("({x} ^ {y})"),
            BinOp::Shl => format!("{x}.fshl({y})"),
            BinOp::Shr => format!("{x}.fshr({y})"),
            BinOp::UShr => format!("{x}.fushr({y})"),
        });
    }
    let native = t != PrimType::F16;
    Ok(match op {
        BinOp::Add if native => format!("({x} + {y})"),
        BinOp::Sub if native => format!("({x} - {y})"),
        BinOp::Mul if native => format!("({x} * {y})"),
        BinOp::Div if native => format!("({x} / {y})"),
        BinOp::Mod | BinOp::Rem if native => format!("({x} % {y})"),
        BinOp::Add => format!("map2({x}, {y}, |a, b| a + b)"),
        BinOp::Sub => format!("map2({x}, {y}, |a, b| a - b)"),
        BinOp::Mul => format!("map2({x}, {y}, |a, b| a * b)"),
        BinOp::Div => format!("map2({x}, {y}, |a, b| a / b)"),
        BinOp::Mod | BinOp::Rem => format!("map2({x}, {y}, |a, b| a % b)"),
        BinOp::Pow => format!("map2({x}, {y}, f64::powf)"),
        BinOp::Min => format!("map2({x}, {y}, f64::min)"),
        BinOp::Max => format!("map2({x}, {y}, f64::max)"),
        _ => return Err(format!("`{}` is not defined on {t}", op.name())),
    })
}

/// A comparison.
pub fn cmp(op: CmpOp, x: &str, y: &str) -> String {
    let o = match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    };
    format!("({x} {o} {y})")
}

fn bits_type(t: PrimType) -> &'static str {
    match t.byte_size() {
        1 => "u8",
        2 => "u16",
        4 => "u32",
        _ => "u64",
    }
}

/// A conversion of `x` from `from` to `to`.
pub fn convert(kind: ConvKind, from: PrimType, to: PrimType, x: &str) -> String {
    let to_name = rust_prim(to);
    if kind == ConvKind::Bitcast {
        let bits = if from.is_float() {
            format!("{x}.to_bits()")
        } else if from == PrimType::Bool {
            format!("({x} as u8)")
        } else {
            format!("({x} as {})", bits_type(from))
        };
        return if to.is_float() {
            format!("{to_name}::from_bits({bits} as {})", bits_type(to))
        } else if to == PrimType::Bool {
            format!("({bits} != 0)")
        } else {
            format!("({bits} as {to_name})")
        };
    }
    if to == PrimType::Bool {
        return if from == PrimType::Bool {
            x.to_string()
        } else if from.is_integer() {
            format!("({x} != 0)")
        } else {
            format!("(Float::to64({x}) != 0.0)")
        };
    }
    if to.is_integer() {
        // Futhark sign-extends only from a signed type to a signed type:
        // a signed source widening to an unsigned type is zero-extended.
        return if from.is_signed_integer() && !to.is_signed_integer() {
            format!("(({x} as {}) as {to_name})", bits_type(from))
        } else if from == PrimType::Bool || from.is_integer() {
            format!("({x} as {to_name})")
        } else {
            format!("(float_to_int(Float::to64({x})) as {to_name})")
        };
    }
    if from == PrimType::Bool {
        return format!("<{to_name} as Float>::from64(if {x} {{ 1.0 }} else {{ 0.0 }})");
    }
    if from.is_integer() {
        return match to {
            PrimType::F32 => format!("({x} as f32)"),
            PrimType::F64 => format!("({x} as f64)"),
            _ => format!("f16::from_f64({x} as f64)"),
        };
    }
    format!("<{to_name} as Float>::from64(Float::to64({x}))")
}

/// A math function of arguments `args` of type `t`.
pub fn math(f: MathFn, t: PrimType, args: &[String]) -> String {
    let a = |i: usize| args.get(i).cloned().unwrap_or_else(|| "0".into());
    if t.is_integer() {
        return match f {
            MathFn::Popc => format!("({}.count_ones() as i32)", a(0)),
            MathFn::Clz => format!("({}.leading_zeros() as i32)", a(0)),
            MathFn::Ctz => format!("({}.trailing_zeros() as i32)", a(0)),
            MathFn::MulHi => format!("{}.mul_hi({})", a(0), a(1)),
            _ => a(0),
        };
    }
    if t == PrimType::Bool {
        return a(0);
    }
    let one = |g: &str| format!("map1({}, {g})", a(0));
    let two = |g: &str| format!("map2({}, {}, {g})", a(0), a(1));
    match f {
        MathFn::Sqrt => one("f64::sqrt"),
        MathFn::Cbrt => one("f64::cbrt"),
        MathFn::Exp => one("f64::exp"),
        MathFn::Expm1 => one("f64::exp_m1"),
        MathFn::Log => one("f64::ln"),
        MathFn::Log2 => one("f64::log2"),
        MathFn::Log10 => one("f64::log10"),
        MathFn::Log1p => one("f64::ln_1p"),
        MathFn::Sin => one("f64::sin"),
        MathFn::Cos => one("f64::cos"),
        MathFn::Tan => one("f64::tan"),
        MathFn::Asin => one("f64::asin"),
        MathFn::Acos => one("f64::acos"),
        MathFn::Atan => one("f64::atan"),
        MathFn::Sinh => one("f64::sinh"),
        MathFn::Cosh => one("f64::cosh"),
        MathFn::Tanh => one("f64::tanh"),
        MathFn::Asinh => one("f64::asinh"),
        MathFn::Acosh => one("f64::acosh"),
        MathFn::Atanh => one("f64::atanh"),
        MathFn::Atan2 => two("f64::atan2"),
        MathFn::Hypot => two("f64::hypot"),
        MathFn::Erf => one("libm::erf"),
        MathFn::Erfc => one("libm::erfc"),
        MathFn::Lgamma => one("libm::lgamma"),
        MathFn::Gamma => one("libm::tgamma"),
        MathFn::Fma if t == PrimType::F32 => format!("{}.mul_add({}, {})", a(0), a(1), a(2)),
        MathFn::Fma => format!(
            "<{} as Float>::from64(Float::to64({}).mul_add(Float::to64({}), Float::to64({})))",
            rust_prim(t),
            a(0),
            a(1),
            a(2)
        ),
        MathFn::Mad => format!(
            "<{} as Float>::from64(Float::to64({}) * Float::to64({}) + Float::to64({}))",
            rust_prim(t),
            a(0),
            a(1),
            a(2)
        ),
        MathFn::Floor => one("f64::floor"),
        MathFn::Ceil => one("f64::ceil"),
        MathFn::Round => one("f64::round_ties_even"),
        MathFn::Trunc => one("f64::trunc"),
        MathFn::IsNan => format!("is_nan({})", a(0)),
        MathFn::IsInf => format!("is_inf({})", a(0)),
        MathFn::CopySign => two("f64::copysign"),
        MathFn::Popc | MathFn::Clz | MathFn::Ctz | MathFn::MulHi => a(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions() {
        assert_eq!(literal(PrimValue::I32(-3)), "(-3i32)");
        assert_eq!(
            literal(PrimValue::F64(1.0)),
            "f64::from_bits(0x3ff0000000000000u64)"
        );
        assert_eq!(
            binop(BinOp::Div, PrimType::I64, "a", "b", "S").unwrap(),
            "at(a.fdiv(b), S)?"
        );
        assert!(binop(BinOp::Shl, PrimType::F32, "a", "b", "S").is_err());
        assert_eq!(
            convert(ConvKind::Convert, PrimType::F64, PrimType::U8, "x"),
            "(float_to_int(Float::to64(x)) as u8)"
        );
        assert_eq!(unop(UnOp::Neg, PrimType::I8, "x"), "x.wrapping_neg()");
        assert_eq!(
            math(MathFn::Sin, PrimType::F32, &["x".into()]),
            "map1(x, f64::sin)"
        );
    }
}
