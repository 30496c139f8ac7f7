//! The emitted Rust of small programs: its structure (the run-time
//! behaviour is tested end to end by `compiler/cli/tests/multicore_emitter.rs`).

use crate::{Options, program_module};

const SRC: &str = "fun main(n: i64, xs: [n]f64, m: i64, ys: [m][n]f64) -> (f64, [n]f64, [n][m]f64) {
  let s: f64 = screma(n, xs)
    reduce(\\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      in (y)
    })
  let i: f64 = xs[3i64]
  let zs: [n]f64 = copy(xs)
  let ws: [n]f64 = zs with [0i64] = i
  let t: [n][m]f64 = rearrange((1, 0), ys)
  let u: [n][m]f64 = copy(t)
  in (s, ws, u)
}
entry \"main\" = main(\"i64\": 1, \"[]f64\": 1, \"i64\": 1, \"[][]f64\": 1) -> (\"f64\": 1, \"[]f64\": 1, \"[][]f64\": 1)
";

fn module() -> String {
    let prog = ir::parse::parse_program(SRC).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        standalone: true,
        ..Options::default()
    };
    program_module(&prog, &opts, &|_| "p.fut:1:1-1:2".into()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn functions_adapters_and_glue() {
    let m = module();
    // The imperative function and the entry's adapter with the core
    // emitter's name, called by the shared glue.
    assert!(m.contains("pub fn g0("), "{m}");
    assert!(m.contains("pub fn f0(p0: i64, p1: Arr<f64>"), "{m}");
    assert!(m.contains("arr_mem(p1, false)"), "{m}");
    assert!(m.contains("mem_arr(t_."), "{m}");
    assert!(m.contains("pub fn entry_0("), "{m}");
    assert!(m.contains("pub const BATCH"), "{m}");
    assert!(m.contains("pub static PROGRAM"), "{m}");
    // The reduction's chunks run as a parallel loop named for the
    // profiler, reading the argument through a borrowed handle.
    assert!(m.contains("par_for(\"segred p.fut:1:1-1:2\""), "{m}");
    assert!(m.contains(".handle();"), "{m}");
    // The index is checked by an assertion with its message.
    assert!(
        m.contains("assert_failed(\"Index [{}] out of bounds"),
        "{m}"
    );
    // The transposed array is copied by one strided copy.
    assert!(m.contains("copy_view("), "{m}");
}

#[test]
fn unsafe_code_leaves_out_bounds_checks_only() {
    let prog = ir::parse::parse_program(SRC).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        safe: false,
        ..Options::default()
    };
    let m = program_module(&prog, &opts, &|_| String::new()).unwrap_or_else(|e| panic!("{e}"));
    assert!(!m.contains("out of bounds"), "{m}");
    // The sizes of the copy are still checked.
    assert!(m.contains("copy_view("), "{m}");
}

/// The emitted Rust of function `name` (its imperative function) of the
/// core IR program `src`.
fn emitted_function(src: &str, name: &str, safe: bool) -> String {
    let prog = ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        safe,
        ..Options::default()
    };
    let m = program_module(&prog, &opts, &|_| String::new()).unwrap_or_else(|e| panic!("{e}"));
    let start = m
        .find(&format!("/// `{name}`"))
        .unwrap_or_else(|| panic!("no function {name} in {m}"));
    let len = m[start..]
        .find("\n}\n\n")
        .map_or(m.len() - start, |k| k + 3);
    m[start..start + len].to_string()
}

const MAP2: &str = "fun main(n: i64, xs: [n]f64, ys: [n]f64) -> ([n]f64) {
  let zs: [n]f64 = screma(n, xs, ys)
    map(\\(x: f64, y: f64) -> (f64) {
      let z: f64 = mul(x, y)
      in (z)
    })
  in (zs)
}
entry \"main\" = main(\"i64\": 1, \"[]f64\": 1, \"[]f64\": 1) -> (\"[]f64\": 1)
";

