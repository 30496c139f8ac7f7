//! Elaboration: writes the inferred types of unsuffixed literals into a copy of the
//! tree, and turns the resolved element types of empty array literals into type
//! expressions ([`type_exp`]).

use std::collections::HashMap;
use syntax::ast::{
    Case, Dec, DecKind, DimIndex, Expr, ExprKind, File, Literal, LoopForm, ModExp, ModExpKind,
    NodeId, Pat, PatKind, PathStep, PrimType, RecordField,
};

/// Fills in literal types from `types` (by node id) in the whole file.
pub fn elaborate(file: &mut File, types: &HashMap<NodeId, PrimType>) {
    for d in &mut file.decs {
        dec(d, types);
    }
}

fn dec(d: &mut Dec, t: &HashMap<NodeId, PrimType>) {
    match &mut d.kind {
        DecKind::Val(vb) => {
            for p in &mut vb.params {
                pat(p, t);
            }
            expr(&mut vb.body, t);
        }
        DecKind::Mod(mb) => modexp(&mut mb.body, t),
        DecKind::Open(me) => modexp(me, t),
        DecKind::Local(inner) => dec(inner, t),
        DecKind::Type(_) | DecKind::Sig(_) | DecKind::Import(..) => {}
    }
}

fn modexp(m: &mut ModExp, t: &HashMap<NodeId, PrimType>) {
    match &mut m.kind {
        ModExpKind::Struct(decs) => decs.iter_mut().for_each(|d| dec(d, t)),
        ModExpKind::Parens(x) | ModExpKind::Ascribe(x, _) | ModExpKind::Lambda(_, _, x) => {
            modexp(x, t)
        }
        ModExpKind::Apply(a, b) => {
            modexp(a, t);
            modexp(b, t);
        }
        ModExpKind::Var(_) | ModExpKind::Import(_) => {}
    }
}

fn lit(l: &mut Literal, id: NodeId, t: &HashMap<NodeId, PrimType>) {
    let found = t.get(&id).copied();
    match l {
        Literal::Int { ty, .. } if ty.is_none() => *ty = Some(found.unwrap_or(PrimType::I32)),
        Literal::Float { ty, .. } if ty.is_none() => *ty = Some(found.unwrap_or(PrimType::F64)),
        Literal::Char { ty, .. } if ty.is_none() => *ty = Some(found.unwrap_or(PrimType::I32)),
        _ => {}
    }
}

fn pat(p: &mut Pat, t: &HashMap<NodeId, PrimType>) {
    let id = p.id;
    match &mut p.kind {
        PatKind::Literal(l) => lit(l, id, t),
        PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => ps.iter_mut().for_each(|q| pat(q, t)),
        PatKind::Record(fs) => fs.iter_mut().for_each(|(_, q)| pat(q, t)),
        PatKind::Ascribed(q, _) | PatKind::Attr(_, q) => pat(q, t),
        PatKind::Id(_) | PatKind::Wildcard => {}
    }
}

fn dims(ds: &mut [DimIndex], t: &HashMap<NodeId, PrimType>) {
    for d in ds {
        match d {
            DimIndex::Fix(e) => expr(e, t),
            DimIndex::Slice { start, end, stride } => {
                for e in [start, end, stride].into_iter().flatten() {
                    expr(e, t);
                }
            }
        }
    }
}

fn steps(path: &mut [PathStep], t: &HashMap<NodeId, PrimType>) {
    for step in path {
        if let PathStep::Index(ds, _) = step {
            dims(ds, t);
        }
    }
}

fn expr(e: &mut Expr, t: &HashMap<NodeId, PrimType>) {
    let id = e.id;
    match &mut e.kind {
        ExprKind::Literal(l) => lit(l, id, t),
        ExprKind::Var(_)
        | ExprKind::OpSection(_)
        | ExprKind::ProjectSection(_)
        | ExprKind::Hole => {}
        ExprKind::Parens(x)
        | ExprKind::QualParens(_, x)
        | ExprKind::Project(x, _)
        | ExprKind::Neg(x)
        | ExprKind::Not(x)
        | ExprKind::OpSectionLeft(_, x)
        | ExprKind::OpSectionRight(_, x)
        | ExprKind::Ascribe(x, _)
        | ExprKind::Coerce(x, _)
        | ExprKind::Attr(_, x) => expr(x, t),
        ExprKind::Tuple(es) | ExprKind::ArrayLit(es) | ExprKind::Constructor(_, es) => {
            es.iter_mut().for_each(|x| expr(x, t))
        }
        ExprKind::Record(fs) => {
            for f in fs {
                if let RecordField::Explicit(_, x) = f {
                    expr(x, t);
                }
            }
        }
        ExprKind::Range {
            start, second, end, ..
        } => {
            expr(start, t);
            if let Some(s) = second {
                expr(s, t);
            }
            expr(end, t);
        }
        ExprKind::BinOp(_, a, b) | ExprKind::Assert(a, b) => {
            expr(a, t);
            expr(b, t);
        }
        ExprKind::IndexSection(ds) => dims(ds, t),
        ExprKind::PathSection(path) => steps(path, t),
        ExprKind::Apply(f, args) => {
            expr(f, t);
            args.iter_mut().for_each(|x| expr(x, t));
        }
        ExprKind::If(c, a, b) => {
            expr(c, t);
            expr(a, t);
            expr(b, t);
        }
        ExprKind::Let {
            pat: p,
            value,
            body,
            ..
        } => {
            pat(p, t);
            expr(value, t);
            expr(body, t);
        }
        ExprKind::LetFun {
            params,
            value,
            body,
            ..
        } => {
            params.iter_mut().for_each(|p| pat(p, t));
            expr(value, t);
            expr(body, t);
        }
        ExprKind::LetWith {
            indices,
            value,
            body,
            ..
        } => {
            dims(indices, t);
            expr(value, t);
            expr(body, t);
        }
        ExprKind::Update {
            target,
            indices,
            value,
        } => {
            expr(target, t);
            dims(indices, t);
            expr(value, t);
        }
        ExprKind::RecordUpdate { target, value, .. } => {
            expr(target, t);
            expr(value, t);
        }
        ExprKind::UpdatePath {
            target,
            path,
            value,
        } => {
            expr(target, t);
            steps(path, t);
            expr(value, t);
        }
        ExprKind::Lambda { params, body, .. } => {
            params.iter_mut().for_each(|p| pat(p, t));
            expr(body, t);
        }
        ExprKind::Loop {
            pat: p,
            init,
            form,
            body,
        } => {
            pat(p, t);
            if let Some(i) = init {
                expr(i, t);
            }
            match form {
                LoopForm::For(_, b) | LoopForm::While(b) => expr(b, t),
                LoopForm::ForIn(q, xs) => {
                    pat(q, t);
                    expr(xs, t);
                }
            }
            expr(body, t);
        }
        ExprKind::Match(x, cases) => {
            expr(x, t);
            for Case { pat: p, body, .. } in cases {
                pat(p, t);
                expr(body, t);
            }
        }
        ExprKind::Index(x, ds) => {
            expr(x, t);
            dims(ds, t);
        }
    }
}

