//! The `inline` pass: aggressive inlining within a size budget.
//!
//! - A call of a non-recursive function may be replaced by a renamed copy
//!   of the callee's body (fresh variables in the caller; the callee's
//!   parameters become the arguments, the call's results the callee's
//!   results), bottom-up over the call graph, so a callee has had its own
//!   calls inlined before it is copied.
//! - Which calls are inlined ([`Limits`]): always a call of a function
//!   marked `#[inline]` or a call statement so marked; always a call of a
//!   function called from one place only (not an entry point), since that
//!   moves code without duplicating it; always a call of a small function
//!   (at most [`Limits::small`] statements, nested bodies counted); any
//!   other callee only if inlining it at all its calls in the caller keeps
//!   the caller within [`Limits::budget`] statements (all of them or none,
//!   decided at the first: a callee copied at some calls and still called
//!   at others would only add code). The budget keeps the program's size
//!   linear in its source where unbounded inlining would be exponential:
//!   for a chain of 100 functions each calling the next twice, 12,277
//!   statements in all with the default limits instead of 2^101 (the unit
//!   tests measure it).
//! - A function called from one place is copied into its caller before its
//!   own calls are inlined, and those are then inlined in the copy, so a
//!   chain of 100 such functions copies each body once (201 statements)
//!   rather than each growing body again (5,151).
//! - Calls inside the lambda of a `jvp`, `vjp` or `custom_vjp`, and in the
//!   functions such calls reach, are inlined whatever the budget: the AD
//!   pass differentiates code without calls.
//! - Never inlined: a call to a function marked `#[noinline]`, a call
//!   statement marked `#[noinline]`, and a call to a function on a cycle of
//!   the call graph (directly or mutually recursive).
//! - Afterwards, a function that was called before and can no longer be
//!   reached from an entry point or a function never called is removed;
//!   functions that were never called (roots, entry points) stay.

use std::collections::{HashMap, HashSet};

use ir::pass::Pass;
use ir::syntax::Program;
use ir::walk::{Occ, Slot, nested_bodies_mut, subst_slot, subst_type, walk_body, walk_exp_mut};
use ir::{Attr, Body, Exp, FunId, Function, Operand, PrimaryMap, Stm, VarId};

/// The `inline` pass.
pub const PASS: Pass = Pass {
    name: "inline",
    description: "inline calls of non-recursive functions not marked noinline, within a size budget",
    run: inline_program,
};

/// When a call is inlined (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Callees of at most this many statements are always inlined.
    pub small: usize,
    /// Other callees are inlined only while the caller keeps at most this
    /// many statements.
    pub budget: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            small: 8,
            budget: 2000,
        }
    }
}

/// What an inlining run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls replaced by a copy of the callee's body.
    pub inlined: usize,
    /// Statements copied in all, nested ones counted.
    pub copied_stms: usize,
}

/// The number of statements of a body, those of nested bodies included.
pub fn body_size(b: &Body) -> usize {
    b.stms
        .iter()
        .map(|s| {
            let mut n = 1;
            crate::simplify::analysis::each_nested(&s.exp, &mut |nb| n += body_size(nb));
            n
        })
        .sum()
}

/// Is `e` differentiated by the AD pass?
fn is_ad(e: &Exp) -> bool {
    matches!(e, Exp::Jvp(_) | Exp::Vjp(_) | Exp::CustomVjp(_))
}

/// The functions called, directly or not, from the lambda of a `jvp`,
/// `vjp` or `custom_vjp`.
fn reached_from_ad(p: &Program, g: &HashMap<FunId, HashSet<FunId>>) -> HashSet<FunId> {
    fn in_ad(b: &Body, inside: bool, out: &mut HashSet<FunId>) {
        for s in &b.stms {
            if let (true, Exp::Apply { fun, .. }) = (inside, &s.exp) {
                out.insert(*fun);
            }
            let inner = inside || is_ad(&s.exp);
            crate::simplify::analysis::each_nested(&s.exp, &mut |nb| in_ad(nb, inner, out));
        }
    }
    let mut out = HashSet::new();
    for f in p.functions.values() {
        in_ad(&f.body, false, &mut out);
    }
    let mut stack: Vec<FunId> = out.iter().copied().collect();
    while let Some(f) = stack.pop() {
        for h in g.get(&f).into_iter().flatten() {
            if out.insert(*h) {
                stack.push(*h);
            }
        }
    }
    out
}

/// Counts the call sites of each function, and notes those called from a
/// statement marked `#[noinline]`.
fn count_sites(b: &Body, out: &mut HashMap<FunId, usize>, pinned: &mut HashSet<FunId>) {
    for s in &b.stms {
        if let Exp::Apply { fun, .. } = &s.exp {
            *out.entry(*fun).or_default() += 1;
            if s.attrs.contains(&Attr::NoInline) {
                pinned.insert(*fun);
            }
        }
        crate::simplify::analysis::each_nested(&s.exp, &mut |nb| count_sites(nb, out, pinned));
    }
}

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

