//! Parallel scatter: a `scatter` that `flatten` plans as parallel
//! ([`flatten::Plan::Scatter`]) is a parallel loop over its iterations,
//! each running the map body and writing its value straight into the
//! destination ([`Stm::AtomicUpdate`] whose operator ignores the element:
//! a relaxed atomic store, a plain store on common hardware); an
//! out-of-bounds index is ignored.
//!
//! A value may be a row: a destination of rank `r` addressed by `d < r`
//! indices gets a value of rank `r - d` (`scatter dest is rows` with `dest:
//! [n][m]t`, or two indices into `[n][p][m]t`). Its elements are written
//! one by one, by the same stores, in a sequential loop nest over the
//! row's shape (a row of length 0 writes nothing), after checking that the
//! row has the destination's row shape.
//!
//! Within a chunk the writes happen in iteration order. Two chunks writing
//! the same element race; Futhark allows repeated indices only when they
//! write the same value, so any winner gives the program's result. The
//! runtime runs a loop of little work as one chunk, in iteration order,
//! where each store is a plain write.

use ir::{CmpOp, PrimType, Scatter};

use super::{Lowerer, R, Val};
use crate::syntax::*;

impl<'p> Lowerer<'p> {
    /// Whether scatter `s` into `dests` fits the parallel loop: every
    /// destination addressed by at most as many `i64` indices as it has
    /// dimensions, and its values of its element type with the rank the
    /// indices leave (scalars for a full index, rows otherwise).
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
            if d.rank == 0
                || view.rank() < d.rank
                || !idx.iter().all(|t| scalar(t) && t.elem == PrimType::I64)
                || val[0].acc
                || val[0].shape.len() != view.rank() - d.rank
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
    /// the condition that indices address an element (or a row) of a
    /// destination. Requires [`Self::par_scatter_fits`].
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
            for (d, view) in s.dests.iter().zip(dests) {
                let mut idx = Vec::new();
                for _ in 0..d.rank {
                    let Some(Val::Scalar(e)) = res.next() else {
                        return l.fail("a scatter lambda with the wrong results");
                    };
                    idx.push(SExp::Var(l.assign_fresh("ix", PrimType::I64, e)));
                }
                let write = match res.next() {
                    Some(Val::Scalar(value)) if view.rank() == d.rank => {
                        let old = l.new_var("old", view.elem);
                        Block {
                            stms: vec![store(view, idx.clone(), old, value)],
                        }
                    }
                    Some(Val::Array(row)) if row.rank() == view.rank() - d.rank => {
                        l.nested(|l| {
                            l.store_row(&view.at(&idx), &row);
                            Ok(())
                        })?
                    }
                    _ => return l.fail("a scattered value that does not fit"),
                };
                l.push_when(in_bounds(view, &idx), write);
            }
            Ok(())
        })
    }

    /// Writes the elements of `row` into `dst` (a row of a scatter's
    /// destination, of the same rank) by stores, after checking that the
    /// shapes agree.
    fn store_row(&mut self, dst: &View, row: &View) {
        let same = dst.shape.iter().zip(&row.shape).fold(
            SExp::Const(ir::PrimValue::Bool(true)),
            |acc, (a, b)| {
                if a == b {
                    acc
                } else {
                    SExp::and(acc, SExp::cmp(CmpOp::Eq, a.clone(), b.clone()))
                }
            },
        );
        if same != SExp::Const(ir::PrimValue::Bool(true)) {
            let dims = vec!["{}"; row.rank()].join(", ");
            self.push(Stm::Assert {
                cond: same,
                msg: format!(
                    "Size mismatch: scattering a row of shape [{dims}] into rows of shape [{dims}]"
                ),
                args: row.shape.iter().chain(&dst.shape).cloned().collect(),
                span: self.span,
                check: Check::Always,
            });
        }
        let ids: Vec<SVar> = (0..row.rank())
            .map(|_| self.new_var("k", PrimType::I64))
            .collect();
        let idx: Vec<SExp> = ids.iter().map(|&v| SExp::Var(v)).collect();
        let elem = self.new_var("elem", row.elem);
        let old = self.new_var("old", dst.elem);
        let mut body = vec![
            Stm::Read {
                var: elem,
                view: row.clone(),
                idx: idx.clone(),
            },
            store(dst, idx, old, SExp::Var(elem)),
        ];
        for (k, &i) in ids.iter().enumerate().rev() {
            body = vec![Stm::For {
                i,
                bound: row.shape[k].clone(),
                body: Block { stms: body },
            }];
        }
        self.stms.extend(body);
    }
}

