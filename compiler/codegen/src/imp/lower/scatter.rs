//! Parallel scatter: a `scatter` that `flatten` plans as parallel
//! ([`flatten::Plan::Scatter`]) is a parallel loop over its iterations,
//! each running the map body and writing its value straight into the
//! destination ([`Stm::AtomicUpdate`] whose operator ignores the element:
//! a relaxed atomic store, a plain store on common hardware); an
//! out-of-bounds index is ignored.
//!
//! Within a chunk the writes happen in iteration order. Two chunks writing
//! the same element race; Futhark allows repeated indices only when they
//! write the same value, so any winner gives the program's result. The
//! runtime runs a loop of little work as one chunk, in iteration order.
//!
//! Only scatters of scalar values take this path (each destination
//! addressed by as many indices as it has dimensions); rows scattered into
//! a destination of higher rank keep the sequential loop.

use ir::{PrimType, Scatter};

use super::{Lowerer, R, Val};
use crate::imp::syntax::*;

impl<'p> Lowerer<'p> {
    /// Whether scatter `s` into `dests` writes scalar values only: every
    /// destination addressed by as many `i64` indices as it has dimensions
    /// and its values scalars of its element type.
    pub(super) fn par_scatter_fits(s: &Scatter, dests: &[View]) -> bool {
        if s.dests.len() != dests.len() {
            return false;
        }
        let mut off = 0;
        for (d, view) in s.dests.iter().zip(dests) {
            let Some(rets) = s.map.ret.get(off..off + d.rank + 1) else {
                return false;
            };
            let (idx, val) = rets.split_at(d.rank);
            let scalar = |t: &ir::Type| t.shape.is_empty() && !t.acc;
            if view.rank() != d.rank
                || !idx.iter().all(|t| scalar(t) && t.elem == PrimType::I64)
                || !scalar(&val[0])
                || val[0].elem != view.elem
            {
                return false;
            }
            off += d.rank + 1;
        }
        off == s.map.ret.len()
    }

