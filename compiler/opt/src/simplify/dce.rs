//! The backward sweep: dead-code elimination, and removal of unused loop
//! parameters, `if` results and `screma` results and inputs.

use std::collections::HashSet;

use ir::walk::{Occ, walk_body, walk_exp};
use ir::{Body, Exp, Function, Lambda, LoopForm, Operand, Size, Stm, VarId};

use super::analysis::has_effect;

/// Marks the sizes in the type of `v` live.
fn mark_type(fun: &Function, v: VarId, live: &mut HashSet<VarId>) {
    if let Some(t) = fun.var_type(v) {
        for d in &t.shape {
            if let Size::Var(s) = d {
                live.insert(*s);
            }
        }
    }
}

/// Every use in `b` (sizes of the types of the variables it binds
/// included).
fn body_uses(fun: &Function, b: &Body, live: &mut HashSet<VarId>) {
    walk_body(b, &mut |o| match o {
        Occ::Use(v) => {
            live.insert(v);
        }
        Occ::Bind(v) => mark_type(fun, v, live),
    });
}

fn exp_uses(fun: &Function, e: &Exp, live: &mut HashSet<VarId>) {
    walk_exp(e, &mut |o| match o {
        Occ::Use(v) => {
            live.insert(v);
        }
        Occ::Bind(v) => mark_type(fun, v, live),
    });
}

/// Removes dead statements from `b` and everything nested in it. Returns
/// true when something changed.
pub fn dce_body(fun: &Function, b: &mut Body) -> bool {
    let mut changed = false;
    let mut live: HashSet<VarId> = b.result.iter().filter_map(Operand::var).collect();
    let mut kept = Vec::new();
    for mut stm in std::mem::take(&mut b.stms).into_iter().rev() {
        if !stm.pat.iter().any(|v| live.contains(v)) && !has_effect(&stm.exp) {
            changed = true;
            continue;
        }
        // A live pattern element's type may name other elements.
        for _ in 0..stm.pat.len() {
            for v in stm.pat.clone() {
                if live.contains(&v) {
                    mark_type(fun, v, &mut live);
                }
            }
        }
        // The results of a `screma` with assertions inside go too while one
        // is used: its lambda keeps the assertions.
        let some_used = stm.pat.iter().any(|v| live.contains(v));
        if !has_effect(&stm.exp)
            || matches!(stm.exp, Exp::Loop { .. } | Exp::If { .. })
            || (some_used && matches!(stm.exp, Exp::Screma(_)))
        {
            changed |= prune(fun, &mut stm, &live);
        }
        changed |= nested(fun, &mut stm.exp);
        exp_uses(fun, &stm.exp, &mut live);
        for v in &stm.pat {
            mark_type(fun, *v, &mut live);
        }
        kept.push(stm);
    }
    kept.reverse();
    b.stms = kept;
    changed
}

fn lambda(fun: &Function, l: &mut Lambda) -> bool {
    dce_body(fun, &mut l.body)
}

fn nested(fun: &Function, e: &mut Exp) -> bool {
    let mut c = false;
    match e {
        Exp::If {
            then_body,
            else_body,
            ..
        } => {
            c |= dce_body(fun, then_body);
            c |= dce_body(fun, else_body);
        }
        Exp::Loop { body, .. } => c |= dce_body(fun, body),
        Exp::Screma(s) => {
            for sr in s.scans.iter_mut().chain(s.reduces.iter_mut()) {
                c |= lambda(fun, &mut sr.op);
            }
            c |= lambda(fun, &mut s.map);
        }
        Exp::Hist(h) => {
            for op in &mut h.hists {
                c |= lambda(fun, &mut op.op);
            }
            c |= lambda(fun, &mut h.map);
        }
        Exp::Scatter(s) => c |= lambda(fun, &mut s.map),
        Exp::WithAcc(w) => {
            for i in &mut w.inputs {
                if let Some((l, _)) = &mut i.op {
                    c |= lambda(fun, l);
                }
            }
            c |= lambda(fun, &mut w.lambda);
        }
        Exp::Jvp(a) | Exp::Vjp(a) => c |= lambda(fun, &mut a.lambda),
        Exp::CustomVjp(cv) => {
            c |= lambda(fun, &mut cv.f);
            c |= lambda(fun, &mut cv.fprime);
        }
        _ => {}
    }
    c
}

/// Keeps the positions `keep` of `v`.
fn retain_at<T>(v: &mut Vec<T>, keep: &[bool]) {
    let mut k = keep.iter();
    v.retain(|_| *k.next().unwrap_or(&true));
}

/// Drops the unused results of a loop, `if` or `screma` statement.
fn prune(fun: &Function, stm: &mut Stm, live: &HashSet<VarId>) -> bool {
    let used: Vec<bool> = stm.pat.iter().map(|v| live.contains(v)).collect();
    if used.iter().all(|&u| u) {
        return prune_inputs(fun, stm);
    }
    match &mut stm.exp {
        Exp::If {
            then_body,
            else_body,
            ..
        } => {
            retain_at(&mut then_body.result, &used);
            retain_at(&mut else_body.result, &used);
            retain_at(&mut stm.pat, &used);
            true
        }
        Exp::Loop { params, form, body } => {
            let keep = loop_needed(fun, params, form, body, &used);
            if keep.iter().all(|&k| k) {
                return false;
            }
            retain_at(params, &keep);
            retain_at(&mut body.result, &keep);
            retain_at(&mut stm.pat, &keep);
            true
        }
        Exp::Screma(s) => {
            let changed = prune_screma(fun, s, &mut stm.pat, &used);
            changed | prune_inputs(fun, stm)
        }
        _ => false,
    }
}

