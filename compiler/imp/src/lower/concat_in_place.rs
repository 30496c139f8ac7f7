//! Concatenations built in place: the arrays a concatenation joins are
//! written by their producers straight into its block, instead of into
//! blocks of their own copied into it afterwards.
//!
//! Before a body's statements are lowered, each `concat` along the outer
//! dimension gets a block (its destination when its consumer gave one,
//! a fresh block otherwise, allocated just before the first statement
//! writing into it) when its size can be computed at the start of the
//! body: from constants, variables bound before the body, and `+`, `-`,
//! `*` statements of the body over them. Each operand
//! that is the result of a statement taking a destination (a map, `iota`,
//! `replicate`, `copy`, `concat`, `if`), possibly through reshapes (a
//! `flatten`), used by nothing else, gets its part of that block as its
//! producer's destination; the concatenation then copies only the other
//! operands. A map whose rows have a size known only once one is computed
//! writes them into its part when they fill it exactly (checked after the
//! first row), as a reshape to the part's shape would require.
//!
//! BA's Jacobian is the case: per-observation blocks of derivatives,
//! flattened and concatenated with the weights' derivatives into the CSR
//! values; the blocks now go straight into the values array.

use std::collections::{HashMap, HashSet};

use ir::{BinOp, Body, CmpOp, Exp, Operand, Size, VarId};

use super::{Lowerer, R, Val};
use crate::syntax::*;

/// The statements of a body: where each variable is bound, and which
/// statements mention it (the body's result counted as one more user).
struct BodyFacts {
    def: HashMap<VarId, usize>,
    users: HashMap<VarId, Vec<usize>>,
}

/// What the lowering of a function keeps about concatenations built in
/// place.
#[derive(Default)]
pub(crate) struct InPlace {
    /// The operands of concatenations that their producers wrote in place.
    pub(crate) placed: HashSet<VarId>,
    /// Statements to lower just before a statement (by its address): the
    /// allocations of concatenations' blocks and their size checks.
    pending: HashMap<usize, Vec<Stm>>,
    /// The statement (address) before which each block is allocated.
    pending_at: HashMap<MemId, usize>,
}

/// The address of a statement, naming it in [`InPlace`].
fn stm_key(s: &ir::Stm) -> usize {
    s as *const ir::Stm as usize
}

/// The user index standing for the body's result.
const RESULT: usize = usize::MAX;

/// The most statements followed back when computing a size early.
const DEPTH: usize = 32;

impl<'p> Lowerer<'p> {
    /// Lowers what must come before `s`: the allocations of the blocks of
    /// concatenations that `s` is the first to write into.
    pub(crate) fn before_stm(&mut self, s: &ir::Stm) {
        if let Some(stms) = self.in_place.pending.remove(&stm_key(s)) {
            self.stms.extend(stms);
        }
    }

    /// Gives the concatenations of `b` their blocks and their operands'
    /// producers their destinations in them (in `by_var`); see the module
    /// documentation.
    pub(crate) fn place_concats(
        &mut self,
        b: &'p Body,
        by_var: &mut HashMap<VarId, View>,
    ) -> R<()> {
        if !b
            .stms
            .iter()
            .any(|s| matches!(s.exp, Exp::Concat { dim: 0, .. }))
        {
            return Ok(());
        }
        let mut facts = BodyFacts {
            def: HashMap::new(),
            users: HashMap::new(),
        };
        for (k, s) in b.stms.iter().enumerate() {
            for v in &s.pat {
                facts.def.insert(*v, k);
            }
            let mut used = HashSet::new();
            ir::uses::exp_uses(&self.f.vars, &s.exp, &mut used);
            for v in used {
                facts.users.entry(v).or_default().push(k);
            }
        }
        for o in &b.result {
            if let Operand::Var(v) = o {
                facts.users.entry(*v).or_default().push(RESULT);
            }
        }
        // Last first: a concatenation that is an operand of a later one
        // then builds in its part of the later one's block.
        for (c, s) in b.stms.iter().enumerate().rev() {
            if let (Exp::Concat { dim: 0, len, arrs }, [v]) = (&s.exp, s.pat.as_slice()) {
                self.place_concat(b, &facts, c, *v, len, arrs, by_var)?;
            }
        }
        Ok(())
    }

