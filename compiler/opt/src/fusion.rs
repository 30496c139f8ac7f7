//! The `fusion` pass: producer–consumer (vertical) and sibling (horizontal)
//! fusion of SOACs, within one body at a time.
//!
//! Every body of every function (nested bodies first) is rewritten until no
//! rule applies. Fusion only moves code, so every variable stays bound
//! exactly once; the fused lambda binds the consumer's parameters with
//! plain `let` statements to the producer's results.
//!
//! # Rules
//!
//! - **map into SOAC**: `ys = screma w xs map(f)` (a screma with only a map
//!   part) whose results are used by exactly one later `screma`, `hist` or
//!   `scatter` of the same width `w`, only as its inputs, is removed; the
//!   consumer takes `f`'s inputs instead and its lambda starts with `f`'s
//!   body. This covers map into map (a chain of maps becomes one map), map
//!   into reduce and scan (a screma with map part and operators), and map
//!   into `hist` and `scatter` (the indices and values are computed inside
//!   the consumer's lambda). An input that the consumer already takes is
//!   read once.
//! - **iota into SOAC**: `is = iota(w, 0i64, 1i64)` used as an input of a
//!   SOAC of width `w` is replaced by the iteration index: the consumer's
//!   map lambda gets the index parameter (see [`ir::syntax::Screma`]), so no
//!   array is written or read.
//! - **replicate into SOAC**: `rs = replicate([w], v)` used as an input of a
//!   SOAC of width `w` is replaced by `v` itself inside the lambda.
//! - **siblings**: two scremas of the same width that share at least one
//!   input and do not depend on each other become one screma (scans, then
//!   reductions, then maps of both), placed where the first one was (when
//!   the second one's free variables are all bound before it) or where the
//!   second one was (when nothing in between uses the first one's results
//!   or consumes what it reads).
//!
//! Statements between producer and consumer that do not use the
//! intermediate arrays do not prevent fusion.
//!
//! # When fusion is refused
//!
//! - A map producer whose results are used by more than one statement, by a
//!   nested body, by the body's results, or by the consumer other than as an
//!   input (its width, operators, destinations, or a free variable of its
//!   lambda): fusing would duplicate work. `iota` and `replicate` are cheap
//!   and fuse into every consumer that takes them as an input; they stay
//!   (for the remaining uses) until no use is left.
//! - Widths that are not the same variable or constant.
//! - A producer that consumes (a unique lambda parameter or an accumulator
//!   input), or a consumer that consumes the intermediate (its lambda
//!   parameter for it is unique).
//! - A statement between producer and consumer, or the consumer itself,
//!   consumes a variable the producer reads (or an alias of one, made by a
//!   plain copy, slice, `reshape` or `rearrange`): moving the read past an
//!   in-place update would change its value.
//! - The consumer is inside a loop, `if` or lambda nested in the producer's
//!   body: the producer's results are then used by that nested body, and no
//!   code moves across a loop boundary (or into one).
//! - Producer and consumer carry different statement attributes.
//! - `iota` with a start other than `0i64` or a step other than `1i64`
//!   (computing its elements would add scalar operations); `replicate` of
//!   more than one dimension (its rows are arrays that would be written).
//! - Siblings: the second uses a result of the first; they share no input;
//!   either consumes something; or neither placement is possible.
//! - A map producer whose results are also needed after the consumer is not
//!   fused (the fused screma could return them as extra map results, which
//!   this pass does not do yet); neither are producers with scans or
//!   reductions, nor consumers of other kinds (`with_acc`, loops, calls).

use std::collections::{HashMap, HashSet};

use ir::ids::VarId;
use ir::pass::Pass;
use ir::syntax::*;
use ir::uses::{exp_consumes, exp_free, exp_uses};
use ir::{FunId, PrimValue, PrimaryMap, Size, Type};