/// The loop parameters that are needed: those whose result is used, the
/// `while` condition, and, transitively, those the body needs to compute
/// the needed ones.
fn loop_needed(
    fun: &Function,
    params: &[(ir::Param, Operand)],
    form: &LoopForm,
    body: &Body,
    used: &[bool],
) -> Vec<bool> {
    let mut keep = used.to_vec();
    if let LoopForm::While { cond } = form {
        for (k, (p, _)) in params.iter().enumerate() {
            if p.var == *cond {
                keep[k] = true;
            }
        }
    }
    loop {
        let mut b = body.clone();
        retain_at(&mut b.result, &keep);
        dce_body(fun, &mut b);
        let mut uses = HashSet::new();
        body_uses(fun, &b, &mut uses);
        for (k, (p, _)) in params.iter().enumerate() {
            if keep[k] {
                mark_type(fun, p.var, &mut uses);
            }
        }
        let mut grew = false;
        for (k, (p, _)) in params.iter().enumerate() {
            if !keep[k] && uses.contains(&p.var) {
                keep[k] = true;
                grew = true;
            }
        }
        if !grew {
            return keep;
        }
    }
}

/// Drops unused map results (not accumulators), scans and reductions
/// none of whose results are used, and the unneeded components of the
/// others ([`op_needed`]).
fn prune_screma(fun: &Function, s: &mut ir::Screma, pat: &mut Vec<VarId>, used: &[bool]) -> bool {
    let nscan: usize = s.scans.iter().map(|o| o.neutral.len()).sum();
    let nred: usize = s.reduces.iter().map(|o| o.neutral.len()).sum();
    let mut keep = vec![true; pat.len()];
    let keep_ops = |ops: &mut Vec<ir::ScanRed>, base: usize, keep: &mut Vec<bool>| {
        let mut off = base;
        let mut keep_op = Vec::new();
        for op in ops.iter_mut() {
            let n = op.neutral.len();
            let any = used[off..off + n].iter().any(|&u| u);
            keep_op.push(any);
            if !any {
                keep[off..off + n].iter_mut().for_each(|k| *k = false);
            } else {
                let needed = op_needed(fun, &op.op, &used[off..off + n]);
                if needed.iter().any(|&k| !k) {
                    shrink_op(fun, op, &needed);
                    for (k, &nd) in needed.iter().enumerate() {
                        keep[off + k] = nd;
                    }
                }
            }
            off += n;
        }
        retain_at(ops, &keep_op);
    };
    keep_ops(&mut s.scans, 0, &mut keep);
    keep_ops(&mut s.reduces, nscan, &mut keep);
    for k in nscan + nred..pat.len() {
        let acc = fun.var_type(pat[k]).is_none_or(|t| t.acc);
        if !used[k] && !acc {
            keep[k] = false;
        }
    }
    if keep.iter().all(|&k| k) {
        return false;
    }
    retain_at(pat, &keep);
    retain_at(&mut s.map.body.result, &keep);
    retain_at(&mut s.map.ret, &keep);
    true
}

/// The components of a scan or reduction operator of `n` components that
/// are needed for the `used` ones: those used, and, transitively, those
/// whose parameters (either operand) the operator reads to compute the
/// needed ones. The operator of a `jvp` pairs each value with its tangent,
/// and the value never reads the tangent.
fn op_needed(fun: &Function, op: &Lambda, used: &[bool]) -> Vec<bool> {
    let n = used.len();
    let mut keep = used.to_vec();
    if op.params.len() != 2 * n || op.body.result.len() != n {
        return vec![true; n];
    }
    loop {
        let mut b = op.body.clone();
        retain_at(&mut b.result, &keep);
        dce_body(fun, &mut b);
        let mut uses = HashSet::new();
        body_uses(fun, &b, &mut uses);
        let mut grew = false;
        for (j, k) in keep.iter_mut().enumerate() {
            if !*k && (uses.contains(&op.params[j].var) || uses.contains(&op.params[n + j].var)) {
                *k = true;
                grew = true;
            }
        }
        if !grew {
            return keep;
        }
    }
}

/// Keeps the components `keep` of a scan or reduction operator: its
/// parameters (both operands), results and neutral elements.
fn shrink_op(fun: &Function, op: &mut ir::ScanRed, keep: &[bool]) {
    let both: Vec<bool> = keep.iter().chain(keep.iter()).copied().collect();
    retain_at(&mut op.op.params, &both);
    retain_at(&mut op.op.ret, keep);
    retain_at(&mut op.op.body.result, keep);
    retain_at(&mut op.neutral, keep);
    dce_body(fun, &mut op.op.body);
}

/// Drops `screma` inputs whose lambda parameter is unused (not
/// accumulators or unique parameters).
fn prune_inputs(fun: &Function, stm: &mut Stm) -> bool {
    let Exp::Screma(s) = &mut stm.exp else {
        return false;
    };
    dce_body(fun, &mut s.map.body);
    let mut uses = HashSet::new();
    body_uses(fun, &s.map.body, &mut uses);
    for t in &s.map.ret {
        for d in &t.shape {
            if let Size::Var(v) = d {
                uses.insert(*v);
            }
        }
    }
    for p in &s.map.params {
        mark_type(fun, p.var, &mut uses);
    }
    let keep: Vec<bool> = s
        .map
        .params
        .iter()
        .map(|p| uses.contains(&p.var) || p.unique || fun.var_type(p.var).is_none_or(|t| t.acc))
        .collect();
    if keep.iter().all(|&k| k) || keep.len() != s.inputs.len() {
        return false;
    }
    retain_at(&mut s.inputs, &keep);
    retain_at(&mut s.map.params, &keep);
    true
}
