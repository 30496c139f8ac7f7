//! Flattening, first version: which SOACs of the core IR run as parallel
//! segmented operations, over which iteration space.
//!
//! The core IR's SOACs nest; a backend runs some levels of them in
//! parallel and the levels inside sequentially. This crate decides, for
//! each SOAC statement, its [`Plan`]:
//!
//! - a `screma` outside any other parallel operation becomes a `SegMap`
//!   (map results only), a `SegRed` (with reductions) or a `SegScan` (with
//!   scans), when every scan and reduction operand is a scalar (operators
//!   on tuples included), there is no scan if an input is an accumulator,
//!   and the statement is not marked `#[sequential]`. Accumulators are
//!   updated per chunk: partial accumulators, combined with their operator
//!   afterwards (the backend runs the statement sequentially when an
//!   accumulator has no operator);
//! - a perfect nest — a map whose body is only a map, a map-reduce or a
//!   scan over an iteration space of the same size for every row, or
//!   another perfect nest (up to [`nest::MAX_DEPTH`] levels) — becomes one
//!   segmented operation over the multi-dimensional space `[n]…[m]`
//!   ([`nest`]): a `SegMap`, a segmented reduction or a segmented scan,
//!   chunked over all the points, so parallelism is there whether the
//!   outer or the inner widths are large. The backend uses it when there
//!   are fewer rows of the outermost map than threads, and the outer map
//!   alone otherwise (whole rows per chunk);
//! - a map whose body holds parallel operations but is no perfect nest
//!   (several of them, a loop around them, scalar work between them) is a
//!   segmented operation whose body's operations are segmented operations
//!   themselves ([`inside`]); at run time those are split only while the
//!   map's own chunks leave threads idle (fewer rows than threads), so with
//!   a row per thread the body runs sequentially. That is what
//!   distributing the map over its body's statements and interchanging it
//!   inwards would give, without duplicating any of the body's work;
//! - a `hist` outside any other parallel operation becomes a `SegHist` when
//!   every destination is one-dimensional and no input is an accumulator;
//! - a `scatter` outside any other parallel operation whose map computes
//!   something or whose values are rows, without accumulator inputs, is
//!   parallel ([`scatter`]): its iterations compute their indices and
//!   values and write them in place
//!   (Futhark allows repeated indices only with equal values, so the order
//!   of the writes does not matter), out-of-bounds writes ignored;
//! - everything nested inside a segmented operation is sequential (a tight
//!   loop in the body of one chunk of the parallel iteration space).

pub mod inside;
pub mod layout;
pub mod nest;
pub mod scatter;

use ir::{Exp, Function, Screma, Stm};

/// The kind of segmented operation a SOAC statement becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SegOp {
    /// A parallel map.
    Map,
    /// A parallel map with reductions (per-chunk partials combined in order).
    Red,
    /// A parallel map with scans (and possibly reductions): per-chunk scans,
    /// then each chunk offset by the totals before it.
    Scan,
    /// A parallel histogram (per-chunk partial histograms, combined).
    Hist,
}

impl SegOp {
    /// The name of the segmented operation.
    pub fn name(self) -> &'static str {
        match self {
            SegOp::Map => "segmap",
            SegOp::Red => "segred",
            SegOp::Scan => "segscan",
            SegOp::Hist => "seghist",
        }
    }
}

/// How a SOAC statement outside any other parallel operation runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// One segmented operation over the statement's iteration space.
    Seg(SegOp),
    /// A perfect nest: one segmented operation over the multi-dimensional
    /// space of the maps and the SOAC innermost in them ([`nest`]).
    Nest(nest::Nest),
    /// A segmented operation whose body's parallel operations are
    /// segmented operations too, split at run time only while the map
    /// leaves threads idle ([`inside`]).
    Versioned(SegOp),
    /// A parallel scatter ([`scatter`]).
    Scatter,
}

/// The plan of statement `stm` of function `f` when it is not nested
/// inside a parallel operation; `None` when it runs sequentially.
pub fn plan(f: &Function, stm: &Stm) -> Option<Plan> {
    plan_with(f, stm, true)
}

/// [`plan`], with reductions of arrays ([`array_reduction`]) parallel only
/// when `arrays` is set: a map whose body holds one is not a map with
/// parallelism inside for that ([`inside::has_parallel_inside`]), since
/// nested in a parallel operation such a reduction runs sequentially.
pub(crate) fn plan_with(f: &Function, stm: &Stm, arrays: bool) -> Option<Plan> {
    if stm.attrs.contains(&ir::Attr::Sequential) {
        return None;
    }
    match &stm.exp {
        Exp::Screma(s) => {
            let op = screma_seg_op(f, s)
                .or_else(|| (arrays && array_reduction(s)).then_some(SegOp::Red))?;
            if let Some(n) = nest::perfect_nest(f, s) {
                Some(Plan::Nest(n))
            } else if inside::versioned(f, s) {
                Some(Plan::Versioned(op))
            } else {
                Some(Plan::Seg(op))
            }
        }
        Exp::Hist(h) => hist_seg_op(f, h).map(Plan::Seg),
        Exp::Scatter(sc) => scatter::parallel(f, sc).then_some(Plan::Scatter),
        _ => None,
    }
}