    /// Places the operands `arrs` of concatenation `c` of `b` (binding
    /// `cv`, `len` long).
    #[allow(clippy::too_many_arguments)]
    fn place_concat(
        &mut self,
        b: &'p Body,
        facts: &BodyFacts,
        c: usize,
        cv: VarId,
        len: &Size,
        arrs: &[VarId],
        by_var: &mut HashMap<VarId, View>,
    ) -> R<()> {
        for a in arrs {
            self.in_place.placed.remove(a);
        }
        let t = self.var_type(cv)?;
        let distinct: HashSet<&VarId> = arrs.iter().collect();
        if t.acc || t.rank() == 0 || distinct.len() != arrs.len() {
            return Ok(());
        }
        let early = |s: &Size| self.early_size(b, facts, s, 0);
        let Some(inner) = t.shape[1..].iter().map(early).collect::<Option<Vec<_>>>() else {
            return Ok(());
        };
        let mut lens = Vec::new();
        for a in arrs {
            let ta = self.var_type(*a)?;
            if ta.rank() != t.rank() || ta.elem != t.elem {
                return Ok(());
            }
            let Some(n) = early(&ta.shape[0]) else {
                return Ok(());
            };
            if ta.shape[1..].iter().map(early).collect::<Option<Vec<_>>>() != Some(inner.clone()) {
                return Ok(());
            }
            lens.push(n);
        }
        let sum = lens.iter().cloned().fold(SExp::i64(0), SExp::plus);
        let given = match len {
            Size::Any => early(&t.shape[0]),
            s => early(s),
        };
        // A size given apart from the operands' is checked before anything
        // is written, as the concatenation would check it.
        let (total, check) = match given {
            Some(n) if n != sum => (n.clone(), Some(SExp::cmp(CmpOp::Eq, sum, n))),
            _ => (sum, None),
        };
        // The operands whose producers may write in place, with the
        // shapes of their producers' results.
        let mut roots = Vec::new();
        for (i, a) in arrs.iter().enumerate() {
            let Some((root, shape)) = self.root(b, facts, c, *a) else {
                continue;
            };
            let part = inner.iter().cloned().fold(lens[i].clone(), SExp::times);
            let count = shape.iter().cloned().fold(SExp::i64(1), SExp::times);
            if count == part {
                roots.push((i, root, shape));
            }
        }
        if roots.is_empty() {
            return Ok(());
        }
        // The first statement writing into the block.
        let first = roots
            .iter()
            .filter_map(|(_, r, _)| facts.def.get(r).copied())
            .min()
            .unwrap_or(c);
        let at = stm_key(&b.stms[first]);
        let mut before = Vec::new();
        if let Some(cond) = check {
            before.push(Stm::Assert {
                cond,
                msg: "Size mismatch: concatenation has size {}".into(),
                args: vec![total.clone()],
                span: b.stms[c].span,
                check: Check::Always,
            });
        }
        let base = match by_var.get(&cv) {
            Some(h) if h.is_row_major() && h.elem == t.elem && h.rank() == t.rank() => {
                // A part of a block allocated before a later statement (an
                // enclosing concatenation's): allocated before this one's
                // first producer instead.
                let pos = |key: usize| b.stms.iter().position(|s| stm_key(s) == key);
                if let Some(&later) = self.in_place.pending_at.get(&h.mem)
                    && pos(later).is_some_and(|k| k > first)
                {
                    let moved = self.in_place.pending.remove(&later).unwrap_or_default();
                    for s in &moved {
                        if let Stm::Alloc { mem, .. } = s {
                            self.in_place.pending_at.insert(*mem, at);
                        }
                    }
                    before.splice(0..0, moved);
                }
                h.clone()
            }
            _ => {
                let mut shape = vec![total];
                shape.extend(inner.iter().cloned());
                let name = self.var_name(cv);
                let mem = self.new_mem(&format!("{name}_mem"), t.elem);
                let view = View::row_major(mem, t.elem, shape);
                before.push(Stm::Alloc {
                    mem,
                    count: view.count(),
                });
                self.in_place.pending_at.insert(mem, at);
                by_var.insert(cv, view.clone());
                view
            }
        };
        if !before.is_empty() {
            self.in_place.pending.entry(at).or_default().extend(before);
        }
        let mut starts = Vec::new();
        let mut at = SExp::i64(0);
        for n in &lens {
            starts.push(at.clone());
            at = SExp::plus(at, n.clone());
        }
        for (i, root, shape) in roots {
            let offset = SExp::plus(
                base.offset.clone(),
                SExp::times(starts[i].clone(), base.strides[0].clone()),
            );
            let strides = row_major_strides(&shape);
            by_var.insert(
                root,
                View {
                    mem: base.mem,
                    elem: t.elem,
                    offset,
                    shape,
                    strides,
                },
            );
            self.in_place.placed.insert(arrs[i]);
        }
        Ok(())
    }

