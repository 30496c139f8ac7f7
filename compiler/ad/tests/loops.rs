//! Reverse mode through long loops: a strip-mined loop of 10⁶ iterations
//! differentiates within a memory bound, measured as the largest array the
//! IR interpreter sees (`Outcome::largest_array`), and `while` loops give
//! the derivatives of the `for` loops they stand for.

use ir::pass::{PipelineConfig, run_pipeline};
use ir::{interp, parse, verify};
use values::Value;

/// `y = loop a = x for i < n do a - h·sin(a)` differentiated both ways:
/// returns `(y, vjp, jvp)`. `ATTR` is the loop's attribute line.
const EULER: &str = "\
fun main(x: f64, n: i64) -> (f64, f64, f64) {
  let (y: f64, dx: f64) = vjp(\\(a: f64) -> (f64) {
    ATTR
    let (r: f64) = loop (acc: f64 = a) for i: i64 < n {
      let s: f64 = sin(acc)
      let hs: f64 = mul(s, 0.000001f64)
      let acc1: f64 = sub(acc, hs)
      in (acc1)
    }
    in (r)
  }, (x), (1.0f64))
  let (z: f64, tx: f64) = jvp(\\(b: f64) -> (f64) {
    let (q: f64) = loop (acc2: f64 = b) for j: i64 < n {
      let s2: f64 = sin(acc2)
      let hs2: f64 = mul(s2, 0.000001f64)
      let acc3: f64 = sub(acc2, hs2)
      in (acc3)
    }
    in (q)
  }, (x), (1.0f64))
  in (y, dx, tx)
}
";

/// Runs `src` through the AD pass and the simplifier (verified after each)
/// on `args`.
fn run(src: &str, args: Vec<Value>) -> Result<interp::Outcome, String> {
    let prog = parse::parse_program(src).map_err(|e| e.to_string())?;
    verify::verify(&prog).map_err(|e| format!("{e:?}"))?;
    let passes = [ad::AD_PASS, opt::simplify::PASS];
    let prog = run_pipeline(&passes, prog, PipelineConfig { validate: true })
        .map_err(|e| e.to_string())?;
    interp::run_function(&prog, "main", args).map_err(|e| e.to_string())
}

fn f64_of(v: &Value) -> f64 {
    match v.as_scalar() {
        Some(values::PrimValue::F64(x)) => x,
        _ => panic!("not an f64: {v}"),
    }
}

/// The results of the Euler loop and the largest array allocated.
fn euler(attr: &str, x: f64, n: i64) -> ([f64; 3], usize) {
    let src = EULER.replace("ATTR", attr);
    let out = run(&src, vec![Value::scalar(x), Value::scalar(n)]).unwrap();
    let v: Vec<f64> = out.values.iter().map(f64_of).collect();
    ([v[0], v[1], v[2]], out.largest_array)
}

