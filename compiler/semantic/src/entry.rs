//! Entry points: which types they may take and return, and their description for the
//! value formats.

use crate::checker::Checker;
use crate::decls::FunResult;
use crate::types::{Scheme, TParam, Ty};
use crate::{EntryPoint, EntryType};
use syntax::Diagnostic;
use syntax::ast::{Pat, PatKind, TypeExp, TypeExpKind, ValBind};

/// Why a type cannot cross the entry-point boundary, if it cannot.
fn entry_problem(t: &Ty) -> Option<String> {
    match t {
        Ty::Arrow(_) => Some(format!("`{t}` is a function")),
        Ty::Param(_, n) => Some(format!("`{n}` is a type parameter")),
        Ty::Var(_) => Some("its type is not known".into()),
        Ty::Array(e, _) => entry_problem(e),
        Ty::Tuple(ts) => ts.iter().find_map(entry_problem),
        Ty::Record(fs) => fs.iter().find_map(|(_, t)| entry_problem(t)),
        Ty::Sum(cs) => cs
            .iter()
            .find_map(|(_, ts)| ts.iter().find_map(entry_problem)),
        Ty::Abs(..) | Ty::Prim(_) | Ty::Error => None,
    }
}

/// The value-format view of a type.
pub fn entry_type(t: &Ty) -> EntryType {
    match t {
        Ty::Prim(p) => EntryType::Array { elem: *p, rank: 0 },
        Ty::Array(e, s) => match &**e {
            Ty::Prim(p) => EntryType::Array {
                elem: *p,
                rank: s.len(),
            },
            _ => EntryType::Opaque(t.to_string()),
        },
        _ => EntryType::Opaque(t.to_string()),
    }
}

/// The name an entry point's written type gives a type: a type
/// abbreviation or a module's type without arguments, as written
/// (`point`, `M.t`), or an array of one (`[]point`).
fn written_name(te: &TypeExp) -> Option<String> {
    match &te.kind {
        TypeExpKind::Unique(t) => written_name(t),
        TypeExpKind::Array(_, t) => written_name(t).map(|n| format!("[]{n}")),
        TypeExpKind::Var(qn, args) if args.is_empty() => {
            let mut parts: Vec<&str> = qn.quals.iter().map(|q| &*q.name).collect();
            parts.push(&qn.name.name);
            Some(parts.join("."))
        }
        _ => None,
    }
}

/// The type written for a parameter's pattern, if any.
fn pat_type(p: &Pat) -> Option<&TypeExp> {
    match &p.kind {
        PatKind::Ascribed(_, te) => Some(te),
        PatKind::Attr(_, p) => pat_type(p),
        _ => None,
    }
}

/// The types written for an entry point's `n` results: the return type,
/// or its components when it is a tuple of `n > 1` results.
fn result_types(ret: Option<&TypeExp>, n: usize) -> Vec<Option<&TypeExp>> {
    let Some(mut te) = ret else {
        return vec![None; n];
    };
    if n == 1 {
        return vec![Some(te)];
    }
    while let TypeExpKind::Existential(_, t) = &te.kind {
        te = t;
    }
    match &te.kind {
        TypeExpKind::Tuple(ts) if ts.len() == n => ts.iter().map(Some).collect(),
        _ => vec![None; n],
    }
}

/// The value-format view of a type that the entry point writes as `te`:
/// an opaque type named by an abbreviation or a module's type keeps that
/// name. An abstract type is called by its name alone; any other gets
/// `NAME = STRUCTURE` (`point = {x: f64, y: f64}`), so later stages know
/// both ([`EntryType::opaque_name`] gives the name).
pub fn named_entry_type(t: &Ty, te: Option<&TypeExp>) -> EntryType {
    match (entry_type(t), te.and_then(written_name)) {
        (EntryType::Opaque(structure), Some(name)) if name != structure => {
            if is_abstract(t) {
                EntryType::Opaque(name)
            } else {
                EntryType::Opaque(format!("{name} = {structure}"))
            }
        }
        (et, _) => et,
    }
}

/// Is the type an abstract type of a module, or an array of one?
fn is_abstract(t: &Ty) -> bool {
    match t {
        Ty::Abs(..) => true,
        Ty::Array(e, _) => is_abstract(e),
        _ => false,
    }
}

