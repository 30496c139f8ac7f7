//! The restrictions on recursive functions (T014), as Futhark has them: a
//! top-level function that calls itself must return a first-order value, and if
//! it has a higher-order parameter (a function, or a value of a lifted type
//! parameter `'^a`) every use of it in its body must be an application to all of
//! its arguments that passes each higher-order argument on unchanged.
//!
//! The check is syntactic, on the body as written. A body that binds the
//! function's own name again anywhere is not checked (the uses could not be told
//! apart without scopes).

use syntax::ast::{Expr, ExprKind, Name, Pat, PatKind};
use syntax::diag::Diagnostic;
use syntax::span::Span;
use syntax::visit::{VisitorMut, walk_expr, walk_pat};

/// What the check needs to know of the function.
pub struct RecFun<'a> {
    /// The function's name.
    pub name: &'a Name,
    /// For each parameter: its name when the pattern is a plain name, and whether
    /// it is higher-order.
    pub params: Vec<(Option<Name>, bool)>,
    /// Whether the declared result holds a function.
    pub ret_higher_order: bool,
}

/// A use of the function inside its own body.
struct Use {
    span: Span,
    /// The arguments of the application it heads, if any.
    args: Option<Vec<Option<Name>>>,
}

struct Uses<'a> {
    name: &'a Name,
    uses: Vec<Use>,
    shadowed: bool,
}

fn plain_var(e: &Expr) -> Option<Name> {
    match &e.kind {
        ExprKind::Var(q) if q.quals.is_empty() => Some(q.name.name.clone()),
        ExprKind::Parens(x) => plain_var(x),
        _ => None,
    }
}

impl VisitorMut for Uses<'_> {
    fn visit_expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Apply(f, args) if plain_var(f).as_ref() == Some(self.name) => {
                self.uses.push(Use {
                    span: e.span,
                    args: Some(args.iter().map(plain_var).collect()),
                });
                for a in args.iter_mut() {
                    self.visit_expr(a);
                }
            }
            ExprKind::Var(q) if q.quals.is_empty() && q.name.name == *self.name => {
                self.uses.push(Use {
                    span: e.span,
                    args: None,
                });
            }
            ExprKind::LetFun { name, .. } if name.name == *self.name => {
                self.shadowed = true;
            }
            _ => walk_expr(self, e),
        }
    }
    fn visit_pat(&mut self, p: &mut Pat) {
        if let PatKind::Id(i) = &p.kind
            && i.name == *self.name
        {
            self.shadowed = true;
        }
        walk_pat(self, p)
    }
}

/// The diagnostics for the uses of `f` in its own `body`.
pub fn check(f: &RecFun<'_>, body: &Expr) -> Vec<Diagnostic> {
    let mut v = Uses {
        name: f.name,
        uses: Vec::new(),
        shadowed: false,
    };
    let mut b = body.clone();
    v.visit_expr(&mut b);
    if v.shadowed || v.uses.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    if f.ret_higher_order {
        out.push(
            Diagnostic::error(
                "T014",
                format!(
                    "`{}` is recursive, so its result must be first-order, but it holds a function; its result is not first-order",
                    f.name
                ),
                v.uses[0].span,
                "recursive use",
            )
            .with_hint("take the function's arguments as further parameters"),
        );
    }
    if !f.params.iter().any(|(_, ho)| *ho) {
        return out;
    }
    for u in &v.uses {
        match &u.args {
            Some(args) if args.len() == f.params.len() => {
                for (i, ((pname, ho), arg)) in f.params.iter().zip(args).enumerate() {
                    if *ho && (pname.is_none() || pname != arg) {
                        out.push(
                            Diagnostic::error(
                                "T014",
                                format!(
                                    "the higher-order argument {} of the recursive call of `{}` must be passed unchanged: it must be the parameter `{}` itself",
                                    i + 1,
                                    f.name,
                                    pname.as_ref().map(|n| n.to_string()).unwrap_or_else(|| "_".into())
                                ),
                                u.span,
                                "a different argument",
                            )
                            .with_hint("pass the parameter on as it is, or make the function non-recursive"),
                        );
                    }
                }
            }
            _ => out.push(
                Diagnostic::error(
                    "T014",
                    format!(
                        "this use of the recursive function `{}` is not fully saturated: a recursive function with a higher-order parameter may only be applied to all {} of its arguments",
                        f.name,
                        f.params.len()
                    ),
                    u.span,
                    "not applied to all arguments",
                )
                .with_hint("apply it to all its arguments here"),
            ),
        }
    }
    out
}
