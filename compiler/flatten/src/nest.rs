//! Perfect nests: maps whose bodies are one SOAC over a space of the same
//! width for every row become one segmented operation over the
//! multi-dimensional space `[n_1]…[n_k][m]`.
//!
//! The nest `map (\r -> map g r) xss` (or `map (\r -> reduce op ne (map g
//! r)) xss`, a segmented reduction, or `map (\r -> scan op ne r) xss`, a
//! segmented scan) has `n * m` independent points. The backend splits the
//! points, not the rows, into chunks: a chunk runs the rows it covers (or
//! the parts of the first and last ones) sequentially, so there are enough
//! chunks when `n` is small and `m` large as well as the other way round,
//! and no work is repeated. Reductions of a row split between chunks are
//! combined with the operator in order; the scanned elements of a row that
//! a chunk starts in the middle of are offset by the totals of the row's
//! parts in the chunks before it. With at least one row per thread the
//! outer map alone is parallel (a guard at run time), which needs no
//! partial rows.
//!
//! Deeper perfect nests (`map (\xss -> map (\xs -> reduce op ne xs) xss)
//! xsss`) are one space too: the rows are then the combinations of the
//! indices of every map level, numbered row-major.

use ir::{Exp, Function, Operand, Screma, Stm, VarId};

use crate::{SegOp, has_accs, screma_seg_op};

/// The deepest nest formed (map levels plus the inner SOAC).
pub const MAX_DEPTH: usize = 4;

/// A perfect nest of maps over one inner SOAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nest {
    /// What the inner SOAC is on each row: [`SegOp::Map`], [`SegOp::Red`]
    /// (a reduction, possibly with mapped results beside it) or
    /// [`SegOp::Scan`] (scans, possibly with reductions and mapped results
    /// beside them).
    pub inner: SegOp,
    /// The number of levels: the maps and the inner SOAC (at least 2).
    pub depth: usize,
}

/// One map level of a perfect nest: its scalar prologue and the statement
/// holding the screma of the next level.
pub struct Level<'a> {
    /// The scalar statements before the next level's screma.
    pub prologue: &'a [Stm],
    /// The statement of the next level's screma.
    pub stm: &'a Stm,
    /// The next level's screma.
    pub next: &'a Screma,
}

/// The perfect nest screma `s` of function `f` forms, if it does: `s` is a
/// map (no scans or reductions) whose body is one screma statement (not
/// `#[sequential]`), after at most a few scalar statements (a prologue,
/// computed again by each chunk that covers part of a row: a bounded
/// amount of repeated work), and whose results are that screma's results
/// in order. That screma is a perfect nest itself (up to [`MAX_DEPTH`]
/// levels in all) or has maps, reductions and single-component scans of
/// scalars only. No width inside depends on a row (on a map parameter or a
/// prologue's result of a level around it), and there are no accumulators
/// at any level.
pub fn perfect_nest(f: &Function, s: &Screma) -> Option<Nest> {
    let levels = nest_levels(f, s)?;
    let last = levels.last()?.next;
    let inner = screma_seg_op(f, last)?;
    if has_accs(f, &last.inputs, &last.map) {
        return None;
    }
    Some(Nest {
        inner,
        depth: levels.len() + 1,
    })
}

/// The map levels of the perfect nest of screma `s`, from the outermost
/// in; the last one's `next` is the inner SOAC. `None` when `s` is no
/// perfect nest (see [`perfect_nest`]); the inner SOAC's own conditions
/// are not checked here.
pub fn nest_levels<'a>(f: &Function, s: &'a Screma) -> Option<Vec<Level<'a>>> {
    let mut levels: Vec<Level<'a>> = Vec::new();
    // Variables bound per row by the levels so far.
    let mut row_vars: Vec<VarId> = Vec::new();
    let mut cur = s;
    while let Some(level) = map_level(f, cur) {
        row_vars.extend(cur.map.params.iter().map(|p| p.var));
        row_vars.extend(level.prologue.iter().flat_map(|p| p.pat.iter().copied()));
        if let Operand::Var(v) = level.next.w
            && row_vars.contains(&v)
        {
            break;
        }
        // The next level must be usable as the inner SOAC or as a map
        // level of its own.
        if screma_seg_op(f, level.next).is_none()
            || has_accs(f, &level.next.inputs, &level.next.map)
        {
            break;
        }
        cur = level.next;
        levels.push(level);
        if levels.len() + 1 >= MAX_DEPTH {
            break;
        }
    }
    (!levels.is_empty()).then_some(levels)
}

/// Screma `s` as one map level: a map without accumulators whose body is
/// scalar statements and then one screma (not `#[sequential]`) whose
/// results are the body's results in order.
fn map_level<'a>(f: &Function, s: &'a Screma) -> Option<Level<'a>> {
    if screma_seg_op(f, s)? != SegOp::Map || has_accs(f, &s.inputs, &s.map) {
        return None;
    }
    let (stm, prologue) = s.map.body.stms.split_last()?;
    if !prologue.iter().all(|p| cheap_scalar(f, p)) || stm.attrs.contains(&ir::Attr::Sequential) {
        return None;
    }
    let Exp::Screma(next) = &stm.exp else {
        return None;
    };
    let results_in_order = s.map.body.result.len() == stm.pat.len()
        && s.map
            .body
            .result
            .iter()
            .zip(&stm.pat)
            .all(|(o, p)| *o == Operand::Var(*p));
    results_in_order.then_some(Level {
        prologue,
        stm,
        next,
    })
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