/// The `fusion` pass.
pub const PASS: Pass = Pass {
    name: "fusion",
    description: "producer-consumer and sibling fusion of maps, reductions, scans, hist and scatter",
    run,
};

type Vars = PrimaryMap<VarId, VarInfo>;

fn run(mut prog: Program) -> Program {
    let funs = prog.functions.clone();
    let ids: Vec<FunId> = prog.functions.keys().collect();
    for id in ids {
        let Some(f) = prog.functions.get_mut(id) else {
            continue;
        };
        let mut body = std::mem::take(&mut f.body);
        fuse_body(&funs, &mut f.vars, &mut body);
        f.body = body;
    }
    prog
}

/// Fuses inside the nested bodies of `b`, then in `b` itself until no rule
/// applies.
fn fuse_body(funs: &PrimaryMap<FunId, Function>, vars: &mut Vars, b: &mut Body) {
    for s in &mut b.stms {
        for_each_body_mut(&mut s.exp, &mut |nb| fuse_body(funs, vars, nb));
    }
    while vertical(funs, vars, b) || horizontal(funs, vars, b) {}
}

fn for_each_body_mut(e: &mut Exp, f: &mut dyn FnMut(&mut Body)) {
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
            for sr in s.scans.iter_mut().chain(&mut s.reduces) {
                f(&mut sr.op.body);
            }
            f(&mut s.map.body);
        }
        Exp::Hist(h) => {
            for op in &mut h.hists {
                f(&mut op.op.body);
            }
            f(&mut h.map.body);
        }
        Exp::Scatter(s) => f(&mut s.map.body),
        Exp::WithAcc(w) => {
            for i in &mut w.inputs {
                if let Some((l, _)) = &mut i.op {
                    f(&mut l.body);
                }
            }
            f(&mut w.lambda.body);
        }
        Exp::Jvp(ad) | Exp::Vjp(ad) => f(&mut ad.lambda.body),
        Exp::CustomVjp(c) => {
            f(&mut c.f.body);
            f(&mut c.fprime.body);
        }
        _ => {}
    }
}

/// The width, inputs and map lambda of a `screma`, `hist` or `scatter`.
fn soac_parts(e: &Exp) -> Option<(&Operand, &Vec<VarId>, &Lambda)> {
    match e {
        Exp::Screma(s) => Some((&s.w, &s.inputs, &s.map)),
        Exp::Hist(h) => Some((&h.w, &h.inputs, &h.map)),
        Exp::Scatter(s) => Some((&s.w, &s.inputs, &s.map)),
        _ => None,
    }
}

fn soac_parts_mut(e: &mut Exp) -> Option<(&mut Vec<VarId>, &mut Lambda)> {
    match e {
        Exp::Screma(s) => Some((&mut s.inputs, &mut s.map)),
        Exp::Hist(h) => Some((&mut h.inputs, &mut h.map)),
        Exp::Scatter(s) => Some((&mut s.inputs, &mut s.map)),
        _ => None,
    }
}

/// True when the map lambda takes the iteration index as its last parameter.
fn has_index(inputs: &[VarId], l: &Lambda) -> bool {
    l.params.len() == inputs.len() + 1
}

/// True when a SOAC's map lambda consumes an input (a unique parameter or
/// an accumulator).
fn consumes_input(vars: &Vars, inputs: &[VarId], l: &Lambda) -> bool {
    inputs
        .iter()
        .zip(&l.params)
        .any(|(v, p)| p.unique || vars.get(*v).is_some_and(|i| i.ty.acc))
}

fn same_width(a: Size, b: Size) -> bool {
    a != Size::Any && a == b
}

fn atom(var: VarId, value: Operand) -> Stm {
    Stm {
        pat: vec![var],
        exp: Exp::Atom(value),
        attrs: vec![],
        span: ir::Span::NONE,
    }
}

