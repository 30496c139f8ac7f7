//! The plans of nests, distributable bodies and scatters.

use super::*;
use crate::nest::Nest;

fn plans(src: &str) -> Vec<Plan> {
    let prog = ir::parse::parse_program(src).unwrap();
    let f = prog.functions.values().next().unwrap();
    top_level_plans(f)
}

#[test]
fn map_of_map_is_a_nest_over_two_dimensions() {
    let src = "fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n][m]f64) {
  let yss: [n][m]f64 = screma(n, xss)
    map(\\(xs: [m]f64) -> ([m]f64) {
      let ys: [m]f64 = screma(m, xs)
        map(\\(x: f64) -> (f64) {
          let y: f64 = mul(x, x)
          in (y)
        })
      in (ys)
    })
  in (yss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Nest(Nest {
            inner: SegOp::Map,
            depth: 2
        })]
    );
}

#[test]
fn map_of_reduce_is_a_segmented_reduction() {
    let src = "fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n]f64) {
  let ss: [n]f64 = screma(n, xss)
    map(\\(xs: [m]f64) -> (f64) {
      let s: f64 = screma(m, xs)
        reduce(\\(a: f64, b: f64) -> (f64) {
          let c: f64 = add(a, b)
          in (c)
        }, 0.0f64)
        map(\\(x: f64) -> (f64) {
          in (x)
        })
      in (s)
    })
  in (ss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Nest(Nest {
            inner: SegOp::Red,
            depth: 2
        })]
    );
}

/// Work before the inner map, or results other than the inner map's, make
/// the nest imperfect: the map gets two versions, and its body's map is a
/// segmented operation when the map runs sequentially.
#[test]
fn imperfect_nests_are_versioned() {
    let src = "fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n][m]f64, [n]f64) {
  let (yss: [n][m]f64, ss: [n]f64) = screma(n, xss)
    map(\\(xs: [m]f64) -> ([m]f64, f64) {
      let ys: [m]f64 = screma(m, xs)
        map(\\(x: f64) -> (f64) {
          let y: f64 = mul(x, x)
          in (y)
        })
      let s: f64 = screma(m, ys)
        reduce(\\(a: f64, b: f64) -> (f64) {
          let c: f64 = add(a, b)
          in (c)
        }, 0.0f64)
        map(\\(x: f64) -> (f64) {
          in (x)
        })
      in (ys, s)
    })
  in (yss, ss)
}
";
    assert_eq!(
        plans(src),
        vec![
            Plan::Versioned(SegOp::Map),
            Plan::Seg(SegOp::Map),
            Plan::Seg(SegOp::Red)
        ]
    );
}

/// A map over a loop whose body maps: the loop runs inside the map's
/// sequential version with its map parallel (the interchange).
#[test]
fn map_over_a_loop_of_maps_is_versioned() {
    let src = "fun main(n: i64, m: i64, k: i64, xss: [n][m]f64) -> ([n][m]f64) {
  let yss: [n][m]f64 = screma(n, xss)
    map(\\(xs: [m]f64) -> ([m]f64) {
      let (r: [m]f64) = loop (acc: [m]f64 = xs) for i: i64 < k {
        let a2: [m]f64 = screma(m, acc)
          map(\\(x: f64) -> (f64) {
            let y: f64 = mul(x, 2.0f64)
            in (y)
          })
        in (a2)
      }
      in (r)
    })
  in (yss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Versioned(SegOp::Map), Plan::Seg(SegOp::Map)]
    );
}

#[test]
fn scalar_bodies_stay_plain_segmented_operations() {
    let src = "fun main(n: i64, xs: [n]f64) -> ([n]f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      let z: f64 = add(y, 1.0f64)
      in (z)
    })
  in (ys)
}
";
    assert_eq!(plans(src), vec![Plan::Seg(SegOp::Map)]);
}

