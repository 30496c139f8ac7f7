//! A compact rendering of expressions, used in messages when the source text is not
//! available (failed assertions, size expressions).

use syntax::ast::{DimIndex, Expr, ExprKind, Literal, QualName};

fn qual(q: &QualName) -> String {
    let mut s = String::new();
    for p in &q.quals {
        s.push_str(&p.name);
        s.push('.');
    }
    s.push_str(&q.name.name);
    s
}

fn lit(l: &Literal) -> String {
    match l {
        Literal::Int { value, .. } => value.to_string(),
        Literal::Float { value, .. } => value.to_string(),
        Literal::Bool(b) => b.to_string(),
        Literal::Char { value, .. } => match char::from_u32(*value) {
            Some(c) => format!("'{c}'"),
            None => value.to_string(),
        },
        Literal::String(b) => format!("{:?}", String::from_utf8_lossy(b)),
    }
}

fn list(es: &[Expr]) -> String {
    es.iter().map(expr).collect::<Vec<_>>().join(", ")
}

fn dim(d: &DimIndex) -> String {
    match d {
        DimIndex::Fix(e) => expr(e),
        DimIndex::Slice { start, end, stride } => {
            let o = |e: &Option<Expr>| e.as_ref().map(expr).unwrap_or_default();
            match stride {
                Some(s) => format!("{}:{}:{}", o(start), o(end), expr(s)),
                None => format!("{}:{}", o(start), o(end)),
            }
        }
    }
}

/// Renders an expression approximately as source.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Literal(l) => lit(l),
        ExprKind::Var(q) => qual(q),
        ExprKind::Parens(x) => format!("({})", expr(x)),
        ExprKind::Tuple(es) => format!("({})", list(es)),
        ExprKind::ArrayLit(es) => format!("[{}]", list(es)),
        ExprKind::BinOp(op, l, r) => format!("{} {} {}", expr(l), qual(op), expr(r)),
        ExprKind::Neg(x) => format!("-{}", expr(x)),
        ExprKind::Not(x) => format!("!{}", expr(x)),
        ExprKind::Apply(f, args) => {
            let mut s = expr(f);
            for a in args {
                s.push(' ');
                s.push_str(&expr(a));
            }
            s
        }
        ExprKind::Index(x, idx) => format!(
            "{}[{}]",
            expr(x),
            idx.iter().map(dim).collect::<Vec<_>>().join(", ")
        ),
        ExprKind::Project(x, f) => format!("{}.{}", expr(x), f.name),
        _ => "<expression>".to_string(),
    }
}
