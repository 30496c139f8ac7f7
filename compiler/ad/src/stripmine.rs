//! Strip-mining of `for` loops marked `#[stripmine(k)]`, before reverse
//! mode checkpoints them.
//!
//! Reverse mode saves a loop's parameters at every iteration: `n` rows for
//! a loop of `n` iterations. Split into `k` nested loops of `m` iterations
//! each, where `m` is the smallest integer with `mᵏ ≥ n`, each loop level
//! checkpoints only its own `m` iterations, and the return sweep of a level
//! re-executes the levels inside it one outer iteration at a time, so at
//! most `k·m ≈ k·n^(1/k)` rows are alive at once, for about `k` times the
//! forward work.
//!
//! `loop (x) = x0 for i < n do body` becomes, for `k = 2`,
//!
//! ```text
//! loop (x1) = (x0) for i1 < m do
//!   let b = i1·m
//!   loop (x) = (x1) for i2 < min(max(n - b, 0), m) do
//!     let i = b + i2 in body
//! ```
//!
//! The iteration number `i` is computed from the loop indices (with more
//! levels, `b` at level `l + 1` is `(b + i_l)·m`), and the innermost loop
//! runs the iterations left (none once all `n` have run), so the results
//! are exactly the loop's and the innermost body is the original body.
//! Nothing but the original parameters is carried, so nothing else is
//! checkpointed. An adjoint that reaches `i` (a body converting it to a
//! float) reaches `b` and `m` but stops there: `m` is computed through
//! `ceil`, whose derivative is zero, and `n` appears only in loop bounds.
//! The innermost loop keeps the loop's other attributes (`#[true_dep]`).

use std::collections::HashMap;

use ir::{
    Attr, BinOp, Body, CmpOp, Exp, LoopForm, MathFn, Operand, Param, PrimType, PrimValue, Stm,
    Type, VarId,
};

use crate::ctx::{Ctx, R};

/// The `k` of `#[stripmine(k)]` among `attrs`.
pub fn stripmine_attr(attrs: &[Attr]) -> Option<u32> {
    attrs.iter().find_map(|a| match a {
        Attr::Stripmine(k) => Some(*k),
        _ => None,
    })
}

/// One level of the loop nest: its parameters and index.
struct Level {
    params: Vec<Param>,
    index: VarId,
}

