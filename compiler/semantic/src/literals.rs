//! Range checks of unsuffixed numeric literals once their types are inferred.
//!
//! The lexer checks a literal that carries a suffix (`300u8`, error P002); an
//! unsuffixed literal gets its type from inference (`def x : i8 = 128`), so its
//! range is checked here, after type checking, against the inferred type (error
//! T013). A literal directly under a negation is checked as the negative number
//! (`-128 : i8` is fine, `-129 : i8` and `-4 : u32` are not). A decimal literal,
//! or an integer literal of a float type, must not round to an infinity.

use std::collections::HashMap;
use syntax::Diagnostic;
use syntax::ast::{Expr, ExprKind, File, Literal, NodeId, PrimType};
use syntax::visit::{self, VisitorMut};

/// The diagnostics for the unsuffixed literals of `file` whose inferred type
/// (`types`, by node id) cannot represent them.
pub fn check_ranges(file: &mut File, types: &HashMap<NodeId, PrimType>) -> Vec<Diagnostic> {
    let mut c = RangeCheck {
        types,
        diags: Vec::new(),
    };
    visit::walk_file(&mut c, file);
    c.diags
}

struct RangeCheck<'a> {
    types: &'a HashMap<NodeId, PrimType>,
    diags: Vec<Diagnostic>,
}

/// The unsuffixed literal `e` is, looking through parentheses.
fn unsuffixed(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Parens(x) => unsuffixed(x),
        ExprKind::Literal(Literal::Int { ty: None, .. } | Literal::Float { ty: None, .. }) => {
            Some(e)
        }
        _ => None,
    }
}

/// Whether the literal, negated when `negated`, is a value of type `t`.
fn fits(lit: &Literal, t: PrimType, negated: bool) -> bool {
    let int_fits = |v: i128| {
        let bits = match t {
            PrimType::I8 | PrimType::U8 => 8,
            PrimType::I16 | PrimType::U16 => 16,
            PrimType::I32 | PrimType::U32 => 32,
            PrimType::I64 | PrimType::U64 => 64,
            _ => return true,
        };
        if t.is_unsigned() {
            (0..1i128 << bits).contains(&v)
        } else {
            (-(1i128 << (bits - 1))..1i128 << (bits - 1)).contains(&v)
        }
    };
    let float_fits = |v: f64| match t {
        // The largest f16 is 65504; from 65520 on, values round to infinity.
        PrimType::F16 => v.abs() < 65520.0,
        PrimType::F32 => (v as f32).is_finite(),
        PrimType::F64 => v.is_finite(),
        _ => true,
    };
    match *lit {
        Literal::Int { value, .. } => {
            let v = if negated { -value } else { value };
            if t.is_float() {
                float_fits(v as f64)
            } else {
                int_fits(v)
            }
        }
        Literal::Float { value, .. } => float_fits(value),
        _ => true,
    }
}

impl RangeCheck<'_> {
    fn check(&mut self, e: &Expr, negated: bool, span: syntax::ast::Span) {
        let ExprKind::Literal(lit) = &e.kind else {
            return;
        };
        let Some(&t) = self.types.get(&e.id) else {
            return;
        };
        if fits(lit, t, negated) {
            return;
        }
        let text = match *lit {
            Literal::Int { value, .. } => value.to_string(),
            Literal::Float { value, .. } => format!("{value:?}"),
            _ => return,
        };
        let sign = if negated { "-" } else { "" };
        self.diags.push(
            Diagnostic::error(
                "T013",
                format!("Literal {sign}{text} out of bounds for type {t}"),
                span,
                format!("this literal has type `{t}`"),
            )
            .with_hint(format!(
                "the type `{t}` was inferred from the context; a literal must be a value of it"
            )),
        );
    }
}

impl VisitorMut for RangeCheck<'_> {
    fn visit_expr(&mut self, e: &mut Expr) {
        if let ExprKind::Neg(x) = &e.kind
            && let Some(lit) = unsuffixed(x)
        {
            self.check(lit, true, e.span);
            return;
        }
        if matches!(e.kind, ExprKind::Literal(_)) {
            self.check(e, false, e.span);
            return;
        }
        visit::walk_expr(self, e);
    }
}
