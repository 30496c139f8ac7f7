//! Turning diagnostics and run-time errors into text for the terminal.
//!
//! Colour follows `--color=auto|always|never`: `auto` colours only when the output
//! is a terminal and the `NO_COLOR` environment variable is unset or empty.

use interp::RuntimeError;
use syntax::Diagnostic;
use syntax::diag::{SourceMap, location};

/// When to colour output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour, given whether the output is a terminal.
    pub fn enabled(self, is_terminal: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            }
        }
    }
}

/// Renders diagnostics with source excerpts.
pub fn diagnostics(diags: &[Diagnostic], sources: &dyn SourceMap, color: bool) -> String {
    syntax::diag::render(diags, sources, color)
}

/// Counts errors and warnings.
pub fn count(diags: &[Diagnostic]) -> (usize, usize) {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    (errors, diags.len() - errors)
}

/// `N errors, M warnings` for the end of a report, or `None` when there are none.
pub fn summary(diags: &[Diagnostic]) -> Option<String> {
    let (e, w) = count(diags);
    let plural = |n: usize, s: &str| format!("{n} {s}{}", if n == 1 { "" } else { "s" });
    match (e, w) {
        (0, 0) => None,
        (0, w) => Some(plural(w, "warning")),
        (e, 0) => Some(plural(e, "error")),
        (e, w) => Some(format!("{}, {}", plural(e, "error"), plural(w, "warning"))),
    }
}

/// A run-time error as the user sees it: `Error: <message>`, the location of the
/// failing expression, and the calls that led there.
pub fn runtime_error(err: &RuntimeError, sources: &dyn SourceMap) -> String {
    let mut out = format!("Error: {}\n", err.message.trim_end());
    if let Some(span) = err.span {
        out.push_str(&format!("  at {}\n", location(sources, span)));
    }
    if !err.backtrace.is_empty() {
        out.push_str("Backtrace:\n");
        for (i, span) in err.backtrace.iter().enumerate() {
            out.push_str(&format!("  #{i} {}\n", location(sources, *span)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntax::{FileId, Span};

    #[test]
    fn colour_choice() {
        assert!(ColorChoice::Always.enabled(false));
        assert!(!ColorChoice::Never.enabled(true));
        assert!(!ColorChoice::Auto.enabled(false));
    }

    #[test]
    fn runtime_error_names_location_and_backtrace() {
        let sources = vec![(
            "p.fut".to_string(),
            "def f (x: i32) =\n  x / 0\n".to_string(),
        )];
        let err = RuntimeError {
            message: "Division by zero".into(),
            span: Some(Span::new(FileId(0), 19, 24)),
            backtrace: vec![Span::new(FileId(0), 0, 3)],
        };
        assert_eq!(
            runtime_error(&err, &sources),
            "Error: Division by zero\n  at p.fut:2:3-2:8\nBacktrace:\n  #0 p.fut:1:1-1:4\n"
        );
    }

    #[test]
    fn summaries() {
        let e = Diagnostic::error("T001", "x", Span::default(), "y");
        let mut w = e.clone();
        w.severity = syntax::Severity::Warning;
        assert_eq!(summary(&[]), None);
        assert_eq!(
            summary(std::slice::from_ref(&e)).as_deref(),
            Some("1 error")
        );
        assert_eq!(
            summary(&[e.clone(), e, w]).as_deref(),
            Some("2 errors, 1 warning")
        );
    }
}
