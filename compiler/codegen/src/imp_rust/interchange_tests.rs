//! The interchange on small programs: which loops are unrolled into their
//! inner loop, and the results through the imperative IR's interpreter,
//! the same bit for bit before and after.

use values::Value;

use super::function;
use crate::imp::interp::run_function;
use crate::imp::lower_text as lower;
use crate::imp::print::print_program;
use crate::imp::{Program, Stm};

/// Each row of `ws` blended with the rows of `ts`: `tabulate 4 (\c ->
/// sum_i ws[r, i] * ts[i, c])`, and the sums of the products' squares.
const BLEND: &str = r"fun main(n: i64, m: i64, ws: [n][m]f64, ts: [m][4]f64) -> ([n][4]f64, [n][4]f64) {
  let iota: [4]i64 = iota(4i64, 0i64, 1i64)
  let (out: [n][4]f64, sq: [n][4]f64) = screma(n, ws)
    map(\(w: [m]f64) -> ([4]f64, [4]f64) {
      let (row: [4]f64, row_sq: [4]f64) = screma(4i64, iota)
        map(\(c: i64) -> (f64, f64) {
          let (s: f64, s2: f64) = screma(m, w, ts)
            reduce(\(a: f64, a2: f64, b: f64, b2: f64) -> (f64, f64) {
              let r: f64 = add(a, b)
              let r2: f64 = add(a2, b2)
              in (r, r2)
            }, 0.0f64, 0.0f64)
            map(\(x: f64, t: [4]f64) -> (f64, f64) {
              let e: f64 = t[c]
              let y: f64 = mul(x, e)
              let y2: f64 = mul(y, y)
              in (y, y2)
            })
          in (s, s2)
        })
      in (row, row_sq)
    })
  in (out, sq)
}
";

/// `tabulate 3 (\c -> b[c] + sum_i ms[c, i] * v[i])` for each row `v` of
/// `vs`: a read before the reduction and an addition after it.
const AFFINE: &str = r"fun main(n: i64, vs: [n][3]f64, ms: [3][3]f64, b: [3]f64) -> ([n][3]f64) {
  let iota: [3]i64 = iota(3i64, 0i64, 1i64)
  let out: [n][3]f64 = screma(n, vs)
    map(\(v: [3]f64) -> ([3]f64) {
      let row: [3]f64 = screma(3i64, iota)
        map(\(c: i64) -> (f64) {
          let bc: f64 = b[c]
          let s: f64 = screma(3i64, v)
            reduce(\(a: f64, a2: f64) -> (f64) {
              let r: f64 = add(a, a2)
              in (r)
            }, 0.0f64)
            map(\(x: f64, i: i64) -> (f64) {
              let e: f64 = ms[c, i]
              let y: f64 = mul(x, e)
              in (y)
            })
          let o: f64 = add(s, bc)
          in (o)
        })
      in (row)
    })
  in (out)
}
";

/// Hand's skinning: for each row, `tabulate 3 (\r -> dot (tabulate 4 (\c ->
/// sum_i w[i] * ts[i, r, c])) p)`: a loop over `r` around the loop over `c`
/// (unrolled first) and a dot product after it.
const SKIN: &str = r"fun main(n: i64, m: i64, ws: [n][m]f64, ts: [m][3][4]f64, ps: [n][4]f64) -> ([n][3]f64) {
  let rs: [3]i64 = iota(3i64, 0i64, 1i64)
  let cs: [4]i64 = iota(4i64, 0i64, 1i64)
  let out: [n][3]f64 = screma(n, ws, ps)
    map(\(w: [m]f64, p: [4]f64) -> ([3]f64) {
      let vs: [3]f64 = screma(3i64, rs)
        map(\(r: i64) -> (f64) {
          let row: [4]f64 = screma(4i64, cs)
            map(\(c: i64) -> (f64) {
              let s: f64 = screma(m, w, ts)
                reduce(\(a: f64, b: f64) -> (f64) {
                  let ab: f64 = add(a, b)
                  in (ab)
                }, 0.0f64)
                map(\(x: f64, t: [3][4]f64) -> (f64) {
                  let e: f64 = t[r, c]
                  let y: f64 = mul(x, e)
                  in (y)
                })
              in (s)
            })
          let d: f64 = screma(4i64, row, p)
            reduce(\(a2: f64, b2: f64) -> (f64) {
              let ab2: f64 = add(a2, b2)
              in (ab2)
            }, 0.0f64)
            map(\(u: f64, q: f64) -> (f64) {
              let uq: f64 = mul(u, q)
              in (uq)
            })
          in (d)
        })
      in (vs)
    })
  in (out)
}
";

