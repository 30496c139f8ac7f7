//! Tangents of array statements: the same operation applied to the
//! tangent arrays. Indexing reads the tangent array; an in-place update
//! writes the value's tangent into a fresh copy of the array's tangent;
//! `iota` and `scratch` have no tangent (their elements are constants or
//! written later). Over many seeds ([`crate::jmp`]) the tangents have one
//! more, innermost, dimension, which every rule leaves in place: only
//! `reshape` and `rearrange` name it.

use ir::{Exp, Operand, Stm};

use crate::ctx::{Ctx, R, differentiable};

impl Ctx<'_> {
    /// Emits an array statement and its tangent.
    pub fn array_stm(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let y = stm.pat.first().copied();
        let tan_exp = match &stm.exp {
            Exp::Index(arr, idx) => match self.tangent(&(*arr).into()) {
                Some(Operand::Var(t)) => Some(Exp::Index(t, idx.clone())),
                _ => None,
            },
            Exp::Update(arr, idx, v) => {
                let has = self.tangent(&(*arr).into()).is_some() || self.tangent(v).is_some();
                if has && differentiable(&self.ty(*arr)) {
                    // Prepared before the primal update consumes `arr`.
                    let Operand::Var(ta) = self.consumable_tan(out, *arr)? else {
                        return Err(
                            self.err("internal error: the tangent of an array is a constant")
                        );
                    };
                    let tv = self.tan_or_zero(out, v)?;
                    Some(Exp::Update(ta, idx.clone(), tv))
                } else {
                    None
                }
            }
            Exp::Replicate { shape, value } => self.tangent(value).map(|t| Exp::Replicate {
                shape: shape.clone(),
                value: t,
            }),
            Exp::Reshape { shape, arr } => self.tan_var(*arr).map(|t| {
                let mut shape = shape.clone();
                shape.extend(self.vec);
                Exp::Reshape { shape, arr: t }
            }),
            Exp::Rearrange { perm, arr } => self.tan_var(*arr).map(|t| {
                // Over many seeds the seed dimension stays innermost.
                let mut perm = perm.clone();
                if self.vec.is_some() {
                    perm.push(perm.len());
                }
                Exp::Rearrange { perm, arr: t }
            }),
            Exp::Copy(arr) => self.tan_var(*arr).map(Exp::Copy),
            Exp::Concat { dim, len, arrs } => {
                if arrs.iter().any(|a| self.tan_var(*a).is_some()) {
                    let mut ts = Vec::new();
                    for a in arrs {
                        match self.tan_var(*a) {
                            Some(t) => ts.push(t),
                            None => match self.zeros_like(out, *a)? {
                                Operand::Var(z) => ts.push(z),
                                Operand::Const(_) => {
                                    return Err(self.err("internal error: concat of scalars"));
                                }
                            },
                        }
                    }
                    Some(Exp::Concat {
                        dim: *dim,
                        len: *len,
                        arrs: ts,
                    })
                } else {
                    None
                }
            }
            _ => None,
        };
        out.push(stm.clone());
        if let (Some(e), Some(y)) = (tan_exp, y)
            && differentiable(&self.ty(y))
        {
            let name = format!("{}_tan", self.name(y));
            let t = self.bind(out, &name, e)?;
            self.tan.insert(y, t.into());
        }
        Ok(())
    }

    /// The tangent of array `v`, if it has one.
    fn tan_var(&self, v: ir::VarId) -> Option<ir::VarId> {
        self.tangent(&v.into()).and_then(|t| t.var())
    }
}
