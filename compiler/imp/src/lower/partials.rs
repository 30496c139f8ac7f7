//! Sequential reductions with several partial results.
//!
//! A reduction run as a sequential loop is one chain of dependent
//! operations: every addition waits for the previous one, and the Rust
//! compiler may not reorder float arithmetic, so the loop neither overlaps
//! nor vectorises its operations. When each operator is a single builtin
//! commutative and associative operation on scalars (`+`, `*`, `min`,
//! `max`, and the bitwise operations), the loop is lowered with
//! [`PARTIALS`] independent running values instead: each step runs
//! [`PARTIALS`] consecutive iterations, iteration `i` updating partial
//! `i mod PARTIALS`; a tail loop runs the remaining iterations into the
//! first partial, and the partials are then combined in order. The first
//! partial starts from the reduction's neutral element, the others from
//! the operator's identity, so a neutral element that is not one gives
//! the same result as the plain loop (up to reassociation).

use ir::{BinOp, Exp, Lambda, Operand, PrimType, PrimValue, Screma};

use super::soacs::State;
use super::{Lowerer, R, Val};
use crate::syntax::*;

/// The number of independent partial results of a reduction loop.
pub const PARTIALS: i64 = 4;

/// The most statements (nested ones counted) a map body may have for its
/// reduction loop to get partial results: each step repeats the body
/// [`PARTIALS`] times.
pub const SMALL_BODY: usize = 32;

/// The number of statements of `b`, those of nested bodies included.
fn body_size(b: &ir::Body) -> usize {
    b.stms
        .iter()
        .map(|s| {
            1 + ir::uses::nested_bodies(&s.exp)
                .into_iter()
                .map(|(_, nb)| body_size(nb))
                .sum::<usize>()
        })
        .sum()
}

/// The identity of the builtin operation `op` on `t`, when `op` is
/// commutative and associative on `t`.
fn identity(op: BinOp, t: PrimType) -> Option<PrimValue> {
    if t == PrimType::Bool {
        return match op {
            BinOp::And => Some(PrimValue::Bool(true)),
            BinOp::Or | BinOp::Xor => Some(PrimValue::Bool(false)),
            _ => None,
        };
    }
    if t.is_float() {
        // `f16` constants are left out: the plain loop serves them.
        if !matches!(t, PrimType::F32 | PrimType::F64) {
            return None;
        }
        let x = match op {
            // -0 + x is x for every x, 0 included.
            BinOp::Add => -0.0,
            BinOp::Mul => 1.0,
            BinOp::Min => f64::INFINITY,
            BinOp::Max => f64::NEG_INFINITY,
            _ => return None,
        };
        return PrimValue::float_of_type(t, x);
    }
    let (lo, hi) = t.integer_range()?;
    let x = match op {
        BinOp::Add | BinOp::Or | BinOp::Xor => 0,
        BinOp::Mul => 1,
        BinOp::Min => hi,
        BinOp::Max => lo,
        BinOp::And if t.is_signed_integer() => -1,
        BinOp::And => hi,
        _ => return None,
    };
    PrimValue::int_of_type(t, x)
}

/// The identity of operator `op` when it is exactly one builtin
/// commutative operation of its two scalar parameters, returned as its
/// result: `\x y -> x + y` and the like.
pub fn commutative_identity(op: &Lambda) -> Option<PrimValue> {
    let ([x, y], [stm], [Operand::Var(res)], [t]) = (
        op.params.as_slice(),
        op.body.stms.as_slice(),
        op.body.result.as_slice(),
        op.ret.as_slice(),
    ) else {
        return None;
    };
    if !t.is_scalar() || t.acc || stm.pat.as_slice() != [*res] {
        return None;
    }
    let Exp::BinOp(bop, Operand::Var(a), Operand::Var(b)) = &stm.exp else {
        return None;
    };
    let ordered = (*a, *b) == (x.var, y.var) || (*a, *b) == (y.var, x.var);
    if !ordered || x.var == y.var {
        return None;
    }
    identity(*bop, t.elem)
}