/// `tabulate 4 (\c -> sum_i ts[i, c])` with rows of three elements: the
/// last `c` is out of bounds, which fails only when there is a row.
const PAST_THE_ROW: &str = r"fun main(n: i64, m: i64, tss: [n][m][3]f64) -> ([n][4]f64) {
  let cs: [4]i64 = iota(4i64, 0i64, 1i64)
  let out: [n][4]f64 = screma(n, tss)
    map(\(ts: [m][3]f64) -> ([4]f64) {
      let row: [4]f64 = screma(4i64, cs)
        map(\(c: i64) -> (f64) {
          let s: f64 = screma(m, ts)
            reduce(\(a: f64, b: f64) -> (f64) {
              let ab: f64 = add(a, b)
              in (ab)
            }, 0.0f64)
            map(\(t: [3]f64) -> (f64) {
              let e: f64 = t[c]
              in (e)
            })
          in (s)
        })
      in (row)
    })
  in (out)
}
";

/// As [`BLEND`], but each `c` sums the first `c + 1` terms only.
const TRIANGLE: &str = r"fun main(n: i64, m: i64, ws: [n][m]f64) -> ([n][4]f64) {
  let iota: [4]i64 = iota(4i64, 0i64, 1i64)
  let out: [n][4]f64 = screma(n, ws)
    map(\(w: [m]f64) -> ([4]f64) {
      let row: [4]f64 = screma(4i64, iota)
        map(\(c: i64) -> (f64) {
          let k: i64 = add(c, 1i64)
          let is: [k]i64 = iota(k, 0i64, 1i64)
          let s: f64 = screma(k, is)
            reduce(\(a: f64, b: f64) -> (f64) {
              let r: f64 = add(a, b)
              in (r)
            }, 0.0f64)
            map(\(i: i64) -> (f64) {
              let x: f64 = w[i]
              in (x)
            })
          in (s)
        })
      in (row)
    })
  in (out)
}
";

/// The `for` loops of `p`'s function `main` of constant bound `k`.
fn loops_of(p: &Program, k: i64) -> usize {
    fn walk(stms: &[Stm], k: i64, n: &mut usize) {
        for s in stms {
            if let Stm::For { bound, .. } = s
                && bound.as_i64() == Some(k)
            {
                *n += 1;
            }
            for b in s.blocks() {
                walk(&b.stms, k, n);
            }
        }
    }
    let f = p.functions.iter().find(|f| f.name == "main").unwrap();
    let mut n = 0;
    walk(&f.body.stms, k, &mut n);
    n
}

fn interchanged(p: &Program) -> Program {
    let mut q = p.clone();
    for f in &mut q.functions {
        function(f);
    }
    q
}

fn values(p: &Program, args: Vec<Value>) -> Vec<Value> {
    run_function(p, "main", args)
        .unwrap_or_else(|e| panic!("{e}"))
        .values
}

fn matrix(r: usize, c: usize, seed: f64) -> Value {
    let xs = (0..r * c)
        .map(|k| ((k as f64 + seed) * 0.37).sin())
        .collect();
    Value::array(vec![r, c], xs).unwrap()
}

#[test]
fn a_short_map_of_reductions_is_unrolled_into_the_reduction() {
    let p = lower(BLEND);
    let q = interchanged(&p);
    assert_eq!(loops_of(&p, 4), 1, "{}", print_program(&p));
    assert_eq!(loops_of(&q, 4), 0, "{}", print_program(&q));
    let text = print_program(&q);
    // Two running values per copy, renamed but in the last copy.
    for v in ["acc_c0", "acc_c2", "acc#"] {
        assert!(text.contains(v), "{v}: {text}");
    }
    for (n, m) in [(3usize, 5usize), (1, 0), (2, 1), (4, 22)] {
        let args = || {
            vec![
                Value::scalar(n as i64),
                Value::scalar(m as i64),
                matrix(n, m, 1.0),
                matrix(m, 4, 2.0),
            ]
        };
        let (before, after) = (values(&p, args()), values(&q, args()));
        assert_eq!(before, after, "n = {n}, m = {m}");
        // The blend itself, summed in the same order.
        let (ws, ts) = (args()[2].clone(), args()[3].clone());
        let (ws, ts) = (ws.as_slice::<f64>().unwrap(), ts.as_slice::<f64>().unwrap());
        let want: Vec<f64> = (0..n * 4)
            .map(|rc| {
                let (r, c) = (rc / 4, rc % 4);
                (0..m).fold(0.0, |a, i| a + ws[r * m + i] * ts[i * 4 + c])
            })
            .collect();
        assert_eq!(after[0], Value::array(vec![n, 4], want).unwrap());
    }
}

