#!/usr/bin/env python3
"""Generate prelude/math.fut: the numeric module types and the twelve
primitive-type modules (i8 ... u64, f16, f32, f64, bool).

Run from the repository root:  python3 tools/gen_prelude.py
The output is committed; edit this script, not the generated file.

Also writes the conversion / per-type part of the intrinsic list to
stdout with --list-intrinsics (used to keep prelude/INTRINSICS.md honest).
"""

import os
import sys

INTS = [  # name, bits, signed
    ("i8", 8, True), ("i16", 16, True), ("i32", 32, True), ("i64", 64, True),
    ("u8", 8, False), ("u16", 16, False), ("u32", 32, False), ("u64", 64, False),
]
FLOATS = [  # name, bits, int_t, mantissa bits, exponent bits
    ("f16", 16, "u16", 10, 5), ("f32", 32, "u32", 23, 8), ("f64", 64, "u64", 52, 11),
]
PRIMS = [t for t, _, _ in INTS] + [t for t, *_ in FLOATS] + ["bool"]

UNARY_MATH = ["sqrt", "cbrt", "exp", "log", "log2", "log10", "log1p",
              "sin", "cos", "tan", "asin", "acos", "atan",
              "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
              "gamma", "lgamma", "erf", "erfc", "floor", "ceil", "round"]
BINARY_MATH = ["atan2", "hypot"]

intrinsics = []  # (name, type) in order of first use


def intr(name, ty):
    if name not in [n for n, _ in intrinsics]:
        intrinsics.append((name, ty))
    return '__intrinsic "%s"' % name


def conversions(t):
    """Definitions of the from_prim functions of module t."""
    out = []
    for s in PRIMS:
        if s == t:
            out.append("  def %s (x: %s): %s = x" % (s, s, t))
        else:
            out.append("  def %s (x: %s): %s = %s" % (s, s, t, intr("%s.%s" % (t, s), "%s -> %s" % (s, t))))
    return out


def conv_expr_def(name, frm, to):
    """A helper def converting frm to to (hidden by the module signature)."""
    if frm == to:
        return "  def %s (x: %s): %s = x" % (name, frm, to)
    return "  def %s (x: %s): %s = %s" % (name, frm, to, intr("%s.%s" % (to, frm), "%s -> %s" % (frm, to)))


def all_ones(t, bits, signed):
    return "(-1%s)" % t if signed else "%d%s" % ((1 << bits) - 1, t)


def int_module(t, bits, signed):
    L = []
    L.append("-- | %d-bit %s integers.  Arithmetic wraps around on overflow." % (bits, "signed" if signed else "unsigned"))
    L.append("module %s: (integral with t = %s) = {" % (t, t))
    L.append("  type t = %s" % t)
    L.append("")
    L += conversions(t)
    L.append(conv_expr_def("to_i64", t, "i64"))
    L.append(conv_expr_def("to_i32_", t, "i32"))
    L.append("")
    if signed:
        hi = (1 << (bits - 1)) - 1
        L.append("  def highest: %s = %d%s" % (t, hi, t))
        L.append("  def lowest: %s = -%d%s - 1%s" % (t, hi, t, t))
    else:
        L.append("  def highest: %s = %d%s" % (t, (1 << bits) - 1, t))
        L.append("  def lowest: %s = 0%s" % (t, t))
    L.append("  def num_bits: i32 = %di32" % bits)
    if signed:
        L.append("  def neg (x: %s): %s = -x" % (t, t))
        L.append("  def abs (x: %s): %s = if x < 0%s then -x else x" % (t, t, t))
        L.append("  def sgn (x: %s): %s = if x > 0%s then 1%s else if x < 0%s then -1%s else 0%s" % (t, t, t, t, t, t, t))
    else:
        L.append("  def neg (x: %s): %s = 0%s - x" % (t, t, t))
        L.append("  def abs (x: %s): %s = x" % (t, t))
        L.append("  def sgn (x: %s): %s = if x > 0%s then 1%s else 0%s" % (t, t, t, t, t))
    L.append("  def max (x: %s) (y: %s): %s = if x < y then y else x" % (t, t, t))
    L.append("  def min (x: %s) (y: %s): %s = if y < x then y else x" % (t, t, t))
    L.append("  def not (x: %s): %s = x ^ %s" % (t, t, all_ones(t, bits, signed)))
    L.append("  def popc (x: %s): i32 = %s" % (t, intr("%s.popc" % t, "%s -> i32" % t)))
    L.append("  def clz (x: %s): i32 = %s" % (t, intr("%s.clz" % t, "%s -> i32" % t)))
    L.append("  def ctz (x: %s): i32 = %s" % (t, intr("%s.ctz" % t, "%s -> i32" % t)))
    L.append("  def mul_hi (x: %s) (y: %s): %s = %s" % (t, t, t, intr("%s.mul_hi" % t, "%s -> %s -> %s" % (t, t, t))))
    L.append("  def mad_hi (a: %s) (b: %s) (c: %s): %s = mul_hi a b + c" % (t, t, t, t))
    L.append("  def get_bit (bit: i32) (x: %s): i32 = to_i32_ ((x >> i32 bit) & 1%s)" % (t, t))
    L.append("  def set_bit (bit: i32) (x: %s) (b: i32): %s =" % (t, t))
    L.append("    let m = 1%s << i32 bit" % t)
    L.append("    in if b == 0i32 then x & not m else x | m")
    L.append("  def sum [n] (xs: [n]%s): %s = reduce (+) 0%s xs" % (t, t, t))
    L.append("  def product [n] (xs: [n]%s): %s = reduce (*) 1%s xs" % (t, t, t))
    L.append("  def maximum [n] (xs: [n]%s): %s = reduce max lowest xs" % (t, t))
    L.append("  def minimum [n] (xs: [n]%s): %s = reduce min highest xs" % (t, t))
    L.append("")
    L.append("  -- Operators come last, so that the definitions above use the")
    L.append("  -- built-in (overloaded) ones.")
    for op in ["+", "-", "*", "/", "%", "**", "//", "%%", "&", "|", "^", "<<", ">>", ">>>"]:
        L.append("  def (%s) (x: %s) (y: %s): %s = x %s y" % (op, t, t, t, op))
    for op in ["==", "!=", "<", ">", "<=", ">="]:
        L.append("  def (%s) (x: %s) (y: %s): bool = x %s y" % (op, t, t, op))
    L.append("}")
    return L


