//! The IR's data model: programs, functions, bodies, statements and
//! expressions.
//!
//! A [`Program`] is a set of [`Function`]s in an arena indexed by [`FunId`]
//! plus the signatures of its entry points. Each function owns the arena of
//! all its variables ([`VarInfo`]: a name and a [`Type`]), including those
//! bound inside its lambdas and loops; every other structure refers to
//! variables by [`VarId`].
//!
//! The IR is in A-normal form: a [`Body`] is a list of statements and a list
//! of result [`Operand`]s; a [`Stm`] binds a pattern (a list of variables) to
//! the results of one [`Exp`], whose arguments are operands (variables or
//! constants), never nested expressions. Bodies nest only inside `if`,
//! `loop` and [`Lambda`]s.

use values::{PrimType, PrimValue};

use crate::arena::PrimaryMap;
use crate::ids::{FunId, VarId};
use crate::types::{Size, Span, Type};

/// A whole program.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// The functions; an [`Exp::Apply`] refers to one by id.
    pub functions: PrimaryMap<FunId, Function>,
    /// The entry points, each a function with its external signature.
    pub entries: Vec<EntryPoint>,
}

impl Program {
    /// The function named `name`.
    pub fn function_by_name(&self, name: &str) -> Option<FunId> {
        self.functions
            .iter()
            .find(|(_, f)| f.name == name)
            .map(|(id, _)| id)
    }
}

/// An entry point: the external name of a function and how the external
/// parameters and results (which may be tuples or records) map to the
/// function's flat IR parameters and results.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    /// The name users call it by.
    pub name: String,
    /// The function it runs.
    pub fun: FunId,
    /// The external parameters, in order.
    pub params: Vec<EntryValue>,
    /// The external results, in order.
    pub results: Vec<EntryValue>,
}

/// One external parameter or result of an entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryValue {
    /// The type as the source program spells it (`[]f64`, `(i32, f32)`).
    pub ty: String,
    /// True when declared unique (`*[]f64`).
    pub unique: bool,
    /// How many consecutive IR parameters or results it covers.
    pub values: u32,
}

/// A variable's name and type.
#[derive(Clone, Debug, PartialEq)]
pub struct VarInfo {
    /// The name, unique within the function when built with the builder
    /// or parsed.
    pub name: String,
    /// The type.
    pub ty: Type,
}

/// A function: first-order and monomorphic.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// The name.
    pub name: String,
    /// Attributes (`inline`, `noinline`, ...).
    pub attrs: Vec<Attr>,
    /// The parameters.
    pub params: Vec<Param>,
    /// The result types. Sizes may name parameters; `?` is a size the
    /// caller cannot know in advance.
    pub ret: Vec<Type>,
    /// The body; its results have the types `ret`.
    pub body: Body,
    /// Every variable of the function, its lambdas and loops.
    pub vars: PrimaryMap<VarId, VarInfo>,
}

impl Function {
    /// The type of variable `v`, if it belongs to this function.
    pub fn var_type(&self, v: VarId) -> Option<&Type> {
        self.vars.get(v).map(|i| &i.ty)
    }

    /// The name of variable `v`, if it belongs to this function.
    pub fn var_name(&self, v: VarId) -> Option<&str> {
        self.vars.get(v).map(|i| i.name.as_str())
    }
}

/// A parameter of a function, loop or lambda.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The variable it binds.
    pub var: VarId,
    /// True when declared unique (`*`): the argument is consumed and the
    /// body may update the parameter in place.
    pub unique: bool,
}

impl Param {
    /// A non-unique parameter.
    pub fn new(var: VarId) -> Param {
        Param { var, unique: false }
    }

    /// A unique parameter.
    pub fn unique(var: VarId) -> Param {
        Param { var, unique: true }
    }
}

/// Statements and the operands they produce.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Body {
    /// The statements, in order.
    pub stms: Vec<Stm>,
    /// The results.
    pub result: Vec<Operand>,
}

