//! Pretty-printing the AST back to valid source.
//!
//! The printer inserts parentheses only where the grammar needs them, and prints every
//! [`ExprKind::Parens`] as written, so that for a parsed tree `parse(pretty(t))` gives
//! `t` again up to spans and NodeIds (checked by the round-trip tests).
//!
//! Expressions are printed with a precedence (`min`) and a `tail` flag: `tail` says that
//! nothing that could extend an expression (an operator, an argument, `: t`) follows it,
//! so that `if`, `let`, `\`, `loop` and `match`, whose bodies extend as far right as
//! possible, can be printed without parentheses.

use crate::ast::*;
use crate::lexer::is_op_start;
use crate::parser::{LEVEL_BACKTICK, LEVEL_WITH, op_level};

/// Prints a whole file.
pub fn pretty(file: &File) -> String {
    let mut p = Printer::default();
    if let Some(d) = &file.doc {
        p.doc(d);
        p.nl();
        p.nl();
    }
    for (i, d) in file.decs.iter().enumerate() {
        if i > 0 {
            p.nl();
        }
        p.dec(d);
        p.nl();
    }
    p.out
}

/// Prints an expression.
pub fn pretty_expr(e: &Expr) -> String {
    let mut p = Printer::default();
    p.expr(e, 0, true);
    p.out
}

/// Prints a type expression.
pub fn pretty_type(t: &TypeExp) -> String {
    let mut p = Printer::default();
    p.ty(t);
    p.out
}

/// Prints a pattern.
pub fn pretty_pat(pat: &Pat) -> String {
    let mut p = Printer::default();
    p.pat(pat, false);
    p.out
}

/// Prints a file with every compound subexpression parenthesised, to show the
/// structure the parser found (used by snapshot tests).
pub fn pretty_explicit(file: &File) -> String {
    let mut p = Printer {
        explicit: true,
        ..Printer::default()
    };
    for (i, d) in file.decs.iter().enumerate() {
        if i > 0 {
            p.nl();
        }
        p.dec(d);
        p.nl();
    }
    p.out
}

#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
    /// Parenthesise every compound subexpression.
    explicit: bool,
}

const P_ATOM: u8 = 100;
const P_APP: u8 = 90;
const P_PREFIX: u8 = 85;
const P_BIN: u8 = 20; // + level
const P_RANGE: u8 = 15;
const P_ASCRIBE: u8 = 10;
const P_GREEDY: u8 = 0;

fn is_op_name(n: &str) -> bool {
    n.bytes().next().is_some_and(is_op_start)
}

fn bin_level(op: &QualName) -> u16 {
    if is_op_name(&op.name.name) {
        op_level(&op.name.name).unwrap_or(10)
    } else {
        LEVEL_BACKTICK
    }
}

fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Literal(_)
        | ExprKind::Var(_)
        | ExprKind::Parens(_)
        | ExprKind::QualParens(..)
        | ExprKind::Tuple(_)
        | ExprKind::Record(_)
        | ExprKind::ArrayLit(_)
        | ExprKind::Project(..)
        | ExprKind::OpSection(_)
        | ExprKind::OpSectionLeft(..)
        | ExprKind::OpSectionRight(..)
        | ExprKind::ProjectSection(_)
        | ExprKind::IndexSection(_)
        | ExprKind::PathSection(_)
        | ExprKind::Index(..)
        | ExprKind::Hole => P_ATOM,
        ExprKind::Constructor(_, args) if args.is_empty() => P_ATOM,
        ExprKind::Constructor(..) | ExprKind::Apply(..) | ExprKind::Assert(..) => P_APP,
        ExprKind::Neg(_) | ExprKind::Not(_) => P_PREFIX,
        ExprKind::BinOp(op, ..) => P_BIN + bin_level(op) as u8,
        ExprKind::Update { .. } | ExprKind::RecordUpdate { .. } | ExprKind::UpdatePath { .. } => {
            P_BIN + LEVEL_WITH as u8
        }
        ExprKind::Range { .. } => P_RANGE,
        ExprKind::Ascribe(..) | ExprKind::Coerce(..) => P_ASCRIBE,
        ExprKind::If(..)
        | ExprKind::Let { .. }
        | ExprKind::LetFun { .. }
        | ExprKind::LetWith { .. }
        | ExprKind::Lambda { .. }
        | ExprKind::Loop { .. }
        | ExprKind::Match(..)
        | ExprKind::Attr(..) => P_GREEDY,
    }
}