#[test]
fn affine_accesses_are_checked_once_before_the_loop() {
    let g = emitted_function(MAP2, "main", true);
    // One check per block before the chunk's loop, over its range.
    // (An entry point's arrays are row-major from offset 0: constant
    // offsets and unit strides.)
    let head = "if m0.covers((0i64), (1i64), lo_ as i64, hi_ as i64) && m1.covers((0i64), (1i64), lo_ as i64, hi_ as i64) && m2.covers((0i64), (1i64), lo_ as i64, hi_ as i64) {";
    assert!(g.contains(head), "{g}");
    assert_eq!(g.matches(".covers(").count(), 3, "{g}");
    // The first version reads and writes unchecked, the second (taken
    // when a check fails) is the loop as it was.
    assert_eq!(g.matches(".get_unchecked(").count(), 2, "{g}");
    assert_eq!(g.matches(".set_unchecked(").count(), 1, "{g}");
    assert_eq!(g.matches(".get(").count(), 2, "{g}");
    assert_eq!(g.matches(".set(").count(), 1, "{g}");
    let (fast, slow) = g.split_once("} else {").unwrap_or_else(|| panic!("{g}"));
    assert!(
        fast.contains("get_unchecked") && !fast.contains(".get("),
        "{g}"
    );
    assert!(!slow.contains("unchecked"), "{g}");
}

const GUARDED: &str = "fun main(n: i64, xs: [n]f64) -> ([n]f64) {
  let is: [n]i64 = iota(n, 0i64, 1i64)
  let zs: [n]f64 = screma(n, is)
    map(\\(i: i64) -> (f64) {
      let c: bool = gt(i, 0i64)
      let z: f64 = if c then {
        let j: i64 = sub(i, 1i64)
        let x: f64 = xs[j]
        in (x)
      } else {
        in (0.0f64)
      }
      in (z)
    })
  in (zs)
}
entry \"main\" = main(\"i64\": 1, \"[]f64\": 1) -> (\"[]f64\": 1)
";

#[test]
fn accesses_under_an_if_stay_checked() {
    let g = emitted_function(GUARDED, "main", true);
    // The map's loop is the last one (the iota's comes first).
    let (before, slow) = g
        .rsplit_once("} else {\nfor")
        .unwrap_or_else(|| panic!("{g}"));
    let fast = &before[before.rfind("if m").unwrap_or(0)..];
    // The result's write, made at every iteration, is hoisted; the read
    // of `xs` (`m0`) under the `if` (outside its block at the first
    // iteration, which does not make it) and its bounds assertion stay in
    // both versions.
    assert!(fast.contains("m2.covers("), "{g}");
    assert!(fast.contains("m2.set_unchecked("), "{g}");
    assert!(!fast.contains("m0.covers("), "{g}");
    assert!(!fast.contains("m0.get_unchecked"), "{g}");
    assert!(fast.contains("m0.get("), "{g}");
    assert!(fast.contains("out of bounds"), "{g}");
    assert!(slow.contains("m0.get(") && slow.contains("m2.set("), "{g}");
    assert!(slow.contains("out of bounds"), "{g}");
}

const IN_PLACE: &str = "fun main(n: i64, *xs: [n]f64, k: i64) -> ([n]f64) {
  let (ys: [n]f64) = loop (*acc: [n]f64 = xs) for i: i64 < k {
    let x: f64 = acc[i]
    let y: f64 = mul(x, 2.0f64)
    let upd: [n]f64 = acc with [i] = y
    in (upd)
  }
  in (ys)
}
entry \"main\" = main(\"i64\": 1, *\"[]f64\": 1, \"i64\": 1) -> (\"[]f64\": 1)
";

#[test]
fn index_bounds_assertions_are_hoisted_with_the_accesses() {
    let g = emitted_function(IN_PLACE, "main", true);
    let (fast, slow) = g
        .split_once("} else {\nfor")
        .unwrap_or_else(|| panic!("{g}"));
    // `0 <= i < n` for the whole range, checked once (not once per
    // index), and the block's range.
    assert_eq!(fast.matches("within(").count(), 2, "{g}");
    assert!(
        fast.contains("within((0i64), (1i64), 0, n_, (0i64), i64::MAX)"),
        "{g}"
    );
    assert_eq!(fast.matches(".covers(").count(), 1, "{g}");
    assert!(!fast.contains("out of bounds"), "{g}");
    // The checked version fails as before, with the message and location.
    assert_eq!(slow.matches("out of bounds").count(), 2, "{g}");
    // Without bounds checks only the block's range is checked.
    let unsafe_g = emitted_function(IN_PLACE, "main", false);
    assert!(!unsafe_g.contains("within("), "{unsafe_g}");
    assert!(!unsafe_g.contains("out of bounds"), "{unsafe_g}");
    assert!(unsafe_g.contains(".get_unchecked("), "{unsafe_g}");
}

