//! Patterns: binding the parts of a static value to names, binding size
//! names from the dimensions of ascribed array types, and the tests of
//! refutable patterns in `match`.

use ir::{BinOp, CmpOp, Exp, Operand, PrimValue};
use syntax::ast::{self, Name, PatKind, TypeExpKind};

use crate::cx::Cx;
use crate::env::Env;
use crate::error::{IResult, InternaliseError};
use crate::exprs::{field, literal_const};
use crate::value::{V, size_operand};

/// Size names that a pattern may bind, and those bound so far.
pub(crate) struct Sizes {
    names: Vec<Name>,
    bound: Vec<(Name, V)>,
    /// Compound sizes (`[n * m]`) met with the dimension they stand for, from
    /// which a size parameter only they name is computed (see
    /// [`Cx::solve_sizes`]).
    pub deferred: Vec<(ast::Expr, ir::Operand)>,
}

impl Sizes {
    pub fn new(names: Vec<Name>) -> Sizes {
        Sizes {
            names,
            bound: Vec::new(),
            deferred: Vec::new(),
        }
    }

    /// Is `n` a size name these patterns may bind?
    pub fn may_bind(&self, n: &str) -> bool {
        self.names.iter().any(|m| &**m == n)
    }

    pub fn is_bound(&self, n: &str) -> bool {
        self.bound.iter().any(|(m, _)| &**m == n)
    }

    pub fn bind(&mut self, n: Name, v: V) {
        if !self.is_bound(&n) {
            self.bound.push((n, v));
        }
    }

    /// Binds every size found into `env`.
    pub fn bind_all(&self, env: Env) -> Env {
        let mut env = env;
        for (n, v) in &self.bound {
            env = env.bind(n.clone(), v.clone());
        }
        env
    }

    /// Binds size names of `te` from the dimensions of `v`.
    pub fn bind_from_type(&mut self, te: &ast::TypeExp, v: &V) {
        match (&te.kind, v) {
            (TypeExpKind::Unique(t), _) => self.bind_from_type(t, v),
            (TypeExpKind::Tuple(ts), V::Tuple(vs)) => {
                for (t, v) in ts.iter().zip(vs) {
                    self.bind_from_type(t, v);
                }
            }
            (TypeExpKind::Record(fs), V::Record(_)) => {
                for (n, t) in fs {
                    if let Some(fv) = field(v.clone(), &n.name) {
                        self.bind_from_type(t, &fv);
                    }
                }
            }
            (TypeExpKind::Array(size, elem), V::Arr(ds, e)) => {
                if let Some(s) = size
                    && let ast::ExprKind::Var(q) = &s.kind
                    && q.quals.is_empty()
                    && self.names.contains(&q.name.name)
                {
                    self.bind(q.name.name.clone(), V::Leaf(size_operand(ds[0])));
                } else if let Some(s) = size
                    && matches!(s.kind, ast::ExprKind::BinOp(..))
                {
                    self.deferred.push(((**s).clone(), size_operand(ds[0])));
                }
                let rest = if ds.len() > 1 {
                    V::Arr(ds[1..].to_vec(), e.clone())
                } else {
                    (**e).clone()
                };
                self.bind_from_type(elem, &rest);
            }
            _ => {}
        }
    }
}

impl Cx {
    /// Binds an irrefutable pattern.
    pub(crate) fn bind_pat(
        &mut self,
        pat: &ast::Pat,
        v: V,
        env: Env,
        sizes: &mut Sizes,
    ) -> IResult<Env> {
        match &pat.kind {
            PatKind::Id(i) => Ok(env.bind(i.name.clone(), v)),
            PatKind::Wildcard | PatKind::Literal(_) => Ok(env),
            PatKind::Tuple(ps) => {
                if ps.is_empty() {
                    return Ok(env);
                }
                let V::Tuple(vs) = v else {
                    return Err(InternaliseError::at(
                        "a tuple pattern on a non-tuple",
                        pat.span,
                    ));
                };
                let mut env = env;
                for (p, x) in ps.iter().zip(vs) {
                    env = self.bind_pat(p, x, env, sizes)?;
                }
                Ok(env)
            }
            PatKind::Record(fs) => {
                let mut env = env;
                for (n, p) in fs {
                    let x = field(v.clone(), &n.name).ok_or_else(|| {
                        InternaliseError::at(format!("no field {}", n.name), n.span)
                    })?;
                    env = self.bind_pat(p, x, env, sizes)?;
                }
                Ok(env)
            }
            PatKind::Ascribed(p, te) => {
                let te = self.expand_abbrevs(te, &env);
                sizes.bind_from_type(&te, &v);
                self.bind_pat(p, v, env, sizes)
            }
            PatKind::Attr(_, p) => self.bind_pat(p, v, env, sizes),
            PatKind::Constructor(n, ps) => {
                let payload = match &v {
                    V::Sum(_, cs) => cs.iter().find(|(m, _)| *m == n.name).map(|c| c.1.clone()),
                    _ => None,
                };
                let payload = payload.ok_or_else(|| {
                    InternaliseError::at(
                        format!("the value cannot have the constructor #{}", n.name),
                        pat.span,
                    )
                })?;
                let mut env = env;
                for (p, x) in ps.iter().zip(payload) {
                    env = self.bind_pat(p, x, env, sizes)?;
                }
                Ok(env)
            }
        }
    }

    /// The condition under which `v` matches `pat`.
    pub(crate) fn pat_test(&mut self, pat: &ast::Pat, v: &V) -> IResult<Operand> {
        let yes = Operand::Const(PrimValue::Bool(true));
        match &pat.kind {
            PatKind::Id(_) | PatKind::Wildcard => Ok(yes),
            PatKind::Literal(l) => {
                let c = literal_const(l, pat.span)?;
                let x = v.scalar().ok_or_else(|| {
                    InternaliseError::at("a literal pattern on a non-scalar", pat.span)
                })?;
                self.fb
                    .scalar("m", Exp::Cmp(CmpOp::Eq, x, Operand::Const(c)))
            }
            PatKind::Tuple(ps) => {
                let V::Tuple(vs) = v else {
                    return Ok(yes);
                };
                let mut acc = yes;
                for (p, x) in ps.iter().zip(vs) {
                    let c = self.pat_test(p, x)?;
                    if c != yes {
                        acc = self.fb.scalar("m", Exp::BinOp(BinOp::And, acc, c))?;
                    }
                }
                Ok(acc)
            }
            PatKind::Record(fs) => {
                let mut acc = yes;
                for (n, p) in fs {
                    if let Some(x) = field(v.clone(), &n.name) {
                        let c = self.pat_test(p, &x)?;
                        if c != yes {
                            acc = self.fb.scalar("m", Exp::BinOp(BinOp::And, acc, c))?;
                        }
                    }
                }
                Ok(acc)
            }
            PatKind::Ascribed(p, _) | PatKind::Attr(_, p) => self.pat_test(p, v),
            PatKind::Constructor(n, ps) => {
                let Some((mut acc, payload)) = self.ctor_parts(v, &n.name, pat.span)? else {
                    return Ok(Operand::Const(PrimValue::Bool(false)));
                };
                for (p, x) in ps.iter().zip(&payload) {
                    let c = self.pat_test(p, x)?;
                    if c != yes {
                        acc = if acc == yes {
                            c
                        } else {
                            self.fb.scalar("m", Exp::BinOp(BinOp::And, acc, c))?
                        };
                    }
                }
                Ok(acc)
            }
        }
    }
}
