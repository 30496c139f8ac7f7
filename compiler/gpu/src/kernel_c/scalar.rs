//! Scalar expressions in kernel code, with Futhark's scalar semantics bit
//! for bit (those of `values::scalar` and the IR interpreter,
//! `ir::interp::scalar`).
//!
//! Every function here returns C text that is the same for OpenCL C and
//! CUDA: what differs between the two lives in the prelude
//! ([`super::prelude`]), whose helpers (all named `futk_…`) the
//! expressions call. The operands are C expressions of the C type
//! [`c_type`] gives for their primitive type, and every result is again an
//! expression of the C type of its own primitive type (narrow integer
//! results are cast back, so that C's integer promotions never leak into
//! an enclosing expression). An operand is evaluated once: whatever needs
//! an operand twice is a prelude function.
//!
//! # Semantics
//!
//! * Integer arithmetic wraps. It is done in an unsigned type of at least
//!   32 bits and cast back, so signed overflow (undefined in C) never
//!   happens; the casts back to signed types rely on two's complement
//!   wrapping, which every OpenCL and CUDA compiler gives.
//! * `Div` and `Mod` round towards negative infinity, `Quot` and `Rem`
//!   towards zero; the minimum divided by -1 wraps. A zero divisor, and a
//!   negative exponent of an integer `Pow`, give 0 here: the caller checks
//!   for them beforehand with [`failure`].
//! * Shifts by a negative amount or by at least the width give 0 (-1 for
//!   `Shr` of a negative number); `Shr` is arithmetic on signed types,
//!   `UShr` always logical.
//! * Float `Min` and `Max` ignore a NaN operand; on two zeros they give
//!   the first operand.
//! * Float to integer conversion truncates and wraps modulo 2^bits, NaN and the
//!   infinities giving 0; conversions to floats round to nearest.
//! * `f32` math functions without an exact single-precision counterpart
//!   (everything transcendental, and `Pow`) are computed in `double` and
//!   rounded, as the reference does. `Asinh`, `Acosh` and `Atanh` are the
//!   reference's formulas over `log1p`, `hypot`, `sqrt` and `log` (Rust's
//!   standard library's, which overflow to infinity for `asinh` and
//!   `acosh` of operands near the greatest `f64`), not the C functions.
//!   `Mad` is `a*b + c` with two roundings in `f64` (never fused); `Fma`
//!   is fused. `Round` rounds ties to even. The transcendental functions
//!   are the device's: they agree with the reference where the device's
//!   math library agrees with the host's (on PoCL, `f32` results within
//!   one ulp, `f64` ones within a few: see the OpenCL test).
//! * `f32` division and square root are the native ones: they are
//!   correctly rounded only with the build options of
//!   [`super::prelude::build_options`], which the runtime must pass; those
//!   options also keep the compiler from contracting `a*b + c` into a
//!   fused multiply-add (CUDA; the OpenCL prelude turns contraction off
//!   with a pragma).
//!
//! `f16` is not supported: [`c_type`] and [`c_storage_type`] give `None`
//! for it, and a kernel that needs it must be refused before any other
//! function here is asked about it. Operations the IR's type rules do not
//! allow (a shift of floats, say) give a call of an undeclared
//! `futk_undefined_…` function, which fails to compile.

use std::borrow::Cow;

use ir::{BinOp, CmpOp, ConvKind, MathFn, UnOp};
use values::{PrimType, PrimValue};

/// The C type of values of `t` in expressions and variables: `schar`,
/// `short`, `int`, `long`, `uchar`, `ushort`, `uint`, `ulong`, `float`,
/// `double`, `bool` (both preludes define `schar` as a signed 8-bit type,
/// and the CUDA prelude the unsigned names). `None` for `f16`.
pub fn c_type(t: PrimType) -> Option<&'static str> {
    Some(match t {
        PrimType::I8 => "schar",
        PrimType::I16 => "short",
        PrimType::I32 => "int",
        PrimType::I64 => "long",
        PrimType::U8 => "uchar",
        PrimType::U16 => "ushort",
        PrimType::U32 => "uint",
        PrimType::U64 => "ulong",
        PrimType::F16 => return None,
        PrimType::F32 => "float",
        PrimType::F64 => "double",
        PrimType::Bool => "bool",
    })
}