#[test]
fn a_reduction_whose_length_depends_on_the_outer_index_is_left_alone() {
    let p = lower(TRIANGLE);
    let q = interchanged(&p);
    assert_eq!(print_program(&p), print_program(&q));
    let args = vec![Value::scalar(2i64), Value::scalar(4i64), matrix(2, 4, 0.5)];
    assert_eq!(values(&p, args.clone()), values(&q, args));
}

#[test]
fn assignments_after_the_reduction_are_copied_too() {
    let p = lower(AFFINE);
    let q = interchanged(&p);
    assert_eq!(loops_of(&p, 3), 2, "{}", print_program(&p));
    assert_eq!(loops_of(&q, 3), 1, "{}", print_program(&q));
    let n = 4;
    let args = || {
        vec![
            Value::scalar(n as i64),
            matrix(n, 3, 0.25),
            matrix(3, 3, 3.0),
            Value::vector((0..3).map(|k| k as f64 - 0.5).collect::<Vec<f64>>()),
        ]
    };
    let (before, after) = (values(&p, args()), values(&q, args()));
    assert_eq!(before, after);
    let (vs, ms) = (args()[1].clone(), args()[2].clone());
    let (vs, ms) = (vs.as_slice::<f64>().unwrap(), ms.as_slice::<f64>().unwrap());
    let want: Vec<f64> = (0..n * 3)
        .map(|rc| {
            let (r, c) = (rc / 3, rc % 3);
            let s = (0..3).fold(0.0, |a, i| a + vs[r * 3 + i] * ms[c * 3 + i]);
            s + (c as f64 - 0.5)
        })
        .collect();
    assert_eq!(after[0], Value::array(vec![n, 3], want).unwrap());
}

#[test]
fn a_loop_around_an_unrolled_one_is_unrolled_too_with_the_loops_after_it() {
    let p = lower(SKIN);
    let q = interchanged(&p);
    assert_eq!(
        (loops_of(&p, 3), loops_of(&p, 4)),
        (1, 2),
        "{}",
        print_program(&p)
    );
    // One reduction loop of twelve running values, then the three dot
    // products.
    assert_eq!(
        (loops_of(&q, 3), loops_of(&q, 4)),
        (0, 3),
        "{}",
        print_program(&q)
    );
    let text = print_program(&q);
    // The weight is read once per iteration, not twelve times.
    assert_eq!(text.matches("= ws_mem[").count(), 1, "{text}");
    for (n, m) in [(2usize, 5usize), (1, 0), (3, 22)] {
        let args = || {
            let ts = (0..m * 12).map(|k| (k as f64 * 0.11).cos()).collect();
            vec![
                Value::scalar(n as i64),
                Value::scalar(m as i64),
                matrix(n, m, 1.0),
                Value::array(vec![m, 3, 4], ts).unwrap(),
                matrix(n, 4, 5.0),
            ]
        };
        let (before, after) = (values(&p, args()), values(&q, args()));
        assert_eq!(before, after, "n = {n}, m = {m}");
        let a = args();
        let ws = a[2].as_slice::<f64>().unwrap();
        let ts = a[3].as_slice::<f64>().unwrap();
        let ps = a[4].as_slice::<f64>().unwrap();
        let want: Vec<f64> = (0..n * 3)
            .map(|vr| {
                let (v, r) = (vr / 3, vr % 3);
                (0..4).fold(0.0, |d, c| {
                    let s = (0..m).fold(0.0, |s, i| s + ws[v * m + i] * ts[i * 12 + r * 4 + c]);
                    d + s * ps[v * 4 + c]
                })
            })
            .collect();
        assert_eq!(after[0], Value::array(vec![n, 3], want).unwrap());
    }
}

#[test]
fn an_assertion_made_before_the_loop_holds_when_the_loop_does_not_run() {
    let p = lower(PAST_THE_ROW);
    let q = interchanged(&p);
    assert_eq!(
        (loops_of(&p, 4), loops_of(&q, 4)),
        (1, 0),
        "{}",
        print_program(&q)
    );
    let text = print_program(&q);
    assert!(text.contains("assert or(le(m, 0i64)"), "{text}");
    let args = |m: usize| {
        let ts = (0..2 * m * 3).map(|k| k as f64).collect();
        vec![
            Value::scalar(2i64),
            Value::scalar(m as i64),
            Value::array(vec![2, m, 3], ts).unwrap(),
        ]
    };
    let zeros = vec![Value::array(vec![2, 4], vec![0.0f64; 8]).unwrap()];
    assert_eq!(values(&p, args(0)), zeros);
    assert_eq!(values(&q, args(0)), zeros);
    for prog in [&p, &q] {
        let e = run_function(prog, "main", args(2)).unwrap_err();
        assert!(e.message.contains("out of bounds"), "{}", e.message);
    }
}
