//! The `acc_to_red` pass: accumulator updates that every iteration of a
//! map makes at the same index become a reduction over the map.
//!
//! In `screma(w, …, acc) map(\(…, a) -> … a' = update_acc(a, idx, v) … (…, a'))`
//! where `idx` does not depend on the iteration (no variable bound inside
//! the lambda), the update is taken out of the lambda: `v` becomes the
//! input of a new reduction with the accumulator's operator (elementwise
//! for arrays, neutral element replicated), and after the `screma` one
//! `update_acc(acc, idx, Σ v)` adds the reduced value. The operator is
//! known for accumulators made by a `with_acc` and for those passed on
//! from them (map parameters and results, `update_acc` results); it is
//! associative and commutative, so summing first gives the same
//! accumulator. When every update of the accumulator in the lambda moves
//! out, the accumulator is no longer passed to the `screma` at all.
//!
//! Reverse-mode AD makes these updates: the adjoint of a matrix `B` read
//! whole by every row of a map is updated once per row; summed by a
//! reduction instead, the adjoint of a matrix product is a product of
//! matrices rather than a sequence of updates of the whole matrix.
//!
//! Nested bodies are rewritten first, so an update that becomes a
//! reduction of an inner map and is invariant to the outer map moves out
//! of that one too.

use std::collections::{HashMap, HashSet};

use crate::acc_screma::{AddedReduction, ThreadedAcc, accs_to_reductions, threaded_accs};
use ir::pass::Pass;
use ir::syntax::*;
use ir::walk::{Slot, subst_slot, subst_type, walk_body_mut};
use ir::{Operand, PrimType, PrimaryMap, Size, Type, VarId};

/// The `acc_to_red` pass.
pub const PASS: Pass = Pass {
    name: "acc_to_red",
    description: "accumulator updates at an index invariant to a map become reductions over it",
    run,
};

type Vars = PrimaryMap<VarId, VarInfo>;

/// The operator and neutral element of each accumulator variable.
type Ops = HashMap<VarId, (Lambda, Operand)>;

fn run(mut prog: Program) -> Program {
    let ids: Vec<_> = prog.functions.keys().collect();
    for id in ids {
        let f = &mut prog.functions[id];
        let mut body = std::mem::take(&mut f.body);
        let mut ops = Ops::new();
        rewrite_body(&mut f.vars, &mut body, &mut ops);
        f.body = body;
    }
    prog
}

/// Rewrites the nested bodies of each statement of `b`, then the
/// statement itself.
fn rewrite_body(vars: &mut Vars, b: &mut Body, ops: &mut Ops) {
    let stms = std::mem::take(&mut b.stms);
    for mut stm in stms {
        bind_lambda_accs(vars, &stm.exp, ops);
        for nb in ir::walk::nested_bodies_mut(&mut stm.exp) {
            rewrite_body(vars, nb, ops);
        }
        let new = match &stm.exp {
            Exp::Screma(s) => rewrite_screma(vars, &stm, s, ops),
            _ => None,
        };
        let new = new.unwrap_or_else(|| vec![stm]);
        for s in &new {
            bind_results(vars, s, ops);
        }
        b.stms.extend(new);
    }
}

/// Records the operators of the accumulators that the lambdas of `e`
/// receive: `with_acc` parameters and `screma` parameters for accumulator
/// inputs.
fn bind_lambda_accs(vars: &Vars, e: &Exp, ops: &mut Ops) {
    match e {
        Exp::WithAcc(w) => {
            for (i, p) in w.inputs.iter().zip(&w.lambda.params) {
                if let Some(op) = &i.op {
                    ops.insert(p.var, op.clone());
                }
            }
        }
        Exp::Screma(s) => {
            for (i, p) in s.inputs.iter().zip(&s.map.params) {
                if is_acc(vars, *i)
                    && let Some(op) = ops.get(i).cloned()
                {
                    ops.insert(p.var, op);
                }
            }
        }
        _ => {}
    }
}