/// The C type of elements of `t` in memory and of kernel arguments: that
/// of [`c_type`], except that a `bool` is stored as a `uchar` (0 or 1).
/// `None` for `f16`.
pub fn c_storage_type(t: PrimType) -> Option<&'static str> {
    match t {
        PrimType::Bool => Some("uchar"),
        _ => c_type(t),
    }
}

/// The name of prelude helper `op` for type `t`: `futk_{op}_{t}`.
pub(crate) fn helper(op: &str, t: PrimType) -> String {
    format!("futk_{op}_{}", t.name())
}

/// The width in bits of an integer or float type.
pub(crate) fn width(t: PrimType) -> u32 {
    (t.byte_size() * 8) as u32
}

/// The unsigned C type integer arithmetic on `t` is done in: `uint` for
/// types of at most 32 bits, `ulong` otherwise.
pub(crate) fn arith_type(t: PrimType) -> &'static str {
    if width(t) <= 32 { "uint" } else { "ulong" }
}

/// The unsigned C type of the width of `t`.
pub(crate) fn unsigned_type(t: PrimType) -> &'static str {
    match width(t) {
        8 => "uchar",
        16 => "ushort",
        32 => "uint",
        _ => "ulong",
    }
}

/// `x` in parentheses unless it is an identifier, a number or already one
/// parenthesised or called whole.
pub(crate) fn paren(x: &str) -> Cow<'_, str> {
    let simple = !x.is_empty()
        && x.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    if simple || closes_at_end(x) {
        Cow::Borrowed(x)
    } else {
        Cow::Owned(format!("({x})"))
    }
}

/// Whether `x` is `name(…)` or `(…)` with the parenthesis opened after the
/// name (or at the start) closed by the last character.
fn closes_at_end(x: &str) -> bool {
    let open = x
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(x.len());
    if !x[open..].starts_with('(') || !x.ends_with(')') {
        return false;
    }
    let mut depth = 0usize;
    for (i, c) in x[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return open + i == x.len() - 1;
                }
            }
            _ => {}
        }
    }
    false
}

/// A C literal of `v`, of the C type of its primitive type, exact: floats
/// as small integers (`2.0f`) or hexadecimal float literals
/// (`0x1.8p-3`), NaN and the infinities by their bits through the
/// prelude (`futk_f32_of_bits(0x7fc00000u)`), the least signed integers
/// without overflowing a literal.
pub fn literal(v: PrimValue) -> String {
    match v {
        PrimValue::I8(x) => format!("((schar){x})"),
        PrimValue::I16(x) => format!("((short){x})"),
        PrimValue::I32(i32::MIN) => "(-2147483647-1)".into(),
        PrimValue::I32(x) if x < 0 => format!("({x})"),
        PrimValue::I32(x) => format!("{x}"),
        PrimValue::I64(i64::MIN) => "(-9223372036854775807L-1L)".into(),
        PrimValue::I64(x) if x < 0 => format!("({x}L)"),
        PrimValue::I64(x) => format!("{x}L"),
        PrimValue::U8(x) => format!("((uchar){x})"),
        PrimValue::U16(x) => format!("((ushort){x})"),
        PrimValue::U32(x) => format!("{x}u"),
        PrimValue::U64(x) => format!("{x}UL"),
        PrimValue::F16(x) => format!("futk_f16_of_bits({:#06x})", x.to_bits()),
        PrimValue::F32(x) => {
            if x.is_finite() {
                float_literal(f64::from(x), 24, "f")
            } else {
                format!("futk_f32_of_bits({:#010x}u)", x.to_bits())
            }
        }
        PrimValue::F64(x) => {
            if x.is_finite() {
                float_literal(x, 53, "")
            } else {
                format!("futk_f64_of_bits({:#018x}UL)", x.to_bits())
            }
        }
        PrimValue::Bool(b) => b.to_string(),
    }
}

