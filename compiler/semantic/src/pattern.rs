//! Checking patterns against types, collecting the names they bind.

use crate::checker::Checker;
use crate::typeexp::AnonSize;
use crate::types::{Size, Ty};
use crate::unify::{Cons, mask_float, mask_integral, mask_numeric};
use syntax::Diagnostic;
use syntax::ast::{Ident, Literal, Pat, PatKind, PrimType};

/// A name bound by a pattern.
#[derive(Clone, Debug)]
pub struct PatBind {
    pub ident: Ident,
    pub ty: Ty,
    /// Declared unique (`x: *t`).
    pub unique: bool,
}

impl Checker<'_> {
    /// The type of a literal (a fresh overloaded variable for unsuffixed numbers).
    pub fn literal_type(
        &mut self,
        lit: &Literal,
        id: syntax::ast::NodeId,
        span: syntax::Span,
    ) -> Ty {
        let t = match lit {
            Literal::Int { ty: Some(t), .. }
            | Literal::Float { ty: Some(t), .. }
            | Literal::Char { ty: Some(t), .. } => return Ty::Prim(*t),
            Literal::Int { ty: None, .. } => {
                self.u.fresh_prims(mask_numeric(), Some(PrimType::I32))
            }
            Literal::Float { ty: None, .. } => {
                self.u.fresh_prims(mask_float(), Some(PrimType::F64))
            }
            Literal::Char { ty: None, .. } => {
                self.u.fresh_prims(mask_integral(), Some(PrimType::I32))
            }
            Literal::Bool(_) => return Ty::Prim(PrimType::Bool),
            Literal::String(bytes) => {
                return crate::types::make_array(
                    Ty::Prim(PrimType::U8),
                    vec![Size::Const(bytes.len() as i64)],
                );
            }
        };
        if let Ty::Var(v) = t {
            self.overloads.push((v, span));
        }
        if self.quiet == 0 {
            self.lits.push((id, t.clone()));
        }
        t
    }

    /// Checks a pattern against the type of the value it matches, collecting bindings.
    pub fn check_pat(&mut self, p: &Pat, expected: &Ty, anon: AnonSize, out: &mut Vec<PatBind>) {
        match &p.kind {
            PatKind::Id(i) => out.push(PatBind {
                ident: i.clone(),
                ty: expected.clone(),
                unique: false,
            }),
            PatKind::Wildcard => {}
            PatKind::Tuple(ps) => {
                if ps.len() == 1 {
                    return self.check_pat(&ps[0], expected, anon, out);
                }
                let tys: Vec<Ty> = ps.iter().map(|_| self.u.fresh()).collect();
                self.unify_at(expected, &Ty::Tuple(tys.clone()), p.span);
                for (q, t) in ps.iter().zip(&tys) {
                    self.check_pat(q, t, anon, out);
                }
            }
            PatKind::Record(fs) => {
                let mut fields: Vec<(syntax::ast::Name, Ty)> = Vec::new();
                for (n, _) in fs {
                    if fields.iter().any(|(m, _)| *m == n.name) {
                        self.report(Diagnostic::error(
                            "T010",
                            format!("duplicate field `{}` in record pattern", n.name),
                            n.span,
                            "matched twice",
                        ));
                        continue;
                    }
                    fields.push((n.name.clone(), self.u.fresh()));
                }
                let mut sorted = fields.clone();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                self.unify_at(expected, &crate::types::record(sorted), p.span);
                for (n, q) in fs {
                    if let Some((_, t)) = fields.iter().find(|(m, _)| *m == n.name) {
                        let t = t.clone();
                        self.check_pat(q, &t, anon, out);
                    }
                }
            }
            PatKind::Ascribed(q, te) => {
                let r = self.resolve_type(te, anon);
                self.unify_because(
                    &r.ty,
                    expected,
                    q.span,
                    Some((te.span, "expected because of this annotation")),
                );
                let start = out.len();
                self.check_pat(q, &r.ty, anon, out);
                let mut names = Vec::new();
                unique_names(q, te, &mut names);
                for b in &mut out[start..] {
                    if r.unique || names.contains(&b.ident.name) {
                        b.unique = true;
                    }
                }
            }
            PatKind::Literal(lit) => {
                let t = self.literal_type(lit, p.id, p.span);
                self.unify_at(expected, &t, p.span);
            }
            PatKind::Constructor(name, ps) => {
                let tys: Vec<Ty> = ps.iter().map(|_| self.u.fresh()).collect();
                let v = self
                    .u
                    .fresh_with(Cons::Constrs(vec![(name.name.clone(), tys.clone())]), false);
                if let Ty::Var(x) = v {
                    self.open_records.push((x, p.span));
                }
                self.unify_at(expected, &v, p.span);
                for (q, t) in ps.iter().zip(&tys) {
                    self.check_pat(q, t, anon, out);
                }
            }
            PatKind::Attr(_, q) => self.check_pat(q, expected, anon, out),
        }
    }
}

/// The variable a pattern binds when it is a plain (possibly ascribed) name.
pub fn pat_ident(p: &Pat) -> Option<&Ident> {
    match &p.kind {
        PatKind::Id(i) => Some(i),
        PatKind::Ascribed(q, _) | PatKind::Attr(_, q) => pat_ident(q),
        PatKind::Tuple(ps) if ps.len() == 1 => pat_ident(&ps[0]),
        _ => None,
    }
}

/// The names a pattern binds to unique components of its annotation.
fn unique_names(p: &Pat, te: &syntax::ast::TypeExp, out: &mut Vec<syntax::ast::Name>) {
    use syntax::ast::TypeExpKind;
    match (&p.kind, &te.kind) {
        (_, TypeExpKind::Unique(_)) => pat_names(p, out),
        (PatKind::Tuple(ps), TypeExpKind::Tuple(ts)) if ps.len() == ts.len() => {
            for (q, t) in ps.iter().zip(ts) {
                unique_names(q, t, out);
            }
        }
        (PatKind::Record(fs), TypeExpKind::Record(ts)) => {
            for (n, q) in fs {
                if let Some((_, t)) = ts.iter().find(|(m, _)| m.name == n.name) {
                    unique_names(q, t, out);
                }
            }
        }
        (PatKind::Ascribed(q, t2), _) => {
            unique_names(q, t2, out);
            unique_names(q, te, out);
        }
        (PatKind::Attr(_, q), _) => unique_names(q, te, out),
        _ => {}
    }
}

/// All names a pattern binds.
pub fn pat_names(p: &Pat, out: &mut Vec<syntax::ast::Name>) {
    match &p.kind {
        PatKind::Id(i) => out.push(i.name.clone()),
        PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => {
            ps.iter().for_each(|q| pat_names(q, out))
        }
        PatKind::Record(fs) => fs.iter().for_each(|(_, q)| pat_names(q, out)),
        PatKind::Ascribed(q, _) | PatKind::Attr(_, q) => pat_names(q, out),
        PatKind::Wildcard | PatKind::Literal(_) => {}
    }
}