/// A new variable whose name is not yet taken in the function.
fn fresh(vars: &mut Vars, base: &str, ty: Type) -> VarId {
    let taken: HashSet<&str> = vars.values().map(|v| v.name.as_str()).collect();
    let mut name = base.to_string();
    let mut k = 0;
    while taken.contains(name.as_str()) {
        k += 1;
        name = format!("{base}_{k}");
    }
    vars.push(VarInfo { name, ty })
}

/// The variables each variable of `b` aliases (through plain copies,
/// slices, `reshape` and `rearrange`), transitively.
fn alias_roots(vars: &Vars, b: &Body) -> HashMap<VarId, HashSet<VarId>> {
    let mut roots: HashMap<VarId, HashSet<VarId>> = HashMap::new();
    for s in &b.stms {
        let src = match &s.exp {
            Exp::Atom(Operand::Var(v)) => Some(*v),
            Exp::Index(a, _)
                if s.pat
                    .iter()
                    .any(|p| vars.get(*p).is_some_and(|i| i.ty.rank() > 0)) =>
            {
                Some(*a)
            }
            Exp::Reshape { arr, .. } | Exp::Rearrange { arr, .. } => Some(*arr),
            _ => None,
        };
        if let (Some(src), [p]) = (src, s.pat.as_slice()) {
            let mut r = roots.get(&src).cloned().unwrap_or_default();
            r.insert(src);
            roots.insert(*p, r);
        }
    }
    roots
}

fn close(roots: &HashMap<VarId, HashSet<VarId>>, set: &mut HashSet<VarId>) {
    let extra: Vec<VarId> = set
        .iter()
        .filter_map(|v| roots.get(v))
        .flatten()
        .copied()
        .collect();
    set.extend(extra);
}

/// True when a statement of `stms` consumes a variable of `deps` (or an
/// alias of one).
fn consumes_any(
    funs: &PrimaryMap<FunId, Function>,
    vars: &Vars,
    roots: &HashMap<VarId, HashSet<VarId>>,
    stms: &[Stm],
    deps: &HashSet<VarId>,
) -> bool {
    let mut deps = deps.clone();
    close(roots, &mut deps);
    stms.iter().any(|s| {
        let mut c = HashSet::new();
        exp_consumes(funs, vars, &s.exp, &mut c);
        close(roots, &mut c);
        !c.is_disjoint(&deps)
    })
}

fn mentions(vars: &Vars, s: &Stm, set: &HashSet<VarId>) -> bool {
    let mut u = HashSet::new();
    exp_uses(vars, &s.exp, &mut u);
    !u.is_disjoint(set)
}

/// The cheap producers, whose rows the consumer's lambda computes itself.
enum Cheap {
    /// `iota(w, 0i64, 1i64)`: the row is the iteration index.
    Iota,
    /// `replicate([w], v)`: the row is `v`.
    Replicate(Operand),
}

fn cheap_producer(s: &Stm) -> Option<(Size, Cheap)> {
    match &s.exp {
        Exp::Iota { n, start, step }
            if *start == Operand::Const(PrimValue::I64(0))
                && *step == Operand::Const(PrimValue::I64(1)) =>
        {
            Some((n.to_size(), Cheap::Iota))
        }
        Exp::Replicate { shape, value } if shape.len() == 1 => {
            Some((shape[0], Cheap::Replicate(*value)))
        }
        _ => None,
    }
}

/// True when `out` is used by `s` only as an input of its SOAC, and the
/// lambda parameters for it are not unique.
fn only_as_input(vars: &Vars, s: &Stm, outs: &HashSet<VarId>) -> bool {
    let Some((_, inputs, map)) = soac_parts(&s.exp) else {
        return false;
    };
    let mut stripped = s.exp.clone();
    if let Some((ins, _)) = soac_parts_mut(&mut stripped) {
        ins.clear();
    }
    let mut u = HashSet::new();
    exp_uses(vars, &stripped, &mut u);
    u.is_disjoint(outs)
        && inputs
            .iter()
            .zip(&map.params)
            .all(|(v, p)| !outs.contains(v) || !p.unique)
}

