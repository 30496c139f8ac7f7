//! Lowering tests on small core IR programs: results through the
//! imperative IR's interpreter, and what the memory rules promise
//! (allocations and copies counted by the interpreter).

use values::Value;

use super::interp::{Counters, run_function};
use super::print::print_program;

use crate::lower_text as lower;

fn run(p: &super::Program, args: Vec<Value>) -> (Vec<Value>, Counters) {
    let out = run_function(p, "main", args).unwrap_or_else(|e| panic!("{e}"));
    (out.values, out.counters)
}

fn matrix(r: usize, c: usize) -> Value {
    Value::array(vec![r, c], (0..r * c).map(|k| k as f64).collect()).unwrap()
}

const NESTED_MAP: &str = r"fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n][m]f64) {
  let yss: [n][m]f64 = screma(n, xss)
    map(\(xs: [m]f64) -> ([m]f64) {
      let ys: [m]f64 = screma(m, xs)
        map(\(x: f64) -> (f64) {
          let y: f64 = mul(x, 2.0f64)
          in (y)
        })
      in (ys)
    })
  in (yss)
}
";

#[test]
fn a_map_writes_its_rows_into_its_result_block() {
    let p = lower(NESTED_MAP);
    let (out, c) = run(
        &p,
        vec![Value::scalar(3i64), Value::scalar(4i64), matrix(3, 4)],
    );
    let want: Vec<f64> = (0..12).map(|k| 2.0 * k as f64).collect();
    assert_eq!(out, vec![Value::array(vec![3, 4], want).unwrap()]);
    // One block, for the result; every element written once, none copied.
    assert_eq!(
        (c.allocs, c.alloc_bytes, c.copied, c.writes),
        (1, 96, 0, 12),
        "{c}"
    );
    let text = print_program(&p);
    // The inner map is a parallel loop nested in the outer one.
    assert!(
        text.contains("par (i0#5 < n) {\n    par (i0#6 < m) {"),
        "{text}"
    );
}

const LOOP_UPDATE: &str = r"fun main(n: i64, xs: [n]f64) -> ([n]f64) {
  let ys: [n]f64 = copy(xs)
  let (zs: [n]f64) = loop (*acc: [n]f64 = ys) for i: i64 < n {
    let x: f64 = acc[i]
    let y: f64 = add(x, 1.0f64)
    let acc2: [n]f64 = acc with [i] = y
    in (acc2)
  }
  in (zs)
}
";

#[test]
fn loops_update_their_parameter_in_place() {
    let p = lower(LOOP_UPDATE);
    let xs = Value::vector(vec![1.0f64, 2.0, 3.0, 4.0, 5.0]);
    let (out, c) = run(&p, vec![Value::scalar(5i64), xs]);
    assert_eq!(out, vec![Value::vector(vec![2.0f64, 3.0, 4.0, 5.0, 6.0])]);
    // The copy is the only allocation and the only copy; the loop reuses
    // its block (no next buffer, no swap).
    assert_eq!((c.allocs, c.copied, c.writes), (1, 5, 5), "{c}");
    let text = print_program(&p);
    assert!(!text.contains("swap"), "{text}");
}

#[test]
fn loops_update_a_consumed_parameter_in_its_callers_block() {
    // `ys` arrives as a view (offset and strides known only at run time);
    // the loop consumes it and updates it where it is. The only block and
    // copy are the function's result, which leaves row-major from offset 0.
    let src = LOOP_UPDATE.replace(
        "xs: [n]f64) -> ([n]f64) {\n  let ys: [n]f64 = copy(xs)\n",
        "*ys: [n]f64) -> ([n]f64) {\n",
    );
    let p = lower(&src);
    let xs = Value::vector(vec![1.0f64, 2.0, 3.0]);
    let (out, c) = run(&p, vec![Value::scalar(3i64), xs]);
    assert_eq!(out, vec![Value::vector(vec![2.0f64, 3.0, 4.0])]);
    assert_eq!((c.allocs, c.copied, c.writes), (1, 3, 3), "{c}");
    assert!(!print_program(&p).contains("for (i < n) {\n    copy"));
}

