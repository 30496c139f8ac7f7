//! The `inline` pass: aggressive inlining.
//!
//! - Every call of a non-recursive function is replaced by a renamed copy
//!   of the callee's body (fresh variables in the caller; the callee's
//!   parameters become the arguments, the call's results the callee's
//!   results), bottom-up over the call graph, so a callee is fully inlined
//!   before it is copied.
//! - Not inlined: a call to a function marked `#[noinline]`, a call
//!   statement marked `#[noinline]`, and a call to a function on a cycle of
//!   the call graph (directly or mutually recursive). `#[inline]` asks for
//!   what is the default here, so it changes nothing.
//! - Afterwards, a function that was called before and is called no more
//!   (and is not an entry point) is removed; functions that were never
//!   called (roots, entry points) stay.

use std::collections::{HashMap, HashSet};

use ir::pass::Pass;
use ir::syntax::Program;
use ir::walk::{Occ, Slot, nested_bodies_mut, subst_slot, subst_type, walk_body, walk_exp_mut};
use ir::{Attr, Body, Exp, FunId, Function, Operand, PrimaryMap, Stm, VarId};

/// The `inline` pass.
pub const PASS: Pass = Pass {
    name: "inline",
    description: "inline every call of a non-recursive function not marked noinline",
    run: inline_program,
};

fn callees_of(b: &Body, out: &mut HashSet<FunId>) {
    for s in &b.stms {
        if let Exp::Apply { fun, .. } = &s.exp {
            out.insert(*fun);
        }
        crate::simplify::analysis::each_nested(&s.exp, &mut |nb| callees_of(nb, out));
    }
}

/// The direct callees of every function.
fn call_graph(p: &Program) -> HashMap<FunId, HashSet<FunId>> {
    p.functions
        .iter()
        .map(|(id, f)| {
            let mut c = HashSet::new();
            callees_of(&f.body, &mut c);
            (id, c)
        })
        .collect()
}

/// The functions that can reach themselves through calls.
fn recursive(g: &HashMap<FunId, HashSet<FunId>>) -> HashSet<FunId> {
    let mut out = HashSet::new();
    for &f in g.keys() {
        let mut seen = HashSet::new();
        let mut stack: Vec<FunId> = g[&f].iter().copied().collect();
        while let Some(h) = stack.pop() {
            if h == f {
                out.insert(f);
                break;
            }
            if seen.insert(h)
                && let Some(next) = g.get(&h)
            {
                stack.extend(next.iter().copied());
            }
        }
    }
    out
}

/// The functions in post-order: callees before callers.
fn post_order(p: &Program, g: &HashMap<FunId, HashSet<FunId>>) -> Vec<FunId> {
    fn visit(
        f: FunId,
        g: &HashMap<FunId, HashSet<FunId>>,
        seen: &mut HashSet<FunId>,
        out: &mut Vec<FunId>,
    ) {
        if !seen.insert(f) {
            return;
        }
        let mut next: Vec<FunId> = g.get(&f).into_iter().flatten().copied().collect();
        next.sort();
        for h in next {
            visit(h, g, seen, out);
        }
        out.push(f);
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for f in p.functions.keys() {
        visit(f, g, &mut seen, &mut out);
    }
    out
}

/// Inlines calls into every function, then drops the functions no longer
/// called.
pub fn inline_program(mut prog: Program) -> Program {
    let graph = call_graph(&prog);
    let rec = recursive(&graph);
    let was_called: HashSet<FunId> = graph.values().flatten().copied().collect();
    for f in post_order(&prog, &graph) {
        let snapshot: HashMap<FunId, Function> = graph[&f]
            .iter()
            .filter(|g| **g != f && !rec.contains(g))
            .filter(|g| !prog.functions[**g].attrs.contains(&Attr::NoInline))
            .map(|g| (*g, prog.functions[*g].clone()))
            .collect();
        if snapshot.is_empty() {
            continue;
        }
        let fun = &mut prog.functions[f];
        let mut body = std::mem::take(&mut fun.body);
        let mut inl = Inliner {
            fun,
            callees: &snapshot,
            subst: HashMap::new(),
        };
        inl.body(&mut body);
        let subst = inl.subst;
        fun.body = body;
        let keys: Vec<VarId> = fun.vars.keys().collect();
        for k in keys {
            subst_type(&subst, &mut fun.vars[k].ty);
        }
    }
    remove_uncalled(prog, &was_called)
}

struct Inliner<'a> {
    fun: &'a mut Function,
    callees: &'a HashMap<FunId, Function>,
    subst: HashMap<VarId, Operand>,
}

