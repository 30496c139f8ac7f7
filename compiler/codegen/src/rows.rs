//! Which rows of a SOAC's inputs can be borrowed instead of copied.
//!
//! Each iteration of a SOAC over an array of rank two or more binds a row
//! of it to a parameter of the map function. Where the function only reads
//! that row's elements (indexes it, or passes it on as an input of a nested
//! SOAC, whose iterations read its rows in turn), the generated code binds a
//! borrowed view of the row (`Arr::row_ref`, the runtime's `Row`): no
//! allocation and no copy per iteration. Any other use (returning the row,
//! aliasing it, passing it to a function, updating it) needs an array of
//! its own, and the row is copied (`Arr::row`).

use ir::walk::{Occ, walk_body};
use ir::{Body, Exp, VarId};

/// Whether every use of the array `p` in `b` (nested bodies included) reads
/// it: indexing, or an input of a nested `screma`, `hist` or `scatter`.
pub fn read_only(b: &Body, p: VarId) -> bool {
    let mut all = 0usize;
    walk_body(b, &mut |o| {
        if o == Occ::Use(p) {
            all += 1;
        }
    });
    all == reads(b, p)
}

/// The uses of `p` in `b` that only read it.
fn reads(b: &Body, p: VarId) -> usize {
    let mut n = 0;
    for s in &b.stms {
        n += match &s.exp {
            Exp::Index(a, _) => usize::from(*a == p),
            Exp::Screma(x) => x.inputs.iter().filter(|v| **v == p).count(),
            Exp::Hist(x) => x.inputs.iter().filter(|v| **v == p).count(),
            Exp::Scatter(x) => x.inputs.iter().filter(|v| **v == p).count(),
            _ => 0,
        };
        for (_, nb) in ir::uses::nested_bodies(&s.exp) {
            n += reads(nb, p);
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_of(src: &str) -> ir::Lambda {
        crate::cost::tests::map_lambda(src).1
    }

    #[test]
    fn rows_only_indexed_are_borrowed() {
        let indexed = map_of(
            "fun main(n: i64, xss: [n][3]f64) -> ([n]f64) {
  let ys: [n]f64 = screma(n, xss)
    map(\\(xs: [3]f64) -> (f64) {
      let a: f64 = xs[0i64]
      let b: f64 = xs[2i64]
      let c: f64 = add(a, b)
      in (c)
    })
  in (ys)
}
",
        );
        assert!(read_only(&indexed.body, indexed.params[0].var));
        let returned = map_of(
            "fun main(n: i64, xss: [n][3]f64) -> ([n][3]f64) {
  let ys: [n][3]f64 = screma(n, xss)
    map(\\(xs: [3]f64) -> ([3]f64) {
      let a: f64 = xs[0i64]
      let zs: [3]f64 = copy(xs)
      in (zs)
    })
  in (ys)
}
",
        );
        assert!(!read_only(&returned.body, returned.params[0].var));
    }
}
