//! Resolution of type expressions to types, including sizes in types.

use crate::checker::{Checker, Local, with_suggestion};
use crate::types::{
    Arrow, Size, SubstTarget, TParam, Ty, TyArg, apply_def, fresh_uid, make_array, subst_ty,
};
use std::collections::HashMap;
use syntax::Diagnostic;
use syntax::ast::{ExprKind, Literal, PrimType, SizeExp, TypeArg, TypeExp, TypeExpKind};

/// What an anonymous size `[]` means where a type is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnonSize {
    /// A fresh size variable (parameters, ascriptions, patterns).
    Fresh,
    /// An unknown size (return types).
    Any,
}

/// A resolved type with its top-level uniqueness.
pub struct Resolved {
    pub ty: Ty,
    pub unique: bool,
    /// For a tuple type written with components marked individually
    /// (`(i64, *[]i64)`): the uniqueness of each component. Empty otherwise.
    pub parts: Vec<bool>,
}

/// The uniqueness of each component of a tuple type expression in which at least one
/// component is marked unique; empty for other type expressions.
pub fn unique_parts(te: &TypeExp) -> Vec<bool> {
    match &te.kind {
        TypeExpKind::Tuple(ts)
            if ts.len() > 1 && ts.iter().any(|t| matches!(t.kind, TypeExpKind::Unique(_))) =>
        {
            ts.iter()
                .map(|t| matches!(t.kind, TypeExpKind::Unique(_)))
                .collect()
        }
        _ => Vec::new(),
    }
}

