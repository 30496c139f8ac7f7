//! Turning the accumulators a `screma` threads through its map into
//! reductions: the part shared by the `acc_to_red` pass and the reverse
//! mode of accumulators in the `ad` crate.
//!
//! A `screma` that takes an accumulator as an input passes it to its map
//! lambda as a parameter and gets it back as one of the lambda's map
//! results: [`threaded_accs`] pairs the two positions. A rewrite that sums
//! (some of) an accumulator's updates by a reduction instead drops the
//! accumulator's input, parameter, result and pattern variable, and adds a
//! reduction after the existing ones: [`accs_to_reductions`] rebuilds the
//! `screma` so.

use std::collections::HashSet;

use ir::syntax::*;
use ir::{Operand, Type, VarId};

/// An accumulator a `screma` threads through its map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadedAcc {
    /// Its position among the inputs (and the map lambda's parameters).
    pub input: usize,
    /// The position of the lambda result it comes back as (and of the
    /// `screma`'s pattern variable bound to it).
    pub result: usize,
}

/// The accumulators `s` threads through its map, in order: the `k`-th
/// accumulator input (by `is_acc`) comes back as the `k`-th accumulator map
/// result. `None` when the counts differ (a malformed `screma`).
pub fn threaded_accs(s: &Screma, is_acc: impl Fn(VarId) -> bool) -> Option<Vec<ThreadedAcc>> {
    let first_map = scan_red_results(s);
    let inputs: Vec<usize> = (0..s.inputs.len())
        .filter(|&j| is_acc(s.inputs[j]))
        .collect();
    let results: Vec<usize> = (first_map.min(s.map.ret.len())..s.map.ret.len())
        .filter(|&r| s.map.ret[r].acc)
        .collect();
    if inputs.len() != results.len() {
        return None;
    }
    Some(
        inputs
            .into_iter()
            .zip(results)
            .map(|(input, result)| ThreadedAcc { input, result })
            .collect(),
    )
}

/// The number of the map lambda's results that go to scans and
/// reductions (they come first).
pub fn scan_red_results(s: &Screma) -> usize {
    s.scans
        .iter()
        .chain(&s.reduces)
        .map(|sr| sr.neutral.len())
        .sum()
}

/// A reduction to add to a `screma`.
#[derive(Clone, Debug)]
pub struct AddedReduction {
    /// The operator and neutral element.
    pub op: ScanRed,
    /// The type of the reduced values.
    pub ty: Type,
    /// The map lambda's result it reduces.
    pub value: Operand,
    /// The variable bound to the reduced value.
    pub var: VarId,
}

/// The statement binding `stm`'s `screma` `s` rewritten: the map lambda is
/// `map` (with the parameters, results and return types of `s.map`, in the
/// same positions) and the pattern `pat`; the accumulators `dropped` leave
/// it (their inputs, parameters, results and pattern variables), and the
/// reductions `added` come after the existing ones.
pub fn accs_to_reductions(
    stm: &Stm,
    s: &Screma,
    mut map: Lambda,
    mut pat: Vec<VarId>,
    dropped: &[ThreadedAcc],
    added: Vec<AddedReduction>,
) -> Stm {
    let drop_inputs: HashSet<usize> = dropped.iter().map(|d| d.input).collect();
    let drop_results: HashSet<usize> = dropped.iter().map(|d| d.result).collect();
    let inputs = without(s.inputs.clone(), &drop_inputs);
    map.params = without(std::mem::take(&mut map.params), &drop_inputs);
    map.ret = without(std::mem::take(&mut map.ret), &drop_results);
    map.body.result = without(std::mem::take(&mut map.body.result), &drop_results);
    pat = without(pat, &drop_results);
    let at = scan_red_results(s);
    let mut reduces = s.reduces.clone();
    let mut ret = Vec::new();
    let mut result = Vec::new();
    let mut vars = Vec::new();
    for a in added {
        reduces.push(a.op);
        ret.push(a.ty);
        result.push(a.value);
        vars.push(a.var);
    }
    map.ret.splice(at..at, ret);
    map.body.result.splice(at..at, result);
    pat.splice(at..at, vars);
    Stm {
        pat,
        exp: Exp::Screma(Box::new(Screma {
            w: s.w,
            inputs,
            scans: s.scans.clone(),
            reduces,
            map,
        })),
        attrs: stm.attrs.clone(),
        span: stm.span,
    }
}

/// `xs` without the elements at the positions in `drop`.
fn without<T>(xs: Vec<T>, drop: &HashSet<usize>) -> Vec<T> {
    xs.into_iter()
        .enumerate()
        .filter(|(i, _)| !drop.contains(i))
        .map(|(_, x)| x)
        .collect()
}