const LOOP_MAP: &str = r"fun main(n: i64, k: i64, xs: [n]f64) -> ([n]f64) {
  let (zs: [n]f64) = loop (acc: [n]f64 = xs) for i: i64 < k {
    let ys: [n]f64 = screma(n, acc)
      map(\(x: f64) -> (f64) {
        let y: f64 = mul(x, 2.0f64)
        in (y)
      })
    in (ys)
  }
  in (zs)
}
";

#[test]
fn loops_building_new_arrays_double_buffer() {
    let p = lower(LOOP_MAP);
    let xs = Value::vector(vec![1.0f64, 2.0, 3.0]);
    let (out, c) = run(&p, vec![Value::scalar(3i64), Value::scalar(10i64), xs]);
    assert_eq!(out, vec![Value::vector(vec![1024.0f64, 2048.0, 3072.0])]);
    // The initial array is copied (it is not consumed), the map writes
    // into the next buffer, which swaps with the current one: two blocks
    // whatever the number of iterations.
    assert_eq!((c.allocs, c.copied), (2, 3), "{c}");
    assert!(print_program(&p).contains("swap acc_mem acc_next"));
}

const TRANSPOSE: &str = r"fun main(n: i64, m: i64, xss: [n][m]f64) -> (f64) {
  let yss: [m][n]f64 = rearrange((1, 0), xss)
  let row: [n]f64 = yss[1i64]
  let x: f64 = row[2i64]
  in (x)
}
";

#[test]
fn transposition_and_indexing_are_views() {
    let p = lower(TRANSPOSE);
    let (out, c) = run(
        &p,
        vec![Value::scalar(3i64), Value::scalar(4i64), matrix(3, 4)],
    );
    assert_eq!(out, vec![Value::scalar(9.0f64)]);
    assert_eq!((c.allocs, c.copied, c.reads), (0, 0, 1), "{c}");
}

#[test]
fn indexing_out_of_bounds_fails_with_futharks_message() {
    let p = lower(TRANSPOSE);
    let err = run_function(
        &p,
        "main",
        vec![Value::scalar(2i64), Value::scalar(1i64), matrix(2, 1)],
    )
    .unwrap_err();
    assert_eq!(
        err.message, "Index [1] out of bounds for array of shape [1].",
        "{err}"
    );
}

/// A scatter whose map only passes its inputs on.
pub(crate) const SCATTER: &str = r"fun main(n: i64, k: i64, xs: [n]f64, is: [k]i64, vs: [k]f64) -> ([n]f64) {
  let ys: [n]f64 = copy(xs)
  let zs: [n]f64 = scatter(k, is, vs)
    into(ys@1)
    map(\(i: i64, v: f64) -> (i64, f64) {
      in (i, v)
    })
  in (zs)
}
";

#[test]
fn scatter_writes_into_its_consumed_destination() {
    let p = lower(SCATTER);
    let args = vec![
        Value::scalar(4i64),
        Value::scalar(3i64),
        Value::vector(vec![0.0f64; 4]),
        Value::vector(vec![1i64, 7, 3]),
        Value::vector(vec![1.0f64, 2.0, 3.0]),
    ];
    let (out, c) = run(&p, args);
    assert_eq!(out, vec![Value::vector(vec![0.0f64, 1.0, 0.0, 3.0])]);
    assert_eq!((c.allocs, c.copied), (1, 4), "{c}");
}

