//! The abstract syntax tree of the surface language.
//!
//! The tree is a faithful image of what the user wrote, with a few sugars removed by
//! the parser (listed on the variants that receive them). It knows nothing of types:
//! names are unresolved, and `a.b.c` is a [`QualName`] whether `a` turns out to be a
//! module or a record (the semantic crate decides).
//!
//! Every expression and pattern has a [`NodeId`], unique within its file, so that later
//! stages can attach information (types, resolved names) in side tables.
//!
//! Sugars the parser removes:
//! - `let r.f = v in e` becomes `let r = r with f = v in e`;
//! - `let a[i] = v in e` becomes [`ExprKind::LetWith`];
//! - `x |> f` and other operators stay binary operators (they are ordinary prelude
//!   functions), but `x \`f\` y` becomes [`ExprKind::BinOp`] with `f` as the operator;
//! - `-x` becomes [`ExprKind::Neg`], and a negative numeric literal stays `Neg(Literal)`;
//! - parentheses disappear except as [`ExprKind::Parens`], kept so that the
//!   pretty-printer round-trips and diagnostics can point at them.

// Tree nodes are built once by the parser and then only read; boxing the larger
// variants would make every construction and match noisier for no measurable gain.
#![allow(clippy::large_enum_variant)]

use std::sync::Arc;

pub use crate::span::{FileId, Span};

/// An interned-by-sharing identifier or operator name.
pub type Name = Arc<str>;

/// Identity of an expression or pattern node, unique within one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// A name with the span it was written at.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The name itself; operators are stored without parentheses, e.g. `+^`.
    pub name: Name,
    /// Where it was written.
    pub span: Span,
}

/// A possibly qualified name: `x`, `M.x`, `f32.inf`, `r.field.sub`, `M.+`.
#[derive(Clone, Debug, PartialEq)]
pub struct QualName {
    /// The qualifiers, outermost first (`["M", "N"]` for `M.N.x`).
    pub quals: Vec<Ident>,
    /// The final component.
    pub name: Ident,
}

impl QualName {
    /// The span of the whole name.
    pub fn span(&self) -> Span {
        match self.quals.first() {
            Some(q) => q.span.to(self.name.span),
            None => self.name.span,
        }
    }
}

/// Primitive types of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PrimType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
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

    /// The name as written in source, e.g. `"i32"`.
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

    /// Parses a primitive type name.
    pub fn from_name(s: &str) -> Option<PrimType> {
        PrimType::ALL.into_iter().find(|t| t.name() == s)
    }

    /// Is this a signed or unsigned integer type?
    pub fn is_integral(self) -> bool {
        matches!(
            self,
            PrimType::I8
                | PrimType::I16
                | PrimType::I32
                | PrimType::I64
                | PrimType::U8
                | PrimType::U16
                | PrimType::U32
                | PrimType::U64
        )
    }

    /// Is this a floating-point type?
    pub fn is_float(self) -> bool {
        matches!(self, PrimType::F16 | PrimType::F32 | PrimType::F64)
    }

    /// Is this an unsigned integer type?
    pub fn is_unsigned(self) -> bool {
        matches!(
            self,
            PrimType::U8 | PrimType::U16 | PrimType::U32 | PrimType::U64
        )
    }
}

impl std::fmt::Display for PrimType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A literal as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// An integer literal. `ty` is the suffix if one was written; the type checker
    /// fills it in for unsuffixed literals in the elaborated tree (an integer literal may
    /// be given a float type, e.g. `1 : f32`).
    Int { value: i128, ty: Option<PrimType> },
    /// A decimal or hexadecimal float literal, with its suffix if written. The checker
    /// fills `ty` in for unsuffixed literals.
    Float { value: f64, ty: Option<PrimType> },
    /// `true` or `false`.
    Bool(bool),
    /// A character literal `'a'`: its Unicode scalar value (typed as an integer, as in
    /// Futhark; the checker fills `ty`, defaulting to i32).
    Char { value: u32, ty: Option<PrimType> },
    /// A string literal: its UTF-8 bytes (an array of u8).
    String(Vec<u8>),
}

