//! The chumsky parser over the lexer's tokens.
//!
//! The grammar follows Futhark's (see the language reference): expressions are
//! layered as
//! - `Exp`: `Exp2` followed by any number of `: t` / `:> t`;
//! - `Exp2`: a binary-operator expression (a pratt parser over "operands" with the
//!   levels below), optionally followed by a range tail `..< e`, `... e`, `..> e`
//!   (with an optional `.. second`);
//! - operands: prefix forms (`if`, `let`, `loop`, `match`, `\`, `#[attr]`, `assert`)
//!   whose bodies extend as far right as possible, and applications `f a b` of atoms.
//!
//! Binary operator levels, lowest first (all left-associative except `<|`):
//! `` `f` `` · `with` · `|>` · `<|` · `||` · `&&` · comparisons (`== != < > <= >=`
//! and other operators starting with `< > = !`) · `& ^ |` · `<< >>` · `+ -` ·
//! `* / % // %%` · `**`; prefix `-` and `!` bind tighter than all of them but looser
//! than application. A user-defined operator takes the level of its leading characters.

use crate::ast::*;
use crate::lexer::{Kw, Token};
use chumsky::input::MappedInput;
use chumsky::pratt::{infix, left, prefix, right};
use chumsky::prelude::*;
use std::ops::Range;

impl chumsky::span::Span for Span {
    type Context = FileId;
    type Offset = u32;

    fn new(context: FileId, range: Range<u32>) -> Self {
        Span {
            file: context,
            start: range.start,
            end: range.end,
        }
    }

    fn context(&self) -> FileId {
        self.file
    }

    fn start(&self) -> u32 {
        self.start
    }

    fn end(&self) -> u32 {
        self.end
    }
}

pub(crate) type In<'a> = MappedInput<'a, Token, Span, &'a [(Token, Span)]>;
pub(crate) type PErr<'a> = Rich<'a, Token, Span>;
/// The parser extras: the grammar is built for two error types, a cheap one
/// ([`extra::Default`]) for the first pass and [`Rich`] errors when there are errors
/// to report.
pub(crate) trait Ext<'a>:
    chumsky::extra::ParserExtra<'a, In<'a>, Error = Self::Err, State = (), Context = ()> + 'a
{
    type Err: chumsky::label::LabelError<'a, In<'a>, &'static str>
        + chumsky::label::LabelError<'a, In<'a>, chumsky::DefaultExpected<'a, Token>>
        + chumsky::error::Error<'a, In<'a>>
        + 'a;
}

impl<'a, Er> Ext<'a> for extra::Err<Er>
where
    Er: chumsky::label::LabelError<'a, In<'a>, &'static str>
        + chumsky::label::LabelError<'a, In<'a>, chumsky::DefaultExpected<'a, Token>>
        + chumsky::error::Error<'a, In<'a>>
        + 'a,
{
    type Err = Er;
}

/// The extras of the reporting pass.
pub(crate) type RichE<'a> = extra::Err<PErr<'a>>;

/// The binary-operator level of an operator name (see the module docs), or `None` for
/// names that are not infix operators (`!`).
pub fn op_level(op: &str) -> Option<u16> {
    if op == "!" || op.is_empty() {
        return None;
    }
    let p = |s: &str| op.starts_with(s);
    Some(if p("|>") {
        3
    } else if p("<|") {
        4
    } else if p("||") {
        5
    } else if p("&&") {
        6
    } else if p("<<") || p(">>") {
        9
    } else if p("**") {
        12
    } else if p("//") || p("%%") {
        11
    } else {
        match op.as_bytes()[0] {
            b'<' | b'>' | b'=' | b'!' => 7,
            b'&' | b'^' | b'|' => 8,
            b'+' | b'-' => 10,
            b'*' | b'/' | b'%' => 11,
            _ => return None,
        }
    })
}

/// Level of backtick infix.
pub const LEVEL_BACKTICK: u16 = 1;
/// Level of `with`.
pub const LEVEL_WITH: u16 = 2;
/// Binding power of prefix `-` and `!`.
pub const LEVEL_PREFIX: u16 = 13;

pub(crate) fn ex(kind: ExprKind, span: Span) -> Expr {
    Expr {
        kind,
        span,
        id: NodeId(0),
    }
}

fn pt(kind: PatKind, span: Span) -> Pat {
    Pat {
        kind,
        span,
        id: NodeId(0),
    }
}

fn te(kind: TypeExpKind, span: Span) -> TypeExp {
    TypeExp { kind, span }
}

/// Splits the span of a `a.b.c` token into spans of its components.
fn qual_from(parts: Vec<Name>, span: Span) -> QualName {
    let mut idents = Vec::with_capacity(parts.len());
    let mut off = span.start;
    for n in parts {
        let len = n.len() as u32;
        idents.push(Ident {
            name: n,
            span: Span::new(span.file, off, off + len),
        });
        off += len + 1;
    }
    let name = idents.pop().expect("qualified name has components");
    QualName {
        quals: idents,
        name,
    }
}

fn qual_op(quals: Vec<Name>, op: Name, span: Span) -> QualName {
    let mut q = qual_from(quals, span);
    let opstart = q.name.span.end + 1;
    q.quals.push(q.name);
    q.name = Ident {
        name: op,
        span: Span::new(span.file, opstart, span.end),
    };
    q
}

fn unqual(name: Name, span: Span) -> QualName {
    QualName {
        quals: vec![],
        name: Ident { name, span },
    }
}

fn kw<'a, E: Ext<'a>>(k: Kw) -> impl Parser<'a, In<'a>, Token, E> + Clone {
    just(Token::Kw(k))
}

fn op<'a, E: Ext<'a>>(s: &str) -> impl Parser<'a, In<'a>, Token, E> + Clone {
    just(Token::Op(s.into()))
}

fn ident<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Ident, E> + Clone {
    select! { Token::Ident(n) = e => Ident { name: n, span: e.span() } }.labelled("identifier")
}

/// A field name: an identifier or a natural number.
fn field_id<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Ident, E> + Clone {
    select! {
        Token::Ident(n) = e => Ident { name: n, span: e.span() },
        Token::Int { value, nat: true, .. } = e => Ident { name: value.to_string().into(), span: e.span() },
    }
    .labelled("field name")
}

/// A field path after a `.`, `with` or inside a projection section: `a`, `a.b.c`, `0`.
fn field_path<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Vec<Ident>, E> + Clone {
    select! {
        Token::Ident(n) = e => vec![Ident { name: n, span: e.span() }],
        Token::Int { value, nat: true, .. } = e => vec![Ident { name: value.to_string().into(), span: e.span() }],
        Token::QualName(ns) = e => {
            let q = qual_from(ns, e.span());
            let mut v = q.quals;
            v.push(q.name);
            v
        },
    }
    .labelled("field name")
}

fn qualname<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, QualName, E> + Clone {
    select! {
        Token::Ident(n) = e => unqual(n, e.span()),
        Token::QualName(ns) = e => qual_from(ns, e.span()),
    }
    .labelled("name")
}

