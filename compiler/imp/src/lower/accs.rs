//! Maps that update accumulators with an operator, in parallel.
//!
//! Reverse-mode AD turns the reads of a free array inside a map into
//! updates of the array's adjoint, an accumulator whose operator is `+`;
//! such a map's iterations are independent except for those updates. A map
//! planned as a segmented operation whose accumulator inputs all have an
//! operator runs as a parallel loop in one of two ways, chosen at run time
//! by a cost rule:
//!
//! - **private copies**: the iterations are split into `k` chunks, each
//!   updating its own copy of every accumulator (initialised to the
//!   neutral element), and a parallel loop over the accumulators' elements
//!   then combines the copies into the accumulators in chunk order;
//! - **atomic updates**: one parallel loop over the iterations, each update
//!   of a shared accumulator an [`Stm::AtomicUpdate`].
//!
//! The rule: with `E` the accumulators' elements and `U` the updates of all
//! `w` iterations (`w` times the updates in the body, loops multiplied by
//! their bound when it is known before the map), `k = min(U / E, CHUNKS)`
//! chunks; private copies when `k >= 2` and the runtime splits the
//! iterations into at least two chunks ([`SExp::Chunks`]: not on one
//! thread), atomic updates otherwise (on one chunk, plain updates of the
//! accumulators in place, as the sequential loop makes). The
//! copies then cost `k × E <= U` elements to initialise and as many to
//! combine, at most two element operations per update; when the
//! accumulators have more than half as many elements as there are updates
//! (the adjoint of a whole array that each iteration touches in a few
//! places), the updates go straight into the shared accumulators, where
//! they seldom meet.
//!
//! A map that also reduces (no scans) runs as the same parallel loop: each
//! chunk keeps its own partial results of the reductions, as a parallel
//! reduction's chunks do (the atomic form then splits the iterations into
//! chunks too), combined in chunk order after the loop.
//!
//! Results are those of the sequential loop up to the order in which the
//! operator combines the updates (floating-point reassociation).
//!
//! Lowered for a device ([`super::Options::device`]), such a map outside
//! other parallel loops always takes the atomic form: one kernel thread
//! per iteration (its reductions' chunks as many as the device keeps
//! busy, combined in rounds), where private copies would give it at most
//! [`CHUNKS`] threads.
//!
//! `FUT_ACCS=sequential` in the compiler's environment keeps such maps
//! sequential (`planned segmap`), for comparisons.

use std::cell::Cell;
use std::collections::HashSet;

use ir::{BinOp, CmpOp, Lambda, Operand, PrimType, Screma};

use super::soacs::{CHUNKS, State};
use super::{Lowerer, R, Val, bin};
use crate::syntax::*;

/// An accumulator input of a map that runs in parallel.
pub(crate) struct SharedAcc<'p> {
    /// The position among the map's inputs.
    input: usize,
    /// The accumulator's view.
    view: View,
    /// Its operator.
    op: &'p Lambda,
    /// The operator's neutral element.
    neutral: SExp,
}

/// A map updating accumulators, and perhaps reducing, that runs in
/// parallel.
struct AccMap<'a, 'p> {
    /// The number of iterations.
    w: SExp,
    /// The map's screma: its reductions run in the same loop.
    s: &'p Screma,
    /// The map's inputs.
    inputs: &'a [Val<'p>],
    /// The accumulators among them.
    accs: &'a [SharedAcc<'p>],
    /// The reductions' running values.
    red_state: &'a [Vec<State>],
}

thread_local! {
    /// Whether lowering on this thread keeps maps updating accumulators
    /// sequential, as `FUT_ACCS=sequential` does (set by tests comparing
    /// the two lowerings without touching the process's environment).
    static SEQUENTIAL: Cell<bool> = const { Cell::new(false) };
}

/// Whether `FUT_ACCS=sequential` asks for maps updating accumulators to
/// stay sequential.
fn sequential_accs() -> bool {
    SEQUENTIAL.get() || std::env::var("FUT_ACCS").is_ok_and(|v| v == "sequential")
}