/// An attribute: `#[inline]`, `#[stripmine(2)]`, `#[bound(n)]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    pub kind: AttrKind,
    pub span: Span,
}

/// The shapes an attribute can take.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrKind {
    /// A bare name: `#[inline]`.
    Name(Name),
    /// A name applied to attributes: `#[stripmine(2)]`, `#[bound(n)]`.
    Call(Name, Vec<Attr>),
    /// An integer: the `2` in `#[stripmine(2)]`.
    Int(i128),
}

/// A type expression as written.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExp {
    pub kind: TypeExpKind,
    pub span: Span,
}

/// The forms of type expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeExpKind {
    /// A (possibly qualified) type name applied to zero or more arguments:
    /// `i32`, `t`, `M.t`, `vec [n] f64`, `maybe i32`.
    Var(QualName, Vec<TypeArg>),
    /// A tuple type `(a, b)`; the empty tuple `()` is the unit type.
    Tuple(Vec<TypeExp>),
    /// A record type `{x: f64, y: f64}`.
    Record(Vec<(Ident, TypeExp)>),
    /// An array type `[n]t`; `None` for an anonymous size `[]t`.
    Array(Option<Box<SizeExp>>, Box<TypeExp>),
    /// A sum type `#a i32 | #b`: constructors and their payload types.
    Sum(Vec<(Ident, Vec<TypeExp>)>),
    /// A function type `a -> b`, or a dependent one `(n: i64) -> [n]t` (with the name).
    Arrow(Option<Ident>, Box<TypeExp>, Box<TypeExp>),
    /// A unique type `*t`.
    Unique(Box<TypeExp>),
    /// An existentially sized type `?[n][m].t`.
    Existential(Vec<Ident>, Box<TypeExp>),
}

/// A size in a type: `n`, `3`, `n*m`, `4*d`. Any expression is accepted by the parser;
/// the type checker restricts it.
pub type SizeExp = Expr;

/// An argument in a type application.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeArg {
    /// A size argument `[n]` (`[]` gives `None`).
    Size(Option<SizeExp>, Span),
    /// A type argument.
    Type(TypeExp),
}

/// Liftedness of a type parameter or abbreviation: `'a`/`type`, `'~a`/`type~`,
/// `'^a`/`type^`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Liftedness {
    /// May only be instantiated with non-functional types of fixed size.
    Unlifted,
    /// May be instantiated with types whose sizes are not known in advance (`~`).
    SizeLifted,
    /// May be instantiated with any type, including functions (`^`).
    Lifted,
}

/// A type or size parameter of a definition: `[n]`, `'a`, `'~a`, `'^a`.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeParam {
    /// `[n]`.
    Size(Ident),
    /// `'a` and its lifted forms.
    Type(Ident, Liftedness),
}

impl TypeParam {
    /// The parameter's name.
    pub fn ident(&self) -> &Ident {
        match self {
            TypeParam::Size(i) | TypeParam::Type(i, _) => i,
        }
    }
}

/// A pattern, in `let`, parameters, lambdas, loops and `match` cases.
#[derive(Clone, Debug, PartialEq)]
pub struct Pat {
    pub kind: PatKind,
    pub span: Span,
    pub id: NodeId,
}

/// The forms of patterns.
#[derive(Clone, Debug, PartialEq)]
pub enum PatKind {
    /// A variable binding `x`.
    Id(Ident),
    /// `_`.
    Wildcard,
    /// `(p1, p2, …)`; `()` is the unit pattern.
    Tuple(Vec<Pat>),
    /// `{x, y = p}`: field punning gives `(x, Id(x))`.
    Record(Vec<(Ident, Pat)>),
    /// `(p : t)`.
    Ascribed(Box<Pat>, TypeExp),
    /// A literal: `1`, `-1`, `true`, `'c'` (negative numbers folded into the value).
    Literal(Literal),
    /// A constructor with payload patterns: `#some x`, `#none`.
    Constructor(Ident, Vec<Pat>),
    /// `#[attr] p`.
    Attr(Attr, Box<Pat>),
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    pub id: NodeId,
}

