//! The kernel prelude: the C text put before the kernels of a program,
//! defining the helpers ([`super::scalar`]'s expressions call them, all
//! named `futk_…`) and, for CUDA, the OpenCL C vocabulary the kernels are
//! written in.
//!
//! The kernels are written in OpenCL C; the CUDA prelude makes the same
//! text valid CUDA C++ for NVRTC:
//!
//! * types: `schar` (both preludes: `char`'s signedness varies between
//!   CUDA hosts), `uchar`, `ushort`, `uint`, `ulong` (`long` is 64 bits
//!   on every 64-bit Linux host, which the CUDA prelude asserts);
//! * address spaces: `__global`, `__private` and `__constant` (on pointer
//!   parameters) are nothing, `__local` is `__shared__` (for local arrays
//!   declared in a kernel; they cannot be kernel parameters in CUDA);
//!   `__kernel` is `extern "C" __global__`;
//! * work-items: `get_global_id`, `get_local_id`, `get_group_id`,
//!   `get_local_size`, `get_num_groups`, `get_global_size` (as `long`);
//!   `barrier(CLK_LOCAL_MEM_FENCE)` (or `CLK_GLOBAL_MEM_FENCE`) is
//!   `__syncthreads()`, `mem_fence` a `__threadfence()`;
//! * bit reinterpretation: `as_int`, `as_uint`, `as_float`, `as_long`,
//!   `as_ulong`, `as_double`.
//!
//! The helpers are `static inline` functions, generated per type: integer
//! division, remainders, powers, shifts, minima and maxima, absolute values
//! and signs, bit counts and high products; float minima, maxima, signs,
//! NaN and infinity tests (on the bits, so they hold under any float
//! options), conversions from floats to integers; the math functions, for
//! `f32` through `double` where the reference computes them so.
//!
//! A program must be built with [`build_options`]: correctly rounded `f32`
//! division and square root, and (CUDA) no contraction of `a*b + c` into
//! fused multiply-adds; the OpenCL prelude turns contraction off itself
//! (`#pragma OPENCL FP_CONTRACT OFF`, which holds for the kernels after
//! it).

use std::fmt::Write;

use ir::{BinOp, MathFn, PrimType};

use super::Target;
use super::scalar::{arith_type, c_type, helper, unsigned_type, width};

/// The options a program with this prelude must be built with: for
/// OpenCL (`clBuildProgram`) correctly rounded `f32` division and square
/// root; for NVRTC the same (its defaults, made explicit), no flushing of
/// subnormals and no contraction of multiplies and adds.
pub fn build_options(target: Target) -> &'static [&'static str] {
    match target {
        Target::OpenCl => &["-cl-fp32-correctly-rounded-divide-sqrt"],
        Target::Cuda => &[
            "--fmad=false",
            "--prec-div=true",
            "--prec-sqrt=true",
            "--ftz=false",
        ],
    }
}

/// The prelude of kernel programs for `target`.
pub fn prelude(target: Target) -> String {
    let mut s = String::new();
    s.push_str(match target {
        Target::OpenCl => OPENCL_HEADER,
        Target::Cuda => CUDA_HEADER,
    });
    s.push_str(match target {
        Target::OpenCl => OPENCL_PRIMITIVES,
        Target::Cuda => CUDA_PRIMITIVES,
    });
    for t in INTS {
        int_helpers(&mut s, t);
    }
    for t in [PrimType::F64, PrimType::F32] {
        float_helpers(&mut s, target, t);
    }
    s.push_str(
        "\n/* ---- Atomic helpers (not yet): atomic read-modify-write operations on\n\
         \x20  global and local memory of each element type go here. ---- */\n",
    );
    s
}

const INTS: [PrimType; 8] = [
    PrimType::I8,
    PrimType::I16,
    PrimType::I32,
    PrimType::I64,
    PrimType::U8,
    PrimType::U16,
    PrimType::U32,
    PrimType::U64,
];

const OPENCL_HEADER: &str = "\
/* fut kernel prelude: OpenCL C */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
typedef char schar;
#define FUTK_FN static inline
";

const CUDA_HEADER: &str = "\
/* fut kernel prelude: CUDA C++ (NVRTC), with the OpenCL C vocabulary the
   kernels are written in */