/// Per reduction component, the identity of its operator, when `s` is a
/// reduction without scans whose operators all get partial results and
/// whose map body is small and straight-line: a body with a branch or a
/// loop inside (GMM's `if c < r`) is not limited by the chain of
/// operations, and measured slower with partial results.
pub fn partial_identities(s: &Screma) -> Option<Vec<PrimValue>> {
    let size = body_size(&s.map.body);
    let straight = size == s.map.body.stms.len();
    if !s.scans.is_empty() || s.reduces.is_empty() || size > SMALL_BODY || !straight {
        return None;
    }
    s.reduces
        .iter()
        .map(|r| commutative_identity(&r.op))
        .collect()
}

/// Whether a reduction loop of `n` iterations is long enough for partial
/// results: not when `n` is a constant below `2 * PARTIALS` (Hand's 3 by 3
/// matrix products), where the extra partials, the main loop's single step
/// and the combination cost more than the chain they split.
pub fn long_enough(n: &SExp) -> bool {
    !matches!(n, SExp::Const(PrimValue::I64(k)) if *k < 2 * PARTIALS)
}

impl<'p> Lowerer<'p> {
    /// Whether `v` steps by one element from row to row: a unit stride,
    /// constant or the innermost stride of an entry point's array
    /// parameter (entry points get their arrays row-major).
    fn unit_stride(&self, v: &View) -> bool {
        let Some(s) = v.strides.first() else {
            return false;
        };
        if s.as_i64() == Some(1) {
            return true;
        }
        let entry = self
            .prog
            .entries
            .iter()
            .any(|e| std::ptr::eq(&self.prog.functions[e.fun], self.f));
        entry
            && self.f.params.iter().any(|p| match self.lookup(p.var) {
                Ok(Val::Array(pv)) => pv.strides.last() == Some(s),
                _ => false,
            })
    }

