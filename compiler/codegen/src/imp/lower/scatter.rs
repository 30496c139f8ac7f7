//! Parallel scatter: a `scatter` that `flatten` plans as parallel
//! ([`flatten::Plan::Scatter`]) runs in two steps.
//!
//! 1. A parallel loop over the iterations runs the map body and stores
//!    each iteration's indices (one `i64` block per index component) and
//!    value (one block per destination) in temporary blocks of `w`
//!    elements.
//! 2. A sequential loop applies the writes in iteration order, so that a
//!    repeated index gets its last write and the result does not depend on
//!    the number of threads; an out-of-bounds index is ignored.
//!
//! Below [`SCATTER_MIN_WORK`] units of estimated work (iterations times
//! the map's cost, `crate::cost`) the extra pass over the writes costs
//! more than the parallel map gains, so the choice is made at run time: a
//! small scatter runs the sequential loop, which writes as it goes.
//!
//! Only scatters of scalar values take this path (each destination
//! addressed by as many indices as it has dimensions); rows scattered into
//! a destination of higher rank keep the sequential loop.

use ir::{CmpOp, PrimType, Scatter};

use super::{Lowerer, R, Val};
use crate::imp::syntax::*;
use crate::scatter::SCATTER_MIN_WORK;

/// Where the iterations of a parallel scatter leave their writes: per
/// destination, one block per index component and one for the values.
struct Staged {
    idx: Vec<View>,
    vals: View,
}

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
    /// loop staging the writes, then a sequential loop applying them in
    /// order (see the module documentation), when its estimated work is
    /// at least [`SCATTER_MIN_WORK`]; as `small` (the sequential loop)
    /// otherwise, the choice made at run time. `row_args` gives the map's
    /// arguments for an iteration; `in_bounds` the condition that indices
    /// address an element of a destination. Requires
    /// [`Self::par_scatter_fits`].
    pub(super) fn par_scatter(
        &mut self,
        s: &'p Scatter,
        w: SExp,
        dests: &[View],
        row_args: impl FnOnce(&mut Self, &SExp) -> R<Vec<Val<'p>>>,
        in_bounds: fn(&View, &[SExp]) -> SExp,
        small: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        // The least number of iterations worth the parallel form.
        let cost = crate::cost::lambda_cost(self.prog, &s.map).max(1);
        let least = SCATTER_MIN_WORK.div_ceil(cost);
        let least = SExp::i64(i64::try_from(least).unwrap_or(i64::MAX));
        let then_block = self.nested(small)?;
        let else_block =
            self.nested(|l| l.staged_scatter(s, w.clone(), dests, row_args, in_bounds))?;
        self.push(Stm::If {
            cond: SExp::cmp(CmpOp::Lt, w, least),
            then_block,
            else_block,
        });
        Ok(())
    }

    /// The parallel loop staging the writes of scatter `s` and the
    /// sequential loop applying them (see [`Self::par_scatter`]).
    fn staged_scatter(
        &mut self,
        s: &'p Scatter,
        w: SExp,
        dests: &[View],
        row_args: impl FnOnce(&mut Self, &SExp) -> R<Vec<Val<'p>>>,
        in_bounds: fn(&View, &[SExp]) -> SExp,
    ) -> R<()> {
        let staged: Vec<Staged> = s
            .dests
            .iter()
            .zip(dests)
            .map(|(d, view)| Staged {
                idx: (0..d.rank)
                    .map(|j| self.alloc(&format!("scatter_i{j}"), PrimType::I64, vec![w.clone()]))
                    .collect(),
                vals: self.alloc("scatter_v", view.elem, vec![w.clone()]),
            })
            .collect();
        self.par_label = "scatter";
        self.loop_nest(vec![w.clone()], true, |l, i| {
            let i = &i[0];
            let args = row_args(l, i)?;
            let res = l.apply(&s.map, args, &[])?;
            let mut res = res.into_iter();
            for st in &staged {
                for view in st.idx.iter().chain([&st.vals]) {
                    let Some(Val::Scalar(e)) = res.next() else {
                        return l.fail("a scatter lambda with the wrong results");
                    };
                    l.push(Stm::Write {
                        view: view.clone(),
                        idx: vec![i.clone()],
                        value: e,
                    });
                }
            }
            Ok(())
        })?;
        self.seq_loop(w, |l, i| {
            for (st, view) in staged.iter().zip(dests) {
                let read = |l: &mut Self, name: &str, from: &View| {
                    let x = l.new_var(name, from.elem);
                    l.push(Stm::Read {
                        var: x,
                        view: from.clone(),
                        idx: vec![i.clone()],
                    });
                    SExp::Var(x)
                };
                let idx: Vec<SExp> = st.idx.iter().map(|b| read(l, "ix", b)).collect();
                let value = read(l, "v", &st.vals);
                let cond = in_bounds(view, &idx);
                let write = Block {
                    stms: vec![Stm::Write {
                        view: view.clone(),
                        idx,
                        value,
                    }],
                };
                l.push_when(cond, write);
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
    fn a_planned_scatter_stages_in_parallel_then_writes_in_order() {
        let text = print_program(&lower(COMPUTED));
        let par = text.find("par (").unwrap_or_else(|| panic!("{text}"));
        let seq = text[par..]
            .find("for (")
            .unwrap_or_else(|| panic!("{text}"));
        assert!(text[par + seq..].contains("if ("), "{text}");
        // The small case's sequential loop comes first, unmarked.
        assert_eq!(text.matches("for (").count(), 2, "{text}");
        assert!(text.find("for (") < Some(par), "{text}");
        assert!(!text.contains("planned scatter"), "{text}");
    }

    #[test]
    fn an_unplanned_scatter_stays_one_sequential_loop() {
        let text = print_program(&lower(PASSED));
        assert!(!text.contains("par ("), "{text}");
        assert_eq!(text.matches("for (").count(), 1, "{text}");
    }

    #[test]
    fn a_small_scatter_writes_in_place_with_the_same_rules() {
        // Indices after the map's `- 1`: 2, 0, 2, -1, 4, 1, 2.
        let is = vec![3, 1, 3, 0, 5, 2, 3];
        let vs = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0];
        let (out, allocs) = run(&lower(COMPUTED), args(is.clone(), vs.clone()));
        assert_eq!(out, vec![Value::vector(vec![4.0f64, 12.0, 14.0, -1.0])]);
        assert_eq!(out, vec![reference(&is, &vs)]);
        // The destination's copy only: no staging blocks.
        assert_eq!(allocs, 1);
    }

    #[test]
    fn a_large_scatter_stages_its_writes_and_the_last_write_wins() {
        // Above the threshold whatever the map's cost: 2^20 iterations
        // writing 4 elements, many indices repeated or out of bounds.
        let n = 1i64 << 20;
        let is: Vec<i64> = (0..n).map(|i| (i * 7919) % 13 - 4).collect();
        let vs: Vec<f64> = (0..n).map(|i| i as f64).collect();
        let (out, allocs) = run(&lower(COMPUTED), args(is.clone(), vs.clone()));
        assert_eq!(out, vec![reference(&is, &vs)]);
        // The destination's copy and the staged indices and values.
        assert_eq!(allocs, 3);
        // The sequential lowering of the same writes agrees.
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
}