    /// Lowers scatter `s` of `w` iterations into `dests` as a parallel
    /// loop writing each value in place (see the module documentation).
    /// `row_args` gives the map's arguments for an iteration; `in_bounds`
    /// the condition that indices address an element of a destination.
    /// Requires [`Self::par_scatter_fits`].
    pub(super) fn par_scatter(
        &mut self,
        s: &'p Scatter,
        w: SExp,
        dests: &[View],
        row_args: impl Fn(&mut Self, &SExp) -> R<Vec<Val<'p>>>,
        in_bounds: fn(&View, &[SExp]) -> SExp,
    ) -> R<()> {
        self.par_label = "scatter";
        self.loop_nest(vec![w], true, |l, i| {
            let args = row_args(l, &i[0])?;
            let res = l.apply(&s.map, args, &[])?;
            let mut res = res.into_iter();
            for view in dests {
                let mut idx = Vec::new();
                for _ in 0..view.rank() {
                    let Some(Val::Scalar(e)) = res.next() else {
                        return l.fail("a scatter lambda with the wrong results");
                    };
                    idx.push(SExp::Var(l.assign_fresh("ix", PrimType::I64, e)));
                }
                let Some(Val::Scalar(value)) = res.next() else {
                    return l.fail("a scatter lambda with the wrong results");
                };
                let old = l.new_var("old", view.elem);
                let write = Block {
                    stms: vec![Stm::AtomicUpdate {
                        view: view.clone(),
                        idx: idx.clone(),
                        old,
                        body: Block { stms: Vec::new() },
                        new: value,
                    }],
                };
                l.push_when(in_bounds(view, &idx), write);
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    //! A planned scatter lowers to a parallel loop staging its writes then
    //! a sequential loop applying them; the result matches the sequential
    //! lowering's, repeated and out-of-bounds indices included.

    use values::Value;

    use crate::imp::interp::run_function;
    use crate::imp::print::print_program;

    fn lower(src: &str) -> crate::imp::Program {
        let prog = ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{e}"));
        ir::verify::verify(&prog).unwrap_or_else(|e| panic!("{e:?}"));
        crate::imp::lower_program(&prog).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The results and the number of blocks allocated.
    fn run(p: &crate::imp::Program, args: Vec<Value>) -> (Vec<Value>, u64) {
        let out = run_function(p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        (out.values, out.counters.allocs)
    }

    /// A scatter whose map computes its index and value (so `flatten`
    /// plans it as parallel).
    const COMPUTED: &str = r"fun main(n: i64, k: i64, xs: [n]f64, is: [k]i64, vs: [k]f64) -> ([n]f64) {
  let ys: [n]f64 = copy(xs)
  let zs: [n]f64 = scatter(k, is, vs)
    into(ys@1)
    map(\(i: i64, v: f64) -> (i64, f64) {
      let j: i64 = sub(i, 1i64)
      let y: f64 = mul(v, 2.0f64)
      in (j, y)
    })
  in (zs)
}
";

    /// The same scatter with nothing computed: planned sequential.
    const PASSED: &str = r"fun main(n: i64, k: i64, xs: [n]f64, is: [k]i64, vs: [k]f64) -> ([n]f64) {
  let ys: [n]f64 = copy(xs)
  let zs: [n]f64 = scatter(k, is, vs)
    into(ys@1)
    map(\(i: i64, v: f64) -> (i64, f64) {
      in (i, v)
    })
  in (zs)
}
";

    fn args(is: Vec<i64>, vs: Vec<f64>) -> Vec<Value> {
        vec![
            Value::scalar(4i64),
            Value::scalar(is.len() as i64),
            Value::vector(vec![-1.0f64; 4]),
            Value::vector(is),
            Value::vector(vs),
        ]
    }

    /// What `COMPUTED` gives: writes in order, out-of-bounds ones skipped.
    fn reference(is: &[i64], vs: &[f64]) -> Value {
        let mut out = vec![-1.0f64; 4];
        for (i, v) in is.iter().zip(vs) {
            if let Some(x) = usize::try_from(i - 1).ok().and_then(|j| out.get_mut(j)) {
                *x = v * 2.0;
            }
        }
        Value::vector(out)
    }

    #[test]
    fn a_planned_scatter_writes_in_place_from_a_parallel_loop() {
        let text = print_program(&lower(COMPUTED));
        let par = text.find("par (").unwrap_or_else(|| panic!("{text}"));
        let write = text[par..]
            .find("atomic ")
            .unwrap_or_else(|| panic!("{text}"));
        // The write is guarded by the bounds condition, inside the loop.
        assert!(text[par..par + write].contains("if ("), "{text}");
        assert!(!text.contains("for ("), "{text}");
        assert!(!text.contains("planned scatter"), "{text}");
    }

    #[test]
    fn an_unplanned_scatter_stays_one_sequential_loop() {
        let text = print_program(&lower(PASSED));
        assert!(!text.contains("par ("), "{text}");
        assert!(!text.contains("atomic "), "{text}");
        assert_eq!(text.matches("for (").count(), 1, "{text}");
    }

    #[test]
    fn a_planned_scatter_skips_out_of_bounds_writes_and_allocates_nothing() {
        // Indices after the map's `- 1`: 2, 0, 2, -1, 4, 1, 2. A repeated
        // index writes the same value (Futhark allows nothing else: the
        // imp interpreter runs parallel iterations last to first).
        let is = vec![3, 1, 3, 0, 5, 2, 3];
        let vs = vec![7.0, 2.0, 7.0, 4.0, 5.0, 6.0, 7.0];
        let (out, allocs) = run(&lower(COMPUTED), args(is.clone(), vs.clone()));
        assert_eq!(out, vec![Value::vector(vec![4.0f64, 12.0, 14.0, -1.0])]);
        assert_eq!(out, vec![reference(&is, &vs)]);
        // The destination's copy only.
        assert_eq!(allocs, 1);
    }

    #[test]
    fn a_large_planned_scatter_agrees_with_the_sequential_lowering() {
        // 2^20 iterations writing 4 elements, many indices repeated (with
        // the same value) or out of bounds.
        let n = 1i64 << 20;
        let is: Vec<i64> = (0..n).map(|i| (i * 7919) % 13 - 4).collect();
        let vs: Vec<f64> = is.iter().map(|&i| (i * 3) as f64).collect();
        let (out, allocs) = run(&lower(COMPUTED), args(is.clone(), vs.clone()));
        assert_eq!(out, vec![reference(&is, &vs)]);
        assert_eq!(allocs, 1);
        let shifted: Vec<i64> = is.iter().map(|i| i - 1).collect();
        let doubled: Vec<f64> = vs.iter().map(|v| v * 2.0).collect();
        let (seq, _) = run(&lower(PASSED), args(shifted, doubled));
        assert_eq!(out, seq);
    }

    #[test]
    fn an_empty_planned_scatter_leaves_its_destination() {
        let (out, _) = run(&lower(COMPUTED), args(vec![], vec![]));
        assert_eq!(out, vec![Value::vector(vec![-1.0f64; 4])]);
    }

    #[test]
    fn the_emitted_write_is_an_atomic_store() {
        let locate = |_: ir::Span| String::new();
        let p = lower(COMPUTED);
        let rust = crate::imp_rust::function::function(&p, 0, true, &locate)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(rust.contains(".atomic_store("), "{rust}");
        assert!(!rust.contains(".atomic_update("), "{rust}");
    }
}
