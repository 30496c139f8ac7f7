//! The layout pass on IR text: where it copies, where it does not, and that
//! the results (run on the IR interpreter) stay the same.

use super::*;
use values::Value;

/// Runs the pass with `rule`, checks the output verifies and computes what
/// the input computes on `args`, and returns the printed output.
fn run(src: &str, rule: Rule, args: Vec<Value>) -> String {
    let prog = ir::parse::parse_program(src).unwrap();
    ir::verify::verify(&prog).unwrap();
    let out = layout_with(prog.clone(), rule);
    if let Err(e) = ir::verify::verify(&out) {
        panic!("{e:?}\n{}", ir::print::print_program(&out));
    }
    let before = ir::interp::run_function(&prog, "main", args.clone()).unwrap();
    let after = ir::interp::run_function(&out, "main", args).unwrap();
    assert_eq!(before.values, after.values);
    ir::print::print_program(&out)
}

/// Whether `out` holds `a`, and `b` after it.
fn before(out: &str, a: &str, b: &str) -> bool {
    match (out.find(a), out.find(b)) {
        (Some(i), Some(j)) => i < j,
        _ => false,
    }
}

fn matrix(rows: usize, cols: usize, seed: f64) -> Value {
    let elems: Vec<f64> = (0..rows * cols)
        .map(|k| (k as f64 * 0.37 + seed).sin())
        .collect();
    Value::array(vec![rows, cols], elems).unwrap()
}

fn i64s(xs: &[i64]) -> Vec<Value> {
    xs.iter().map(|&x| Value::scalar(x)).collect()
}

/// `map (\a -> map (\b -> sum (map2 (*) a b)) (transpose B)) A`.
const MATMUL: &str = "fun main(n: i64, m: i64, p: i64, a: [n][m]f64, b: [m][p]f64) -> ([n][p]f64) {
  let bt: [p][m]f64 = rearrange((1, 0), b)
  let c: [n][p]f64 = screma(n, a)
    map(\\(row: [m]f64) -> ([p]f64) {
      let crow: [p]f64 = screma(p, bt)
        map(\\(col: [m]f64) -> (f64) {
          let s: f64 = screma(m, row, col)
            reduce(\\(x: f64, y: f64) -> (f64) {
              let z: f64 = add(x, y)
              in (z)
            }, 0.0f64)
            map(\\(u: f64, v: f64) -> (f64) {
              let w: f64 = mul(u, v)
              in (w)
            })
          in (s)
        })
      in (crow)
    })
  in (c)
}
";

fn matmul_args() -> Vec<Value> {
    let mut args = i64s(&[3, 4, 5]);
    args.push(matrix(3, 4, 0.1));
    args.push(matrix(4, 5, 0.7));
    args
}

#[test]
fn matrix_multiplication_reads_a_row_major_copy_of_the_transpose() {
    let out = run(MATMUL, Rule::Amortised, matmul_args());
    // The copy: a map nest over the transpose's index space, before the
    // product, reading each element of `bt` once.
    assert!(
        before(
            &out,
            "  let bt_rowmajor: [p][m]f64 = screma(p)\n",
            "  let c: [n][p]f64 = screma(n, a)"
        ),
        "{out}"
    );
    assert!(
        out.contains("let bt_rowmajor_elem: f64 = bt[i, i_1]"),
        "{out}"
    );
    assert!(out.contains("screma(p, bt_rowmajor)"), "{out}");
    assert!(!out.contains("screma(p, bt)"), "{out}");
}

#[test]
fn an_array_read_once_is_not_copied() {
    // `map f64.sum (transpose B)`: each column is read by one iteration.
    let src = "fun main(m: i64, p: i64, b: [m][p]f64) -> ([p]f64) {
  let bt: [p][m]f64 = rearrange((1, 0), b)
  let sums: [p]f64 = screma(p, bt)
    map(\\(col: [m]f64) -> (f64) {
      let s: f64 = screma(m, col)
        reduce(\\(x: f64, y: f64) -> (f64) {
          let z: f64 = add(x, y)
          in (z)
        }, 0.0f64)
        map(\\(u: f64) -> (f64) {
          in (u)
        })
      in (s)
    })
  in (sums)
}
";
    let mut args = i64s(&[4, 5]);
    args.push(matrix(4, 5, 0.2));
    let out = run(src, Rule::Amortised, args.clone());
    assert!(!out.contains("bt_rowmajor"), "{out}");
    // Without the amortisation condition it is copied.
    let out = run(src, Rule::Always, args);
    assert!(
        out.contains("let bt_rowmajor: [p][m]f64 = screma(p)"),
        "{out}"
    );
    assert!(out.contains("screma(p, bt_rowmajor)"), "{out}");
}