/// `pat = exp`, with attributes and the source span it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Stm {
    /// The variables bound, one per result of `exp`.
    pub pat: Vec<VarId>,
    /// The expression.
    pub exp: Exp,
    /// Attributes.
    pub attrs: Vec<Attr>,
    /// Where in the source it came from; run-time errors report it.
    pub span: Span,
}

/// An attribute on a statement or function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Attr {
    /// `stripmine(n)`: split a loop `n` times for reverse AD.
    Stripmine(u32),
    /// `bound(n)`: a while loop runs at most `n` iterations.
    Bound(i64),
    /// `true_dep`: a loop parameter that is a true dependency.
    TrueDep,
    /// `sequential`: do not parallelise.
    Sequential,
    /// `unsafe`: omit bounds checks.
    Unsafe,
    /// `noinline`: never inline this call or function.
    NoInline,
    /// `inline`: always inline this call or function.
    Inline,
}

/// A variable or a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// A variable.
    Var(VarId),
    /// A constant.
    Const(PrimValue),
}

impl From<VarId> for Operand {
    fn from(v: VarId) -> Self {
        Operand::Var(v)
    }
}

impl From<PrimValue> for Operand {
    fn from(c: PrimValue) -> Self {
        Operand::Const(c)
    }
}

impl Operand {
    /// An `i64` constant.
    pub fn i64(x: i64) -> Operand {
        Operand::Const(PrimValue::I64(x))
    }

    /// The variable, if it is one.
    pub fn var(&self) -> Option<VarId> {
        match self {
            Operand::Var(v) => Some(*v),
            Operand::Const(_) => None,
        }
    }

    /// The operand as a size: a variable or an `i64` constant; `?`
    /// otherwise.
    pub fn to_size(&self) -> Size {
        match self {
            Operand::Var(v) => Size::Var(*v),
            Operand::Const(PrimValue::I64(n)) => Size::Const(*n),
            Operand::Const(_) => Size::Any,
        }
    }
}

/// One dimension of an index or slice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DimIndex {
    /// A fixed index: the dimension disappears.
    Fix(Operand),
    /// `start:+len*stride`: the elements `start + k*stride` for
    /// `k < len`; the dimension has size `len`.
    Range {
        /// First index.
        start: Operand,
        /// Number of elements.
        len: Operand,
        /// Distance between elements (may be negative, not zero unless
        /// `len` is zero).
        stride: Operand,
    },
}

/// Unary scalar operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Negation (wrapping for integers).
    Neg,
    /// Logical not of a `bool`; bitwise complement of an integer.
    Not,
    /// Absolute value (wrapping for the minimum integer).
    Abs,
    /// -1, 0 or 1 by sign (NaN stays NaN).
    Signum,
}

/// Binary scalar operators; both operands have the same type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// Wrapping addition.
    Add,
    /// Wrapping subtraction.
    Sub,
    /// Wrapping multiplication.
    Mul,
    /// Division; for integers rounding towards negative infinity.
    Div,
    /// Remainder of `Div` (the sign of the divisor) for integers; `fmod`
    /// for floats.
    Mod,
    /// Integer division rounding towards zero.
    Quot,
    /// Remainder of `Quot` (the sign of the dividend); `fmod` for floats.
    Rem,
    /// Power; for integers the exponent must not be negative.
    Pow,
    /// Minimum (for floats a NaN operand is ignored).
    Min,
    /// Maximum (for floats a NaN operand is ignored).
    Max,
    /// Bitwise and; logical and for `bool`.
    And,
    /// Bitwise or; logical or for `bool`.
    Or,
    /// Bitwise exclusive or; logical for `bool`.
    Xor,
    /// Shift left.
    Shl,
    /// Shift right: arithmetic for signed, logical for unsigned types.
    Shr,
    /// Logical shift right.
    UShr,
}

/// Comparisons; both operands have the same type, the result is `bool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less than.
    Lt,
    /// Less than or equal.
    Le,
    /// Greater than.
    Gt,
    /// Greater than or equal.
    Ge,
}

