//! Tests of the strength reduction of quadratic indices: which scalars are
//! reduced, and results on the imperative IR's interpreter against the
//! same sums computed here.

use values::Value;

use crate::interp::run_function;
use crate::lower_text as lower;
use crate::print::print_program;

/// The sum of row `r`'s strictly lower part of a packed triangle
/// (`d` diagonal entries first, then the columns one after the other):
/// `Σ_{c < r} icf[d + c*(d-1) - c*(c-1)/2 + (r-c-1)]`. `DIV` is the
/// division operator, `HALF` the divisor.
const TRIANGLE_ROW: &str = r"fun main(d: i64, t: i64, r: i64, icf: [t]f64) -> (f64) {
  let s: f64 = loop (acc: f64 = 0.0f64) for c: i64 < r {
    let dm1: i64 = sub(d, 1i64)
    let a: i64 = mul(c, dm1)
    let cm1: i64 = sub(c, 1i64)
    let b: i64 = mul(c, cm1)
    let h: i64 = DIV(b, HALF)
    let e: i64 = add(d, a)
    let f: i64 = sub(e, h)
    let g: i64 = sub(r, c)
    let g1: i64 = sub(g, 1i64)
    let idx: i64 = add(f, g1)
    let x: f64 = icf[idx]
    let acc2: f64 = add(acc, x)
    in (acc2)
  }
  in (s)
}
";

fn triangle_row(div: &str, half: &str) -> String {
    TRIANGLE_ROW.replace("DIV", div).replace("HALF", half)
}

/// What [`TRIANGLE_ROW`] computes, for `icf[k] = k²`.
fn triangle_row_want(d: i64, r: i64) -> f64 {
    (0..r)
        .map(|c| {
            let idx = d + c * (d - 1) - c * (c - 1) / 2 + (r - c - 1);
            (idx * idx) as f64
        })
        .sum()
}

fn run_row(src: &str, d: i64, r: i64) -> Value {
    let t = d * (d + 1) / 2;
    let icf = Value::array(vec![t as usize], (0..t).map(|k| (k * k) as f64).collect()).unwrap();
    let args = vec![Value::scalar(d), Value::scalar(t), Value::scalar(r), icf];
    let p = lower(src);
    run_function(&p, "main", args)
        .unwrap_or_else(|e| panic!("{e}"))
        .values
        .remove(0)
}

#[test]
fn a_triangular_index_is_two_running_sums() {
    let src = triangle_row("div", "2i64");
    let text = print_program(&lower(&src));
    // No multiplication or division is left in the loop: the index is a
    // running sum set up before it.
    let body = &text[text.find("for (").unwrap()..];
    let arithmetic = |l: &str| l.contains("div(") || (l.contains(" * ") && !l.contains("_mem["));
    assert!(!body.lines().any(arithmetic), "{text}");
    assert!(text.contains("idx_at"), "{text}");
    for (d, r) in [(1, 0), (2, 1), (5, 3), (8, 7), (32, 31), (32, 0)] {
        assert_eq!(
            run_row(&src, d, r),
            Value::scalar(triangle_row_want(d, r)),
            "d = {d}, r = {r}"
        );
    }
}

#[test]
fn truncating_division_is_reduced_too() {
    let src = triangle_row("quot", "2i64");
    let text = print_program(&lower(&src));
    assert!(text.contains("idx_at"), "{text}");
    assert_eq!(run_row(&src, 9, 6), Value::scalar(triangle_row_want(9, 6)));
}

#[test]
fn an_inexact_division_is_left_alone() {
    // c*(c-1)/4 is not a polynomial with integer coefficients: the
    // division's rounding matters, so the loop keeps it.
    let src = triangle_row("div", "4i64");
    let text = print_program(&lower(&src));
    assert!(!text.contains("idx_at") && text.contains("div("), "{text}");
}

/// An affine index (`c*d + r`) is left to the backend's compiler, and the
/// loop's bounds reasoning keeps seeing it.
#[test]
fn affine_indices_are_left_alone() {
    let src = r"fun main(d: i64, t: i64, r: i64, xs: [t]f64) -> (f64) {
  let s: f64 = loop (acc: f64 = 0.0f64) for c: i64 < r {
    let a: i64 = mul(c, d)
    let idx: i64 = add(a, r)
    let x: f64 = xs[idx]
    let acc2: f64 = add(acc, x)
    in (acc2)
  }
  in (s)
}
";
    let text = print_program(&lower(src));
    assert!(!text.contains("_at"), "{text}");
}

/// A quadratic scalar that is also read after the loop keeps the value of
/// the last iteration.
#[test]
fn a_reduced_scalar_read_after_the_loop_keeps_its_last_value() {
    let src = r"fun main(n: i64) -> (i64) {
  let (s: i64, last: i64) = loop (acc: i64 = 0i64, prev: i64 = 0i64) for c: i64 < n {
    let sq: i64 = mul(c, c)
    let q: i64 = add(sq, 3i64)
    let acc2: i64 = add(acc, q)
    in (acc2, q)
  }
  let out: i64 = add(s, last)
  in (out)
}
";
    let p = lower(src);
    let text = print_program(&p);
    assert!(text.contains("_at"), "{text}");
    for n in [0i64, 1, 2, 10] {
        let want: i64 =
            (0..n).map(|c| c * c + 3).sum::<i64>() + if n > 0 { (n - 1) * (n - 1) + 3 } else { 0 };
        let got = run_function(&p, "main", vec![Value::scalar(n)])
            .unwrap_or_else(|e| panic!("{e}"))
            .values;
        assert_eq!(got, vec![Value::scalar(want)], "n = {n}");
    }
}