/// A finite float (exact in a type of `precision` significant bits) as a
/// C literal with `suffix`.
fn float_literal(x: f64, precision: u32, suffix: &str) -> String {
    let body = if x == x.trunc() && x.abs() < (1u64 << precision) as f64 {
        format!("{}.0{suffix}", x.abs() as u64)
    } else {
        format!("{}{suffix}", hex_float(x.abs()))
    };
    if x.is_sign_negative() {
        format!("(-{body})")
    } else {
        body
    }
}

/// A finite, non-negative `f64` as an exact hexadecimal float literal
/// (every `f32` is one too: its digits are a prefix of the `f64`'s).
fn hex_float(x: f64) -> String {
    if x == 0.0 {
        return "0x0p+0".into();
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64;
    let mant = bits & ((1u64 << 52) - 1);
    let (lead, e) = if exp == 0 {
        (0, -1022)
    } else {
        (1, exp - 1023)
    };
    let digits = format!("{mant:013x}");
    let digits = digits.trim_end_matches('0');
    let sign = if e < 0 { '-' } else { '+' };
    if digits.is_empty() {
        format!("0x{lead}p{sign}{}", e.abs())
    } else {
        format!("0x{lead}.{digits}p{sign}{}", e.abs())
    }
}

/// The call of an undeclared function that stands for an operation the
/// IR does not define (it fails to compile).
fn undefined(what: &str, t: PrimType, args: &[&str]) -> String {
    format!("futk_undefined_{what}_{}({})", t.name(), args.join(", "))
}

/// A unary operator on `x` of type `t`.
pub fn unop(op: UnOp, t: PrimType, x: &str) -> String {
    let px = paren(x);
    if t == PrimType::Bool {
        return match op {
            UnOp::Not => format!("(!{px})"),
            _ => x.to_string(),
        };
    }
    if t.is_integer() {
        let c = c_type(t).unwrap_or("long");
        let u = arith_type(t);
        return match op {
            UnOp::Neg => format!("(({c})(0 - ({u}){px}))"),
            UnOp::Not => format!("(({c})~{px})"),
            UnOp::Abs if t.is_signed_integer() => format!("{}({x})", helper("abs", t)),
            UnOp::Abs => x.to_string(),
            UnOp::Signum => format!("{}({x})", helper("signum", t)),
        };
    }
    match op {
        UnOp::Neg => format!("(-{px})"),
        UnOp::Not => undefined("not", t, &[x]),
        UnOp::Abs => format!("{}({x})", helper("abs", t)),
        UnOp::Signum => format!("{}({x})", helper("signum", t)),
    }
}

/// A binary operator on `x` and `y` of type `t`. Integer division,
/// remainders and powers give 0 where they fail: check [`failure`] first.
pub fn binop(op: BinOp, t: PrimType, x: &str, y: &str) -> String {
    let (px, py) = (paren(x), paren(y));
    let call = |name: &str| format!("{}({x}, {y})", helper(name, t));
    if t == PrimType::Bool {
        return match op {
            BinOp::And | BinOp::Min => format!("({px} && {py})"),
            BinOp::Or | BinOp::Max => format!("({px} || {py})"),
            BinOp::Xor => format!("({px} != {py})"),
            _ => undefined(op.name(), t, &[x, y]),
        };
    }
    if t.is_integer() {
        let c = c_type(t).unwrap_or("long");
        let u = arith_type(t);
        let arith = |o: &str| format!("(({c})(({u}){px} {o} ({u}){py}))");
        let bits = |o: &str| {
            if width(t) >= 32 {
                format!("({px} {o} {py})")
            } else {
                format!("(({c})({px} {o} {py}))")
            }
        };
        return match op {
            BinOp::Add => arith("+"),
            BinOp::Sub => arith("-"),
            BinOp::Mul => arith("*"),
            BinOp::Div => call("div"),
            BinOp::Mod => call("mod"),
            BinOp::Quot => call("quot"),
            BinOp::Rem => call("rem"),
            BinOp::Pow => call("pow"),
            BinOp::Min => call("min"),
            BinOp::Max => call("max"),
            BinOp::And => bits("&"),
            BinOp::Or => bits("|"),
            BinOp::Xor => bits("^"),
            BinOp::Shl => call("shl"),
            BinOp::Shr => call("shr"),
            BinOp::UShr => call("ushr"),
        };
    }
    match op {
        BinOp::Add => format!("({px} + {py})"),
        BinOp::Sub => format!("({px} - {py})"),
        BinOp::Mul => format!("({px} * {py})"),
        BinOp::Div => format!("({px} / {py})"),
        BinOp::Mod | BinOp::Rem => call("mod"),
        BinOp::Pow => call("pow"),
        BinOp::Min => call("min"),
        BinOp::Max => call("max"),
        BinOp::Quot
        | BinOp::And
        | BinOp::Or
        | BinOp::Xor
        | BinOp::Shl
        | BinOp::Shr
        | BinOp::UShr => undefined(op.name(), t, &[x, y]),
    }
}

/// When the binary operator `op` on `x` and `y` of type `t` fails: the C
/// condition (over the same operand texts) and the reference's message.
/// `None` for operators that cannot fail. Integer `Div`, `Mod`, `Quot` and
/// `Rem` fail on a zero divisor (`"Division by zero"`), a signed integer
/// `Pow` on a negative exponent (`"Negative exponent in integer power"`).
///
/// The statement emitter evaluates the condition before the statement
/// holding the operation and reports the failure instead of running it
/// (the expression from [`binop`] itself never traps: it gives 0).
pub fn failure(op: BinOp, t: PrimType, x: &str, y: &str) -> Option<(String, &'static str)> {
    let _ = x;
    if !t.is_integer() {
        return None;
    }
    match op {
        BinOp::Div | BinOp::Mod | BinOp::Quot | BinOp::Rem => {
            Some((format!("({} == 0)", paren(y)), "Division by zero"))
        }
        BinOp::Pow if t.is_signed_integer() => Some((
            format!("({} < 0)", paren(y)),
            "Negative exponent in integer power",
        )),
        _ => None,
    }
}

/// A comparison of `x` and `y` of type `t` (a `bool`; false when a float
/// operand is NaN, except for `Ne`).
pub fn cmp(op: CmpOp, t: PrimType, x: &str, y: &str) -> String {
    let _ = t;
    let o = match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    };
    format!("({} {o} {})", paren(x), paren(y))
}