const REPOINTED: &str = "fun main(n: i64, xs: [n]f64, k: i64) -> ([k]f64) {
  let is: [k]i64 = iota(k, 0i64, 1i64)
  let zs: [k]f64 = screma(k, is)
    map(\\(i: i64) -> (f64) {
      let a: [n]f64 = scratch(f64, [n])
      let b: [n]f64 = a with [0i64] = 1.0f64
      let y: f64 = b[0i64]
      in (y)
    })
  in (zs)
}
entry \"main\" = main(\"i64\": 1, \"[]f64\": 1, \"i64\": 1) -> (\"[]f64\": 1)
";

#[test]
fn blocks_allocated_in_the_loop_are_not_hoisted() {
    let g = emitted_function(REPOINTED, "main", true);
    // The row's block (`m3`) is allocated at every iteration: its
    // accesses stay checked in both versions, while the bounds of their
    // constant index, which the loop does not change, are hoisted.
    assert!(g.contains("m3.realloc("), "{g}");
    assert!(!g.contains("m3.covers("), "{g}");
    assert!(
        !g.contains("m3.get_unchecked(") && !g.contains("m3.set_unchecked("),
        "{g}"
    );
    assert_eq!(g.matches("m3.get(").count(), 2, "{g}");
    assert!(g.contains("within("), "{g}");
}

const DOT: &str = "fun main(n: i64, xs: [n]f64, ys: [n]f64) -> (f64) {
  let s: f64 = screma(n, xs, ys)
    reduce(\\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\\(x: f64, y: f64) -> (f64) {
      let z: f64 = mul(x, y)
      in (z)
    })
  in (s)
}
entry \"main\" = main(\"i64\": 1, \"[]f64\": 1, \"[]f64\": 1) -> (\"f64\": 1)
";

#[test]
fn only_innermost_loops_are_versioned() {
    let g = emitted_function(DOT, "main", true);
    // The chunks' loop holds each chunk's sequential loops (four partial
    // sums, then the tail): it is written once, its write of the chunk's
    // sum checked, and each sequential loop twice, its ranges checked per
    // chunk; so is the loop combining the chunks' sums.
    assert!(!g.contains("hi_ as i64"), "{g}");
    assert_eq!(g.matches("for k_ in lo_..hi_").count(), 1, "{g}");
    assert!(g.contains("m2.set(v8, v9);"), "{g}");
    assert_eq!(g.matches("for k_ in 0..n_").count(), 6, "{g}");
    assert_eq!(g.matches(".get_unchecked(").count(), 11, "{g}");
    // Both inputs are read at the same index (row-major entry arrays): the
    // partials' loop checks two ranges per input, the tail loop one per
    // input, the loop combining the chunks' sums one.
    assert_eq!(g.matches(".covers(").count(), 7, "{g}");
}

// Writes from parallel loops: scatters and accumulator updates (their
// lowering and results are tested in the `imp` crate, `lower/scatter.rs`
// and `lower/accs.rs`, with the same programs).

/// The emitted Rust of the first function of the imperative IR of `src`.
fn emitted_first_function(src: &str) -> String {
    let locate = |_: ir::Span| String::new();
    let p = crate::imp::lower_text(src);
    super::function::function(&p, 0, true, &locate).unwrap_or_else(|e| panic!("{e}"))
}

/// A scatter whose map computes its index and value (so `flatten` plans
/// it as parallel).
const SCATTER_COMPUTED: &str = r"fun main(n: i64, k: i64, xs: [n]f64, is: [k]i64, vs: [k]f64) -> ([n]f64) {
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

#[test]
fn the_emitted_write_is_an_atomic_store() {
    let rust = emitted_first_function(SCATTER_COMPUTED);
    assert!(rust.contains(".atomic_store("), "{rust}");
    assert!(!rust.contains(".atomic_update("), "{rust}");
}