/// A binary operator usable infix (symbolic or qualified symbolic), with its level.
fn symbolic_binop<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, (QualName, u16), E> + Clone {
    select! {
        Token::Op(o) = e if op_level(&o).is_some() => {
            let l = op_level(&o).unwrap_or(10);
            (unqual(o, e.span()), l)
        },
        Token::QualOp(qs, o) = e if op_level(&o).is_some() => {
            let l = op_level(&o).unwrap_or(10);
            (qual_op(qs, o, e.span()), l)
        },
    }
    .labelled("operator")
}

fn backtick_op<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, QualName, E> + Clone {
    qualname().delimited_by(just(Token::Backtick), just(Token::Backtick))
}

/// Any binary operator, for sections.
fn any_binop<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, QualName, E> + Clone {
    symbolic_binop().map(|(q, _)| q).or(backtick_op())
}

/// An operator in binding position: `+^`, `-`, `==`.
fn binding_op<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Ident, E> + Clone {
    select! {
        Token::Op(o) = e if op_level(&o).is_some() => Ident { name: o, span: e.span() },
    }
    .labelled("operator")
}

/// A name in binding position: `f` or `(+^)`.
fn binding_id<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Ident, E> + Clone {
    ident().or(binding_op().delimited_by(just(Token::LParen), just(Token::RParen)))
}

fn lbracket<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Token, E> + Clone {
    just(Token::LBracket).or(just(Token::IndexOpen))
}

fn type_param<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, TypeParam, E> + Clone {
    let size = ident()
        .delimited_by(lbracket(), just(Token::RBracket))
        .map(TypeParam::Size);
    size.or(type_tick_param())
}

fn type_tick_param<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, TypeParam, E> + Clone {
    let lift = select! {
        Token::Tick => Liftedness::Unlifted,
        Token::TickTilde => Liftedness::SizeLifted,
        Token::TickCaret => Liftedness::Lifted,
    };
    lift.then(ident()).map(|(l, i)| TypeParam::Type(i, l))
}

fn liftedness<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Liftedness, E> + Clone {
    just(Token::Tilde)
        .to(Liftedness::SizeLifted)
        .or(op("^").to(Liftedness::Lifted))
        .or_not()
        .map(|l| l.unwrap_or(Liftedness::Unlifted))
}

fn string_lit<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, (String, Span), E> + Clone {
    select! { Token::Str(s) = e => (String::from_utf8_lossy(&s).into_owned(), e.span()) }
        .labelled("string literal")
}

fn attr<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Attr, E> + Clone {
    recursive(|attr| {
        let int = select! { Token::Int { value, .. } = e => Attr { kind: AttrKind::Int(value), span: e.span() } };
        let call = ident()
            .then(
                attr.separated_by(just(Token::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>()
                    .delimited_by(just(Token::LParen), just(Token::RParen))
                    .or_not(),
            )
            .map_with(|(name, args), e| Attr {
                kind: match args {
                    Some(args) => AttrKind::Call(name.name, args),
                    None => AttrKind::Name(name.name),
                },
                span: e.span(),
            });
        int.or(call).labelled("attribute")
    })
}

fn attr_block<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Attr, E> + Clone {
    attr().delimited_by(just(Token::HashBracket), just(Token::RBracket))
}

fn literal<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Literal, E> + Clone {
    select! {
        Token::Int { value, suffix, .. } => Literal::Int { value, ty: suffix },
        Token::Float { value, suffix } => Literal::Float { value, ty: suffix },
        Token::Char(c) => Literal::Char { value: c, ty: None },
        Token::Str(s) => Literal::String(s),
        Token::Kw(Kw::True) => Literal::Bool(true),
        Token::Kw(Kw::False) => Literal::Bool(false),
    }
    .labelled("literal")
}

fn negate_literal(l: Literal) -> Literal {
    match l {
        Literal::Int { value, ty } => Literal::Int { value: -value, ty },
        Literal::Float { value, ty } => Literal::Float { value: -value, ty },
        Literal::Char { value, ty } => Literal::Int {
            value: -(value as i128),
            ty,
        },
        other => other,
    }
}

/// The tokens at which the recovery of a broken declaration resumes.
pub(crate) const DEC_SYNC: [Token; 7] = [
    Token::Kw(Kw::Def),
    Token::Kw(Kw::Entry),
    Token::Kw(Kw::Type),
    Token::Kw(Kw::Module),
    Token::Kw(Kw::Open),
    Token::Kw(Kw::Import),
    Token::Kw(Kw::Local),
];

fn hole_expr(span: Span) -> Expr {
    ex(ExprKind::Hole, span)
}

fn is_opener(t: &Token) -> bool {
    crate::lexer::closer_of(t).is_some()
}

fn is_closer(t: &Token) -> bool {
    matches!(t, Token::RParen | Token::RBracket | Token::RBrace)
}

/// Skips tokens, stepping over balanced delimiter groups, up to (not including) a
/// closing delimiter at depth 0 or a token for which `stop` holds. Used to recover
/// from a malformed expression: the expression becomes a hole and parsing resumes.
fn balanced_skip<'a, E: Ext<'a>>(
    stop: fn(&Token) -> bool,
) -> impl Parser<'a, In<'a>, (), E> + Clone {
    let group = recursive(|group| {
        let body = choice((
            group,
            any()
                .filter(|t: &Token| !is_opener(t) && !is_closer(t))
                .ignored(),
        ))
        .repeated();
        any()
            .filter(|t: &Token| is_opener(t))
            .then(body)
            .then(any().filter(|t: &Token| is_closer(t)))
            .ignored()
    });
    choice((
        group,
        any()
            .filter(move |t: &Token| !stop(t) && !is_opener(t) && !is_closer(t))
            .ignored(),
    ))
    .repeated()
}

fn stops_let_value(t: &Token) -> bool {
    matches!(t, Token::Kw(Kw::In | Kw::Let)) || DEC_SYNC.contains(t)
}

fn stops_dec_body(t: &Token) -> bool {
    DEC_SYNC.contains(t)
}

struct Grammar<'a, E: Ext<'a>> {
    expr: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, Expr, E>>,
    exp2: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, Expr, E>>,
    ty: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, TypeExp, E>>,
    ty_term: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, TypeExp, E>>,
    pat: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, Pat, E>>,
    param: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, Pat, E>>,
}

type Bx<'a, O, E> = Boxed<'a, 'a, In<'a>, O, E>;

fn grammar<'a, E: Ext<'a>>() -> Grammar<'a, E> {
    let mut g = Grammar {
        expr: Recursive::declare(),
        exp2: Recursive::declare(),
        ty: Recursive::declare(),
        ty_term: Recursive::declare(),
        pat: Recursive::declare(),
        param: Recursive::declare(),
    };
    define_types(&mut g);
    define_pats(&mut g);
    define_exprs(&mut g);
    g
}

fn define_types<'a, E: Ext<'a>>(g: &mut Grammar<'a, E>) {
    let ty = g.ty.clone();
    let ty_term = g.ty_term.clone();
    let expr = g.expr.clone();

    // `[e]` or `[]` in a type.
    let size_exp: Bx<'a, (Option<Expr>, Span), E> = expr
        .clone()
        .or_not()
        .delimited_by(lbracket(), just(Token::RBracket))
        .map_with(|e, x| (e, x.span()))
        .boxed();

    let field_type = field_id().then_ignore(just(Token::Colon)).then(ty.clone());
    let record = field_type
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LBrace), just(Token::RBrace))
        .map(TypeExpKind::Record);
    let tuple = ty
        .clone()
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .map_with(|mut ts, e| {
            if ts.len() == 1 {
                let mut t = ts.pop().unwrap();
                t.span = e.span();
                t
            } else {
                te(TypeExpKind::Tuple(ts), e.span())
            }
        });
    let array = size_exp
        .clone()
        .then(ty_term.clone())
        .map_with(|((s, _), t), e| te(TypeExpKind::Array(s.map(Box::new), Box::new(t)), e.span()));
    let var = qualname().map_with(|q, e| te(TypeExpKind::Var(q, vec![]), e.span()));

    let ty_atom: Bx<'a, TypeExp, E> =
        choice((tuple, record.map_with(|k, e| te(k, e.span())), array, var))
            .labelled("type")
            .boxed();

    let type_arg = size_exp
        .map(|(s, sp)| TypeArg::Size(s, sp))
        .or(ty_atom.clone().map(TypeArg::Type));
    let apply = qualname()
        .then(type_arg.repeated().at_least(1).collect::<Vec<_>>())
        .map_with(|(q, args), e| te(TypeExpKind::Var(q, args), e.span()));
    let ty_apply = apply.or(ty_atom.clone());

    let constr = select! { Token::Constructor(c) = e => Ident { name: c, span: e.span() } };
    let sum_clause = constr.then(ty_atom.clone().repeated().collect::<Vec<_>>());
    let sum = sum_clause
        .separated_by(op("|"))
        .at_least(1)
        .collect::<Vec<_>>()
        .map_with(|cs, e| te(TypeExpKind::Sum(cs), e.span()));

    g.ty_term.define(
        recursive(|term| {
            choice((
                op("*")
                    .ignore_then(term)
                    .map_with(|t, e| te(TypeExpKind::Unique(Box::new(t)), e.span())),
                sum,
                ty_apply,
            ))
        })
        .labelled("type"),
    );

    let dep_arrow = ident()
        .then_ignore(just(Token::Colon))
        .then(ty.clone())
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .then_ignore(just(Token::Arrow))
        .then(ty.clone())
        .map_with(|((n, a), b), e| {
            te(
                TypeExpKind::Arrow(Some(n), Box::new(a), Box::new(b)),
                e.span(),
            )
        });
    let exist = just(Token::Question)
        .ignore_then(
            ident()
                .delimited_by(lbracket(), just(Token::RBracket))
                .repeated()
                .at_least(1)
                .collect::<Vec<_>>(),
        )
        .then_ignore(just(Token::Dot))
        .then(ty.clone())
        .map_with(|(ns, t), e| te(TypeExpKind::Existential(ns, Box::new(t)), e.span()));
    // `(n: t) -> u` is recognised by its first three tokens, so that a malformed one
    // is not parsed a second time as a parenthesised type (exponential when nested).
    let dep_start = just(Token::LParen)
        .then(ident())
        .then(just(Token::Colon))
        .rewind();
    let arrow = dep_start
        .not()
        .ignore_then(ty_term.clone())
        .then(just(Token::Arrow).ignore_then(ty.clone()).or_not())
        .map_with(|(a, b), e| match b {
            Some(b) => te(TypeExpKind::Arrow(None, Box::new(a), Box::new(b)), e.span()),
            None => a,
        });
    g.ty.define(choice((dep_arrow, exist, arrow)).labelled("type").boxed());
}

