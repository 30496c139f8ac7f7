//! Facts about expressions that the rules consult: which variables are
//! consumed (closed under aliasing), whether an expression consumes, may
//! fail at run time, or contains an assertion or a call.

use std::collections::{HashMap, HashSet};

use ir::walk::{Occ, walk_exp};
use ir::{Body, Exp, FunId, Function, LoopForm, Operand, PrimValue, Program, VarId};

/// For each function, which of its parameters are unique.
pub type UniqueParams = HashMap<FunId, Vec<bool>>;

/// The unique parameters of every function of `p`.
pub fn unique_params(p: &Program) -> UniqueParams {
    p.functions
        .iter()
        .map(|(id, f)| (id, f.params.iter().map(|q| q.unique).collect()))
        .collect()
}

fn each_stm(b: &Body, f: &mut impl FnMut(&ir::Stm)) {
    for s in &b.stms {
        f(s);
        each_nested(&s.exp, &mut |nb| each_stm(nb, f));
    }
}

/// Calls `f` on every body directly nested in `e` (branches, loop bodies,
/// lambda bodies).
pub fn each_nested(e: &Exp, f: &mut impl FnMut(&Body)) {
    match e {
        Exp::If {
            then_body,
            else_body,
            ..
        } => {
            f(then_body);
            f(else_body);
        }
        Exp::Loop { body, .. } => f(body),
        Exp::Screma(s) => {
            for sr in s.scans.iter().chain(&s.reduces) {
                f(&sr.op.body);
            }
            f(&s.map.body);
        }
        Exp::Hist(h) => {
            for op in &h.hists {
                f(&op.op.body);
            }
            f(&h.map.body);
        }
        Exp::Scatter(s) => f(&s.map.body),
        Exp::WithAcc(w) => {
            for i in &w.inputs {
                if let Some((l, _)) = &i.op {
                    f(&l.body);
                }
            }
            f(&w.lambda.body);
        }
        Exp::Jvp(a) | Exp::Vjp(a) => f(&a.lambda.body),
        Exp::CustomVjp(c) => {
            f(&c.f.body);
            f(&c.fprime.body);
        }
        _ => {}
    }
}

/// The variables `e` consumes directly (not inside nested bodies).
pub fn direct_consumes(e: &Exp, fun: &Function, uniq: &UniqueParams) -> Vec<VarId> {
    let mut out = Vec::new();
    match e {
        Exp::Update(arr, _, _) => out.push(*arr),
        Exp::UpdateAcc { acc, .. } => out.push(*acc),
        Exp::Scatter(s) => out.extend(s.dests.iter().map(|d| d.arr)),
        Exp::Hist(h) => out.extend(h.hists.iter().flat_map(|o| o.dests.iter().copied())),
        Exp::WithAcc(w) => out.extend(w.inputs.iter().map(|i| i.arr)),
        Exp::Screma(s) => {
            for (k, v) in s.inputs.iter().enumerate() {
                let acc = fun.var_type(*v).is_some_and(|t| t.acc);
                let unique = s.map.params.get(k).is_some_and(|p| p.unique);
                if acc || unique {
                    out.push(*v);
                }
            }
        }
        Exp::Apply { fun: g, args } => {
            if let Some(u) = uniq.get(g) {
                for (a, &un) in args.iter().zip(u) {
                    if let (true, Operand::Var(v)) = (un, a) {
                        out.push(*v);
                    }
                }
            }
        }
        Exp::Loop { params, .. } => {
            for (p, init) in params {
                if let (true, Operand::Var(v)) = (p.unique, init) {
                    out.push(*v);
                }
            }
        }
        _ => {}
    }
    out
}

/// True when `e` or anything nested in it consumes a variable.
pub fn consumes(e: &Exp, fun: &Function, uniq: &UniqueParams) -> bool {
    if !direct_consumes(e, fun, uniq).is_empty() {
        return true;
    }
    let mut any = false;
    each_nested(e, &mut |b| {
        each_stm(b, &mut |s| {
            any |= !direct_consumes(&s.exp, fun, uniq).is_empty()
        })
    });
    any
}

