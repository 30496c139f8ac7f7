//! A mutable visitor over the AST, used to number nodes and available to later stages.
//!
//! Override the `visit_*` methods you need and call the matching `walk_*` function to
//! continue into the children.

use crate::ast::*;

/// A mutable AST visitor. Every method's default walks into the children.
pub trait VisitorMut {
    fn visit_expr(&mut self, e: &mut Expr) {
        walk_expr(self, e)
    }
    fn visit_pat(&mut self, p: &mut Pat) {
        walk_pat(self, p)
    }
    fn visit_type(&mut self, t: &mut TypeExp) {
        walk_type(self, t)
    }
    fn visit_dec(&mut self, d: &mut Dec) {
        walk_dec(self, d)
    }
    fn visit_mod_exp(&mut self, m: &mut ModExp) {
        walk_mod_exp(self, m)
    }
    fn visit_sig_exp(&mut self, s: &mut SigExp) {
        walk_sig_exp(self, s)
    }
    fn visit_spec(&mut self, s: &mut Spec) {
        walk_spec(self, s)
    }
}

/// Visits every declaration of a file.
pub fn walk_file<V: VisitorMut + ?Sized>(v: &mut V, f: &mut File) {
    for d in &mut f.decs {
        v.visit_dec(d);
    }
}

fn walk_dims<V: VisitorMut + ?Sized>(v: &mut V, is: &mut [DimIndex]) {
    for i in is {
        match i {
            DimIndex::Fix(e) => v.visit_expr(e),
            DimIndex::Slice { start, end, stride } => {
                for e in [start, end, stride].into_iter().flatten() {
                    v.visit_expr(e);
                }
            }
        }
    }
}

fn walk_path<V: VisitorMut + ?Sized>(v: &mut V, path: &mut [PathStep]) {
    for step in path {
        if let PathStep::Index(is, _) = step {
            walk_dims(v, is);
        }
    }
}

fn walk_type_params<V: VisitorMut + ?Sized>(_v: &mut V, _ps: &mut [TypeParam]) {}

pub fn walk_expr<V: VisitorMut + ?Sized>(v: &mut V, e: &mut Expr) {
    match &mut e.kind {
        ExprKind::Literal(_)
        | ExprKind::Var(_)
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
        | ExprKind::Attr(_, x) => v.visit_expr(x),
        ExprKind::Tuple(xs) | ExprKind::ArrayLit(xs) => {
            for x in xs {
                v.visit_expr(x);
            }
        }
        ExprKind::Record(fs) => {
            for f in fs {
                if let RecordField::Explicit(_, x) = f {
                    v.visit_expr(x);
                }
            }
        }
        ExprKind::Range {
            start, second, end, ..
        } => {
            v.visit_expr(start);
            if let Some(s) = second {
                v.visit_expr(s);
            }
            v.visit_expr(end);
        }
        ExprKind::BinOp(_, a, b) | ExprKind::Assert(a, b) => {
            v.visit_expr(a);
            v.visit_expr(b);
        }
        ExprKind::IndexSection(is) => walk_dims(v, is),
        ExprKind::PathSection(path) => walk_path(v, path),
        ExprKind::Apply(f, args) => {
            v.visit_expr(f);
            for a in args {
                v.visit_expr(a);
            }
        }
        ExprKind::Constructor(_, args) => {
            for a in args {
                v.visit_expr(a);
            }
        }
        ExprKind::If(c, t, f) => {
            v.visit_expr(c);
            v.visit_expr(t);
            v.visit_expr(f);
        }
        ExprKind::Let {
            pat, value, body, ..
        } => {
            v.visit_pat(pat);
            v.visit_expr(value);
            v.visit_expr(body);
        }
        ExprKind::LetFun {
            type_params,
            params,
            ret,
            value,
            body,
            ..
        } => {
            walk_type_params(v, type_params);
            for p in params {
                v.visit_pat(p);
            }
            if let Some(t) = ret {
                v.visit_type(t);
            }
            v.visit_expr(value);
            v.visit_expr(body);
        }
        ExprKind::LetWith {
            indices,
            value,
            body,
            ..
        } => {
            walk_dims(v, indices);
            v.visit_expr(value);
            v.visit_expr(body);
        }
        ExprKind::Update {
            target,
            indices,
            value,
        } => {
            v.visit_expr(target);
            walk_dims(v, indices);
            v.visit_expr(value);
        }
        ExprKind::RecordUpdate { target, value, .. } => {
            v.visit_expr(target);
            v.visit_expr(value);
        }
        ExprKind::UpdatePath {
            target,
            path,
            value,
        } => {
            v.visit_expr(target);
            walk_path(v, path);
            v.visit_expr(value);
        }
        ExprKind::Lambda { params, ret, body } => {
            for p in params {
                v.visit_pat(p);
            }
            if let Some(t) = ret {
                v.visit_type(t);
            }
            v.visit_expr(body);
        }
        ExprKind::Loop {
            pat,
            init,
            form,
            body,
        } => {
            v.visit_pat(pat);
            if let Some(i) = init {
                v.visit_expr(i);
            }
            match form {
                LoopForm::For(_, n) => v.visit_expr(n),
                LoopForm::ForIn(p, xs) => {
                    v.visit_pat(p);
                    v.visit_expr(xs);
                }
                LoopForm::While(c) => v.visit_expr(c),
            }
            v.visit_expr(body);
        }
        ExprKind::Match(s, cases) => {
            v.visit_expr(s);
            for c in cases {
                v.visit_pat(&mut c.pat);
                v.visit_expr(&mut c.body);
            }
        }
        ExprKind::Ascribe(x, t) | ExprKind::Coerce(x, t) => {
            v.visit_expr(x);
            v.visit_type(t);
        }
        ExprKind::Index(x, is) => {
            v.visit_expr(x);
            walk_dims(v, is);
        }
    }
}