/// One producer–consumer fusion in `b`; false when none applies.
fn vertical(funs: &PrimaryMap<FunId, Function>, vars: &mut Vars, b: &mut Body) -> bool {
    let roots = alias_roots(vars, b);
    for p in 0..b.stms.len() {
        let outs: HashSet<VarId> = b.stms[p].pat.iter().copied().collect();
        let in_result = b
            .result
            .iter()
            .any(|o| o.var().is_some_and(|v| outs.contains(&v)));
        let users: Vec<usize> = (p + 1..b.stms.len())
            .filter(|&c| mentions(vars, &b.stms[c], &outs))
            .collect();
        if users.is_empty() {
            continue;
        }
        if let Some((w, cheap)) = cheap_producer(&b.stms[p]) {
            let mut deps = HashSet::new();
            exp_uses(vars, &b.stms[p].exp, &mut deps);
            let mut fused = false;
            for &c in &users {
                let ok = soac_parts(&b.stms[c].exp)
                    .is_some_and(|(cw, _, _)| same_width(w, cw.to_size()))
                    && only_as_input(vars, &b.stms[c], &outs)
                    && !consumes_any(funs, vars, &roots, &b.stms[p + 1..=c], &deps);
                if ok {
                    fuse_cheap(vars, b.stms[p].pat[0], &cheap, &mut b.stms[c].exp);
                    fused = true;
                }
            }
            if fused {
                let still_used =
                    in_result || b.stms[p + 1..].iter().any(|s| mentions(vars, s, &outs));
                if !still_used {
                    b.stms.remove(p);
                }
                return true;
            }
            continue;
        }
        let Exp::Screma(prod) = &b.stms[p].exp else {
            continue;
        };
        if !prod.scans.is_empty()
            || !prod.reduces.is_empty()
            || consumes_input(vars, &prod.inputs, &prod.map)
            || in_result
            || users.len() != 1
        {
            continue;
        }
        let c = users[0];
        let cons = &b.stms[c];
        let ok = soac_parts(&cons.exp)
            .is_some_and(|(cw, _, _)| same_width(prod.w.to_size(), cw.to_size()))
            && only_as_input(vars, cons, &outs)
            && (b.stms[p].attrs.is_empty() || b.stms[p].attrs == cons.attrs)
            && !consumes_any(
                funs,
                vars,
                &roots,
                &b.stms[p + 1..=c],
                &exp_free(vars, &b.stms[p].exp),
            );
        if !ok {
            continue;
        }
        let Stm {
            pat,
            exp,
            attrs,
            span,
        } = b.stms.remove(p);
        match exp {
            Exp::Screma(prod) => {
                fuse_map(*prod, &pat, &mut b.stms[c - 1].exp);
                return true;
            }
            exp => b.stms.insert(
                p,
                Stm {
                    pat,
                    exp,
                    attrs,
                    span,
                },
            ),
        }
    }
    false
}

/// Replaces the inputs `out` of the SOAC `e` by what `cheap` computes.
fn fuse_cheap(vars: &mut Vars, out: VarId, cheap: &Cheap, e: &mut Exp) {
    let Some((inputs, map)) = soac_parts_mut(e) else {
        return;
    };
    let mut pre = Vec::new();
    let idx = if has_index(inputs, map) {
        map.params.pop().map(|p| p.var)
    } else {
        None
    };
    let mut index = idx;
    let mut k = 0;
    while k < inputs.len() {
        if inputs[k] != out {
            k += 1;
            continue;
        }
        inputs.remove(k);
        let par = map.params.remove(k).var;
        match cheap {
            Cheap::Replicate(v) => pre.push(atom(par, *v)),
            Cheap::Iota => match index {
                Some(i) => pre.push(atom(par, Operand::Var(i))),
                // The parameter itself becomes the index.
                None => index = Some(par),
            },
        }
    }
    if matches!(cheap, Cheap::Iota) && index.is_none() {
        index = Some(fresh(vars, "i", Type::scalar(ir::PrimType::I64)));
    }
    if let Some(i) = index {
        map.params.push(Param::new(i));
    }
    pre.append(&mut map.body.stms);
    map.body.stms = pre;
}