def float_lit(t, v):
    return "%s%s" % (v, t)


def float_module(t, bits, int_t, mb, eb):
    bias = (1 << (eb - 1)) - 1
    sign = 1 << (bits - 1)
    expmask = ((1 << eb) - 1) << mb
    ones = (1 << bits) - 1
    min_normal = 2.0 ** (1 - bias)
    scale_bits = mb + 2
    eps = {"f16": "0.0009765625", "f32": "1.1920928955078125e-7", "f64": "2.220446049250313e-16"}[t]
    z = "0.0" + t
    one = "1.0" + t
    L = []
    desc = {"f16": "16-bit (half precision) floats.  The mathematical functions are\n-- computed in single precision and rounded.",
            "f32": "32-bit (single precision) floats.",
            "f64": "64-bit (double precision) floats."}[t]
    L.append("-- | " + desc)
    L.append("module %s: (float with t = %s with int_t = %s) = {" % (t, t, int_t))
    L.append("  type t = %s" % t)
    L.append("  type int_t = %s" % int_t)
    L.append("")
    if t == "f16":
        L.append("  def up_ (x: f16): f32 = %s" % intr("f32.f16", "f16 -> f32"))
        L.append("  def down_ (x: f32): f16 = %s" % intr("f16.f32", "f32 -> f16"))
        for f in UNARY_MATH:
            L.append("  def %s (x: f16): f16 = down_ (f32.%s (up_ x))" % (f, f))
        for f in BINARY_MATH:
            L.append("  def %s (y: f16) (x: f16): f16 = down_ (f32.%s (up_ y) (up_ x))" % (f, f))
        L.append("  def fma (a: f16) (b: f16) (c: f16): f16 = down_ (f32.fma (up_ a) (up_ b) (up_ c))")
        L.append("  def ldexp (x: f16) (k: i32): f16 = down_ (f32.ldexp (up_ x) k)")
    else:
        for f in UNARY_MATH:
            L.append("  def %s (x: %s): %s = %s" % (f, t, t, intr("%s.%s" % (t, f), "%s -> %s" % (t, t))))
        for f in BINARY_MATH:
            L.append("  def %s (y: %s) (x: %s): %s = %s" % (f, t, t, t, intr("%s.%s" % (t, f), "%s -> %s -> %s" % (t, t, t))))
        L.append("  def fma (a: %s) (b: %s) (c: %s): %s = %s" % (t, t, t, t, intr("%s.fma" % t, "%s -> %s -> %s -> %s" % (t, t, t, t))))
        L.append("  def ldexp (x: %s) (k: i32): %s = %s" % (t, t, intr("%s.ldexp" % t, "%s -> i32 -> %s" % (t, t))))
    L.append("  def to_bits (x: %s): %s = %s" % (t, int_t, intr("%s.to_bits" % t, "%s -> %s" % (t, int_t))))
    L.append("  def from_bits (x: %s): %s = %s" % (int_t, t, intr("%s.from_bits" % t, "%s -> %s" % (int_t, t))))
    L.append(conv_expr_def("bits_to_i32_", int_t, "i32"))
    L.append(conv_expr_def("i32_to_bits_", "i32", int_t))
    L.append("")
    L += conversions(t)
    L.append(conv_expr_def("to_i64", t, "i64"))
    L.append(conv_expr_def("to_f64", t, "f64"))
    L.append("  def from_fraction (x: i64) (y: i64): %s = i64 x / i64 y" % t)
    L.append("")
    L.append("  def inf: %s = %s / %s" % (t, one, z))
    L.append("  def nan: %s = %s / %s" % (t, z, z))
    L.append("  def highest: %s = inf" % t)
    L.append("  def lowest: %s = -inf" % t)
    L.append("  def epsilon: %s = %s%s" % (t, eps, t))
    L.append("  def pi: %s = 3.14159265358979323846%s" % (t, t))
    L.append("  def e: %s = 2.71828182845904523536%s" % (t, t))
    L.append("  def num_bits: i32 = %di32" % bits)
    L.append("  def isnan (x: %s): bool = x != x" % t)
    L.append("  def isinf (x: %s): bool = x == inf || x == (-inf)" % t)
    L.append("  def neg (x: %s): %s = -x" % (t, t))
    L.append("  def recip (x: %s): %s = %s / x" % (t, t, one))
    L.append("  def abs (x: %s): %s = if x < %s then -x else if x == %s then %s else x" % (t, t, z, z, z))
    L.append("  def sgn (x: %s): %s = if x > %s then %s else if x < %s then -%s else x" % (t, t, z, one, z, one))
    L.append("  def max (x: %s) (y: %s): %s = if x >= y || isnan y then x else y" % (t, t, t))
    L.append("  def min (x: %s) (y: %s): %s = if x <= y || isnan y then x else y" % (t, t, t))
    L.append("  def trunc (x: %s): %s = if x < %s then ceil x else floor x" % (t, t, z))
    L.append("  def lerp (v0: %s) (v1: %s) (a: %s): %s = v0 + (v1 - v0) * a" % (t, t, t, t))
    L.append("  def mad (a: %s) (b: %s) (c: %s): %s = a * b + c" % (t, t, t, t))
    L.append("  def copysign (x: %s) (y: %s): %s =" % (t, t, t))
    # The sign comparison is on bits; the value is x or -x, so that AD
    # sees the derivative (1 or -1 with respect to x, 0 with respect to y).
    L.append("    if (to_bits x & %d%s) == (to_bits y & %d%s) then x else -x" % (sign, int_t, sign, int_t))
    L.append("  def nextafter (x: %s) (y: %s): %s =" % (t, t, t))
    L.append("    if isnan x || isnan y then nan")
    L.append("    else if x == y then y")
    L.append("    else if x == %s then (if y > %s then from_bits 1%s else from_bits %d%s)" % (z, z, int_t, sign | 1, int_t))
    L.append("    else if (x < y) == (x > %s) then from_bits (to_bits x + 1%s)" % (z, int_t))
    L.append("    else from_bits (to_bits x - 1%s)" % int_t)
    L.append("  def frexp (x: %s): (%s, i32) =" % (t, t))
    L.append("    if x == %s || isnan x || isinf x then (x, 0i32)" % z)
    L.append("    else let (y, adj) = if abs x < %r%s then (x * %d.0%s, %di32) else (x, 0i32)" % (min_normal, t, 1 << scale_bits, t, scale_bits))
    L.append("         let b = to_bits y")
    L.append("         let ex = bits_to_i32_ ((b >> %d%s) & %d%s)" % (mb, int_t, (1 << eb) - 1, int_t))
    L.append("         let m = from_bits ((b & %d%s) | %d%s)" % (ones ^ expmask, int_t, (bias - 1) << mb, int_t))
    L.append("         in (m, ex - %di32 - adj)" % (bias - 1))
    L.append("  def get_bit (bit: i32) (x: %s): i32 = bits_to_i32_ ((to_bits x >> i32_to_bits_ bit) & 1%s)" % (t, int_t))
    half = "0.5" + t
    L.append("  def rsqrt (x: %s): %s = %s / sqrt x" % (t, t, one))
    # The *pi functions reduce the argument to [-1, 1] exactly first, so
    # that whole (and, for cospi, half) multiples of pi give exact zeros.
    L.append("  def reduce_pi_ (x: %s): %s = x - 2%s * round (x / 2%s)" % (t, t, t, t))
    L.append("  def sinpi (x: %s): %s =" % (t, t))
    L.append("    let r = reduce_pi_ x in if r == round r then copysign %s x else sin (pi * r)" % z)
    L.append("  def cospi (x: %s): %s =" % (t, t))
    L.append("    let r = reduce_pi_ x in if r - %s == round (r - %s) then %s else cos (pi * r)" % (half, half, z))
    L.append("  def tanpi (x: %s): %s = sinpi x / cospi x" % (t, t))
    L.append("  def asinpi (x: %s): %s = asin x / pi" % (t, t))
    L.append("  def acospi (x: %s): %s = acos x / pi" % (t, t))
    L.append("  def atanpi (x: %s): %s = atan x / pi" % (t, t))
    L.append("  def atan2pi (y: %s) (x: %s): %s = atan2 y x / pi" % (t, t, t))
    L.append("  def set_bit (bit: i32) (x: %s) (b: i32): %s =" % (t, t))
    L.append("    let m = 1%s << i32_to_bits_ bit" % int_t)
    L.append("    in from_bits (if b == 0i32 then to_bits x & (m ^ %d%s) else to_bits x | m)" % (ones, int_t))
    L.append("  def sum [n] (xs: [n]%s): %s = reduce (+) %s xs" % (t, t, z))
    L.append("  def product [n] (xs: [n]%s): %s = reduce (*) %s xs" % (t, t, one))
    L.append("  def maximum [n] (xs: [n]%s): %s = reduce max lowest xs" % (t, t))
    L.append("  def minimum [n] (xs: [n]%s): %s = reduce min highest xs" % (t, t))
    L.append("")
    L.append("  -- Operators come last, so that the definitions above use the")
    L.append("  -- built-in (overloaded) ones.")
    for op in ["+", "-", "*", "/", "%", "**"]:
        L.append("  def (%s) (x: %s) (y: %s): %s = x %s y" % (op, t, t, t, op))
    for op in ["==", "!=", "<", ">", "<=", ">="]:
        L.append("  def (%s) (x: %s) (y: %s): bool = x %s y" % (op, t, t, op))
    L.append("}")
    return L


