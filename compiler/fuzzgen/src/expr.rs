//! Generated expressions: a typed tree of source-text templates whose holes are
//! subexpressions, which is all the shrinker needs to know about the language
//! (which holes bind which names, and the type of every node).

use std::collections::BTreeSet;

use crate::ty::{Prim, Ty};

/// A typed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// The expression's type.
    pub ty: Ty,
    /// What it is.
    pub kind: Kind,
}

/// The forms of expressions.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A variable.
    Var(String),
    /// A literal, as written (with its type suffix).
    Lit(String),
    /// A template: text with holes for subexpressions.
    Node(Vec<Item>),
}

/// A part of a template.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// Literal text.
    Text(String),
    /// A subexpression, in parentheses unless it is atomic when `paren`, with
    /// the names bound where it stands (a lambda's parameters, a `let`'s
    /// variables, a loop's parameters).
    Kid {
        /// The subexpression.
        e: Expr,
        /// Parenthesise it unless atomic.
        paren: bool,
        /// Names bound around it by the template.
        binds: Vec<String>,
    },
}

/// Builds a template node of type `ty` from text and subexpressions.
pub struct Builder {
    ty: Ty,
    items: Vec<Item>,
}

impl Builder {
    /// A new template of type `ty`.
    pub fn new(ty: Ty) -> Builder {
        Builder {
            ty,
            items: Vec::new(),
        }
    }

    /// Appends text.
    pub fn t(mut self, s: &str) -> Builder {
        self.items.push(Item::Text(s.to_string()));
        self
    }

    /// Appends a subexpression, parenthesised unless atomic.
    pub fn p(self, e: Expr) -> Builder {
        self.kid(e, true, &[])
    }

    /// Appends a subexpression as it is.
    pub fn e(self, e: Expr) -> Builder {
        self.kid(e, false, &[])
    }

    /// Appends a subexpression under binders.
    pub fn under(self, binds: &[String], e: Expr) -> Builder {
        self.kid(e, false, binds)
    }

    /// Appends a subexpression under binders, parenthesised unless atomic.
    pub fn under_p(self, binds: &[String], e: Expr) -> Builder {
        self.kid(e, true, binds)
    }

    fn kid(mut self, e: Expr, paren: bool, binds: &[String]) -> Builder {
        self.items.push(Item::Kid {
            e,
            paren,
            binds: binds.to_vec(),
        });
        self
    }

    /// The finished expression.
    pub fn done(self) -> Expr {
        Expr {
            ty: self.ty,
            kind: Kind::Node(self.items),
        }
    }
}

impl Expr {
    /// A variable of type `ty`.
    pub fn var(name: &str, ty: Ty) -> Expr {
        Expr {
            ty,
            kind: Kind::Var(name.to_string()),
        }
    }

    /// A literal written `text`.
    pub fn lit(text: String, ty: Ty) -> Expr {
        Expr {
            ty,
            kind: Kind::Lit(text),
        }
    }

    /// Source text of the expression.
    pub fn render(&self) -> String {
        let mut s = String::new();
        self.render_into(&mut s);
        s
    }

    fn render_into(&self, out: &mut String) {
        match &self.kind {
            Kind::Var(v) => out.push_str(v),
            Kind::Lit(l) => out.push_str(l),
            Kind::Node(items) => {
                for it in items {
                    match it {
                        Item::Text(t) => out.push_str(t),
                        Item::Kid { e, paren, .. } => {
                            let wrap = *paren && !e.is_atomic();
                            if wrap {
                                out.push('(');
                            }
                            e.render_into(out);
                            if wrap {
                                out.push(')');
                            }
                        }
                    }
                }
            }
        }
    }

    /// Renders without parentheses: a variable, a non-negative literal of one
    /// word, a parenthesised literal.
    fn is_atomic(&self) -> bool {
        match &self.kind {
            Kind::Var(_) => true,
            Kind::Lit(l) => {
                !l.starts_with('-') && (l.starts_with('(') || !l.contains(char::is_whitespace))
            }
            Kind::Node(_) => false,
        }
    }

    /// Number of nodes: the shrinker's measure of size.
    pub fn size(&self) -> usize {
        match &self.kind {
            Kind::Var(_) | Kind::Lit(_) => 1,
            Kind::Node(items) => {
                1 + items
                    .iter()
                    .map(|i| match i {
                        Item::Kid { e, .. } => e.size(),
                        Item::Text(_) => 0,
                    })
                    .sum::<usize>()
            }
        }
    }

    /// Free variables.
    pub fn free_vars(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.free_into(&mut Vec::new(), &mut out);
        out
    }

    fn free_into(&self, bound: &mut Vec<String>, out: &mut BTreeSet<String>) {
        match &self.kind {
            Kind::Var(v) => {
                if !bound.contains(v) {
                    out.insert(v.clone());
                }
            }
            Kind::Lit(_) => {}
            Kind::Node(items) => {
                for it in items {
                    if let Item::Kid { e, binds, .. } = it {
                        let n = bound.len();
                        bound.extend(binds.iter().cloned());
                        e.free_into(bound, out);
                        bound.truncate(n);
                    }
                }
            }
        }
    }

    /// Smaller expressions of the same type to try in place of this one, most
    /// reducing first: the type's zero, each subexpression of the same type
    /// that uses none of the names bound around it, then the candidates of each
    /// subexpression in place.
    pub fn shrink(&self) -> Vec<Expr> {
        let mut out = Vec::new();
        let z = zero(&self.ty);
        if z.size() < self.size() {
            out.push(z);
        }
        if let Kind::Node(items) = &self.kind {
            for it in items {
                if let Item::Kid { e, binds, .. } = it
                    && e.ty == self.ty
                    && (binds.is_empty() || e.free_vars().iter().all(|v| !binds.contains(v)))
                {
                    out.push(e.clone());
                }
            }
            for (i, it) in items.iter().enumerate() {
                if let Item::Kid { e, .. } = it {
                    for c in e.shrink() {
                        let mut items = items.clone();
                        if let Item::Kid { e, .. } = &mut items[i] {
                            *e = c;
                        }
                        out.push(Expr {
                            ty: self.ty.clone(),
                            kind: Kind::Node(items),
                        });
                    }
                }
            }
        }
        out
    }
}

/// A literal of a primitive type from an integer or float value.
pub fn prim_lit(p: Prim, v: f64) -> Expr {
    let text = match p {
        Prim::Bool => (v != 0.0).to_string(),
        p if p.is_float() => format!("{v:?}{}", p.name()),
        p => format!("{}{}", v as i64, p.name()),
    };
    Expr::lit(text, Ty::Prim(p))
}

/// The simplest expression of a type: zero, `false`, replicated zeros, tuples
/// and records of zeros.
pub fn zero(ty: &Ty) -> Expr {
    match ty {
        Ty::Prim(p) => prim_lit(*p, 0.0),
        Ty::Arr(t, d) => Builder::new(ty.clone())
            .t(&format!("replicate {d} "))
            .p(zero(t))
            .done(),
        Ty::Tuple(ts) => {
            let mut b = Builder::new(ty.clone()).t("(");
            for (i, t) in ts.iter().enumerate() {
                if i > 0 {
                    b = b.t(", ");
                }
                b = b.e(zero(t));
            }
            b.t(")").done()
        }
        Ty::Record(fs) => {
            let mut b = Builder::new(ty.clone()).t("{");
            for (i, (n, t)) in fs.iter().enumerate() {
                if i > 0 {
                    b = b.t(", ");
                }
                b = b.t(&format!("{n} = ")).e(zero(t));
            }
            b.t("}").done()
        }
    }
}