/// `f` run with maps updating accumulators kept sequential on this thread.
#[cfg(test)]
fn with_sequential_accs<T>(f: impl FnOnce() -> T) -> T {
    SEQUENTIAL.set(true);
    let out = f();
    SEQUENTIAL.set(false);
    out
}

/// The number of atomic updates one run of `b` makes: loops multiply by
/// their bound when it is known before the parallel loop (mentions none of
/// `inner`, the variables its body sets) and by 1 otherwise, `if`s count
/// their larger branch.
fn updates(b: &Block, inner: &HashSet<SVar>) -> SExp {
    b.stms.iter().fold(SExp::i64(0), |n, s| {
        let here = match s {
            Stm::AtomicUpdate { .. } => SExp::i64(1),
            Stm::For { bound, body, .. } => {
                let per = updates(body, inner);
                if per.as_i64() == Some(0) || reads_any(bound, inner) {
                    per
                } else {
                    SExp::times(bound.clone(), per)
                }
            }
            Stm::While { body, .. } | Stm::Planned { body, .. } | Stm::ParFor { body, .. } => {
                updates(body, inner)
            }
            Stm::If {
                then_block,
                else_block,
                ..
            } => {
                let (a, b) = (updates(then_block, inner), updates(else_block, inner));
                match (a.as_i64(), b.as_i64()) {
                    (Some(x), Some(y)) => SExp::i64(x.max(y)),
                    (Some(0), _) => b,
                    (_, Some(0)) => a,
                    _ => bin(BinOp::Max, a, b),
                }
            }
            _ => SExp::i64(0),
        };
        SExp::plus(n, here)
    })
}

/// Whether `e` reads a variable of `vars`.
fn reads_any(e: &SExp, vars: &HashSet<SVar>) -> bool {
    let mut found = false;
    e.for_each_var(&mut |x| found |= vars.contains(&x));
    found
}

/// The neutral element of the `with_acc` input whose operator is `op`.
fn find_neutral<'a>(b: &'a ir::Body, op: &Lambda) -> Option<&'a Operand> {
    for s in &b.stms {
        if let ir::Exp::WithAcc(w) = &s.exp {
            for inp in &w.inputs {
                if let Some((l, ne)) = &inp.op
                    && std::ptr::eq(l, op)
                {
                    return Some(ne);
                }
            }
        }
        for (_, nb) in ir::uses::nested_bodies(&s.exp) {
            if let Some(ne) = find_neutral(nb, op) {
                return Some(ne);
            }
        }
    }
    None
}