impl Printer {
    fn s(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn nl(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn doc(&mut self, d: &str) {
        for (i, line) in d.split('\n').enumerate() {
            if i > 0 {
                self.nl();
            }
            if i == 0 {
                self.s("-- |");
            } else {
                self.s("--");
            }
            if !line.is_empty() {
                self.s(" ");
                self.s(line);
            }
        }
    }

    fn qual(&mut self, q: &QualName) {
        for i in &q.quals {
            self.s(&i.name);
            self.s(".");
        }
        self.s(&q.name.name);
    }

    fn binding_name(&mut self, i: &Ident) {
        if is_op_name(&i.name) {
            self.s("(");
            self.s(&i.name);
            self.s(")");
        } else {
            self.s(&i.name);
        }
    }

    fn binop_name(&mut self, q: &QualName) {
        if is_op_name(&q.name.name) {
            self.qual(q);
        } else {
            self.s("`");
            self.qual(q);
            self.s("`");
        }
    }

    // ---- literals ----

    fn literal(&mut self, l: &Literal) {
        match l {
            Literal::Int { value, ty: Some(t) } if *value < 0 && t.is_integral() => {
                // A negative literal comes from a bit pattern (`0x80i8`); `-128i8`
                // would read as a negation.
                let bits = match t {
                    PrimType::I8 => 8,
                    PrimType::I16 => 16,
                    PrimType::I32 => 32,
                    _ => 64,
                };
                let pattern = (*value as u128) & ((1u128 << bits) - 1);
                self.s(&format!("0x{pattern:x}{}", t.name()));
            }
            Literal::Int { value, ty } => {
                self.s(&value.to_string());
                if let Some(t) = ty {
                    self.s(t.name());
                }
            }
            Literal::Float { value, ty } => {
                let mut s = format!("{value:?}");
                if value.is_infinite() || value.is_nan() {
                    // No literal syntax; print something that parses.
                    s = "0.0".into();
                } else if !s.contains(['.', 'e', 'E']) {
                    s.push_str(".0");
                }
                self.s(&s);
                if let Some(t) = ty {
                    self.s(t.name());
                }
            }
            Literal::Bool(b) => self.s(if *b { "true" } else { "false" }),
            Literal::Char { value, ty: _ } => {
                self.s("'");
                let c = char::from_u32(*value).unwrap_or('\0');
                let esc = escape_char(c, '\'');
                self.s(&esc);
                self.s("'");
            }
            Literal::String(bytes) => {
                self.s("\"");
                let text = String::from_utf8_lossy(bytes);
                for c in text.chars() {
                    let esc = escape_char(c, '"');
                    self.s(&esc);
                }
                self.s("\"");
            }
        }
    }

    // ---- attributes ----

    fn attr(&mut self, a: &Attr) {
        match &a.kind {
            AttrKind::Name(n) => self.s(n),
            AttrKind::Int(i) => self.s(&i.to_string()),
            AttrKind::Call(n, args) => {
                self.s(n);
                self.s("(");
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.attr(a);
                }
                self.s(")");
            }
        }
    }

    // ---- types ----

    fn type_param(&mut self, p: &TypeParam) {
        match p {
            TypeParam::Size(i) => {
                self.s("[");
                self.s(&i.name);
                self.s("]");
            }
            TypeParam::Type(i, l) => {
                self.s(match l {
                    Liftedness::Unlifted => "'",
                    Liftedness::SizeLifted => "'~",
                    Liftedness::Lifted => "'^",
                });
                self.s(&i.name);
            }
        }
    }

    fn type_params(&mut self, ps: &[TypeParam]) {
        for p in ps {
            self.s(" ");
            self.type_param(p);
        }
    }

    fn ty(&mut self, t: &TypeExp) {
        match &t.kind {
            TypeExpKind::Arrow(None, a, b) => {
                self.ty_term(a);
                self.s(" -> ");
                self.ty(b);
            }
            TypeExpKind::Arrow(Some(n), a, b) => {
                self.s("(");
                self.s(&n.name);
                self.s(": ");
                self.ty(a);
                self.s(") -> ");
                self.ty(b);
            }
            TypeExpKind::Existential(ns, t) => {
                self.s("?");
                for n in ns {
                    self.s("[");
                    self.s(&n.name);
                    self.s("]");
                }
                self.s(".");
                self.ty(t);
            }
            _ => self.ty_term(t),
        }
    }

    /// A type in a position where arrows and existentials need parentheses.
    fn ty_term(&mut self, t: &TypeExp) {
        match &t.kind {
            TypeExpKind::Arrow(..) | TypeExpKind::Existential(..) => self.ty_paren(t),
            TypeExpKind::Unique(inner) => {
                self.s("*");
                self.ty_term(inner);
            }
            TypeExpKind::Sum(cs) => {
                for (i, (c, ts)) in cs.iter().enumerate() {
                    if i > 0 {
                        self.s(" | ");
                    }
                    self.s("#");
                    self.s(&c.name);
                    for (j, t) in ts.iter().enumerate() {
                        self.s(" ");
                        // `#c [2]i32 [2]i32` would read the second size as an
                        // argument of the first element type.
                        self.ty_atom(t, j + 1 < ts.len());
                    }
                }
            }
            TypeExpKind::Var(q, args) => {
                self.qual(q);
                for a in args {
                    self.s(" ");
                    match a {
                        TypeArg::Size(e, _) => {
                            self.s("[");
                            if let Some(e) = e {
                                self.expr(e, 0, true);
                            }
                            self.s("]");
                        }
                        TypeArg::Type(t) => self.ty_atom(t, true),
                    }
                }
            }
            _ => self.ty_atom(t, false),
        }
    }

    /// A type in atom position (type arguments, sum payloads). In type-argument
    /// position (`in_arg`), array types need parentheses, as `t [n]u8` would read `[n]`
    /// as a size argument.
    fn ty_atom(&mut self, t: &TypeExp, in_arg: bool) {
        match &t.kind {
            TypeExpKind::Var(q, args) if args.is_empty() => self.qual(q),
            TypeExpKind::Tuple(ts) => {
                self.s("(");
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.ty(t);
                }
                self.s(")");
            }
            TypeExpKind::Record(fs) => {
                self.s("{");
                for (i, (f, t)) in fs.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.s(&f.name);
                    self.s(": ");
                    self.ty(t);
                }
                self.s("}");
            }
            TypeExpKind::Array(s, elem) if !in_arg => {
                self.s("[");
                if let Some(s) = s {
                    self.expr(s, 0, true);
                }
                self.s("]");
                self.ty_term(elem);
            }
            _ => self.ty_paren(t),
        }
    }

    fn ty_paren(&mut self, t: &TypeExp) {
        self.s("(");
        self.ty(t);
        self.s(")");
    }

    // ---- patterns ----

    /// Prints a pattern; `atomic` is set in parameter and payload positions, where
    /// ascriptions, constructor applications and negative literals need parentheses.
    fn pat(&mut self, p: &Pat, atomic: bool) {
        let needs_parens = atomic
            && match &p.kind {
                PatKind::Ascribed(..) | PatKind::Attr(..) => true,
                PatKind::Constructor(_, ps) => !ps.is_empty(),
                PatKind::Literal(l) => literal_is_negative(l),
                _ => false,
            };
        if needs_parens {
            self.s("(");
            self.pat(p, false);
            self.s(")");
            return;
        }
        match &p.kind {
            PatKind::Id(i) => self.binding_name(i),
            PatKind::Wildcard => self.s("_"),
            PatKind::Tuple(ps) => {
                self.s("(");
                for (i, p) in ps.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    self.pat(p, false);
                }
                self.s(")");
            }
            PatKind::Record(fs) => {
                self.s("{");
                for (i, (f, p)) in fs.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    match &p.kind {
                        PatKind::Id(x) if x.name == f.name => self.s(&f.name),
                        PatKind::Ascribed(inner, t) if matches!(&inner.kind, PatKind::Id(x) if x.name == f.name) =>
                        {
                            self.s(&f.name);
                            self.s(": ");
                            self.ty(t);
                        }
                        _ => {
                            self.s(&f.name);
                            self.s(" = ");
                            self.pat(p, false);
                        }
                    }
                }
                self.s("}");
            }
            PatKind::Ascribed(p, t) => {
                self.pat(p, true);
                self.s(": ");
                self.ty(t);
            }
            PatKind::Literal(l) => self.literal(l),
            PatKind::Constructor(c, ps) => {
                self.s("#");
                self.s(&c.name);
                for p in ps {
                    self.s(" ");
                    self.pat(p, true);
                }
            }
            PatKind::Attr(a, p) => {
                self.s("#[");
                self.attr(a);
                self.s("] ");
                self.pat(p, false);
            }
        }
    }

    fn params(&mut self, ps: &[Pat]) {
        for p in ps {
            self.s(" ");
            self.pat(p, true);
        }
    }

    // ---- expressions ----

    /// An update path or the part of a path section after its `.`: the first field
    /// bare, later fields after a `.`, indices in brackets written against what
    /// precedes them.
    fn path(&mut self, path: &[PathStep]) {
        for (i, step) in path.iter().enumerate() {
            match step {
                PathStep::Field(f) => {
                    if i > 0 {
                        self.s(".");
                    }
                    self.s(&f.name);
                }
                PathStep::Index(is, _) => {
                    self.s("[");
                    self.dims(is);
                    self.s("]");
                }
            }
        }
    }

    fn dims(&mut self, is: &[DimIndex]) {
        for (i, d) in is.iter().enumerate() {
            if i > 0 {
                self.s(", ");
            }
            match d {
                DimIndex::Fix(e) => self.expr(e, P_RANGE, true),
                DimIndex::Slice { start, end, stride } => {
                    if let Some(e) = start {
                        self.expr(e, P_RANGE, true);
                    }
                    self.s(":");
                    if let Some(e) = end {
                        self.expr(e, P_RANGE, true);
                    }
                    if let Some(e) = stride {
                        self.s(":");
                        self.expr(e, P_RANGE, true);
                    }
                }
            }
        }
    }

    fn comma_exprs(&mut self, es: &[Expr]) {
        for (i, e) in es.iter().enumerate() {
            if i > 0 {
                self.s(", ");
            }
            self.expr(e, 0, true);
        }
    }

    /// Prints `e` at precedence at least `min`; `tail` as described in the module docs.
    fn expr(&mut self, e: &Expr, min: u8, tail: bool) {
        let p = prec(e);
        // `if`, `let`, `\`, ... extend to the right, so they need parentheses exactly
        // where something follows them.
        let wrap = if p == P_GREEDY { !tail } else { p < min };
        if wrap || (self.explicit && min > 0 && p < P_ATOM) {
            self.s("(");
            self.expr_inner(e, true);
            self.s(")");
        } else {
            self.expr_inner(e, tail);
        }
    }

    fn expr_inner(&mut self, e: &Expr, tail: bool) {
        match &e.kind {
            ExprKind::Literal(l) => self.literal(l),
            ExprKind::Var(q) => self.qual(q),
            ExprKind::Parens(x) => {
                self.s("(");
                self.expr(x, 0, true);
                self.s(")");
            }
            ExprKind::QualParens(q, x) => {
                self.qual(q);
                self.s(".(");
                self.expr(x, 0, true);
                self.s(")");
            }
            ExprKind::Tuple(es) => {
                self.s("(");
                self.comma_exprs(es);
                if es.len() == 1 {
                    self.s(",");
                }
                self.s(")");
            }
            ExprKind::Record(fs) => {
                self.s("{");
                for (i, f) in fs.iter().enumerate() {
                    if i > 0 {
                        self.s(", ");
                    }
                    match f {
                        RecordField::Explicit(n, v) => {
                            self.s(&n.name);
                            self.s(" = ");
                            self.expr(v, 0, true);
                        }
                        RecordField::Pun(n) => self.s(&n.name),
                    }
                }
                self.s("}");
            }
            ExprKind::ArrayLit(es) => {
                self.s("[");
                self.comma_exprs(es);
                self.s("]");
            }
            ExprKind::Range {
                start,
                second,
                end_kind,
                end,
            } => {
                let lim = P_BIN + LEVEL_BACKTICK as u8;
                self.expr(start, lim, ends_in_ascription(start));
                if let Some(s) = second {
                    self.s("..");
                    self.expr(s, lim, false);
                }
                self.s(match end_kind {
                    RangeEnd::Inclusive => "...",
                    RangeEnd::UpToExclusive => "..<",
                    RangeEnd::DownToExclusive => "..>",
                });
                self.expr(end, lim, tail);
            }
            ExprKind::Project(x, f) => {
                self.expr(x, P_ATOM, false);
                // `x.f` would lex as a qualified name and `1.2` as a float.
                if matches!(x.kind, ExprKind::Var(_) | ExprKind::Literal(_)) {
                    self.s(" ");
                }
                self.s(".");
                self.s(&f.name);
            }
            ExprKind::BinOp(op, l, r) => {
                let lvl = P_BIN + bin_level(op) as u8;
                let right_assoc = is_op_name(&op.name.name) && lvl == P_BIN + 4;
                let (lmin, rmin) = if right_assoc {
                    (lvl + 1, lvl)
                } else {
                    (lvl, lvl + 1)
                };
                // A greedy form whose last part is an ascription (`match … case p -> e : t`)
                // cannot be extended by an operator other than `|` (which continues a
                // sum type), so the parser lets it be a left operand without parentheses.
                let closed = &*op.name.name != "|" && ends_in_ascription(l);
                self.expr(l, lmin, closed);
                self.s(" ");
                self.binop_name(op);
                self.s(" ");
                self.expr(r, rmin, tail);
            }
            ExprKind::Neg(x) | ExprKind::Not(x) => {
                let sym = if matches!(e.kind, ExprKind::Neg(_)) {
                    "-"
                } else {
                    "!"
                };
                self.s(sym);
                let mut sub = Printer {
                    out: String::new(),
                    indent: self.indent,
                    explicit: self.explicit,
                };
                sub.expr(x, P_PREFIX, tail);
                if sub
                    .out
                    .bytes()
                    .next()
                    .is_some_and(|b| is_op_start(b) || b == b'.')
                {
                    self.s(" ");
                }
                self.s(&sub.out);
            }
            ExprKind::OpSection(op) => {
                self.s("(");
                self.binop_name(op);
                self.s(")");
            }
            ExprKind::OpSectionLeft(op, x) => {
                self.s("(");
                // `op )` cannot extend the operand, so `if`/`\` need no parentheses.
                self.expr(x, P_ASCRIBE, true);
                self.s(" ");
                self.binop_name(op);
                self.s(")");
            }
            ExprKind::OpSectionRight(op, x) => {
                self.s("(");
                self.binop_name(op);
                self.s(" ");
                self.expr(x, P_RANGE, true);
                self.s(")");
            }
            ExprKind::ProjectSection(fs) => {
                self.s("(");
                for f in fs {
                    self.s(".");
                    self.s(&f.name);
                }
                self.s(")");
            }
            ExprKind::IndexSection(is) => {
                self.s("(.[");
                self.dims(is);
                self.s("])");
            }
            ExprKind::PathSection(path) => {
                self.s("(.");
                self.path(path);
                self.s(")");
            }
            ExprKind::Apply(f, args) => {
                self.expr(f, P_APP, false);
                for (i, a) in args.iter().enumerate() {
                    self.s(" ");
                    // A lambda written as the last argument without parentheses
                    // stays so where nothing follows the application.
                    let last_lambda =
                        i + 1 == args.len() && matches!(a.kind, ExprKind::Lambda { .. });
                    self.expr(a, P_ATOM, last_lambda && tail);
                }
            }
            ExprKind::Constructor(c, args) => {
                self.s("#");
                self.s(&c.name);
                for a in args {
                    self.s(" ");
                    self.expr(a, P_ATOM, false);
                }
            }
            ExprKind::Assert(c, x) => {
                self.s("assert ");
                self.expr(c, P_ATOM, false);
                self.s(" ");
                self.expr(x, P_ATOM, false);
            }
            ExprKind::If(c, t, f) => {
                self.s("if ");
                self.expr(c, 0, true);
                self.indent += 1;
                self.nl();
                self.s("then ");
                self.expr(t, 0, true);
                self.nl();
                self.s("else ");
                self.expr(f, 0, tail);
                self.indent -= 1;
            }
            ExprKind::Let {
                sizes,
                pat,
                value,
                body,
            } => {
                self.s("let");
                for s in sizes {
                    self.s(" [");
                    self.s(&s.name);
                    self.s("]");
                }
                self.s(" ");
                self.pat(pat, false);
                self.s(" = ");
                self.let_value(value);
                self.let_body(body, tail);
            }
            ExprKind::LetFun {
                name,
                type_params,
                params,
                ret,
                value,
                body,
            } => {
                self.s("let ");
                self.s(&name.name);
                self.type_params(type_params);
                self.params(params);
                if let Some(t) = ret {
                    self.s(" : ");
                    self.ty(t);
                }
                self.s(" = ");
                self.let_value(value);
                self.let_body(body, tail);
            }
            ExprKind::LetWith {
                dest,
                indices,
                value,
                body,
            } => {
                self.s("let ");
                self.s(&dest.name);
                self.s("[");
                self.dims(indices);
                self.s("] = ");
                self.let_value(value);
                self.let_body(body, tail);
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => {
                let lvl = P_BIN + LEVEL_WITH as u8;
                self.expr(target, lvl, ends_in_ascription(target));
                self.s(" with [");
                self.dims(indices);
                self.s("] = ");
                self.expr(value, lvl + 1, tail);
            }
            ExprKind::UpdatePath {
                target,
                path,
                value,
            } => {
                let lvl = P_BIN + LEVEL_WITH as u8;
                self.expr(target, lvl, ends_in_ascription(target));
                self.s(" with ");
                self.path(path);
                self.s(" = ");
                self.expr(value, lvl + 1, tail);
            }
            ExprKind::RecordUpdate {
                target,
                fields,
                value,
            } => {
                let lvl = P_BIN + LEVEL_WITH as u8;
                self.expr(target, lvl, ends_in_ascription(target));
                self.s(" with ");
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        self.s(".");
                    }
                    self.s(&f.name);
                }
                self.s(" = ");
                self.expr(value, lvl + 1, tail);
            }
            ExprKind::Lambda { params, ret, body } => {
                self.s("\\");
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        self.s(" ");
                    }
                    self.pat(p, true);
                }
                if let Some(t) = ret {
                    self.s(" : ");
                    self.ty_term(t);
                }
                self.s(" -> ");
                self.expr(body, 0, tail);
            }
            ExprKind::Loop {
                pat,
                init,
                form,
                body,
            } => {
                self.s("loop ");
                self.pat(pat, false);
                if let Some(i) = init {
                    self.s(" = ");
                    self.expr(i, 0, true);
                }
                match form {
                    LoopForm::For(i, n) => {
                        self.s(" for ");
                        self.s(&i.name);
                        self.s(" < ");
                        self.expr(n, 0, true);
                    }
                    LoopForm::ForIn(p, xs) => {
                        self.s(" for ");
                        self.pat(p, false);
                        self.s(" in ");
                        self.expr(xs, 0, true);
                    }
                    LoopForm::While(c) => {
                        self.s(" while ");
                        self.expr(c, 0, true);
                    }
                }
                self.s(" do");
                self.indent += 1;
                self.nl();
                self.expr(body, 0, tail);
                self.indent -= 1;
            }
            ExprKind::Match(s, cases) => {
                self.s("match ");
                self.expr(s, 0, true);
                self.indent += 1;
                let n = cases.len();
                for (i, c) in cases.iter().enumerate() {
                    self.nl();
                    self.s("case ");
                    // `case x: t -> e` would read `t -> e` as a function type.
                    let asc = matches!(c.pat.kind, PatKind::Ascribed(..));
                    self.pat(&c.pat, asc);
                    self.s(" -> ");
                    let last = i + 1 == n;
                    // A `match` in a non-final case would swallow the following cases.
                    if !last && matches!(c.body.kind, ExprKind::Match(..)) {
                        self.s("(");
                        self.expr(&c.body, 0, true);
                        self.s(")");
                    } else {
                        self.expr(&c.body, 0, tail || !last);
                    }
                }
                self.indent -= 1;
            }
            ExprKind::Ascribe(x, t) | ExprKind::Coerce(x, t) => {
                self.expr(x, P_ASCRIBE, false);
                self.s(if matches!(e.kind, ExprKind::Ascribe(..)) {
                    " : "
                } else {
                    " :> "
                });
                self.ty(t);
            }
            ExprKind::Index(x, is) => {
                self.expr(x, P_ATOM, false);
                self.s("[");
                self.dims(is);
                self.s("]");
            }
            ExprKind::Attr(a, x) => {
                self.s("#[");
                self.attr(a);
                self.s("] ");
                self.expr(x, 0, tail);
            }
            ExprKind::Hole => self.s("???"),
        }
    }

    fn let_value(&mut self, v: &Expr) {
        self.expr(v, 0, true);
    }

    fn let_body(&mut self, body: &Expr, tail: bool) {
        self.nl();
        // `in` is optional before another `let`.
        if !matches!(
            body.kind,
            ExprKind::Let { .. } | ExprKind::LetFun { .. } | ExprKind::LetWith { .. }
        ) {
            self.s("in ");
        }
        self.expr(body, 0, tail);
    }

    // ---- module language ----

    fn sig(&mut self, s: &SigExp) {
        match &s.kind {
            SigExpKind::Arrow(None, a, b) => {
                self.sig_with(a);
                self.s(" -> ");
                self.sig(b);
            }
            SigExpKind::Arrow(Some(n), a, b) => {
                self.s("(");
                self.s(&n.name);
                self.s(": ");
                self.sig(a);
                self.s(") -> ");
                self.sig(b);
            }
            _ => self.sig_with(s),
        }
    }

    fn sig_with(&mut self, s: &SigExp) {
        match &s.kind {
            SigExpKind::With(base, q, ps, t) => {
                self.sig_with(base);
                self.s(" with ");
                self.qual(q);
                self.type_params(ps);
                self.s(" = ");
                self.ty_term(t);
            }
            _ => self.sig_atom(s),
        }
    }

    fn sig_atom(&mut self, s: &SigExp) {
        match &s.kind {
            SigExpKind::Var(q) => self.qual(q),
            SigExpKind::Parens(inner) => {
                self.s("(");
                self.sig(inner);
                self.s(")");
            }
            SigExpKind::Specs(specs) => {
                self.s("{");
                self.indent += 1;
                for sp in specs {
                    self.nl();
                    self.spec(sp);
                }
                self.indent -= 1;
                self.nl();
                self.s("}");
            }
            _ => {
                self.s("(");
                self.sig(s);
                self.s(")");
            }
        }
    }

    fn spec(&mut self, sp: &Spec) {
        if let Some(d) = &sp.doc {
            self.doc(d);
            self.nl();
        }
        match &sp.kind {
            SpecKind::Val {
                name,
                type_params,
                ty,
            } => {
                self.s("val ");
                self.binding_name(name);
                self.type_params(type_params);
                self.s(" : ");
                self.ty(ty);
            }
            SpecKind::Type {
                name,
                liftedness,
                params,
                def,
            } => {
                self.s("type");
                self.liftedness(*liftedness);
                self.s(" ");
                self.s(&name.name);
                self.type_params(params);
                if let Some(t) = def {
                    self.s(" = ");
                    self.ty(t);
                }
            }
            SpecKind::Mod { name, sig } => {
                self.s("module ");
                self.s(&name.name);
                self.s(" : ");
                self.sig(sig);
            }
            SpecKind::Include(s) => {
                self.s("include ");
                self.sig(s);
            }
        }
    }

    fn liftedness(&mut self, l: Liftedness) {
        self.s(match l {
            Liftedness::Unlifted => "",
            Liftedness::SizeLifted => "~",
            Liftedness::Lifted => "^",
        });
    }

    fn mod_param(&mut self, p: &ModParam) {
        self.s("(");
        self.s(&p.name.name);
        self.s(": ");
        self.sig(&p.sig);
        self.s(")");
    }

    fn mod_exp(&mut self, m: &ModExp) {
        match &m.kind {
            ModExpKind::Ascribe(inner, s) => {
                self.mod_exp(inner);
                self.s(" : ");
                self.sig(s);
            }
            ModExpKind::Lambda(p, s, body) => {
                self.s("\\");
                self.mod_param(p);
                if let Some(s) = s {
                    self.s(" : ");
                    self.sig_atom(s);
                }
                self.s(" -> ");
                self.mod_exp(body);
            }
            ModExpKind::Import(path) => {
                self.s("import ");
                self.literal(&Literal::String(path.as_bytes().to_vec()));
            }
            ModExpKind::Apply(f, a) => {
                self.mod_apply(f);
                self.s(" ");
                self.mod_atom(a);
            }
            _ => self.mod_atom(m),
        }
    }

    fn mod_apply(&mut self, m: &ModExp) {
        match &m.kind {
            ModExpKind::Apply(f, a) => {
                self.mod_apply(f);
                self.s(" ");
                self.mod_atom(a);
            }
            _ => self.mod_atom(m),
        }
    }

    fn mod_atom(&mut self, m: &ModExp) {
        match &m.kind {
            ModExpKind::Var(q) => self.qual(q),
            ModExpKind::Parens(inner) => {
                self.s("(");
                self.mod_exp(inner);
                self.s(")");
            }
            ModExpKind::Struct(decs) => {
                self.s("{");
                self.indent += 1;
                for d in decs {
                    self.nl();
                    self.dec(d);
                }
                self.indent -= 1;
                self.nl();
                self.s("}");
            }
            _ => {
                self.s("(");
                self.mod_exp(m);
                self.s(")");
            }
        }
    }

    fn dec(&mut self, d: &Dec) {
        match &d.kind {
            DecKind::Val(v) => {
                if let Some(doc) = &v.doc {
                    self.doc(doc);
                    self.nl();
                }
                for a in &v.attrs {
                    self.s("#[");
                    self.attr(a);
                    self.s("]");
                    self.nl();
                }
                self.s(if v.entry { "entry " } else { "def " });
                self.binding_name(&v.name);
                self.type_params(&v.type_params);
                self.params(&v.params);
                if let Some(t) = &v.ret {
                    self.s(" : ");
                    self.ty(t);
                }
                self.s(" =");
                self.indent += 1;
                self.nl();
                self.expr(&v.body, 0, true);
                self.indent -= 1;
            }
            DecKind::Type(t) => {
                if let Some(doc) = &t.doc {
                    self.doc(doc);
                    self.nl();
                }
                self.s("type");
                self.liftedness(t.liftedness);
                self.s(" ");
                self.s(&t.name.name);
                self.type_params(&t.params);
                self.s(" = ");
                self.ty(&t.def);
            }
            DecKind::Mod(m) => {
                if let Some(doc) = &m.doc {
                    self.doc(doc);
                    self.nl();
                }
                self.s("module ");
                self.s(&m.name.name);
                for p in &m.params {
                    self.s(" ");
                    self.mod_param(p);
                }
                if let Some(s) = &m.sig {
                    self.s(" : ");
                    self.sig(s);
                }
                self.s(" = ");
                self.mod_exp(&m.body);
            }
            DecKind::Sig(s) => {
                if let Some(doc) = &s.doc {
                    self.doc(doc);
                    self.nl();
                }
                self.s("module type ");
                self.s(&s.name.name);
                self.s(" = ");
                self.sig(&s.sig);
            }
            DecKind::Open(m) => {
                self.s("open ");
                self.mod_exp(m);
            }
            DecKind::Local(d) => {
                self.s("local ");
                self.dec(d);
            }
            DecKind::Import(path, _) => {
                self.s("import ");
                self.literal(&Literal::String(path.as_bytes().to_vec()));
            }
        }
    }
}