/// How a conversion treats its argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConvKind {
    /// Value conversion: integers wrap, floats to integers truncate
    /// towards zero and wrap (NaN gives 0), `bool` is 0 or 1; integers sign-extend
    /// only from a signed type to a signed one.
    Convert,
    /// Reinterpret the bits of a type of the same size (`f64.to_bits`).
    Bitcast,
}

/// Named math functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    /// Square root.
    Sqrt,
    /// Cube root.
    Cbrt,
    /// e^x.
    Exp,
    /// e^x - 1.
    Expm1,
    /// Natural logarithm.
    Log,
    /// Base-2 logarithm.
    Log2,
    /// Base-10 logarithm.
    Log10,
    /// ln(1 + x).
    Log1p,
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Arcsine.
    Asin,
    /// Arccosine.
    Acos,
    /// Arctangent.
    Atan,
    /// Hyperbolic sine.
    Sinh,
    /// Hyperbolic cosine.
    Cosh,
    /// Hyperbolic tangent.
    Tanh,
    /// Inverse hyperbolic sine.
    Asinh,
    /// Inverse hyperbolic cosine.
    Acosh,
    /// Inverse hyperbolic tangent.
    Atanh,
    /// Two-argument arctangent `atan2(y, x)`.
    Atan2,
    /// sqrt(x² + y²).
    Hypot,
    /// Error function.
    Erf,
    /// Complementary error function.
    Erfc,
    /// Logarithm of the absolute value of the gamma function.
    Lgamma,
    /// The gamma function.
    Gamma,
    /// Fused multiply-add `a*b + c`.
    Fma,
    /// Multiply-add `a*b + c`, possibly unfused.
    Mad,
    /// Round down.
    Floor,
    /// Round up.
    Ceil,
    /// Round to nearest, ties to even.
    Round,
    /// Round towards zero.
    Trunc,
    /// Is NaN (result `bool`).
    IsNan,
    /// Is infinite (result `bool`).
    IsInf,
    /// Magnitude of the first, sign of the second.
    CopySign,
    /// Number of set bits (result `i32`).
    Popc,
    /// Count of leading zero bits (result `i32`).
    Clz,
    /// Count of trailing zero bits (result `i32`).
    Ctz,
    /// The high half of the full product of two integers.
    MulHi,
}

