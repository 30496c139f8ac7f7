//! The internaliser's error: a message and the source span it concerns.

use std::fmt;

/// Why a program could not be internalised.
#[derive(Clone, Debug, PartialEq)]
pub struct InternaliseError {
    /// What went wrong, e.g. `internalisation does not yet support sum types`.
    pub message: String,
    /// The source location, when one is known.
    pub span: Option<syntax::Span>,
}

impl InternaliseError {
    /// A construct the internaliser cannot translate yet.
    pub fn unsupported(what: impl fmt::Display, span: syntax::Span) -> InternaliseError {
        InternaliseError {
            message: format!("internalisation does not yet support {what}"),
            span: Some(span),
        }
    }

    /// A program the internaliser cannot make sense of (an inconsistency
    /// between the checker and the internaliser).
    pub fn internal(what: impl fmt::Display, span: ir::Span) -> InternaliseError {
        InternaliseError {
            message: format!("internalisation failed: {what}"),
            span: if span.is_none() {
                None
            } else {
                Some(syntax::Span::new(
                    syntax::FileId(span.file),
                    span.start,
                    span.end,
                ))
            },
        }
    }

    /// An error at a source span.
    pub fn at(what: impl fmt::Display, span: syntax::Span) -> InternaliseError {
        InternaliseError {
            message: format!("internalisation failed: {what}"),
            span: Some(span),
        }
    }
}

impl fmt::Display for InternaliseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InternaliseError {}

/// Results of the internaliser.
pub(crate) type IResult<T> = Result<T, InternaliseError>;

/// The IR span of a source span.
pub(crate) fn ir_span(s: syntax::Span) -> ir::Span {
    ir::Span::new(s.file.0, s.start, s.end)
}