/// The variables bound outside `e` that `e` or anything nested in it
/// consumes (a loop consuming its own unique parameters consumes only
/// their initial values).
pub fn free_consumed(e: &Exp, fun: &Function, uniq: &UniqueParams) -> HashSet<VarId> {
    let mut out: HashSet<VarId> = direct_consumes(e, fun, uniq).into_iter().collect();
    each_nested(e, &mut |b| {
        each_stm(b, &mut |s| out.extend(direct_consumes(&s.exp, fun, uniq)))
    });
    let mut bound = HashSet::new();
    walk_exp(e, &mut |o| {
        if let Occ::Bind(v) = o {
            bound.insert(v);
        }
    });
    out.retain(|v| !bound.contains(v));
    out
}

/// The variables of `fun` that are consumed somewhere, together with every
/// variable that aliases one of them or that one of them aliases (plain
/// copies, slices, `reshape`, `rearrange`, `if` and loop results).
pub fn consumed_vars(fun: &Function, uniq: &UniqueParams) -> HashSet<VarId> {
    let mut consumed = HashSet::new();
    each_stm(&fun.body, &mut |s| {
        consumed.extend(direct_consumes(&s.exp, fun, uniq))
    });
    alias_closure(fun, consumed)
}

/// [`consumed_vars`], except that the result of a loop at a unique
/// parameter aliases the body's result only when that is bound outside the
/// loop: what an iteration consumes is the parameter's value then, not the
/// loop's result. For asking whether a statement's results are consumed
/// after it.
pub fn consumed_after(fun: &Function, uniq: &UniqueParams) -> HashSet<VarId> {
    let mut consumed = HashSet::new();
    each_stm(&fun.body, &mut |s| {
        consumed.extend(direct_consumes(&s.exp, fun, uniq))
    });
    close_aliases(fun, &fun.body, consumed, false)
}

/// The variables that the results of a function with body `body` may
/// alias: the results, and every variable aliasing one of them or aliased
/// by one (as in [`consumed_vars`]). A caller may consume a result, so their storage
/// must not be shared with a parameter.
pub fn escaping_vars(fun: &Function, body: &Body) -> HashSet<VarId> {
    let results: HashSet<VarId> = body.result.iter().filter_map(Operand::var).collect();
    alias_closure_in(fun, body, results)
}

/// `seeds` with every variable of `fun` aliasing one of them or aliased by
/// one, transitively.
fn alias_closure(fun: &Function, seeds: HashSet<VarId>) -> HashSet<VarId> {
    alias_closure_in(fun, &fun.body, seeds)
}

/// [`alias_closure`] over the statements of `body` (the variables of
/// `fun`). A scalar aliases nothing.
fn alias_closure_in(fun: &Function, body: &Body, set: HashSet<VarId>) -> HashSet<VarId> {
    close_aliases(fun, body, set, true)
}

