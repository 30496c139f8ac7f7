//! Reductions interchanged with the short loop around them.
//!
//! A sequential map of a few iterations whose body is a reduction (a
//! `tabulate 4 (\c -> f64.sum (map2 (\w t -> w * t[c]) ws ts))`) lowers to
//!
//! ```text
//! for (c < 4) { acc = 0; for (i < n) { … acc = acc + w * t[c] }; out[c] = acc }
//! ```
//!
//! whose inner loop is one chain of dependent additions, re-reading `w[i]`
//! for every `c`. When the outer loop's trip count is a small constant,
//! it is unrolled into the inner loop instead:
//!
//! ```text
//! acc_0 = 0; …; acc_3 = 0
//! for (i < n) { … acc_0 = acc_0 + w * t[0]; …; acc_3 = acc_3 + w * t[3] }
//! out[0] = acc_0; …; out[3] = acc_3
//! ```
//!
//! Each running value sees the same operations in the same order as
//! before, so the results are the same bit for bit; the copies are
//! independent, so the loop runs them side by side. A read that is the same
//! in every copy (`w[i]`) is made once, by the first copy, and an assertion
//! that does not change with the inner loop's iterations is made before it
//! (when it runs at all). Loops are unrolled innermost first, so a loop
//! around an unrolled one is unrolled in turn: ADBench Hand's
//! `tabulate 3 (\r -> matvec (tabulate 4 (\c -> sum of 22 bones)) v)` becomes
//! one loop over the bones updating twelve running values, then the three
//! dot products.
//!
//! The outer loop `for (c < K)` qualifies when `K` is a constant from 2 to
//! [`MAX_COPIES`] and its body is: scalar statements (assignments, reads,
//! assertions), one loop `for (i < n)` whose body holds only scalar
//! statements, then scalar statements, writes, and loops and conditionals
//! of them, at least one write among them. Further:
//!
//! - `n` depends on nothing the body sets, nor on `c`, and `c` is mentioned
//!   nowhere but in the loop;
//! - every variable the body sets is set in the same iteration of `c`
//!   before it is read (no value flows from one iteration of `c` to the
//!   next); one the inner loop reads before setting is set before the
//!   inner loop (a running value);
//! - nothing before the statements after the inner loop reads a block
//!   they write, through any handle that may name it (`Blocks`): those
//!   statements run for every copy after the inner loop, in the order of
//!   `c`;
//! - the inner loop's body, with its copies, stays within the statements
//!   the range checks of [`super::ranges`] hoist from a loop.
//!
//! The last copy keeps the original variables, so whatever the code after
//! the loop reads of them holds what the last iteration left. A failing
//! assertion or access is still reported, but when several would fail,
//! another of them may be reported first.

use std::collections::{HashMap, HashSet};

use ir::PrimValue;

use crate::imp::{Arg, Block, Function, MemId, Program, SExp, SVar, Slot, Stm, VarInfo, View};

/// The most iterations of an outer loop that is unrolled into its inner
/// loop.
pub const MAX_COPIES: i64 = 8;

/// Interchanges the qualifying loops of every function of `p`.
pub fn program(p: &mut Program) {
    for f in &mut p.functions {
        function(f);
    }
}

/// Interchanges the qualifying loops of `f`.
pub fn function(f: &mut Function) {
    let blocks = Blocks::of(f);
    let mut outside = HashSet::new();
    counters_outside(&f.body, &mut Vec::new(), &mut outside);
    let mut body = std::mem::take(&mut f.body);
    let mut cx = Cx {
        vars: &mut f.vars,
        blocks: &blocks,
        outside: &outside,
    };
    cx.block(&mut body);
    f.body = body;
}

struct Cx<'a> {
    vars: &'a mut Vec<VarInfo>,
    /// Which handles may name the same block.
    blocks: &'a Blocks,
    /// The loop counters mentioned outside their loops.
    outside: &'a HashSet<SVar>,
}