#[test]
fn rows_already_contiguous_are_not_copied() {
    // The same product with `B` given transposed already: its rows are read
    // along their contiguous dimension.
    let src = MATMUL
        .replace(
            "let bt: [p][m]f64 = rearrange((1, 0), b)",
            "let bt: [p][m]f64 = copy(b)",
        )
        .replace("b: [m][p]f64", "b: [p][m]f64");
    let mut args = i64s(&[3, 4, 5]);
    args.push(matrix(3, 4, 0.1));
    args.push(matrix(5, 4, 0.7));
    let out = run(&src, Rule::Always, args);
    assert!(!out.contains("_rowmajor"), "{out}");
    assert!(out.contains("screma(p, bt)"), "{out}");
}

#[test]
fn a_double_transpose_is_contiguous() {
    let src = MATMUL.replace(
        "let bt: [p][m]f64 = rearrange((1, 0), b)",
        "let b1: [m][p]f64 = rearrange((1, 0), b)\n  let bt: [p][m]f64 = rearrange((1, 0), b1)",
    );
    let src = src.replace("b: [m][p]f64", "b: [p][m]f64");
    let mut args = i64s(&[3, 4, 5]);
    args.push(matrix(3, 4, 0.1));
    args.push(matrix(5, 4, 0.7));
    let out = run(&src, Rule::Always, args);
    assert!(!out.contains("_rowmajor"), "{out}");
}

/// The product with indices: `B[k, j]` walks the rows of `B` in the
/// innermost loop.
const MATMUL_INDEXED: &str =
    "fun main(n: i64, m: i64, p: i64, a: [n][m]f64, b: [m][p]f64) -> ([n][p]f64) {
  let c: [n][p]f64 = screma(n)
    map(\\(i: i64) -> ([p]f64) {
      let crow: [p]f64 = screma(p)
        map(\\(j: i64) -> (f64) {
          let s: f64 = screma(m)
            reduce(\\(x: f64, y: f64) -> (f64) {
              let z: f64 = add(x, y)
              in (z)
            }, 0.0f64)
            map(\\(k: i64) -> (f64) {
              let u: f64 = a[i, k]
              let v: f64 = b[k, j]
              let w: f64 = mul(u, v)
              in (w)
            })
          in (s)
        })
      in (crow)
    })
  in (c)
}
";

#[test]
fn an_index_across_rows_reads_a_transposed_copy() {
    let out = run(MATMUL_INDEXED, Rule::Amortised, matmul_args());
    assert!(
        before(
            &out,
            "  let b_tr: [p][m]f64 = screma(p)\n",
            "  let c: [n][p]f64 = screma(n)"
        ),
        "{out}"
    );
    assert!(out.contains("let v: f64 = b_tr[j, k]"), "{out}");
    // `a[i, k]` walks the rows of `a`: contiguous, left alone.
    assert!(out.contains("let u: f64 = a[i, k]"), "{out}");
}

#[test]
fn column_sums_read_each_element_once() {
    let src = "fun main(n: i64, m: i64, xss: [n][m]f64) -> ([m]f64) {
  let sums: [m]f64 = screma(m)
    map(\\(j: i64) -> (f64) {
      let s: f64 = screma(n)
        reduce(\\(x: f64, y: f64) -> (f64) {
          let z: f64 = add(x, y)
          in (z)
        }, 0.0f64)
        map(\\(i: i64) -> (f64) {
          let e: f64 = xss[i, j]
          in (e)
        })
      in (s)
    })
  in (sums)
}
";
    let mut args = i64s(&[4, 3]);
    args.push(matrix(4, 3, 0.5));
    let out = run(src, Rule::Amortised, args.clone());
    assert!(!out.contains("xss_tr"), "{out}");
    let out = run(src, Rule::Always, args);
    assert!(out.contains("let xss_tr: [m][n]f64 = screma(m)"), "{out}");
    assert!(out.contains("let e: f64 = xss_tr[j, i]"), "{out}");
}