def bool_module():
    L = ["-- | Booleans as a `from_prim`@mtype: a number converts to `true` if it",
         "-- is non-zero (NaN counts as non-zero).",
         "module bool: (from_prim with t = bool) = {",
         "  type t = bool"]
    L += conversions("bool")
    L.append("}")
    return L


MODULE_TYPES = r'''
-- | Types whose values can be made from any primitive type.
module type from_prim = {
  type t
  -- | Conversion from `i8`.
  val i8: i8 -> t
  -- | Conversion from `i16`.
  val i16: i16 -> t
  -- | Conversion from `i32`.
  val i32: i32 -> t
  -- | Conversion from `i64`.
  val i64: i64 -> t
  -- | Conversion from `u8`.
  val u8: u8 -> t
  -- | Conversion from `u16`.
  val u16: u16 -> t
  -- | Conversion from `u32`.
  val u32: u32 -> t
  -- | Conversion from `u64`.
  val u64: u64 -> t
  -- | Conversion from `f16`.
  val f16: f16 -> t
  -- | Conversion from `f32`.
  val f32: f32 -> t
  -- | Conversion from `f64`.
  val f64: f64 -> t
  -- | Conversion from `bool` (`true` is one, `false` is zero).
  val bool: bool -> t
}

-- | Number types with the usual arithmetic, shared by integers and
-- floats.
module type numeric = {
  include from_prim
  val + : t -> t -> t
  val - : t -> t -> t
  val * : t -> t -> t
  -- | Division; for integers it rounds towards negative infinity.
  val / : t -> t -> t
  -- | Remainder matching `/`.
  val % : t -> t -> t
  -- | Exponentiation.
  val ** : t -> t -> t
  -- | Conversion to `i64` (floats are truncated).
  val to_i64: t -> i64
  val == : t -> t -> bool
  val < : t -> t -> bool
  val > : t -> t -> bool
  val <= : t -> t -> bool
  val >= : t -> t -> bool
  val != : t -> t -> bool
  -- | Arithmetic negation.
  val neg: t -> t
  -- | The larger of two numbers.
  val max: t -> t -> t
  -- | The smaller of two numbers.
  val min: t -> t -> t
  -- | Absolute value.
  val abs: t -> t
  -- | The sign: -1, 0 or 1 (for floats, zeros and NaN are returned as is).
  val sgn: t -> t
  -- | The greatest value of the type (infinity for floats).
  val highest: t
  -- | The least value of the type (minus infinity for floats).
  val lowest: t
  -- | Sum of the elements; zero for an empty array.
  val sum [n]: [n]t -> t
  -- | Product of the elements; one for an empty array.
  val product [n]: [n]t -> t
  -- | Greatest element; `lowest` for an empty array.
  val maximum [n]: [n]t -> t
  -- | Least element; `highest` for an empty array.
  val minimum [n]: [n]t -> t
}

-- | Integer types: `numeric` plus bit operations.
module type integral = {
  include numeric
  -- | Division rounding towards zero.
  val // : t -> t -> t
  -- | Remainder matching `//` (sign follows the dividend).
  val %% : t -> t -> t
  val & : t -> t -> t
  val | : t -> t -> t
  val ^ : t -> t -> t
  -- | Bitwise complement.
  val not: t -> t
  val << : t -> t -> t
  -- | Shift right; arithmetic for signed types, logical for unsigned.
  val >> : t -> t -> t
  -- | Logical shift right.
  val >>> : t -> t -> t
  -- | The number of bits in the type.
  val num_bits: i32
  -- | `get_bit i x` is bit `i` of `x` (0 is least significant), as 0 or 1.
  val get_bit: i32 -> t -> i32
  -- | `set_bit i x b` is `x` with bit `i` cleared if `b` is 0 and set otherwise.
  val set_bit: i32 -> t -> i32 -> t
  -- | The number of one bits.
  val popc: t -> i32
  -- | The upper half of the double-width product.
  val mul_hi: (x: t) -> (y: t) -> t
  -- | `mad_hi a b c` is `mul_hi a b + c`.
  val mad_hi: (a: t) -> (b: t) -> (c: t) -> t
  -- | Count leading zero bits (`num_bits` for zero).
  val clz: t -> i32
  -- | Count trailing zero bits (`num_bits` for zero).
  val ctz: t -> i32
}

-- | Integer types usable as sizes.  Currently the same as `integral`.
module type size = {
  include integral
}

-- | Approximations of the real numbers.
module type real = {
  include numeric
  -- | `recip x` is `1/x`.
  val recip: t -> t
  -- | `from_fraction a b` is `a/b`, rounded.
  val from_fraction: i64 -> i64 -> t
  -- | Conversion to `f64`.
  val to_f64: t -> f64
  -- | Square root.
  val sqrt: t -> t
  -- | `rsqrt x` is `1 / sqrt x`.
  val rsqrt: t -> t
  -- | Cube root.
  val cbrt: t -> t
  -- | Natural exponential.
  val exp: t -> t
  val sin: t -> t
  val cos: t -> t
  val tan: t -> t
  val asin: t -> t
  val acos: t -> t
  val atan: t -> t
  val sinh: t -> t
  val cosh: t -> t
  val tanh: t -> t
  val asinh: t -> t
  val acosh: t -> t
  val atanh: t -> t
  -- | `atan2 y x` is the angle of the point `(x, y)`.
  val atan2: t -> t -> t
  -- | `sinpi x` is `sin (pi * x)`, exactly zero at whole `x`.
  val sinpi: t -> t
  -- | `cospi x` is `cos (pi * x)`, exactly zero at `x` a whole number
  -- plus one half.
  val cospi: t -> t
  -- | `tanpi x` is `tan (pi * x)`.
  val tanpi: t -> t
  -- | `asinpi x` is `asin x / pi`.
  val asinpi: t -> t
  -- | `acospi x` is `acos x / pi`.
  val acospi: t -> t
  -- | `atanpi x` is `atan x / pi`.
  val atanpi: t -> t
  -- | `atan2pi y x` is `atan2 y x / pi`.
  val atan2pi: t -> t -> t
  -- | `hypot x y` is `sqrt (x*x + y*y)` without undue overflow.
  val hypot: t -> t -> t
  -- | The gamma function.
  val gamma: t -> t
  -- | The natural logarithm of the absolute value of `gamma`.
  val lgamma: t -> t
  -- | The error function.
  val erf: t -> t
  -- | The complementary error function, `1 - erf x`.
  val erfc: t -> t
  -- | `lerp a b t` is `a + (b - a) * t`; `t` should be in [0,1].
  val lerp: t -> t -> t -> t
  -- | Natural logarithm.
  val log: t -> t
  -- | Base-2 logarithm.
  val log2: t -> t
  -- | Base-10 logarithm.
  val log10: t -> t
  -- | `log1p x` is `log (1 + x)`, accurate for small `x`.
  val log1p: t -> t
  -- | Round towards plus infinity.
  val ceil: t -> t
  -- | Round towards minus infinity.
  val floor: t -> t
  -- | Round towards zero.
  val trunc: t -> t
  -- | Round to the nearest integer; halfway cases go to the even one.
  val round: t -> t
  -- | `mad a b c` is `a*b + c`, possibly fused.
  val mad: (a: t) -> (b: t) -> (c: t) -> t
  -- | `fma a b c` is `a*b + c` with a single rounding.
  val fma: (a: t) -> (b: t) -> (c: t) -> t
  -- | True for plus and minus infinity.
  val isinf: t -> bool
  -- | True for NaN.
  val isnan: t -> bool
  -- | Positive infinity.
  val inf: t
  -- | A quiet NaN.
  val nan: t
  -- | The constant π.
  val pi: t
  -- | The constant e.
  val e: t
}

-- | IEEE floating-point types: `real` plus access to the bits.
-- Converting a NaN or an infinity to an integer type gives zero; other
-- out-of-range values saturate at the integer type's bounds.
module type float = {
  include real
  -- | The unsigned integer type with the same number of bits.
  type int_t
  -- | Reinterpret bits as a float.
  val from_bits: int_t -> t
  -- | The bits of a float.
  val to_bits: t -> int_t
  -- | The number of bits in the type.
  val num_bits: i32
  -- | Bit `i` of the representation, as 0 or 1.
  val get_bit: i32 -> t -> i32
  -- | Set (b non-zero) or clear (b zero) bit `i` of the representation.
  val set_bit: i32 -> t -> i32 -> t
  -- | The distance from 1 to the next larger float.
  val epsilon: t
  -- | The next float after `x` in the direction of `y`.
  val nextafter: (x: t) -> (y: t) -> t
  -- | `ldexp x k` is `x * 2**k`.
  val ldexp: t -> i32 -> t
  -- | `copysign x y` has the magnitude of `x` and the sign of `y`.
  val copysign: t -> t -> t
  -- | `frexp x` is `(m, k)` with `x == m * 2**k` and `0.5 <= abs m < 1`;
  -- zero, infinities and NaN give `(x, 0)`.
  val frexp: t -> (t, i32)
}
'''