impl Cx<'_> {
    fn block(&mut self, b: &mut Block) {
        let mut out = Vec::with_capacity(b.stms.len());
        for mut s in std::mem::take(&mut b.stms) {
            for inner in s.blocks_mut() {
                self.block(inner);
            }
            match self.interchange(&s) {
                Some(stms) => out.extend(stms),
                None => out.push(s),
            }
        }
        b.stms = out;
    }

    /// The statements replacing `s`, when it is a qualifying loop.
    fn interchange(&mut self, s: &Stm) -> Option<Vec<Stm>> {
        let Stm::For { i: c, bound, body } = s else {
            return None;
        };
        let k = match bound {
            SExp::Const(PrimValue::I64(k)) if (2..=MAX_COPIES).contains(k) => *k,
            _ => return None,
        };
        let at = body
            .stms
            .iter()
            .position(|s| matches!(s, Stm::For { .. }))?;
        let (pre, rest) = body.stms.split_at(at);
        let Stm::For {
            i: j,
            bound: n,
            body: inner,
        } = &rest[0]
        else {
            return None;
        };
        let post = &rest[1..];
        if !pre.iter().all(scalar)
            || inner.stms.is_empty()
            || !inner.stms.iter().all(scalar)
            || !post.iter().all(after)
        {
            return None;
        }
        // The variables the body sets, the inner loop's counter included
        // (read only in that loop).
        let mut set = HashSet::from([*j]);
        let mut add = |v| {
            set.insert(v);
        };
        for s in pre.iter().chain(&inner.stms) {
            set_vars(s, &mut add);
        }
        post_sets(post, &mut add);
        let mut n_vars = Vec::new();
        n.for_each_var(&mut |v| n_vars.push(v));
        if n_vars.iter().any(|v| set.contains(v) || v == c)
            || set.contains(c)
            || self.outside.contains(c)
        {
            return None;
        }
        // Each variable set before it is read, within one iteration of `c`.
        let mut defined: HashSet<SVar> = HashSet::new();
        if !defined_before_read(pre, &set, &mut defined) {
            return None;
        }
        let mut in_loop = defined.clone();
        in_loop.insert(*j);
        let mut running = false;
        let mut inner_sets = HashMap::new();
        for s in &inner.stms {
            if !reads_defined(s, &set, &in_loop) {
                return None;
            }
            read_vars(s, &mut |v| {
                running |= defined.contains(&v) && set.contains(&v)
            });
            set_vars(s, &mut |v| {
                in_loop.insert(v);
                *inner_sets.entry(v).or_insert(0) += 1;
            });
        }
        if !running || !defined_before_read(post, &set, &mut defined.clone()) {
            return None;
        }
        let mut written = HashSet::new();
        writes(post, &mut written);
        let reads_written = pre.iter().chain(&inner.stms).any(|s| {
            matches!(s, Stm::Read { view, .. }
                if written.iter().any(|m| self.blocks.may_share(*m, view.mem)))
        });
        if written.is_empty() || reads_written {
            return None;
        }
        // What does not change with `c` or the inner loop's iterations:
        // reads the same in every copy (made once, by the first copy, into
        // the original variable) and assertions (made before the loop).
        let varies = |s: &Stm| {
            let mut v = false;
            let mut read = |x: SVar| v |= x == *c || (set.contains(&x) && x != *j);
            match s {
                Stm::Read { view, idx, .. } => {
                    view.for_each_exp(&mut |e| e.for_each_var(&mut read));
                    idx.iter().for_each(|e| e.for_each_var(&mut read));
                }
                _ => read_vars(s, &mut read),
            }
            v
        };
        let shared: HashSet<SVar> = inner
            .stms
            .iter()
            .filter_map(|s| match s {
                Stm::Read { var, .. }
                    if inner_sets.get(var) == Some(&1) && !defined.contains(var) && !varies(s) =>
                {
                    Some(*var)
                }
                _ => None,
            })
            .collect();
        let hoisted = |s: &Stm| match s {
            Stm::Assert { cond, args, .. } => {
                let mut ok = cannot_fail(cond) && args.iter().all(cannot_fail);
                read_vars(s, &mut |v| {
                    ok &= v != *j && !inner_sets.contains_key(&v);
                });
                ok
            }
            _ => false,
        };
        let empty = SExp::cmp(ir::CmpOp::Le, n.clone(), SExp::i64(0));
        // Copy `m` of the body: `c` replaced by `m`, the variables the body
        // sets renamed, but the inner loop's counter, the shared reads' and
        // all of the last copy's.
        let mut out_pre = Vec::new();
        let mut out_inner = Vec::new();
        let mut out_post = Vec::new();
        for m in 0..k {
            let mut names: HashMap<SVar, SExp> = HashMap::new();
            names.insert(*c, SExp::i64(m));
            if m + 1 < k {
                let mut sorted: Vec<SVar> = set
                    .iter()
                    .copied()
                    .filter(|v| v != j && !shared.contains(v))
                    .collect();
                sorted.sort();
                for v in sorted {
                    let info = &self.vars[v.0 as usize];
                    let fresh = VarInfo {
                        name: format!("{}_c{m}", info.name),
                        ty: info.ty,
                    };
                    self.vars.push(fresh);
                    names.insert(v, SExp::Var(SVar(self.vars.len() as u32 - 1)));
                }
            }
            out_pre.extend(pre.iter().map(|s| rename_stm(s, &names)));
            for s in &inner.stms {
                if hoisted(s) {
                    let Stm::Assert {
                        cond,
                        msg,
                        args,
                        span,
                        check,
                    } = rename_stm(s, &names)
                    else {
                        continue;
                    };
                    let cond = SExp::BinOp(ir::BinOp::Or, Box::new(empty.clone()), Box::new(cond));
                    out_pre.push(Stm::Assert {
                        cond,
                        msg,
                        args,
                        span,
                        check,
                    });
                } else if !matches!(s, Stm::Read { var, .. } if shared.contains(var)) || m == 0 {
                    out_inner.push(rename_stm(s, &names));
                }
            }
            out_post.extend(post.iter().map(|s| rename_stm(s, &names)));
        }
        if out_inner.len() > super::ranges::MAX_BODY {
            return None;
        }
        let mut out = out_pre;
        out.push(Stm::For {
            i: *j,
            bound: n.clone(),
            body: Block { stms: out_inner },
        });
        out.extend(out_post);
        Some(out)
    }
}