fn define_pats<'a, E: Ext<'a>>(g: &mut Grammar<'a, E>) {
    let pat = g.pat.clone();
    let ty = g.ty.clone();

    let constr = select! { Token::Constructor(c) = e => Ident { name: c, span: e.span() } };
    let lit = literal().map_with(|l, e| pt(PatKind::Literal(l), e.span()));
    let neg_lit = op("-")
        .ignore_then(literal())
        .map_with(|l, e| pt(PatKind::Literal(negate_literal(l)), e.span()));

    let field_pat = field_id()
        .then(
            choice((
                just(Token::Equals).ignore_then(pat.clone()).map(Ok),
                just(Token::Colon).ignore_then(ty.clone()).map(Err),
            ))
            .or_not(),
        )
        .map_with(|(f, rest), e| {
            let p = match rest {
                Some(Ok(p)) => p,
                Some(Err(t)) => pt(
                    PatKind::Ascribed(Box::new(pt(PatKind::Id(f.clone()), f.span)), t),
                    e.span(),
                ),
                None => pt(PatKind::Id(f.clone()), f.span),
            };
            (f, p)
        });
    let record = field_pat
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LBrace), just(Token::RBrace))
        .map_with(|fs, e| pt(PatKind::Record(fs), e.span()));
    let parens = pat
        .clone()
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .map_with(|mut ps, e| {
            if ps.len() == 1 {
                let mut p = ps.pop().unwrap();
                p.span = e.span();
                p
            } else {
                pt(PatKind::Tuple(ps), e.span())
            }
        });
    let op_id = binding_op()
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .map_with(|i, e| pt(PatKind::Id(i), e.span()));
    let id = ident().map_with(|i, e| pt(PatKind::Id(i), e.span()));
    let wild = just(Token::Underscore).map_with(|_, e| pt(PatKind::Wildcard, e.span()));
    let nullary = constr.map_with(|c, e| pt(PatKind::Constructor(c, vec![]), e.span()));

    let param: Bx<'a, Pat, E> = choice((
        id.clone(),
        op_id.clone(),
        wild.clone(),
        parens.clone(),
        record.clone(),
        lit.clone(),
        nullary,
    ))
    .labelled("parameter")
    .boxed();
    g.param.define(param);

    let inner: Bx<'a, Pat, E> = choice((id, op_id, wild, parens, record, lit, neg_lit, nullary))
        .labelled("pattern")
        .boxed();

    let attr_pat = attr_block()
        .then(pat.clone())
        .map_with(|(a, p), e| pt(PatKind::Attr(a, Box::new(p)), e.span()));
    let constr_pat = constr
        .then(inner.clone().repeated().collect::<Vec<_>>())
        .map_with(|(c, ps), e| pt(PatKind::Constructor(c, ps), e.span()));
    let ascribed = inner
        .then(just(Token::Colon).ignore_then(ty).or_not())
        .map_with(|(p, t), e| match t {
            Some(t) => pt(PatKind::Ascribed(Box::new(p), t), e.span()),
            None => p,
        });
    g.pat.define(
        choice((attr_pat, constr_pat, ascribed))
            .labelled("pattern")
            .boxed(),
    );
}

/// What follows `with` in an update.
enum WithTarget {
    Index(Vec<DimIndex>),
    Fields(Vec<Ident>),
    Path(Vec<PathStep>),
}