POLY = [
 ("map", "'a [n] 'x. (f: a -> x) -> (xs: [n]a) -> *[n]x",
  "`[f xs[0], ..., f xs[n-1]]`, applied in index order. A run-time error raised by `f` propagates (the interpreter reports the one for the lowest index)."),
 ("reduce", "[n] 'a. (op: a -> a -> a) -> (ne: a) -> (xs: [n]a) -> a",
  "`op (... (op (op ne xs[0]) xs[1]) ...) xs[n-1]`; `ne` for `n == 0`. The interpreter uses exactly this left-to-right order; compiled code may re-associate and insert extra `ne`, which is why `op` must be associative with neutral element `ne`."),
 ("reduce_comm", "[n] 'a. (op: a -> a -> a) -> (ne: a) -> (xs: [n]a) -> a",
  "Same result as `reduce` (the caller promises `op` is also commutative, so compiled code may reorder operands)."),
 ("scan", "[n] 'a. (op: a -> a -> a) -> (ne: a) -> (xs: [n]a) -> *[n]a",
  "Inclusive scan: `r[0] = op ne xs[0]`, `r[i] = op r[i-1] xs[i]`. Empty input gives an empty result."),
 ("reduce_by_index", "'a [k] [n]. (dest: *[k]a) -> (f: a -> a -> a) -> (ne: a) -> (is: [n]i64) -> (vs: [n]a) -> *[k]a",
  "For `j = 0 .. n-1` in order: if `0 <= is[j] < k` then `dest[is[j]] = f dest[is[j]] vs[j]`; indices out of range (negative or `>= k`) are **ignored**, no error. `ne` is not needed by this sequential meaning (compiled code uses it to initialise partial histograms). Returns the updated `dest` (consumed: may be updated in place). If `is` and `vs` differ in length: error `Size mismatch`."),
 ("scatter", "'t [k] [n]. (dest: *[k]t) -> (is: [n]i64) -> (vs: [n]t) -> *[k]t",
  "For `j = 0 .. n-1` in order: if `0 <= is[j] < k` then `dest[is[j]] = vs[j]`; out-of-range indices are **ignored**, no error. With duplicate indices the interpreter lets the last write win, but programs must not depend on which write wins. `dest` is consumed. Length mismatch of `is`/`vs`: `Size mismatch`."),
 ("iota", "(n: i64) -> *[n]i64",
  "`[0, 1, ..., n-1]`; empty for `n == 0`. `n < 0`: run-time error `Invalid range: iota of negative size <n>.`"),
 ("replicate", "'t. (n: i64) -> (x: t) -> *[n]t",
  "An array of `n` copies of `x` (`x` may itself be an array; the result then has shape `[n]` followed by the shape of `x`). `n < 0`: run-time error `Invalid range: replicate of negative size <n>.`"),
 ("copy", "'t. (x: t) -> *t",
  "A deep copy of `x` (any non-function value: scalar, array, tuple, record, sum). The result shares no storage with anything."),
 ("concat", "[n] [m] 't. (xs: [n]t) -> (ys: [m]t) -> *[n + m]t",
  "The elements of `xs` followed by those of `ys`. If the row shapes differ (only possible if the type checker let it through): `Size mismatch`."),
 ("flatten", "[n] [m] 't. (xs: [n][m]t) -> [n * m]t",
  "Row-major merge of the two outer dimensions: element `(i, j)` goes to `i*m + j`. Inner dimensions are kept. Works for `n == 0` or `m == 0` (the result is empty; its row shape is the shape of `t`)."),
 ("unflatten", "'t [p]. (n: i64) -> (m: i64) -> (xs: [p]t) -> [n][m]t",
  "Inverse of `flatten`: element `i*m + j` goes to `(i, j)`. If `n < 0`, `m < 0` or `n*m != p`: run-time error `Invalid reshape: cannot unflatten an array of shape [<p>] to [<n>][<m>].`"),
 ("transpose", "[n] [m] 't. (xs: [n][m]t) -> [m][n]t",
  "`r[j][i] = xs[i][j]`; only the two outer dimensions are swapped. For `n == 0` the result has shape `[m][0]...`, so empty arrays must keep their full shape in the value representation."),
 ("zip", "'a 'b [n]. (xs: [n]a) -> (ys: [n]b) -> *[n](a, b)",
  "Pairs `(xs[i], ys[i])`. If the lengths differ: `Size mismatch`."),
 ("unzip", "'a 'b [n]. (xys: [n](a, b)) -> ([n]a, [n]b)",
  "The arrays of first and second components. For an empty input both results are empty (with the row shapes of `a` and `b`)."),
 ("jvp2", "'a 'b. (f: a -> b) -> (x: a) -> (dx: a) -> (b, b)",
  "Forward-mode AD: `(f x, J_f(x) · dx)`. `x` and `dx` have the same type and shape; floating-point and integer scalars carry tangents. As in Futhark, integers are differentiated with integer arithmetic of their own type: each operation's partial derivatives are evaluated as integers (wrapping; `/` rounds down), so `jvp2 (\\x -> x * x) 7i32 1i32 == (49, 14)`, while the partial of `x / y` with respect to `x` is `1 / y`, zero unless `y` is ±1. `+ - * / ** min max` propagate derivatives; other integer operations (`%`, bitwise operations, shifts) give a zero derivative. Numeric conversions pass (co)tangents on, converted to the target type (the derivative of `f64.i32` and of `i32.f64` is 1); conversions to and from `bool` drop them. Boolean parts of `dx` are ignored and the tangent of a boolean part of the result is `false`. `dx` of a different shape than `x`: `Size mismatch`. Must work when nested with itself and with `vjp2`, and when `f` closes over variables (their tangent is zero)."),
 ("vjp2", "'a 'b. (f: a -> b) -> (x: a) -> (dy: b) -> (b, a)",
  "Reverse-mode AD: `(f x, J_f(x)ᵀ · dy)`. `dy` has the type and shape of `f x`; integer parts of `x` get integer cotangents, computed with integer arithmetic as in `jvp2` (`vjp2 (\\x -> x * x) 7i32 1i32 == (49, 14)`); boolean parts of the returned input cotangent are `false`. Free variables of `f` receive no cotangent. Errors raised by `f` propagate."),
 ("jmp2", "'a 'b [k]. (f: a -> b) -> (x: a) -> (dxs: [k]a) -> (b, [k]b)",
  "`(f x, map (\\dx -> (jvp2 f x dx).1) dxs)`. For `k == 0` the second component is empty and `f x` is still computed."),
 ("mjp2", "'a 'b [k]. (f: a -> b) -> (x: a) -> (dys: [k]b) -> (b, [k]a)",
  "`(f x, map (\\dy -> (vjp2 f x dy).1) dys)`. For `k == 0` the second component is empty and `f x` is still computed."),
 ("with_vjp", "'a 'b. (f: a -> b) -> (f': b -> b -> a) -> (x: a) -> b",
  "Not under AD: `f x` (`f'` is not called). Under reverse mode, the cotangent contributed to `x` is `f' y dy`, where `y = f x` and `dy` is the cotangent of `y`; `f` is not differentiated. Under forward mode, `f` is differentiated normally and `f'` ignored."),
]

