//! Diagnostics: the one model of a compile-time message, and its rendering.
//!
//! Every stage that reports problems in user code (parser, resolver, type checker)
//! returns [`Diagnostic`] values; nothing prints directly. The driver renders them with
//! [`render`], which uses ariadne. Codes are listed in `docs/diagnostics.md`.

use crate::span::{FileId, LineIndex, Span};
use std::fmt::Write as _;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The program is rejected.
    Error,
    /// The program is accepted, but something looks wrong.
    Warning,
}

/// A span with a message attached.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A compile-time diagnostic.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A short code from `docs/diagnostics.md`, e.g. `"T002"`.
    pub code: &'static str,
    /// One-line summary.
    pub message: String,
    /// The main location and what is wrong there.
    pub primary: Label,
    /// Related locations ("expected because of this annotation").
    pub secondary: Vec<Label>,
    /// Suggestions for a fix, and notes.
    pub hints: Vec<String>,
}

impl Diagnostic {
    /// An error with a code, a message and a primary label.
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            primary: Label {
                span,
                message: label.into(),
            },
            secondary: Vec::new(),
            hints: Vec::new(),
        }
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }

    /// Is this an error (as opposed to a warning)?
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Source files known to the renderer: a name and the text for each [`FileId`].
pub trait SourceMap {
    /// The display name (path) and text of a file, if known.
    fn source(&self, file: FileId) -> Option<(&str, &str)>;
}

impl SourceMap for [(String, String)] {
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        self.get(file.0 as usize)
            .map(|(n, s)| (n.as_str(), s.as_str()))
    }
}

impl SourceMap for Vec<(String, String)> {
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        self.as_slice().source(file)
    }
}

/// `name:line:col` for the start of a span, used in run-time error messages and in
/// plain renderings.
pub fn location(sources: &dyn SourceMap, span: Span) -> String {
    match sources.source(span.file) {
        Some((name, text)) => {
            let idx = LineIndex::new(text);
            let (l1, c1) = idx.line_col(span.start.min(text.len() as u32));
            let (l2, c2) = idx.line_col(span.end.min(text.len() as u32));
            format!("{name}:{l1}:{c1}-{l2}:{c2}")
        }
        None => format!("<file {}>:{}", span.file.0, span.start),
    }
}

/// Renders diagnostics to a string with ariadne. `color` turns ANSI colours on.
pub fn render(diags: &[Diagnostic], sources: &dyn SourceMap, color: bool) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&render_one(d, sources, color));
    }
    out
}

fn render_one(d: &Diagnostic, sources: &dyn SourceMap, color: bool) -> String {
    use ariadne::{Config, Label as ALabel, Report, ReportKind, Source};

    let Some((name, text)) = sources.source(d.primary.span.file) else {
        return render_plain(d, sources);
    };
    // Secondary labels in other files are rendered as notes, since ariadne's
    // single-source cache is simpler and enough for our needs.
    let clamp = |s: Span| {
        let len = text.len();
        let a = (s.start as usize).min(len);
        let b = (s.end as usize).min(len).max(a);
        // ariadne counts characters, not bytes.
        let ca = text[..a].chars().count();
        let cb = ca + text[a..b].chars().count();
        ca..cb
    };
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let mut report = Report::build(kind, (name, clamp(d.primary.span)))
        .with_config(
            Config::default()
                .with_color(color)
                .with_index_type(ariadne::IndexType::Char),
        )
        .with_code(d.code)
        .with_message(&d.message)
        .with_label(ALabel::new((name, clamp(d.primary.span))).with_message(&d.primary.message));
    let mut notes = Vec::new();
    for l in &d.secondary {
        if l.span.file == d.primary.span.file {
            report = report.with_label(ALabel::new((name, clamp(l.span))).with_message(&l.message));
        } else {
            notes.push(format!("{}: {}", location(sources, l.span), l.message));
        }
    }
    for n in notes {
        report = report.with_note(n);
    }
    for h in &d.hints {
        report = report.with_help(h);
    }
    let mut buf = Vec::new();
    let cache = (name, Source::from(text));
    if report.finish().write(cache, &mut buf).is_err() {
        return render_plain(d, sources);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// A plain one-paragraph rendering without source excerpts.
pub fn render_plain(d: &Diagnostic, sources: &dyn SourceMap) -> String {
    let mut s = String::new();
    let kind = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let _ = writeln!(
        s,
        "{kind}[{}]: {}\n  at {}: {}",
        d.code,
        d.message,
        location(sources, d.primary.span),
        d.primary.message
    );
    for l in &d.secondary {
        let _ = writeln!(s, "  at {}: {}", location(sources, l.span), l.message);
    }
    for h in &d.hints {
        let _ = writeln!(s, "  help: {h}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_code_message_and_label_without_colour() {
        let sources = vec![("a.fut".to_string(), "def x = 1 + true\n".to_string())];
        let d = Diagnostic::error(
            "T002",
            "type mismatch",
            Span::new(FileId(0), 12, 16),
            "this is bool",
        )
        .with_hint("use an integer");
        let out = render(&[d], &sources, false);
        assert!(out.contains("[T002]"), "{out}");
        assert!(out.contains("type mismatch"), "{out}");
        assert!(out.contains("this is bool"), "{out}");
        assert!(out.contains("use an integer"), "{out}");
        assert!(!out.contains('\u{1b}'), "no colour codes: {out}");
    }

    #[test]
    fn location_is_line_and_column() {
        let sources = vec![("a.fut".to_string(), "ab\ncd".to_string())];
        assert_eq!(
            location(&sources, Span::new(FileId(0), 3, 5)),
            "a.fut:2:1-2:3"
        );
    }
}
