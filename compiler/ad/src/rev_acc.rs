//! Return-sweep rules for statements that touch an adjoint held as an
//! accumulator (an array free in a map whose return sweep is being built,
//! see [`crate::rev_soacs`]).
//!
//! - `y = x[i, j, …]`: `update_acc(x̄, (i, j, …), ȳ)`, one element (or
//!   row) and not a dense array; a slice `x[a:b, j]` adds each element of
//!   `ȳ` where it was read, in a map over the range.
//! - `if`: the branches are swept with the accumulators in scope and
//!   return them, so a read under a condition (`if i == j then x[i] else
//!   0`) stays one `update_acc`.
//! - any other construct that reads the adjoints of its free variables
//!   (loops): the accumulators are set aside, the construct's rule builds
//!   dense adjoints as outside a map, and those are then added to the
//!   accumulators whole.

use std::collections::HashSet;

use ir::{Body, DimIndex, Exp, Operand, Stm, VarId};

use crate::ctx::{Ctx, R};

impl Ctx<'_> {
    /// The variables `stm` mentions whose adjoints are accumulators.
    pub fn acc_adjs_used(&self, stm: &Stm) -> Vec<VarId> {
        let mut used = HashSet::new();
        ir::uses::exp_uses(self.vars(), &stm.exp, &mut used);
        let mut xs: Vec<VarId> = used
            .into_iter()
            .filter(|v| self.acc_adj(*v).is_some())
            .collect();
        xs.sort_by_key(|v| v.as_u32());
        xs
    }

    /// The return sweep of `y = x[idx]` where the adjoint of `x` is an
    /// accumulator: `ȳ` is added where `y` was read, element by element
    /// along the slices of `idx` (a map over each range), so the cost is
    /// that of the read.
    pub fn rev_index_acc(&mut self, out: &mut Vec<Stm>, stm: &Stm) -> R<()> {
        let Exp::Index(x, idx) = &stm.exp else {
            return Err(self.err("internal error: not an index"));
        };
        let Some(a) = self.adj.get(&stm.pat[0]).copied() else {
            return Ok(());
        };
        let Some(acc) = self.acc_adj(*x) else {
            return Err(self.err("internal error: an index rule without an accumulator"));
        };
        let acc2 = self.add_at(out, acc, Vec::new(), idx, a)?;
        self.adj.insert(*x, acc2.into());
        Ok(())
    }

    /// Emits the updates of accumulator `acc` adding `a` at `prefix`
    /// followed by `rest`; a range in `rest` becomes a map over its
    /// elements and the rows of `a`. Returns the updated accumulator.
    fn add_at(
        &mut self,
        out: &mut Vec<Stm>,
        acc: VarId,
        mut prefix: Vec<Operand>,
        rest: &[DimIndex],
        a: Operand,
    ) -> R<VarId> {
        let Some((first, rest)) = rest.split_first() else {
            let acc2 = self.fresh("adj_acc", self.ty(acc));
            self.push(
                out,
                vec![acc2],
                Exp::UpdateAcc {
                    acc,
                    idx: prefix,
                    value: a,
                },
            );
            return Ok(acc2);
        };
        let (start, len, stride) = match first {
            DimIndex::Fix(i) => {
                prefix.push(*i);
                return self.add_at(out, acc, prefix, rest, a);
            }
            DimIndex::Range { start, len, stride } => (*start, *len, *stride),
        };
        let Operand::Var(av) = a else {
            return Err(self.err("internal error: a scalar adjoint of a slice"));
        };
        let at = self.ty(av);
        let row_t = ir::Type::array(at.elem, at.shape[1..].to_vec());
        let row = self.fresh("adj_row", row_t);
        let pa = self.fresh("adj_acc", self.ty(acc));
        let k = self.fresh("k", ir::Type::scalar(ir::PrimType::I64));
        let mut b = Vec::new();
        let off = self.bin(&mut b, ir::BinOp::Mul, k.into(), stride)?;
        let i = self.bin(&mut b, ir::BinOp::Add, start, off)?;
        prefix.push(i);
        let pa2 = self.add_at(&mut b, pa, prefix, rest, row.into())?;
        let acc2 = self.fresh("adj_acc", self.ty(acc));
        self.push(
            out,
            vec![acc2],
            Exp::Screma(Box::new(ir::Screma {
                w: len,
                inputs: vec![av, acc],
                scans: Vec::new(),
                reduces: Vec::new(),
                map: ir::Lambda {
                    params: vec![ir::Param::new(row), ir::Param::new(pa), ir::Param::new(k)],
                    ret: vec![self.ty(acc)],
                    body: Body {
                        stms: b,
                        result: vec![pa2.into()],
                    },
                },
            })),
        );
        Ok(acc2)
    }

    /// Runs `rule` (the return sweep of a construct that reads the adjoints
    /// of its free variables) with the accumulator adjoints of `xs` set
    /// aside, then adds the dense adjoints it built for them to the
    /// accumulators.
    pub fn with_accs_aside(
        &mut self,
        out: &mut Vec<Stm>,
        xs: &[VarId],
        rule: impl FnOnce(&mut Self, &mut Vec<Stm>) -> R<()>,
    ) -> R<()> {
        let aside: Vec<(VarId, Operand)> = xs
            .iter()
            .filter_map(|x| Some((*x, self.adj.remove(x)?)))
            .collect();
        let res = rule(self, out);
        for (x, acc) in aside {
            let dense = self.adj.insert(x, acc);
            if res.is_ok()
                && let Some(d) = dense
            {
                self.update_acc_adj(out, x, Vec::new(), d)?;
            }
        }
        res
    }

    /// The return sweep of an `if` whose branches touch the accumulator
    /// adjoints of `accs`: an `if` on the same condition whose branches
    /// re-execute the branch, sweep it back with the accumulators in scope,
    /// and return the accumulators, then the dense adjoints of the other
    /// free variables they touch.
    pub fn rev_if_acc(&mut self, out: &mut Vec<Stm>, stm: &Stm, accs: &[VarId]) -> R<()> {
        let Exp::If { cond, .. } = &stm.exp else {
            return Err(self.err("internal error: not an if"));
        };
        let seeds: Vec<Option<Operand>> =
            stm.pat.iter().map(|v| self.adj.get(v).copied()).collect();
        let Some(outer) = accs
            .iter()
            .map(|x| self.adj.get(x).copied())
            .collect::<Option<Vec<Operand>>>()
        else {
            return Err(self.err("internal error: an if rule without an accumulator"));
        };
        let entry: Vec<(VarId, Operand)> =
            accs.iter().copied().zip(outer.iter().copied()).collect();
        let branches = self.rev_branches(stm, &seeds, &entry, false)?;
        let mut free: Vec<VarId> = branches
            .iter()
            .flat_map(|(_, adj, binds)| adj.keys().filter(|v| !binds.contains(v)).copied())
            .filter(|v| !accs.contains(v))
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        free.sort_by_key(|v| v.as_u32());
        let mut bodies = Vec::new();
        for (mut stms, adj, _) in branches {
            let Some(mut result) = accs
                .iter()
                .map(|x| adj.get(x).copied())
                .collect::<Option<Vec<Operand>>>()
            else {
                return Err(self.err("internal error: a branch lost an accumulator adjoint"));
            };
            for f in &free {
                result.push(match adj.get(f) {
                    Some(a) => *a,
                    None => self.zeros_like(&mut stms, *f)?,
                });
            }
            bodies.push(Body { stms, result });
        }
        let mut pat = Vec::new();
        for (x, a) in accs.iter().zip(&outer) {
            let name = format!("{}_adj", self.name(*x));
            let t = self.op_ty(a);
            pat.push(self.fresh(&name, t));
        }
        for f in &free {
            pat.push(self.fresh("adj_if", self.ty(*f)));
        }
        let else_body = bodies.pop().unwrap_or_default();
        let then_body = bodies.pop().unwrap_or_default();
        self.push(
            out,
            pat.clone(),
            Exp::If {
                cond: *cond,
                then_body,
                else_body,
            },
        );
        for (x, a) in accs.iter().zip(&pat) {
            self.adj.insert(*x, (*a).into());
        }
        for (f, r) in free.iter().zip(&pat[accs.len()..]) {
            self.add_adj(out, &(*f).into(), (*r).into(), false)?;
        }
        Ok(())
    }
}