/// The store of `value` at `idx` of `view` from a parallel loop: an atomic
/// update whose operator ignores the old element (bound to `old`).
fn store(view: &View, idx: Vec<SExp>, old: SVar, value: SExp) -> Stm {
    Stm::AtomicUpdate {
        view: view.clone(),
        idx,
        old,
        body: Block { stms: Vec::new() },
        new: value,
    }
}

#[cfg(test)]
mod tests {
    //! A planned scatter lowers to a parallel loop writing in place, of
    //! scalars and of rows; the results match the sequential lowering's
    //! and a reference computed here, repeated and out-of-bounds indices
    //! included.

    use values::Value;

    use crate::interp::run_function;
    use crate::print::print_program;

    use crate::lower_text as lower;

    /// The results and the number of blocks allocated.
    fn run(p: &crate::Program, args: Vec<Value>) -> (Vec<Value>, u64) {
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
    const PASSED: &str = crate::tests::SCATTER;

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

    /// Rows passed on unchanged into a `[n][m]` destination: planned as
    /// parallel although the map computes nothing.
    const ROWS: &str = r"fun main(n: i64, m: i64, k: i64, d: [n][m]i64, is: [k]i64, rs: [k][m]i64) -> ([n][m]i64) {
  let ys: [n][m]i64 = copy(d)
  let zs: [n][m]i64 = scatter(k, is, rs)
    into(ys@1)
    map(\(i: i64, row: [m]i64) -> (i64, [m]i64) {
      in (i, row)
    })
  in (zs)
}
";

