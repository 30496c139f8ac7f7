//! Tests of allocations once per chunk of a parallel loop: which of a
//! parallel loop's allocations move to its chunk prologue, and the
//! results and allocation counts on the imperative IR's interpreter.

use values::Value;

use crate::interp::run_function;
use crate::print::print_program;
use crate::{Program, Stm};

use crate::lower_text as lower;

/// The handle names of the allocations in the chunk prologue of `p`'s
/// first parallel loop, and of those in the rest of its body.
fn par_allocs(p: &Program) -> (Vec<String>, Vec<String>) {
    let f = &p.functions[0];
    let Some(Stm::ParFor {
        body,
        chunk_prologue,
        ..
    }) = f.body.stms.iter().find(|s| matches!(s, Stm::ParFor { .. }))
    else {
        panic!("no parallel loop in\n{}", print_program(p));
    };
    let name = |s: &Stm| match s {
        Stm::Alloc { mem, .. } => Some(f.mems[mem.0 as usize].name.clone()),
        _ => None,
    };
    let (first, rest) = body.stms.split_at(*chunk_prologue);
    let mut nested = Vec::new();
    fn walk(stms: &[Stm], name: &dyn Fn(&Stm) -> Option<String>, out: &mut Vec<String>) {
        for s in stms {
            out.extend(name(s));
            match s {
                Stm::For { body, .. } | Stm::While { body, .. } => walk(&body.stms, name, out),
                Stm::If {
                    then_block,
                    else_block,
                    ..
                } => {
                    walk(&then_block.stms, name, out);
                    walk(&else_block.stms, name, out);
                }
                _ => {}
            }
        }
    }
    walk(rest, &name, &mut nested);
    (first.iter().filter_map(name).collect(), nested)
}

/// Each row `xs` of `xss` doubled into a temporary of the row's size, a
/// temporary of three elements, and one of `k` elements (a scalar
/// parameter, which may be negative), all summed (by sequential loops: a
/// parallel one nested in the map would allocate its partial results).
const TEMPORARIES: &str = r"fun main(n: i64, m: i64, k: i64, xss: [n][m]f64) -> ([n]f64) {
  let sums: [n]f64 = screma(n, xss)
    map(\(xs: [m]f64) -> (f64) {
      let ys: [m]f64 = screma(m, xs)
        map(\(x: f64) -> (f64) {
          let y: f64 = mul(x, 2.0f64)
          in (y)
        })
      #[sequential]
      let s: f64 = screma(m, ys)
        reduce(\(a: f64, b: f64) -> (f64) {
          let c: f64 = add(a, b)
          in (c)
        }, 0.0f64)
        map(\(w: f64) -> (f64) {
          in (w)
        })
      let e: f64 = xs[0i64]
      let t: [3]f64 = replicate([3], e)
      let t0: f64 = t[2i64]
      let u: [k]f64 = replicate([k], 1.0f64)
      #[sequential]
      let v: f64 = screma(k, u)
        reduce(\(a1: f64, b1: f64) -> (f64) {
          let c1: f64 = add(a1, b1)
          in (c1)
        }, 0.0f64)
        map(\(w1: f64) -> (f64) {
          in (w1)
        })
      let r0: f64 = add(s, t0)
      let r: f64 = add(r0, v)
      in (r)
    })
  in (sums)
}
";

fn temporaries_args(n: usize, m: usize, k: i64) -> (Vec<Value>, Vec<f64>) {
    let xs: Vec<f64> = (0..n * m).map(|j| (j % 7) as f64 - 2.0).collect();
    let want = xs
        .chunks(m)
        .map(|row| 2.0 * row.iter().sum::<f64>() + row[0] + k.max(0) as f64)
        .collect();
    let args = vec![
        Value::scalar(n as i64),
        Value::scalar(m as i64),
        Value::scalar(k),
        Value::array(vec![n, m], xs).unwrap(),
    ];
    (args, want)
}

#[test]
fn temporaries_of_invariant_size_are_allocated_per_chunk() {
    let p = lower(TEMPORARIES);
    let text = print_program(&p);
    let (prologue, body) = par_allocs(&p);
    // The row's size and a constant: once per chunk; `k` may be
    // negative (its allocation fails only when it runs): per iteration.
    assert_eq!(prologue, vec!["ys_mem", "t_mem"], "{text}");
    assert_eq!(body, vec!["u_mem"], "{text}");
    assert!(text.contains("per chunk {"), "{text}");
    for (n, m, k) in [(5usize, 4usize, 3i64), (1, 1, 0), (6, 2, 1)] {
        let (args, want) = temporaries_args(n, m, k);
        let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.values, vec![Value::vector(want)], "n = {n}");
        // The result, two blocks for the chunk (the interpreter runs one),
        // and `u` at every iteration.
        assert_eq!(out.counters.allocs, 1 + 2 + n as u64, "{}", out.counters);
    }
    // No iterations: the prologue does not run.
    let (args, _) = temporaries_args(0, 3, 2);
    let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.counters.allocs, 1, "{}", out.counters);
}

/// A temporary whose size depends on the iteration (an element of the
/// input).
const ITERATION_SIZED: &str = r"fun main(n: i64, xs: [n]i64) -> ([n]i64) {
  let sums: [n]i64 = screma(n, xs)
    map(\(x: i64) -> (i64) {
      let c: i64 = mod(x, 4i64)
      let is: [c]i64 = replicate([c], x)
      #[sequential]
      let s: i64 = screma(c, is)
        reduce(\(a: i64, b: i64) -> (i64) {
          let d: i64 = add(a, b)
          in (d)
        }, 0i64)
        map(\(w: i64) -> (i64) {
          in (w)
        })
      in (s)
    })
  in (sums)
}
";

#[test]
fn a_temporary_sized_by_the_iteration_stays_in_the_body() {
    let p = lower(ITERATION_SIZED);
    let text = print_program(&p);
    let (prologue, body) = par_allocs(&p);
    assert!(prologue.is_empty(), "{text}");
    assert_eq!(body, vec!["is_mem"], "{text}");
    assert!(!text.contains("per chunk"), "{text}");
    let xs = Value::vector(vec![3i64, 6, 0, 9]);
    let out =
        run_function(&p, "main", vec![Value::scalar(4i64), xs]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.values, vec![Value::vector(vec![9i64, 12, 0, 9])]);
}
