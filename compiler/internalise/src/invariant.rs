//! Row sizes of a SOAC that do not depend on the iteration.
//!
//! A `map` (or `jvp`/`vjp`) whose lambda computes the sizes of its result
//! arrays returns them as extra `i64` results, and the SOAC's rows take the
//! first row's sizes, or 0 when there are no rows. That is wrong for an
//! empty `map` over calls to `g : [1]f64` or `f : [n]f64 -> [5 + n]f64`:
//! the rows have a size the interpreter knows without running a call.
//!
//! Two facts give such sizes without any extra work per call:
//!
//! - at a specialised call, the sizes of the callee's declared return type
//!   are recorded symbolically for the call's result sizes
//!   ([`Cx::declared_result_sizes`]); nothing is emitted at the call;
//! - before the SOAC, a lambda's result size that is integer arithmetic on
//!   constants and variables bound outside the lambda, through top-level
//!   `+`, `-`, `*`, such recorded call sizes, `if`s whose branches give
//!   the same such size (`if c then replicate k a else replicate k b`) and
//!   loop results the body passes on unchanged (the size of an array
//!   updated in place), is computed once ([`Cx::invariant_sizes`]) and used
//!   as the row size.
//!
//! A size that depends on the iteration keeps the first-row rule.

use std::collections::{HashMap, HashSet};

use ir::{BinOp, Exp, Lambda, Operand, PrimType, VarId};
use syntax::ast::{self, Expr, ExprKind, TypeExp, TypeExpKind};

use crate::cx::Cx;
use crate::env::Env;
use crate::error::IResult;
use crate::value::V;

/// How deep a chain of size arithmetic is followed.
const MAX_DEPTH: usize = 16;

/// A size expression of a declared return type, over operands of the
/// caller.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SizeExp {
    /// A constant or a variable of the caller.
    Op(Operand),
    /// `+`, `-` or `*` of two sizes.
    Bin(BinOp, Box<SizeExp>, Box<SizeExp>),
}

impl SizeExp {
    /// Does the expression name a variable of `vars`?
    pub(crate) fn mentions_any(&self, vars: &HashSet<VarId>) -> bool {
        match self {
            SizeExp::Op(Operand::Var(v)) => vars.contains(v),
            SizeExp::Op(Operand::Const(_)) => false,
            SizeExp::Bin(_, a, b) => a.mentions_any(vars) || b.mentions_any(vars),
        }
    }
}

impl Cx {
    /// Collects in `out`, for each array dimension of a call's result `v`
    /// that is a variable bound by the call (one of `bound`), the size that
    /// the callee's declared return type `te` gives it, in terms of the
    /// callee's parameters bound in `env` to the arguments. Only sizes
    /// made of literals, parameters and `+`, `-`, `*` are collected.
    pub(crate) fn declared_result_sizes(
        &self,
        v: &V,
        te: &TypeExp,
        env: &Env,
        bound: &[VarId],
        hidden: &mut Vec<ast::Name>,
        out: &mut HashMap<VarId, SizeExp>,
    ) {
        match (&te.kind, v) {
            (TypeExpKind::Unique(t), v) => {
                self.declared_result_sizes(v, t, env, bound, hidden, out)
            }
            (TypeExpKind::Existential(names, t), v) => {
                let n = hidden.len();
                hidden.extend(names.iter().map(|i| i.name.clone()));
                self.declared_result_sizes(v, t, env, bound, hidden, out);
                hidden.truncate(n);
            }
            (TypeExpKind::Tuple(ts), V::Tuple(vs)) if ts.len() == vs.len() => {
                for (t, x) in ts.iter().zip(vs) {
                    self.declared_result_sizes(x, t, env, bound, hidden, out);
                }
            }
            (TypeExpKind::Record(fs), V::Record(vs)) => {
                for (n, x) in vs {
                    if let Some((_, t)) = fs.iter().find(|(m, _)| m.name == *n) {
                        self.declared_result_sizes(x, t, env, bound, hidden, out);
                    }
                }
            }
            (TypeExpKind::Array(..), V::Arr(ds, _)) => {
                let mut t = te;
                let mut k = 0;
                while k < ds.len() {
                    match &t.kind {
                        TypeExpKind::Array(s, elem) => {
                            if let (Some(s), ir::Size::Var(d)) = (s.as_deref(), ds[k])
                                && bound.contains(&d)
                                && let Some(e) = self.declared_size(s, env, hidden)
                            {
                                out.insert(d, e);
                            }
                            k += 1;
                            t = elem;
                        }
                        TypeExpKind::Unique(inner) => t = inner,
                        _ => break,
                    }
                }
            }
            _ => {}
        }
    }