/// The Euler loop in plain Rust: its result and derivative.
fn euler_exact(x: f64, n: i64) -> (f64, f64) {
    let (mut a, mut d) = (x, 1.0);
    for _ in 0..n {
        d *= 1.0 - 0.000001 * a.cos();
        a -= 0.000001 * a.sin();
    }
    (a, d)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

#[test]
fn stripmined_loop_of_a_million_iterations_stays_within_k_times_root_n() {
    let x = 1.25;
    // ⌈√(10⁵)⌉ = 317, ∛(10⁶) = 100.
    for (k, n, root) in [(2usize, 100_000i64, 317usize), (3, 1_000_000, 100)] {
        let (y, d) = euler_exact(x, n);
        let ([vy, vd, jd], largest) = euler(&format!("#[stripmine({k})]"), x, n);
        assert!(close(vy, y), "k = {k}: y = {vy}, expected {y}");
        assert!(close(vd, d), "k = {k}: vjp = {vd}, expected {d}");
        assert!(close(jd, d), "k = {k}: jvp = {jd}, expected {d}");
        // One checkpoint row per iteration of one level: m = n^(1/k).
        assert!(
            largest <= 2 * k * root,
            "k = {k}: largest array {largest} > {}",
            2 * k * root
        );
        assert!(largest >= root, "k = {k}: largest array {largest}");
    }
}

#[test]
fn stripmining_is_exact_for_counts_that_are_not_powers() {
    for n in [0i64, 1, 2, 7, 26, 27, 28, 1001] {
        for k in [2, 3, 4] {
            let ([vy, vd, jd], largest) = euler(&format!("#[stripmine({k})]"), 0.5, n);
            let (y, d) = euler_exact(0.5, n);
            assert!(
                close(vy, y) && close(vd, d) && close(jd, d),
                "n = {n}, k = {k}"
            );
            // m = ⌈n^(1/k)⌉ rows.
            let m = (1..).find(|m: &usize| m.pow(k) as i64 >= n).unwrap_or(0);
            assert!(largest <= m.max(1), "n = {n}, k = {k}: {largest} > {m}");
        }
    }
}

#[test]
fn without_stripmining_the_checkpoints_grow_with_the_loop() {
    let n = 20_000;
    let ([vy, vd, _], largest) = euler("", 1.25, n);
    let (y, d) = euler_exact(1.25, n);
    assert!(close(vy, y) && close(vd, d));
    assert!(largest >= n as usize, "{largest}");
}

/// `loop (c, a) = (x < 100, x) while c do (a·a + 1 < 100, a·a + 1)`.
const WHILE: &str = "\
fun main(x: f64) -> (f64, f64) {
  let (y: f64, dx: f64) = vjp(\\(a: f64) -> (f64) {
    let c0: bool = lt(a, 100.0f64)
    ATTR
    let (cf: bool, r: f64) = loop (c: bool = c0, acc: f64 = a) while c {
      let sq: f64 = mul(acc, acc)
      let nx: f64 = add(sq, 1.0f64)
      let c1: bool = lt(nx, 100.0f64)
      in (c1, nx)
    }
    in (r)
  }, (x), (1.0f64))
  in (y, dx)
}
";

#[test]
fn while_loops_with_and_without_a_bound() {
    // From 1.5: 3.25, 11.5625, 134.69…; the derivative is 2a at each step.
    let expected = [134.69140625, 2.0 * 1.5 * 2.0 * 3.25 * 2.0 * 11.5625];
    for attr in [
        "",
        "#[bound(3)]",
        "#[bound(10)]",
        "#[bound(10), stripmine(2)]",
    ] {
        let src = WHILE.replace("ATTR", attr);
        let out = run(&src, vec![Value::scalar(1.5f64)]).unwrap();
        let got: Vec<f64> = out.values.iter().map(f64_of).collect();
        assert!(
            close(got[0], expected[0]) && close(got[1], expected[1]),
            "{attr}: {got:?}"
        );
    }
    // A loop that starts false runs no iteration: the identity.
    let out = run(
        &WHILE.replace("ATTR", "#[bound(4)]"),
        vec![Value::scalar(500.0f64)],
    )
    .unwrap();
    let got: Vec<f64> = out.values.iter().map(f64_of).collect();
    assert_eq!(got, [500.0, 1.0]);
}

#[test]
fn a_while_loop_past_its_bound_is_a_run_time_error() {
    let src = WHILE.replace("ATTR", "#[bound(2)]");
    let err = run(&src, vec![Value::scalar(1.5f64)]).unwrap_err();
    assert!(err.contains("more than its bound(2) iterations"), "{err}");
}