/// One statement's expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Exp {
    /// The operand itself (an alias of an array variable).
    Atom(Operand),
    /// A unary operator.
    UnOp(UnOp, Operand),
    /// A binary operator.
    BinOp(BinOp, Operand, Operand),
    /// A comparison.
    Cmp(CmpOp, Operand, Operand),
    /// A conversion to the given type.
    Convert(ConvKind, PrimType, Operand),
    /// A math function.
    Math(MathFn, Vec<Operand>),
    /// Indexing and slicing: an element or a (strided) sub-array.
    Index(VarId, Vec<DimIndex>),
    /// In-place update `arr with [idx] = value`; consumes `arr`.
    Update(VarId, Vec<DimIndex>, Operand),
    /// `[start, start+step, ...]` of length `n`; the element type is that
    /// of `start`.
    Iota {
        /// Length (`i64`).
        n: Operand,
        /// First element.
        start: Operand,
        /// Step.
        step: Operand,
    },
    /// An array of the given outer shape filled with `value`.
    Replicate {
        /// The outer dimensions.
        shape: Vec<Size>,
        /// The element (a scalar or an array).
        value: Operand,
    },
    /// The same elements in row-major order with another shape.
    Reshape {
        /// The new shape.
        shape: Vec<Size>,
        /// The array.
        arr: VarId,
    },
    /// Permuted dimensions: dimension `i` of the result is dimension
    /// `perm[i]` of `arr`.
    Rearrange {
        /// The permutation.
        perm: Vec<usize>,
        /// The array.
        arr: VarId,
    },
    /// Concatenation along dimension `dim`; the result has size `len` there.
    Concat {
        /// The dimension.
        dim: usize,
        /// The size of the result in that dimension.
        len: Size,
        /// The arrays (at least one).
        arrs: Vec<VarId>,
    },
    /// A fresh copy of an array.
    Copy(VarId),
    /// An array with unspecified contents, to be written in place.
    Scratch {
        /// The element type.
        elem: PrimType,
        /// The shape.
        shape: Vec<Size>,
    },
    /// A conditional; the pattern has the types of both branches' results.
    If {
        /// The condition (`bool`).
        cond: Operand,
        /// Taken when true.
        then_body: Body,
        /// Taken when false.
        else_body: Body,
    },
    /// A loop with loop parameters; the body's results are the parameters
    /// of the next iteration, the last ones are the loop's results.
    Loop {
        /// The loop parameters and their initial values.
        params: Vec<(Param, Operand)>,
        /// `for i < n` or `while c`.
        form: LoopForm,
        /// The body.
        body: Body,
    },
    /// Applying a function.
    Apply {
        /// The function.
        fun: FunId,
        /// The arguments.
        args: Vec<Operand>,
    },
    /// Fails at run time when `cond` is false; binds nothing. Without `args`
    /// the message is `Assertion is false: msg` (`msg` is the text of the
    /// condition); with `args` it is `msg` itself, each `{}` in it replaced
    /// by the value of the next of `args` (integers without a suffix), as in
    /// `Invalid range: {}...{}.`.
    Assert {
        /// The condition (`bool`).
        cond: Operand,
        /// The message, or its template when there are `args`.
        msg: String,
        /// The scalars the message shows.
        args: Vec<Operand>,
    },
    /// A map fused with scans and reductions.
    Screma(Box<Screma>),
    /// Histograms (`reduce_by_index`).
    Hist(Box<Hist>),
    /// Scattered writes into arrays.
    Scatter(Box<Scatter>),
    /// A scope in which arrays are turned into accumulators.
    WithAcc(Box<WithAcc>),
    /// Writes (or combines) `value` at index `idx` of an accumulator;
    /// consumes `acc` and returns the updated accumulator.
    UpdateAcc {
        /// The accumulator.
        acc: VarId,
        /// The index (`i64`s, at most the rank).
        idx: Vec<Operand>,
        /// The value written.
        value: Operand,
    },
    /// Forward-mode AD: the results of `lambda` at `primals` followed by
    /// their tangents along `tangents`.
    Jvp(Box<AdExp>),
    /// Reverse-mode AD: the results of `lambda` at `primals` followed by
    /// the adjoints of the parameters for result adjoints `seeds`.
    Vjp(Box<AdExp>),
    /// A function with a hand-written reverse-mode derivative: outside
    /// reverse-mode AD, the results of `f` at `args`.
    CustomVjp(Box<CustomVjp>),
}

/// The operands of a `custom_vjp`. Reverse-mode AD does not
/// differentiate `f`: the adjoints of `args` are the results of `fprime`
/// at `f`'s results `y` and their adjoints `ȳ`. Forward-mode AD
/// differentiates `f` and ignores `fprime`.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomVjp {
    /// The function: parameters of the types of `args`, results `y`.
    pub f: Lambda,
    /// The derivative: parameters `y` then `ȳ` (twice `f`'s result
    /// types), results of the types of `args`.
    pub fprime: Lambda,
    /// The arguments.
    pub args: Vec<Operand>,
}

/// The operands of a `jvp` or `vjp`.
#[derive(Clone, Debug, PartialEq)]
pub struct AdExp {
    /// The function differentiated.
    pub lambda: Lambda,
    /// The point.
    pub primals: Vec<Operand>,
    /// Tangents of the parameters (`jvp`) or adjoints of the results
    /// (`vjp`).
    pub seeds: Vec<Operand>,
}

/// The form of a loop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LoopForm {
    /// `for i < bound`, with `i` of the bound's integer type.
    For {
        /// The index variable.
        i: VarId,
        /// The number of iterations.
        bound: Operand,
    },
    /// `while cond`, where `cond` is a `bool` loop parameter.
    While {
        /// The loop parameter tested before each iteration.
        cond: VarId,
    },
}