    /// The producer of operand `a` of statement `c` when it may write in
    /// place: `a` or the array it reshapes (again and again), each used
    /// by nothing else, bound by a statement taking a destination. Its
    /// shape comes with it, the sizes unknown before it runs (`?`) taken
    /// from the reshape nearest to it, which must then have its rank.
    fn root(
        &self,
        b: &'p Body,
        facts: &BodyFacts,
        c: usize,
        a: VarId,
    ) -> Option<(VarId, Vec<SExp>)> {
        let mut v = a;
        let mut user = c;
        let mut target: Option<&'p [Size]> = None;
        loop {
            if facts.users.get(&v).map(Vec::as_slice) != Some(&[user][..]) {
                return None;
            }
            let k = *facts.def.get(&v)?;
            let stm = &b.stms[k];
            match &stm.exp {
                Exp::Reshape { shape, arr } => {
                    target = Some(shape);
                    v = *arr;
                    user = k;
                }
                Exp::Screma(_)
                | Exp::Iota { .. }
                | Exp::Replicate { .. }
                | Exp::Concat { .. }
                | Exp::Copy(_)
                | Exp::If { .. } => break,
                _ => return None,
            }
        }
        let t = self.f.var_type(v)?;
        if t.acc {
            return None;
        }
        let mut shape = Vec::with_capacity(t.rank());
        for (j, d) in t.shape.iter().enumerate() {
            let d = match d {
                Size::Any => target.filter(|s| s.len() == t.rank())?.get(j)?,
                d => d,
            };
            shape.push(self.early_size(b, facts, d, 0)?);
        }
        Some((v, shape))
    }

    /// Size `s` as an expression valid at the start of `b`: a constant, a
    /// variable bound before `b`, or `+`, `-`, `*` statements of `b` over
    /// them.
    fn early_size(&self, b: &Body, facts: &BodyFacts, s: &Size, depth: usize) -> Option<SExp> {
        match s {
            Size::Const(n) => Some(SExp::i64(*n)),
            Size::Any => None,
            Size::Var(v) => self.early_var(b, facts, *v, depth),
        }
    }

    fn early_var(&self, b: &Body, facts: &BodyFacts, v: VarId, depth: usize) -> Option<SExp> {
        let Some(&k) = facts.def.get(&v) else {
            return match self.env.get(&v) {
                Some(Val::Scalar(e)) => Some(e.clone()),
                _ => None,
            };
        };
        if depth > DEPTH {
            return None;
        }
        let operand = |o: &Operand| match o {
            Operand::Const(ir::PrimValue::I64(n)) => Some(SExp::i64(*n)),
            Operand::Var(x) => self.early_var(b, facts, *x, depth + 1),
            Operand::Const(_) => None,
        };
        match &b.stms[k].exp {
            Exp::Atom(o) => operand(o),
            Exp::BinOp(op, x, y) => {
                let (x, y) = (operand(x)?, operand(y)?);
                match op {
                    BinOp::Add => Some(SExp::plus(x, y)),
                    BinOp::Sub => Some(SExp::minus(x, y)),
                    BinOp::Mul => Some(SExp::times(x, y)),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