/// Moves the map `prod` (binding `pat`) into the SOAC `e`.
fn fuse_map(prod: Screma, pat: &[VarId], e: &mut Exp) {
    let Some((inputs, map)) = soac_parts_mut(e) else {
        return;
    };
    let c_idx = if has_index(inputs, map) {
        map.params.pop()
    } else {
        None
    };
    let p_idx = if has_index(&prod.inputs, &prod.map) {
        prod.map.params.last().copied()
    } else {
        None
    };
    let mut new_inputs = Vec::new();
    let mut new_params = Vec::new();
    let mut after = Vec::new();
    for (inp, par) in inputs.iter().zip(&map.params) {
        match pat.iter().position(|v| v == inp) {
            Some(j) => after.push(atom(par.var, prod.map.body.result[j])),
            None => {
                new_inputs.push(*inp);
                new_params.push(*par);
            }
        }
    }
    let mut pre = Vec::new();
    for (inp, par) in prod.inputs.iter().zip(&prod.map.params) {
        match new_inputs.iter().position(|v| v == inp) {
            Some(k) => pre.push(atom(par.var, Operand::Var(new_params[k].var))),
            None => {
                new_inputs.push(*inp);
                new_params.push(*par);
            }
        }
    }
    match (c_idx, p_idx) {
        (Some(ci), Some(pi)) => {
            pre.push(atom(pi.var, Operand::Var(ci.var)));
            new_params.push(ci);
        }
        (Some(i), None) | (None, Some(i)) => new_params.push(i),
        (None, None) => {}
    }
    let mut stms = pre;
    stms.extend(prod.map.body.stms);
    stms.extend(after);
    stms.append(&mut map.body.stms);
    map.body.stms = stms;
    map.params = new_params;
    *inputs = new_inputs;
}

/// One sibling fusion in `b`; false when none applies.
fn horizontal(funs: &PrimaryMap<FunId, Function>, vars: &mut Vars, b: &mut Body) -> bool {
    let roots = alias_roots(vars, b);
    let n = b.stms.len();
    for i in 0..n {
        let Exp::Screma(s1) = &b.stms[i].exp else {
            continue;
        };
        if consumes_input(vars, &s1.inputs, &s1.map) {
            continue;
        }
        let pat1: HashSet<VarId> = b.stms[i].pat.iter().copied().collect();
        let free1 = exp_free(vars, &b.stms[i].exp);
        for j in i + 1..n {
            let Exp::Screma(s2) = &b.stms[j].exp else {
                continue;
            };
            if !same_width(s1.w.to_size(), s2.w.to_size())
                || !s2.inputs.iter().any(|v| s1.inputs.contains(v))
                || consumes_input(vars, &s2.inputs, &s2.map)
                || b.stms[i].attrs != b.stms[j].attrs
                || mentions(vars, &b.stms[j], &pat1)
            {
                continue;
            }
            let mut free2 = exp_free(vars, &b.stms[j].exp);
            for v in &b.stms[j].pat {
                if let Some(info) = vars.get(*v) {
                    free2.extend(info.ty.shape.iter().filter_map(|d| match d {
                        Size::Var(x) => Some(*x),
                        _ => None,
                    }));
                }
            }
            let between = &b.stms[i + 1..j];
            let up = between
                .iter()
                .all(|s| s.pat.iter().all(|v| !free2.contains(v)));
            let down = !up
                && between.iter().all(|s| !mentions(vars, s, &pat1))
                && !consumes_any(funs, vars, &roots, between, &free1);
            if !up && !down {
                continue;
            }
            let second = b.stms.remove(j);
            let first = b.stms.remove(i);
            match fuse_siblings(first, second) {
                Ok(fused) => {
                    b.stms.insert(if up { i } else { j - 1 }, fused);
                    return true;
                }
                Err(pair) => {
                    let (first, second) = *pair;
                    b.stms.insert(i, first);
                    b.stms.insert(j, second);
                    return false;
                }
            }
        }
    }
    false
}