impl Ctx<'_> {
    /// Appends the `for` loop `stm` split into `k` nested loops (the loop
    /// itself, without its `stripmine` attribute, when `k < 2` or it has
    /// no parameters).
    pub fn stripmine(&mut self, out: &mut Vec<Stm>, stm: &Stm, k: u32) -> R<()> {
        let attrs: Vec<Attr> = stm
            .attrs
            .iter()
            .copied()
            .filter(|a| !matches!(a, Attr::Stripmine(_)))
            .collect();
        let Exp::Loop { params, form, body } = &stm.exp else {
            return Err(self.err("internal error: not a loop"));
        };
        let LoopForm::For { i, bound } = *form else {
            return Err(self.err("internal error: not a for loop"));
        };
        if k < 2 || params.is_empty() {
            out.push(Stm {
                attrs,
                ..stm.clone()
            });
            return Ok(());
        }
        if stm.pat.len() != params.len() || body.result.len() != params.len() {
            return Err(self.err("a loop that binds fewer results than it has parameters"));
        }
        let bt = self.op_ty(&bound).elem;
        let n64 = if bt == PrimType::I64 {
            bound
        } else {
            self.conv(out, PrimType::I64, bound)?
        };
        let n = self.bin(out, BinOp::Max, n64, Operand::i64(0))?;
        let m = self.ceil_root(out, n, k)?;

        // The levels, outermost first; the innermost keeps the original
        // parameters, which the body refers to.
        let k = k as usize;
        let mut levels = Vec::with_capacity(k);
        for l in 0..k {
            let ps: Vec<Param> = if l + 1 == k {
                params.iter().map(|(p, _)| *p).collect()
            } else {
                self.fresh_params(params)
            };
            levels.push(Level {
                params: ps,
                index: self.fresh("strip_i", Type::scalar(PrimType::I64)),
            });
        }
        // `base[l]`: the number of iterations before those of the current
        // loop at level `l` (`base[0]` = 0), a function of the indices of
        // the levels outside it: base[l + 1] = (base[l] + i_l)·m.
        let bases: Vec<VarId> = (0..k)
            .map(|_| self.fresh("strip_base", Type::scalar(PrimType::I64)))
            .collect();

        // The innermost body: the iteration number, then the original body.
        let mut stms = Vec::new();
        let t = self.bin(
            &mut stms,
            BinOp::Add,
            bases[k - 1].into(),
            levels[k - 1].index.into(),
        )?;
        let idx = if bt == PrimType::I64 {
            Exp::Atom(t)
        } else {
            Exp::Convert(ir::ConvKind::Convert, bt, t)
        };
        self.push(&mut stms, vec![i], idx);
        stms.extend(body.stms.iter().cloned());
        let mut nest = Body {
            stms,
            result: body.result.clone(),
        };

        // Wrap each level in the loop of the level inside it.
        for l in (0..k - 1).rev() {
            let (outer, inner) = (&levels[l], &levels[l + 1]);
            let vars: Vec<VarId> = outer.params.iter().map(|p| p.var).collect();
            let pat = self.fresh_like(&vars, "out");
            let lparams: Vec<(Param, Operand)> = inner
                .params
                .iter()
                .zip(&outer.params)
                .map(|(p, q)| (*p, q.var.into()))
                .collect();
            let mut stms = Vec::new();
            let before = if l == 0 {
                Operand::Var(outer.index)
            } else {
                self.bin(&mut stms, BinOp::Add, bases[l].into(), outer.index.into())?
            };
            self.push(
                &mut stms,
                vec![bases[l + 1]],
                Exp::BinOp(BinOp::Mul, before, m),
            );
            // The innermost loop runs the iterations left, at most m.
            let bound = if l + 2 == k {
                let left = self.bin(&mut stms, BinOp::Sub, n, bases[l + 1].into())?;
                let left = self.bin(&mut stms, BinOp::Max, left, Operand::i64(0))?;
                self.bin(&mut stms, BinOp::Min, left, m)?
            } else {
                m
            };
            let attrs = if l + 2 == k {
                attrs.clone()
            } else {
                Vec::new()
            };
            stms.push(Stm {
                pat: pat.clone(),
                exp: Exp::Loop {
                    params: lparams,
                    form: LoopForm::For {
                        i: inner.index,
                        bound,
                    },
                    body: nest,
                },
                attrs,
                span: stm.span,
            });
            nest = Body {
                stms,
                result: pat.into_iter().map(Operand::Var).collect(),
            };
        }

        let outer = &levels[0];
        let lparams: Vec<(Param, Operand)> = outer
            .params
            .iter()
            .zip(params)
            .map(|(p, (_, init))| (*p, *init))
            .collect();
        out.push(Stm {
            pat: stm.pat.clone(),
            exp: Exp::Loop {
                params: lparams,
                form: LoopForm::For {
                    i: outer.index,
                    bound: m,
                },
                body: nest,
            },
            attrs,
            span: stm.span,
        });
        Ok(())
    }

    /// Fresh parameters like `params`, their types referring to each other
    /// where the originals' do.
    fn fresh_params(&mut self, params: &[(Param, Operand)]) -> Vec<Param> {
        let vars: Vec<VarId> = params.iter().map(|(p, _)| p.var).collect();
        let fresh = self.fresh_like(&vars, "strip");
        params
            .iter()
            .zip(fresh)
            .map(|((p, _), var)| Param {
                var,
                unique: p.unique,
            })
            .collect()
    }

    /// Fresh variables named after `vars` with `suffix`, of their types,
    /// where a size naming one of `vars` names its fresh counterpart (the
    /// sizes of a loop's parameters and results may name each other).
    pub fn fresh_like(&mut self, vars: &[VarId], suffix: &str) -> Vec<VarId> {
        let fresh: Vec<VarId> = vars
            .iter()
            .map(|v| {
                let name = format!("{}_{suffix}", self.name(*v));
                self.fresh(&name, self.ty(*v))
            })
            .collect();
        let subst: HashMap<VarId, Operand> = vars
            .iter()
            .zip(&fresh)
            .map(|(v, f)| (*v, Operand::Var(*f)))
            .collect();
        for v in &fresh {
            let mut t = self.ty(*v);
            ir::walk::subst_type(&subst, &mut t);
            self.set_ty(*v, t);
        }
        fresh
    }

    /// The smallest `m ≥ 0` with `mᵏ ≥ n`, for `n ≥ 0`: `⌈n^(1/k)⌉` in
    /// floating point, corrected by one either way where rounding missed.
    fn ceil_root(&mut self, out: &mut Vec<Stm>, n: Operand, k: u32) -> R<Operand> {
        let nf = self.conv(out, PrimType::F64, n)?;
        let e = Operand::Const(PrimValue::F64(1.0 / f64::from(k)));
        let r = self.bin(out, BinOp::Pow, nf, e)?;
        let c = self.math(out, MathFn::Ceil, vec![r])?;
        let m0 = self.conv(out, PrimType::I64, c)?;
        // Up by one when m0ᵏ < n.
        let p0 = self.power(out, m0, k)?;
        let short = self.cmp(out, CmpOp::Lt, p0, n)?;
        let up = self.bin(out, BinOp::Add, m0, Operand::i64(1))?;
        let m1 = self.select(out, PrimType::I64, short, up, m0);
        // Down by one when (m1 - 1)ᵏ ≥ n with m1 > 0.
        let down = self.bin(out, BinOp::Sub, m1, Operand::i64(1))?;
        let pd = self.power(out, down, k)?;
        let enough = self.cmp(out, CmpOp::Ge, pd, n)?;
        let positive = self.cmp(out, CmpOp::Gt, m1, Operand::i64(0))?;
        let lower = self.bin(out, BinOp::And, enough, positive)?;
        Ok(self.select(out, PrimType::I64, lower, down, m1))
    }

    /// `xᵏ` by repeated multiplication (`k ≥ 1`).
    fn power(&mut self, out: &mut Vec<Stm>, x: Operand, k: u32) -> R<Operand> {
        let mut p = x;
        for _ in 1..k {
            p = self.bin(out, BinOp::Mul, p, x)?;
        }
        Ok(p)
    }
}
