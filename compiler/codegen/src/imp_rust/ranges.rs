//! Range checks hoisted out of loops.
//!
//! Every element access of emitted code is checked against its block's
//! length (`Mem::get`, `Mem::set`), which keeps LLVM from vectorising or
//! hoisting anything in a loop. For a loop over a counter `k` (a
//! sequential `for`, or the chunk loop of a one-dimensional parallel
//! loop), the accesses made at every iteration (statements of the body
//! itself, not under an `if` or a nested loop) whose position is affine in
//! `k` (`base + k*step`, both unchanged by the loop) through a block handle
//! the loop does not repoint are checked once, for the whole range of `k`,
//! before the loop (`Mem::covers`). The loop is versioned: when every check
//! passes, the body makes those accesses unchecked (`Mem::get_unchecked`,
//! `Mem::set_unchecked`); otherwise the loop runs as it was, every access
//! checked, so a failure (an assertion before an access, an access outside
//! its block) happens where and as it did. Accesses under an `if`, which
//! may be out of range in iterations that do not make them, stay checked
//! in both versions. Index bounds assertions made at every iteration
//! (`0 <= e < n`, `e` affine in `k`, `n` unchanged by the loop) are hoisted
//! the same way (`mem::within`), and left out of the first version: a loop
//! without them has no exit but its end, which LLVM needs to vectorise it.
//! Of accesses to one block whose positions differ by constants (a row's
//! elements read side by side), only the lowest and the highest are
//! checked: the others lie between them at every iteration.
//!
//! Only innermost loops (no loop in their body) of at most 64 statements
//! are versioned: that is where unchecked accesses pay, and it keeps the
//! second copy small (versioning every level of a nest made the generated
//! code of `tests/multicore`, `tests/ad` and ADBench half as large again).

use std::collections::{HashMap, HashSet};

use ir::{BinOp, CmpOp, PrimType, PrimValue};

use crate::imp::{Block, Check, Function, MemId, SExp, SVar, Slot, Stm};

/// What hoisting does for one loop.
#[derive(Debug, Default)]
pub struct Plan {
    /// The checks made before the loop.
    pub checks: Vec<Range>,
    /// The hoisted statements (their addresses): accesses made unchecked
    /// and index bounds assertions left out in the loop's first version.
    pub unchecked: HashSet<usize>,
}

/// One check before a loop: every `base + k*step`, `k` over the loop's
/// range, lies in `within`. `base` and `step` are expressions over values
/// the loop does not change.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// The value at `k = 0`.
    pub base: SExp,
    /// The change per iteration.
    pub step: SExp,
    /// Where the values must lie.
    pub within: Within,
}

/// Where the values of a [`Range`] must lie.
#[derive(Clone, Debug, PartialEq)]
pub enum Within {
    /// Inside a block: an element access.
    Block(MemId),
    /// From `min` (included) to `end` (excluded), `None` standing for the
    /// `i64`'s own limits: an index bounds assertion's conjuncts.
    Bounds(Option<SExp>, Option<SExp>),
}

impl Plan {
    /// Adds check `r`, unless it is there already.
    fn add(&mut self, r: Range) {
        if !self.checks.contains(&r) {
            self.checks.push(r);
        }
    }
}

/// The address of a statement, naming it for [`Plan::unchecked`].
pub fn stm_key(s: &Stm) -> usize {
    s as *const Stm as usize
}

/// The position as an affine function of the counter: `(base, step)`.
type Affine = (SExp, SExp);

/// The facts about one loop body the analysis needs.
struct Body<'a> {
    f: &'a Function,
    /// How many times each variable is set in the body (nested blocks
    /// included).
    sets: HashMap<SVar, usize>,
    /// The blocks the body points elsewhere.
    mems: HashSet<MemId>,
    /// The affine forms of the counter and of the variables set so far,
    /// in order, at the top of the body.
    known: HashMap<SVar, Affine>,
}

/// The plan for the loop over counter `i` (an `i64`, or the loop is left
/// alone) with body `body` in function `f`; `bounds`: whether index
/// bounds assertions are emitted (and worth hoisting).
pub fn plan(f: &Function, i: SVar, body: &Block, bounds: bool) -> Plan {
    let mut plan = Plan::default();
    if var_type(f, i) != PrimType::I64 || !innermost(body, &mut 0) {
        return plan;
    }
    let mut b = Body {
        f,
        sets: HashMap::new(),
        mems: HashSet::new(),
        known: HashMap::new(),
    };
    if !count_sets(body, &mut b.sets, &mut b.mems) || b.sets.contains_key(&i) {
        return plan;
    }
    b.known.insert(i, (SExp::i64(0), SExp::i64(1)));
    for s in &body.stms {
        match s {
            Stm::Assign { var, exp, .. } => {
                if b.sets.get(var) == Some(&1)
                    && var_type(f, *var) == PrimType::I64
                    && let Some(a) = b.affine(exp)
                {
                    b.known.insert(*var, a);
                }
            }
            Stm::Read { view, idx, .. } | Stm::Write { view, idx, .. } => {
                if b.mems.contains(&view.mem) {
                    continue;
                }
                if let Some((base, step)) = b.affine(&view.position(idx)) {
                    plan.add(Range {
                        base,
                        step,
                        within: Within::Block(view.mem),
                    });
                    plan.unchecked.insert(stm_key(s));
                }
            }
            Stm::Assert {
                cond,
                check: Check::Bounds,
                ..
            } if bounds => {
                if let Some(ranges) = b.bounds(cond) {
                    for r in ranges {
                        plan.add(r);
                    }
                    plan.unchecked.insert(stm_key(s));
                }
            }
            _ => {}
        }
    }
    merge_neighbours(&mut plan.checks);
    plan
}