/// A recurrence on an array, `ys[i+1] = ys[i]·ys[i+1] + ys[i+1] - 1`, in a
/// loop of `n - 1` iterations: the gradient of the last element.
const RECURRENCE: &str = "\
fun main(n: i64, xs: [n]f64) -> (f64, [n]f64) {
  let m: i64 = sub(n, 1i64)
  let (s: f64, dxs: [n]f64) = vjp(\\(a: [n]f64) -> (f64) {
    let c: [n]f64 = copy(a)
    ATTR
    let (ys: [n]f64) = loop (*acc: [n]f64 = c) for i: i64 < m {
      let j: i64 = add(i, 1i64)
      let p: f64 = acc[i]
      let q: f64 = acc[j]
      let pq: f64 = mul(p, q)
      let r0: f64 = add(pq, q)
      let r: f64 = sub(r0, 1.0f64)
      let acc1: [n]f64 = acc with [j] = r
      in (acc1)
    }
    let last: f64 = ys[m]
    in (last)
  }, (xs), (1.0f64))
  in (s, dxs)
}
";

#[test]
fn true_dep_arrays_are_saved_once() {
    let n = 300usize;
    let xs: Vec<f64> = (0..n).map(|i| 0.997 + 0.001 * (i % 7) as f64).collect();
    let args = || vec![Value::scalar(n as i64), Value::vector(xs.clone())];
    let plain = run(&RECURRENCE.replace("ATTR", ""), args()).unwrap();
    let saved_once = run(&RECURRENCE.replace("ATTR", "#[true_dep]"), args()).unwrap();
    assert_eq!(plain.values.len(), 2);
    assert_eq!(
        values::compare_several(
            &saved_once.values,
            &plain.values,
            values::Tolerance::DEFAULT
        ),
        Ok(())
    );
    // The gradient by hand: y[j] = y[j-1]·x[j] + x[j] - 1 in turn, so
    // ∂y[n-1]/∂x[j] = (y[j-1] + 1) · Π_{k>j} (y[k-1] + 1), and
    // ∂y[n-1]/∂x[0] = Π_{k≥1} x[k].
    let mut y = xs.clone();
    for j in 1..n {
        y[j] = y[j - 1] * xs[j] + xs[j] - 1.0;
    }
    let mut grad = vec![0.0; n];
    let mut tail = 1.0;
    for j in (1..n).rev() {
        grad[j] = (y[j - 1] + 1.0) * tail;
        tail *= xs[j];
    }
    grad[0] = tail;
    assert_eq!(
        values::compare_several(
            &saved_once.values[1..],
            &[Value::vector(grad)],
            values::Tolerance::DEFAULT
        ),
        Ok(())
    );
    // Checkpoints: a row of n elements per iteration without the
    // attribute; with it, one copy of the array and a few scalars per
    // iteration.
    assert!(
        plain.largest_array >= (n - 1) * n,
        "{}",
        plain.largest_array
    );
    assert!(
        saved_once.largest_array <= n,
        "{}",
        saved_once.largest_array
    );
    // Strip-mined, with or without the attribute: the outer level
    // checkpoints ⌈√299⌉ = 18 rows of the array; the innermost loop, whose
    // body is the original one, saves the array once with the attribute.
    for attr in ["#[stripmine(2)]", "#[true_dep, stripmine(2)]"] {
        let out = run(&RECURRENCE.replace("ATTR", attr), args()).unwrap();
        assert_eq!(
            values::compare_several(&out.values, &plain.values, values::Tolerance::DEFAULT),
            Ok(()),
            "{attr}"
        );
        assert!(out.largest_array <= 18 * n, "{attr}: {}", out.largest_array);
    }
}

/// `f(a) = if k > 5 then a·a else a`, where `k` counts the steps
/// `x ← 0.999·x` from `x = a` until `x < 1`: an unbounded `while` loop whose
/// results only decide a condition. `PRIMAL` runs it alone; `VJP`
/// differentiates `f`.
const COUNTED: &str = "\
fun main(x: f64) -> (f64, f64) {
  BODY
}
";

const COUNTED_LOOP: &str = "\
    let c0: bool = ge(a, 1.0f64)
    let (cf: bool, xf: f64, k: i64) = loop (c: bool = c0, y: f64 = a, n: i64 = 0i64) while c {
      let y1: f64 = mul(y, 0.999f64)
      let n1: i64 = add(n, 1i64)
      let c1: bool = ge(y1, 1.0f64)
      in (c1, y1, n1)
    }
    let many: bool = gt(k, 5i64)
    let (r: f64) = if many then {
      let sq: f64 = mul(a, a)
      in (sq)
    } else {
      in (a)
    }";

