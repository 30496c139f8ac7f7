//! Which variables an expression uses, binds and consumes.
//!
//! Every variable of a function is bound exactly once (see [`crate::verify`]),
//! so the free variables of an expression are the variables it mentions
//! minus those bound inside it; no renaming is ever needed to compute them.
//!
//! - [`exp_uses`]: every variable mentioned by an expression, including in
//!   nested bodies and in the sizes of the types of variables bound inside.
//! - [`exp_binds`]: every variable bound inside an expression (lambda and
//!   loop parameters, `for` indices, patterns of nested statements).
//! - [`exp_free`] and [`lambda_free`]: uses minus binds.
//! - [`exp_consumes`]: the variables an expression consumes, conservatively
//!   including consumptions anywhere in its nested bodies.
//! - [`nested_bodies`]: the bodies directly inside an expression, for passes
//!   that rewrite every body of a function.

use std::collections::HashSet;

use crate::arena::PrimaryMap;
use crate::ids::{FunId, VarId};
use crate::syntax::*;
use crate::types::{Size, Type};

/// The variables of a function (its arena), for the sizes in their types.
pub type Vars = PrimaryMap<VarId, VarInfo>;

fn op(o: &Operand, out: &mut HashSet<VarId>) {
    if let Operand::Var(v) = o {
        out.insert(*v);
    }
}

fn size(s: &Size, out: &mut HashSet<VarId>) {
    if let Size::Var(v) = s {
        out.insert(*v);
    }
}

fn ty(t: &Type, out: &mut HashSet<VarId>) {
    for s in &t.shape {
        size(s, out);
    }
}

fn bound(vars: &Vars, v: VarId, out: &mut HashSet<VarId>) {
    if let Some(i) = vars.get(v) {
        ty(&i.ty, out);
    }
}

fn dims(idx: &[DimIndex], out: &mut HashSet<VarId>) {
    for d in idx {
        match d {
            DimIndex::Fix(i) => op(i, out),
            DimIndex::Range { start, len, stride } => {
                op(start, out);
                op(len, out);
                op(stride, out);
            }
        }
    }
}

/// Every variable mentioned by `b`: in its statements, results, and the
/// types of the variables it binds.
pub fn body_uses(vars: &Vars, b: &Body, out: &mut HashSet<VarId>) {
    for s in &b.stms {
        for v in &s.pat {
            out.insert(*v);
            bound(vars, *v, out);
        }
        exp_uses(vars, &s.exp, out);
    }
    for o in &b.result {
        op(o, out);
    }
}

/// Every variable mentioned by `l`, its parameters included.
pub fn lambda_uses(vars: &Vars, l: &Lambda, out: &mut HashSet<VarId>) {
    for p in &l.params {
        out.insert(p.var);
        bound(vars, p.var, out);
    }
    for t in &l.ret {
        ty(t, out);
    }
    body_uses(vars, &l.body, out);
}