/// Records the operators of the accumulators that `stm` binds.
fn bind_results(vars: &Vars, stm: &Stm, ops: &mut Ops) {
    match &stm.exp {
        Exp::UpdateAcc { acc, .. } => {
            if let (Some(op), Some(y)) = (ops.get(acc).cloned(), stm.pat.first()) {
                ops.insert(*y, op);
            }
        }
        Exp::Screma(s) => {
            let ins = s.inputs.iter().filter(|v| is_acc(vars, **v));
            let outs = stm.pat.iter().filter(|v| is_acc(vars, **v));
            for (i, y) in ins.zip(outs) {
                if let Some(op) = ops.get(i).cloned() {
                    ops.insert(*y, op);
                }
            }
        }
        _ => {}
    }
}

fn is_acc(vars: &Vars, v: VarId) -> bool {
    vars.get(v).is_some_and(|i| i.ty.acc)
}

fn ty(vars: &Vars, v: VarId) -> Type {
    vars.get(v)
        .map(|i| i.ty.clone())
        .unwrap_or(Type::scalar(PrimType::Bool))
}

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

/// An update of an accumulator taken out of a map lambda.
struct Moved {
    /// The index.
    idx: Vec<Operand>,
    /// The value added in each iteration.
    value: Operand,
    /// Its type.
    ty: Type,
    /// The operator and neutral element.
    op: (Lambda, Operand),
}

/// The rewrite of one accumulator of a `screma`.
struct AccPlan {
    /// The accumulator's input and result positions.
    acc: ThreadedAcc,
    /// The updates moved out.
    moved: Vec<Moved>,
    /// True when no update stays in the lambda: the accumulator leaves
    /// the `screma`.
    dropped: bool,
}

/// The rewrite of `stm = screma …`, when some accumulator update in its
/// lambda is invariant to the map.
fn rewrite_screma(vars: &mut Vars, stm: &Stm, s: &Screma, ops: &Ops) -> Option<Vec<Stm>> {
    let threads = threaded_accs(s, |v| is_acc(vars, v))?;
    let mut bound: HashSet<VarId> = s.map.params.iter().map(|p| p.var).collect();
    ir::uses::body_binds(&s.map.body, &mut bound);
    let mut lam = s.map.clone();
    let mut plans = Vec::new();
    let mut subst: HashMap<VarId, Operand> = HashMap::new();
    for &acc in &threads {
        let Some(op) = ops.get(&s.inputs[acc.input]) else {
            continue;
        };
        let Some(p) = lam.params.get(acc.input).map(|p| p.var) else {
            continue;
        };
        let (moved, dropped) =
            take_invariant_updates(vars, &mut lam, p, acc.result, &bound, op, &mut subst);
        if !moved.is_empty() {
            plans.push(AccPlan {
                acc,
                moved,
                dropped,
            });
        }
    }
    if plans.is_empty() {
        return None;
    }
    walk_body_mut(&mut lam.body, &mut |slot| subst_slot(&subst, slot));
    let mut out = Vec::new();
    let mut pat = stm.pat.clone();
    // New reductions go after the existing ones.
    let mut added = Vec::new();
    // After the screma: (accumulator in, index, reduced value, result).
    let mut after: Vec<(VarId, Vec<Operand>, VarId, VarId)> = Vec::new();
    for plan in &plans {
        let final_pat = stm.pat[plan.acc.result];
        let mut cur = if plan.dropped {
            s.inputs[plan.acc.input]
        } else {
            let a = fresh(vars, "acc_rest", ty(vars, final_pat));
            pat[plan.acc.result] = a;
            a
        };
        let n = plan.moved.len();
        for (k, m) in plan.moved.iter().enumerate() {
            let neutral = neutral_of(vars, &mut out, &m.ty, m.op.1, stm.span)?;
            let red_op = lifted_op(vars, &m.op.0, &m.ty)?;
            let rv = fresh(vars, "acc_red", m.ty.clone());
            added.push(AddedReduction {
                op: ScanRed {
                    op: red_op,
                    neutral: vec![neutral],
                    commutative: true,
                },
                ty: m.ty.clone(),
                value: m.value,
                var: rv,
            });
            let next = if k + 1 == n {
                final_pat
            } else {
                fresh(vars, "acc_upd", ty(vars, final_pat))
            };
            after.push((cur, m.idx.clone(), rv, next));
            cur = next;
        }
    }
    // The accumulators that leave the screma.
    let dropped: Vec<ThreadedAcc> = plans.iter().filter(|p| p.dropped).map(|p| p.acc).collect();
    out.push(accs_to_reductions(stm, s, lam, pat, &dropped, added));
    for (acc, idx, value, y) in after {
        out.push(Stm {
            pat: vec![y],
            exp: Exp::UpdateAcc {
                acc,
                idx,
                value: value.into(),
            },
            attrs: Vec::new(),
            span: stm.span,
        });
    }
    Some(out)
}