    /// Whether a sequential reduction loop over `inputs` (`index[k]`: input
    /// `k` is the loop's index, [`super::iota_index`]) reads them
    /// contiguously: each an index or a one-dimensional array with a unit
    /// stride. Partial results pay there (a dot product, a matrix product's
    /// rows after the layout pass); a loop reading with a stride (Hand's
    /// `t[r, c]` over the bones, 16 elements apart) keeps the single chain:
    /// its interleaved copies need an offset per partial and stride, which
    /// LLVM keeps on the stack, and four times the range checks.
    pub(super) fn reads_contiguously(&self, inputs: &[Val<'p>], index: &[bool]) -> bool {
        inputs.iter().enumerate().all(|(k, x)| match x {
            _ if index.get(k) == Some(&true) => true,
            Val::Array(v) => v.rank() == 1 && self.unit_stride(v),
            _ => true,
        })
    }

    /// `for i in 0..n { body(i, state) }` for reductions whose operators
    /// `s.reduces` have the identities `ids` ([`partial_identities`]), with
    /// [`PARTIALS`] partial results: `state` is the first, initialised
    /// already; `body` gets each iteration's index and the partials it
    /// updates. The combined result ends in `state`.
    pub(super) fn partials_loop(
        &mut self,
        n: SExp,
        s: &'p Screma,
        ids: &[PrimValue],
        state: &[Vec<State>],
        body: impl Fn(&mut Self, &SExp, &[Vec<State>]) -> R<()>,
    ) -> R<()> {
        use SExp as E;
        let k = PARTIALS;
        let mut partials: Vec<Vec<Vec<State>>> = vec![state.to_vec()];
        for _ in 1..k {
            let mut one = Vec::new();
            for (comps, id) in state.iter().zip(ids) {
                let mut c = Vec::new();
                for st in comps {
                    let State::Scalar(v) = st else {
                        return self.fail("partial results of an array-valued reduction");
                    };
                    let t = self.var_elem(*v);
                    c.push(State::Scalar(self.assign_fresh("part", t, E::Const(*id))));
                }
                one.push(c);
            }
            partials.push(one);
        }
        let steps = self.assign_fresh(
            "steps",
            PrimType::I64,
            E::BinOp(BinOp::Div, Box::new(n.clone()), Box::new(E::i64(k))),
        );
        let done = self.assign_fresh("done", PrimType::I64, E::times(E::Var(steps), E::i64(k)));
        self.seq_loop(E::Var(steps), |l, j| {
            let base = l.assign_fresh("base", PrimType::I64, E::times(j.clone(), E::i64(k)));
            for (off, part) in partials.iter().enumerate() {
                let i = l.assign_fresh(
                    "i",
                    PrimType::I64,
                    E::plus(E::Var(base), E::i64(off as i64)),
                );
                body(l, &E::Var(i), part)?;
            }
            Ok(())
        })?;
        let rest = E::minus(n, E::Var(done));
        self.seq_loop(rest, |l, t| {
            let i = l.assign_fresh("i", PrimType::I64, E::plus(E::Var(done), t.clone()));
            body(l, &E::Var(i), state)
        })?;
        for part in &partials[1..] {
            for ((r, st), p) in s.reduces.iter().zip(state).zip(part) {
                let vals: Vec<Val<'p>> = p
                    .iter()
                    .map(|x| match x {
                        State::Scalar(v) => Val::Scalar(E::Var(*v)),
                        State::Array(a) => Val::Array(a.clone()),
                    })
                    .collect();
                self.combine(&r.op, st, &vals)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use values::Value;

    use crate::interp::run_function;
    use crate::print::print_program;

    /// Row sums of an `n` by `m` matrix with the reduction operator `op`
    /// (a lambda of `a: f64` and `b: f64`): each row's reduction is a
    /// sequential loop inside the parallel map (marked so: otherwise it
    /// would also be a parallel reduction nested in the map).
    fn row_reduce(op: &str) -> String {
        row_reduce_map(op, "let y: f64 = mul(x, 2.0f64)\n          in (y)")
    }

    /// [`row_reduce`] with the map body `map` (of `x: f64`, returning
    /// twice `x` for the test's values). `main` is an entry point, so its
    /// rows are contiguous.
    fn row_reduce_map(op: &str, map: &str) -> String {
        let entry = r#"entry "main" = main("i64": 1, "i64": 1, "[][]f64": 1) -> ("[]f64": 1)"#;
        format!(
            r"{entry}
fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n]f64) {{
  let sums: [n]f64 = screma(n, xss)
    map(\(xs: [m]f64) -> (f64) {{
      #[sequential]
      let s: f64 = screma(m, xs)
        reduce(\(a: f64, b: f64) -> (f64) {{
          {op}
        }}, 0.0f64)
        map(\(x: f64) -> (f64) {{
          {map}
        }})
      in (s)
    }})
  in (sums)
}}
"
        )
    }

    use crate::lower_text as lower;

    /// Runs `p` on a 2 by `m` matrix of small integers and returns the
    /// result with the expected row results of `f` folded from zero.
    fn check(p: &crate::Program, m: usize, f: impl Fn(f64, f64) -> f64) {
        let vals: Vec<f64> = (0..2 * m).map(|k| ((k * 7) % 11) as f64 - 5.0).collect();
        let xss = Value::array(vec![2, m], vals.clone()).unwrap();
        let args = vec![Value::scalar(2i64), Value::scalar(m as i64), xss];
        let out = run_function(p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        let want: Vec<f64> = vals
            .chunks(m.max(1))
            .take(2)
            .map(|row| row.iter().fold(0.0, |a, x| f(a, 2.0 * x)))
            .chain(std::iter::repeat(0.0))
            .take(2)
            .collect();
        assert_eq!(out.values, vec![Value::vector(want)], "m = {m}");
    }

    #[test]
    fn a_float_sum_gets_partials_and_a_tail() {
        let p = lower(&row_reduce("let c: f64 = add(a, b)\n          in (c)"));
        let text = print_program(&p);
        // Three partials besides the running value, from the identity -0.
        assert_eq!(text.matches("= -0.0f64").count(), 3, "{text}");
        assert!(text.contains("steps = div(m, 4i64)"), "{text}");
        assert!(text.contains("(base + 3i64)"), "{text}");
        assert!(text.contains("sub(m, done)"), "{text}");
        for m in [0, 1, 3, 4, 5, 9, 100] {
            check(&p, m, |a, x| a + x);
        }
    }

    #[test]
    fn operands_in_either_order_and_max_get_partials() {
        let p = lower(&row_reduce("let c: f64 = max(b, a)\n          in (c)"));
        let text = print_program(&p);
        assert_eq!(text.matches("= -f64.inf").count(), 3, "{text}");
        assert!(text.contains("steps = div(m, 4i64)"), "{text}");
        for m in [0, 1, 4, 7] {
            check(&p, m, f64::max);
        }
    }

    #[test]
    fn a_short_constant_reduction_keeps_a_single_chain() {
        // Rows of 3 (a constant size): partials cost more than they save.
        let src = row_reduce("let c: f64 = add(a, b)\n          in (c)")
            .replace(r#""i64": 1, "i64": 1,"#, r#""i64": 1,"#)
            .replace("m: i64, xss: [n][m]f64", "xss: [n][3]f64")
            .replace("[m]", "[3]")
            .replace("screma(m,", "screma(3i64,");
        let p = lower(&src);
        let text = print_program(&p);
        assert!(!text.contains("steps"), "{text}");
        assert!(!text.contains("part"), "{text}");
        use crate::SExp;
        assert!(super::long_enough(&SExp::i64(8)) && !super::long_enough(&SExp::i64(7)));
    }

    #[test]
    fn strided_reads_keep_a_single_chain() {
        // Without the entry point, the rows' stride is a parameter that
        // may be anything: no partials.
        let src = row_reduce("let c: f64 = add(a, b)\n          in (c)");
        let plain = src.lines().skip(1).collect::<Vec<_>>().join("\n");
        let p = lower(&plain);
        let text = print_program(&p);
        assert!(!text.contains("steps"), "{text}");
        // Column sums read 16 elements apart (`t[r, c]` of Hand's blend):
        // a single chain too.
        let cols = row_reduce("let c: f64 = add(a, b)\n          in (c)")
            .replace("screma(n, xss)", "screma(n, xss_t)");
        let cols = cols.replacen(
            "  let sums",
            "  let xss_t: [n][m]f64 = rearrange((1, 0), xss)\n  let sums",
            1,
        );
        let cols = cols
            .replace("m: i64, xss: [n][m]f64", "m: i64, xss: [m][n]f64")
            .replace("fun main(n: i64, m: i64", "fun main(m: i64, n: i64");
        let p = lower(&cols);
        let text = print_program(&p);
        assert!(!text.contains("steps"), "{text}");
        let vals: Vec<f64> = (0..12).map(|k| k as f64).collect();
        let xss = Value::array(vec![4, 3], vals).unwrap();
        let args = vec![Value::scalar(4i64), Value::scalar(3i64), xss];
        let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        // Column j of the 4 by 3 matrix, doubled: 2 * (j + (j+3) + (j+6) + (j+9)).
        let want = vec![36.0, 44.0, 52.0];
        assert_eq!(out.values, vec![Value::vector(want)]);
    }

    #[test]
    fn a_general_lambda_keeps_a_single_chain() {
        let op = "let c: f64 = add(a, b)\n          let d: f64 = mul(c, 1.0f64)\n          in (d)";
        let p = lower(&row_reduce(op));
        let text = print_program(&p);
        assert!(!text.contains("steps"), "{text}");
        assert!(!text.contains("part"), "{text}");
        for m in [0, 1, 5] {
            check(&p, m, |a, x| a + x);
        }
        // Subtraction is no commutative builtin: a single chain too.
        let p = lower(&row_reduce("let c: f64 = sub(a, b)\n          in (c)"));
        assert!(!print_program(&p).contains("steps"));
    }

    #[test]
    fn a_map_body_with_a_branch_keeps_a_single_chain() {
        let map = "let k: bool = gt(x, -100.0f64)
          let y: f64 = if k then {
            let z: f64 = mul(x, 2.0f64)
            in (z)
          } else {
            in (0.0f64)
          }
          in (y)";
        let p = lower(&row_reduce_map(
            "let c: f64 = add(a, b)\n          in (c)",
            map,
        ));
        let text = print_program(&p);
        assert!(!text.contains("steps"), "{text}");
        for m in [0, 1, 5] {
            check(&p, m, |a, x| a + x);
        }
    }
}
