//! Constant sizes that entry points declare for their array parameters.
//!
//! An entry point's array parameter arrives as its dimensions (`i64`
//! values) and the array. Where the parameter's declared type writes a
//! dimension as an integer literal (`cams: [n][11]f64`), the entry
//! function checks the argument's dimension against it (an IR assertion
//! naming the parameter: the reference interpreter rejects such an
//! argument too) and the body sees the constant as that dimension. The sizes of the rows the program reads are then known where it
//! uses them, as if written in the program: bounds checks against them
//! fold, and small copies of such rows are element moves.

use ir::{CmpOp, Exp, Operand, Size};
use syntax::ast::{self, ExprKind, PatKind, TypeExpKind};

use crate::cx::Cx;
use crate::env::Env;
use crate::error::{IResult, ir_span};

impl Cx {
    /// For each of the `rank` outer dimensions of the array that parameter
    /// pattern `pat` declares, its size when the type writes it as an
    /// integer literal.
    pub(crate) fn literal_dims(&self, pat: &ast::Pat, env: &Env, rank: usize) -> Vec<Option<i64>> {
        let te = match &pat.kind {
            PatKind::Ascribed(_, te) => self.expand_abbrevs(te, env),
            PatKind::Attr(_, p) => return self.literal_dims(p, env, rank),
            _ => return Vec::new(),
        };
        let mut out = Vec::new();
        let mut t = &te;
        while out.len() < rank {
            match &t.kind {
                TypeExpKind::Array(s, elem) => {
                    out.push(s.as_deref().and_then(int_literal));
                    t = elem;
                }
                TypeExpKind::Unique(inner) => t = inner,
                _ => break,
            }
        }
        out
    }

    /// The dimensions `dims` of an entry parameter with each dimension
    /// that `declared` gives as a constant checked against it and replaced
    /// by it. `what` names the parameter in the assertion's message.
    ///
    /// The array keeps its type, of variable dimensions: a reshape to the
    /// constants would make a copy of a strided argument in the backends.
    /// The constants reach the functions it is passed to as their size
    /// arguments, and every statement that uses them comes after the
    /// assertion.
    pub(crate) fn entry_constant_dims(
        &mut self,
        dims: Vec<Size>,
        declared: &[Option<i64>],
        what: &str,
        span: syntax::Span,
    ) -> IResult<Vec<Size>> {
        let mut new = dims.clone();
        let saved = std::mem::replace(&mut self.fb.span, ir_span(span));
        for (k, c) in declared.iter().enumerate() {
            let (Some(c), Some(Size::Var(d))) = (c, dims.get(k)) else {
                continue;
            };
            let cond = self.fb.scalar(
                "size_ok",
                Exp::Cmp(CmpOp::Eq, Operand::Var(*d), Operand::i64(*c)),
            );
            let cond = match cond {
                Ok(c) => c,
                Err(e) => {
                    self.fb.span = saved;
                    return Err(e);
                }
            };
            self.fb.push(
                Vec::new(),
                Exp::Assert {
                    cond,
                    msg: format!(
                        "Size mismatch: dimension {} of {what} is {{}}, but its type gives {c}.",
                        k + 1
                    ),
                    args: vec![Operand::Var(*d)],
                },
            );
            new[k] = Size::Const(*c);
        }
        self.fb.span = saved;
        Ok(new)
    }
}

/// The value of a size written as an integer literal (in parentheses or
/// not).
fn int_literal(e: &ast::Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Literal(ast::Literal::Int { value, .. }) => i64::try_from(*value).ok(),
        ExprKind::Parens(x) => int_literal(x),
        _ => None,
    }
}