typedef signed char schar;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
static_assert(sizeof(long) == 8, \"kernels need a 64-bit long\");
#define FUTK_FN static __device__ __forceinline__
#define __kernel extern \"C\" __global__
#define __global
#define __private
#define __constant
#define __local __shared__
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
#define barrier(fence) __syncthreads()
#define mem_fence(fence) __threadfence()
#define futk_dim_(v, d) ((long)((d) == 0 ? (v).x : (d) == 1 ? (v).y : (v).z))
#define get_local_id(d) futk_dim_(threadIdx, d)
#define get_group_id(d) futk_dim_(blockIdx, d)
#define get_local_size(d) futk_dim_(blockDim, d)
#define get_num_groups(d) futk_dim_(gridDim, d)
#define get_global_id(d) (get_group_id(d) * get_local_size(d) + get_local_id(d))
#define get_global_size(d) (get_num_groups(d) * get_local_size(d))
FUTK_FN int as_int(float x) { return __float_as_int(x); }
FUTK_FN uint as_uint(float x) { return __float_as_uint(x); }
FUTK_FN float as_float(int x) { return __int_as_float(x); }
FUTK_FN float as_float(uint x) { return __uint_as_float(x); }
FUTK_FN long as_long(double x) { return (long)__double_as_longlong(x); }
FUTK_FN ulong as_ulong(double x) { return (ulong)__double_as_longlong(x); }
FUTK_FN double as_double(long x) { return __longlong_as_double((long long)x); }
FUTK_FN double as_double(ulong x) { return __longlong_as_double((long long)x); }
";

/// What the generated helpers build on, in each dialect: bits of floats,
/// bit counts of 32- and 64-bit words, high products of 64-bit ones.
const OPENCL_PRIMITIVES: &str = "
FUTK_FN uint futk_bits_f32(float x) { return as_uint(x); }
FUTK_FN float futk_f32_of_bits(uint x) { return as_float(x); }
FUTK_FN ulong futk_bits_f64(double x) { return as_ulong(x); }
FUTK_FN double futk_f64_of_bits(ulong x) { return as_double(x); }
FUTK_FN uint futk_popc32(uint x) { return popcount(x); }
FUTK_FN uint futk_popc64(ulong x) { return (uint)popcount(x); }
FUTK_FN uint futk_clz32(uint x) { return clz(x); }
FUTK_FN uint futk_clz64(ulong x) { return (uint)clz(x); }
FUTK_FN long futk_smul_hi64(long x, long y) { return mul_hi(x, y); }
FUTK_FN ulong futk_umul_hi64(ulong x, ulong y) { return mul_hi(x, y); }
";

const CUDA_PRIMITIVES: &str = "
FUTK_FN uint futk_bits_f32(float x) { return __float_as_uint(x); }
FUTK_FN float futk_f32_of_bits(uint x) { return __uint_as_float(x); }
FUTK_FN ulong futk_bits_f64(double x) { return (ulong)__double_as_longlong(x); }
FUTK_FN double futk_f64_of_bits(ulong x) { return __longlong_as_double((long long)x); }
FUTK_FN uint futk_popc32(uint x) { return (uint)__popc(x); }
FUTK_FN uint futk_popc64(ulong x) { return (uint)__popcll((unsigned long long)x); }
FUTK_FN uint futk_clz32(uint x) { return (uint)__clz((int)x); }
FUTK_FN uint futk_clz64(ulong x) { return (uint)__clzll((long long)x); }
FUTK_FN long futk_smul_hi64(long x, long y) { return (long)__mul64hi((long long)x, (long long)y); }
FUTK_FN ulong futk_umul_hi64(ulong x, ulong y) {
  return (ulong)__umul64hi((unsigned long long)x, (unsigned long long)y);
}
";

/// The helpers of the integer type `t`.
fn int_helpers(s: &mut String, t: PrimType) {
    let c = c_type(t).unwrap_or("long");
    let u = arith_type(t);
    let uw = unsigned_type(t);
    let w = width(t);
    let signed = t.is_signed_integer();
    let f = |op: &str| helper(op, t);
    writeln!(s, "\n/* {} */", t.name()).ok();
    // Division and remainders: 0 for a zero divisor (checked beforehand),
    // the minimum over -1 wraps, `Div` and `Mod` adjusted towards negative
    // infinity when the signs differ.
    let (neg1_quot, neg1_rem) = if signed {
        (
            format!("  if (y == -1) return ({c})(0 - ({u})x);\n"),
            "  if (y == -1) return 0;\n".to_string(),
        )
    } else {
        (String::new(), String::new())
    };
    let div_adjust = if signed {
        format!("  if (({c})(x % y) != 0 && ((x < 0) != (y < 0))) q = ({c})(q - 1);\n")
    } else {
        String::new()
    };
    let mod_adjust = if signed {
        format!("  if (r != 0 && ((r < 0) != (y < 0))) r = ({c})(r + y);\n")
    } else {
        String::new()
    };
    write!(
        s,
        "FUTK_FN {c} {div}({c} x, {c} y) {{\n  if (y == 0) return 0;\n{neg1_quot}  {c} q = ({c})(x / y);\n{div_adjust}  return q;\n}}\n\
         FUTK_FN {c} {md}({c} x, {c} y) {{\n  if (y == 0) return 0;\n{neg1_rem}  {c} r = ({c})(x % y);\n{mod_adjust}  return r;\n}}\n\
         FUTK_FN {c} {quot}({c} x, {c} y) {{\n  if (y == 0) return 0;\n{neg1_quot}  return ({c})(x / y);\n}}\n\
         FUTK_FN {c} {rem}({c} x, {c} y) {{\n  if (y == 0) return 0;\n{neg1_rem}  return ({c})(x % y);\n}}\n",
        div = f("div"),
        md = f("mod"),
        quot = f("quot"),
        rem = f("rem"),
    )
    .ok();
    // Power by squaring, wrapping; 0 for a negative exponent (checked).
    let neg_exp = if signed {
        "  if (y < 0) return 0;\n"
    } else {
        ""
    };
    write!(
        s,
        "FUTK_FN {c} {pow}({c} x, {c} y) {{\n{neg_exp}  {u} acc = 1, b = ({u})x, e = ({u})y;\n  \
         while (e != 0) {{\n    if (e & 1) acc *= b;\n    b *= b;\n    e >>= 1;\n  }}\n  return ({c})acc;\n}}\n",
        pow = f("pow"),
    )
    .ok();
    // Shifts: amounts outside 0..w give 0 (-1 for `>>` of a negative).
    let out = if signed {
        format!("y < 0 || y >= {w}")
    } else {
        format!("y >= {w}")
    };
    let shr_out = if signed { "x < 0 ? -1 : 0" } else { "0" };
    write!(
        s,
        "FUTK_FN {c} {shl}({c} x, {c} y) {{ return ({out}) ? 0 : ({c})(({u})x << y); }}\n\
         FUTK_FN {c} {shr}({c} x, {c} y) {{ return ({out}) ? ({c})({shr_out}) : ({c})(x >> y); }}\n\
         FUTK_FN {c} {ushr}({c} x, {c} y) {{ return ({out}) ? 0 : ({c})(({uw})x >> y); }}\n\
         FUTK_FN {c} {min_f}({c} x, {c} y) {{ return x < y ? x : y; }}\n\
         FUTK_FN {c} {max_f}({c} x, {c} y) {{ return x < y ? y : x; }}\n",
        shl = f("shl"),
        shr = f("shr"),
        ushr = f("ushr"),
        min_f = f("min"),
        max_f = f("max"),
    )
    .ok();
    if signed {
        writeln!(
            s,
            "FUTK_FN {c} {}({c} x) {{ return x < 0 ? ({c})(0 - ({u})x) : x; }}\n\
             FUTK_FN {c} {}({c} x) {{ return ({c})((x > 0) - (x < 0)); }}",
            f("abs"),
            f("signum"),
        )
        .ok();
    } else {
        writeln!(
            s,
            "FUTK_FN {c} {}({c} x) {{ return ({c})(x != 0); }}",
            f("signum")
        )
        .ok();
    }
    // Bit counts, of the bits of the type's width; `Ctz` counts the ones
    // below the lowest one (all of them for 0).
    if w == 64 {
        writeln!(
            s,
            "FUTK_FN int {popc}({c} x) {{ return (int)futk_popc64((ulong)x); }}\n\
             FUTK_FN int {clz}({c} x) {{ return (int)futk_clz64((ulong)x); }}\n\
             FUTK_FN int {ctz}({c} x) {{ ulong v = (ulong)x; return (int)futk_popc64((v & (0 - v)) - 1); }}\n\
             FUTK_FN {c} {mul_hi}({c} x, {c} y) {{ return futk_{sign}mul_hi64(x, y); }}",
            popc = f("popc"),
            clz = f("clz"),
            ctz = f("ctz"),
            mul_hi = f("mul_hi"),
            sign = if signed { "s" } else { "u" },
        )
        .ok();
    } else {
        let mask = if w == 32 {
            "0xffffffffu".to_string()
        } else {
            format!("{:#x}u", (1u32 << w) - 1)
        };
        let wide = if signed { "long" } else { "ulong" };
        let narrow_wide = if signed { "int" } else { "uint" };
        let hi = if w == 32 {
            format!("({c})((({wide})x * ({wide})y) >> 32)")
        } else {
            format!("({c})((({narrow_wide})x * ({narrow_wide})y) >> {w})")
        };
        writeln!(
            s,
            "FUTK_FN int {popc}({c} x) {{ return (int)futk_popc32((uint)({uw})x); }}\n\
             FUTK_FN int {clz}({c} x) {{ return (int)futk_clz32((uint)({uw})x) - {pad}; }}\n\
             FUTK_FN int {ctz}({c} x) {{ uint v = (uint)({uw})x; return (int)futk_popc32(((v & (0 - v)) - 1) & {mask}); }}\n\
             FUTK_FN {c} {mul_hi}({c} x, {c} y) {{ return {hi}; }}",
            popc = f("popc"),
            clz = f("clz"),
            ctz = f("ctz"),
            mul_hi = f("mul_hi"),
            pad = 32 - w,
        )
        .ok();
    }
}

/// One-argument math functions computed through `double` for `f32` (and
/// by the C function for `f64`), with their C names.
const INEXACT_1: &[(MathFn, &str)] = &[
    (MathFn::Cbrt, "cbrt"),
    (MathFn::Exp, "exp"),
    (MathFn::Expm1, "expm1"),
    (MathFn::Log, "log"),
    (MathFn::Log2, "log2"),
    (MathFn::Log10, "log10"),
    (MathFn::Log1p, "log1p"),
    (MathFn::Sin, "sin"),
    (MathFn::Cos, "cos"),
    (MathFn::Tan, "tan"),
    (MathFn::Asin, "asin"),
    (MathFn::Acos, "acos"),
    (MathFn::Atan, "atan"),
    (MathFn::Sinh, "sinh"),
    (MathFn::Cosh, "cosh"),
    (MathFn::Tanh, "tanh"),
    (MathFn::Erf, "erf"),
    (MathFn::Erfc, "erfc"),
    (MathFn::Lgamma, "lgamma"),
    (MathFn::Gamma, "tgamma"),
];

/// One-argument functions exact in either precision (computed in the
/// operand's own), with their C names (CUDA adds `f` for `f32`).
const EXACT_1: &[(MathFn, &str)] = &[
    (MathFn::Sqrt, "sqrt"),
    (MathFn::Floor, "floor"),
    (MathFn::Ceil, "ceil"),
    (MathFn::Round, "rint"),
    (MathFn::Trunc, "trunc"),
];

/// The helpers of the float type `t` (`f32` or `f64`).
fn float_helpers(s: &mut String, target: Target, t: PrimType) {
    let c = c_type(t).unwrap_or("double");
    let n = t.name();
    let f32 = t == PrimType::F32;
    // The C name of an exact function at this type.
    let exact = |base: &str| {
        if f32 && target == Target::Cuda {
            format!("{base}f")
        } else {
            base.to_string()
        }
    };
    let (abs_mask, exp_mask) = if f32 {
        ("0x7fffffffu", "0x7f800000u")
    } else {
        ("0x7fffffffffffffffUL", "0x7ff0000000000000UL")
    };
    writeln!(s, "\n/* {n} */").ok();
    writeln!(
        s,
        "FUTK_FN bool {isnan}({c} x) {{ return (futk_bits_{n}(x) & {abs_mask}) > {exp_mask}; }}\n\
         FUTK_FN bool {isinf}({c} x) {{ return (futk_bits_{n}(x) & {abs_mask}) == {exp_mask}; }}\n\
         FUTK_FN {c} {min_f}({c} x, {c} y) {{ return {isnan}(x) ? y : (y < x ? y : x); }}\n\
         FUTK_FN {c} {max_f}({c} x, {c} y) {{ return {isnan}(x) ? y : (y > x ? y : x); }}\n\
         FUTK_FN {c} {signum}({c} x) {{ return x > 0 ? ({c})1 : x < 0 ? ({c})-1 : {isnan}(x) ? x : ({c})0; }}\n\
         FUTK_FN {c} {abs}({c} x) {{ return {fabs}(x); }}\n\
         FUTK_FN {c} {fmod}({c} x, {c} y) {{ return {fmod_c}(x, y); }}\n\
         FUTK_FN {c} {copysign}({c} x, {c} y) {{ return {copysign_c}(x, y); }}\n\
         FUTK_FN {c} {fma}({c} x, {c} y, {c} z) {{ return {fma_c}(x, y, z); }}",
        isnan = helper(MathFn::IsNan.name(), t),
        isinf = helper(MathFn::IsInf.name(), t),
        min_f = helper(BinOp::Min.name(), t),
        max_f = helper(BinOp::Max.name(), t),
        signum = helper("signum", t),
        abs = helper("abs", t),
        fabs = exact("fabs"),
        fmod = helper(BinOp::Mod.name(), t),
        fmod_c = exact("fmod"),
        copysign = helper(MathFn::CopySign.name(), t),
        copysign_c = exact("copysign"),
        fma = helper(MathFn::Fma.name(), t),
        fma_c = exact("fma"),
    )
    .ok();
    // `Mad`: the product and the sum rounded separately, in `f64` (for
    // `f32` operands the product is exact there, so the one rounding to
    // `f64` and the one to `f32` are the reference's).
    let mad = helper(MathFn::Mad.name(), t);
    if f32 {
        writeln!(
            s,
            "FUTK_FN float {mad}(float x, float y, float z) {{ return (float)((double)x * (double)y + (double)z); }}"
        )
        .ok();
    } else if target == Target::Cuda {
        writeln!(
            s,
            "FUTK_FN double {mad}(double x, double y, double z) {{ return __dadd_rn(__dmul_rn(x, y), z); }}"
        )
        .ok();
    } else {
        writeln!(
            s,
            "FUTK_FN double {mad}(double x, double y, double z) {{ double p = x * y; return p + z; }}"
        )
        .ok();
    }
    for (m, name) in EXACT_1 {
        writeln!(
            s,
            "FUTK_FN {c} {}({c} x) {{ return {}(x); }}",
            helper(m.name(), t),
            exact(name)
        )
        .ok();
    }
    let (into, from) = if f32 {
        ("(double)", "(float)")
    } else {
        ("", "")
    };
    // The inverse hyperbolic functions as the reference defines them (by
    // formulas over `log1p`, `hypot`, `sqrt` and `log`, not by the C
    // library's functions: `asinh` and `acosh` overflow to infinity for
    // operands near the greatest float).
    if f32 {
        for m in [MathFn::Asinh, MathFn::Acosh, MathFn::Atanh] {
            writeln!(
                s,
                "FUTK_FN float {}(float x) {{ return (float){}((double)x); }}",
                helper(m.name(), t),
                helper(m.name(), PrimType::F64)
            )
            .ok();
        }
    } else {
        writeln!(
            s,
            "FUTK_FN double {asinh}(double x) {{\n  double ax = fabs(x), ix = 1.0 / ax;\n  \
             return copysign(log1p(ax + ax / (hypot(1.0, ix) + ix)), x);\n}}\n\
             FUTK_FN double {acosh}(double x) {{\n  \
             return x < 1.0 ? futk_f64_of_bits(0x7ff8000000000000UL) : log(x + sqrt(x - 1.0) * sqrt(x + 1.0));\n}}\n\
             FUTK_FN double {atanh}(double x) {{ return 0.5 * log1p((2.0 * x) / (1.0 - x)); }}",
            asinh = helper(MathFn::Asinh.name(), t),
            acosh = helper(MathFn::Acosh.name(), t),
            atanh = helper(MathFn::Atanh.name(), t),
        )
        .ok();
    }
    for (m, name) in INEXACT_1 {
        writeln!(
            s,
            "FUTK_FN {c} {}({c} x) {{ return {from}{name}({into}x); }}",
            helper(m.name(), t)
        )
        .ok();
    }
    for (h, name) in [
        (helper(MathFn::Atan2.name(), t), "atan2"),
        (helper(MathFn::Hypot.name(), t), "hypot"),
        (helper(BinOp::Pow.name(), t), "pow"),
    ] {
        writeln!(
            s,
            "FUTK_FN {c} {h}({c} x, {c} y) {{ return {from}{name}({into}x, {into}y); }}"
        )
        .ok();
    }
    // Conversions to integers: NaN and the infinities give 0, others
    // truncate towards zero and wrap modulo 2^bits. `x - trunc(x / 2^64) *
    // 2^64` is exact (a float of magnitude 2^64 or more has no fraction
    // and the remainder needs fewer bits than `x`), so the remainder fits an
    // unsigned 64-bit cast after taking its sign off; the final cast wraps.
    let sfx = if f32 { "f" } else { "" };
    let trunc = exact("trunc");
    for to in INTS {
        let tc = c_type(to).unwrap_or("long");
        writeln!(
            s,
            "FUTK_FN {tc} futk_{n}_to_{}({c} x) {{\n  if (futk_isnan_{n}(x) || futk_isinf_{n}(x)) return 0;\n  \
             {c} r = x - {trunc}(x * 0x1p-64{sfx}) * 0x1p64{sfx};\n  \
             ulong u = r < 0 ? (ulong)0 - (ulong)(-r) : (ulong)r;\n  return ({tc})({})u;\n}}",
            to.name(),
            unsigned_type(to),
        )
        .ok();
    }
}
