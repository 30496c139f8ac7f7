//! Parallel scatter.
//!
//! A `scatter` outside any parallel operation runs as a parallel loop when
//! its map computes something or it writes rows: each iteration computes
//! its indices and value and writes the value in place (the map body, or
//! the copy of a row, is where the work is). Futhark allows an index to
//! repeat only when every write to it has the same value, so the order of
//! the writes does not matter. Out-of-bounds writes are ignored, as
//! everywhere.

use ir::{Function, Scatter};

/// Whether scatter `s` of function `f` runs in parallel: its map computes
/// something or one of its values is a row (a map that only passes scalar
/// inputs on leaves only the writes of single elements, which are
/// memory-bound), no input or destination is an accumulator and the map
/// returns none.
pub fn parallel(f: &Function, s: &Scatter) -> bool {
    (!s.map.body.stms.is_empty() || writes_rows(f, s))
        && !crate::has_accs(f, &s.inputs, &s.map)
        && !s.dests.iter().any(|d| crate::is_acc(f, &d.arr))
}

/// Whether scatter `s` of function `f` writes rows into some destination:
/// one with more dimensions than the indices that address it.
pub fn writes_rows(f: &Function, s: &Scatter) -> bool {
    s.dests
        .iter()
        .any(|d| f.var_type(d.arr).is_some_and(|t| t.shape.len() > d.rank))
}

#[cfg(test)]
mod tests {
    //! Which scatters are planned as parallel.

    fn planned(src: &str) -> bool {
        let prog = ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{e}"));
        let f = prog
            .functions
            .values()
            .next()
            .unwrap_or_else(|| panic!("no function"));
        let stm = f
            .body
            .stms
            .iter()
            .find(|s| matches!(s.exp, ir::Exp::Scatter(_)))
            .unwrap_or_else(|| panic!("no scatter"));
        crate::plan(f, stm) == Some(crate::Plan::Scatter)
    }

    #[test]
    fn rows_passed_on_are_parallel() {
        let src = "fun main(n: i64, k: i64, m: i64, is: [k]i64, rs: [k][m]f64, d: [n][m]f64) -> ([n][m]f64) {
  let r: [n][m]f64 = scatter(k, is, rs)
    into(d@1)
    map(\\(i: i64, row: [m]f64) -> (i64, [m]f64) {
      in (i, row)
    })
  in (r)
}
";
        assert!(planned(src));
    }

    #[test]
    fn scalars_passed_on_stay_sequential() {
        let src = "fun main(n: i64, k: i64, is: [k]i64, js: [k]i64, vs: [k]f64, d: [n][n]f64) -> ([n][n]f64) {
  let r: [n][n]f64 = scatter(k, is, js, vs)
    into(d@2)
    map(\\(i: i64, j: i64, v: f64) -> (i64, i64, f64) {
      in (i, j, v)
    })
  in (r)
}
";
        assert!(!planned(src));
    }

    #[test]
    fn rows_under_two_indices_are_parallel() {
        let src = "fun main(n: i64, k: i64, m: i64, is: [k]i64, rs: [k][m]f64, d: [n][n][m]f64) -> ([n][n][m]f64) {
  let r: [n][n][m]f64 = scatter(k, is, rs)
    into(d@2)
    map(\\(i: i64, row: [m]f64) -> (i64, i64, [m]f64) {
      let j: i64 = add(i, 1i64)
      in (i, j, row)
    })
  in (r)
}
";
        assert!(planned(src));
    }
}