impl Checker<'_> {
    /// Resolves a type expression.
    pub fn resolve_type(&mut self, te: &TypeExp, anon: AnonSize) -> Resolved {
        match &te.kind {
            TypeExpKind::Unique(t) => {
                let r = self.resolve_type(t, anon);
                Resolved {
                    ty: r.ty,
                    unique: true,
                    parts: Vec::new(),
                }
            }
            _ => Resolved {
                ty: self.resolve_ty(te, anon),
                unique: false,
                parts: unique_parts(te),
            },
        }
    }

    /// Resolves a type expression, ignoring uniqueness.
    pub fn resolve_ty(&mut self, te: &TypeExp, anon: AnonSize) -> Ty {
        match &te.kind {
            TypeExpKind::Var(qn, args) => {
                let def = self.lookup_type(qn);
                let Some(def) = def else {
                    if qn.quals.is_empty()
                        && args.is_empty()
                        && let Some(p) = PrimType::from_name(&qn.name.name)
                    {
                        return Ty::Prim(p);
                    }
                    if qn.quals.is_empty() || self.lookup_mod(&qn.quals[0].name).is_some() {
                        let cands = self.all_names(|e| e.types.keys().cloned().collect());
                        let d = Diagnostic::error(
                            "T001",
                            format!("Unknown type \"{}\"", qn_string(qn)),
                            qn.span(),
                            "not defined",
                        );
                        let d = with_suggestion(d, &qn.name.name, &cands);
                        self.report(d);
                    }
                    return Ty::Error;
                };
                if def.params.len() != args.len() {
                    self.report(Diagnostic::error(
                        "T011",
                        format!(
                            "type `{}` takes {} argument{}, but is given {}",
                            qn_string(qn),
                            def.params.len(),
                            if def.params.len() == 1 { "" } else { "s" },
                            args.len()
                        ),
                        te.span,
                        "wrong number of type arguments",
                    ));
                    return Ty::Error;
                }
                let mut targs = Vec::new();
                for (p, a) in def.params.iter().zip(args) {
                    match (p, a) {
                        (TParam::Type(..), TypeArg::Type(t)) => {
                            targs.push(TyArg::Ty(self.resolve_ty(t, anon)));
                        }
                        (TParam::Size(..), TypeArg::Size(s, _)) => {
                            let s = match s {
                                Some(e) => self.size_of_exp(e),
                                None => self.anon_size(anon),
                            };
                            targs.push(TyArg::Size(s));
                        }
                        (_, a) => {
                            let span = match a {
                                TypeArg::Type(t) => t.span,
                                TypeArg::Size(_, s) => *s,
                            };
                            self.report(Diagnostic::error(
                                "T011",
                                format!("wrong kind of argument to type `{}`", qn_string(qn)),
                                span,
                                match p {
                                    TParam::Size(..) => "a size `[n]` is expected here",
                                    TParam::Type(..) => "a type is expected here",
                                },
                            ));
                            return Ty::Error;
                        }
                    }
                }
                apply_def(&def, &targs)
            }
            TypeExpKind::Tuple(ts) => {
                if ts.len() == 1 {
                    return self.resolve_ty(&ts[0], anon);
                }
                Ty::Tuple(ts.iter().map(|t| self.resolve_ty(t, anon)).collect())
            }
            TypeExpKind::Record(fs) => {
                let mut out: Vec<(syntax::ast::Name, Ty)> = Vec::new();
                for (n, t) in fs {
                    let ty = self.resolve_ty(t, anon);
                    if out.iter().any(|(m, _)| *m == n.name) {
                        self.report(Diagnostic::error(
                            "T010",
                            format!("duplicate field `{}` in record type", n.name),
                            n.span,
                            "defined twice",
                        ));
                        continue;
                    }
                    out.push((n.name.clone(), ty));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                crate::types::record(out)
            }
            TypeExpKind::Array(size, elem) => {
                let e = self.resolve_ty(elem, anon);
                let s = match size {
                    Some(s) => self.size_of_exp(s),
                    None => self.anon_size(anon),
                };
                make_array(e, vec![s])
            }
            TypeExpKind::Sum(cs) => {
                let mut out: Vec<(syntax::ast::Name, Vec<Ty>)> = Vec::new();
                for (n, ts) in cs {
                    let tys = ts.iter().map(|t| self.resolve_ty(t, anon)).collect();
                    if out.iter().any(|(m, _)| *m == n.name) {
                        self.report(Diagnostic::error(
                            "T010",
                            format!("duplicate constructor `#{}` in sum type", n.name),
                            n.span,
                            "defined twice",
                        ));
                        continue;
                    }
                    out.push((n.name.clone(), tys));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ty::Sum(out)
            }
            TypeExpKind::Arrow(name, a, b) => {
                let pa = self.resolve_type(a, anon);
                let mark = self.scope.len();
                let pname = name.as_ref().map(|n| {
                    let uid = fresh_uid();
                    self.push_local(
                        n.name.clone(),
                        Local {
                            uid,
                            ty: pa.ty.clone(),
                            scheme: None,
                            aliases: vec![uid],
                            consumable: false,
                            parts: None,
                            depth: self.depth,
                            span: n.span,
                        },
                    );
                    (uid, n.name.clone())
                });
                let rb = self.resolve_type(b, anon);
                self.scope.truncate(mark);
                Ty::Arrow(Box::new(Arrow {
                    pname,
                    param: pa.ty,
                    ret: rb.ty,
                    consume: pa.unique,
                    ret_unique: rb.unique,
                    consume_parts: pa.parts,
                    ret_parts: rb.parts,
                }))
            }
            TypeExpKind::Unique(t) => self.resolve_ty(t, anon),
            TypeExpKind::Existential(names, t) => {
                let mark = self.scope.len();
                let mut sub = HashMap::new();
                for n in names {
                    let uid = fresh_uid();
                    sub.insert(uid, SubstTarget::Size(Size::Hidden(uid)));
                    self.push_local(
                        n.name.clone(),
                        Local {
                            uid,
                            ty: Ty::Prim(PrimType::I64),
                            scheme: None,
                            aliases: vec![uid],
                            consumable: false,
                            parts: None,
                            depth: self.depth,
                            span: n.span,
                        },
                    );
                }
                let ty = self.resolve_ty(t, anon);
                self.scope.truncate(mark);
                subst_ty(&ty, &sub)
            }
        }
    }

    fn anon_size(&mut self, anon: AnonSize) -> Size {
        match anon {
            AnonSize::Fresh => self.u.fresh_size(),
            AnonSize::Any => {
                let u = fresh_uid();
                self.anon_hidden.push(u);
                Size::Hidden(u)
            }
        }
    }

    /// The size denoted by a size expression in a type.
    pub fn size_of_exp(&mut self, e: &SizeExp) -> Size {
        match &e.kind {
            ExprKind::Literal(Literal::Int { value, .. }) => match i64::try_from(*value) {
                Ok(v) => Size::Const(v),
                Err(_) => Size::Any,
            },
            ExprKind::Parens(inner) => self.size_of_exp(inner),
            ExprKind::Var(qn) if qn.quals.is_empty() => {
                let name = &qn.name.name;
                if let Some(l) = self.lookup_local(name) {
                    if self.unsizable.contains(&l.uid) {
                        self.report(
                            Diagnostic::error(
                                "S002",
                                format!(
                                    "Unknown size \"{name}\": a name bound inside a parameter \
                                     pattern cannot be used in the return type"
                                ),
                                qn.name.span,
                                "only whole parameters can be used as sizes here",
                            )
                            .with_hint(format!(
                                "make `{name}` a parameter of its own: `({name}: i64)`"
                            )),
                        );
                        return Size::Any;
                    }
                    let i64_ty = Ty::Prim(PrimType::I64);
                    let (uid, lty, lspan) = (l.uid, l.ty.clone(), l.span);
                    let scheme_ty = l.scheme.as_ref().map(|s| s.ty.clone());
                    if scheme_ty.is_some() || self.u.unify(&i64_ty, &lty).is_err() {
                        let shown = self.show(scheme_ty.as_ref().unwrap_or(&lty));
                        self.report(
                            Diagnostic::error(
                                "S004",
                                format!(
                                    "Size \"{name}\" has type `{shown}`, but sizes must be of type `i64`"
                                ),
                                qn.name.span,
                                "used as a size here",
                            )
                            .with_secondary(lspan, format!("`{name}` is bound here"))
                            .with_hint(
                                "bind an `i64` value to a name and use that as the size \
                                 (`let k = i64.i32 x`)",
                            ),
                        );
                        return Size::Any;
                    }
                    return Size::Named(uid, name.clone());
                }
                if self.lookup_val(name).is_some() {
                    return self.global_size(qn).unwrap_or(Size::Any);
                }
                self.report(
                    Diagnostic::error(
                        "S002",
                        format!("unknown size `{name}`"),
                        qn.name.span,
                        "no size parameter or variable of this name is in scope",
                    )
                    .with_hint(format!("bind it as a size parameter `[{name}]`")),
                );
                Size::Any
            }
            ExprKind::Var(qn) => self.global_size(qn).unwrap_or(Size::Any),
            ExprKind::BinOp(op, a, b) if op.quals.is_empty() => {
                let x = self.size_of_exp(a);
                let y = self.size_of_exp(b);
                match crate::types::SizeOp::from_name(&op.name.name) {
                    Some(o) => crate::types::size_op(o, x, y),
                    None => Size::Any,
                }
            }
            _ => Size::Any,
        }
    }
}

/// A qualified name as written.
pub fn qn_string(qn: &syntax::ast::QualName) -> String {
    let mut s = String::new();
    for q in &qn.quals {
        s.push_str(&q.name);
        s.push('.');
    }
    s.push_str(&qn.name.name);
    s
}
