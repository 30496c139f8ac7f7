//! Perfect nests: a map whose body is one SOAC over a space of the same
//! width for every row becomes one segmented operation over the
//! two-dimensional space `[n][m]`.
//!
//! The nest `map (\r -> map g r) xss` (or `map (\r -> reduce op ne (map g
//! r)) xss`, a segmented reduction) has `n * m` independent points. The
//! backend splits the points, not the rows, into chunks: a chunk runs the
//! rows it covers (or the parts of the first and last ones) sequentially,
//! so there are enough chunks when `n` is small and `m` large as well as
//! the other way round, and no work is repeated. Reductions of a row split
//! between chunks are combined with the operator in order. With at least
//! one row per thread the outer map alone is parallel (a guard at run
//! time), which needs no partial rows.

use ir::{Exp, Function, Operand, Screma};

use crate::{SegOp, has_accs, screma_seg_op};

/// A perfect nest of a map over one inner SOAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nest {
    /// What the inner SOAC is on each row: [`SegOp::Map`] or [`SegOp::Red`]
    /// (a reduction, possibly with mapped results beside it).
    pub inner: SegOp,
}

/// The perfect nest screma `s` of function `f` forms, if it does: `s` is a
/// map (no scans or reductions) whose body is one screma statement with
/// maps and reductions only (not `#[sequential]`), after at most a few
/// scalar statements (a prologue, computed again by each chunk that covers
/// part of the row: a bounded amount of repeated work), and whose results
/// are the inner screma's results in order; the inner width does not
/// depend on the row; no accumulators anywhere at these two levels.
pub fn perfect_nest(f: &Function, s: &Screma) -> Option<Nest> {
    if screma_seg_op(f, s)? != SegOp::Map || has_accs(f, &s.inputs, &s.map) {
        return None;
    }
    let (stm, prologue) = s.map.body.stms.split_last()?;
    if !prologue.iter().all(|p| cheap_scalar(f, p)) {
        return None;
    }
    if stm.attrs.contains(&ir::Attr::Sequential) {
        return None;
    }
    let Exp::Screma(inner) = &stm.exp else {
        return None;
    };
    let kind = screma_seg_op(f, inner)?;
    if !matches!(kind, SegOp::Map | SegOp::Red) || has_accs(f, &inner.inputs, &inner.map) {
        return None;
    }
    let results_in_order = s.map.body.result.len() == stm.pat.len()
        && s.map
            .body
            .result
            .iter()
            .zip(&stm.pat)
            .all(|(o, p)| *o == Operand::Var(*p));
    let row_invariant_width = match inner.w {
        Operand::Const(_) => true,
        Operand::Var(v) => {
            s.map.params.iter().all(|p| p.var != v) && prologue.iter().all(|p| !p.pat.contains(&v))
        }
    };
    (results_in_order && row_invariant_width).then_some(Nest { inner: kind })
}

/// Whether statement `s` is cheap scalar work: an arithmetic, comparison,
/// conversion or math operation, a scalar alias, the read of one element,
/// or an assertion.
fn cheap_scalar(f: &Function, s: &ir::Stm) -> bool {
    let scalars = s
        .pat
        .iter()
        .all(|v| f.var_type(*v).is_some_and(|t| t.is_scalar() && !t.acc));
    let cheap = match &s.exp {
        Exp::UnOp(..) | Exp::BinOp(..) | Exp::Cmp(..) | Exp::Convert(..) | Exp::Math(..) => true,
        Exp::Atom(_) | Exp::Assert { .. } => true,
        Exp::Index(_, idx) => idx.iter().all(|d| matches!(d, ir::DimIndex::Fix(_))),
        _ => false,
    };
    scalars && cheap
}