HEAD = """# Intrinsics of the prelude

GENERATED by `tools/gen_prelude.py` -- edit the script, not this file.

A prelude definition whose body is exactly `__intrinsic "NAME"` is
implemented natively by the interpreter and the backends.  The native
code receives the definition's **value** parameters in order (size and
type parameters are not passed; a tuple parameter arrives as one tuple
value) and must return a value of the declared return type.  Every
intrinsic used anywhere in `prelude/` is listed below; the script fails
if one is missing.

Everything else in the prelude is ordinary Futhark on top of these and
of the built-in overloaded operators (`+ - * / % // %% ** == != < <= > >=
& | ^ << >> >>> && ||`, unary `-` and `!`), which are not intrinsics.

Run-time error messages below are the text after `Error: `; tests match
them with the phrases of `docs/diagnostics.md` (`Invalid range`,
`Invalid reshape`, `Size mismatch`).

## Polymorphic intrinsics

Types are written as `type-params. parameter types -> result`.

| name | type | semantics |
|------|------|-----------|
"""

FAMILIES = """
## Per-type intrinsics

Names are `"<prim>.<fn>"`.  Integer types: `i8 i16 i32 i64 u8 u16 u32 u64`;
float types with native math: `f32 f64`.  `f16` has only conversions and
`to_bits`/`from_bits` natively; its mathematical functions are written in
Futhark by converting to `f32` and back.

### Conversions `"<to>.<from>"` (132 names)

For every pair of distinct types `to`, `from` in
`i8 i16 i32 i64 u8 u16 u32 u64 f16 f32 f64 bool`, the intrinsic
`"<to>.<from>"` has type `from -> to` (for example `"f64.i32"` converts an
`i32` to an `f64`).  Semantics:

| from \\ to | integer | float | bool |
|---|---|---|---|
| integer | two's complement: truncate to the target width; widen by sign extension only when both types are signed, zero extension otherwise, as Futhark does (so `u8.i8 (-1) == 255`, `u64.i16 (-32768) == 32768`, `i64.i8 (-1) == -1`, `i8.u8 200 == -56`, `i64.u32 4294967295 == 4294967295`) | nearest representable value, ties to even | `x != 0` |
| float | truncate towards zero, then wrap modulo 2^bits of the target (as Futhark does: `u32.f32 (-1) == 4294967295`, `u8.f64 (-1.5) == 255`, `i8.f64 300 == 44`; exact for every magnitude, a float of magnitude 2^127 or more giving 0); NaN and ±inf give 0 | IEEE conversion, round to nearest even; overflow gives ±inf; NaN stays NaN | `x != 0` (NaN gives `true`, `-0.0` gives `false`) |
| bool | `true` is 1, `false` is 0 | `true` is 1.0, `false` is 0.0 | (identity, not an intrinsic) |

### Integer functions (4 × 8 names)

| name | type | semantics |
|---|---|---|
| `"<int>.popc"` | `t -> i32` | number of one bits in the two's complement representation |
| `"<int>.clz"` | `t -> i32` | number of leading zero bits; the bit width for 0 |
| `"<int>.ctz"` | `t -> i32` | number of trailing zero bits; the bit width for 0 |
| `"<int>.mul_hi"` | `t -> t -> t` | upper half of the exact double-width product (signed product for signed types, unsigned for unsigned) |

### Float functions (32 × 2 names, plus 2 for f16)

For `t` in `f32 f64` (all on IEEE values, results as C99 `<math.h>` /
Rust's `f32`/`f64` methods; NaN in gives NaN out unless stated):

| name | type | semantics |
|---|---|---|
"""

