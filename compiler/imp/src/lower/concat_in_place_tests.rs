//! Tests of concatenations built in place: which operands their
//! producers write straight into the concatenation's block, checked on
//! the lowered IR and by the results and copy counts of the imperative
//! IR's interpreter.

use values::Value;

use crate::Program;
use crate::interp::run_function;
use crate::print::print_program;

use crate::lower_text as lower;

/// The handle names of `p`'s allocations, nested ones included, leaving
/// out the empty blocks released handles point at.
fn allocs(p: &Program) -> Vec<String> {
    let mut out = Vec::new();
    super::lifetimes_tests::alloc_names(p, &p.functions[0].body, &mut out);
    out
}

/// Rows of two elements per input, flattened, then the input doubled
/// (the shape of BA's Jacobian values); `rows` is the map's row type.
fn blocks_then_doubled(rows: &str) -> String {
    format!(
        r"fun main(n: i64, xs: [n]f64) -> (i64, [?]f64) {{
  let (bs: [n]{rows}f64, ds: [n]f64) = screma(n, xs)
    map(\(x: f64) -> ({rows}f64, f64) {{
      let y: f64 = mul(x, 3.0f64)
      let r: [2]f64 = replicate([2], y)
      let d: f64 = mul(x, 2.0f64)
      in (r, d)
    }})
  let bs2: [n][2]f64 = reshape([n][2], bs)
  let k: i64 = mul(n, 2i64)
  let flat: [k]f64 = reshape([k], bs2)
  let t: i64 = add(k, n)
  let vals: [t]f64 = concat(0, [t], flat, ds)
  in (t, vals)
}}
"
    )
}

fn blocks_then_doubled_want(xs: &[f64]) -> Vec<f64> {
    let mut want: Vec<f64> = xs.iter().flat_map(|x| [3.0 * x, 3.0 * x]).collect();
    want.extend(xs.iter().map(|x| 2.0 * x));
    want
}

/// Runs `p` from [`blocks_then_doubled`] on a few inputs; `first_copied`
/// is how many elements the first row copies (rows built in a block of
/// their own when their size is not known before).
fn check_blocks_then_doubled(p: &Program, first_copied: u64) {
    for xs in [vec![1.0f64, -2.0, 0.5], vec![4.0], vec![]] {
        let n = xs.len() as i64;
        let args = vec![Value::scalar(n), Value::vector(xs.clone())];
        let out = run_function(p, "main", args).unwrap_or_else(|e| panic!("{e}"));
        let want = blocks_then_doubled_want(&xs);
        assert_eq!(
            out.values,
            vec![Value::scalar(3 * n), Value::vector(want)],
            "n = {n}"
        );
        let copied = if n > 0 { first_copied } else { 0 };
        assert_eq!(out.counters.copied, copied, "n = {n}: {}", out.counters);
    }
}

#[test]
fn a_map_writes_its_rows_into_the_concatenation() {
    let p = lower(&blocks_then_doubled("[2]"));
    let text = print_program(&p);
    // One block: the concatenation's, allocated first; both results of
    // the map write into it, and nothing is copied.
    assert_eq!(allocs(&p), vec!["vals_mem"], "{text}");
    assert!(
        text.contains("vals_mem = alloc f64[(n * 2i64 + n)]"),
        "{text}"
    );
    assert!(!text.contains("copy "), "{text}");
    assert!(text.contains("vals_mem[n * 2i64 + i0"), "{text}");
    check_blocks_then_doubled(&p, 0);
}

#[test]
fn rows_sized_by_the_first_go_into_the_concatenation() {
    // The map's rows have a size known once the first is computed: they
    // go into the concatenation when they fill their part, which the
    // first row checks.
    let p = lower(&blocks_then_doubled("[?]"));
    let text = print_program(&p);
    assert!(
        text.contains("Size mismatch: rows of {} elements"),
        "{text}"
    );
    assert!(!text.contains("bs_mem"), "{text}");
    assert!(text.contains("vals_mem[(n * 2i64 + (i0"), "{text}");
    // The first row, computed alone, is copied; the others are written
    // element by element.
    check_blocks_then_doubled(&p, 2);
}

#[test]
fn rows_that_do_not_fill_their_part_fail() {
    // Rows of three where the reshape expects two: the program fails (the
    // check of the first row stands in for the reshape's).
    let src = blocks_then_doubled("[?]")
        .replace("replicate([2], y)", "replicate([3], y)")
        .replace("let r: [2]f64", "let r: [3]f64");
    let p = lower(&src);
    let args = vec![Value::scalar(2i64), Value::vector(vec![1.0f64, 2.0])];
    let err = run_function(&p, "main", args).expect_err("rows of 3 do not fill [2][2]");
    assert!(err.to_string().contains("Size mismatch"), "{err}");
}

#[test]
fn an_operand_used_elsewhere_is_copied() {
    // `ds` is also returned: the map writes it into a block of its own,
    // which the concatenation copies; the rows still go in place.
    let src = blocks_then_doubled("[2]")
        .replace("-> (i64, [?]f64)", "-> (i64, [?]f64, [n]f64)")
        .replace("in (t, vals)", "in (t, vals, ds)");
    let p = lower(&src);
    let text = print_program(&p);
    assert_eq!(allocs(&p), vec!["vals_mem", "ds_mem"], "{text}");
    let xs = vec![1.0f64, 5.0];
    let args = vec![Value::scalar(2i64), Value::vector(xs.clone())];
    let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.values,
        vec![
            Value::scalar(6i64),
            Value::vector(blocks_then_doubled_want(&xs)),
            Value::vector(vec![2.0, 10.0])
        ]
    );
    assert_eq!(out.counters.copied, 2, "{}", out.counters);
}