/// The segmented operation statement `stm` of function `f` becomes, when
/// it is not nested inside another one; `None` when it runs sequentially.
pub fn seg_op(f: &Function, stm: &Stm) -> Option<SegOp> {
    if stm.attrs.contains(&ir::Attr::Sequential) {
        return None;
    }
    match &stm.exp {
        Exp::Screma(s) => screma_seg_op(f, s),
        Exp::Hist(h) => hist_seg_op(f, h),
        _ => None,
    }
}

/// Whether variable `v` of function `f` is an accumulator (or has no
/// known type).
pub(crate) fn is_acc(f: &Function, v: &ir::VarId) -> bool {
    f.var_type(*v).is_none_or(|t| t.acc)
}

/// Whether a SOAC with inputs `inputs` and map `map` has an accumulator
/// among its inputs or its map's results.
pub(crate) fn has_accs(f: &Function, inputs: &[ir::VarId], map: &ir::Lambda) -> bool {
    inputs.iter().any(|v| is_acc(f, v)) || map.ret.iter().any(|t| t.acc)
}

fn hist_seg_op(f: &Function, h: &ir::Hist) -> Option<SegOp> {
    if h.inputs.iter().any(|v| is_acc(f, v)) {
        return None;
    }
    let one_dim = |v: &ir::VarId| f.var_type(*v).is_some_and(|t| t.rank() == 1 && !t.acc);
    if !h.hists.iter().all(|op| op.dests.iter().all(one_dim)) {
        return None;
    }
    h.map
        .ret
        .iter()
        .all(|t| t.is_scalar())
        .then_some(SegOp::Hist)
}

/// The segmented operation a screma becomes on its own iteration space,
/// if any (see the module documentation for the conditions).
pub fn screma_seg_op(f: &Function, s: &Screma) -> Option<SegOp> {
    if has_accs(f, &s.inputs, &s.map) && !s.scans.is_empty() {
        return None;
    }
    let n_scan: usize = s.scans.iter().map(|x| x.neutral.len()).sum();
    let n_red: usize = s.reduces.iter().map(|x| x.neutral.len()).sum();
    let operands = s.map.ret.get(..n_scan + n_red)?;
    if operands.iter().any(|t| !t.is_scalar()) {
        return None;
    }
    Some(if n_scan > 0 {
        SegOp::Scan
    } else if n_red > 0 {
        SegOp::Red
    } else {
        SegOp::Map
    })
}

/// Whether screma `s` is a reduction some of whose operands are arrays
/// (reverse-mode AD sums the adjoints of an array that every iteration
/// reads this way: `reduce (map2 (+))`), without scans: a `SegRed` whose
/// chunks keep partial arrays, combined in chunk order (the backend runs
/// it so only outside any other parallel operation).
pub fn array_reduction(s: &Screma) -> bool {
    let n_red: usize = s.reduces.iter().map(|x| x.neutral.len()).sum();
    let Some(operands) = s.map.ret.get(..n_red) else {
        return false;
    };
    s.scans.is_empty()
        && n_red > 0
        && operands.iter().all(|t| !t.acc)
        && operands.iter().any(|t| !t.is_scalar())
}

/// The plans of the SOACs at a function's top level (the statements of
/// its body and of the bodies of its top-level loops and branches), in
/// order, with the plans inside versioned maps' bodies after them (those
/// split when the map leaves threads idle); for tests.
pub fn top_level_plans(f: &Function) -> Vec<Plan> {
    fn body(f: &Function, b: &ir::Body, out: &mut Vec<Plan>) {
        for s in &b.stms {
            if let Some(p) = plan(f, s) {
                let inner = match (&p, &s.exp) {
                    (Plan::Versioned(_), Exp::Screma(sc)) => Some(&sc.map.body),
                    _ => None,
                };
                out.push(p);
                if let Some(b) = inner {
                    body(f, b, out);
                }
                continue;
            }
            for (_, nb) in ir::uses::nested_bodies(&s.exp) {
                if matches!(s.exp, Exp::If { .. } | Exp::Loop { .. }) {
                    body(f, nb, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    body(f, &f.body, &mut out);
    out
}

/// The segmented operations of a function's top level (the statements of
/// its body and of the bodies of its top-level loops and branches), in
/// order; for tests and `structure`-style counts.
pub fn top_level_seg_ops(f: &Function) -> Vec<SegOp> {
    fn body(f: &Function, b: &ir::Body, out: &mut Vec<SegOp>) {
        for s in &b.stms {
            if let Some(op) = seg_op(f, s) {
                out.push(op);
                continue;
            }
            match &s.exp {
                Exp::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    body(f, then_body, out);
                    body(f, else_body, out);
                }
                Exp::Loop { body: b, .. } => body(f, b, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    body(f, &f.body, &mut out);
    out
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod basic_tests {
    use super::*;

    #[test]
    fn maps_reductions_and_scans_become_segmented_operations() {
        let src = "fun main(n: i64, xs: [n]f64) -> (f64, [n]f64, [n]f64) {
  let s: f64 = screma(n, xs)
    reduce(\\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\\(x: f64) -> (f64) {
      in (x)
    })
  let ys: [n]f64 = screma(n, xs)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      in (y)
    })
  let zs: [n]f64 = screma(n, xs)
    scan(\\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\\(x: f64) -> (f64) {
      in (x)
    })
  in (s, ys, zs)
}
";
        let prog = ir::parse::parse_program(src).unwrap();
        let f = prog.functions.values().next().unwrap();
        assert_eq!(
            top_level_seg_ops(f),
            vec![SegOp::Red, SegOp::Map, SegOp::Scan]
        );
    }
}