FLOAT_SEM = [
 ("sqrt", "t -> t", "square root (correctly rounded); negative gives NaN"),
 ("cbrt", "t -> t", "cube root; defined for negative numbers"),
 ("exp", "t -> t", "e^x"),
 ("log", "t -> t", "natural logarithm; 0 gives -inf, negative gives NaN"),
 ("log2", "t -> t", "base-2 logarithm"),
 ("log10", "t -> t", "base-10 logarithm"),
 ("log1p", "t -> t", "log(1+x), accurate near 0"),
 ("sin", "t -> t", "sine (radians)"), ("cos", "t -> t", "cosine"), ("tan", "t -> t", "tangent"),
 ("asin", "t -> t", "arc sine; outside [-1,1] gives NaN"), ("acos", "t -> t", "arc cosine"), ("atan", "t -> t", "arc tangent"),
 ("sinh", "t -> t", "hyperbolic sine"), ("cosh", "t -> t", "hyperbolic cosine"), ("tanh", "t -> t", "hyperbolic tangent"),
 ("asinh", "t -> t", "inverse hyperbolic sine"), ("acosh", "t -> t", "inverse hyperbolic cosine; below 1 gives NaN"), ("atanh", "t -> t", "inverse hyperbolic tangent; ±1 gives ±inf"),
 ("gamma", "t -> t", "the gamma function Γ(x) (C `tgamma`)"),
 ("lgamma", "t -> t", "ln|Γ(x)| (C `lgamma`)"),
 ("erf", "t -> t", "error function"), ("erfc", "t -> t", "complementary error function 1 - erf(x)"),
 ("floor", "t -> t", "round towards -inf"), ("ceil", "t -> t", "round towards +inf"),
 ("round", "t -> t", "round to nearest integer, halfway cases to the **even** integer (`round 2.5 == 2`, `round (-0.5) == -0`)"),
 ("atan2", "t -> t -> t", "`atan2 y x`: C `atan2(y, x)`, first argument is y (`atan2 1 0 == pi/2`)"),
 ("hypot", "t -> t -> t", "sqrt(a²+b²) without intermediate overflow"),
 ("fma", "t -> t -> t -> t", "`fma a b c` = a·b+c with one rounding"),
 ("ldexp", "t -> i32 -> t", "`ldexp x k` = x·2^k correctly rounded (C `ldexp`/`scalbn`), overflow gives ±inf"),
 ("to_bits", "t -> int_t", "the IEEE bit pattern (`int_t` = u32 for f32, u64 for f64); NaN payloads preserved"),
 ("from_bits", "int_t -> t", "reinterpret a bit pattern as a float"),
]

