//! The adjoint bookkeeping of the reverse-mode pass: accumulating
//! contributions into a variable's adjoint, elementwise addition of arrays,
//! sums over outer dimensions, adjoint scopes, and fresh copies of bodies
//! for re-execution.
//!
//! Inside the return sweep of a map, the adjoint of an array free in the
//! map is an accumulator (see [`crate::rev_soacs`]): a contribution to it
//! is an `update_acc`, at an index for a read of one element or row
//! ([`Ctx::update_acc_adj`]), of the whole array otherwise.

use std::collections::{HashMap, HashSet};

use ir::{BinOp, Body, Exp, Lambda, Operand, Param, ScanRed, Screma, Size, Stm, Type, VarId};

use crate::ctx::{Ctx, R, differentiable, konst};

/// The adjoint state of an enclosing scope, saved while a nested scope is
/// swept.
#[derive(Debug, Default)]
pub struct Saved {
    adj: HashMap<VarId, Operand>,
    owned: HashSet<VarId>,
}

impl Ctx<'_> {
    /// True when `o` is a variable whose values carry adjoints: of a
    /// differentiable type, and not bound outside the lambda of the `vjp`
    /// being expanded (such a variable does not depend on its parameters),
    /// and not marked inactive.
    pub fn active(&self, o: &Operand) -> bool {
        o.var().is_some_and(|v| {
            if self.inactive.contains(&v) {
                return false;
            }
            let outside = self
                .outside_vjp
                .as_ref()
                .is_some_and(|(n, inside)| v.as_u32() < *n as u32 && !inside.contains(&v));
            differentiable(&self.ty(v)) && !outside
        })
    }

    /// `s` as an `i64` operand.
    pub fn size_op(&self, s: &Size) -> R<Operand> {
        match s {
            Size::Const(n) => Ok(Operand::i64(*n)),
            Size::Var(v) => Ok(Operand::Var(*v)),
            Size::Any => Err(self.err("an adjoint of an array of statically unknown size")),
        }
    }

    /// Adds `c` to the adjoint of `o` (nothing for a constant or an
    /// inactive variable). `fresh` says that `c` is an array no other
    /// adjoint refers to.
    pub fn add_adj(&mut self, out: &mut Vec<Stm>, o: &Operand, c: Operand, fresh: bool) -> R<()> {
        let Some(v) = o.var() else {
            return Ok(());
        };
        if !self.active(o) {
            return Ok(());
        }
        if self.acc_adj(v).is_some() {
            if c.var().is_some_and(|cv| self.ty(cv).acc) {
                // An accumulator threaded through a construct replaces it.
                self.adj.insert(v, c);
                return Ok(());
            }
            return self.update_acc_adj(out, v, Vec::new(), c);
        }
        match self.adj.get(&v).copied() {
            None => {
                self.adj.insert(v, c);
                if fresh {
                    self.owned.insert(v);
                } else {
                    self.owned.remove(&v);
                }
            }
            Some(a) => {
                let t = self.ty(v);
                let s = self.add_values(out, &t, a, c)?;
                self.adj.insert(v, s);
                self.owned.insert(v);
            }
        }
        Ok(())
    }

    /// The accumulator holding the adjoint of `v` in the current scope, if
    /// it is one.
    pub fn acc_adj(&self, v: VarId) -> Option<VarId> {
        match self.adj.get(&v) {
            Some(Operand::Var(a)) if self.ty(*a).acc => Some(*a),
            _ => None,
        }
    }

    /// Adds `c` at index `idx` (a prefix of the dimensions; none for the
    /// whole array) to the adjoint of `x`, which is an accumulator: an
    /// `update_acc` whose result becomes the adjoint.
    pub fn update_acc_adj(
        &mut self,
        out: &mut Vec<Stm>,
        x: VarId,
        idx: Vec<Operand>,
        c: Operand,
    ) -> R<()> {
        let Some(acc) = self.acc_adj(x) else {
            return Err(self.err("internal error: an accumulator update of a dense adjoint"));
        };
        let name = format!("{}_adj", self.name(x));
        let a2 = self.fresh(&name, self.ty(acc));
        self.push(out, vec![a2], Exp::UpdateAcc { acc, idx, value: c });
        self.adj.insert(x, a2.into());
        self.owned.remove(&x);
        Ok(())
    }

    /// The adjoint of `v`, or zeros of its type.
    pub fn adj_or_zero(&mut self, out: &mut Vec<Stm>, v: VarId) -> R<Operand> {
        match self.adj.get(&v).copied() {
            Some(a) => Ok(a),
            None => self.zeros_like(out, v),
        }
    }

    /// The adjoint of `v` as an array that may be consumed: taken out of
    /// the map when it is owned, else a copy, else zeros.
    pub fn take_owned_adj(&mut self, out: &mut Vec<Stm>, v: VarId) -> R<Operand> {
        match self.adj.remove(&v) {
            Some(a) if self.owned.remove(&v) => Ok(a),
            Some(Operand::Var(a)) if !self.ty(a).shape.is_empty() => {
                Ok(self.bind(out, "adj_copy", Exp::Copy(a))?.into())
            }
            Some(a) => Ok(a),
            None => self.zeros_like(out, v),
        }
    }

    /// `a + b` for values of type `t`, elementwise for arrays.
    pub fn add_values(
        &mut self,
        out: &mut Vec<Stm>,
        t: &Type,
        a: Operand,
        b: Operand,
    ) -> R<Operand> {
        if t.shape.is_empty() {
            return self.bin(out, BinOp::Add, a, b);
        }
        let (Some(av), Some(bv)) = (a.var(), b.var()) else {
            return Err(self.err("internal error: an array adjoint that is a constant"));
        };
        let w = self.size_op(&t.shape[0])?;
        let row = Type::array(t.elem, t.shape[1..].to_vec());
        let lam = self.add_lambda(&row)?;
        let exp = Exp::Screma(Box::new(Screma {
            w,
            inputs: vec![av, bv],
            scans: Vec::new(),
            reduces: Vec::new(),
            map: lam,
        }));
        Ok(self.bind(out, "adj_sum", exp)?.into())
    }

    /// `\a b -> a + b` on values of type `t`.
    pub fn add_lambda(&mut self, t: &Type) -> R<Lambda> {
        let a = self.fresh("a", t.clone());
        let b = self.fresh("b", t.clone());
        let mut stms = Vec::new();
        let r = self.add_values(&mut stms, t, a.into(), b.into())?;
        Ok(Lambda {
            params: vec![Param::new(a), Param::new(b)],
            ret: vec![t.clone()],
            body: Body {
                stms,
                result: vec![r],
            },
        })
    }

    /// The sum of the rows of array `arr` (a reduction with `+`).
    pub fn sum_outer(&mut self, out: &mut Vec<Stm>, arr: VarId) -> R<Operand> {
        let t = self.ty(arr);
        let w = self.size_op(&t.shape[0])?;
        let row = Type::array(t.elem, t.shape[1..].to_vec());
        let op = self.add_lambda(&row)?;
        let zero = self.zeros_of(out, &row)?;
        let x = self.fresh("x", row.clone());
        let exp = Exp::Screma(Box::new(Screma {
            w,
            inputs: vec![arr],
            scans: Vec::new(),
            reduces: vec![ScanRed {
                op,
                neutral: vec![zero],
                commutative: true,
            }],
            map: Lambda {
                params: vec![Param::new(x)],
                ret: vec![row],
                body: Body {
                    stms: Vec::new(),
                    result: vec![x.into()],
                },
            },
        }));
        Ok(self.bind(out, "adj_red", exp)?.into())
    }

    /// Starts a nested adjoint scope with no adjoints.
    pub fn enter_scope(&mut self) -> Saved {
        Saved {
            adj: std::mem::take(&mut self.adj),
            owned: std::mem::take(&mut self.owned),
        }
    }

    /// Ends a nested scope, restoring the enclosing one.
    pub fn leave_scope(&mut self, saved: Saved) {
        self.adj = saved.adj;
        self.owned = saved.owned;
    }

    /// A copy of `lam` with every variable bound inside it fresh (see
    /// [`Ctx::rename`]), keeping its parameters' attributes and its return types.
    pub fn rename_lambda(&mut self, lam: &Lambda) -> Lambda {
        let pvars: Vec<VarId> = lam.params.iter().map(|p| p.var).collect();
        let (ps, body) = self.rename(&pvars, &lam.body);
        let mut params = lam.params.clone();
        for (p, v) in params.iter_mut().zip(ps) {
            p.var = v;
        }
        Lambda {
            params,
            ret: lam.ret.clone(),
            body,
        }
    }

    /// A copy of `params` and `body` in which every variable bound inside
    /// (parameters, patterns, nested parameters and loop indices) is
    /// replaced by a fresh one, so that the copy can be executed again in
    /// the same function. A copy of an inactive variable is inactive.
    pub fn rename(&mut self, params: &[VarId], body: &Body) -> (Vec<VarId>, Body) {
        let mut binds: HashSet<VarId> = params.iter().copied().collect();
        ir::uses::body_binds(body, &mut binds);
        let mut binds: Vec<VarId> = binds.into_iter().collect();
        binds.sort_by_key(|v| v.as_u32());
        let mut subst: HashMap<VarId, Operand> = HashMap::new();
        let mut fresh = Vec::new();
        for v in &binds {
            let name = self.name(*v);
            let nv = self.fresh(&name, self.ty(*v));
            if self.inactive.contains(v) {
                self.inactive.insert(nv);
            }
            subst.insert(*v, nv.into());
            fresh.push(nv);
        }
        for nv in fresh {
            let mut t = self.ty(nv);
            ir::walk::subst_type(&subst, &mut t);
            self.set_ty(nv, t);
        }
        let mut body = body.clone();
        ir::walk::walk_body_mut(&mut body, &mut |slot| match slot {
            ir::walk::Slot::Bind(v) => {
                if let Some(Operand::Var(n)) = subst.get(v) {
                    *v = *n;
                }
            }
            other => ir::walk::subst_slot(&subst, other),
        });
        let params = params
            .iter()
            .map(|p| subst.get(p).and_then(Operand::var).unwrap_or(*p))
            .collect();
        (params, body)
    }

    /// The zero of the element type of `t` for a scalar, or zeros of type
    /// `t`.
    pub fn zero_adj(&mut self, out: &mut Vec<Stm>, t: &Type) -> R<Operand> {
        if t.shape.is_empty() {
            Ok(konst(t.elem, 0.0))
        } else {
            self.zeros_of(out, t)
        }
    }
}