pub fn walk_pat<V: VisitorMut + ?Sized>(v: &mut V, p: &mut Pat) {
    match &mut p.kind {
        PatKind::Id(_) | PatKind::Wildcard | PatKind::Literal(_) => {}
        PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => {
            for p in ps {
                v.visit_pat(p);
            }
        }
        PatKind::Record(fs) => {
            for (_, p) in fs {
                v.visit_pat(p);
            }
        }
        PatKind::Ascribed(p, t) => {
            v.visit_pat(p);
            v.visit_type(t);
        }
        PatKind::Attr(_, p) => v.visit_pat(p),
    }
}

pub fn walk_type<V: VisitorMut + ?Sized>(v: &mut V, t: &mut TypeExp) {
    match &mut t.kind {
        TypeExpKind::Var(_, args) => {
            for a in args {
                match a {
                    TypeArg::Size(Some(e), _) => v.visit_expr(e),
                    TypeArg::Size(None, _) => {}
                    TypeArg::Type(t) => v.visit_type(t),
                }
            }
        }
        TypeExpKind::Tuple(ts) => {
            for t in ts {
                v.visit_type(t);
            }
        }
        TypeExpKind::Record(fs) => {
            for (_, t) in fs {
                v.visit_type(t);
            }
        }
        TypeExpKind::Array(s, t) => {
            if let Some(s) = s {
                v.visit_expr(s);
            }
            v.visit_type(t);
        }
        TypeExpKind::Sum(cs) => {
            for (_, ts) in cs {
                for t in ts {
                    v.visit_type(t);
                }
            }
        }
        TypeExpKind::Arrow(_, a, b) => {
            v.visit_type(a);
            v.visit_type(b);
        }
        TypeExpKind::Unique(t) | TypeExpKind::Existential(_, t) => v.visit_type(t),
    }
}

pub fn walk_dec<V: VisitorMut + ?Sized>(v: &mut V, d: &mut Dec) {
    match &mut d.kind {
        DecKind::Val(b) => {
            for p in &mut b.params {
                v.visit_pat(p);
            }
            if let Some(t) = &mut b.ret {
                v.visit_type(t);
            }
            v.visit_expr(&mut b.body);
        }
        DecKind::Type(b) => v.visit_type(&mut b.def),
        DecKind::Mod(b) => {
            for p in &mut b.params {
                v.visit_sig_exp(&mut p.sig);
            }
            if let Some(s) = &mut b.sig {
                v.visit_sig_exp(s);
            }
            v.visit_mod_exp(&mut b.body);
        }
        DecKind::Sig(b) => v.visit_sig_exp(&mut b.sig),
        DecKind::Open(m) => v.visit_mod_exp(m),
        DecKind::Local(d) => v.visit_dec(d),
        DecKind::Import(..) => {}
    }
}

pub fn walk_mod_exp<V: VisitorMut + ?Sized>(v: &mut V, m: &mut ModExp) {
    match &mut m.kind {
        ModExpKind::Var(_) | ModExpKind::Import(_) => {}
        ModExpKind::Parens(m) => v.visit_mod_exp(m),
        ModExpKind::Struct(ds) => {
            for d in ds {
                v.visit_dec(d);
            }
        }
        ModExpKind::Ascribe(m, s) => {
            v.visit_mod_exp(m);
            v.visit_sig_exp(s);
        }
        ModExpKind::Apply(f, a) => {
            v.visit_mod_exp(f);
            v.visit_mod_exp(a);
        }
        ModExpKind::Lambda(p, s, b) => {
            v.visit_sig_exp(&mut p.sig);
            if let Some(s) = s {
                v.visit_sig_exp(s);
            }
            v.visit_mod_exp(b);
        }
    }
}

pub fn walk_sig_exp<V: VisitorMut + ?Sized>(v: &mut V, s: &mut SigExp) {
    match &mut s.kind {
        SigExpKind::Var(_) => {}
        SigExpKind::Parens(s) => v.visit_sig_exp(s),
        SigExpKind::Specs(ss) => {
            for s in ss {
                v.visit_spec(s);
            }
        }
        SigExpKind::With(s, _, _, t) => {
            v.visit_sig_exp(s);
            v.visit_type(t);
        }
        SigExpKind::Arrow(_, a, b) => {
            v.visit_sig_exp(a);
            v.visit_sig_exp(b);
        }
    }
}

pub fn walk_spec<V: VisitorMut + ?Sized>(v: &mut V, s: &mut Spec) {
    match &mut s.kind {
        SpecKind::Val { ty, .. } => v.visit_type(ty),
        SpecKind::Type { def, .. } => {
            if let Some(t) = def {
                v.visit_type(t);
            }
        }
        SpecKind::Mod { sig, .. } => v.visit_sig_exp(sig),
        SpecKind::Include(s) => v.visit_sig_exp(s),
    }
}

/// Numbers every expression and pattern of a file in pre-order, from 0. Returns the
/// number of ids handed out.
pub fn number_nodes(file: &mut File) -> u32 {
    struct Numberer(u32);
    impl VisitorMut for Numberer {
        fn visit_expr(&mut self, e: &mut Expr) {
            e.id = NodeId(self.0);
            self.0 += 1;
            walk_expr(self, e);
        }
        fn visit_pat(&mut self, p: &mut Pat) {
            p.id = NodeId(self.0);
            self.0 += 1;
            walk_pat(self, p);
        }
    }
    let mut n = Numberer(0);
    walk_file(&mut n, file);
    n.0
}