/// Sorts a parsed path into the tree's forms: one index step, fields only, or a
/// path of several steps with an index among them.
fn classify_path(path: Vec<PathStep>) -> WithTarget {
    let path = match <[PathStep; 1]>::try_from(path) {
        Ok([PathStep::Index(is, _)]) => return WithTarget::Index(is),
        Ok([step]) => vec![step],
        Err(path) => path,
    };
    if path.iter().all(|s| matches!(s, PathStep::Field(_))) {
        return WithTarget::Fields(
            path.into_iter()
                .filter_map(|s| match s {
                    PathStep::Field(f) => Some(f),
                    PathStep::Index(..) => None,
                })
                .collect(),
        );
    }
    WithTarget::Path(path)
}

fn define_exprs<'a, E: Ext<'a>>(g: &mut Grammar<'a, E>) {
    let expr = g.expr.clone();
    let exp2 = g.exp2.clone();
    let ty = g.ty.clone();
    let ty_term = g.ty_term.clone();
    let pat = g.pat.clone();
    let param = g.param.clone();

    // ---- index dimensions ----
    let colon_part = just(Token::Colon).ignore_then(exp2.clone().or_not()).then(
        just(Token::Colon)
            .ignore_then(exp2.clone().or_not())
            .or_not(),
    );
    let dim_index = choice((
        exp2.clone()
            .then(colon_part.clone().or_not())
            .map(|(s, rest)| match rest {
                None => DimIndex::Fix(s),
                Some((end, stride)) => DimIndex::Slice {
                    start: Some(s),
                    end,
                    stride: stride.flatten(),
                },
            }),
        colon_part.map(|(end, stride)| DimIndex::Slice {
            start: None,
            end,
            stride: stride.flatten(),
        }),
    ));
    let dim_indices: Bx<'a, Vec<DimIndex>, E> = dim_index
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .boxed();

    // ---- update paths ----
    // A step after the first: `[i]` (written against what precedes it, unless
    // `any_bracket`: after `with` nothing else may follow a step, so `t with 0 [1]`
    // is a path too), or `.f`.
    let later_step = |any_bracket: bool| -> Bx<'a, Vec<PathStep>, E> {
        let open = if any_bracket {
            lbracket().boxed()
        } else {
            just(Token::IndexOpen).boxed()
        };
        choice((
            dim_indices
                .clone()
                .delimited_by(open, just(Token::RBracket))
                .map_with(|is, e| vec![PathStep::Index(is, e.span())]),
            just(Token::Dot)
                .ignore_then(field_path())
                .map(|fs| fs.into_iter().map(PathStep::Field).collect()),
        ))
        .boxed()
    };
    // A whole path, as after `with` or the `.` of a section: `[i].f`, `a.b[i]`.
    let path_from = |later: Bx<'a, Vec<PathStep>, E>| -> Bx<'a, Vec<PathStep>, E> {
        choice((
            dim_indices
                .clone()
                .delimited_by(lbracket(), just(Token::RBracket))
                .map_with(|is, e| vec![PathStep::Index(is, e.span())]),
            field_path().map(|fs| fs.into_iter().map(PathStep::Field).collect()),
        ))
        .then(later.repeated().collect::<Vec<_>>())
        .map(|(first, rest)| {
            let mut path = first;
            path.extend(rest.into_iter().flatten());
            path
        })
        .boxed()
    };
    let update_path = path_from(later_step(true));
    let section_path = path_from(later_step(false));
    let later_step = later_step(false);

    // ---- atoms ----
    let lit = literal().map_with(|l, e| ex(ExprKind::Literal(l), e.span()));
    let hole = just(Token::Hole).map_with(|_, e| ex(ExprKind::Hole, e.span()));
    let var = qualname().map_with(|q, e| ex(ExprKind::Var(q), e.span()));
    let constr = select! { Token::Constructor(c) = e => Ident { name: c, span: e.span() } };
    let constr_atom = constr.map_with(|c, e| ex(ExprKind::Constructor(c, vec![]), e.span()));

    let array = expr
        .clone()
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LBracket), just(Token::RBracket))
        .map_with(|es, e| ex(ExprKind::ArrayLit(es), e.span()))
        .recover_with(via_parser(nested_delimiters(
            Token::LBracket,
            Token::RBracket,
            [
                (Token::IndexOpen, Token::RBracket),
                (Token::LParen, Token::RParen),
                (Token::LBrace, Token::RBrace),
            ],
            hole_expr,
        )));

    let field = field_id()
        .then(just(Token::Equals).ignore_then(expr.clone()).or_not())
        .map(|(f, v)| match v {
            Some(v) => RecordField::Explicit(f, v),
            None => RecordField::Pun(f),
        });
    let record = field
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LBrace), just(Token::RBrace))
        .map_with(|fs, e| ex(ExprKind::Record(fs), e.span()))
        .recover_with(via_parser(nested_delimiters(
            Token::LBrace,
            Token::RBrace,
            [
                (Token::IndexOpen, Token::RBracket),
                (Token::LBracket, Token::RBracket),
                (Token::LParen, Token::RParen),
            ],
            hole_expr,
        )));

    let qual_parens = select! { Token::QualParen(ns) = e => {
        let sp: Span = e.span();
        qual_from(ns, Span::new(sp.file, sp.start, sp.end - 2))
    } }
    .then(expr.clone())
    .then_ignore(just(Token::RParen))
    .map_with(|(q, x), e| ex(ExprKind::QualParens(q, Box::new(x)), e.span()));

    // Parenthesised forms: unit, sections, parens, tuples.
    let after_first = choice((
        just(Token::RParen).to(0u8).map(|_| (None, Vec::new())),
        just(Token::Comma)
            .ignore_then(
                expr.clone()
                    .separated_by(just(Token::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>(),
            )
            .then_ignore(just(Token::RParen))
            .map(|es| (None, es)),
        any_binop()
            .then_ignore(just(Token::RParen))
            .map(|o| (Some(o), Vec::new())),
    ));
    let paren_body = choice((
        just(Token::RParen).to(ExprKind::Tuple(vec![])),
        op("-")
            .map_with(|_, e| unqual("-".into(), e.span()))
            .then_ignore(just(Token::RParen))
            .map(ExprKind::OpSection),
        select! {
            Token::Op(o) = e if op_level(&o).is_some() && &*o != "-" => unqual(o, e.span()),
            Token::QualOp(qs, o) = e if op_level(&o).is_some() => qual_op(qs, o, e.span()),
        }
        .or(backtick_op())
        .then(exp2.clone().or_not())
        .then_ignore(just(Token::RParen))
        .map(|(o, rhs)| match rhs {
            None => ExprKind::OpSection(o),
            Some(r) => ExprKind::OpSectionRight(o, Box::new(r)),
        }),
        just(Token::Dot)
            .ignore_then(section_path)
            .then_ignore(just(Token::RParen))
            .map(|path| match classify_path(path) {
                WithTarget::Index(is) => ExprKind::IndexSection(is),
                WithTarget::Fields(fs) => ExprKind::ProjectSection(fs),
                WithTarget::Path(path) => ExprKind::PathSection(path),
            }),
        expr.clone()
            .then(after_first)
            .map(|(first, (o, rest))| match o {
                Some(o) => ExprKind::OpSectionLeft(o, Box::new(first)),
                None if rest.is_empty() => ExprKind::Parens(Box::new(first)),
                None => {
                    let mut es = vec![first];
                    es.extend(rest);
                    ExprKind::Tuple(es)
                }
            }),
    ));
    let parens = just(Token::LParen)
        .ignore_then(paren_body)
        .map_with(|k, e| ex(k, e.span()))
        .recover_with(via_parser(nested_delimiters(
            Token::LParen,
            Token::RParen,
            [
                (Token::IndexOpen, Token::RBracket),
                (Token::LBracket, Token::RBracket),
                (Token::LBrace, Token::RBrace),
            ],
            hole_expr,
        )));

    let atom: Bx<'a, Expr, E> = choice((
        lit,
        hole,
        var,
        constr_atom,
        parens,
        array,
        record,
        qual_parens,
    ))
    .labelled("expression")
    .boxed();

    // Postfix: indexing and field projection.
    enum Post {
        Index(Vec<DimIndex>),
        Fields(Vec<Ident>),
    }
    let index_suffix = just(Token::IndexOpen)
        .ignore_then(dim_indices.clone())
        .then_ignore(just(Token::RBracket))
        .map(Post::Index);
    let proj_suffix = just(Token::Dot).ignore_then(field_path()).map(Post::Fields);
    let atom_post: Bx<'a, Expr, E> = atom
        .foldl_with(
            choice((index_suffix, proj_suffix)).repeated(),
            |a, post, e| match post {
                Post::Index(is) => ex(ExprKind::Index(Box::new(a), is), e.span()),
                Post::Fields(fs) => {
                    let mut cur = a;
                    let end = e.span();
                    for f in fs {
                        let sp = Span::new(end.file, cur.span.start, f.span.end);
                        cur = ex(ExprKind::Project(Box::new(cur), f), sp);
                    }
                    cur
                }
            },
        )
        .boxed();

    let lambda = just(Token::Backslash)
        .ignore_then(param.clone().repeated().at_least(1).collect::<Vec<_>>())
        .then(just(Token::Colon).ignore_then(ty_term.clone()).or_not())
        .then_ignore(just(Token::Arrow))
        .then(expr.clone())
        .map_with(|((params, ret), body), e| {
            ex(
                ExprKind::Lambda {
                    params,
                    ret,
                    body: Box::new(body),
                },
                e.span(),
            )
        });

    // Application. A lambda may be the last argument without parentheses
    // (`tabulate n \i -> e`); its body extends as far right as possible.
    let apply = atom_post
        .clone()
        .then(atom_post.clone().repeated().collect::<Vec<_>>())
        .then(lambda.clone().or_not())
        .map_with(|((f, mut args), last), e| {
            args.extend(last);
            if args.is_empty() {
                return f;
            }
            match f.kind {
                ExprKind::Constructor(c, mut payload) if payload.is_empty() => {
                    payload.extend(args);
                    ex(ExprKind::Constructor(c, payload), e.span())
                }
                _ => ex(ExprKind::Apply(Box::new(f), args), e.span()),
            }
        });
    let assert = kw(Kw::Assert)
        .ignore_then(atom_post.clone())
        .then(atom_post.clone())
        .map_with(|(c, x), e| ex(ExprKind::Assert(Box::new(c), Box::new(x)), e.span()));

    // ---- prefix forms ----
    let if_ = kw(Kw::If)
        .ignore_then(expr.clone())
        .then_ignore(kw(Kw::Then))
        .then(expr.clone())
        .then_ignore(kw(Kw::Else))
        .then(expr.clone())
        .map_with(|((c, t), f), e| {
            ex(
                ExprKind::If(Box::new(c), Box::new(t), Box::new(f)),
                e.span(),
            )
        });

    let loop_form = choice((
        kw(Kw::For)
            .ignore_then(ident())
            .then_ignore(op("<"))
            .then(expr.clone())
            .map(|(i, n)| LoopForm::For(i, Box::new(n))),
        kw(Kw::For)
            .ignore_then(pat.clone())
            .then_ignore(kw(Kw::In))
            .then(expr.clone())
            .map(|(p, xs)| LoopForm::ForIn(p, Box::new(xs))),
        kw(Kw::While)
            .ignore_then(expr.clone())
            .map(|c| LoopForm::While(Box::new(c))),
    ));
    let loop_ = kw(Kw::Loop)
        .ignore_then(pat.clone())
        .then(just(Token::Equals).ignore_then(expr.clone()).or_not())
        .then(loop_form)
        .then_ignore(kw(Kw::Do))
        .then(expr.clone())
        .map_with(|(((p, init), form), body), e| {
            ex(
                ExprKind::Loop {
                    pat: p,
                    init: init.map(Box::new),
                    form,
                    body: Box::new(body),
                },
                e.span(),
            )
        });

    let case = kw(Kw::Case)
        .ignore_then(pat.clone())
        .then_ignore(just(Token::Arrow))
        .then(expr.clone())
        .map_with(|(p, b), e| Case {
            pat: p,
            body: b,
            span: e.span(),
        });
    let match_ = kw(Kw::Match)
        .ignore_then(expr.clone())
        .then(case.repeated().at_least(1).collect::<Vec<_>>())
        .map_with(|(s, cs), e| ex(ExprKind::Match(Box::new(s), cs), e.span()));

    let attr_expr = attr_block()
        .then(expr.clone())
        .map_with(|(a, x), e| ex(ExprKind::Attr(a, Box::new(x)), e.span()));

    // `let` forms. A malformed bound value becomes a hole, and parsing resumes at the
    // next `in` or `let`, so that several errors in one definition are reported.
    let let_value = expr
        .clone()
        .then_ignore(choice((kw(Kw::In), kw(Kw::Let))).rewind().labelled("`in`"))
        .recover_with(via_parser(
            balanced_skip(stops_let_value).map_with(|_, e| hole_expr(e.span())),
        ));
    let let_body = kw(Kw::In)
        .ignore_then(expr.clone())
        .or(kw(Kw::Let).rewind().ignore_then(expr.clone()))
        .labelled("`in`");
    let size_binders = ident()
        .delimited_by(lbracket(), just(Token::RBracket))
        .repeated()
        .at_least(1)
        .collect::<Vec<_>>();
    let let_sizes = size_binders
        .then(pat.clone())
        .then_ignore(just(Token::Equals))
        .then(let_value.clone())
        .then(let_body.clone())
        .map(|(((sizes, p), v), b)| (sizes, p, v, b))
        .map_with(|(sizes, p, v, b), e| {
            ex(
                ExprKind::Let {
                    sizes,
                    pat: p,
                    value: Box::new(v),
                    body: Box::new(b),
                },
                e.span(),
            )
        });
    // `let a[i] = v`, and paths that start with a field or continue after the
    // index: `let a[i].f = v`, `let r.f[i] = v`.
    let let_path = select! {
        Token::Ident(n) = e => (Ident { name: n, span: e.span() }, Vec::new()),
        Token::QualName(ns) = e => {
            let q = qual_from(ns, e.span());
            let mut parts = q.quals.into_iter();
            let root = parts.next().expect("qualified");
            let mut fields: Vec<Ident> = parts.collect();
            fields.push(q.name);
            (root, fields)
        },
    }
    .then(
        dim_indices
            .clone()
            .delimited_by(just(Token::IndexOpen), just(Token::RBracket))
            .map_with(|is, e| (is, e.span())),
    )
    .then(later_step.clone().repeated().collect::<Vec<_>>())
    .then_ignore(just(Token::Equals))
    .then(let_value.clone())
    .then(let_body.clone())
    .map_with(|(((((dest, fields), (indices, isp)), rest), v), b), e| {
        if fields.is_empty() && rest.is_empty() {
            return ex(
                ExprKind::LetWith {
                    dest,
                    indices,
                    value: Box::new(v),
                    body: Box::new(b),
                },
                e.span(),
            );
        }
        let mut path: Vec<PathStep> = fields.into_iter().map(PathStep::Field).collect();
        path.push(PathStep::Index(indices, isp));
        path.extend(rest.into_iter().flatten());
        let root_var = ex(
            ExprKind::Var(unqual(dest.name.clone(), dest.span)),
            dest.span,
        );
        let upd_span = dest.span.to(v.span);
        let value = ex(
            ExprKind::UpdatePath {
                target: Box::new(root_var),
                path,
                value: Box::new(v),
            },
            upd_span,
        );
        ex(
            ExprKind::Let {
                sizes: vec![],
                pat: pt(PatKind::Id(dest.clone()), dest.span),
                value: Box::new(value),
                body: Box::new(b),
            },
            e.span(),
        )
    });
    let let_field = select! { Token::QualName(ns) = e => qual_from(ns, e.span()) }
        .then_ignore(just(Token::Equals))
        .then(let_value.clone())
        .then(let_body.clone())
        .map_with(|((q, v), b), e| {
            let mut quals = q.quals.into_iter();
            let root = quals.next().expect("qualified");
            let mut fields: Vec<Ident> = quals.collect();
            fields.push(q.name);
            let root_var = ex(
                ExprKind::Var(unqual(root.name.clone(), root.span)),
                root.span,
            );
            let upd_span = root.span.to(v.span);
            let value = ex(
                ExprKind::RecordUpdate {
                    target: Box::new(root_var),
                    fields,
                    value: Box::new(v),
                },
                upd_span,
            );
            ex(
                ExprKind::Let {
                    sizes: vec![],
                    pat: pt(PatKind::Id(root.clone()), root.span),
                    value: Box::new(value),
                    body: Box::new(b),
                },
                e.span(),
            )
        });
    let local_tparams = choice((
        ident()
            .delimited_by(just(Token::LBracket), just(Token::RBracket))
            .map(TypeParam::Size)
            .then(type_param().repeated().collect::<Vec<_>>())
            .map(|(p, mut ps)| {
                ps.insert(0, p);
                ps
            }),
        type_tick_param()
            .then(type_param().repeated().collect::<Vec<_>>())
            .map(|(p, mut ps)| {
                ps.insert(0, p);
                ps
            }),
    ))
    .or_not()
    .map(Option::unwrap_or_default);
    let let_fun = ident()
        .then(local_tparams)
        .then(param.clone().repeated().at_least(1).collect::<Vec<_>>())
        .then(just(Token::Colon).ignore_then(ty.clone()).or_not())
        .then_ignore(just(Token::Equals))
        .then(let_value.clone())
        .then(let_body.clone())
        .map_with(|(((((name, tps), params), ret), v), b), e| {
            ex(
                ExprKind::LetFun {
                    name,
                    type_params: tps,
                    params,
                    ret,
                    value: Box::new(v),
                    body: Box::new(b),
                },
                e.span(),
            )
        });
    let let_pat = pat
        .clone()
        .then_ignore(just(Token::Equals))
        .then(let_value.clone())
        .then(let_body)
        .map_with(|((p, v), b), e| {
            ex(
                ExprKind::Let {
                    sizes: vec![],
                    pat: p,
                    value: Box::new(v),
                    body: Box::new(b),
                },
                e.span(),
            )
        });
    let let_ = kw(Kw::Let)
        .ignore_then(choice((let_sizes, let_path, let_field, let_fun, let_pat)))
        .map_with(|mut x, e| {
            x.span = e.span();
            x
        })
        .boxed();

    let operand: Bx<'a, Expr, E> =
        choice((if_, let_, loop_, match_, lambda, attr_expr, assert, apply))
            .labelled("expression")
            .boxed();

    // ---- binary operators ----
    fn level_op<'a, E: Ext<'a>>(level: u16) -> impl Parser<'a, In<'a>, QualName, E> + Clone {
        select! {
            Token::Op(o) = e if op_level(&o) == Some(level) => unqual(o, e.span()),
            Token::QualOp(qs, o) = e if op_level(&o) == Some(level) => qual_op(qs, o, e.span()),
        }
        .labelled("operator")
    }
    fn bin(l: Expr, o: QualName, r: Expr, sp: Span) -> Expr {
        ex(ExprKind::BinOp(o, Box::new(l), Box::new(r)), sp)
    }
    let with_op = kw(Kw::With)
        .ignore_then(update_path.clone().map(classify_path))
        .then_ignore(just(Token::Equals));
    let binexp = operand.pratt((
        prefix(
            LEVEL_PREFIX,
            op("-"),
            |_, x, e: &mut chumsky::input::MapExtra<'a, '_, In<'a>, E>| {
                ex(ExprKind::Neg(Box::new(x)), e.span())
            },
        ),
        prefix(
            LEVEL_PREFIX,
            op("!"),
            |_, x, e: &mut chumsky::input::MapExtra<'a, '_, In<'a>, E>| {
                ex(ExprKind::Not(Box::new(x)), e.span())
            },
        ),
        infix(left(LEVEL_BACKTICK), backtick_op(), |l, o, r, e| {
            bin(l, o, r, e.span())
        }),
        infix(left(LEVEL_WITH), with_op, |l: Expr, w, r, e| match w {
            WithTarget::Index(indices) => ex(
                ExprKind::Update {
                    target: Box::new(l),
                    indices,
                    value: Box::new(r),
                },
                e.span(),
            ),
            WithTarget::Fields(fields) => ex(
                ExprKind::RecordUpdate {
                    target: Box::new(l),
                    fields,
                    value: Box::new(r),
                },
                e.span(),
            ),
            WithTarget::Path(path) => ex(
                ExprKind::UpdatePath {
                    target: Box::new(l),
                    path,
                    value: Box::new(r),
                },
                e.span(),
            ),
        }),
        infix(left(3), level_op(3), |l, o, r, e| bin(l, o, r, e.span())),
        infix(right(4), level_op(4), |l, o, r, e| bin(l, o, r, e.span())),
        infix(left(5), level_op(5), |l, o, r, e| bin(l, o, r, e.span())),
        infix(left(6), level_op(6), |l, o, r, e| bin(l, o, r, e.span())),
        infix(left(7), level_op(7), |l, o, r, e| bin(l, o, r, e.span())),
        infix(left(8), level_op(8), |l, o, r, e| bin(l, o, r, e.span())),
        infix(left(9), level_op(9), |l, o, r, e| bin(l, o, r, e.span())),
        infix(left(10), level_op(10), |l, o, r, e| bin(l, o, r, e.span())),
        infix(left(11), level_op(11), |l, o, r, e| bin(l, o, r, e.span())),
        infix(left(12), level_op(12), |l, o, r, e| bin(l, o, r, e.span())),
    ));
    let binexp: Bx<'a, Expr, E> = binexp.boxed();

    // Ranges.
    let range_end = select! {
        Token::DotDotDot => RangeEnd::Inclusive,
        Token::DotDotLt => RangeEnd::UpToExclusive,
        Token::DotDotGt => RangeEnd::DownToExclusive,
    };
    let range_tail = just(Token::DotDot)
        .ignore_then(binexp.clone())
        .or_not()
        .then(range_end)
        .then(binexp.clone());
    g.exp2.define(
        binexp
            .then(range_tail.or_not())
            .map_with(|(start, tail), e| match tail {
                None => start,
                Some(((second, end_kind), end)) => ex(
                    ExprKind::Range {
                        start: Box::new(start),
                        second: second.map(Box::new),
                        end_kind,
                        end: Box::new(end),
                    },
                    e.span(),
                ),
            })
            .labelled("expression")
            .boxed(),
    );

    enum Asc {
        Ascribe(TypeExp),
        Coerce(TypeExp),
    }
    g.expr.define(
        exp2.foldl_with(
            choice((
                just(Token::Colon).ignore_then(ty.clone()).map(Asc::Ascribe),
                just(Token::ColonGt).ignore_then(ty).map(Asc::Coerce),
            ))
            .repeated(),
            |x, a, e| match a {
                Asc::Ascribe(t) => ex(ExprKind::Ascribe(Box::new(x), t), e.span()),
                Asc::Coerce(t) => ex(ExprKind::Coerce(Box::new(x), t), e.span()),
            },
        )
        .labelled("expression")
        .boxed(),
    );
}