/// Values laid out like a screma's results, split into scans, reductions
/// and maps.
fn split<T: Clone>(s: &Screma, xs: &[T]) -> (Vec<T>, Vec<T>, Vec<T>) {
    let ns: usize = s.scans.iter().map(|x| x.neutral.len()).sum();
    let nr: usize = s.reduces.iter().map(|x| x.neutral.len()).sum();
    let ns = ns.min(xs.len());
    let nr = nr.min(xs.len() - ns);
    (
        xs[..ns].to_vec(),
        xs[ns..ns + nr].to_vec(),
        xs[ns + nr..].to_vec(),
    )
}

/// One screma doing the work of both (neither depends on the other).
fn fuse_siblings(first: Stm, second: Stm) -> Result<Stm, Box<(Stm, Stm)>> {
    let (s1, s2) = match (first.exp, second.exp) {
        (Exp::Screma(s1), Exp::Screma(s2)) => (s1, s2),
        (e1, e2) => {
            return Err(Box::new((
                Stm { exp: e1, ..first },
                Stm { exp: e2, ..second },
            )));
        }
    };
    let (sc1, rd1, mp1) = split(&s1, &first.pat);
    let (sc2, rd2, mp2) = split(&s2, &second.pat);
    let (rs1, rr1, rm1) = split(&s1, &s1.map.body.result);
    let (rs2, rr2, rm2) = split(&s2, &s2.map.body.result);
    let (t_s1, t_r1, t_m1) = split(&s1, &s1.map.ret);
    let (t_s2, t_r2, t_m2) = split(&s2, &s2.map.ret);
    let Screma {
        w,
        inputs: in1,
        scans: scans1,
        reduces: reds1,
        map: map1,
    } = *s1;
    let Screma {
        inputs: in2,
        scans: scans2,
        reduces: reds2,
        map: map2,
        ..
    } = *s2;
    let idx1 = has_index(&in1, &map1);
    let idx2 = has_index(&in2, &map2);
    let mut params = map1.params;
    let i1 = if idx1 { params.pop() } else { None };
    let mut inputs = in1;
    let mut stms = map1.body.stms;
    let mut params2 = map2.params;
    let i2 = if idx2 { params2.pop() } else { None };
    for (inp, par) in in2.iter().zip(&params2) {
        match inputs.iter().position(|v| v == inp) {
            Some(k) => stms.push(atom(par.var, Operand::Var(params[k].var))),
            None => {
                inputs.push(*inp);
                params.push(*par);
            }
        }
    }
    match (i1, i2) {
        (Some(a), Some(c)) => {
            stms.push(atom(c.var, Operand::Var(a.var)));
            params.push(a);
        }
        (Some(a), None) | (None, Some(a)) => params.push(a),
        (None, None) => {}
    }
    stms.extend(map2.body.stms);
    let result = [rs1, rs2, rr1, rr2, rm1, rm2].concat();
    let ret = [t_s1, t_s2, t_r1, t_r2, t_m1, t_m2].concat();
    let pat = [sc1, sc2, rd1, rd2, mp1, mp2].concat();
    let mut scans = scans1;
    scans.extend(scans2);
    let mut reduces = reds1;
    reduces.extend(reds2);
    Ok(Stm {
        pat,
        exp: Exp::Screma(Box::new(Screma {
            w,
            inputs,
            scans,
            reduces,
            map: Lambda {
                params,
                ret,
                body: Body { stms, result },
            },
        })),
        attrs: first.attrs,
        span: first.span,
    })
}
