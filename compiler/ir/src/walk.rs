//! Generic traversals of expressions and bodies, shared by the passes.
//!
//! - [`walk_exp`] / [`walk_body`] report every variable occurrence of an
//!   expression or body, nested bodies and lambdas included, as an [`Occ`]:
//!   a use (as an operand, an array, or a size in a type written in the
//!   expression) or a binding (a pattern element, a lambda or loop
//!   parameter, a `for` loop index). The types of bound variables live in
//!   the function's arena, so a caller that wants their sizes looks them up
//!   on [`Occ::Bind`].
//! - [`walk_exp_mut`] / [`walk_body_mut`] hand out every such position
//!   mutably as a [`Slot`], for renaming and substitution.
//! - [`nested_bodies_mut`] lists the bodies nested in an expression.
//! - [`substitute`] replaces variables by operands in a function body and
//!   in the types of its variables.

use std::collections::HashMap;

use crate::ids::VarId;
use crate::syntax::*;
use crate::types::{Size, Type};

/// One variable occurrence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occ {
    /// The variable is read.
    Use(VarId),
    /// The variable is bound here.
    Bind(VarId),
}

/// A mutable position that holds a variable.
#[derive(Debug)]
pub enum Slot<'a> {
    /// An operand (a variable or a constant).
    Operand(&'a mut Operand),
    /// A position that must hold a variable (an array, an input).
    Var(&'a mut VarId),
    /// A size in a type written in the expression.
    Size(&'a mut Size),
    /// A binding position.
    Bind(&'a mut VarId),
}

fn size_uses(s: &[Size], f: &mut impl FnMut(Occ)) {
    for d in s {
        if let Size::Var(v) = d {
            f(Occ::Use(*v));
        }
    }
}

fn op_use(o: &Operand, f: &mut impl FnMut(Occ)) {
    if let Operand::Var(v) = o {
        f(Occ::Use(*v));
    }
}

fn dims_uses(idx: &[DimIndex], f: &mut impl FnMut(Occ)) {
    for d in idx {
        match d {
            DimIndex::Fix(o) => op_use(o, f),
            DimIndex::Range { start, len, stride } => {
                op_use(start, f);
                op_use(len, f);
                op_use(stride, f);
            }
        }
    }
}

/// Reports every occurrence in a lambda.
pub fn walk_lambda(l: &Lambda, f: &mut impl FnMut(Occ)) {
    for p in &l.params {
        f(Occ::Bind(p.var));
    }
    for t in &l.ret {
        size_uses(&t.shape, f);
    }
    walk_body(&l.body, f);
}

/// Reports every occurrence in a body: its statements in order, then its
/// results.
pub fn walk_body(b: &Body, f: &mut impl FnMut(Occ)) {
    for s in &b.stms {
        walk_exp(&s.exp, f);
        for v in &s.pat {
            f(Occ::Bind(*v));
        }
    }
    for o in &b.result {
        op_use(o, f);
    }
}

/// Reports every occurrence in an expression, nested bodies included.
pub fn walk_exp(e: &Exp, f: &mut impl FnMut(Occ)) {
    match e {
        Exp::Atom(o) | Exp::UnOp(_, o) | Exp::Convert(_, _, o) => op_use(o, f),
        Exp::BinOp(_, x, y) | Exp::Cmp(_, x, y) => {
            op_use(x, f);
            op_use(y, f);
        }
        Exp::Math(_, args) | Exp::Apply { args, .. } => args.iter().for_each(|a| op_use(a, f)),
        Exp::Index(arr, idx) => {
            f(Occ::Use(*arr));
            dims_uses(idx, f);
        }
        Exp::Update(arr, idx, v) => {
            f(Occ::Use(*arr));
            dims_uses(idx, f);
            op_use(v, f);
        }
        Exp::Iota { n, start, step } => {
            op_use(n, f);
            op_use(start, f);
            op_use(step, f);
        }
        Exp::Replicate { shape, value } => {
            size_uses(shape, f);
            op_use(value, f);
        }
        Exp::Reshape { shape, arr } => {
            size_uses(shape, f);
            f(Occ::Use(*arr));
        }
        Exp::Rearrange { arr, .. } | Exp::Copy(arr) => f(Occ::Use(*arr)),
        Exp::Concat { len, arrs, .. } => {
            size_uses(std::slice::from_ref(len), f);
            arrs.iter().for_each(|a| f(Occ::Use(*a)));
        }
        Exp::Scratch { shape, .. } => size_uses(shape, f),
        Exp::If {
            cond,
            then_body,
            else_body,
        } => {
            op_use(cond, f);
            walk_body(then_body, f);
            walk_body(else_body, f);
        }
        Exp::Loop { params, form, body } => {
            for (_, init) in params {
                op_use(init, f);
            }
            if let LoopForm::For { i, bound } = form {
                op_use(bound, f);
                f(Occ::Bind(*i));
            }
            for (p, _) in params {
                f(Occ::Bind(p.var));
            }
            walk_body(body, f);
        }
        Exp::Assert { cond, args, .. } => {
            op_use(cond, f);
            args.iter().for_each(|a| op_use(a, f));
        }
        Exp::Screma(s) => {
            op_use(&s.w, f);
            s.inputs.iter().for_each(|a| f(Occ::Use(*a)));
            for sr in s.scans.iter().chain(&s.reduces) {
                sr.neutral.iter().for_each(|o| op_use(o, f));
                walk_lambda(&sr.op, f);
            }
            walk_lambda(&s.map, f);
        }
        Exp::Hist(h) => {
            op_use(&h.w, f);
            h.inputs.iter().for_each(|a| f(Occ::Use(*a)));
            for op in &h.hists {
                op.dests.iter().for_each(|a| f(Occ::Use(*a)));
                op.neutral.iter().for_each(|o| op_use(o, f));
                walk_lambda(&op.op, f);
            }
            walk_lambda(&h.map, f);
        }
        Exp::Scatter(s) => {
            op_use(&s.w, f);
            s.inputs.iter().for_each(|a| f(Occ::Use(*a)));
            s.dests.iter().for_each(|d| f(Occ::Use(d.arr)));
            walk_lambda(&s.map, f);
        }
        Exp::WithAcc(w) => {
            for i in &w.inputs {
                f(Occ::Use(i.arr));
                if let Some((l, n)) = &i.op {
                    op_use(n, f);
                    walk_lambda(l, f);
                }
            }
            walk_lambda(&w.lambda, f);
        }
        Exp::UpdateAcc { acc, idx, value } => {
            f(Occ::Use(*acc));
            idx.iter().for_each(|o| op_use(o, f));
            op_use(value, f);
        }
        Exp::Jvp(a) | Exp::Vjp(a) => {
            a.primals.iter().for_each(|o| op_use(o, f));
            a.seeds.iter().for_each(|o| op_use(o, f));
            walk_lambda(&a.lambda, f);
        }
        Exp::CustomVjp(c) => {
            c.args.iter().for_each(|o| op_use(o, f));
            walk_lambda(&c.f, f);
            walk_lambda(&c.fprime, f);
        }
    }
}

fn sizes_mut(s: &mut [Size], f: &mut impl FnMut(Slot<'_>)) {
    for d in s {
        f(Slot::Size(d));
    }
}

fn dims_mut(idx: &mut [DimIndex], f: &mut impl FnMut(Slot<'_>)) {
    for d in idx {
        match d {
            DimIndex::Fix(o) => f(Slot::Operand(o)),
            DimIndex::Range { start, len, stride } => {
                f(Slot::Operand(start));
                f(Slot::Operand(len));
                f(Slot::Operand(stride));
            }
        }
    }
}

/// Hands out every variable position of a lambda mutably.
pub fn walk_lambda_mut(l: &mut Lambda, f: &mut impl FnMut(Slot<'_>)) {
    for p in &mut l.params {
        f(Slot::Bind(&mut p.var));
    }
    for t in &mut l.ret {
        sizes_mut(&mut t.shape, f);
    }
    walk_body_mut(&mut l.body, f);
}

/// Hands out every variable position of a body mutably.
pub fn walk_body_mut(b: &mut Body, f: &mut impl FnMut(Slot<'_>)) {
    for s in &mut b.stms {
        walk_exp_mut(&mut s.exp, f);
        for v in &mut s.pat {
            f(Slot::Bind(v));
        }
    }
    for o in &mut b.result {
        f(Slot::Operand(o));
    }
}

/// Hands out every variable position of an expression mutably, nested
/// bodies included, in the order of [`walk_exp`].
pub fn walk_exp_mut(e: &mut Exp, f: &mut impl FnMut(Slot<'_>)) {
    match e {
        Exp::Atom(o) | Exp::UnOp(_, o) | Exp::Convert(_, _, o) => f(Slot::Operand(o)),
        Exp::BinOp(_, x, y) | Exp::Cmp(_, x, y) => {
            f(Slot::Operand(x));
            f(Slot::Operand(y));
        }
        Exp::Math(_, args) | Exp::Apply { args, .. } => {
            args.iter_mut().for_each(|a| f(Slot::Operand(a)))
        }
        Exp::Index(arr, idx) => {
            f(Slot::Var(arr));
            dims_mut(idx, f);
        }
        Exp::Update(arr, idx, v) => {
            f(Slot::Var(arr));
            dims_mut(idx, f);
            f(Slot::Operand(v));
        }
        Exp::Iota { n, start, step } => {
            f(Slot::Operand(n));
            f(Slot::Operand(start));
            f(Slot::Operand(step));
        }
        Exp::Replicate { shape, value } => {
            sizes_mut(shape, f);
            f(Slot::Operand(value));
        }
        Exp::Reshape { shape, arr } => {
            sizes_mut(shape, f);
            f(Slot::Var(arr));
        }
        Exp::Rearrange { arr, .. } | Exp::Copy(arr) => f(Slot::Var(arr)),
        Exp::Concat { len, arrs, .. } => {
            f(Slot::Size(len));
            arrs.iter_mut().for_each(|a| f(Slot::Var(a)));
        }
        Exp::Scratch { shape, .. } => sizes_mut(shape, f),
        Exp::If {
            cond,
            then_body,
            else_body,
        } => {
            f(Slot::Operand(cond));
            walk_body_mut(then_body, f);
            walk_body_mut(else_body, f);
        }
        Exp::Loop { params, form, body } => {
            for (_, init) in params.iter_mut() {
                f(Slot::Operand(init));
            }
            match form {
                LoopForm::For { i, bound } => {
                    f(Slot::Operand(bound));
                    f(Slot::Bind(i));
                }
                LoopForm::While { cond } => f(Slot::Bind(cond)),
            }
            for (p, _) in params.iter_mut() {
                f(Slot::Bind(&mut p.var));
            }
            walk_body_mut(body, f);
        }
        Exp::Assert { cond, args, .. } => {
            f(Slot::Operand(cond));
            args.iter_mut().for_each(|a| f(Slot::Operand(a)));
        }
        Exp::Screma(s) => {
            f(Slot::Operand(&mut s.w));
            s.inputs.iter_mut().for_each(|a| f(Slot::Var(a)));
            for sr in s.scans.iter_mut().chain(s.reduces.iter_mut()) {
                sr.neutral.iter_mut().for_each(|o| f(Slot::Operand(o)));
                walk_lambda_mut(&mut sr.op, f);
            }
            walk_lambda_mut(&mut s.map, f);
        }
        Exp::Hist(h) => {
            f(Slot::Operand(&mut h.w));
            h.inputs.iter_mut().for_each(|a| f(Slot::Var(a)));
            for op in &mut h.hists {
                op.dests.iter_mut().for_each(|a| f(Slot::Var(a)));
                op.neutral.iter_mut().for_each(|o| f(Slot::Operand(o)));
                walk_lambda_mut(&mut op.op, f);
            }
            walk_lambda_mut(&mut h.map, f);
        }
        Exp::Scatter(s) => {
            f(Slot::Operand(&mut s.w));
            s.inputs.iter_mut().for_each(|a| f(Slot::Var(a)));
            s.dests.iter_mut().for_each(|d| f(Slot::Var(&mut d.arr)));
            walk_lambda_mut(&mut s.map, f);
        }
        Exp::WithAcc(w) => {
            for i in &mut w.inputs {
                f(Slot::Var(&mut i.arr));
                if let Some((l, n)) = &mut i.op {
                    f(Slot::Operand(n));
                    walk_lambda_mut(l, f);
                }
            }
            walk_lambda_mut(&mut w.lambda, f);
        }
        Exp::UpdateAcc { acc, idx, value } => {
            f(Slot::Var(acc));
            idx.iter_mut().for_each(|o| f(Slot::Operand(o)));
            f(Slot::Operand(value));
        }
        Exp::Jvp(a) | Exp::Vjp(a) => {
            a.primals.iter_mut().for_each(|o| f(Slot::Operand(o)));
            a.seeds.iter_mut().for_each(|o| f(Slot::Operand(o)));
            walk_lambda_mut(&mut a.lambda, f);
        }
        Exp::CustomVjp(c) => {
            c.args.iter_mut().for_each(|o| f(Slot::Operand(o)));
            walk_lambda_mut(&mut c.f, f);
            walk_lambda_mut(&mut c.fprime, f);
        }
    }
}

/// The bodies directly nested in `e` (branches, loop body, lambda bodies),
/// mutably.
pub fn nested_bodies_mut(e: &mut Exp) -> Vec<&mut Body> {
    match e {
        Exp::If {
            then_body,
            else_body,
            ..
        } => vec![then_body, else_body],
        Exp::Loop { body, .. } => vec![body],
        Exp::Screma(s) => {
            let s = &mut **s;
            let mut v: Vec<&mut Body> = s
                .scans
                .iter_mut()
                .chain(s.reduces.iter_mut())
                .map(|sr| &mut sr.op.body)
                .collect();
            v.push(&mut s.map.body);
            v
        }
        Exp::Hist(h) => {
            let h = &mut **h;
            let mut v: Vec<&mut Body> = h.hists.iter_mut().map(|o| &mut o.op.body).collect();
            v.push(&mut h.map.body);
            v
        }
        Exp::Scatter(s) => vec![&mut s.map.body],
        Exp::WithAcc(w) => {
            let w = &mut **w;
            let mut v: Vec<&mut Body> = w
                .inputs
                .iter_mut()
                .filter_map(|i| i.op.as_mut().map(|(l, _)| &mut l.body))
                .collect();
            v.push(&mut w.lambda.body);
            v
        }
        Exp::Jvp(a) | Exp::Vjp(a) => vec![&mut a.lambda.body],
        Exp::CustomVjp(c) => {
            let c = &mut **c;
            vec![&mut c.f.body, &mut c.fprime.body]
        }
        _ => vec![],
    }
}

/// Applies `subst` to one used position; binding positions are left alone.
/// A constant is only put where an operand or a size (an `i64` constant)
/// may stand.
pub fn subst_slot(subst: &HashMap<VarId, Operand>, slot: Slot<'_>) {
    match slot {
        Slot::Operand(o) => {
            if let Operand::Var(v) = o
                && let Some(r) = subst.get(v)
            {
                *o = *r;
            }
        }
        Slot::Var(v) => {
            if let Some(Operand::Var(r)) = subst.get(v) {
                *v = *r;
            }
        }
        Slot::Size(s) => {
            if let Size::Var(v) = s
                && let Some(r) = subst.get(v)
            {
                let n = r.to_size();
                if n != Size::Any {
                    *s = n;
                }
            }
        }
        Slot::Bind(_) => {}
    }
}

/// Applies `subst` to the sizes of a type.
pub fn subst_type(subst: &HashMap<VarId, Operand>, t: &mut Type) {
    for d in &mut t.shape {
        subst_slot(subst, Slot::Size(d));
    }
}

/// Replaces every use of a variable in `subst` in the body of `f` and in
/// the types of its variables. `subst` should be idempotent (no key occurs
/// in a value).
pub fn substitute(f: &mut Function, subst: &HashMap<VarId, Operand>) {
    if subst.is_empty() {
        return;
    }
    walk_body_mut(&mut f.body, &mut |s| subst_slot(subst, s));
    let keys: Vec<VarId> = f.vars.keys().collect();
    for k in keys {
        subst_type(subst, &mut f.vars[k].ty);
    }
    for t in &mut f.ret {
        subst_type(subst, t);
    }
}

/// The number of uses of each variable of `f`: as operands, arrays and
/// sizes in expressions, and as sizes in the types of the variables bound
/// in the body (those bound by removed statements do not count).
pub fn use_counts(f: &Function) -> HashMap<VarId, usize> {
    let mut counts: HashMap<VarId, usize> = HashMap::new();
    let mut bound = Vec::new();
    walk_body(&f.body, &mut |o| match o {
        Occ::Use(v) => *counts.entry(v).or_default() += 1,
        Occ::Bind(v) => bound.push(v),
    });
    for v in bound.into_iter().chain(f.params.iter().map(|p| p.var)) {
        if let Some(t) = f.var_type(v) {
            for d in &t.shape {
                if let Size::Var(s) = d {
                    *counts.entry(*s).or_default() += 1;
                }
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program;
    use crate::print::print_program;

    #[test]
    fn substitution_reaches_operands_sizes_and_types() {
        let src = "fun main(n: i64, m: i64) -> (i64) {\n  let xs: [m]i64 = iota(m, 0i64, 1i64)\n  let y: i64 = xs[0i64]\n  let z: i64 = add(y, m)\n  in (z)\n}\n";
        let mut p = parse_program(src).unwrap();
        let fid = p.function_by_name("main").unwrap();
        let f = &mut p.functions[fid];
        let n = f.params[0].var;
        let m = f.params[1].var;
        let counts = use_counts(f);
        assert_eq!(counts.get(&m), Some(&3));
        let subst = HashMap::from([(m, Operand::Var(n))]);
        substitute(f, &subst);
        let text = print_program(&p);
        assert!(
            text.contains("let xs: [n]i64 = iota(n, 0i64, 1i64)"),
            "{text}"
        );
        assert!(text.contains("add(y, n)"), "{text}");
    }

    #[test]
    fn walk_reports_bindings_inside_lambdas() {
        let src = "fun main(xs: [3]i32) -> ([3]i32) {\n  let ys: [3]i32 = screma(3i64, xs)\n    map(\\(x: i32) -> (i32) {\n      let y: i32 = add(x, 1i32)\n      in (y)\n    })\n  in (ys)\n}\n";
        let p = parse_program(src).unwrap();
        let f = &p.functions[p.function_by_name("main").unwrap()];
        let mut binds = 0;
        let mut uses = 0;
        walk_body(&f.body, &mut |o| match o {
            Occ::Bind(_) => binds += 1,
            Occ::Use(_) => uses += 1,
        });
        // Binds x, y, ys; uses xs, x, y, ys.
        assert_eq!((binds, uses), (3, 4));
    }
}