/// A conversion of `x` from `from` to `to`. `Bitcast`s are between types
/// of one size other than `bool`, as the IR requires.
pub fn convert(kind: ConvKind, from: PrimType, to: PrimType, x: &str) -> String {
    let px = paren(x);
    let to_c = c_type(to).unwrap_or("float");
    if kind == ConvKind::Bitcast {
        if from == to {
            return x.to_string();
        }
        return match (from.is_float(), to.is_float()) {
            (false, false) => format!("(({to_c}){px})"),
            (true, false) => format!("(({to_c}){}({x}))", helper("bits", from)),
            (false, true) => format!("futk_{}_of_bits(({}){px})", to.name(), unsigned_type(to)),
            (true, true) => undefined("bitcast", to, &[x]),
        };
    }
    if from == to {
        return x.to_string();
    }
    if to == PrimType::Bool {
        return if from.is_float() {
            format!(
                "({px} != 0.0{})",
                if from == PrimType::F32 { "f" } else { "" }
            )
        } else {
            format!("({px} != 0)")
        };
    }
    if from == PrimType::Bool {
        return match to {
            PrimType::F32 => format!("({px} ? 1.0f : 0.0f)"),
            PrimType::F64 => format!("({px} ? 1.0 : 0.0)"),
            _ => format!("(({to_c}){px})"),
        };
    }
    if from.is_float() && to.is_integer() {
        return format!("futk_{}_to_{}({x})", from.name(), to.name());
    }
    // A signed integer becoming an unsigned one is zero-extended (Futhark
    // sign-extends only between signed types).
    if from.is_signed_integer() && to.is_integer() && !to.is_signed_integer() {
        return format!("(({to_c})({}){px})", unsigned_type(from));
    }
    format!("(({to_c}){px})")
}

