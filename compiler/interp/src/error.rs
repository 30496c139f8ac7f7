//! Construction of run-time errors.

use syntax::Span;

use crate::RuntimeError;

/// The result of an evaluation step.
pub type R<T> = Result<T, Box<RuntimeError>>;

/// A run-time error at `span` with an empty backtrace.
pub fn rt_err(message: impl Into<String>, span: Span) -> Box<RuntimeError> {
    Box::new(RuntimeError {
        message: message.into(),
        span: Some(span),
        backtrace: Vec::new(),
    })
}

/// Attaches `span` to an error message produced without location.
#[inline]
pub fn at<T>(r: Result<T, String>, span: Span) -> R<T> {
    r.map_err(|m| rt_err(m, span))
}