#[test]
fn a_size_known_only_after_a_read_keeps_the_copies() {
    // The concatenation's size depends on an element read in the body:
    // its block cannot be made before the map, which keeps its own.
    let src = r"fun main(n: i64, xs: [n]f64, ks: [1]i64) -> ([?]f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\(x: f64) -> (f64) {
      let y: f64 = mul(x, 2.0f64)
      in (y)
    })
  let m: i64 = ks[0i64]
  let zs: [m]f64 = replicate([m], 1.0f64)
  let t: i64 = add(n, m)
  let vals: [t]f64 = concat(0, [t], ys, zs)
  in (vals)
}
";
    let p = lower(src);
    let text = print_program(&p);
    assert_eq!(allocs(&p), vec!["ys_mem", "zs_mem", "vals_mem"], "{text}");
    let args = vec![
        Value::scalar(2i64),
        Value::vector(vec![1.0f64, 2.0]),
        Value::vector(vec![1i64]),
    ];
    let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.values, vec![Value::vector(vec![2.0f64, 4.0, 1.0])]);
}

#[test]
fn a_size_given_apart_is_checked_before_the_operands_are_written() {
    // The concatenation's size is a parameter: its block is made with it,
    // after checking that the operands fill it.
    let src = blocks_then_doubled("[2]")
        .replace(
            "fun main(n: i64, xs: [n]f64)",
            "fun main(n: i64, t: i64, xs: [n]f64)",
        )
        .replace("  let t: i64 = add(k, n)\n", "");
    let p = lower(&src);
    let text = print_program(&p);
    assert_eq!(allocs(&p), vec!["vals_mem"], "{text}");
    assert!(
        line_of(&text, "Size mismatch: concatenation") < line_of(&text, "vals_mem = alloc"),
        "{text}"
    );
    let xs = vec![1.0f64, 2.0];
    let args = |t: i64| {
        vec![
            Value::scalar(2i64),
            Value::scalar(t),
            Value::vector(xs.clone()),
        ]
    };
    let out = run_function(&p, "main", args(6)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.values,
        vec![
            Value::scalar(6i64),
            Value::vector(blocks_then_doubled_want(&xs))
        ]
    );
    assert_eq!(out.counters.copied, 0, "{}", out.counters);
    let err = run_function(&p, "main", args(7)).expect_err("7 is not 2 * 2 + 2");
    assert!(
        err.to_string().contains("concatenation has size 7"),
        "{err}"
    );
}

/// The position of the first line of `text` containing `pat`.
fn line_of(text: &str, pat: &str) -> usize {
    text.lines()
        .position(|l| l.contains(pat))
        .unwrap_or_else(|| panic!("no `{pat}` in\n{text}"))
}

/// Nested concatenations whose operands come after a temporary and a
/// reduction over it.
const AFTER_A_TEMPORARY: &str = r"fun main(n: i64, xs: [n]f64) -> (i64, [?]f64) {
  let zs: [n]f64 = screma(n, xs)
    map(\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      in (y)
    })
  let s: f64 = screma(n, zs)
    reduce(\(p: f64, q: f64) -> (f64) {
      let r: f64 = add(p, q)
      in (r)
    }, 0.0f64)
    map(\(z: f64) -> (f64) {
      in (z)
    })
  let a: [n]f64 = screma(n, xs)
    map(\(x1: f64) -> (f64) {
      let y1: f64 = add(x1, s)
      in (y1)
    })
  let b: [n]f64 = screma(n, xs)
    map(\(x2: f64) -> (f64) {
      let y2: f64 = mul(x2, s)
      in (y2)
    })
  let k: i64 = add(n, n)
  let ab: [k]f64 = concat(0, [k], a, b)
  let c: [n]f64 = replicate([n], s)
  let t: i64 = add(k, n)
  let all: [t]f64 = concat(0, [t], ab, c)
  in (t, all)
}
";

#[test]
fn the_block_is_allocated_before_its_first_producer() {
    let p = lower(AFTER_A_TEMPORARY);
    let text = print_program(&p);
    // Made after the temporary and its reduction, not at the start: the
    // temporary is freed before it; the inner concatenation builds in it.
    let alloc = line_of(&text, "all_mem = alloc");
    assert!(alloc > line_of(&text, "zs_mem = alloc"), "{text}");
    assert!(alloc < line_of(&text, "all_mem["), "{text}");
    assert!(!text.contains("ab_mem"), "{text}");
    assert!(!text.contains("copy "), "{text}");
    let xs = vec![1.0f64, 2.0];
    let args = vec![Value::scalar(2i64), Value::vector(xs)];
    let out = run_function(&p, "main", args).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.values,
        vec![
            Value::scalar(6i64),
            Value::vector(vec![6.0f64, 7.0, 5.0, 10.0, 5.0, 5.0])
        ]
    );
    assert_eq!(out.counters.copied, 0, "{}", out.counters);
}