/// A row-dependent inner width is no perfect nest (the space is not a
/// rectangle); the map is versioned instead.
#[test]
fn row_dependent_inner_width_is_not_a_nest() {
    let src = "fun main(n: i64, ks: [n]i64) -> ([n]i64) {
  let ss: [n]i64 = screma(n, ks)
    map(\\(k: i64) -> (i64) {
      let is: [k]i64 = iota(k, 0i64, 1i64)
      let s: i64 = screma(k, is)
        reduce(\\(a: i64, b: i64) -> (i64) {
          let c: i64 = add(a, b)
          in (c)
        }, 0i64)
        map(\\(x: i64) -> (i64) {
          in (x)
        })
      in (s)
    })
  in (ss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Versioned(SegOp::Map), Plan::Seg(SegOp::Red)]
    );
}

#[test]
fn scatter_is_parallel() {
    let src = "fun main(n: i64, is: [n]i64, xs: [n]f64, d: [10]f64) -> ([10]f64) {
  let r: [10]f64 = scatter(n, is, xs)
    into(d@1)
    map(\\(i: i64, v: f64) -> (i64, f64) {
      let w: f64 = mul(v, 2.0f64)
      in (i, w)
    })
  in (r)
}
";
    assert_eq!(plans(src), vec![Plan::Scatter]);
    // A map that only passes its inputs on stays a sequential loop.
    let src = "fun main(n: i64, is: [n]i64, xs: [n]f64, d: [10]f64) -> ([10]f64) {
  let r: [10]f64 = scatter(n, is, xs)
    into(d@1)
    map(\\(i: i64, v: f64) -> (i64, f64) {
      in (i, v)
    })
  in (r)
}
";
    assert_eq!(plans(src), vec![]);
}

/// Scalar statements before the inner map (recomputed by each chunk that
/// covers part of a row) keep the nest perfect; an array statement there
/// does not.
#[test]
fn scalar_prologues_keep_nests_perfect() {
    let src = "fun main(n: i64, m: i64, xss: [n][m]f64, cs: [n]f64) -> ([n][m]f64) {
  let yss: [n][m]f64 = screma(n, xss, cs)
    map(\\(xs: [m]f64, c: f64) -> ([m]f64) {
      let c2: f64 = mul(c, c)
      let ys: [m]f64 = screma(m, xs)
        map(\\(x: f64) -> (f64) {
          let y: f64 = add(x, c2)
          in (y)
        })
      in (ys)
    })
  in (yss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Nest(Nest {
            inner: SegOp::Map,
            depth: 2
        })]
    );
    let src = "fun main(n: i64, m: i64, xss: [n][m]f64) -> ([n][m]f64) {
  let yss: [n][m]f64 = screma(n, xss)
    map(\\(xs: [m]f64) -> ([m]f64) {
      let zs: [m]f64 = copy(xs)
      let ys: [m]f64 = screma(m, zs)
        map(\\(x: f64) -> (f64) {
          let y: f64 = add(x, 1.0f64)
          in (y)
        })
      in (ys)
    })
  in (yss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Versioned(SegOp::Map), Plan::Seg(SegOp::Map)]
    );
}

/// A map whose body scans each row is one segmented scan over `[n][m]`.
#[test]
fn map_of_scan_is_a_segmented_scan() {
    let src = "fun main(n: i64, m: i64, xss: [n][m]i64) -> ([n][m]i64) {
  let yss: [n][m]i64 = screma(n, xss)
    map(\\(xs: [m]i64) -> ([m]i64) {
      let ys: [m]i64 = screma(m, xs)
        scan(\\(a: i64, b: i64) -> (i64) {
          let c: i64 = add(a, b)
          in (c)
        }, 0i64)
        map(\\(x: i64) -> (i64) {
          let y: i64 = mul(x, 3i64)
          in (y)
        })
      in (ys)
    })
  in (yss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Nest(Nest {
            inner: SegOp::Scan,
            depth: 2
        })]
    );
    // A scan whose operands are arrays stays inside a versioned map.
    let src = "fun main(n: i64, m: i64, k: i64, xsss: [n][m][k]i64) -> ([n][m][k]i64) {
  let ysss: [n][m][k]i64 = screma(n, xsss)
    map(\\(xss: [m][k]i64) -> ([m][k]i64) {
      let yss: [m][k]i64 = screma(m, xss)
        scan(\\(a: [k]i64, b: [k]i64) -> ([k]i64) {
          in (b)
        }, xss)
        map(\\(x: [k]i64) -> ([k]i64) {
          in (x)
        })
      in (yss)
    })
  in (ysss)
}
";
    assert_eq!(plans(src), vec![Plan::Seg(SegOp::Map)]);
}