/// `e` as `rest + k`, `k` a constant (0 when there is none).
fn split_constant(e: &SExp) -> (SExp, i64) {
    match e {
        SExp::BinOp(BinOp::Add, a, b) => match (a.as_i64(), b.as_i64()) {
            (_, Some(k)) => ((**a).clone(), k),
            (Some(k), _) => ((**b).clone(), k),
            _ => (e.clone(), 0),
        },
        _ => match e.as_i64() {
            Some(k) => (SExp::i64(0), k),
            None => (e.clone(), 0),
        },
    }
}

/// Leaves out the checks of accesses to a block that lie between two
/// others at every iteration: of `m[rest + k + i*step]` for several
/// constants `k`, only the least and the greatest `k` are checked. At each
/// iteration the others' positions lie between those two, so inside the
/// block when both are (the four elements of a row read side by side
/// need two checks, not four).
fn merge_neighbours(checks: &mut Vec<Range>) {
    let key = |r: &Range| match &r.within {
        Within::Block(m) => {
            let (rest, k) = split_constant(&r.base);
            Some(((*m, r.step.clone(), rest), k))
        }
        Within::Bounds(..) => None,
    };
    let keys: Vec<_> = checks.iter().map(key).collect();
    let mut keep = vec![true; checks.len()];
    for (a, ka) in keys.iter().enumerate() {
        let Some((ga, k)) = ka else { continue };
        let (mut below, mut above) = (false, false);
        for (gb, kb) in keys.iter().flatten() {
            if gb == ga {
                below |= kb < k;
                above |= kb > k;
            }
        }
        keep[a] = !(below && above);
    }
    let mut it = keep.into_iter();
    checks.retain(|_| it.next().unwrap_or(true));
}

/// The most statements a versioned loop's body may have: a larger body
/// gains little from unchecked accesses and would be written twice.
pub const MAX_BODY: usize = 64;

/// Whether `b` holds no loop and at most [`MAX_BODY`] statements (counted
/// into `n`, those of `if`s included): only such innermost loops are
/// versioned, so the copies add little code and nests are written once.
fn innermost(b: &Block, n: &mut usize) -> bool {
    for s in &b.stms {
        *n += 1;
        match s {
            Stm::If {
                then_block,
                else_block,
                ..
            } if !innermost(then_block, n) || !innermost(else_block, n) => return false,
            Stm::For { .. } | Stm::While { .. } | Stm::ParFor { .. } | Stm::Planned { .. } => {
                return false;
            }
            _ => {}
        }
    }
    *n <= MAX_BODY
}

fn var_type(f: &Function, v: SVar) -> PrimType {
    f.vars.get(v.0 as usize).map_or(PrimType::Bool, |i| i.ty)
}

fn is_zero(e: &SExp) -> bool {
    e.as_i64() == Some(0)
}

