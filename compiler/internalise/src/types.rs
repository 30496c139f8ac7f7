//! Type expressions, as far as the internaliser needs them: the shape of
//! an empty array literal from its ascription, and type abbreviations
//! expanded so that the size names of a parameter's type can be bound.

use semantic::module_eval::{ModuleEval, module_path};
use syntax::ast::{self, TypeExpKind};

use crate::cx::Cx;
use std::collections::HashMap;
use std::rc::Rc;

use crate::env::{Env, ModVal, TypeDef};
use crate::error::{IResult, InternaliseError};
use crate::exprs::prim;
use crate::value::T;

/// Type and size arguments of an abbreviation being expanded.
#[derive(Default)]
struct Subst {
    types: HashMap<ast::Name, ast::TypeExp>,
    sizes: HashMap<ast::Name, Option<ast::SizeExp>>,
}

impl Subst {
    fn size(&self, s: &Option<Box<ast::SizeExp>>) -> Option<Box<ast::SizeExp>> {
        if let Some(e) = s
            && let ast::ExprKind::Var(q) = &e.kind
            && q.quals.is_empty()
            && let Some(arg) = self.sizes.get(&q.name.name)
        {
            return arg.clone().map(Box::new);
        }
        s.clone()
    }
}

impl Cx {
    /// `te` with its type abbreviations expanded (their size and type
    /// parameters replaced by the arguments), as far as they can be; a
    /// name that cannot be resolved is left as it is.
    pub(crate) fn expand_abbrevs(&self, te: &ast::TypeExp, env: &Env) -> ast::TypeExp {
        self.expand_with(te, env, &Subst::default(), 0)
    }

    fn expand_with(&self, te: &ast::TypeExp, env: &Env, sub: &Subst, depth: usize) -> ast::TypeExp {
        let mk = |kind| ast::TypeExp {
            kind,
            span: te.span,
        };
        let rec = |t: &ast::TypeExp| self.expand_with(t, env, sub, depth);
        match &te.kind {
            TypeExpKind::Var(q, args) => {
                if q.quals.is_empty()
                    && args.is_empty()
                    && let Some(t) = sub.types.get(&q.name.name)
                {
                    return t.clone();
                }
                if depth > 64 {
                    return te.clone();
                }
                let td = match module_path(q) {
                    None => env.type_def(&q.name.name),
                    Some(mq) => match self.resolve_module(&mq, env) {
                        Ok(ModVal::Struct(m)) => m.types.get(&q.name.name).cloned(),
                        _ => None,
                    },
                };
                let Some(td) = td else { return te.clone() };
                let Some(def) = &td.def else {
                    return te.clone();
                };
                let mut inner = Subst::default();
                for (p, a) in td.params.iter().zip(args) {
                    match (p, a) {
                        (ast::TypeParam::Type(n, _), ast::TypeArg::Type(t)) => {
                            inner.types.insert(n.name.clone(), rec(t));
                        }
                        (ast::TypeParam::Size(n), ast::TypeArg::Size(e, _)) => {
                            let e = sub.size(&e.clone().map(Box::new)).map(|b| *b);
                            inner.sizes.insert(n.name.clone(), e);
                        }
                        _ => {}
                    }
                }
                self.expand_with(def, &td.env, &inner, depth + 1)
            }
            TypeExpKind::Tuple(ts) => mk(TypeExpKind::Tuple(ts.iter().map(rec).collect())),
            TypeExpKind::Record(fs) => mk(TypeExpKind::Record(
                fs.iter().map(|(n, t)| (n.clone(), rec(t))).collect(),
            )),
            TypeExpKind::Array(size, elem) => {
                mk(TypeExpKind::Array(sub.size(size), Box::new(rec(elem))))
            }
            TypeExpKind::Unique(t) => mk(TypeExpKind::Unique(Box::new(rec(t)))),
            TypeExpKind::Existential(ns, t) => {
                mk(TypeExpKind::Existential(ns.clone(), Box::new(rec(t))))
            }
            TypeExpKind::Sum(_) | TypeExpKind::Arrow(..) => te.clone(),
        }
    }

    /// The shape a type expression denotes.
    pub(crate) fn type_template(&mut self, te: &ast::TypeExp, env: &Env) -> IResult<T> {
        let unsupported = || InternaliseError::unsupported("this type expression", te.span);
        match &te.kind {
            TypeExpKind::Var(q, args) => {
                if q.quals.is_empty()
                    && args.is_empty()
                    && let Some(p) = ast::PrimType::from_name(&q.name.name)
                    && env.type_def(&q.name.name).is_none()
                {
                    return Ok(T::Prim(prim(p)));
                }
                let td = match module_path(q) {
                    None => env.type_def(&q.name.name),
                    Some(mq) => match self.resolve_module(&mq, env)? {
                        ModVal::Struct(m) => m.types.get(&q.name.name).cloned(),
                        ModVal::Functor(_) => None,
                    },
                };
                let Some(td) = td else {
                    return match ast::PrimType::from_name(&q.name.name) {
                        Some(p) => Ok(T::Prim(prim(p))),
                        None => Err(unsupported()),
                    };
                };
                let Some(def) = &td.def else {
                    return Err(unsupported());
                };
                let (def, mut tenv) = (def.clone(), td.env.clone());
                // Type parameters denote the arguments, in the caller's
                // environment.
                for (p, a) in td.params.iter().zip(args) {
                    if let (ast::TypeParam::Type(n, _), ast::TypeArg::Type(t)) = (p, a) {
                        let arg = Rc::new(TypeDef {
                            params: Vec::new(),
                            def: Some(t.clone()),
                            env: env.clone(),
                        });
                        tenv = tenv.bind_type(n.name.clone(), arg);
                    }
                }
                self.type_template(&def, &tenv)
            }
            TypeExpKind::Tuple(ts) => Ok(T::Tuple(
                ts.iter()
                    .map(|t| self.type_template(t, env))
                    .collect::<IResult<_>>()?,
            )),
            TypeExpKind::Record(fs) => {
                let mut out: Vec<(ast::Name, T)> = fs
                    .iter()
                    .map(|(n, t)| Ok((n.name.clone(), self.type_template(t, env)?)))
                    .collect::<IResult<_>>()?;
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(T::Record(out))
            }
            TypeExpKind::Array(_, elem) => Ok(match self.type_template(elem, env)? {
                T::Arr(r, e) => T::Arr(r + 1, e),
                e => T::Arr(1, Box::new(e)),
            }),
            TypeExpKind::Unique(t) | TypeExpKind::Existential(_, t) => self.type_template(t, env),
            TypeExpKind::Sum(cs) => {
                let mut out: Vec<(ast::Name, Vec<T>)> = Vec::new();
                for (n, ts) in cs {
                    let ps = ts
                        .iter()
                        .map(|t| self.type_template(t, env))
                        .collect::<IResult<_>>()?;
                    out.push((n.name.clone(), ps));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(T::Sum(out))
            }
            TypeExpKind::Arrow(..) => Err(unsupported()),
        }
    }
}