/// A math function of `args` (of type `t`, the first argument's).
/// `IsNan` and `IsInf` give a `bool`, `Popc`, `Clz` and `Ctz` an `int`.
pub fn math(f: MathFn, t: PrimType, args: &[String]) -> String {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let int_fn = matches!(f, MathFn::Popc | MathFn::Clz | MathFn::Ctz | MathFn::MulHi);
    if int_fn != t.is_integer() || (!int_fn && !t.is_float()) || a.len() != f.arity() {
        return undefined(f.name(), t, &a);
    }
    format!("{}({})", helper(f.name(), t), a.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(literal(PrimValue::I32(i32::MIN)), "(-2147483647-1)");
        assert_eq!(literal(PrimValue::I64(-3)), "(-3L)");
        assert_eq!(literal(PrimValue::U64(u64::MAX)), "18446744073709551615UL");
        assert_eq!(literal(PrimValue::F32(1.5)), "0x1.8p+0f");
        assert_eq!(literal(PrimValue::F32(-2.0)), "(-2.0f)");
        assert_eq!(literal(PrimValue::F64(-0.0)), "(-0.0)");
        assert_eq!(literal(PrimValue::F64(0.1)), "0x1.999999999999ap-4");
        assert_eq!(
            literal(PrimValue::F64(f64::from_bits(1))),
            "0x0.0000000000001p-1022"
        );
        assert_eq!(literal(PrimValue::F32(f32::from_bits(1))), "0x1p-149f");
        assert_eq!(
            literal(PrimValue::F32(f32::INFINITY)),
            "futk_f32_of_bits(0x7f800000u)"
        );
        assert_eq!(
            literal(PrimValue::F64(f64::NAN)),
            "futk_f64_of_bits(0x7ff8000000000000UL)"
        );
    }

    #[test]
    fn parenthesising() {
        assert_eq!(paren("v1"), "v1");
        assert_eq!(paren("1.5f"), "1.5f");
        assert_eq!(paren("(a + b)"), "(a + b)");
        assert_eq!(paren("(a) + (b)"), "((a) + (b))");
        assert_eq!(paren("futk_f(a, (b))"), "futk_f(a, (b))");
        assert_eq!(paren("(bool)v5"), "((bool)v5)");
        assert_eq!(paren("-x"), "(-x)");
    }

    #[test]
    fn expressions() {
        assert_eq!(
            binop(BinOp::Add, PrimType::I8, "a", "b"),
            "((schar)((uint)a + (uint)b))"
        );
        assert_eq!(
            binop(BinOp::Div, PrimType::I64, "a", "b"),
            "futk_div_i64(a, b)"
        );
        assert_eq!(
            failure(BinOp::Pow, PrimType::I32, "a", "b - 1"),
            Some(("((b - 1) < 0)".into(), "Negative exponent in integer power"))
        );
        assert_eq!(failure(BinOp::Pow, PrimType::U32, "a", "b"), None);
        assert_eq!(failure(BinOp::Div, PrimType::F32, "a", "b"), None);
        assert_eq!(
            convert(ConvKind::Convert, PrimType::F64, PrimType::U8, "x"),
            "futk_f64_to_u8(x)"
        );
        assert_eq!(
            convert(ConvKind::Bitcast, PrimType::I32, PrimType::F32, "x"),
            "futk_f32_of_bits((uint)x)"
        );
        assert_eq!(
            math(MathFn::Sin, PrimType::F32, &["x".into()]),
            "futk_sin_f32(x)"
        );
        assert!(math(MathFn::Sin, PrimType::I32, &["x".into()]).starts_with("futk_undefined"));
    }
}