/// How a range expression ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RangeEnd {
    /// `a...b`: up to and including `b`.
    Inclusive,
    /// `a..<b`: up to `b`, exclusive.
    UpToExclusive,
    /// `a..>b`: down to `b`, exclusive.
    DownToExclusive,
}

/// One dimension in an index or slice: `i` or `a:b:s` with each part optional.
#[derive(Clone, Debug, PartialEq)]
pub enum DimIndex {
    /// A single index.
    Fix(Expr),
    /// A slice `start:end:stride`.
    Slice {
        start: Option<Expr>,
        end: Option<Expr>,
        stride: Option<Expr>,
    },
}

/// One step of an update path or of a path section: a field or an index.
#[derive(Clone, Debug, PartialEq)]
pub enum PathStep {
    /// `.f` (or `f` as the first step of an update path).
    Field(Ident),
    /// `[i, j:k]`, with the span of the brackets.
    Index(Vec<DimIndex>, Span),
}

/// A field in a record literal.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordField {
    /// `x = e`.
    Explicit(Ident, Expr),
    /// `x` alone: field punning, the value of variable `x`.
    Pun(Ident),
}

/// The iteration form of a `loop`.
#[derive(Clone, Debug, PartialEq)]
pub enum LoopForm {
    /// `for i < n`.
    For(Ident, Box<Expr>),
    /// `for p in xs`.
    ForIn(Pat, Box<Expr>),
    /// `while c`.
    While(Box<Expr>),
}

/// One case of a `match`.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub pat: Pat,
    pub body: Expr,
    pub span: Span,
}