    /// The size expression `s` of a declared type over the operands that
    /// `env` binds its names to, when it is made of integer literals,
    /// names of `i64` values not hidden by an existential, and `+`, `-`,
    /// `*` (not redefined).
    fn declared_size(&self, s: &Expr, env: &Env, hidden: &[ast::Name]) -> Option<SizeExp> {
        match &s.kind {
            ExprKind::Literal(ast::Literal::Int { value, .. }) => {
                Some(SizeExp::Op(Operand::i64(i64::try_from(*value).ok()?)))
            }
            ExprKind::Var(q) if q.quals.is_empty() && !hidden.contains(&q.name.name) => {
                match env.val(&q.name.name)? {
                    V::Leaf(Operand::Var(v))
                        if self.fb.ty(v) == ir::Type::scalar(PrimType::I64) =>
                    {
                        Some(SizeExp::Op(Operand::Var(v)))
                    }
                    V::Leaf(Operand::Const(c)) => {
                        Some(SizeExp::Op(Operand::i64(i64::try_from(c.as_i128()?).ok()?)))
                    }
                    _ => None,
                }
            }
            ExprKind::Parens(x) => self.declared_size(x, env, hidden),
            ExprKind::BinOp(op, a, b)
                if op.quals.is_empty() && env.val(&op.name.name).is_none() =>
            {
                let op = match &*op.name.name {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    _ => return None,
                };
                let a = self.declared_size(a, env, hidden)?;
                let b = self.declared_size(b, env, hidden)?;
                Some(SizeExp::Bin(op, Box::new(a), Box::new(b)))
            }
            _ => None,
        }
    }

    /// Each result size of `vs` of `lam` computed before the SOAC over
    /// `lam`, when it does not depend on the iteration (see the module
    /// documentation); `None` otherwise, and nothing is emitted for it.
    pub(crate) fn invariant_sizes(
        &mut self,
        lam: &Lambda,
        vs: &[VarId],
    ) -> IResult<Vec<Option<Operand>>> {
        let mut bound = HashSet::new();
        ir::uses::body_binds(&lam.body, &mut bound);
        bound.extend(lam.params.iter().map(|p| p.var));
        let mut out = Vec::with_capacity(vs.len());
        for &v in vs {
            out.push(match self.size_in(lam, &bound, Operand::Var(v), 0) {
                Some(e) => Some(self.emit_size(&e)?),
                None => None,
            });
        }
        Ok(out)
    }

    /// `o` as a size expression over variables bound outside `lam`.
    fn size_in(
        &self,
        lam: &Lambda,
        bound: &HashSet<VarId>,
        o: Operand,
        depth: usize,
    ) -> Option<SizeExp> {
        let Operand::Var(v) = o else {
            return Some(SizeExp::Op(o));
        };
        if !bound.contains(&v) {
            return Some(SizeExp::Op(o));
        }
        if depth >= MAX_DEPTH {
            return None;
        }
        if let Some(e) = self.fb.declared_sizes.get(&v) {
            return self.subst_in(lam, bound, e, depth + 1);
        }
        let (def, k) = find_def(&lam.body, v)?;
        match &def.exp {
            Exp::BinOp(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b) if k == 0 => {
                Some(SizeExp::Bin(
                    *op,
                    Box::new(self.size_in(lam, bound, *a, depth + 1)?),
                    Box::new(self.size_in(lam, bound, *b, depth + 1)?),
                ))
            }
            Exp::Atom(a) if k == 0 => self.size_in(lam, bound, *a, depth + 1),
            // A result of an `if` whose branches give it the same size.
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                let t = self.size_in(lam, bound, *then_body.result.get(k)?, depth + 1)?;
                let f = self.size_in(lam, bound, *else_body.result.get(k)?, depth + 1)?;
                (t == f).then_some(t)
            }
            // A loop result that the body passes on unchanged (a size
            // parameter of an array updated in place): its initial value.
            Exp::Loop { params, body, .. } => {
                let (param, init) = params.get(k)?;
                if *body.result.get(k)? != Operand::Var(param.var) {
                    return None;
                }
                self.size_in(lam, bound, *init, depth + 1)
            }
            _ => None,
        }
    }

    /// A recorded size expression with its variables bound inside `lam`
    /// replaced by their expressions over variables outside it.
    fn subst_in(
        &self,
        lam: &Lambda,
        bound: &HashSet<VarId>,
        e: &SizeExp,
        depth: usize,
    ) -> Option<SizeExp> {
        match e {
            SizeExp::Op(o) => self.size_in(lam, bound, *o, depth),
            SizeExp::Bin(op, a, b) => Some(SizeExp::Bin(
                *op,
                Box::new(self.subst_in(lam, bound, a, depth)?),
                Box::new(self.subst_in(lam, bound, b, depth)?),
            )),
        }
    }

    /// Emits the statements computing `e`.
    fn emit_size(&mut self, e: &SizeExp) -> IResult<Operand> {
        match e {
            SizeExp::Op(o) => Ok(*o),
            SizeExp::Bin(op, a, b) => {
                let a = self.emit_size(a)?;
                let b = self.emit_size(b)?;
                self.fb.scalar("d", Exp::BinOp(*op, a, b))
            }
        }
    }
}

/// The statement of `body` (or of a body nested in it) that binds `v`, with
/// the position of `v` in its pattern.
fn find_def(body: &ir::Body, v: VarId) -> Option<(&ir::Stm, usize)> {
    body.stms.iter().find_map(|s| {
        if let Some(k) = s.pat.iter().position(|&p| p == v) {
            return Some((s, k));
        }
        ir::uses::nested_bodies(&s.exp)
            .into_iter()
            .find_map(|(_, b)| find_def(b, v))
    })
}
