//! The surface syntax of the language: spans, the AST, diagnostics and the parser.
//!
//! Invariants:
//! - this crate knows nothing of types or of any later stage;
//! - parsing never fails: [`parse_file`] returns a tree and a list of diagnostics, and
//!   every syntax error in a file is reported, not only the first.
//!
//! Pipeline inside [`parse_file`]: [`lexer::lex`] (hand-written, whitespace-sensitive
//! decisions such as `a[i]` vs `a [i]`), then the chumsky parser in [`parser`] over the
//! token slice, then doc-comment attachment and NodeId numbering ([`visit::number_nodes`]).
//! Before and after the parser, [`depth`] bounds the nesting of the program.

pub mod ast;
pub mod depth;
pub mod diag;
mod errors;
mod imports;
pub mod lexer;
mod parser;
pub mod pretty;
pub mod span;
pub mod visit;

pub use diag::{Diagnostic, Label, Severity};
pub use imports::imports;
pub use parser::op_level;
pub use pretty::{pretty, pretty_explicit, pretty_expr, pretty_pat, pretty_type};
pub use span::{FileId, LineIndex, Span};

use chumsky::prelude::*;
use lexer::Token;

type Lexed = (Vec<(Token, Span)>, Vec<(u32, String)>, Vec<Diagnostic>);

fn lex_for_parse(file: FileId, src: &str) -> Lexed {
    let lexed = lexer::lex(file, src);
    // Stray characters were reported by the lexer; the parser does not see them.
    let mut tokens: Vec<(Token, Span)> = lexed
        .tokens
        .into_iter()
        .filter(|(t, _)| *t != Token::Error)
        .collect();
    lexer::mark_unclosed(&mut tokens);
    let mut diags = lexed.diags;
    // A program nested too deeply is not parsed: the parser would nest as
    // deeply, spending memory on every level.
    if let Some(d) = depth::check_tokens(&tokens) {
        diags.push(d);
        tokens.clear();
    }
    (tokens, lexed.docs, diags)
}

/// Parses one source file. Never fails: syntax errors are returned as diagnostics
/// alongside the best tree that could be recovered.
pub fn parse_file(file: FileId, src: &str) -> (ast::File, Vec<Diagnostic>) {
    let (tokens, docs, mut diags) = lex_for_parse(file, src);
    let eoi = Span::new(file, src.len() as u32, src.len() as u32);
    // A first pass with cheap errors; a file with syntax errors is parsed again with
    // rich errors for the diagnostics (about 2.5x faster on correct files).
    let fast = parser::file_parser::<extra::Default>()
        .parse(tokens.as_slice().split_token_span(eoi))
        .into_output_errors();
    let (decs, errs) = match fast {
        (Some(decs), errs) if errs.is_empty() => (Some(decs), Vec::new()),
        _ => parser::file_parser::<parser::RichE>()
            .parse(tokens.as_slice().split_token_span(eoi))
            .into_output_errors(),
    };
    diags.extend(errors::convert(&errs, &tokens, src, eoi));
    diags.sort_by_key(|d| d.primary.span.start);
    let mut f = ast::File {
        decs: decs.unwrap_or_default(),
        doc: None,
        ..Default::default()
    };
    diags.extend(depth::limit_tree(&mut f.decs));
    errors::attach_docs(&mut f, &docs);
    visit::number_nodes(&mut f);
    (f, diags)
}

/// Parses a single expression (for tests, tools and the REPL-like uses). NodeIds are
/// numbered from 0 in pre-order.
pub fn parse_expr(file: FileId, src: &str) -> (Option<ast::Expr>, Vec<Diagnostic>) {
    let (tokens, _, mut diags) = lex_for_parse(file, src);
    let eoi = Span::new(file, src.len() as u32, src.len() as u32);
    let input = tokens.as_slice().split_token_span(eoi);
    let (e, errs) = parser::expr_parser::<parser::RichE>()
        .parse(input)
        .into_output_errors();
    diags.extend(errors::convert(&errs, &tokens, src, eoi));
    let e = e.map(|mut e| {
        struct N(u32);
        impl visit::VisitorMut for N {
            fn visit_expr(&mut self, e: &mut ast::Expr) {
                e.id = ast::NodeId(self.0);
                self.0 += 1;
                visit::walk_expr(self, e);
            }
            fn visit_pat(&mut self, p: &mut ast::Pat) {
                p.id = ast::NodeId(self.0);
                self.0 += 1;
                visit::walk_pat(self, p);
            }
        }
        visit::VisitorMut::visit_expr(&mut N(0), &mut e);
        e
    });
    (e, diags)
}