/// Rows passed on unchanged into a `[n][m]` destination: planned as
/// parallel although the map computes nothing.
const SCATTER_ROWS: &str = r"fun main(n: i64, m: i64, k: i64, d: [n][m]i64, is: [k]i64, rs: [k][m]i64) -> ([n][m]i64) {
  let ys: [n][m]i64 = copy(d)
  let zs: [n][m]i64 = scatter(k, is, rs)
    into(ys@1)
    map(\(i: i64, row: [m]i64) -> (i64, [m]i64) {
      in (i, row)
    })
  in (zs)
}
";

#[test]
fn an_emitted_row_is_a_loop_of_atomic_stores() {
    let rust = emitted_first_function(SCATTER_ROWS);
    let store = rust
        .find(".atomic_store(")
        .unwrap_or_else(|| panic!("{rust}"));
    let par = rust.find("par_for(").unwrap_or_else(|| panic!("{rust}"));
    assert!(rust[par..store].contains("for "), "{rust}");
    assert!(!rust[par..].contains("copy_view"), "{rust}");
}

/// A map over `n` values adding `v` at `i` and `2v` at `i + 1` of an
/// accumulator of `m` elements starting at 1 (out-of-bounds updates
/// ignored), and returning `v * v` per row; `T` is the element type.
fn acc_program(t: &str, two: &str, one: &str) -> String {
    format!(
        r"fun main(n: i64, m: i64, is: [n]i64, vs: [n]{t}) -> ([m]{t}, [n]{t}) {{
  let z: [m]{t} = replicate([m], {one})
  let (r: [m]{t}, ys: [n]{t}) = with_acc(z op(\(a: {t}, b: {t}) -> ({t}) {{
    let c: {t} = add(a, b)
    in (c)
  }}, {zero})) \(acc: acc([m]{t})) -> (acc([m]{t}), [n]{t}) {{
    let (acc2: acc([m]{t}), ys0: [n]{t}) = screma(n, is, vs, acc)
      map(\(i: i64, v: {t}, a0: acc([m]{t})) -> (acc([m]{t}), {t}) {{
        let a1: acc([m]{t}) = update_acc(a0, (i), v)
        let w: {t} = mul(v, {two})
        let j: i64 = add(i, 1i64)
        let a2: acc([m]{t}) = update_acc(a1, (j), w)
        let y: {t} = mul(v, v)
        in (a2, y)
      }})
    in (acc2, ys0)
  }}
  in (r, ys)
}}
",
        zero = one.replace('1', "0"),
    )
}

#[test]
fn atomic_updates_are_emitted_as_fetch_add_or_compare_and_swap() {
    let rust = emitted_first_function(&acc_program("f64", "2.0f64", "1.0f64"));
    assert!(rust.contains(".atomic_update("), "{rust}");
    assert!(!rust.contains(".atomic_add("), "{rust}");
    let rust = emitted_first_function(&acc_program("i32", "2i32", "1i32"));
    assert!(rust.contains(".atomic_add("), "{rust}");
    assert!(!rust.contains(".atomic_update("), "{rust}");
}

/// A map of a map: the outer loop's body is only the inner loop.
const MAP_OF_MAP: &str = "fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n][m]f64) {
  let yss: [n][m]f64 = screma(n, xss)
    map(\\(xs: [m]f64) -> ([m]f64) {
      let ys: [m]f64 = screma(m, xs)
        map(\\(x: f64) -> (f64) {
          let y: f64 = mul(x, 2.0f64)
          in (y)
        })
      in (ys)
    })
  in (yss)
}
entry \"main\" = main(\"i64\": 1, \"i64\": 1, \"[][]f64\": 1) -> (\"[][]f64\": 1)
";

#[test]
fn a_map_over_rows_of_empty_arrays_is_skipped() {
    let rust = emitted_function(MAP_OF_MAP, "main", true);
    // The outer loop runs only when the inner one iterates: 2^40 rows of
    // empty arrays take no time.
    let guard = rust
        .find("<= 0)) {")
        .unwrap_or_else(|| panic!("no guard in {rust}"));
    let first_loop = rust
        .find("par_for(")
        .unwrap_or_else(|| panic!("no loop in {rust}"));
    assert!(guard < first_loop, "{rust}");
}