#[test]
fn a_while_loop_no_adjoint_reaches_runs_once() {
    let primal = COUNTED.replace(
        "BODY",
        &format!("let a: f64 = x\n{COUNTED_LOOP}\n    let one: f64 = 1.0f64\n    in (r, one)"),
    );
    let vjp = COUNTED.replace(
        "BODY",
        &format!(
            "let (fx: f64, dx: f64) = vjp(\\(a: f64) -> (f64) {{\n{COUNTED_LOOP}\n    in (r)\n  }}, (x), (1.0f64))\n  in (fx, dx)"
        ),
    );
    for (x, expected) in [(1000.0f64, [1e6, 2000.0]), (1.002, [1.002, 1.0])] {
        let p = run(&primal, vec![Value::scalar(x)]).unwrap();
        let v = run(&vjp, vec![Value::scalar(x)]).unwrap();
        let got: Vec<f64> = v.values.iter().map(f64_of).collect();
        assert!(
            close(got[0], expected[0]) && close(got[1], expected[1]),
            "{x}: {got:?}"
        );
        // The loop runs once, as in the primal: no inspector runs it again
        // (at x = 1000 the loop takes 6905 iterations of three operations).
        let (ops, base) = (v.counters.scalar_ops, p.counters.scalar_ops);
        assert!(ops <= base + 10, "{x}: vjp {ops} operations, primal {base}");
        if x > 2.0 {
            assert!(base >= 3 * 6900, "{base}");
        }
    }
}

#[test]
fn a_stripmined_nest_checkpoints_only_the_loop_parameters() {
    // The iteration number is computed from the loop indices, not carried:
    // each level writes one checkpoint row of `y` per iteration it runs,
    // n at the innermost level and m^j at the level j from the outside
    // (m = 100 for k = 2, 22 for k = 3), and nothing else.
    let n = 10_000i64;
    let plain = run(
        &EULER.replace("ATTR", ""),
        vec![Value::scalar(1.25f64), Value::scalar(n)],
    )
    .unwrap();
    for (k, m) in [(2u32, 100u64), (3, 22)] {
        let src = EULER.replace("ATTR", &format!("#[stripmine({k})]"));
        let out = run(&src, vec![Value::scalar(1.25f64), Value::scalar(n)]).unwrap();
        let rows: u64 = n as u64 + (1..k).map(|j| m.pow(j)).sum::<u64>();
        assert_eq!(out.counters.writes, rows, "k = {k}");
        assert_eq!(out.counters.reads, rows, "k = {k}");
        // The extra forward work of the levels: 18% (k = 2) and 40%
        // (k = 3) more scalar operations than the loop that is not
        // strip-mined (170 001), down from 24% and 50% when the iteration
        // number was a loop parameter, counted and checkpointed.
        let ops = out.counters.scalar_ops as f64;
        let base = plain.counters.scalar_ops as f64;
        let bound = if k == 2 { 1.19 } else { 1.41 };
        assert!(
            ops <= bound * base,
            "k = {k}: {ops} operations, {base} unsplit"
        );
    }
}

/// The recurrence of `RECURRENCE` as a `while` loop, `ATTR` its attributes.
const WHILE_RECURRENCE: &str = "\
fun main(n: i64, xs: [n]f64) -> (f64, [n]f64) {
  let m: i64 = sub(n, 1i64)
  let (s: f64, dxs: [n]f64) = vjp(\\(a: [n]f64) -> (f64) {
    let c: [n]f64 = copy(a)
    let go: bool = lt(0i64, m)
    ATTR
    let (g: bool, i: i64, ys: [n]f64) = loop (more: bool = go, k: i64 = 0i64, *acc: [n]f64 = c) while more {
      let j: i64 = add(k, 1i64)
      let p: f64 = acc[k]
      let q: f64 = acc[j]
      let pq: f64 = mul(p, q)
      let r0: f64 = add(pq, q)
      let r: f64 = sub(r0, 1.0f64)
      let acc1: [n]f64 = acc with [j] = r
      let more1: bool = lt(j, m)
      in (more1, j, acc1)
    }
    let last: f64 = ys[m]
    in (last)
  }, (xs), (1.0f64))
  in (s, dxs)
}
";

