//! Size parameters that only a compound size names: `[n * m]` with `m` known
//! from another argument, `[2 ** k]`. They cannot be read off a dimension, so
//! they are computed from it once the other sizes of the call are bound
//! (`n = d / m`, `k = 63 - clz d`). Where no value fits, the nearest one below
//! is taken, as the reference interpreter does, and its size checks report it.

use ir::{BinOp, ConvKind, Exp, MathFn, Operand, PrimType};
use syntax::ast::{self, ExprKind, Name};

use crate::cx::Cx;
use crate::env::Env;
use crate::error::IResult;
use crate::patterns::Sizes;
use crate::value::V;

impl Cx {
    /// Binds in `sz` every size parameter that a compound size recorded by
    /// [`Sizes::bind_from_type`] determines, one at a time.
    pub(crate) fn solve_sizes(&mut self, sz: &mut Sizes, env: &Env) -> IResult<()> {
        loop {
            let pending = sz.deferred.clone();
            let mut progress = false;
            for (e, dim) in &pending {
                let env = sz.bind_all(env.clone());
                if let Some((n, v)) = self.solve_size(e, *dim, sz, &env)? {
                    sz.bind(n, V::Leaf(v));
                    progress = true;
                    break;
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// The value of the one unbound size parameter of `e` that makes `e` equal
    /// `actual`, or `None` when `e` is not built from it with `+`, `-`, `*` and
    /// `2 **` and operands that can be computed.
    fn solve_size(
        &mut self,
        e: &ast::Expr,
        actual: Operand,
        sz: &Sizes,
        env: &Env,
    ) -> IResult<Option<(Name, Operand)>> {
        match &e.kind {
            ExprKind::Parens(x) => self.solve_size(x, actual, sz, env),
            ExprKind::Var(q) if q.quals.is_empty() => {
                let n = &q.name.name;
                Ok((sz.may_bind(n) && !sz.is_bound(n)).then(|| (n.clone(), actual)))
            }
            ExprKind::BinOp(op, a, b) if op.quals.is_empty() => {
                let op = &*op.name.name;
                if let Some(x) = self.known_size(a, sz, env) {
                    let target = match op {
                        "+" => self.binop(BinOp::Sub, actual, x)?,
                        "-" => self.binop(BinOp::Sub, x, actual)?,
                        "*" => self.binop(BinOp::Div, actual, x)?,
                        "**" if matches!(x, Operand::Const(c) if c.as_i128() == Some(2)) => {
                            let lz = self.fb.scalar("lz", Exp::Math(MathFn::Clz, vec![actual]))?;
                            let lz = self.fb.scalar(
                                "lz64",
                                Exp::Convert(ConvKind::Convert, PrimType::I64, lz),
                            )?;
                            self.binop(BinOp::Sub, Operand::i64(63), lz)?
                        }
                        _ => return Ok(None),
                    };
                    self.solve_size(b, target, sz, env)
                } else if let Some(y) = self.known_size(b, sz, env) {
                    let target = match op {
                        "+" => self.binop(BinOp::Sub, actual, y)?,
                        "-" => self.binop(BinOp::Add, actual, y)?,
                        "*" => self.binop(BinOp::Div, actual, y)?,
                        _ => return Ok(None),
                    };
                    self.solve_size(a, target, sz, env)
                } else {
                    Ok(None)
                }
            }
            _ => Ok(None),
        }
    }

    /// The value of a size expression whose names are all bound, if any.
    fn known_size(&mut self, e: &ast::Expr, sz: &Sizes, env: &Env) -> Option<Operand> {
        if mentions_unbound(e, sz) {
            return None;
        }
        match self.expr(e, env) {
            Ok(V::Leaf(o)) => Some(o),
            _ => None,
        }
    }
}

/// Whether `e` names a size parameter not bound yet.
fn mentions_unbound(e: &ast::Expr, sz: &Sizes) -> bool {
    match &e.kind {
        ExprKind::Var(q) if q.quals.is_empty() => {
            sz.may_bind(&q.name.name) && !sz.is_bound(&q.name.name)
        }
        ExprKind::Parens(x) => mentions_unbound(x, sz),
        ExprKind::BinOp(_, a, b) => mentions_unbound(a, sz) || mentions_unbound(b, sz),
        _ => false,
    }
}
