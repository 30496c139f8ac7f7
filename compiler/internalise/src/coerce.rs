//! Size coercions and size-annotated ascriptions: `e :> [n]t` and
//! `e : [n]t`.
//!
//! Each array dimension that the type expression names by a size
//! expression whose names are in scope is compared with the value's
//! dimension at run time (an IR assertion with the source span and a
//! message beginning `Size mismatch`, the reference interpreter's
//! phrase), and the value's arrays are reshaped to the named sizes, so
//! that later statements see the sizes the type promises. Anonymous sizes
//! (`[]t`) and sizes bound by an existential (`?[k].[k]t`) are not checked.

use ir::{CmpOp, Exp, Operand, PrimType};
use syntax::ast::{self, Expr, ExprKind, Name, TypeExp, TypeExpKind};

use crate::cx::Cx;
use crate::env::Env;
use crate::error::IResult;
use crate::value::{V, size_operand};

impl Cx {
    /// Checks the sizes of `v` against the type expression `te` and gives
    /// `v` with the sizes `te` names.
    pub(crate) fn coerce(
        &mut self,
        v: V,
        te: &TypeExp,
        env: &Env,
        what: &Expr,
        span: syntax::Span,
    ) -> IResult<V> {
        let mut hidden = Vec::new();
        self.coerce_in(v, te, env, &mut hidden, what, span)
    }

    fn coerce_in(
        &mut self,
        v: V,
        te: &TypeExp,
        env: &Env,
        hidden: &mut Vec<Name>,
        what: &Expr,
        span: syntax::Span,
    ) -> IResult<V> {
        match (&te.kind, v) {
            (TypeExpKind::Unique(t), v) => self.coerce_in(v, t, env, hidden, what, span),
            (TypeExpKind::Existential(names, t), v) => {
                let n = hidden.len();
                hidden.extend(names.iter().map(|i| i.name.clone()));
                let r = self.coerce_in(v, t, env, hidden, what, span);
                hidden.truncate(n);
                r
            }
            (TypeExpKind::Tuple(ts), V::Tuple(vs)) if ts.len() == vs.len() => {
                let mut out = Vec::new();
                for (t, x) in ts.iter().zip(vs) {
                    out.push(self.coerce_in(x, t, env, hidden, what, span)?);
                }
                Ok(V::Tuple(out))
            }
            (TypeExpKind::Record(fs), V::Record(vs)) => {
                let mut out = Vec::new();
                for (n, x) in vs {
                    let x = match fs.iter().find(|(m, _)| m.name == n) {
                        Some((_, t)) => self.coerce_in(x, t, env, hidden, what, span)?,
                        None => x,
                    };
                    out.push((n, x));
                }
                Ok(V::Record(out))
            }
            (TypeExpKind::Array(..), V::Arr(ds, e)) => {
                // The size expressions of the array's dimensions.
                let mut sizes = Vec::new();
                let mut t = te;
                while sizes.len() < ds.len() {
                    match &t.kind {
                        TypeExpKind::Array(s, elem) => {
                            sizes.push(s.as_deref());
                            t = elem;
                        }
                        TypeExpKind::Unique(inner) => t = inner,
                        _ => break,
                    }
                }
                let mut new = ds.clone();
                for (k, s) in sizes.iter().enumerate() {
                    let Some(s) = s else { continue };
                    let Some(o) = self.size_value(s, env, hidden) else {
                        continue;
                    };
                    let old = size_operand(ds[k]);
                    if o == old {
                        continue;
                    }
                    if let (Operand::Const(a), Operand::Const(b)) = (o, old)
                        && a.as_i128() == b.as_i128()
                    {
                        continue;
                    }
                    let cond = self.fb.scalar("size_ok", Exp::Cmp(CmpOp::Eq, old, o))?;
                    let msg = format!(
                        "Size mismatch: the value of `{}` does not have the size `{}` of `{}`.",
                        self.span_text(what.span),
                        self.span_text(s.span),
                        self.span_text(te.span)
                    );
                    let saved = std::mem::replace(&mut self.fb.span, crate::error::ir_span(span));
                    self.fb.push(
                        Vec::new(),
                        Exp::Assert {
                            cond,
                            msg,
                            args: Vec::new(),
                        },
                    );
                    self.fb.span = saved;
                    new[k] = o.to_size();
                }
                if new == ds {
                    return Ok(V::Arr(ds, e));
                }
                let mut leaves = Vec::new();
                for l in e.leaf_list() {
                    leaves.push(match l {
                        Operand::Var(a) => {
                            let ty = self.fb.ty(a);
                            let mut shape = new.clone();
                            shape.extend_from_slice(ty.shape.get(new.len()..).unwrap_or(&[]));
                            Operand::Var(self.fb.bind1("coerce", Exp::Reshape { shape, arr: a })?)
                        }
                        o => o,
                    });
                }
                Ok(V::Arr(
                    new,
                    Box::new(e.with_leaves(&mut leaves.into_iter())),
                ))
            }
            (_, v) => Ok(v),
        }
    }

    /// The `i64` value of a size expression, when every name in it is in
    /// scope and none is hidden by an existential.
    fn size_value(&mut self, s: &Expr, env: &Env, hidden: &[Name]) -> Option<Operand> {
        if !simple_size(s, env, hidden) {
            return None;
        }
        let o = self.scalar(s, env).ok()?;
        match o {
            Operand::Const(c) => Some(Operand::i64(i64::try_from(c.as_i128()?).ok()?)),
            Operand::Var(v) if self.fb.ty(v) == ir::Type::scalar(PrimType::I64) => Some(o),
            Operand::Var(_) => None,
        }
    }

    /// The source text at a span.
    pub(crate) fn span_text(&self, span: syntax::Span) -> String {
        self.sources
            .get(&span.file)
            .and_then(|s| s.get(span.start as usize..span.end as usize))
            .map(str::to_string)
            .unwrap_or_else(|| "?".to_string())
    }
}

/// Is `s` built from integer literals and names bound in `env` (and not
/// hidden) with `+`, `-`, `*` and applications of functions bound in `env`?
fn simple_size(s: &Expr, env: &Env, hidden: &[Name]) -> bool {
    match &s.kind {
        ExprKind::Literal(ast::Literal::Int { .. }) => true,
        ExprKind::Var(q) => {
            q.quals.is_empty()
                && !hidden.contains(&q.name.name)
                && matches!(env.val(&q.name.name), Some(V::Leaf(_)))
        }
        ExprKind::Parens(x) => simple_size(x, env, hidden),
        // A function in scope applied to sizes or to names in scope:
        // `length a`, `g n`.
        ExprKind::Apply(f, args) => {
            let bound = |x: &Expr| match &x.kind {
                ExprKind::Var(q) => {
                    q.quals.is_empty()
                        && !hidden.contains(&q.name.name)
                        && env.val(&q.name.name).is_some()
                }
                _ => false,
            };
            bound(f) && args.iter().all(|a| bound(a) || simple_size(a, env, hidden))
        }
        ExprKind::BinOp(op, a, b) => {
            op.quals.is_empty()
                && matches!(&*op.name.name, "+" | "-" | "*")
                && env.val(&op.name.name).is_none()
                && simple_size(a, env, hidden)
                && simple_size(b, env, hidden)
        }
        _ => false,
    }
}