TAIL = """
For `f16`: `"f16.to_bits"` (`f16 -> u16`) and `"f16.from_bits"` (`u16 -> f16`),
IEEE binary16 bit patterns.

## Complete list

Every intrinsic name used in `prelude/`, with the type at which it is used.

| name | type |
|------|------|
"""


HEADER = '''-- | Numeric module types and the modules for the primitive types.
--
-- GENERATED by tools/gen_prelude.py -- do not edit by hand.

import "soacs"
'''


def main():
    L = [HEADER.rstrip("\n"), MODULE_TYPES.rstrip("\n"), ""]
    for t, bits, signed in INTS:
        L += int_module(t, bits, signed)
        L.append("")
    # f64 and f32 before f16, which is defined in terms of f32.
    for t, bits, int_t, mb, eb in reversed(FLOATS):
        L += float_module(t, bits, int_t, mb, eb)
        L.append("")
    L += bool_module()
    text = "\n".join(L) + "\n"
    if "--list-intrinsics" in sys.argv:
        for n, ty in intrinsics:
            print("%s\t%s" % (n, ty))
        return
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    with open(os.path.join(root, "prelude", "math.fut"), "w") as f:
        f.write(text)
    write_intrinsics_md(root)


def write_intrinsics_md(root):
    import re
    used = {}
    pdir = os.path.join(root, "prelude")
    for fn in sorted(os.listdir(pdir)):
        if fn.endswith(".fut"):
            for m in re.finditer(r'__intrinsic "([^"]+)"', open(os.path.join(pdir, fn)).read()):
                used.setdefault(m.group(1), fn)
    poly = {n: ty for n, ty, _ in POLY}
    per = dict(intrinsics)
    missing = [n for n in used if n not in poly and n not in per]
    if missing:
        sys.exit("intrinsics used but not documented: %s" % ", ".join(missing))
    unused = [n for n in list(poly) + list(per) if n not in used]
    if unused:
        sys.exit("intrinsics documented but not used: %s" % ", ".join(unused))
    out = [HEAD.rstrip("\n")]
    for n, ty, sem in POLY:
        out.append("| `%s` | `%s` | %s |" % (n, ty, sem.replace("|", "\\|")))
    out.append(FAMILIES.rstrip("\n"))
    for n, ty, sem in FLOAT_SEM:
        out.append("| `\"<t>.%s\"` | `%s` | %s |" % (n, ty, sem))
    out.append(TAIL.rstrip("\n"))
    names = [n for n, _, _ in POLY] + [n for n, _ in intrinsics]
    for n in names:
        out.append("| `%s` | `%s` |" % (n, poly.get(n) or per[n]))
    out.append("")
    out.append("Total: %d intrinsics (%d polymorphic, %d per-type)." % (len(names), len(POLY), len(intrinsics)))
    with open(os.path.join(pdir, "INTRINSICS.md"), "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
