//! Parallel scatter.
//!
//! A `scatter` outside any parallel operation runs as a parallel loop when
//! its map computes something or it writes rows: each iteration computes
//! its indices and value and writes the value in place (the map body, or
//! the copy of a row, is where the work is). Futhark allows an index to
//! repeat only when every write to it has the same value, so the order of
//! the writes does not matter. Out-of-bounds writes are ignored, as
//! everywhere.
//!
//! A map that computes nothing and writes rows whose number and sizes are
//! constants adding up to at most [`SMALL_ROWS`] elements stays the
//! sequential loop: a parallel loop's call would cost more than its work
//! (such scatters come from array literals, often in a sequential loop).

use ir::{Function, Operand, PrimValue, Scatter, Size};

/// The most elements a scatter of rows with a map computing nothing,
/// counted at compile time, writes and stays sequential.
pub const SMALL_ROWS: i64 = 1 << 12;

/// Whether scatter `s` of function `f` runs in parallel: its map computes
/// something, or one of its values is a row and the scatter is not known
/// to be small (a map that only passes scalar inputs on leaves only the
/// writes of single elements, which are memory-bound); no input or
/// destination is an accumulator and the map returns none.
pub fn parallel(f: &Function, s: &Scatter) -> bool {
    let work = !s.map.body.stms.is_empty() || (writes_rows(f, s) && !known_small(s));
    work && !crate::has_accs(f, &s.inputs, &s.map)
        && !s.dests.iter().any(|d| crate::is_acc(f, &d.arr))
}

/// Whether scatter `s` of function `f` writes rows into some destination:
/// one with more dimensions than the indices that address it.
pub fn writes_rows(f: &Function, s: &Scatter) -> bool {
    s.dests
        .iter()
        .any(|d| f.var_type(d.arr).is_some_and(|t| t.shape.len() > d.rank))
}

/// Whether scatter `s` has a constant number of iterations and values of
/// constant shapes (its map's result types, which the destinations' rows
/// must match), writing at most [`SMALL_ROWS`] elements.
fn known_small(s: &Scatter) -> bool {
    let Operand::Const(PrimValue::I64(w)) = s.w else {
        return false;
    };
    let mut elems = 0i64;
    let mut off = 0;
    for d in &s.dests {
        let Some(t) = s.map.ret.get(off + d.rank) else {
            return false;
        };
        off += d.rank + 1;
        let mut row = 1i64;
        for dim in &t.shape {
            let Size::Const(n) = dim else {
                return false;
            };
            row = row.saturating_mul(*n);
        }
        elems = elems.saturating_add(w.max(0).saturating_mul(row));
    }
    elems <= SMALL_ROWS
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

    #[test]
    fn small_constant_rows_passed_on_stay_sequential() {
        // `dm`: the destination's row size, a variable in a loop's
        // parameter even when the values' rows are constants.
        let src = |w: i64, m: i64, dm: &str| {
            format!(
                "fun main(n: i64, m: i64, is: [{w}]i64, rs: [{w}][{m}]f64, d: [n][{dm}]f64) -> ([n][{dm}]f64) {{
  let r: [n][{dm}]f64 = scatter({w}i64, is, rs)
    into(d@1)
    map(\\(i: i64, row: [{m}]f64) -> (i64, [{m}]f64) {{
      in (i, row)
    }})
  in (r)
}}
"
            )
        };
        assert!(!planned(&src(2, 4, "4")));
        assert!(!planned(&src(2, 4, "m")));
        assert!(!planned(&src(64, 64, "64")));
        assert!(planned(&src(65, 64, "64")));
    }
}