#[test]
fn a_copy_is_hoisted_out_of_a_sequential_loop() {
    let body = MATMUL
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("  in (c)"))
        .map(|l| format!("  {l}\n"))
        .collect::<String>();
    let src = format!(
        "fun main(n: i64, m: i64, p: i64, a: [n][m]f64, b: [m][p]f64) -> (f64) {{
  let bt: [p][m]f64 = rearrange((1, 0), b)
  let (t: f64) = loop (acc: f64 = 0.0f64) for it: i64 < 3i64 {{
{body}    let e: f64 = c[0i64, 0i64]
    let acc2: f64 = add(acc, e)
    in (acc2)
  }}
  in (t)
}}
"
    );
    let out = run(&src, Rule::Amortised, matmul_args());
    assert!(
        before(
            &out,
            "  let bt_rowmajor: [p][m]f64 = screma(p)\n",
            "  let t: f64 = loop"
        ),
        "{out}"
    );
}

#[test]
fn a_copy_of_an_array_bound_in_the_loop_stays_in_it() {
    let src = MATMUL
        .replace("  let bt: [p][m]f64 = rearrange((1, 0), b)\n", "")
        .replace(
            "  let c: [n][p]f64 = screma(n, a)",
            "  let c00: [n][p]f64 = scratch(f64, [n][p])\n  let (c: [n][p]f64) = loop (c0: [n][p]f64 = c00) for it: i64 < 2i64 {\n  let bt: [p][m]f64 = rearrange((1, 0), b)\n  let c1: [n][p]f64 = screma(n, a)",
        )
        .replace("  in (c)\n}", "  in (c1)\n  }\n  in (c)\n}");
    let out = run(&src, Rule::Amortised, matmul_args());
    assert!(
        before(
            &out,
            "    let bt: [p][m]f64 = rearrange((1, 0), b)\n    let bt_rowmajor: [p][m]f64 = screma(p)\n",
            "    let c1: [n][p]f64 = screma(n, a)"
        ),
        "{out}"
    );
}

#[test]
fn an_array_of_unknown_size_gets_a_copy_statement() {
    // `b` comes back from a call with sizes unknown to the caller: the
    // copy is a `copy` of the transposed view, not a map nest.
    let src = MATMUL
        .replace(
            "fun main(n: i64, m: i64, p: i64, a: [n][m]f64, b: [m][p]f64) -> ([n][p]f64) {\n  let bt: [p][m]f64 = rearrange((1, 0), b)",
            "fun same(m: i64, p: i64, x: [m][p]f64) -> ([?][?]f64) {\n  in (x)\n}\n\nfun main(n: i64, m: i64, p: i64, a: [n][m]f64, b0: [m][p]f64) -> ([n][p]f64) {\n  let b: [?][?]f64 = apply same(m, p, b0)\n  let bt: [?][?]f64 = rearrange((1, 0), b)",
        );
    let out = run(&src, Rule::Amortised, matmul_args());
    assert!(
        before(
            &out,
            "  let bt_rowmajor: [?][?]f64 = copy(bt)\n",
            "  let c: [n][p]f64 = screma(n, a)"
        ),
        "{out}"
    );
    assert!(out.contains("screma(p, bt_rowmajor)"), "{out}");

    // The indexed form: a copy of the transposed view, indexed permuted.
    let src = MATMUL_INDEXED.replace(
        "fun main(n: i64, m: i64, p: i64, a: [n][m]f64, b: [m][p]f64) -> ([n][p]f64) {",
        "fun same(m: i64, p: i64, x: [m][p]f64) -> ([?][?]f64) {\n  in (x)\n}\n\nfun main(n: i64, m: i64, p: i64, a: [n][m]f64, b0: [m][p]f64) -> ([n][p]f64) {\n  let b: [?][?]f64 = apply same(m, p, b0)",
    );
    let out = run(&src, Rule::Amortised, matmul_args());
    assert!(
        out.contains("  let b_tr_view: [?][?]f64 = rearrange((1, 0), b)\n  let b_tr: [?][?]f64 = copy(b_tr_view)\n"),
        "{out}"
    );
    assert!(out.contains("let v: f64 = b_tr[j, k]"), "{out}");
}