/// Follows accumulator parameter `p` through the top-level `update_acc`
/// statements of `lam` and removes those whose index is invariant (uses
/// nothing in `bound`) and whose value's type has sizes known outside.
/// Each removed update's result is to be replaced by its input (recorded
/// in `subst`). Returns the moved updates, and whether the accumulator is
/// then passed unchanged to result `r` and used nowhere else (so that it
/// can leave the `screma`).
fn take_invariant_updates(
    vars: &Vars,
    lam: &mut Lambda,
    p: VarId,
    r: usize,
    bound: &HashSet<VarId>,
    op: &(Lambda, Operand),
    subst: &mut HashMap<VarId, Operand>,
) -> (Vec<Moved>, bool) {
    let mut moved = Vec::new();
    // The live accumulator, and the names of it (results of moved updates).
    let mut cur = p;
    let mut names: HashSet<VarId> = HashSet::from([p]);
    let mut followed = true;
    let mut keep = Vec::new();
    for stm in std::mem::take(&mut lam.body.stms) {
        let mut uses = HashSet::new();
        ir::uses::exp_uses(vars, &stm.exp, &mut uses);
        if !followed || uses.is_disjoint(&names) {
            keep.push(stm);
            continue;
        }
        match &stm.exp {
            Exp::UpdateAcc { acc, idx, value } if names.contains(acc) && stm.pat.len() == 1 => {
                let vt = match value {
                    Operand::Var(v) => ty(vars, *v),
                    Operand::Const(c) => Type::scalar(c.prim_type()),
                };
                let invariant = idx
                    .iter()
                    .all(|i| i.var().is_none_or(|v| !bound.contains(&v)))
                    && vt.shape.iter().all(|d| match d {
                        Size::Const(_) => true,
                        Size::Var(v) => !bound.contains(v),
                        Size::Any => false,
                    });
                let y = stm.pat[0];
                if invariant {
                    moved.push(Moved {
                        idx: idx.clone(),
                        value: *value,
                        ty: vt,
                        op: op.clone(),
                    });
                    subst.insert(y, Operand::Var(cur));
                    names.insert(y);
                } else {
                    let mut stm = stm;
                    if let Exp::UpdateAcc { acc, .. } = &mut stm.exp {
                        *acc = cur;
                    }
                    keep.push(stm);
                    cur = y;
                    names = HashSet::from([y]);
                }
            }
            _ => {
                followed = false;
                keep.push(stm);
            }
        }
    }
    lam.body.stms = keep;
    let returned = lam
        .body
        .result
        .get(r)
        .and_then(Operand::var)
        .is_some_and(|v| names.contains(&v));
    let dropped = followed && cur == p && returned;
    (moved, dropped)
}