#[test]
fn unexpanded_ad_is_an_error_naming_the_construct() {
    let src = r"fun main(x: f64, dx: f64) -> (f64, f64) {
  let (y: f64, dy: f64) = jvp(\(a: f64) -> (f64) {
    let b: f64 = mul(a, a)
    in (b)
  }, (x), (dx))
  in (y, dy)
}
";
    let prog = ir::parse::parse_program(src).unwrap();
    let err = super::lower_program(&prog).unwrap_err();
    assert!(err.message.contains("`jvp` or `vjp`"), "{err}");
    assert_eq!(err.function, "main");
}

const SUM_AND_PREFIXES: &str = r"fun main(n: i64, xs: [n]i64) -> (i64, [n]i64) {
  let (ps: [n]i64, s: i64) = screma(n, xs)
    scan(\(a: i64, b: i64) -> (i64) {
      let c: i64 = add(a, b)
      in (c)
    }, 0i64)
    reduce(\(a2: i64, b2: i64) -> (i64) {
      let c2: i64 = add(a2, b2)
      in (c2)
    }, 0i64)
    map(\(x: i64) -> (i64, i64) {
      let y: i64 = mul(x, x)
      in (x, y)
    })
  in (s, ps)
}
";

#[test]
fn scans_and_reductions_are_parallel_regions_with_partial_results() {
    let p = lower(SUM_AND_PREFIXES);
    let text = print_program(&p);
    // Two parallel loops over chunks (the chunks' partial results; the
    // prefixes applied) around the sequential combination of the partial
    // results.
    assert_eq!(text.matches("par chunks (").count(), 2, "{text}");
    assert!(!text.contains("planned"), "{text}");
    for n in [0usize, 1, 5, 64, 200] {
        let xs: Vec<i64> = (0..n as i64).map(|k| 3 * k - 7).collect();
        let (out, c) = run(&p, vec![Value::scalar(n as i64), Value::vector(xs.clone())]);
        let sum: i64 = xs.iter().map(|x| x * x).sum();
        let prefixes: Vec<i64> = xs
            .iter()
            .scan(0, |a, x| {
                *a += x;
                Some(*a)
            })
            .collect();
        assert_eq!(
            out,
            vec![Value::scalar(sum), Value::vector(prefixes)],
            "n = {n}"
        );
        // The result, and the partial results and prefixes of at most 64
        // chunks: one block each; and the empty block that the partial
        // results' handles point at once they are dead.
        assert_eq!(c.allocs, 5, "{c}");
    }
}

const HISTOGRAM: &str = r"fun main(n: i64, m: i64, *dest: [m]i64, is: [n]i64) -> ([m]i64) {
  let hs: [m]i64 = hist(n, is)
    into((dest), (0i64), \(a: i64, b: i64) -> (i64) {
      let c: i64 = add(a, b)
      in (c)
    })
    map(\(i: i64) -> (i64, i64) {
      let j: i64 = mod(i, 7i64)
      in (j, i)
    })
  in (hs)
}
";

#[test]
fn histograms_combine_per_chunk_histograms() {
    let p = lower(HISTOGRAM);
    let text = print_program(&p);
    assert!(!text.contains("planned"), "{text}");
    for n in [0usize, 3, 64, 200] {
        let is: Vec<i64> = (0..n as i64).map(|k| (k * 5) % 11 - 2).collect();
        let mut want = vec![100i64, 200, 300, 400, 500];
        for &i in &is {
            let j = i.rem_euclid(7);
            if j < 5 {
                want[j as usize] += i;
            }
        }
        let args = vec![
            Value::scalar(n as i64),
            Value::scalar(5i64),
            Value::vector(vec![100i64, 200, 300, 400, 500]),
            Value::vector(is),
        ];
        let (out, _) = run(&p, args);
        assert_eq!(out, vec![Value::vector(want)], "n = {n}");
    }
}

const DOT_ENTRY: &str = r#"entry "main" = main("[]f64": 2, "[]f64": 1) -> ("f64": 1)

fun main(n: i64, xs: [n]f64, ys: [n]f64) -> (f64) {
  let r: f64 = screma(n, xs, ys)
    reduce(\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\(x: f64, y: f64) -> (f64) {
      let z: f64 = mul(x, y)
      in (z)
    })
  in (r)
}
"#;