/// Three levels of maps around a reduction, with scalar prologues at two
/// of them, are one segmented reduction over `[n][m][k]`.
#[test]
fn deeper_nests_are_one_space() {
    let src = "fun main(n: i64, m: i64, k: i64, xsss: [n][m][k]f64) -> ([n][m]f64) {
  let rss: [n][m]f64 = screma(n, xsss)
    map(\\(xss: [m][k]f64) -> ([m]f64) {
      let rs: [m]f64 = screma(m, xss)
        map(\\(xs: [k]f64) -> (f64) {
          let s: f64 = screma(k, xs)
            reduce(\\(a: f64, b: f64) -> (f64) {
              let c: f64 = add(a, b)
              in (c)
            }, 0.0f64)
            map(\\(x: f64) -> (f64) {
              in (x)
            })
          in (s)
        })
      in (rs)
    })
  in (rss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Nest(Nest {
            inner: SegOp::Red,
            depth: 3
        })]
    );
    // Index maps (no inputs) with scalar prologues at two levels.
    let src = "fun main(n: i64, m: i64, k: i64) -> ([n][m][k]i64) {
  let r: [n][m][k]i64 = screma(n)
    map(\\(i: i64) -> ([m][k]i64) {
      let a: i64 = mul(i, 100i64)
      let q: [m][k]i64 = screma(m)
        map(\\(j: i64) -> ([k]i64) {
          let b: i64 = add(a, j)
          let p: [k]i64 = screma(k)
            map(\\(l: i64) -> (i64) {
              let c: i64 = add(b, l)
              in (c)
            })
          in (p)
        })
      in (q)
    })
  in (r)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Nest(Nest {
            inner: SegOp::Map,
            depth: 3
        })]
    );
}

/// A middle map whose inner width is a row's value stops the nest at the
/// levels above it.
#[test]
fn row_dependent_widths_end_the_nest() {
    let src = "fun main(n: i64, m: i64, kss: [n][m]i64) -> ([n][m]i64) {
  let rss: [n][m]i64 = screma(n, kss)
    map(\\(ks: [m]i64) -> ([m]i64) {
      let rs: [m]i64 = screma(m, ks)
        map(\\(k: i64) -> (i64) {
          let s: i64 = screma(k)
            reduce(\\(a: i64, b: i64) -> (i64) {
              let c: i64 = add(a, b)
              in (c)
            }, 0i64)
            map(\\(x: i64) -> (i64) {
              in (x)
            })
          in (s)
        })
      in (rs)
    })
  in (rss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Nest(Nest {
            inner: SegOp::Map,
            depth: 2
        })]
    );
}

/// A map whose body builds a histogram per row (its destination made in
/// the body) has parallelism inside: the row's histogram is a segmented
/// histogram, split while the map leaves threads idle.
#[test]
fn map_of_hist_is_versioned_with_a_segmented_histogram() {
    let src = "fun main(n: i64, m: i64, iss: [n][m]i64) -> ([n][5]i64) {
  let hss: [n][5]i64 = screma(n, iss)
    map(\\(is: [m]i64) -> ([5]i64) {
      let d: [5]i64 = replicate([5], 0i64)
      let h: [5]i64 = hist(m, is)
        into((d), (0i64), \\(a: i64, b: i64) -> (i64) {
          let c: i64 = add(a, b)
          in (c)
        })
        map(\\(i: i64) -> (i64, i64) {
          in (i, 1i64)
        })
      in (h)
    })
  in (hss)
}
";
    assert_eq!(
        plans(src),
        vec![Plan::Versioned(SegOp::Map), Plan::Seg(SegOp::Hist)]
    );
}
