//! Adjoints through array operations.
//!
//! - `y = x[idx]`: `x̄[idx] += ȳ`, an in-place update of `x`'s adjoint
//!   (zeros if it had none, copied if it is shared).
//! - `y = x with [idx] = v`: `v̄ += ȳ[idx]` and `x̄ += ȳ with [idx] = 0`.
//! - `replicate`: the adjoint summed over the replicated dimensions;
//!   `reshape` and `rearrange`: the adjoint reshaped back (passed on as it
//!   is when the reshape only fixes statically unknown sizes) or permuted by the
//!   inverse permutation; `concat`: the slices of the adjoint; `copy`: the
//!   adjoint itself.

use ir::{BinOp, DimIndex, Exp, Operand, Size, Stm, VarId};

use crate::ctx::{Ctx, R};

impl Ctx<'_> {
    /// The adjoint of array variable `y`, which must have one.
    fn adj_var(&self, y: VarId) -> R<VarId> {
        self.adj
            .get(&y)
            .and_then(Operand::var)
            .ok_or_else(|| self.err("internal error: an array without an adjoint variable"))
    }

    /// Propagates adjoints through an array statement.
    pub fn rev_array(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let y = stm.pat[0];
        match &stm.exp {
            Exp::Index(x, idx) => {
                if !self.active(&(*x).into()) {
                    return Ok(());
                }
                let a = self.adj[&y];
                let ty = self.ty(y);
                let Operand::Var(ax) = self.take_owned_adj(out, *x)? else {
                    return Err(self.err("internal error: a scalar adjoint of an array"));
                };
                let old = self.bind(out, "adj_old", Exp::Index(ax, idx.clone()))?;
                let new = self.add_values(out, &ty, old.into(), a)?;
                let ax2 = self.bind(out, "adj_upd", Exp::Update(ax, idx.clone(), new))?;
                self.adj.insert(*x, ax2.into());
                self.owned.insert(*x);
                Ok(())
            }
            Exp::Update(x, idx, v) => {
                let a = self.adj_var(y)?;
                if self.active(v) {
                    let av = self.bind(out, "adj_val", Exp::Index(a, idx.clone()))?;
                    let av = if self.ty(av).shape.is_empty() {
                        av
                    } else {
                        self.bind(out, "adj_val", Exp::Copy(av))?
                    };
                    self.add_adj(out, v, av.into(), true)?;
                }
                if self.active(&(*x).into()) {
                    let Operand::Var(ay) = self.take_owned_adj(out, y)? else {
                        return Err(self.err("internal error: a scalar adjoint of an array"));
                    };
                    let vt = self.op_ty(v);
                    let z = self.zero_adj(out, &vt)?;
                    let ax = self.bind(out, "adj_upd", Exp::Update(ay, idx.clone(), z))?;
                    self.add_adj(out, &(*x).into(), ax.into(), true)?;
                }
                Ok(())
            }
            Exp::Replicate { shape, value } => {
                if !self.active(value) {
                    return Ok(());
                }
                let mut a = self.adj[&y];
                for _ in shape {
                    let Some(av) = a.var() else {
                        return Err(self.err("internal error: a scalar adjoint of an array"));
                    };
                    a = self.sum_outer(out, av)?;
                }
                self.add_adj(out, value, a, true)
            }
            Exp::Reshape { arr, .. } => {
                let a = self.adj_var(y)?;
                let shape = self.ty(*arr).shape;
                if shape.contains(&Size::Any) {
                    // A size coercion of an array whose size is not known
                    // statically (a map returning existentially sized
                    // rows): same rank, so the adjoint has its shape.
                    if shape.len() != self.ty(a).shape.len() {
                        return Err(self.err(
                            "a reshape to another rank of an array of statically unknown size, \
                             inside vjp",
                        ));
                    }
                    let owned = self.owned.contains(&y);
                    return self.add_adj(out, &(*arr).into(), a.into(), owned);
                }
                let c = self.bind(out, "adj_reshape", Exp::Reshape { shape, arr: a })?;
                self.add_adj(out, &(*arr).into(), c.into(), false)
            }
            Exp::Rearrange { perm, arr } => {
                let a = self.adj_var(y)?;
                let mut inv = vec![0; perm.len()];
                for (i, p) in perm.iter().enumerate() {
                    if let Some(slot) = inv.get_mut(*p) {
                        *slot = i;
                    }
                }
                let c = self.bind(out, "adj_perm", Exp::Rearrange { perm: inv, arr: a })?;
                self.add_adj(out, &(*arr).into(), c.into(), false)
            }
            Exp::Concat { dim, arrs, .. } => {
                let a = self.adj_var(y)?;
                let at = self.ty(a);
                let mut offset = Operand::i64(0);
                for arr in arrs {
                    let len = self.size_op(&self.ty(*arr).shape[*dim])?;
                    let mut idx = Vec::new();
                    for d in 0..*dim {
                        idx.push(DimIndex::Range {
                            start: Operand::i64(0),
                            len: self.size_op(&at.shape[d])?,
                            stride: Operand::i64(1),
                        });
                    }
                    idx.push(DimIndex::Range {
                        start: offset,
                        len,
                        stride: Operand::i64(1),
                    });
                    let c = self.bind(out, "adj_part", Exp::Index(a, idx))?;
                    self.add_adj(out, &(*arr).into(), c.into(), false)?;
                    offset = self.bin(out, BinOp::Add, offset, len)?;
                }
                Ok(())
            }
            Exp::Copy(x) => {
                let a = self.adj[&y];
                let owned = self.owned.contains(&y);
                self.add_adj(out, &(*x).into(), a, owned)
            }
            _ => Err(self.err("internal error: not an array statement")),
        }
    }
}