/// The expression denoting a size at the place it is used: an `i64` literal, a variable
/// (a size parameter or a variable of type `i64` in scope), or `+ - *` of those.
/// `None` for sizes the checker does not know.
pub fn size_expr(s: &crate::types::Size) -> Option<Expr> {
    use crate::types::Size;
    let span = syntax::ast::Span::default();
    let node = |kind| Expr {
        kind,
        span,
        id: NodeId(u32::MAX),
    };
    match s {
        Size::Const(v) => Some(node(ExprKind::Literal(Literal::Int {
            value: i128::from(*v),
            ty: Some(PrimType::I64),
        }))),
        Size::Named(_, n) => {
            // A member of a module is named by its path (`Size.n`).
            let mut parts: Vec<syntax::ast::Ident> = n
                .split('.')
                .map(|p| syntax::ast::Ident {
                    name: p.into(),
                    span,
                })
                .collect();
            let name = parts.pop()?;
            Some(node(ExprKind::Var(syntax::ast::QualName {
                quals: parts,
                name,
            })))
        }
        Size::Op(op, a, b) => {
            let a = size_expr(a)?;
            let b = size_expr(b)?;
            let op = syntax::ast::QualName {
                quals: Vec::new(),
                name: syntax::ast::Ident {
                    name: op.symbol().into(),
                    span,
                },
            };
            Some(node(ExprKind::BinOp(op, Box::new(a), Box::new(b))))
        }
        Size::Var(_) | Size::Any | Size::Exist(_) | Size::Hidden(_) => None,
    }
}

/// The type expression of a concrete type: one built from primitive types, arrays,
/// tuples, records and sum types only. Array sizes that are constants are written out,
/// others become anonymous sizes `[]`. `None` if the type contains a type variable, a
/// type parameter, an abstract type, a function type or an error.
pub fn type_exp(t: &crate::types::Ty) -> Option<syntax::ast::TypeExp> {
    use crate::types::{Size, Ty};
    use syntax::ast::{Ident, QualName, TypeExp, TypeExpKind};
    let span = syntax::ast::Span::default();
    let ident = |name: &syntax::ast::Name| Ident {
        name: name.clone(),
        span,
    };
    let kind = match t {
        Ty::Prim(p) => TypeExpKind::Var(
            QualName {
                quals: Vec::new(),
                name: ident(&p.name().into()),
            },
            Vec::new(),
        ),
        Ty::Array(elem, sizes) => {
            let mut out = type_exp(elem)?;
            for s in sizes.iter().rev() {
                let size = match s {
                    Size::Const(_) => size_expr(s).map(Box::new),
                    _ => None,
                };
                out = TypeExp {
                    kind: TypeExpKind::Array(size, Box::new(out)),
                    span,
                };
            }
            return Some(out);
        }
        Ty::Tuple(ts) => TypeExpKind::Tuple(ts.iter().map(type_exp).collect::<Option<_>>()?),
        Ty::Record(fs) => TypeExpKind::Record(
            fs.iter()
                .map(|(n, t)| Some((ident(n), type_exp(t)?)))
                .collect::<Option<_>>()?,
        ),
        Ty::Sum(cs) => TypeExpKind::Sum(
            cs.iter()
                .map(|(n, ts)| Some((ident(n), ts.iter().map(type_exp).collect::<Option<_>>()?)))
                .collect::<Option<_>>()?,
        ),
        Ty::Var(_) | Ty::Param(..) | Ty::Abs(..) | Ty::Arrow(_) | Ty::Error => return None,
    };
    Some(TypeExp { kind, span })
}