/// Every variable mentioned by `e`, including inside nested bodies and in
/// the types of the variables bound there.
pub fn exp_uses(vars: &Vars, e: &Exp, out: &mut HashSet<VarId>) {
    match e {
        Exp::Atom(o) | Exp::UnOp(_, o) | Exp::Convert(_, _, o) => op(o, out),
        Exp::BinOp(_, x, y) | Exp::Cmp(_, x, y) => {
            op(x, out);
            op(y, out);
        }
        Exp::Math(_, os) | Exp::Apply { args: os, .. } => os.iter().for_each(|o| op(o, out)),
        Exp::Index(a, idx) => {
            out.insert(*a);
            dims(idx, out);
        }
        Exp::Update(a, idx, v) => {
            out.insert(*a);
            dims(idx, out);
            op(v, out);
        }
        Exp::Iota { n, start, step } => {
            op(n, out);
            op(start, out);
            op(step, out);
        }
        Exp::Replicate { shape, value } => {
            shape.iter().for_each(|s| size(s, out));
            op(value, out);
        }
        Exp::Reshape { shape, arr } => {
            shape.iter().for_each(|s| size(s, out));
            out.insert(*arr);
        }
        Exp::Rearrange { arr, .. } | Exp::Copy(arr) => {
            out.insert(*arr);
        }
        Exp::Concat { len, arrs, .. } => {
            size(len, out);
            out.extend(arrs.iter().copied());
        }
        Exp::Scratch { shape, .. } => shape.iter().for_each(|s| size(s, out)),
        Exp::If {
            cond,
            then_body,
            else_body,
        } => {
            op(cond, out);
            body_uses(vars, then_body, out);
            body_uses(vars, else_body, out);
        }
        Exp::Loop { params, form, body } => {
            for (p, init) in params {
                out.insert(p.var);
                bound(vars, p.var, out);
                op(init, out);
            }
            match form {
                LoopForm::For { i, bound: n } => {
                    out.insert(*i);
                    op(n, out);
                }
                LoopForm::While { cond } => {
                    out.insert(*cond);
                }
            }
            body_uses(vars, body, out);
        }
        Exp::Assert { cond, args, .. } => {
            op(cond, out);
            args.iter().for_each(|a| op(a, out));
        }
        Exp::Screma(s) => {
            op(&s.w, out);
            out.extend(s.inputs.iter().copied());
            for sr in s.scans.iter().chain(&s.reduces) {
                sr.neutral.iter().for_each(|o| op(o, out));
                lambda_uses(vars, &sr.op, out);
            }
            lambda_uses(vars, &s.map, out);
        }
        Exp::Hist(h) => {
            op(&h.w, out);
            out.extend(h.inputs.iter().copied());
            for hop in &h.hists {
                out.extend(hop.dests.iter().copied());
                hop.neutral.iter().for_each(|o| op(o, out));
                lambda_uses(vars, &hop.op, out);
            }
            lambda_uses(vars, &h.map, out);
        }
        Exp::Scatter(s) => {
            op(&s.w, out);
            out.extend(s.inputs.iter().copied());
            out.extend(s.dests.iter().map(|d| d.arr));
            lambda_uses(vars, &s.map, out);
        }
        Exp::WithAcc(w) => {
            for i in &w.inputs {
                out.insert(i.arr);
                if let Some((l, ne)) = &i.op {
                    lambda_uses(vars, l, out);
                    op(ne, out);
                }
            }
            lambda_uses(vars, &w.lambda, out);
        }
        Exp::UpdateAcc { acc, idx, value } => {
            out.insert(*acc);
            idx.iter().for_each(|o| op(o, out));
            op(value, out);
        }
        Exp::Jvp(ad) | Exp::Vjp(ad) => {
            lambda_uses(vars, &ad.lambda, out);
            ad.primals.iter().for_each(|o| op(o, out));
            ad.seeds.iter().for_each(|o| op(o, out));
        }
        Exp::CustomVjp(c) => {
            lambda_uses(vars, &c.f, out);
            lambda_uses(vars, &c.fprime, out);
            c.args.iter().for_each(|o| op(o, out));
        }
    }
}

/// The bodies directly inside `e` with the variables each binds on entry
/// (lambda and loop parameters, a `for` index).
pub fn nested_bodies(e: &Exp) -> Vec<(Vec<VarId>, &Body)> {
    fn lam(l: &Lambda) -> (Vec<VarId>, &Body) {
        (l.params.iter().map(|p| p.var).collect(), &l.body)
    }
    match e {
        Exp::If {
            then_body,
            else_body,
            ..
        } => vec![(vec![], then_body), (vec![], else_body)],
        Exp::Loop { params, form, body } => {
            let mut ps: Vec<VarId> = params.iter().map(|(p, _)| p.var).collect();
            if let LoopForm::For { i, .. } = form {
                ps.push(*i);
            }
            vec![(ps, body)]
        }
        Exp::Screma(s) => {
            let mut v: Vec<_> = s
                .scans
                .iter()
                .chain(&s.reduces)
                .map(|x| lam(&x.op))
                .collect();
            v.push(lam(&s.map));
            v
        }
        Exp::Hist(h) => {
            let mut v: Vec<_> = h.hists.iter().map(|x| lam(&x.op)).collect();
            v.push(lam(&h.map));
            v
        }
        Exp::Scatter(s) => vec![lam(&s.map)],
        Exp::WithAcc(w) => {
            let mut v: Vec<_> = w
                .inputs
                .iter()
                .filter_map(|i| i.op.as_ref().map(|(l, _)| lam(l)))
                .collect();
            v.push(lam(&w.lambda));
            v
        }
        Exp::Jvp(ad) | Exp::Vjp(ad) => vec![lam(&ad.lambda)],
        Exp::CustomVjp(c) => vec![lam(&c.f), lam(&c.fprime)],
        _ => vec![],
    }
}

/// Every variable bound inside `b`, nested bodies included.
pub fn body_binds(b: &Body, out: &mut HashSet<VarId>) {
    for s in &b.stms {
        out.extend(s.pat.iter().copied());
        exp_binds(&s.exp, out);
    }
}