/// The forms of expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A literal.
    Literal(Literal),
    /// A variable, a qualified name, or a chain of record projections (`r.a.b`):
    /// resolved by the type checker.
    Var(QualName),
    /// `(e)`.
    Parens(Box<Expr>),
    /// Local open: `M.(e)`.
    QualParens(QualName, Box<Expr>),
    /// `(a, b, …)` with at least two elements; `()` is the unit value (empty tuple).
    Tuple(Vec<Expr>),
    /// `{x = 1, y}`.
    Record(Vec<RecordField>),
    /// `[a, b, c]`; `[]` is an empty array literal.
    ArrayLit(Vec<Expr>),
    /// `start..second..end` style ranges: `a..<b`, `a...b`, `a..>b`, and with a second
    /// element giving the stride: `a..s..<b`.
    Range {
        start: Box<Expr>,
        second: Option<Box<Expr>>,
        end_kind: RangeEnd,
        end: Box<Expr>,
    },
    /// Projection of a field out of a non-name expression: `(f x).field`, `t.0` where
    /// `t` is not a plain name. Projections off plain names are [`ExprKind::Var`].
    Project(Box<Expr>, Ident),
    /// An infix operator application `x op y`, including backtick infix `` x `f` y ``.
    BinOp(QualName, Box<Expr>, Box<Expr>),
    /// Unary minus `-e`.
    Neg(Box<Expr>),
    /// Logical / bitwise not `!e`.
    Not(Box<Expr>),
    /// An operator section `(+)`, `(M.+)`, ``(`f`)``.
    OpSection(QualName),
    /// A left section `(x +)`: `\y -> x + y`.
    OpSectionLeft(QualName, Box<Expr>),
    /// A right section `(+ y)`: `\x -> x + y`.
    OpSectionRight(QualName, Box<Expr>),
    /// A projection section `(.a.b)`.
    ProjectSection(Vec<Ident>),
    /// An index section `(.[i, j])`.
    IndexSection(Vec<DimIndex>),
    /// A section of a path mixing fields and indices, or of several index steps:
    /// `(.[0].f)`, `(.a[1:3])`, `(.[i][j])`: the function `\x -> x[0].f`.
    PathSection(Vec<PathStep>),
    /// Function application `f a b`: the function and its arguments in order.
    Apply(Box<Expr>, Vec<Expr>),
    /// A constructor, applied to its payload: `#some x`, `#none`.
    Constructor(Ident, Vec<Expr>),
    /// `if c then t else f`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let [n] p = e in body` (`sizes` are the `[n]` binders).
    Let {
        sizes: Vec<Ident>,
        pat: Pat,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// A local function `let f 'a [n] (x: t) : r = e in body`.
    LetFun {
        name: Ident,
        type_params: Vec<TypeParam>,
        params: Vec<Pat>,
        ret: Option<TypeExp>,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// In-place update sugar `let a[i, j] = v in body`.
    LetWith {
        dest: Ident,
        indices: Vec<DimIndex>,
        value: Box<Expr>,
        body: Box<Expr>,
    },
    /// `a with [i, j] = v` (including slice updates `a with [1:3] = v`).
    Update {
        target: Box<Expr>,
        indices: Vec<DimIndex>,
        value: Box<Expr>,
    },
    /// `r with a.b = v`.
    RecordUpdate {
        target: Box<Expr>,
        fields: Vec<Ident>,
        value: Box<Expr>,
    },
    /// An update along a path that mixes fields and indices, or has several index
    /// steps: `xs with [i].f = v`, `r with a.b[i].c = v`, `xs with [i][j] = v`. An
    /// index step consumes the target as [`ExprKind::Update`] does. Paths of one
    /// index step are [`ExprKind::Update`], paths of fields only
    /// [`ExprKind::RecordUpdate`]. `let xs[i].f = v in e` becomes
    /// `let xs = xs with [i].f = v in e`.
    UpdatePath {
        target: Box<Expr>,
        path: Vec<PathStep>,
        value: Box<Expr>,
    },
    /// `\p1 p2 : t -> e`.
    Lambda {
        params: Vec<Pat>,
        ret: Option<TypeExp>,
        body: Box<Expr>,
    },
    /// `loop p = init for … do body`; `init` is `None` in the short form `loop x for …`
    /// (then the initial value is the variable(s) of the same name).
    Loop {
        pat: Pat,
        init: Option<Box<Expr>>,
        form: LoopForm,
        body: Box<Expr>,
    },
    /// `match e case p -> e …`.
    Match(Box<Expr>, Vec<Case>),
    /// Type ascription `e : t`.
    Ascribe(Box<Expr>, TypeExp),
    /// Size coercion `e :> t`.
    Coerce(Box<Expr>, TypeExp),
    /// Indexing and slicing `a[i, j:k]`.
    Index(Box<Expr>, Vec<DimIndex>),
    /// `assert c e`.
    Assert(Box<Expr>, Box<Expr>),
    /// `#[attr] e`.
    Attr(Attr, Box<Expr>),
    /// A type hole `???`.
    Hole,
}

/// A value definition: `def`, `entry` (and the old `let` form at top level).
#[derive(Clone, Debug, PartialEq)]
pub struct ValBind {
    /// `entry` rather than `def`.
    pub entry: bool,
    /// The defined name; for operators the operator without parentheses.
    pub name: Ident,
    pub type_params: Vec<TypeParam>,
    pub params: Vec<Pat>,
    pub ret: Option<TypeExp>,
    pub body: Expr,
    pub attrs: Vec<Attr>,
    pub doc: Option<String>,
    pub span: Span,
}

/// A type abbreviation: `type t 'a [n] = …`, `type~`, `type^`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeBind {
    pub name: Ident,
    pub liftedness: Liftedness,
    pub params: Vec<TypeParam>,
    pub def: TypeExp,
    pub doc: Option<String>,
    pub span: Span,
}

/// A module parameter of a functor: `(M: mt)`.
#[derive(Clone, Debug, PartialEq)]
pub struct ModParam {
    pub name: Ident,
    pub sig: SigExp,
    pub span: Span,
}

/// A module binding: `module m (P: mt) … : mt = mexp`.
#[derive(Clone, Debug, PartialEq)]
pub struct ModBind {
    pub name: Ident,
    pub params: Vec<ModParam>,
    pub sig: Option<SigExp>,
    pub body: ModExp,
    pub doc: Option<String>,
    pub span: Span,
}

