//! The nesting limit of programs.
//!
//! Every stage after the parser (checker, interpreter, internaliser, code
//! generators) recurses over the tree, so a program nested deeper than
//! [`MAX_NESTING`] levels is refused with P003 before any of them sees it:
//!
//! - before parsing, [`check_tokens`] looks for brackets nested deeper than
//!   the limit and for longer runs of prefix operators (`- - - x`), which the
//!   parser itself would nest (and spend memory on) level by level;
//! - after parsing, [`limit_tree`] measures the depth of expressions, patterns
//!   and types (a chain `1 + 1 + … + 1` of binary operators is a tree as deep
//!   as the chain is long) and replaces each subtree that starts below the
//!   limit by a hole, so that the tree the later stages see is bounded.
//!
//! Both run in time linear in their input. Pruned subtrees are taken apart
//! iteratively: even dropping a tree recurses over it otherwise.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lexer::Token;
use crate::span::Span;
use crate::visit::{self, VisitorMut};

/// The deepest nesting of expressions, patterns and types that a program
/// may have (counting each bracket, operator application, `let`, `if`,
/// lambda and so on as a level); documented in `docs/diagnostics.md`.
pub const MAX_NESTING: usize = 2000;

fn too_deep(span: Span, what: &str) -> Diagnostic {
    // The start of the construct: a long chain's span covers all of it.
    let span = Span::new(span.file, span.start, span.end.min(span.start + 1));
    Diagnostic::error(
        "P003",
        format!("nesting too deep: {what} more than {MAX_NESTING} levels deep"),
        span,
        "this is nested too deeply",
    )
    .with_hint(format!(
        "programs may nest at most {MAX_NESTING} levels; bind inner parts with `let`, \
         or sum long lists with `reduce` over an array"
    ))
}

/// Finds brackets nested more than [`MAX_NESTING`] deep and longer runs of
/// prefix operators; the diagnostic names the first.
pub fn check_tokens(tokens: &[(Token, Span)]) -> Option<Diagnostic> {
    let mut open = 0usize;
    let mut run = 0usize;
    let mut prev_operand = false;
    for (t, span) in tokens {
        match t {
            Token::LParen
            | Token::QualParen(_)
            | Token::LBracket
            | Token::IndexOpen
            | Token::HashBracket
            | Token::LBrace => {
                open += 1;
                if open > MAX_NESTING {
                    return Some(too_deep(*span, "brackets are"));
                }
            }
            Token::RParen | Token::RBracket | Token::RBrace => open = open.saturating_sub(1),
            _ => {}
        }
        // A `-` or `!` that does not follow an operand is a prefix operator.
        let prefix = matches!(t, Token::Op(o) if (&**o == "-" || &**o == "!")) && !prev_operand;
        run = if prefix { run + 1 } else { 0 };
        if run > MAX_NESTING {
            return Some(too_deep(*span, "prefix operators are"));
        }
        prev_operand = matches!(
            t,
            Token::RParen
                | Token::RBracket
                | Token::RBrace
                | Token::Ident(_)
                | Token::QualName(_)
                | Token::Int { .. }
                | Token::Float { .. }
                | Token::Char(_)
                | Token::Str(_)
        );
    }
    None
}

/// Replaces every expression, pattern and type that starts more than
/// [`MAX_NESTING`] levels deep in `decs` by a hole (an empty tuple for
/// patterns and types); the diagnostic names the first.
pub fn limit_tree(decs: &mut [Dec]) -> Option<Diagnostic> {
    let mut l = Limiter {
        depth: 0,
        first: None,
    };
    for d in decs {
        l.visit_dec(d);
    }
    l.first
}

struct Limiter {
    depth: usize,
    first: Option<Diagnostic>,
}

impl Limiter {
    /// Whether a node entered now is too deep (then it is reported, if it is
    /// the first).
    fn over(&mut self, span: Span, what: &str) -> bool {
        if self.depth < MAX_NESTING {
            return false;
        }
        if self.first.is_none() {
            self.first = Some(too_deep(span, what));
        }
        true
    }
}

impl VisitorMut for Limiter {
    fn visit_expr(&mut self, e: &mut Expr) {
        if self.over(e.span, "expressions are") {
            let hole = Expr {
                id: e.id,
                kind: ExprKind::Hole,
                span: e.span,
            };
            dismantle(Node::Expr(std::mem::replace(e, hole)));
            return;
        }
        self.depth += 1;
        visit::walk_expr(self, e);
        self.depth -= 1;
    }

    fn visit_pat(&mut self, p: &mut Pat) {
        if self.over(p.span, "patterns are") {
            let unit = Pat {
                id: p.id,
                kind: PatKind::Tuple(Vec::new()),
                span: p.span,
            };
            dismantle(Node::Pat(std::mem::replace(p, unit)));
            return;
        }
        self.depth += 1;
        visit::walk_pat(self, p);
        self.depth -= 1;
    }

    fn visit_type(&mut self, t: &mut TypeExp) {
        if self.over(t.span, "types are") {
            let unit = TypeExp {
                kind: TypeExpKind::Tuple(Vec::new()),
                span: t.span,
            };
            dismantle(Node::Type(std::mem::replace(t, unit)));
            return;
        }
        self.depth += 1;
        visit::walk_type(self, t);
        self.depth -= 1;
    }
}

/// A subtree being taken apart.
enum Node {
    Expr(Expr),
    Pat(Pat),
    Type(TypeExp),
}

/// Drops a tree of any depth without recursing: each node's children are
/// detached (replaced by leaves) onto a work list before it is dropped.
fn dismantle(root: Node) {
    let mut work = vec![root];
    while let Some(mut n) = work.pop() {
        let mut d = Detach(&mut work);
        match &mut n {
            Node::Expr(e) => visit::walk_expr(&mut d, e),
            Node::Pat(p) => visit::walk_pat(&mut d, p),
            Node::Type(t) => visit::walk_type(&mut d, t),
        }
        drop(n);
    }
}

/// Moves each child it visits onto the work list, leaving a leaf.
struct Detach<'a>(&'a mut Vec<Node>);

impl VisitorMut for Detach<'_> {
    fn visit_expr(&mut self, e: &mut Expr) {
        let leaf = Expr {
            id: e.id,
            kind: ExprKind::Hole,
            span: e.span,
        };
        self.0.push(Node::Expr(std::mem::replace(e, leaf)));
    }

    fn visit_pat(&mut self, p: &mut Pat) {
        let leaf = Pat {
            id: p.id,
            kind: PatKind::Wildcard,
            span: p.span,
        };
        self.0.push(Node::Pat(std::mem::replace(p, leaf)));
    }

    fn visit_type(&mut self, t: &mut TypeExp) {
        let leaf = TypeExp {
            kind: TypeExpKind::Tuple(Vec::new()),
            span: t.span,
        };
        self.0.push(Node::Type(std::mem::replace(t, leaf)));
    }
}