/// The neutral element for a reduction of values of type `t`: `ne`
/// itself for a scalar, else `ne` replicated (emitted into `out`).
fn neutral_of(
    vars: &mut Vars,
    out: &mut Vec<Stm>,
    t: &Type,
    ne: Operand,
    span: ir::Span,
) -> Option<Operand> {
    if t.shape.is_empty() {
        return Some(ne);
    }
    let z = fresh(vars, "acc_ne", t.clone());
    out.push(Stm {
        pat: vec![z],
        exp: Exp::Replicate {
            shape: t.shape.clone(),
            value: ne,
        },
        attrs: Vec::new(),
        span,
    });
    Some(z.into())
}

/// The operator `op` on scalars lifted elementwise to values of type `t`,
/// a fresh copy.
fn lifted_op(vars: &mut Vars, op: &Lambda, t: &Type) -> Option<Lambda> {
    if t.shape.is_empty() {
        return Some(renamed(vars, op));
    }
    let row = Type::array(t.elem, t.shape[1..].to_vec());
    let inner = lifted_op(vars, op, &row)?;
    let w = match &t.shape[0] {
        Size::Const(n) => Operand::i64(*n),
        Size::Var(v) => Operand::Var(*v),
        Size::Any => return None,
    };
    let a = fresh(vars, "a", t.clone());
    let b = fresh(vars, "b", t.clone());
    let y = fresh(vars, "y", t.clone());
    Some(Lambda {
        params: vec![Param::new(a), Param::new(b)],
        ret: vec![t.clone()],
        body: Body {
            stms: vec![Stm {
                pat: vec![y],
                exp: Exp::Screma(Box::new(Screma {
                    w,
                    inputs: vec![a, b],
                    scans: Vec::new(),
                    reduces: Vec::new(),
                    map: inner,
                })),
                attrs: Vec::new(),
                span: ir::Span::NONE,
            }],
            result: vec![y.into()],
        },
    })
}

/// A copy of `lam` with every variable it binds fresh.
fn renamed(vars: &mut Vars, lam: &Lambda) -> Lambda {
    let mut binds: HashSet<VarId> = lam.params.iter().map(|p| p.var).collect();
    ir::uses::body_binds(&lam.body, &mut binds);
    let mut binds: Vec<VarId> = binds.into_iter().collect();
    binds.sort_by_key(|v| v.as_u32());
    let mut map: HashMap<VarId, Operand> = HashMap::new();
    let mut news = Vec::new();
    for v in binds {
        let name = vars.get(v).map(|i| i.name.clone()).unwrap_or_default();
        let nv = fresh(vars, &name, ty(vars, v));
        map.insert(v, nv.into());
        news.push(nv);
    }
    for nv in news {
        if let Some(i) = vars.get_mut(nv) {
            subst_type(&map, &mut i.ty);
        }
    }
    let mut out = lam.clone();
    ir::walk::walk_lambda_mut(&mut out, &mut |slot| match slot {
        Slot::Bind(v) => {
            if let Some(Operand::Var(n)) = map.get(v) {
                *v = *n;
            }
        }
        other => subst_slot(&map, other),
    });
    out
}

#[cfg(test)]
mod tests {
    use ir::interp::run_function;
    use values::Value;

    /// Runs `main` of `src` on `args` before and after the pass: the
    /// results agree; returns the array elements read and written before
    /// and after, and the program after.
    fn check(src: &str, args: Vec<Value>) -> ((u64, u64), ir::Program) {
        let prog = ir::parse::parse_program(src).expect("parses");
        let out = (super::PASS.run)(prog.clone());
        ir::verify::verify(&out).expect("verifies");
        let before = run_function(&prog, "main", args.clone()).expect("runs");
        let after = run_function(&out, "main", args).expect("runs");
        assert_eq!(before.values, after.values);
        let mem = |c: ir::interp::Counters| c.reads + c.writes;
        ((mem(before.counters), mem(after.counters)), out)
    }

