//! `if` results: sizes both branches give as the same constant.

use values::Value;

use crate::interp::run_function;
use crate::lower_text as lower;
use crate::print::print_program;

/// Both branches build three elements, so the map over the result runs
/// over a constant number of elements.
const SAME_SIZE: &str = r"fun main(c: bool, x: f64) -> (i64, [?]f64) {
  let (d: i64, a: [d]f64) = if c then {
    let t: [3]f64 = replicate([3], x)
    in (3i64, t)
  } else {
    let u: [3]f64 = replicate([3], 1.0f64)
    in (3i64, u)
  }
  let ys: [d]f64 = screma(d, a)
    map(\(y: f64) -> (f64) {
      let z: f64 = mul(y, 2.0f64)
      in (z)
    })
  in (d, ys)
}
";

/// The branches build different numbers of elements.
const OTHER_SIZE: &str = r"fun main(c: bool, x: f64) -> (i64, [?]f64) {
  let (d: i64, a: [d]f64) = if c then {
    let t: [3]f64 = replicate([3], x)
    in (3i64, t)
  } else {
    let u: [2]f64 = replicate([2], 1.0f64)
    in (2i64, u)
  }
  let ys: [d]f64 = screma(d, a)
    map(\(y: f64) -> (f64) {
      let z: f64 = mul(y, 2.0f64)
      in (z)
    })
  in (d, ys)
}
";

fn run(src: &str, c: bool) -> Vec<Value> {
    let p = lower(src);
    let args = vec![Value::scalar(c), Value::scalar(1.5f64)];
    run_function(&p, "main", args)
        .unwrap_or_else(|e| panic!("{e}"))
        .values
}

#[test]
fn a_size_both_branches_give_as_one_constant_is_that_constant_after_the_if() {
    let text = print_program(&lower(SAME_SIZE));
    assert!(text.contains("ys_mem = alloc f64[3i64]"), "{text}");
    assert_eq!(
        run(SAME_SIZE, true),
        vec![Value::scalar(3i64), Value::vector(vec![3.0f64; 3])]
    );
    assert_eq!(
        run(SAME_SIZE, false),
        vec![Value::scalar(3i64), Value::vector(vec![2.0f64; 3])]
    );
}

#[test]
fn sizes_the_branches_give_differently_stay_variables() {
    let text = print_program(&lower(OTHER_SIZE));
    assert!(text.contains("ys_mem = alloc f64[d"), "{text}");
    assert_eq!(
        run(OTHER_SIZE, false),
        vec![Value::scalar(2i64), Value::vector(vec![2.0f64; 2])]
    );
}