/// [`alias_closure_in`]; `inner_results`: a loop's result at a unique
/// parameter aliases its body's result even when that is bound inside.
fn close_aliases(
    fun: &Function,
    body: &Body,
    mut set: HashSet<VarId>,
    inner_results: bool,
) -> HashSet<VarId> {
    let mut alias: Vec<(VarId, VarId)> = Vec::new();
    each_stm(body, &mut |s| {
        // Each result aliases what its own position returns.
        let mut add = |k: usize, o: &Operand| {
            if let (Some(&y), Operand::Var(x)) = (s.pat.get(k), o)
                && fun.var_type(y).is_some_and(|t| !t.is_scalar())
            {
                alias.push((y, *x));
            }
        };
        match &s.exp {
            Exp::Atom(o) => add(0, o),
            Exp::Index(x, _) | Exp::Reshape { arr: x, .. } | Exp::Rearrange { arr: x, .. } => {
                add(0, &Operand::Var(*x))
            }
            Exp::If {
                then_body,
                else_body,
                ..
            } => {
                for (k, o) in then_body.result.iter().enumerate() {
                    add(k, o);
                }
                for (k, o) in else_body.result.iter().enumerate() {
                    add(k, o);
                }
            }
            Exp::Loop { params, body, .. } => {
                // A unique parameter owns its value: the loop consumes its
                // initial value, and what the body does to the parameter
                // happens before the loop's results exist, so neither is an
                // alias of the result.
                for (k, (p, init)) in params.iter().enumerate() {
                    if !p.unique {
                        add(k, &Operand::Var(p.var));
                        add(k, init);
                    }
                }
                let inside = bound_in(body);
                for (k, o) in body.result.iter().enumerate() {
                    let unique = params.get(k).is_some_and(|(p, _)| p.unique);
                    if inner_results || !unique || o.var().is_none_or(|v| !inside.contains(&v)) {
                        add(k, o);
                    }
                }
            }
            _ => {}
        }
    });
    loop {
        let before = set.len();
        for &(y, x) in &alias {
            if set.contains(&y) || set.contains(&x) {
                set.insert(x);
                set.insert(y);
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// The variables bound in `b` (nested bodies included).
fn bound_in(b: &Body) -> HashSet<VarId> {
    let mut out = HashSet::new();
    ir::walk::walk_body(b, &mut |o| {
        if let Occ::Bind(v) = o {
            out.insert(v);
        }
    });
    out
}

/// True when `e` or anything nested in it is an assertion or a function
/// call (whose body may assert).
pub fn has_effect(e: &Exp) -> bool {
    let direct = |e: &Exp| matches!(e, Exp::Assert { .. } | Exp::Apply { .. });
    if direct(e) {
        return true;
    }
    let mut any = false;
    each_nested(e, &mut |b| each_stm(b, &mut |s| any |= direct(&s.exp)));
    any
}

/// True when `e` or anything nested in it is a function call.
pub fn has_call(e: &Exp) -> bool {
    let direct = |e: &Exp| matches!(e, Exp::Apply { .. });
    if direct(e) {
        return true;
    }
    let mut any = false;
    each_nested(e, &mut |b| each_stm(b, &mut |s| any |= direct(&s.exp)));
    any
}

fn nonzero_const(o: &Operand) -> bool {
    matches!(o, Operand::Const(c) if c.as_i128().is_some_and(|x| x != 0))
}

fn nonneg_const(o: &Operand) -> bool {
    matches!(o, Operand::Const(c) if c.as_i128().is_some_and(|x| x >= 0))
}

/// True when evaluating `e` may fail at run time (or not terminate). Only
/// scalar operations that cannot fail, conversions, math functions,
/// `copy`, `rearrange`, and arrays of constant non-negative sizes are
/// known not to.
pub fn may_fail(e: &Exp, fun: &Function) -> bool {
    use ir::BinOp::*;
    let const_shape = |s: &[ir::Size]| s.iter().all(|d| matches!(d, ir::Size::Const(n) if *n >= 0));
    match e {
        Exp::Atom(_) | Exp::UnOp(..) | Exp::Cmp(..) | Exp::Convert(..) | Exp::Math(..) => false,
        Exp::BinOp(op, x, y) => {
            let int = match x {
                Operand::Const(c) => c.prim_type().is_integer(),
                Operand::Var(v) => fun.var_type(*v).is_some_and(|t| t.elem.is_integer()),
            };
            int && match op {
                Div | Mod | Quot | Rem => !nonzero_const(y),
                Pow => !nonneg_const(y),
                _ => false,
            }
        }
        Exp::Copy(_) | Exp::Rearrange { .. } => false,
        Exp::Replicate { shape, .. } | Exp::Scratch { shape, .. } => !const_shape(shape),
        Exp::Iota { n, .. } => !nonneg_const(n),
        _ => true,
    }
}

/// True when a `for` loop or a SOAC of this trip count certainly runs at
/// least once.
pub fn runs_at_least_once(trip: &Operand) -> bool {
    matches!(trip, Operand::Const(c) if c.as_i128().is_some_and(|x| x > 0))
}

/// The trip count of a loop form, if it is a `for` loop; a `while` loop
/// whose condition starts `true` runs at least once.
pub fn loop_runs_at_least_once(form: &LoopForm, params: &[(ir::Param, Operand)]) -> bool {
    match form {
        LoopForm::For { bound, .. } => runs_at_least_once(bound),
        LoopForm::While { cond } => params
            .iter()
            .any(|(p, init)| p.var == *cond && *init == Operand::Const(PrimValue::Bool(true))),
    }
}

/// The variables used by `e` that are not bound inside it, including the
/// sizes in the types of the variables it binds.
pub fn free_vars(e: &Exp, fun: &Function) -> HashSet<VarId> {
    let mut uses = HashSet::new();
    let mut binds = HashSet::new();
    walk_exp(e, &mut |o| match o {
        Occ::Use(v) => {
            uses.insert(v);
        }
        Occ::Bind(v) => {
            binds.insert(v);
            if let Some(t) = fun.var_type(v) {
                for d in &t.shape {
                    if let ir::Size::Var(s) = d {
                        uses.insert(*s);
                    }
                }
            }
        }
    });
    uses.retain(|v| !binds.contains(v));
    uses
}