impl<'p> Lowerer<'p> {
    /// The accumulator inputs of a map with lambda `map`, when every one
    /// has an operator and the body reaches no other accumulator; `None`
    /// when the map must run sequentially.
    pub(crate) fn shared_accs(
        &self,
        map: &'p Lambda,
        inputs: &[Val<'p>],
    ) -> Option<Vec<SharedAcc<'p>>> {
        if sequential_accs() {
            return None;
        }
        let free = ir::uses::lambda_free(&self.f.vars, map);
        if free
            .iter()
            .any(|v| matches!(self.lookup(*v), Ok(Val::Acc(..))))
        {
            return None;
        }
        let mut out = Vec::new();
        for (input, x) in inputs.iter().enumerate() {
            if let Val::Acc(view, op) = x {
                let op = (*op)?;
                let neutral = self.scalar(find_neutral(&self.f.body, op)?).ok()?;
                out.push(SharedAcc {
                    input,
                    view: view.clone(),
                    op,
                    neutral,
                });
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// A map over `w` iterations updating the accumulators `accs` (among
    /// its `inputs`) as a parallel loop: private copies or atomic updates
    /// by the module's cost rule. The reductions of `s` (no scans), with
    /// running values `red_state`, run in the same loop: each chunk
    /// reduces its iterations from the neutral elements and the chunks'
    /// partial results are combined into `red_state` in chunk order.
    /// `iteration` lowers one iteration, given the inputs to use, the index
    /// and the reductions' running values to update.
    pub(super) fn acc_map(
        &mut self,
        w: SExp,
        s: &'p Screma,
        inputs: &[Val<'p>],
        accs: &[SharedAcc<'p>],
        red_state: &[Vec<State>],
        iteration: impl Fn(&mut Self, &[Val<'p>], &SExp, &[Vec<State>]) -> R<()>,
    ) -> R<()> {
        use SExp as E;
        let m = AccMap {
            w,
            s,
            inputs,
            accs,
            red_state,
        };
        // On a device the atomic form runs one thread per iteration, where
        // private copies would have at most CHUNKS threads.
        if self.device && !self.parallel && !self.nest_here {
            return self.atomic_accs(&m, &iteration);
        }
        let k = self.new_var("acc_chunks", PrimType::I64);
        let else_block = self.nested(|l| l.atomic_accs(&m, &iteration))?;
        let then_block = self.nested(|l| l.private_accs(&m, E::Var(k), &iteration))?;
        // The updates of one iteration, counted in the atomic form's body
        // (its parallel loop; per chunk, a loop over the chunk's
        // iterations, whose bound is set inside, so counted once).
        let per_iteration = else_block
            .stms
            .iter()
            .find_map(|st| match st {
                Stm::ParFor { ids, body, .. } => {
                    let mut inner: HashSet<SVar> = ids.iter().copied().collect();
                    body.for_each_set(&mut |v| {
                        inner.insert(v);
                    });
                    Some(updates(body, &inner))
                }
                _ => None,
            })
            .unwrap_or(E::i64(1));
        let elems = accs
            .iter()
            .fold(E::i64(0), |n, a| E::plus(n, a.view.count()));
        let elems = self.assign_fresh("acc_elems", PrimType::I64, elems);
        let updates = self.assign_fresh(
            "acc_updates",
            PrimType::I64,
            E::times(m.w.clone(), per_iteration),
        );
        let per = bin(
            BinOp::Div,
            E::Var(updates),
            bin(BinOp::Max, E::Var(elems), E::i64(1)),
        );
        // The chunks the runtime would split the iterations into: one on
        // one thread (or for too little work), a few per thread otherwise;
        // each iteration costs the atomic form's body (with reductions, a
        // chunk's loop, counted as 16 iterations).
        let body_cost = else_block.stms.iter().find_map(|st| match st {
            Stm::ParFor { body, .. } => Some(crate::cost::cost(body)),
            _ => None,
        });
        let body_cost = body_cost.unwrap_or(1);
        let cost = if m.s.reduces.is_empty() {
            body_cost.max(1)
        } else {
            crate::cost::per_chunk_iteration(body_cost)
        };
        let chunks = self.assign_fresh(
            "acc_threads",
            PrimType::I64,
            E::Chunks {
                w: Box::new(m.w.clone()),
                cost,
                most: CHUNKS,
            },
        );
        self.push(Stm::Assign {
            var: k,
            exp: bin(BinOp::Min, per, E::i64(CHUNKS)),
            span: self.span,
        });
        // Copies only where the runtime splits the iterations: with one
        // chunk the atomic form's loop runs as one chunk, updating the
        // accumulators in place with plain reads and writes.
        let cond = bin(
            BinOp::And,
            E::cmp(CmpOp::Le, E::i64(2), E::Var(k)),
            E::cmp(CmpOp::Le, E::i64(2), E::Var(chunks)),
        );
        self.push(Stm::If {
            cond,
            then_block,
            else_block,
        });
        Ok(())
    }

    /// The label of the loop over the chunks: a reduction's when there is
    /// one.
    fn acc_label(m: &AccMap<'_, 'p>) -> &'static str {
        if m.s.reduces.is_empty() {
            "segmap"
        } else {
            "segred"
        }
    }

    /// The private-copies form: `k` chunks, each with its own copies of
    /// the accumulators, combined into them in chunk order afterwards.
    fn private_accs(
        &mut self,
        m: &AccMap<'_, 'p>,
        k: SExp,
        iteration: &impl Fn(&mut Self, &[Val<'p>], &SExp, &[Vec<State>]) -> R<()>,
    ) -> R<()> {
        use SExp as E;
        let (w, accs) = (&m.w, m.accs);
        let up = E::minus(E::plus(w.clone(), k.clone()), E::i64(1));
        let chunk = self.assign_fresh("chunk", PrimType::I64, bin(BinOp::Div, up, k.clone()));
        let chunk = E::Var(chunk);
        // Per accumulator: a [k] ++ shape block of copies.
        let parts: Vec<View> = accs
            .iter()
            .map(|a| {
                let mut shape = vec![k.clone()];
                shape.extend(a.view.shape.iter().cloned());
                self.alloc("acc_part", a.view.elem, shape)
            })
            .collect();
        let red_parts = self.partial_blocks("red_part", &k, m.red_state);
        self.par_label = Self::acc_label(m);
        self.chunk_loop_next = true;
        self.loop_nest(vec![k.clone()], true, |l, c| {
            let c = &c[0];
            let mut mine = m.inputs.to_vec();
            for (a, p) in accs.iter().zip(&parts) {
                let copy = p.at(std::slice::from_ref(c));
                let (view, ne) = (copy.clone(), a.neutral.clone());
                l.loop_nest(copy.shape.clone(), false, |l, j| {
                    l.push(Stm::Write {
                        view,
                        idx: j.to_vec(),
                        value: ne,
                    });
                    Ok(())
                })?;
                mine[a.input] = Val::Acc(copy, Some(a.op));
            }
            let body = |l: &mut Self, i: &SExp, _: &[Vec<State>], rd: &[Vec<State>]| {
                iteration(l, &mine, i, rd)
            };
            l.chunk_partials(m.s, c, (&m.w, &chunk, None), None, (&[], &red_parts), &body)
        })?;
        if !m.s.reduces.is_empty() {
            self.combine_partials(m.s, &k, (&[], m.red_state), (&[], &red_parts), false)?;
        }
        for (a, p) in accs.iter().zip(&parts) {
            let (view, p, k) = (a.view.clone(), p.clone(), k.clone());
            self.par_label = "segmap-acc-combine";
            self.loop_nest(view.shape.clone(), true, |l, idx| {
                let x = l.new_var("acc_elem", view.elem);
                l.push(Stm::Read {
                    var: x,
                    view: view.clone(),
                    idx: idx.to_vec(),
                });
                l.seq_loop(k, |l, c| {
                    let y = l.new_var("part", p.elem);
                    let mut at = vec![c.clone()];
                    at.extend(idx.iter().cloned());
                    l.push(Stm::Read {
                        var: y,
                        view: p,
                        idx: at,
                    });
                    l.combine(a.op, &[State::Scalar(x)], &[Val::Scalar(E::Var(y))])
                })?;
                l.push(Stm::Write {
                    view,
                    idx: idx.to_vec(),
                    value: E::Var(x),
                });
                Ok(())
            })?;
        }
        Ok(())
    }

    /// The atomic form: the updates of the accumulators are atomic. Without
    /// reductions, one parallel loop over the iterations; with them, a
    /// parallel loop over chunks of iterations, each reducing its own.
    fn atomic_accs(
        &mut self,
        m: &AccMap<'_, 'p>,
        iteration: &impl Fn(&mut Self, &[Val<'p>], &SExp, &[Vec<State>]) -> R<()>,
    ) -> R<()> {
        let before = self.atomic_accs.len();
        self.atomic_accs.extend(m.accs.iter().map(|a| a.view.mem));
        self.par_label = Self::acc_label(m);
        let r = if m.s.reduces.is_empty() {
            self.loop_nest(vec![m.w.clone()], true, |l, idx| {
                iteration(l, m.inputs, &idx[0], m.red_state)
            })
        } else {
            self.atomic_reduce(m, iteration)
        };
        self.atomic_accs.truncate(before);
        r
    }

    /// The atomic form's chunks with reductions: per chunk, the reductions'
    /// partial results; then those combined in chunk order.
    fn atomic_reduce(
        &mut self,
        m: &AccMap<'_, 'p>,
        iteration: &impl Fn(&mut Self, &[Val<'p>], &SExp, &[Vec<State>]) -> R<()>,
    ) -> R<()> {
        let most = self.most_chunks(super::soacs::DEVICE_CHUNKS);
        let (k, chunk) = self.chunking_capped(&m.w, None, most);
        let red_parts = self.partial_blocks("red_part", &k, m.red_state);
        self.chunk_loop_next = true;
        self.loop_nest(vec![k.clone()], true, |l, c| {
            let c = &c[0];
            let body = |l: &mut Self, i: &SExp, _: &[Vec<State>], rd: &[Vec<State>]| {
                iteration(l, m.inputs, i, rd)
            };
            l.chunk_partials(m.s, c, (&m.w, &chunk, None), None, (&[], &red_parts), &body)
        })?;
        self.set_chunk_cost();
        let rounds = most == super::soacs::DEVICE_CHUNKS;
        self.combine_partials(m.s, &k, (&[], m.red_state), (&[], &red_parts), rounds)?;
        Ok(())
    }

    /// Whether updates of the accumulator in block `mem` are atomic here.
    pub(crate) fn is_atomic_acc(&self, mem: MemId) -> bool {
        self.atomic_accs.contains(&mem)
    }

    /// Element `idx` of `view` combined with `value` by `op`, atomically.
    pub(crate) fn atomic_combine(
        &mut self,
        op: &'p Lambda,
        view: &View,
        idx: Vec<SExp>,
        value: SExp,
    ) -> R<()> {
        let old = self.new_var("old", view.elem);
        let mut new = None;
        let body = self.nested(|l| {
            let args = vec![Val::Scalar(SExp::Var(old)), Val::Scalar(value)];
            match l.apply(op, args, &[])?.as_slice() {
                [Val::Scalar(e)] => {
                    new = Some(e.clone());
                    Ok(())
                }
                _ => l.fail("an accumulator operator with a result of the wrong kind"),
            }
        })?;
        let Some(new) = new else {
            return self.fail("an accumulator operator without a result");
        };
        self.push(Stm::AtomicUpdate {
            view: view.clone(),
            idx,
            old,
            body,
            new,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use values::Value;

    use crate::interp::{Chunking, run_function, run_function_chunked};
    use crate::print::print_program;

    /// A map over `n` values adding `v` at `i` and `2v` at `i + 1` of an
    /// accumulator of `m` elements starting at 1 (out-of-bounds updates
    /// ignored), and returning `v * v` per row; `T` is the element type.
    fn program(t: &str, two: &str, one: &str) -> String {
        format!(
            r"fun main(n: i64, m: i64, is: [n]i64, vs: [n]{t}) -> ([m]{t}, [n]{t}) {{
  let z: [m]{t} = replicate([m], {one})
  let (r: [m]{t}, ys: [n]{t}) = with_acc(z op(\(a: {t}, b: {t}) -> ({t}) {{
    let c: {t} = add(a, b)
    in (c)
  }}, {zero})) \(acc: acc([m]{t})) -> (acc([m]{t}), [n]{t}) {{
    let (acc2: acc([m]{t}), ys0: [n]{t}) = screma(n, is, vs, acc)
      map(\(i: i64, v: {t}, a0: acc([m]{t})) -> (acc([m]{t}), {t}) {{
        let a1: acc([m]{t}) = update_acc(a0, (i), v)
        let w: {t} = mul(v, {two})
        let j: i64 = add(i, 1i64)
        let a2: acc([m]{t}) = update_acc(a1, (j), w)
        let y: {t} = mul(v, v)
        in (a2, y)
      }})
    in (acc2, ys0)
  }}
  in (r, ys)
}}
",
            zero = one.replace('1', "0"),
        )
    }

    use crate::lower_text as lower;

    /// The sequential answer of [`program`] on `f64`.
    fn expected(m: usize, is: &[i64], vs: &[f64]) -> Vec<f64> {
        let mut r = vec![1.0; m];
        for (&i, &v) in is.iter().zip(vs) {
            for (j, x) in [(i, v), (i + 1, 2.0 * v)] {
                if (0..m as i64).contains(&j) {
                    r[j as usize] += x;
                }
            }
        }
        r
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn a_map_updating_an_accumulator_is_a_parallel_loop_both_ways() {
        let p = lower(&program("f64", "2.0f64", "1.0f64"));
        let text = print_program(&p);
        // No sequential fallback: private copies and atomic updates, each
        // a parallel loop, chosen by the cost rule at run time.
        assert!(!text.contains("planned"), "{text}");
        assert!(text.contains("acc_part_mem"), "{text}");
        assert!(
            text.contains("atomic r_mem") || text.contains("atomic z_mem"),
            "{text}"
        );
        assert!(text.contains("le(2i64, acc_chunks"), "{text}");
        // Many updates per element (200 iterations of two updates, 6
        // elements: 400 / 6 = 66, capped at 64 chunks) take the private
        // copies: a third block of 64 copies.
        let m = 6usize;
        let is: Vec<i64> = (0..200).map(|k| (k * 7 % 9) as i64 - 1).collect();
        let vs: Vec<f64> = (0..200).map(|k| k as f64 * 0.25 - 3.0).collect();
        let args = vec![
            Value::scalar(200i64),
            Value::scalar(m as i64),
            Value::vector(is.clone()),
            Value::vector(vs.clone()),
        ];
        let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        let r = out.values[0].as_slice::<f64>().unwrap().to_vec();
        assert!(close(&r, &expected(m, &is, &vs)), "{r:?}");
        let ys: Vec<f64> = vs.iter().map(|v| v * v).collect();
        assert_eq!(out.values[1], Value::vector(ys));
        assert_eq!(out.counters.allocs, 3, "{}", out.counters);
        assert_eq!(out.counters.alloc_bytes, (6 + 200 + 64 * 6) * 8);
        // Fewer updates than twice the elements (10 iterations, 20 updates,
        // 30 elements): atomic updates into the accumulator itself, no
        // copies.
        let (m, is, vs) = (30usize, &is[..10], &vs[..10]);
        let args = vec![
            Value::scalar(10i64),
            Value::scalar(m as i64),
            Value::vector(is.to_vec()),
            Value::vector(vs.to_vec()),
        ];
        let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        let r = out.values[0].as_slice::<f64>().unwrap().to_vec();
        assert!(close(&r, &expected(m, is, vs)), "{r:?}");
        assert_eq!(out.counters.allocs, 2, "{}", out.counters);
    }

    /// A map over `n` values adding `v` at `i` of an accumulator of `m`
    /// elements starting at 1 (out-of-bounds updates ignored), summing
    /// `v * v` and returning `3v` per row.
    const REDUCING: &str = r"fun main(n: i64, m: i64, is: [n]i64, vs: [n]f64) -> ([m]f64, [n]f64, f64) {
  let z: [m]f64 = replicate([m], 1.0f64)
  let (r: [m]f64, ys: [n]f64, s: f64) = with_acc(z op(\(a: f64, b: f64) -> (f64) {
    let c: f64 = add(a, b)
    in (c)
  }, 0.0f64)) \(acc: acc([m]f64)) -> (acc([m]f64), [n]f64, f64) {
    let (s0: f64, acc2: acc([m]f64), ys0: [n]f64) = screma(n, is, vs, acc)
      reduce(\(p: f64, q: f64) -> (f64) {
        let t: f64 = add(p, q)
        in (t)
      }, 0.0f64)
      map(\(i: i64, v: f64, a0: acc([m]f64)) -> (f64, acc([m]f64), f64) {
        let a1: acc([m]f64) = update_acc(a0, (i), v)
        let sq: f64 = mul(v, v)
        let y: f64 = mul(v, 3.0f64)
        in (sq, a1, y)
      })
    in (acc2, ys0, s0)
  }
  in (r, ys, s)
}
";

    #[test]
    fn a_map_that_also_reduces_is_one_parallel_loop_both_ways() {
        let par = lower(REDUCING);
        let text = print_program(&par);
        // One parallel loop per form, each chunk reducing its iterations:
        // no sequential fallback, and the reduction's partial results in
        // both forms.
        assert!(!text.contains("planned"), "{text}");
        assert!(text.contains("acc_part_mem"), "{text}");
        assert!(text.contains("atomic z_mem") || text.contains("atomic r_mem"));
        assert!(text.matches("red_part_mem").count() >= 2, "{text}");
        let seq = super::with_sequential_accs(|| lower(REDUCING));
        let seq_text = print_program(&seq);
        assert!(seq_text.contains("planned"), "{seq_text}");
        assert!(!seq_text.contains("atomic"), "{seq_text}");
        // 200 iterations into 6 elements: private copies (64 chunks, a
        // block of 64 copies and one of 64 partial sums); 10 into 30:
        // atomic updates (10 chunks of one iteration).
        let is: Vec<i64> = (0..200).map(|k| (k * 7 % 9) as i64 - 1).collect();
        let vs: Vec<f64> = (0..200).map(|k| k as f64 * 0.25 - 3.0).collect();
        for (n, m, allocs) in [(200usize, 6i64, 5), (10, 30, 4)] {
            let args = vec![
                Value::scalar(n as i64),
                Value::scalar(m),
                Value::vector(is[..n].to_vec()),
                Value::vector(vs[..n].to_vec()),
            ];
            let run = |p| run_function(p, "main", args.clone()).unwrap_or_else(|e| panic!("{e}"));
            let (a, b) = (run(&par), run(&seq));
            let r = a.values[0].as_slice::<f64>().unwrap();
            assert!(close(r, b.values[0].as_slice::<f64>().unwrap()), "{r:?}");
            let mut want = vec![1.0; m as usize];
            for (&i, &v) in is[..n].iter().zip(&vs[..n]) {
                if (0..m).contains(&i) {
                    want[i as usize] += v;
                }
            }
            assert!(close(r, &want), "{r:?}");
            // Sums of multiples of 1/16: exact in any order.
            assert_eq!(a.values[1..], b.values[1..]);
            let sum: f64 = vs[..n].iter().map(|v| v * v).sum();
            assert_eq!(a.values[2], Value::scalar(sum));
            assert_eq!(a.counters.allocs, allocs, "n = {n}: {}", a.counters);
        }
    }

    #[test]
    fn one_chunk_updates_the_accumulator_in_place() {
        let p = lower(&program("f64", "2.0f64", "1.0f64"));
        let text = print_program(&p);
        // The copies are taken only when the runtime splits the iterations.
        assert!(text.contains("chunks(n"), "{text}");
        assert!(text.contains("and(le(2i64, acc_chunks"), "{text}");
        // 200 iterations into 6 elements: 64 private copies with the most
        // chunks; with one chunk (one thread), no copies: the updates go
        // into the accumulator, as the sequential loop's do.
        let m = 6usize;
        let is: Vec<i64> = (0..200).map(|k| (k * 5 % 11) as i64 - 2).collect();
        let vs: Vec<f64> = (0..200).map(|k| k as f64 * 0.125 - 7.0).collect();
        let args = vec![
            Value::scalar(200i64),
            Value::scalar(m as i64),
            Value::vector(is.clone()),
            Value::vector(vs.clone()),
        ];
        let run =
            |c| run_function_chunked(&p, "main", args.clone(), c).unwrap_or_else(|e| panic!("{e}"));
        let (most, one) = (run(Chunking::Most), run(Chunking::One));
        let want = expected(m, &is, &vs);
        for out in [&most, &one] {
            let r = out.values[0].as_slice::<f64>().unwrap();
            assert!(close(r, &want), "{r:?}");
        }
        // Sums of multiples of 1/8: exact in any order.
        assert_eq!(most.values, one.values);
        assert_eq!(most.counters.allocs, 3, "{}", most.counters);
        assert_eq!(one.counters.allocs, 2, "{}", one.counters);
        assert_eq!(one.counters.alloc_bytes, (6 + 200) * 8);
        // The same with a reduction in the map: one chunk allocates no
        // copies; the partial sums' block has one element.
        let par = lower(REDUCING);
        let args = vec![
            Value::scalar(200i64),
            Value::scalar(m as i64),
            Value::vector(is.clone()),
            Value::vector(vs.clone()),
        ];
        let run = |c| {
            run_function_chunked(&par, "main", args.clone(), c).unwrap_or_else(|e| panic!("{e}"))
        };
        let (most, one) = (run(Chunking::Most), run(Chunking::One));
        assert_eq!(most.values, one.values);
        let sum: f64 = vs.iter().map(|v| v * v).sum();
        assert_eq!(one.values[2], Value::scalar(sum));
        assert_eq!(most.counters.allocs, 5, "{}", most.counters);
        assert_eq!(one.counters.allocs, 4, "{}", one.counters);
    }

    #[test]
    fn on_a_device_accumulators_are_updated_atomically_by_every_iteration() {
        let device = |src: &str| {
            let prog = ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{e}"));
            let options = crate::lower::Options { device: true };
            crate::lower::lower_program_with(&prog, options).unwrap_or_else(|e| panic!("{e}"))
        };
        let p = device(&program("f64", "2.0f64", "1.0f64"));
        let text = print_program(&p);
        // No private copies, no choice at run time: one parallel loop over
        // the iterations with atomic updates.
        assert!(!text.contains("acc_part_mem"), "{text}");
        assert!(!text.contains("acc_chunks"), "{text}");
        assert!(text.contains("par (i0"), "{text}");
        // Many updates per element (where the host would copy): the same
        // sums, and no block beyond the accumulator and the mapped values.
        let m = 6usize;
        let is: Vec<i64> = (0..200).map(|k| (k * 7 % 9) as i64 - 1).collect();
        let vs: Vec<f64> = (0..200).map(|k| k as f64 * 0.125 - 3.0).collect();
        let args = vec![
            Value::scalar(200i64),
            Value::scalar(m as i64),
            Value::vector(is.clone()),
            Value::vector(vs.clone()),
        ];
        let out = run_function(&p, "main", args.clone()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.values[0], Value::vector(expected(m, &is, &vs)));
        assert_eq!(out.counters.allocs, 2, "{}", out.counters);
        // With a reduction: its chunks' results combined in rounds.
        let par = device(REDUCING);
        let text = print_program(&par);
        assert!(text.contains("while (gt(parts_left, 64i64))"), "{text}");
        for c in [Chunking::Most, Chunking::One] {
            let out = run_function_chunked(&par, "main", args.clone(), c)
                .unwrap_or_else(|e| panic!("{e}"));
            // REDUCING adds `v` at `i` only.
            let mut want = vec![1.0; m];
            for (&i, &v) in is.iter().zip(&vs) {
                if (0..m as i64).contains(&i) {
                    want[i as usize] += v;
                }
            }
            assert_eq!(out.values[0], Value::vector(want));
            let sum: f64 = vs.iter().map(|v| v * v).sum();
            assert_eq!(out.values[2], Value::scalar(sum));
        }
    }
}