impl Checker<'_> {
    /// Checks an entry point's type and records it.
    pub fn check_entry(&mut self, vb: &ValBind, f: &FunResult) {
        self.check_entry_scheme(vb, &f.scheme, f.has_type_params);
    }

    fn check_entry_scheme(&mut self, vb: &ValBind, s: &Scheme, has_type_params: bool) {
        let kind = "entry point";
        if has_type_params || s.params.iter().any(|p| matches!(p, TParam::Type(..))) {
            self.report(
                Diagnostic::error(
                    "T009",
                    format!("{kind} `{}` may not be polymorphic", vb.name.name),
                    vb.name.span,
                    "this entry point has type parameters",
                )
                .with_hint("give its parameters concrete types"),
            );
            return;
        }
        if let Some(TParam::Size(_, n)) = s
            .params
            .iter()
            .find(|p| matches!(p, TParam::Size(u, _) if crate::types::is_context_size(*u)))
        {
            self.report(
                Diagnostic::error(
                    "T009",
                    format!(
                        "Entry point `{}` may not be return-polymorphic: its size `{n}` is named only by the return type",
                        vb.name.name
                    ),
                    vb.name.span,
                    "the caller of an entry point cannot choose a result size",
                )
                .with_hint("give the size to the entry point as a parameter, e.g. `(n: i64)`"),
            );
            return;
        }
        let mut params = Vec::new();
        let mut t = &s.ty;
        let mut i = 0;
        while let Ty::Arrow(a) = t {
            let span = vb.params.get(i).map(|p| p.span).unwrap_or(vb.name.span);
            if let Some(why) = entry_problem(&a.param) {
                self.report(Diagnostic::error(
                    "T009",
                    format!(
                        "{kind} `{}` may not take this parameter: {why}",
                        vb.name.name
                    ),
                    span,
                    "not allowed in an entry point",
                )
                .with_hint(if matches!(a.param, Ty::Arrow(_)) {
                    "entry points are called from outside the program with data only: make this a `def`, and add an entry point that calls it with a function defined in the program"
                } else {
                    "entry points take arrays, scalars, records and values of opaque types; give the parameter a concrete type"
                }));
                return;
            }
            params.push(named_entry_type(
                &a.param,
                vb.params.get(i).and_then(pat_type),
            ));
            // A body that is itself a function value (`entry f = add`) contributes
            // further parameters, which come from its type.
            t = &a.ret;
            i += 1;
        }
        if let Some(why) = entry_problem(t) {
            let span = vb.ret.as_ref().map(|r| r.span).unwrap_or(vb.name.span);
            self.report(Diagnostic::error(
                "T009",
                format!("{kind} `{}` may not return this type: {why}", vb.name.name),
                span,
                "not allowed in an entry point",
            ));
            return;
        }
        let results = match t {
            Ty::Tuple(ts) if !ts.is_empty() => {
                let written = result_types(vb.ret.as_ref(), ts.len());
                ts.iter()
                    .zip(written)
                    .map(|(t, te)| named_entry_type(t, te))
                    .collect()
            }
            t => vec![named_entry_type(t, vb.ret.as_ref())],
        };
        self.entries.push(EntryPoint {
            name: vb.name.name.to_string(),
            params,
            results,
        });
    }

    /// After the file: a top-level `def main` is an entry point too, alongside any
    /// declared with `entry` (as in Futhark).
    pub fn finish_entries(&mut self) {
        if let Some((vb, s, tp)) = self.last_main.take() {
            self.check_entry_scheme(&vb, &s, tp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Size, make_array};
    use syntax::ast::PrimType;

    #[test]
    fn arrays_of_primitives_have_rank() {
        let t = make_array(Ty::Prim(PrimType::F32), vec![Size::Any, Size::Const(3)]);
        assert_eq!(
            entry_type(&t),
            EntryType::Array {
                elem: PrimType::F32,
                rank: 2
            }
        );
        let r = Ty::Record(vec![("a".into(), Ty::Prim(PrimType::I32))]);
        assert_eq!(entry_type(&r), EntryType::Opaque("{a: i32}".into()));
    }

    #[test]
    fn functions_are_rejected() {
        let f = Ty::Arrow(Box::new(crate::types::Arrow {
            pname: None,
            param: Ty::Prim(PrimType::I32),
            ret: Ty::Prim(PrimType::I32),
            consume: false,
            ret_unique: false,
            consume_parts: Vec::new(),
            ret_parts: Vec::new(),
        }));
        assert!(entry_problem(&f).is_some());
        assert!(entry_problem(&Ty::Prim(PrimType::Bool)).is_none());
    }
}
