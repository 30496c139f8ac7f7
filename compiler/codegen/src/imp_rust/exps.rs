//! Scalar expressions of the imperative IR as Rust expressions, with the
//! semantics of `crate::scalar`.

use ir::PrimType;

use super::names::{span_lit, var};
pub use crate::imp::type_of;
use crate::imp::{Function, SExp};
use crate::scalar;

/// The Rust expression of `e`; operators that can fail report `span`.
pub fn exp(f: &Function, e: &SExp, span: ir::Span) -> Result<String, String> {
    Ok(match e {
        SExp::Var(v) => var(*v),
        SExp::Const(c) => scalar::literal(*c),
        SExp::UnOp(op, x) => scalar::unop(*op, type_of(f, x), &exp(f, x, span)?),
        SExp::BinOp(op, a, b) => scalar::binop(
            *op,
            type_of(f, a),
            &exp(f, a, span)?,
            &exp(f, b, span)?,
            &span_lit(span),
        )?,
        SExp::Cmp(op, a, b) => scalar::cmp(*op, &exp(f, a, span)?, &exp(f, b, span)?),
        SExp::Convert(k, t, x) => scalar::convert(*k, type_of(f, x), *t, &exp(f, x, span)?),
        SExp::Math(m, args) => {
            let t = args.first().map_or(PrimType::F64, |a| type_of(f, a));
            let a = args
                .iter()
                .map(|a| exp(f, a, span))
                .collect::<Result<Vec<_>, _>>()?;
            scalar::math(*m, t, &a)
        }
        SExp::Chunks { w, cost, most } => {
            format!("reduce_chunks({}, {cost}, {most})", exp(f, w, span)?)
        }
        SExp::Tuned { name, default } => format!("tuned_param({name:?}, {default}i64)"),
    })
}

/// Comma-separated Rust expressions of `es`.
pub fn exps(f: &Function, es: &[SExp], span: ir::Span) -> Result<String, String> {
    Ok(es
        .iter()
        .map(|e| exp(f, e, span))
        .collect::<Result<Vec<_>, _>>()?
        .join(", "))
}