/// A module type binding: `module type mt = sigexp`.
#[derive(Clone, Debug, PartialEq)]
pub struct SigBind {
    pub name: Ident,
    pub sig: SigExp,
    pub doc: Option<String>,
    pub span: Span,
}

/// A module expression.
#[derive(Clone, Debug, PartialEq)]
pub struct ModExp {
    pub kind: ModExpKind,
    pub span: Span,
}

/// The forms of module expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum ModExpKind {
    /// A module name `M`, `M.N`.
    Var(QualName),
    /// `(m)`.
    Parens(Box<ModExp>),
    /// `import "path"` as a module.
    Import(String),
    /// `{ decs }`.
    Struct(Vec<Dec>),
    /// `m : mt`.
    Ascribe(Box<ModExp>, SigExp),
    /// Functor application `F M` (one argument; `F A B` nests).
    Apply(Box<ModExp>, Box<ModExp>),
    /// An anonymous functor `\(p: mt) : mt -> m`.
    Lambda(ModParam, Option<SigExp>, Box<ModExp>),
}

/// A module type (signature) expression.
#[derive(Clone, Debug, PartialEq)]
pub struct SigExp {
    pub kind: SigExpKind,
    pub span: Span,
}

/// The forms of module type expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum SigExpKind {
    /// A named module type.
    Var(QualName),
    /// `(mt)`.
    Parens(Box<SigExp>),
    /// `{ specs }`.
    Specs(Vec<Spec>),
    /// `mt with t 'a = τ` (refinement).
    With(Box<SigExp>, QualName, Vec<TypeParam>, TypeExp),
    /// A functor type `(p: mt1) -> mt2` or `mt1 -> mt2`.
    Arrow(Option<Ident>, Box<SigExp>, Box<SigExp>),
}

/// A specification inside a module type.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub kind: SpecKind,
    pub doc: Option<String>,
    pub span: Span,
}

/// The forms of specifications.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecKind {
    /// `val f 'a [n] : t` (operators: `val + : t -> t -> t` or `val (+) : …`).
    Val {
        name: Ident,
        type_params: Vec<TypeParam>,
        ty: TypeExp,
    },
    /// `type t 'a`, `type t = τ`, `type~ t`, `type^ t`.
    Type {
        name: Ident,
        liftedness: Liftedness,
        params: Vec<TypeParam>,
        def: Option<TypeExp>,
    },
    /// `module m: mt`.
    Mod { name: Ident, sig: SigExp },
    /// `include mt`.
    Include(SigExp),
}

/// A declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Dec {
    pub kind: DecKind,
    pub span: Span,
}

/// The forms of declarations.
#[derive(Clone, Debug, PartialEq)]
pub enum DecKind {
    /// `def`/`entry`.
    Val(ValBind),
    /// `type`.
    Type(TypeBind),
    /// `module`.
    Mod(ModBind),
    /// `module type`.
    Sig(SigBind),
    /// `open mexp`.
    Open(ModExp),
    /// `local dec`.
    Local(Box<Dec>),
    /// `import "path"` at declaration level.
    Import(String, Span),
}

/// A parsed source file.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct File {
    /// The file's declarations in order.
    pub decs: Vec<Dec>,
    /// A leading `-- |` doc comment for the whole file, if any.
    pub doc: Option<String>,
    /// Filled by the type checker: the size arguments of each use of a function with
    /// size parameters, keyed by the use's NodeId.
    pub size_args: std::collections::HashMap<NodeId, Vec<(Name, Expr)>>,
    /// Filled by the type checker: the element type of each empty array literal `[]`
    /// (keyed by its NodeId) whose element type is concrete once the enclosing
    /// definition has been checked and its literals defaulted: built from primitive
    /// types, arrays, tuples, records and sum types only. Array sizes known as
    /// constants are written out, others are anonymous (`[]`). Literals whose element
    /// type is a type parameter or an abstract type are absent.
    pub empty_array_types: std::collections::HashMap<NodeId, TypeExp>,
}