/// Whether `s` is a scalar statement: an assignment, a read or an
/// assertion.
fn scalar(s: &Stm) -> bool {
    matches!(
        s,
        Stm::Assign { .. } | Stm::Read { .. } | Stm::Assert { .. }
    )
}

/// Whether `s` may follow the inner loop: scalar statements, writes, and
/// loops and conditionals of such statements.
fn after(s: &Stm) -> bool {
    match s {
        Stm::Write { .. } => true,
        Stm::For { body, .. } => body.stms.iter().all(after),
        Stm::If {
            then_block,
            else_block,
            ..
        } => then_block.stms.iter().chain(&else_block.stms).all(after),
        _ => scalar(s),
    }
}

/// Calls `f` on each variable the statements set, in nested blocks too
/// (loop counters included).
fn post_sets(stms: &[Stm], f: &mut impl FnMut(SVar)) {
    for s in stms {
        set_vars(s, f);
        if let Stm::For { i, .. } = s {
            f(*i);
        }
        for b in s.blocks() {
            post_sets(&b.stms, f);
        }
    }
}

/// The blocks the statements write (in nested blocks too).
fn writes(stms: &[Stm], out: &mut HashSet<MemId>) {
    for s in stms {
        if let Stm::Write { view, .. } = s {
            out.insert(view.mem);
        }
        for b in s.blocks() {
            writes(&b.stms, out);
        }
    }
}

/// Whether `s` reads of the variables `set` only those in `defined`.
fn reads_defined(s: &Stm, set: &HashSet<SVar>, defined: &HashSet<SVar>) -> bool {
    let mut ok = true;
    read_vars(s, &mut |v| ok &= !set.contains(&v) || defined.contains(&v));
    ok
}

/// Whether the statements read each variable of `set` only after setting
/// it (`defined`: those set before them, extended with those the
/// statements set for sure); a loop's or a conditional's blocks are
/// checked on their own, what they set counting only inside them.
fn defined_before_read(stms: &[Stm], set: &HashSet<SVar>, defined: &mut HashSet<SVar>) -> bool {
    for s in stms {
        match s {
            Stm::For { i, bound, body } => {
                let mut ok = true;
                bound.for_each_var(&mut |v| ok &= !set.contains(&v) || defined.contains(&v));
                let mut inside = defined.clone();
                inside.insert(*i);
                if !ok || !defined_before_read(&body.stms, set, &mut inside) {
                    return false;
                }
            }
            Stm::If {
                cond,
                then_block,
                else_block,
            } => {
                let mut ok = true;
                cond.for_each_var(&mut |v| ok &= !set.contains(&v) || defined.contains(&v));
                if !ok
                    || !defined_before_read(&then_block.stms, set, &mut defined.clone())
                    || !defined_before_read(&else_block.stms, set, &mut defined.clone())
                {
                    return false;
                }
            }
            _ => {
                if !reads_defined(s, set, defined) {
                    return false;
                }
                set_vars(s, &mut |v| {
                    defined.insert(v);
                });
            }
        }
    }
    true
}