/// Does the rightmost part of this greedy form end in `: t` / `:> t`?
fn ends_in_ascription(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ascribe(..) | ExprKind::Coerce(..) => true,
        ExprKind::If(_, _, x)
        | ExprKind::Let { body: x, .. }
        | ExprKind::LetFun { body: x, .. }
        | ExprKind::LetWith { body: x, .. }
        | ExprKind::Lambda { body: x, .. }
        | ExprKind::Loop { body: x, .. }
        | ExprKind::Attr(_, x) => ends_in_ascription(x),
        ExprKind::Match(_, cases) => cases.last().is_some_and(|c| ends_in_ascription(&c.body)),
        _ => false,
    }
}

fn literal_is_negative(l: &Literal) -> bool {
    match l {
        Literal::Int { value, .. } => *value < 0,
        Literal::Float { value, .. } => value.is_sign_negative(),
        _ => false,
    }
}

fn escape_char(c: char, quote: char) -> String {
    match c {
        '\n' => "\\n".into(),
        '\t' => "\\t".into(),
        '\r' => "\\r".into(),
        '\\' => "\\\\".into(),
        '\0' => "\\0".into(),
        c if c == quote => format!("\\{c}"),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => format!("\\u{:04x}", c as u32),
        c => c.to_string(),
    }
}