/// Every variable bound inside `e` (not its own pattern).
pub fn exp_binds(e: &Exp, out: &mut HashSet<VarId>) {
    for (ps, b) in nested_bodies(e) {
        out.extend(ps);
        body_binds(b, out);
    }
}

/// The free variables of `e`: mentioned but not bound inside it.
pub fn exp_free(vars: &Vars, e: &Exp) -> HashSet<VarId> {
    let mut uses = HashSet::new();
    exp_uses(vars, e, &mut uses);
    let mut binds = HashSet::new();
    exp_binds(e, &mut binds);
    uses.retain(|v| !binds.contains(v));
    uses
}

/// The free variables of `l`.
pub fn lambda_free(vars: &Vars, l: &Lambda) -> HashSet<VarId> {
    let mut uses = HashSet::new();
    lambda_uses(vars, l, &mut uses);
    let mut binds: HashSet<VarId> = l.params.iter().map(|p| p.var).collect();
    body_binds(&l.body, &mut binds);
    uses.retain(|v| !binds.contains(v));
    uses
}

/// The variables `e` consumes, including consumptions anywhere inside its
/// nested bodies (a conservative over-approximation for `if` and loops).
/// `functions` decides which arguments of an `apply` are consumed.
pub fn exp_consumes(
    functions: &PrimaryMap<FunId, Function>,
    vars: &Vars,
    e: &Exp,
    out: &mut HashSet<VarId>,
) {
    match e {
        Exp::Update(a, _, _) => {
            out.insert(*a);
        }
        Exp::UpdateAcc { acc, .. } => {
            out.insert(*acc);
        }
        Exp::Apply { fun, args } => {
            if let Some(f) = functions.get(*fun) {
                for (p, a) in f.params.iter().zip(args) {
                    if p.unique {
                        op(a, out);
                    }
                }
            }
        }
        Exp::Loop { params, .. } => {
            for (p, init) in params {
                if p.unique {
                    op(init, out);
                }
            }
        }
        Exp::Screma(s) => {
            for (i, input) in s.inputs.iter().enumerate() {
                let unique = s.map.params.get(i).is_some_and(|p| p.unique);
                let acc = vars.get(*input).is_some_and(|v| v.ty.acc);
                if unique || acc {
                    out.insert(*input);
                }
            }
        }
        Exp::Hist(h) => {
            for hop in &h.hists {
                out.extend(hop.dests.iter().copied());
            }
        }
        Exp::Scatter(s) => out.extend(s.dests.iter().map(|d| d.arr)),
        Exp::WithAcc(w) => out.extend(w.inputs.iter().map(|i| i.arr)),
        _ => {}
    }
    for (_, b) in nested_bodies(e) {
        for s in &b.stms {
            exp_consumes(functions, vars, &s.exp, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program;

    const SRC: &str = "fun main(n: i64, xs: [n]f64, *ys: [n]f64) -> (f64, [n]f64) {
  let k: f64 = xs[0i64]
  let s: f64 = screma(n, xs)
    reduce(\\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\\(x: f64) -> (f64) {
      let p: f64 = mul(x, k)
      in (p)
    })
  let ys2: [n]f64 = ys with [0i64] = s
  in (s, ys2)
}
";

    fn names(f: &Function, set: &HashSet<VarId>) -> Vec<String> {
        let mut v: Vec<String> = set.iter().map(|v| f.vars[*v].name.clone()).collect();
        v.sort();
        v
    }

    #[test]
    fn free_bound_and_consumed() {
        let prog = parse_program(SRC).unwrap();
        let f = prog.functions.values().next().unwrap();
        let screma = &f.body.stms[1].exp;
        assert_eq!(names(f, &exp_free(&f.vars, screma)), ["k", "n", "xs"]);
        let mut b = HashSet::new();
        exp_binds(screma, &mut b);
        assert_eq!(names(f, &b), ["a", "b", "c", "p", "x"]);
        let mut c = HashSet::new();
        exp_consumes(&prog.functions, &f.vars, &f.body.stms[2].exp, &mut c);
        assert_eq!(names(f, &c), ["ys"]);
        let Exp::Screma(s) = screma else {
            panic!("not a screma")
        };
        assert_eq!(names(f, &lambda_free(&f.vars, &s.map)), ["k"]);
        assert_eq!(nested_bodies(screma).len(), 2);
    }
}