/// An anonymous function: parameters, result types and a body.
#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    /// The parameters.
    pub params: Vec<Param>,
    /// The result types.
    pub ret: Vec<Type>,
    /// The body.
    pub body: Body,
}

/// A scan or reduction operator with its neutral elements.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanRed {
    /// The operator: `2k` parameters, `k` results, all of the element types.
    pub op: Lambda,
    /// The `k` neutral elements.
    pub neutral: Vec<Operand>,
    /// True when the operator is known to be commutative (reductions).
    pub commutative: bool,
}

impl BinOp {
    /// Whether `a op b` is `b op a` for every `a` and `b` (floats
    /// included: their `+`, `*`, `min` and `max` are commutative, though
    /// not associative).
    pub fn is_commutative(self) -> bool {
        use BinOp::*;
        matches!(self, Add | Mul | Min | Max | And | Or | Xor)
    }
}

impl ScanRed {
    /// Whether the operator is known to be commutative: marked so
    /// (`reduce_comm`, AD's sums), or, component by component, a
    /// commutative binary operator applied to the two operands of that
    /// component.
    pub fn is_commutative(&self) -> bool {
        if self.commutative {
            return true;
        }
        let op = &self.op;
        let k = op.body.result.len();
        if op.params.len() != 2 * k {
            return false;
        }
        (0..k).all(|i| {
            let Operand::Var(r) = op.body.result[i] else {
                return false;
            };
            let (a, b) = (op.params[i].var, op.params[k + i].var);
            op.body.stms.iter().any(|s| match (&s.pat[..], &s.exp) {
                ([v], Exp::BinOp(o, Operand::Var(x), Operand::Var(y))) if *v == r => {
                    o.is_commutative() && ((*x, *y) == (a, b) || (*x, *y) == (b, a))
                }
                _ => false,
            })
        })
    }
}

/// `screma w inputs`: for each `i < w`, `map` is applied to row `i` of every
/// input; its results are, in order, the inputs of every scan, then of every
/// reduction, then the mapped values. The screma's results are the scanned
/// arrays, the reduced values, then the mapped arrays.
///
/// An accumulator input is passed whole to every application, and a mapped
/// accumulator result is the accumulator itself (not an array).
///
/// The map lambda of a `screma`, `hist` or `scatter` may take one parameter
/// more than there are inputs: that last parameter is an `i64`, the
/// iteration index `i`. Fusion uses it to compute `iota` elements instead
/// of reading them.
#[derive(Clone, Debug, PartialEq)]
pub struct Screma {
    /// The number of iterations (`i64`).
    pub w: Operand,
    /// The input arrays (outer size `w`) or accumulators.
    pub inputs: Vec<VarId>,
    /// The scans.
    pub scans: Vec<ScanRed>,
    /// The reductions.
    pub reduces: Vec<ScanRed>,
    /// The map function.
    pub map: Lambda,
}

/// One histogram of a [`Hist`].
#[derive(Clone, Debug, PartialEq)]
pub struct HistOp {
    /// The destination arrays (same outer size); consumed.
    pub dests: Vec<VarId>,
    /// One neutral element per destination.
    pub neutral: Vec<Operand>,
    /// The combining operator.
    pub op: Lambda,
}

/// `hist w inputs`: for each `i < w`, `map` gives, for each histogram in
/// order, a bucket index (`i64`) and one value per destination; the values
/// are combined into the buckets with the operator. Indices out of bounds
/// are ignored. The results are the updated destinations.
#[derive(Clone, Debug, PartialEq)]
pub struct Hist {
    /// The number of iterations (`i64`).
    pub w: Operand,
    /// The input arrays.
    pub inputs: Vec<VarId>,
    /// The histograms.
    pub hists: Vec<HistOp>,
    /// The map function.
    pub map: Lambda,
}

/// A destination of a [`Scatter`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScatterDest {
    /// The array written; consumed.
    pub arr: VarId,
    /// How many indices address it (1 for `scatter`, 2 for `scatter_2d`).
    pub rank: usize,
}