impl Body<'_> {
    /// The ranges that make a bounds assertion's condition hold: a
    /// conjunction of `c <= e` and `e < n`, `e` affine, `c` and `n`
    /// unchanged by the loop.
    fn bounds(&self, cond: &SExp) -> Option<Vec<Range>> {
        match cond {
            SExp::BinOp(BinOp::And, x, y) => {
                let mut r = self.bounds(x)?;
                r.extend(self.bounds(y)?);
                Some(r)
            }
            SExp::Const(PrimValue::Bool(true)) => Some(Vec::new()),
            SExp::Cmp(CmpOp::Le, c, e) if self.invariant(c) => {
                let (base, step) = self.affine(e)?;
                let within = Within::Bounds(Some((**c).clone()), None);
                Some(vec![Range { base, step, within }])
            }
            SExp::Cmp(CmpOp::Lt, e, n) if self.invariant(n) => {
                let (base, step) = self.affine(e)?;
                let within = Within::Bounds(None, Some((**n).clone()));
                Some(vec![Range { base, step, within }])
            }
            _ => None,
        }
    }

    /// `e` as `base + k*step`, when it is one: sums, differences and
    /// products (by a value the loop does not change) of the counter,
    /// known variables and such values.
    fn affine(&self, e: &SExp) -> Option<Affine> {
        match e {
            SExp::Var(v) => match self.known.get(v) {
                Some(a) => Some(a.clone()),
                None => self.invariant(e).then(|| (e.clone(), SExp::i64(0))),
            },
            SExp::Const(_) => self.invariant(e).then(|| (e.clone(), SExp::i64(0))),
            SExp::BinOp(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), x, y) => {
                let (bx, sx) = self.affine(x)?;
                let (by, sy) = self.affine(y)?;
                match op {
                    BinOp::Add => Some((SExp::plus(bx, by), SExp::plus(sx, sy))),
                    BinOp::Sub => Some((SExp::minus(bx, by), SExp::minus(sx, sy))),
                    _ if is_zero(&sy) => Some((SExp::times(bx, by.clone()), SExp::times(sx, by))),
                    _ if is_zero(&sx) => Some((SExp::times(bx.clone(), by), SExp::times(bx, sy))),
                    _ => None,
                }
            }
            _ => self.invariant(e).then(|| (e.clone(), SExp::i64(0))),
        }
    }

    /// Whether `e` is an `i64` value the loop does not change whose
    /// computation cannot fail (so computing it before the loop, even one
    /// that runs no iteration, changes nothing): constants, variables the
    /// body does not set, and wrapping sums, differences, products,
    /// minima and maxima of them.
    fn invariant(&self, e: &SExp) -> bool {
        match e {
            SExp::Var(v) => !self.sets.contains_key(v) && var_type(self.f, *v) == PrimType::I64,
            SExp::Const(c) => c.prim_type() == PrimType::I64,
            SExp::BinOp(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Min | BinOp::Max, x, y) => {
                self.invariant(x) && self.invariant(y)
            }
            _ => false,
        }
    }
}

/// Counts the variables `b` sets and collects the blocks it repoints;
/// false when `b` holds a statement this analysis does not know (the loop
/// is then left alone).
fn count_sets(b: &Block, vars: &mut HashMap<SVar, usize>, mems: &mut HashSet<MemId>) -> bool {
    let var = |v: &SVar, vars: &mut HashMap<SVar, usize>| *vars.entry(*v).or_insert(0) += 1;
    for s in &b.stms {
        match s {
            Stm::Assign { var: v, .. } | Stm::Read { var: v, .. } => var(v, vars),
            Stm::Alloc { mem, .. } => {
                mems.insert(*mem);
            }
            Stm::SwapMem(a, c) => {
                mems.insert(*a);
                mems.insert(*c);
            }
            Stm::AliasMem { dst, .. } => {
                mems.insert(*dst);
            }
            Stm::For { i, body, .. } => {
                var(i, vars);
                if !count_sets(body, vars, mems) {
                    return false;
                }
            }
            Stm::ParFor { ids, body, .. } => {
                for i in ids {
                    var(i, vars);
                }
                if !count_sets(body, vars, mems) {
                    return false;
                }
            }
            Stm::While { body, .. } | Stm::Planned { body, .. } => {
                if !count_sets(body, vars, mems) {
                    return false;
                }
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                if !count_sets(then_block, vars, mems) || !count_sets(else_block, vars, mems) {
                    return false;
                }
            }
            Stm::Call { results, .. } => {
                for r in results {
                    match r {
                        Slot::Scalar(v) => var(v, vars),
                        Slot::Mem(m) => {
                            mems.insert(*m);
                        }
                    }
                }
            }
            Stm::Write { .. } | Stm::Copy { .. } | Stm::Assert { .. } => {}
            #[allow(unreachable_patterns)]
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(m: u32, base: SExp, step: SExp) -> Range {
        Range {
            base,
            step,
            within: Within::Block(MemId(m)),
        }
    }

    #[test]
    fn accesses_between_two_others_of_the_same_block_are_not_checked_again() {
        let r = SExp::Var(SVar(0));
        let row = SExp::times(r, SExp::i64(4));
        let step = SExp::Var(SVar(1));
        let at = |m, k| block(m, SExp::plus(row.clone(), SExp::i64(k)), step.clone());
        let mut checks = vec![at(0, 0), at(0, 1), at(0, 2), at(0, 3), at(1, 1), at(1, 2)];
        // Another step: a separate group.
        checks.push(block(
            0,
            SExp::plus(row.clone(), SExp::i64(1)),
            SExp::i64(1),
        ));
        // An index bounds check is kept whatever its base.
        checks.push(Range {
            base: SExp::plus(row.clone(), SExp::i64(1)),
            step: step.clone(),
            within: Within::Bounds(Some(SExp::i64(0)), None),
        });
        let want = vec![
            at(0, 0),
            at(0, 3),
            at(1, 1),
            at(1, 2),
            checks[6].clone(),
            checks[7].clone(),
        ];
        merge_neighbours(&mut checks);
        assert_eq!(checks, want);
    }
}