    const SCALAR: &str = "fun main(n: i64, k: i64, is: [n]i64, vs: [n]f64) -> ([4]f64) {
  let z: [4]f64 = replicate([4], 0.0f64)
  let r: [4]f64 = with_acc(z op(\\(a: f64, b: f64) -> (f64) {
    let c: f64 = add(a, b)
    in (c)
  }, 0.0f64)) \\(acc: acc([4]f64)) -> (acc([4]f64)) {
    let acc2: acc([4]f64) = screma(n, is, vs, acc)
      map(\\(i: i64, v: f64, a0: acc([4]f64)) -> (acc([4]f64)) {
        let a1: acc([4]f64) = update_acc(a0, (i), v)
        let w: f64 = mul(v, 2.0f64)
        let a2: acc([4]f64) = update_acc(a1, (k), w)
        in (a2)
      })
    in (acc2)
  }
  in (r)
}
";

    #[test]
    fn an_invariant_update_becomes_a_reduction() {
        let is = Value::vector(vec![0i64, 2, 2, 3, 1]);
        let vs = Value::vector(vec![1.5f64, 2.0, 3.0, -1.0, 0.25]);
        for k in [1i64, 3, 7] {
            let args = vec![
                Value::scalar(5i64),
                Value::scalar(k),
                is.clone(),
                vs.clone(),
            ];
            let ((before, after), out) = check(SCALAR, args);
            // Out of bounds (k = 7), the updates write nothing either way.
            let fewer = if k < 4 {
                after < before
            } else {
                after <= before
            };
            assert!(fewer, "memory operations {before} -> {after}");
            let counts = crate::structure::count_constructs(&out);
            assert_eq!(counts.get("Screma/UpdateAcc"), Some(&1));
            assert_eq!(counts.get("WithAcc/UpdateAcc"), Some(&1));
        }
        let empty = vec![
            Value::scalar(0i64),
            Value::scalar(2i64),
            Value::vector(Vec::<i64>::new()),
            Value::vector(Vec::<f64>::new()),
        ];
        check(SCALAR, empty);
    }

    #[test]
    fn whole_matrix_updates_become_a_reduction_and_the_accumulator_leaves_the_map() {
        let src = "fun main(n: i64, xs: [n][2][3]f64) -> ([2][3]f64) {
  let z: [2][3]f64 = replicate([2][3], 1.0f64)
  let r: [2][3]f64 = with_acc(z op(\\(a: f64, b: f64) -> (f64) {
    let c: f64 = add(a, b)
    in (c)
  }, 0.0f64)) \\(acc: acc([2][3]f64)) -> (acc([2][3]f64)) {
    let acc2: acc([2][3]f64) = screma(n, xs, acc)
      map(\\(x: [2][3]f64, a0: acc([2][3]f64)) -> (acc([2][3]f64)) {
        let a1: acc([2][3]f64) = update_acc(a0, (), x)
        in (a1)
      })
    in (acc2)
  }
  in (r)
}
";
        let xs: Vec<f64> = (0..24).map(|i| i as f64 * 0.5 - 3.0).collect();
        let args = vec![
            Value::scalar(4i64),
            Value::array(vec![4, 2, 3], xs).expect("shape"),
        ];
        let (_, out) = check(src, args);
        let counts = crate::structure::count_constructs(&out);
        assert_eq!(counts.get("Screma/UpdateAcc"), None);
        assert_eq!(counts.get("UpdateAcc"), Some(&1));
    }

    #[test]
    fn a_variant_update_stays() {
        let src = SCALAR.replace("update_acc(a1, (k), w)", "update_acc(a1, (i), w)");
        let args = vec![
            Value::scalar(2i64),
            Value::scalar(0i64),
            Value::vector(vec![3i64, 1]),
            Value::vector(vec![1.0f64, 2.0]),
        ];
        let ((before, after), out) = check(&src, args);
        assert_eq!(before, after);
        let counts = crate::structure::count_constructs(&out);
        assert_eq!(counts.get("Screma/UpdateAcc"), Some(&2));
    }
}