    /// Rows of `[n][n][m]`, each addressed by two indices, the second
    /// computed.
    const ROWS_2D: &str = r"fun main(n: i64, m: i64, k: i64, d: [n][n][m]i64, is: [k]i64, rs: [k][m]i64) -> ([n][n][m]i64) {
  let ys: [n][n][m]i64 = copy(d)
  let zs: [n][n][m]i64 = scatter(k, is, rs)
    into(ys@2)
    map(\(i: i64, row: [m]i64) -> (i64, i64, [m]i64) {
      let j: i64 = sub(i, 1i64)
      in (i, j, row)
    })
  in (zs)
}
";

    /// The arguments of `ROWS` (`ROWS_2D` with `dims = 3`): a destination
    /// of `n` rows (`n * n` for `dims = 3`) of `m` elements, all `-1`, and
    /// the row of index `i` `[100 i, 100 i + 1, …]` (so repeated indices
    /// carry equal rows, the only repetition Futhark allows).
    fn row_args(dims: usize, n: i64, m: i64, is: &[i64]) -> Vec<Value> {
        let k = is.len();
        let rows = if dims == 3 { n * n } else { n };
        let mut shape = vec![n as usize; dims - 1];
        shape.push(m as usize);
        let d = vec![-1i64; (rows * m) as usize];
        let rs: Vec<i64> = is
            .iter()
            .flat_map(|&i| (0..m).map(move |c| i.wrapping_mul(100).wrapping_add(c)))
            .collect();
        let arr = |shape: Vec<usize>, xs: Vec<i64>| {
            Value::array(shape, xs).unwrap_or_else(|e| panic!("{e:?}"))
        };
        vec![
            Value::scalar(n),
            Value::scalar(m),
            Value::scalar(k as i64),
            arr(shape, d),
            Value::vector(is.to_vec()),
            arr(vec![k, m as usize], rs),
        ]
    }

    /// What `ROWS` (`ROWS_2D` for `dims = 3`) gives, computed by writing
    /// in order: the elements of the result, row-major.
    fn rows_reference(dims: usize, n: i64, m: i64, is: &[i64]) -> Vec<i64> {
        let rows = if dims == 3 { n * n } else { n };
        let mut out = vec![-1i64; (rows * m) as usize];
        for &i in is {
            let row = if dims == 3 {
                let j = i - 1;
                ((0..n).contains(&i) && (0..n).contains(&j)).then_some(i * n + j)
            } else {
                (0..n).contains(&i).then_some(i)
            };
            if let Some(row) = row {
                for c in 0..m {
                    out[(row * m + c) as usize] = 100 * i + c;
                }
            }
        }
        out
    }

    /// The elements of the one result of a run.
    fn elems(out: &[Value]) -> Vec<i64> {
        out[0]
            .as_slice::<i64>()
            .unwrap_or_else(|| panic!("{out:?}"))
            .to_vec()
    }

    #[test]
    fn rows_are_stored_element_by_element_from_a_parallel_loop() {
        for src in [ROWS, ROWS_2D] {
            let text = print_program(&lower(src));
            let par = text.find("par (").unwrap_or_else(|| panic!("{text}"));
            let inner = text[par..]
                .find("for (")
                .unwrap_or_else(|| panic!("{text}"));
            let write = text[par..]
                .find("atomic ")
                .unwrap_or_else(|| panic!("{text}"));
            // The stores are in a loop over the row, under the bounds test.
            assert!(text[par..par + inner].contains("if ("), "{text}");
            assert!(inner < write, "{text}");
            // No copy of a row: the copy is the destination's.
            assert!(!text[par..].contains("copy "), "{text}");
            assert!(!text.contains("planned scatter"), "{text}");
        }
    }

    #[test]
    fn scattered_rows_skip_out_of_bounds_indices_and_allocate_nothing() {
        // Rows 3 and 0 are written twice (with equal rows), row 2 never.
        let is = [3, -1, 0, 4, 3, 7, 0, 1, i64::MIN, i64::MAX];
        let (out, allocs) = run(&lower(ROWS), row_args(2, 4, 3, &is));
        let expected = vec![0, 1, 2, 100, 101, 102, -1, -1, -1, 300, 301, 302];
        assert_eq!(elems(&out), expected);
        assert_eq!(rows_reference(2, 4, 3, &is), expected);
        // The destination's copy only.
        assert_eq!(allocs, 1);
    }

    #[test]
    fn scattered_rows_agree_with_the_sequential_lowering() {
        // Indices from -30 to 229, many repeated: the result does not
        // depend on the order of the iterations.
        let is: Vec<i64> = (0..2000).map(|i| (i * 37) % 260 - 30).collect();
        for (src, dims, n, m) in [(ROWS, 2, 200, 5), (ROWS_2D, 3, 15, 4)] {
            let (out, _) = run(&lower(src), row_args(dims, n, m, &is));
            assert_eq!(elems(&out), rows_reference(dims, n, m, &is));
            let seq = src.replace("  let zs:", "  #[sequential]\n  let zs:");
            let text = print_program(&lower(&seq));
            assert!(!text.contains("par ("), "{text}");
            let (seq_out, _) = run(&lower(&seq), row_args(dims, n, m, &is));
            assert_eq!(out, seq_out);
        }
    }

    #[test]
    fn edge_cases_of_scattered_rows() {
        // No iterations; every index out of bounds; rows of length 0.
        for (n, m, is) in [
            (4, 3, vec![]),
            (4, 3, vec![-1, 4, 9, -9]),
            (4, 0, vec![0, 1, 2]),
            (0, 3, vec![0, 1]),
        ] {
            let (out, _) = run(&lower(ROWS), row_args(2, n, m, &is));
            assert_eq!(elems(&out), rows_reference(2, n, m, &is), "{n} {m} {is:?}");
            assert_eq!(elems(&out), vec![-1; (n * m) as usize]);
            let (out, _) = run(&lower(ROWS_2D), row_args(3, n, m, &is));
            assert_eq!(elems(&out), vec![-1; (n * n * m) as usize]);
        }
    }

    /// Rows whose size `p` the destination's `m` need not equal.
    const ROWS_SIZED: &str = r"fun main(n: i64, m: i64, k: i64, p: i64, d: [n][m]i64, is: [k]i64, rs: [k][p]i64) -> ([n][m]i64) {
  let ys: [n][m]i64 = copy(d)
  let zs: [n][m]i64 = scatter(k, is, rs)
    into(ys@1)
    map(\(i: i64, row: [p]i64) -> (i64, [p]i64) {
      in (i, row)
    })
  in (zs)
}
";

    #[test]
    fn a_row_of_another_shape_fails_as_in_the_sequential_loop() {
        let args = |p: i64, is: Vec<i64>| {
            let k = is.len();
            let mut a = row_args(2, 3, 2, &is);
            a.insert(3, Value::scalar(p));
            a[6] = Value::array(vec![k, p as usize], vec![7i64; k * p as usize])
                .unwrap_or_else(|e| panic!("{e:?}"));
            a
        };
        let par = lower(ROWS_SIZED);
        let seq = lower(&ROWS_SIZED.replace("  let zs:", "  #[sequential]\n  let zs:"));
        // Equal sizes: both write the rows.
        let ok = run(&par, args(2, vec![1, 5])).0;
        assert_eq!(elems(&ok), vec![-1, -1, 7, 7, -1, -1]);
        assert_eq!(ok, run(&seq, args(2, vec![1, 5])).0);
        // A row of 3 into rows of 2 fails on both, with the shapes;
        // out of bounds, it is not written and nothing fails.
        for p in [&par, &seq] {
            let err = run_function(p, "main", args(3, vec![1]))
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(err.contains("Size mismatch"), "{err}");
            assert!(run_function(p, "main", args(3, vec![-1, 3])).is_ok());
        }
        let text = print_program(&par);
        assert!(text.contains("assert eq(m, p)"), "{text}");
    }
}