/// Whether computing `e` cannot fail: variables, constants, comparisons,
/// logical operators, and wrapping sums, differences, products, minima
/// and maxima.
fn cannot_fail(e: &SExp) -> bool {
    use ir::BinOp as B;
    match e {
        SExp::Var(_) | SExp::Const(_) => true,
        SExp::Cmp(_, a, b)
        | SExp::BinOp(B::Add | B::Sub | B::Mul | B::Min | B::Max | B::And | B::Or, a, b) => {
            cannot_fail(a) && cannot_fail(b)
        }
        _ => false,
    }
}

/// Which handles of a function may name the same block at some point:
/// classes of handles joined by aliasing, swapping and calls (the
/// parameters form one class, the caller may pass a block twice). Pointing
/// a handle at an empty block (one only ever allocated with no elements,
/// as blocks are released) joins nothing: no element of it is ever read.
struct Blocks {
    class: Vec<usize>,
}

impl Blocks {
    fn of(f: &Function) -> Blocks {
        let n = f.mems.len();
        let mut empty = vec![true; n];
        let mut pairs = Vec::new();
        let params: Vec<usize> = f
            .params
            .iter()
            .filter_map(|s| match s {
                Slot::Mem(m) => Some(m.0 as usize),
                Slot::Scalar(_) => None,
            })
            .collect();
        for &m in &params {
            empty[m] = false;
        }
        pairs.extend(params.windows(2).map(|w| (w[0], w[1], false)));
        mem_pairs(&f.body, &mut empty, &mut pairs);
        let mut class: Vec<usize> = (0..n).collect();
        fn find(class: &mut [usize], mut x: usize) -> usize {
            while class[x] != x {
                class[x] = class[class[x]];
                x = class[x];
            }
            x
        }
        for (a, b, to_empty) in pairs {
            if to_empty && empty[b] {
                continue;
            }
            let (ra, rb) = (find(&mut class, a), find(&mut class, b));
            class[ra] = rb;
        }
        for x in 0..n {
            class[x] = find(&mut class, x);
        }
        Blocks { class }
    }

    /// Whether handles `a` and `b` may name the same block.
    fn may_share(&self, a: MemId, b: MemId) -> bool {
        self.class[a.0 as usize] == self.class[b.0 as usize]
    }
}

/// Collects the pairs of handles that `b` makes name the same block (with
/// whether the second is pointed to, `dst = src`), and clears `empty` for
/// the handles allocated with elements or set otherwise.
fn mem_pairs(b: &Block, empty: &mut [bool], pairs: &mut Vec<(usize, usize, bool)>) {
    for s in &b.stms {
        match s {
            Stm::Alloc { mem, count } if count.as_i64() != Some(0) => {
                empty[mem.0 as usize] = false;
            }
            Stm::AliasMem { dst, src } => {
                empty[dst.0 as usize] = false;
                pairs.push((dst.0 as usize, src.0 as usize, true));
            }
            Stm::SwapMem(a, b) => {
                empty[a.0 as usize] = false;
                empty[b.0 as usize] = false;
                pairs.push((a.0 as usize, b.0 as usize, false));
            }
            Stm::Call { args, results, .. } => {
                let mut ms: Vec<usize> = Vec::new();
                for a in args {
                    if let Arg::Mem(m) = a {
                        ms.push(m.0 as usize);
                    }
                }
                for r in results {
                    if let Slot::Mem(m) = r {
                        empty[m.0 as usize] = false;
                        ms.push(m.0 as usize);
                    }
                }
                pairs.extend(ms.windows(2).map(|w| (w[0], w[1], false)));
            }
            _ => {}
        }
        for b in s.blocks() {
            mem_pairs(b, empty, pairs);
        }
    }
}

/// Calls `f` on each variable a scalar statement or a write reads.
fn read_vars(s: &Stm, f: &mut impl FnMut(SVar)) {
    if matches!(
        s,
        Stm::Assign { .. } | Stm::Read { .. } | Stm::Write { .. } | Stm::Assert { .. }
    ) {
        s.for_each_exp(&mut |e| e.for_each_var(f));
    }
}

/// Calls `f` on the variable a scalar statement sets.
fn set_vars(s: &Stm, f: &mut impl FnMut(SVar)) {
    if let Stm::Assign { var, .. } | Stm::Read { var, .. } = s {
        f(*var);
    }
}