#[test]
fn true_dep_arrays_of_a_bounded_while_loop_are_saved_once() {
    // A bounded while loop runs its body under `if more`: the array is
    // still changed only by in-place updates, in one branch.
    let n = 300usize;
    let bound = 320;
    let xs: Vec<f64> = (0..n).map(|i| 0.997 + 0.001 * (i % 7) as f64).collect();
    let args = || vec![Value::scalar(n as i64), Value::vector(xs.clone())];
    let expected = run(&RECURRENCE.replace("ATTR", ""), args()).unwrap();
    let plain = run(
        &WHILE_RECURRENCE.replace("ATTR", &format!("#[bound({bound})]")),
        args(),
    )
    .unwrap();
    let saved_once = run(
        &WHILE_RECURRENCE.replace("ATTR", &format!("#[true_dep, bound({bound})]")),
        args(),
    )
    .unwrap();
    for out in [&plain, &saved_once] {
        assert_eq!(
            values::compare_several(&out.values, &expected.values, values::Tolerance::DEFAULT),
            Ok(())
        );
    }
    // Without the attribute, a row of n elements per iteration of the
    // bound; with it, one copy of the array, and per iteration the
    // condition, an index and an element.
    assert!(plain.largest_array >= bound * n, "{}", plain.largest_array);
    assert!(
        saved_once.largest_array <= bound,
        "{}",
        saved_once.largest_array
    );
    // An unbounded loop with the attribute (an inspector counts the
    // iterations first) saves the array once too.
    let inspected = run(&WHILE_RECURRENCE.replace("ATTR", "#[true_dep]"), args()).unwrap();
    assert_eq!(
        values::compare_several(
            &inspected.values,
            &expected.values,
            values::Tolerance::DEFAULT
        ),
        Ok(())
    );
    assert!(inspected.largest_array <= n, "{}", inspected.largest_array);
}

/// A loop whose array parameter doubles in size each iteration: its
/// checkpoints would need rows of different sizes, so reverse mode checks
/// at run time that the size stays, and stops with a message naming the
/// parameter (instead of a size mismatch deep in the return sweep).
const GROWING: &str = "\
fun main(n: i64, x: [n]f64) -> (f64) {
  let (y: f64, dx: [n]f64) = vjp(\\(a: [n]f64) -> (f64) {
    let (d: i64, r: [d]f64) = loop (ad: i64 = n, acc: [ad]f64 = a) for i: i32 < 2i32 {
      let m: [ad]f64 = screma(ad, acc)
        map(\\(e: f64) -> (f64) {
          let e2: f64 = mul(e, 2.0f64)
          in (e2)
        })
      let nd: i64 = add(ad, ad)
      let c: [nd]f64 = concat(0, [nd], acc, m)
      in (nd, c)
    }
    let s: f64 = screma(d, r)
      reduce(\\(p: f64, q: f64) -> (f64) {
        let pq: f64 = add(p, q)
        in (pq)
      }, 0.0f64)
      map(\\(v: f64) -> (f64) {
        in (v)
      })
    in (s)
  }, (x), (1.0f64))
  in (y)
}
";

#[test]
fn reverse_mode_through_a_loop_changing_an_array_size_is_a_clear_error() {
    let x = Value::array(vec![2], vec![1.0f64, 2.0]).unwrap();
    let err = match run(GROWING, vec![Value::scalar(2i64), x]) {
        Ok(out) => panic!("ran, giving {:?}", out.values),
        Err(e) => e,
    };
    assert!(
        err.contains("`acc` changes size"),
        "unexpected message: {err}"
    );
}