/// Inlines calls into every function within the default [`Limits`], then
/// drops the functions no longer called.
pub fn inline_program(prog: Program) -> Program {
    inline_with(prog, Limits::default()).0
}

/// Inlines calls into every function within `limits`, then drops the
/// functions no longer called; also says how much was inlined.
pub fn inline_with(mut prog: Program, limits: Limits) -> (Program, Stats) {
    let graph = call_graph(&prog);
    let rec = recursive(&graph);
    let was_called: HashSet<FunId> = graph.values().flatten().copied().collect();
    let mut sites = HashMap::new();
    let mut pinned = HashSet::new();
    for f in prog.functions.values() {
        count_sites(&f.body, &mut sites, &mut pinned);
    }
    let entries: HashSet<FunId> = prog.entries.iter().map(|e| e.fun).collect();
    let inlinable =
        |g: FunId, f: &Function| !rec.contains(&g) && !f.attrs.contains(&Attr::NoInline);
    // A function called from one place (that may be inlined) is copied
    // there before its own calls are inlined, and those are inlined in the
    // copy: a chain of such functions costs its length, not its square.
    let deferred: HashSet<FunId> = prog
        .functions
        .iter()
        .filter(|(g, f)| {
            inlinable(*g, f)
                && sites.get(g) == Some(&1)
                && !entries.contains(g)
                && !pinned.contains(g)
        })
        .map(|(g, _)| g)
        .collect();
    let callee = |g: FunId, fun: Function| {
        let size = body_size(&fun.body);
        let always = fun.attrs.contains(&Attr::Inline)
            || (sites.get(&g) == Some(&1) && !entries.contains(&g))
            || size <= limits.small;
        Callee {
            fun,
            size,
            always,
            deferred: deferred.contains(&g),
        }
    };
    let mut ready: HashMap<FunId, Callee> = prog
        .functions
        .iter()
        .filter(|(g, _)| deferred.contains(g))
        .map(|(g, f)| (g, callee(g, f.clone())))
        .collect();
    let ad_reached = reached_from_ad(&prog, &graph);
    let mut stats = Stats::default();
    for f in post_order(&prog, &graph) {
        if deferred.contains(&f) {
            continue;
        }
        if graph[&f].iter().any(|g| ready.contains_key(g)) {
            let fun = &mut prog.functions[f];
            let mut body = std::mem::take(&mut fun.body);
            let size = body_size(&body);
            let mut sites = HashMap::new();
            count_sites(&body, &mut sites, &mut HashSet::new());
            let mut inl = Inliner {
                fun,
                callees: &ready,
                sites,
                decided: HashMap::new(),
                force: ad_reached.contains(&f),
                subst: HashMap::new(),
                size,
                budget: limits.budget,
                stats: &mut stats,
            };
            inl.body(&mut body);
            let subst = inl.subst;
            fun.body = body;
            let keys: Vec<VarId> = fun.vars.keys().collect();
            for k in keys {
                subst_type(&subst, &mut fun.vars[k].ty);
            }
        }
        if inlinable(f, &prog.functions[f]) {
            let c = callee(f, prog.functions[f].clone());
            ready.insert(f, c);
        }
    }
    (remove_uncalled(prog, &was_called), stats)
}

/// A function that calls may be inlined to.
struct Callee {
    fun: Function,
    /// Its statements, nested ones counted.
    size: usize,
    /// Inlined whatever the caller's size.
    always: bool,
    /// Called from one place; its own calls are not inlined yet.
    deferred: bool,
}

struct Inliner<'a> {
    fun: &'a mut Function,
    callees: &'a HashMap<FunId, Callee>,
    /// The calls of each function in the caller's own body.
    sites: HashMap<FunId, usize>,
    /// Whether calls of a function held to the budget are inlined: decided
    /// at the first call for all of them, so that a callee is inlined at
    /// all its calls (and can go) or at none (not copied for nothing).
    decided: HashMap<FunId, bool>,
    /// Inline whatever the size: inside a `jvp`, `vjp` or `custom_vjp`
    /// lambda, or in a function called from one (the AD pass needs the
    /// code it differentiates free of calls).
    force: bool,
    subst: HashMap<VarId, Operand>,
    /// The caller's statements so far.
    size: usize,
    budget: usize,
    stats: &'a mut Stats,
}