/// Adds to `outside` the counters of the `for` loops of `b` that are
/// mentioned outside their loops (`inside`: the counters of the loops
/// around `b`).
fn counters_outside(b: &Block, inside: &mut Vec<SVar>, outside: &mut HashSet<SVar>) {
    for s in &b.stms {
        mentioned(s, &mut |v| {
            if !inside.contains(&v) {
                outside.insert(v);
            }
        });
        if let Stm::For { i, .. } = s {
            inside.push(*i);
        }
        for b in s.blocks() {
            counters_outside(b, inside, outside);
        }
        if let Stm::For { .. } = s {
            inside.pop();
        }
    }
}

/// Calls `f` on each variable the statement itself mentions (not its
/// blocks), but a `for` loop's counter.
fn mentioned(s: &Stm, f: &mut impl FnMut(SVar)) {
    if !matches!(s, Stm::For { .. }) {
        s.for_each_set(f);
    }
    s.for_each_exp(&mut |e| e.for_each_var(f));
}

/// `e` with the variables of `names` replaced.
fn rename(e: &SExp, names: &HashMap<SVar, SExp>) -> SExp {
    let r = |x: &SExp| Box::new(rename(x, names));
    match e {
        SExp::Var(v) => names.get(v).cloned().unwrap_or(SExp::Var(*v)),
        SExp::Const(_) => e.clone(),
        SExp::UnOp(op, x) => SExp::UnOp(*op, r(x)),
        SExp::Convert(k, t, x) => SExp::Convert(*k, *t, r(x)),
        SExp::BinOp(op, a, b) => SExp::BinOp(*op, r(a), r(b)),
        SExp::Cmp(op, a, b) => SExp::Cmp(*op, r(a), r(b)),
        SExp::Math(m, xs) => SExp::Math(*m, xs.iter().map(|x| rename(x, names)).collect()),
        SExp::Tuned { .. } => e.clone(),
        SExp::Chunks { w, cost, most } => SExp::Chunks {
            w: r(w),
            cost: *cost,
            most: *most,
        },
    }
}

fn rename_view(v: &View, names: &HashMap<SVar, SExp>) -> View {
    View {
        mem: v.mem,
        elem: v.elem,
        offset: rename(&v.offset, names),
        shape: v.shape.iter().map(|e| rename(e, names)).collect(),
        strides: v.strides.iter().map(|e| rename(e, names)).collect(),
    }
}

/// The variable a set variable is renamed to (a renamed variable is always
/// a variable).
fn rename_var(v: SVar, names: &HashMap<SVar, SExp>) -> SVar {
    match names.get(&v) {
        Some(SExp::Var(x)) => *x,
        _ => v,
    }
}

/// A statement that may be copied (scalar statements, writes, and loops
/// and conditionals of them) with `names` replaced.
fn rename_stm(s: &Stm, names: &HashMap<SVar, SExp>) -> Stm {
    let all = |xs: &[SExp]| xs.iter().map(|e| rename(e, names)).collect::<Vec<_>>();
    match s {
        Stm::Assign { var, exp, span } => Stm::Assign {
            var: rename_var(*var, names),
            exp: rename(exp, names),
            span: *span,
        },
        Stm::Read { var, view, idx } => Stm::Read {
            var: rename_var(*var, names),
            view: rename_view(view, names),
            idx: all(idx),
        },
        Stm::Write { view, idx, value } => Stm::Write {
            view: rename_view(view, names),
            idx: all(idx),
            value: rename(value, names),
        },
        Stm::Assert {
            cond,
            msg,
            args,
            span,
            check,
        } => Stm::Assert {
            cond: rename(cond, names),
            msg: msg.clone(),
            args: all(args),
            span: *span,
            check: *check,
        },
        Stm::For { i, bound, body } => Stm::For {
            i: rename_var(*i, names),
            bound: rename(bound, names),
            body: rename_block(body, names),
        },
        Stm::If {
            cond,
            then_block,
            else_block,
        } => Stm::If {
            cond: rename(cond, names),
            then_block: rename_block(then_block, names),
            else_block: rename_block(else_block, names),
        },
        other => other.clone(),
    }
}

fn rename_block(b: &Block, names: &HashMap<SVar, SExp>) -> Block {
    Block {
        stms: b.stms.iter().map(|s| rename_stm(s, names)).collect(),
    }
}

#[cfg(test)]
#[path = "interchange_tests.rs"]
mod tests;