// ---------------------------------------------------------------------------
// Module language and declarations.

fn decs_parser<'a, E: Ext<'a>>(g: &Grammar<'a, E>, top: bool) -> Bx<'a, Vec<Dec>, E> {
    let mut decs: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, Vec<Dec>, E>> =
        Recursive::declare();
    let mut sig: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, SigExp, E>> =
        Recursive::declare();
    let mut modexp: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, ModExp, E>> =
        Recursive::declare();
    let mut dec: Recursive<chumsky::recursive::Indirect<'a, 'a, In<'a>, Dec, E>> =
        Recursive::declare();

    let expr = g.expr.clone();
    let ty = g.ty.clone();
    let ty_term = g.ty_term.clone();
    let param = g.param.clone();

    // ---- module types ----
    let mod_param = ident()
        .then_ignore(just(Token::Colon))
        .then(sig.clone())
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .map_with(|(name, s), e| ModParam {
            name,
            sig: s,
            span: e.span(),
        });

    let val_spec = kw(Kw::Val)
        .ignore_then(choice((
            ident(),
            binding_op(),
            binding_op().delimited_by(just(Token::LParen), just(Token::RParen)),
        )))
        .then(type_param().repeated().collect::<Vec<_>>())
        .then_ignore(just(Token::Colon))
        .then(ty.clone())
        .map(|((name, type_params), ty)| SpecKind::Val {
            name,
            type_params,
            ty,
        });
    let type_spec = kw(Kw::Type)
        .ignore_then(liftedness())
        .then(ident())
        .then(type_param().repeated().collect::<Vec<_>>())
        .then(just(Token::Equals).ignore_then(ty.clone()).or_not())
        .map(|(((liftedness, name), params), def)| SpecKind::Type {
            name,
            liftedness,
            params,
            def,
        });
    let mod_spec = kw(Kw::Module)
        .ignore_then(ident())
        .then_ignore(just(Token::Colon))
        .then(sig.clone())
        .map(|(name, sig)| SpecKind::Mod { name, sig });
    let include_spec = kw(Kw::Include)
        .ignore_then(sig.clone())
        .map(SpecKind::Include);
    let spec = attr_block()
        .repeated()
        .ignore_then(choice((val_spec, type_spec, mod_spec, include_spec)))
        .map_with(|kind, e| Spec {
            kind,
            doc: None,
            span: e.span(),
        })
        .labelled("specification");
    let spec_sync = [
        Token::Kw(Kw::Val),
        Token::Kw(Kw::Type),
        Token::Kw(Kw::Module),
        Token::Kw(Kw::Include),
        Token::RBrace,
    ];
    let spec_rec = spec.map(Some).recover_with(via_parser(
        none_of([Token::RBrace])
            .then(none_of(spec_sync).repeated())
            .to(None),
    ));
    let specs = spec_rec
        .repeated()
        .collect::<Vec<_>>()
        .map(|v| v.into_iter().flatten().collect::<Vec<Spec>>())
        .delimited_by(just(Token::LBrace), just(Token::RBrace))
        .map_with(|ss, e| SigExp {
            kind: SigExpKind::Specs(ss),
            span: e.span(),
        });
    let sig_atom = choice((
        qualname().map_with(|q, e| SigExp {
            kind: SigExpKind::Var(q),
            span: e.span(),
        }),
        specs,
        sig.clone()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map_with(|s, e| SigExp {
                kind: SigExpKind::Parens(Box::new(s)),
                span: e.span(),
            }),
    ));
    let type_ref = kw(Kw::With)
        .ignore_then(qualname())
        .then(type_param().repeated().collect::<Vec<_>>())
        .then_ignore(just(Token::Equals))
        .then(ty_term.clone());
    let sig_with = sig_atom.foldl_with(type_ref.repeated(), |s, ((q, ps), t), e| SigExp {
        kind: SigExpKind::With(Box::new(s), q, ps, t),
        span: e.span(),
    });
    let dep_sig_arrow = ident()
        .then_ignore(just(Token::Colon))
        .then(sig.clone())
        .delimited_by(just(Token::LParen), just(Token::RParen))
        .then_ignore(just(Token::Arrow))
        .then(sig.clone())
        .map_with(|((n, a), b), e| SigExp {
            kind: SigExpKind::Arrow(Some(n), Box::new(a), Box::new(b)),
            span: e.span(),
        });
    let dep_sig_start = just(Token::LParen)
        .then(ident())
        .then(just(Token::Colon))
        .rewind();
    let sig_arrow = dep_sig_start
        .not()
        .ignore_then(sig_with)
        .then(just(Token::Arrow).ignore_then(sig.clone()).or_not())
        .map_with(|(a, b), e| match b {
            Some(b) => SigExp {
                kind: SigExpKind::Arrow(None, Box::new(a), Box::new(b)),
                span: e.span(),
            },
            None => a,
        });
    sig.define(
        choice((dep_sig_arrow, sig_arrow))
            .labelled("module type")
            .boxed(),
    );

    // ---- module expressions ----
    let mod_atom = choice((
        modexp
            .clone()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map_with(|m, e| ModExp {
                kind: ModExpKind::Parens(Box::new(m)),
                span: e.span(),
            }),
        qualname().map_with(|q, e| ModExp {
            kind: ModExpKind::Var(q),
            span: e.span(),
        }),
        decs.clone()
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .map_with(|ds, e| ModExp {
                kind: ModExpKind::Struct(ds),
                span: e.span(),
            }),
    ))
    .labelled("module expression");
    let mod_apply = mod_atom
        .clone()
        .foldl_with(mod_atom.repeated(), |f, a, e| ModExp {
            kind: ModExpKind::Apply(Box::new(f), Box::new(a)),
            span: e.span(),
        });
    let simple_sig = choice((
        qualname().map_with(|q, e| SigExp {
            kind: SigExpKind::Var(q),
            span: e.span(),
        }),
        sig.clone()
            .delimited_by(just(Token::LParen), just(Token::RParen))
            .map_with(|s, e| SigExp {
                kind: SigExpKind::Parens(Box::new(s)),
                span: e.span(),
            }),
    ));
    let mod_lambda = just(Token::Backslash)
        .ignore_then(mod_param.clone())
        .then(just(Token::Colon).ignore_then(simple_sig).or_not())
        .then_ignore(just(Token::Arrow))
        .then(modexp.clone())
        .map_with(|((p, s), b), e| ModExp {
            kind: ModExpKind::Lambda(p, s, Box::new(b)),
            span: e.span(),
        });
    let mod_import = kw(Kw::Import)
        .ignore_then(string_lit())
        .map_with(|(s, _), e| ModExp {
            kind: ModExpKind::Import(s),
            span: e.span(),
        });
    modexp.define(
        choice((mod_lambda, mod_import, mod_apply))
            .foldl_with(
                just(Token::Colon).ignore_then(sig.clone()).repeated(),
                |m, s, e| ModExp {
                    kind: ModExpKind::Ascribe(Box::new(m), s),
                    span: e.span(),
                },
            )
            .labelled("module expression")
            .boxed(),
    );

    // ---- declarations ----
    let ret = just(Token::Colon).ignore_then(ty.clone()).or_not();
    // A malformed body becomes a hole; the definition is kept.
    let dec_follow = choice((
        any()
            .filter(|t: &Token| {
                DEC_SYNC.contains(t)
                    || matches!(t, Token::Kw(Kw::Let) | Token::HashBracket | Token::RBrace)
            })
            .ignored(),
        end(),
    ))
    .rewind()
    .labelled("declaration");
    let body = expr
        .clone()
        .then_ignore(dec_follow)
        .recover_with(via_parser(
            balanced_skip(stops_dec_body).map_with(|_, e| hole_expr(e.span())),
        ));
    let val_kw = choice((
        kw(Kw::Def).to(false),
        kw(Kw::Entry).to(true),
        kw(Kw::Let).to(false),
    ));
    let prefix_val = val_kw
        .clone()
        .then(binding_id())
        .then(type_param().repeated().collect::<Vec<_>>())
        .then(param.clone().repeated().collect::<Vec<_>>())
        .then(ret.clone())
        .then_ignore(just(Token::Equals))
        .then(body.clone())
        .map(|(((((entry, name), tps), params), ret), body)| (entry, name, tps, params, ret, body));
    let infix_val = val_kw
        .then(param.clone())
        .then(binding_op())
        .then(param.clone())
        .then(ret)
        .then_ignore(just(Token::Equals))
        .then(body)
        .map(|(((((entry, p1), name), p2), ret), body)| {
            (entry, name, vec![], vec![p1, p2], ret, body)
        });
    let val = choice((prefix_val, infix_val)).map_with(
        |(entry, name, type_params, params, ret, body), e| {
            DecKind::Val(ValBind {
                entry,
                name,
                type_params,
                params,
                ret,
                body,
                attrs: vec![],
                doc: None,
                span: e.span(),
            })
        },
    );
    let type_dec = kw(Kw::Type)
        .ignore_then(liftedness())
        .then(ident())
        .then(type_param().repeated().collect::<Vec<_>>())
        .then_ignore(just(Token::Equals))
        .then(ty.clone())
        .map_with(|(((liftedness, name), params), def), e| {
            DecKind::Type(TypeBind {
                name,
                liftedness,
                params,
                def,
                doc: None,
                span: e.span(),
            })
        });
    let sig_dec = kw(Kw::Module)
        .ignore_then(kw(Kw::Type))
        .ignore_then(ident())
        .then_ignore(just(Token::Equals))
        .then(sig.clone())
        .map_with(|(name, sig), e| {
            DecKind::Sig(SigBind {
                name,
                sig,
                doc: None,
                span: e.span(),
            })
        });
    let mod_dec = kw(Kw::Module)
        .ignore_then(ident())
        .then(mod_param.repeated().collect::<Vec<_>>())
        .then(just(Token::Colon).ignore_then(sig.clone()).or_not())
        .then_ignore(just(Token::Equals))
        .then(modexp.clone())
        .map_with(|(((name, params), sig), body), e| {
            DecKind::Mod(ModBind {
                name,
                params,
                sig,
                body,
                doc: None,
                span: e.span(),
            })
        });
    let open_dec = kw(Kw::Open).ignore_then(modexp.clone()).map(DecKind::Open);
    let import_dec = kw(Kw::Import)
        .ignore_then(string_lit())
        .map(|(s, sp)| DecKind::Import(s, sp));
    let local_dec = kw(Kw::Local)
        .ignore_then(dec.clone())
        .map(|d| DecKind::Local(Box::new(d)));

    dec.define(
        attr_block()
            .repeated()
            .collect::<Vec<_>>()
            .then(choice((
                val, type_dec, sig_dec, mod_dec, open_dec, import_dec, local_dec,
            )))
            .map_with(|(attrs, mut kind), e| {
                if let DecKind::Val(v) = &mut kind {
                    v.attrs = attrs;
                    v.span = e.span();
                }
                Dec {
                    kind,
                    span: e.span(),
                }
            })
            .labelled("declaration")
            .boxed(),
    );

    let make_decs = |top: bool| {
        let skip: Bx<'a, Option<Dec>, E> = if top {
            any().then(none_of(DEC_SYNC).repeated()).to(None).boxed()
        } else {
            let mut sync = DEC_SYNC.to_vec();
            sync.push(Token::RBrace);
            none_of([Token::RBrace])
                .then(none_of(sync).repeated())
                .to(None)
                .boxed()
        };
        dec.clone()
            .map(Some)
            .recover_with(via_parser(skip))
            .repeated()
            .collect::<Vec<_>>()
            .map(|v| v.into_iter().flatten().collect::<Vec<Dec>>())
            .boxed()
    };
    decs.define(make_decs(false));
    if top { make_decs(true) } else { decs.boxed() }
}

/// The parser of a whole file.
pub(crate) fn file_parser<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Vec<Dec>, E> {
    let g = grammar();
    decs_parser(&g, true).then_ignore(end())
}

/// A parser of a single expression (for tests and tools).
pub(crate) fn expr_parser<'a, E: Ext<'a>>() -> impl Parser<'a, In<'a>, Expr, E> {
    let g = grammar();
    g.expr.clone().then_ignore(end())
}
