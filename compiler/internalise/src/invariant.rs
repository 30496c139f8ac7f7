//! Sizes of a SOAC lambda's results that do not depend on the iteration.
//!
//! A `map` whose rows have sizes computed in its lambda takes the row size
//! from its first row, and 0 when it has no rows. When such a size is
//! arithmetic on variables bound outside the lambda (the declared result
//! size `5 + n` of a function the lambda calls), it is computed once
//! outside instead, so that an empty map still has the right row shape:
//! `map (\_ -> f x) (iota 0)` is `[0][5 + n]`, as on the interpreter.

use std::collections::HashSet;

use ir::{Exp, Lambda, Operand, VarId};

use crate::cx::Cx;
use crate::error::IResult;

/// How deep a chain of size arithmetic is followed.
const MAX_DEPTH: usize = 16;

impl Cx {
    /// The size variable `v` of `lam`'s body recomputed before the SOAC,
    /// when it is integer arithmetic on constants and variables bound
    /// outside `lam`.
    pub(crate) fn invariant_size(&mut self, lam: &Lambda, v: VarId) -> IResult<Option<Operand>> {
        let mut bound = HashSet::new();
        ir::uses::body_binds(&lam.body, &mut bound);
        bound.extend(lam.params.iter().map(|p| p.var));
        if !Self::is_invariant(lam, &bound, Operand::Var(v), 0) {
            return Ok(None);
        }
        self.recompute(lam, &bound, Operand::Var(v)).map(Some)
    }

    fn defining(lam: &Lambda, v: VarId) -> Option<&Exp> {
        lam.body
            .stms
            .iter()
            .find(|s| s.pat.len() == 1 && s.pat[0] == v)
            .map(|s| &s.exp)
    }

    fn is_invariant(lam: &Lambda, bound: &HashSet<VarId>, o: Operand, depth: usize) -> bool {
        let Operand::Var(v) = o else {
            return true;
        };
        if !bound.contains(&v) {
            return true;
        }
        if depth >= MAX_DEPTH {
            return false;
        }
        match Self::defining(lam, v) {
            Some(Exp::BinOp(ir::BinOp::Add | ir::BinOp::Sub | ir::BinOp::Mul, a, b)) => {
                Self::is_invariant(lam, bound, *a, depth + 1)
                    && Self::is_invariant(lam, bound, *b, depth + 1)
            }
            Some(Exp::Atom(a)) => Self::is_invariant(lam, bound, *a, depth + 1),
            _ => false,
        }
    }

    /// Emits the statements computing `o` (checked by `is_invariant`).
    fn recompute(&mut self, lam: &Lambda, bound: &HashSet<VarId>, o: Operand) -> IResult<Operand> {
        let Operand::Var(v) = o else {
            return Ok(o);
        };
        if !bound.contains(&v) {
            return Ok(o);
        }
        match Self::defining(lam, v).cloned() {
            Some(Exp::BinOp(op, a, b)) => {
                let a = self.recompute(lam, bound, a)?;
                let b = self.recompute(lam, bound, b)?;
                self.fb.scalar("d", Exp::BinOp(op, a, b))
            }
            Some(Exp::Atom(a)) => self.recompute(lam, bound, a),
            _ => Ok(o),
        }
    }
}