/// `scatter w inputs`: for each `i < w`, `map` gives, for each destination
/// in order, `rank` indices and a value; the value is written there unless
/// the index is out of bounds. The results are the updated destinations.
#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    /// The number of iterations (`i64`).
    pub w: Operand,
    /// The input arrays.
    pub inputs: Vec<VarId>,
    /// The destinations.
    pub dests: Vec<ScatterDest>,
    /// The map function.
    pub map: Lambda,
}

/// An array turned into an accumulator by a [`WithAcc`].
#[derive(Clone, Debug, PartialEq)]
pub struct AccInput {
    /// The array; consumed.
    pub arr: VarId,
    /// The combining operator (two scalars to one) and its neutral element;
    /// without one, updates overwrite.
    pub op: Option<(Lambda, Operand)>,
}

/// `with_acc inputs lambda`: `lambda` gets one accumulator per input and
/// returns the final accumulators followed by other values; the results are
/// the arrays the accumulators were turned back into, then the other values.
#[derive(Clone, Debug, PartialEq)]
pub struct WithAcc {
    /// The arrays.
    pub inputs: Vec<AccInput>,
    /// The scope.
    pub lambda: Lambda,
}

macro_rules! named {
    ($ty:ident { $($v:ident => $s:literal),* $(,)? }) => {
        impl $ty {
            /// All values, in a fixed order.
            pub const ALL: &'static [$ty] = &[$($ty::$v),*];

            /// The name in the textual IR.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$v => $s),*
                }
            }

            /// Looks a name up.
            pub fn from_name(s: &str) -> Option<$ty> {
                match s {
                    $($s => Some($ty::$v),)*
                    _ => None,
                }
            }
        }
    };
}

named!(UnOp { Neg => "neg", Not => "not", Abs => "abs", Signum => "signum" });
named!(BinOp {
    Add => "add", Sub => "sub", Mul => "mul", Div => "div", Mod => "mod",
    Quot => "quot", Rem => "rem", Pow => "pow", Min => "min", Max => "max",
    And => "and", Or => "or", Xor => "xor", Shl => "shl", Shr => "shr", UShr => "ushr",
});
named!(CmpOp { Eq => "eq", Ne => "ne", Lt => "lt", Le => "le", Gt => "gt", Ge => "ge" });
named!(ConvKind { Convert => "to", Bitcast => "bits" });
named!(MathFn {
    Sqrt => "sqrt", Cbrt => "cbrt", Exp => "exp", Expm1 => "expm1", Log => "log",
    Log2 => "log2", Log10 => "log10", Log1p => "log1p", Sin => "sin", Cos => "cos",
    Tan => "tan", Asin => "asin", Acos => "acos", Atan => "atan", Sinh => "sinh",
    Cosh => "cosh", Tanh => "tanh", Asinh => "asinh", Acosh => "acosh", Atanh => "atanh",
    Atan2 => "atan2", Hypot => "hypot", Erf => "erf", Erfc => "erfc", Lgamma => "lgamma",
    Gamma => "gamma", Fma => "fma", Mad => "mad", Floor => "floor", Ceil => "ceil",
    Round => "round", Trunc => "trunc", IsNan => "isnan", IsInf => "isinf",
    CopySign => "copysign", Popc => "popc", Clz => "clz", Ctz => "ctz", MulHi => "mul_hi",
});

impl MathFn {
    /// Number of arguments.
    pub fn arity(self) -> usize {
        match self {
            MathFn::Atan2 | MathFn::Hypot | MathFn::CopySign | MathFn::MulHi => 2,
            MathFn::Fma | MathFn::Mad => 3,
            _ => 1,
        }
    }
}

impl Attr {
    /// The attribute's name.
    pub fn name(self) -> &'static str {
        match self {
            Attr::Stripmine(_) => "stripmine",
            Attr::Bound(_) => "bound",
            Attr::TrueDep => "true_dep",
            Attr::Sequential => "sequential",
            Attr::Unsafe => "unsafe",
            Attr::NoInline => "noinline",
            Attr::Inline => "inline",
        }
    }
}