#[test]
fn entry_points_read_their_arrays_with_unit_strides() {
    // An entry point's function that nothing calls gets its arrays
    // row-major from offset 0: its loops index without the offset and
    // stride parameters, so the emitted Rust has constant unit strides.
    let p = lower(DOT_ENTRY);
    let text = print_program(&p);
    let body = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    for param in ["xs_off", "xs_s0", "ys_off", "ys_s0"] {
        assert!(!body(&text).contains(param), "{text}");
    }
    let xs = Value::array(vec![5], vec![1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
    let ys = Value::array(vec![5], vec![2.0; 5]).unwrap();
    let (out, _) = run(&p, vec![Value::scalar(5i64), xs.clone(), ys.clone()]);
    assert_eq!(out, vec![Value::scalar(30.0f64)]);
    // Not an entry point, or an entry point another function calls: the
    // views keep their parameters.
    let plain = lower(DOT_ENTRY.split_once("\n\n").unwrap().1);
    assert!(body(&print_program(&plain)).contains("xs_s0"));
    let called = format!(
        "{DOT_ENTRY}\nfun twice(n: i64, xs: [n]f64) -> (f64) {{\n  let r: f64 = apply main(n, xs, xs)\n  in (r)\n}}\n"
    );
    let p = lower(&called);
    let text = print_program(&p);
    let main_text = text.split("fun twice").next().unwrap_or_default();
    assert!(body(main_text).contains("xs_s0"), "{text}");
}

/// Per matrix of `xsss`, the sum of its rows: an array reduction by
/// `map2 (+)`, sequential inside the outer map.
const ROW_SUMS: &str = r"fun main(k: i64, n: i64, m: i64, xsss: [k][n][m]f64) -> ([k][m]f64) {
  let zeros: [m]f64 = replicate([m], 0.0f64)
  let sums: [k][m]f64 = screma(k, xsss)
    map(\(xss: [n][m]f64) -> ([m]f64) {
      let s: [m]f64 = screma(n, xss)
        reduce(\(a: [m]f64, b: [m]f64) -> ([m]f64) {
          let c: [m]f64 = screma(m, a, b)
            map(\(x: f64, y: f64) -> (f64) {
              let z: f64 = add(x, y)
              in (z)
            })
          in (c)
        }, zeros)
        map(\(xs: [m]f64) -> ([m]f64) {
          let ys: [m]f64 = screma(m, xs)
            map(\(e: f64) -> (f64) {
              let d: f64 = mul(e, 2.0f64)
              in (d)
            })
          in (ys)
        })
      in (s)
    })
  in (sums)
}
";

#[test]
fn elementwise_array_reductions_update_their_running_array_in_place() {
    let p = lower(ROW_SUMS);
    let (k, n, m) = (3usize, 5usize, 4usize);
    let xs: Vec<f64> = (0..k * n * m).map(|x| x as f64).collect();
    let arg = Value::array(vec![k, n, m], xs.clone()).unwrap();
    let (out, c) = run(
        &p,
        vec![
            Value::scalar(k as i64),
            Value::scalar(n as i64),
            Value::scalar(m as i64),
            arg,
        ],
    );
    let mut want = vec![0.0; k * m];
    for a in 0..k {
        for r in 0..n {
            for j in 0..m {
                want[a * m + j] += 2.0 * xs[(a * n + r) * m + j];
            }
        }
    }
    assert_eq!(out, vec![Value::array(vec![k, m], want).unwrap()]);
    // Each step adds the row into the running sums where they are: no
    // array is copied per step, only the neutral element into the running
    // array and the running array into the result, once per matrix.
    let text = print_program(&p);
    assert_eq!(c.copied, (2 * k * m) as u64, "{text}");
    assert!(text.contains("acc_mem[i#13] = z"), "{text}");
}