impl Inliner<'_> {
    /// Is the call statement `stm` of `f` to be inlined?
    fn wanted(&mut self, stm: &Stm, f: FunId, g: &Callee) -> bool {
        if stm.attrs.contains(&Attr::NoInline) {
            return false;
        }
        if g.always || self.force || stm.attrs.contains(&Attr::Inline) {
            return true;
        }
        let n = self.sites.get(&f).copied().unwrap_or(1);
        let (size, budget) = (self.size, self.budget);
        *self
            .decided
            .entry(f)
            .or_insert_with(|| size + n * (g.size.saturating_sub(1)) <= budget)
    }

    fn body(&mut self, b: &mut Body) {
        for mut stm in std::mem::take(&mut b.stms) {
            let subst = &self.subst;
            walk_exp_mut(&mut stm.exp, &mut |s| subst_slot(subst, s));
            let outer = self.force;
            self.force |= is_ad(&stm.exp);
            for nb in nested_bodies_mut(&mut stm.exp) {
                self.body(nb);
            }
            self.force = outer;
            let callees = self.callees;
            let callee = match &stm.exp {
                Exp::Apply { fun, .. } => callees.get(fun).filter(|g| self.wanted(&stm, *fun, g)),
                _ => None,
            };
            if let (Some(g), Exp::Apply { args, .. }) = (callee, &stm.exp) {
                let (stms, mut results) = self.copy_body(&g.fun, args);
                self.size = self.size + g.size - 1;
                self.stats.inlined += 1;
                self.stats.copied_stms += g.size;
                if g.deferred {
                    let mut copy = Body {
                        stms,
                        result: results,
                    };
                    self.body(&mut copy);
                    b.stms.extend(copy.stms);
                    results = copy.result;
                } else {
                    b.stms.extend(stms);
                }
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

/// Removes the functions in `was_called` that are no longer reachable from
/// an entry point or a function never called, renumbering the rest.
fn remove_uncalled(prog: Program, was_called: &HashSet<FunId>) -> Program {
    let graph = call_graph(&prog);
    // Kept: the roots (entry points, functions never called) and what they
    // still call, directly or not. A function called only from one that
    // goes, goes too (the stale originals of functions inlined at their
    // only call site call each other).
    let mut live: HashSet<FunId> = prog.entries.iter().map(|e| e.fun).collect();
    live.extend(prog.functions.keys().filter(|f| !was_called.contains(f)));
    let mut stack: Vec<FunId> = live.iter().copied().collect();
    while let Some(f) = stack.pop() {
        for g in graph.get(&f).into_iter().flatten() {
            if live.insert(*g) {
                stack.push(*g);
            }
        }
    }
    let keep = |f: FunId| live.contains(&f);
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

#[cfg(test)]
mod tests {
    use super::{Limits, Stats, body_size, inline_with};
    use ir::syntax::Program;
    use ir::{interp, parse, print, verify};

    /// A program of `depth + 1` functions: `f0(x) = x + 1` and, for `i > 0`,
    /// `f<i>(x)` adds 1 to `x` and then applies `f<i-1>` `calls` times in
    /// sequence; `main` calls the last one.
    fn chain(depth: usize, calls: usize) -> Program {
        let mut src = String::from("entry \"main\" = main(\"i32\": 1) -> (\"i32\": 1)\n\n");
        src.push_str("fun f0(x: i32) -> (i32) {\n  let y: i32 = add(x, 1i32)\n  in (y)\n}\n\n");
        for i in 1..=depth {
            src.push_str(&format!(
                "fun f{i}(x: i32) -> (i32) {{\n  let z: i32 = add(x, 1i32)\n"
            ));
            let mut last = "z".to_string();
            for c in 0..calls {
                src.push_str(&format!("  let y{c}: i32 = apply f{}({last})\n", i - 1));
                last = format!("y{c}");
            }
            src.push_str(&format!("  in ({last})\n}}\n\n"));
        }
        src.push_str(&format!(
            "fun main(x: i32) -> (i32) {{\n  let r: i32 = apply f{depth}(x)\n  in (r)\n}}\n"
        ));
        let p = parse::parse_program(&src).expect("chain parses");
        verify::verify(&p).expect("chain verifies");
        p
    }

    fn total_size(p: &Program) -> usize {
        p.functions.values().map(|f| body_size(&f.body)).sum()
    }

    fn run(p: &Program, x: i32) -> String {
        let args = values::read_values(format!("{x}i32").as_bytes()).expect("argument");
        let r = interp::run_function(p, "main", args).expect("runs");
        r.values[0].to_string()
    }

    #[test]
    fn single_call_chain_is_copied_once() {
        let p = chain(100, 1);
        let (out, stats) = inline_with(p, Limits::default());
        verify::verify(&out).expect("verifies");
        // Every function is called from one place: each call is inlined and
        // each original body copied once (2 statements per level, 1 for
        // `f0`), not the growing bodies of a bottom-up order (5,151).
        assert_eq!(out.functions.len(), 1, "{}", print::print_program(&out));
        assert_eq!(
            stats,
            Stats {
                inlined: 101,
                copied_stms: 201
            }
        );
        assert_eq!(total_size(&out), 101);
        assert_eq!(run(&out, 1), "102i32");
    }

    #[test]
    fn doubling_chain_stays_within_budget() {
        // Unbounded inlining would make 2^101 - 1 statements.
        let limits = Limits {
            small: 8,
            budget: 500,
        };
        let (out, stats) = inline_with(chain(100, 2), limits);
        verify::verify(&out).expect("verifies");
        assert!(
            out.functions
                .values()
                .all(|f| body_size(&f.body) <= limits.budget),
            "a function grew past the budget:\n{}",
            print::print_program(&out)
        );
        // Each function doubles its callee until that would pass the
        // budget, then keeps its two calls: sizes cycle 3, 7, ..., 255.
        let total = total_size(&out);
        assert!(total <= 101 * limits.budget / 4, "{total} statements");
        assert!(stats.inlined > 0);
    }

    #[test]
    fn budgeted_program_computes_the_same() {
        let p = chain(12, 2);
        let limits = Limits {
            small: 2,
            budget: 40,
        };
        let (out, stats) = inline_with(p.clone(), limits);
        verify::verify(&out).expect("verifies");
        assert_eq!(run(&p, 5), "8196i32");
        assert_eq!(run(&out, 5), "8196i32");
        // Some calls stay: the program is not fully inlined.
        assert!(out.functions.len() > 1);
        assert!(stats.copied_stms < 8191);
    }

    #[test]
    fn unbounded_budget_inlines_everything() {
        let limits = Limits {
            small: 0,
            budget: usize::MAX / 2,
        };
        let (out, stats) = inline_with(chain(6, 2), limits);
        assert_eq!(out.functions.len(), 1);
        // f<i> has 2^(i+1) - 1 statements once inlined.
        assert_eq!(total_size(&out), 127);
        assert_eq!(stats.inlined, 1 + 2 * 6);
        assert_eq!(run(&out, 0), "127i32");
    }

    #[test]
    fn attributes_force_and_forbid() {
        let src = "entry \"main\" = main(\"i32\": 1) -> (\"i32\": 1)

#[inline]
fun big(x: i32) -> (i32) {
  let a: i32 = add(x, 1i32)
  let b: i32 = add(a, 1i32)
  let c: i32 = add(b, 1i32)
  in (c)
}

#[noinline]
fun tiny(x: i32) -> (i32) {
  let a: i32 = add(x, 1i32)
  in (a)
}

fun main(x: i32) -> (i32) {
  let p: i32 = apply big(x)
  let q: i32 = apply big(p)
  let r: i32 = apply tiny(q)
  let s: i32 = apply tiny(r)
  in (s)
}
";
        let p = parse::parse_program(src).expect("parses");
        let limits = Limits {
            small: 0,
            budget: 0,
        };
        let (out, stats) = inline_with(p.clone(), limits);
        verify::verify(&out).expect("verifies");
        // `big` is inlined at both calls despite the budget and goes;
        // `tiny` stays, called twice.
        assert_eq!(stats.inlined, 2);
        assert_eq!(out.functions.len(), 2);
        assert_eq!(run(&p, 0), run(&out, 0));
    }

    #[test]
    fn calls_under_ad_are_inlined_whatever_the_budget() {
        let src = "entry \"main\" = main(\"f64\": 1) -> (\"f64\": 1)

fun sq(x: f64) -> (f64) {
  let a: f64 = mul(x, x)
  let b: f64 = add(a, 0.0f64)
  in (b)
}

fun quart(x: f64) -> (f64) {
  let a: f64 = apply sq(x)
  let b: f64 = apply sq(a)
  in (b)
}

fun main(x: f64) -> (f64) {
  let u: f64 = apply quart(x)
  let (v: f64, dv: f64) = jvp(\\(y: f64) -> (f64) {
    let p: f64 = apply quart(y)
    let q: f64 = apply quart(p)
    in (q)
  }, (x), (1.0f64))
  let r: f64 = add(u, dv)
  in (r)
}
";
        let p = parse::parse_program(src).expect("parses");
        verify::verify(&p).expect("verifies");
        let limits = Limits {
            small: 0,
            budget: 0,
        };
        let (out, _) = inline_with(p, limits);
        verify::verify(&out).expect("verifies");
        let text = print::print_program(&out);
        let lambda = &text[text.find("jvp").expect("jvp stays")..];
        let lambda = &lambda[..lambda.find("}, (").expect("lambda ends")];
        assert!(!lambda.contains("apply"), "{text}");
        // Outside the lambda the budget holds: `quart` is still called.
        assert!(text.contains("apply quart(x)"), "{text}");
    }
}