impl Inliner<'_> {
    fn body(&mut self, b: &mut Body) {
        for mut stm in std::mem::take(&mut b.stms) {
            let subst = &self.subst;
            walk_exp_mut(&mut stm.exp, &mut |s| subst_slot(subst, s));
            for nb in nested_bodies_mut(&mut stm.exp) {
                self.body(nb);
            }
            let inlinable = match &stm.exp {
                Exp::Apply { fun, .. } => {
                    !stm.attrs.contains(&Attr::NoInline) && self.callees.contains_key(fun)
                }
                _ => false,
            };
            if let (true, Exp::Apply { fun, args }) = (inlinable, &stm.exp) {
                let g = &self.callees[fun];
                let (stms, results) = self.copy_body(g, args);
                b.stms.extend(stms);
                for (p, r) in stm.pat.iter().zip(results) {
                    self.subst.insert(*p, r);
                }
            } else {
                b.stms.push(stm);
            }
        }
        for o in &mut b.result {
            subst_slot(&self.subst, Slot::Operand(o));
        }
    }

    /// A copy of `g`'s body with fresh variables, its parameters replaced
    /// by `args`: its statements and its results.
    fn copy_body(&mut self, g: &Function, args: &[Operand]) -> (Vec<Stm>, Vec<Operand>) {
        let mut map: HashMap<VarId, Operand> = g
            .params
            .iter()
            .zip(args)
            .map(|(p, a)| (p.var, *a))
            .collect();
        let mut bound = Vec::new();
        walk_body(&g.body, &mut |o| {
            if let Occ::Bind(v) = o {
                bound.push(v);
            }
        });
        let mut fresh = Vec::new();
        for v in bound {
            if let Some(info) = g.vars.get(v)
                && !map.contains_key(&v)
            {
                let n = self.fun.vars.push(info.clone());
                map.insert(v, Operand::Var(n));
                fresh.push(n);
            }
        }
        for n in fresh {
            subst_type(&map, &mut self.fun.vars[n].ty);
        }
        let mut body = g.body.clone();
        rename_body(&mut body, &map);
        (body.stms, body.result)
    }
}

fn rename_body(b: &mut Body, map: &HashMap<VarId, Operand>) {
    ir::walk::walk_body_mut(b, &mut |s| match s {
        Slot::Bind(v) => {
            if let Some(Operand::Var(n)) = map.get(v) {
                *v = *n;
            }
        }
        other => subst_slot(map, other),
    });
}

/// Removes the functions in `was_called` that are no longer called and are
/// not entry points, renumbering the rest.
fn remove_uncalled(prog: Program, was_called: &HashSet<FunId>) -> Program {
    let graph = call_graph(&prog);
    let called: HashSet<FunId> = graph.values().flatten().copied().collect();
    let entries: HashSet<FunId> = prog.entries.iter().map(|e| e.fun).collect();
    let keep = |f: FunId| !was_called.contains(&f) || called.contains(&f) || entries.contains(&f);
    if prog.functions.keys().all(keep) {
        return prog;
    }
    let mut renum: HashMap<FunId, FunId> = HashMap::new();
    let mut functions: PrimaryMap<FunId, Function> = PrimaryMap::new();
    for (id, f) in prog.functions.iter() {
        if keep(id) {
            renum.insert(id, functions.push(f.clone()));
        }
    }
    let ids: Vec<FunId> = functions.keys().collect();
    for id in ids {
        renumber(&mut functions[id].body, &renum);
    }
    let entries = prog
        .entries
        .into_iter()
        .map(|mut e| {
            e.fun = renum.get(&e.fun).copied().unwrap_or(e.fun);
            e
        })
        .collect();
    Program { functions, entries }
}

fn renumber(b: &mut Body, renum: &HashMap<FunId, FunId>) {
    for s in &mut b.stms {
        if let Exp::Apply { fun, .. } = &mut s.exp
            && let Some(n) = renum.get(fun)
        {
            *fun = *n;
        }
        for nb in nested_bodies_mut(&mut s.exp) {
            renumber(nb, renum);
        }
    }
}
