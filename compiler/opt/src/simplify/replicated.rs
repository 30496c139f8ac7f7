//! Map inputs that hold one value in every row are that value.
//!
//! A `screma` input defined as a replicate of a scalar (`replicate(n, x)`,
//! or a map of no inputs whose body returns `x`, as reverse mode writes the
//! adjoint of a sum), or as a slice of the rows of one, gives every
//! iteration the element `x`. The input is dropped, and the lambda binds
//! its parameter to `x`:
//!
//! ```text
//! let xs = replicate n a        let xs = replicate n a
//! map (\x y -> x * y) xs ys  ⇒  map (\y -> let x = a in x * y) ys
//! ```
//!
//! The replicate itself goes with dead code once nothing else reads it, so
//! an adjoint loop no longer writes and reads back a row of copies of one
//! scalar. Only scalar elements (the input has one dimension) and
//! non-accumulator inputs.

use ir::{DimIndex, Exp, Operand, Screma, Stm, VarId};

use super::rules::{Ctx, Rewrite};

/// The rewrite of the module doc, when some input of `s` is replicated.
pub fn rewrite(cx: &mut dyn Ctx, s: &Screma) -> Option<Rewrite> {
    let found: Vec<(usize, Operand)> = s
        .inputs
        .iter()
        .enumerate()
        .filter(|(k, _)| *k < s.map.params.len())
        .filter_map(|(k, &inp)| {
            let ty = cx.var_type(inp)?;
            if ty.acc || ty.rank() != 1 {
                return None;
            }
            replicated(cx, inp).map(|x| (k, x))
        })
        .collect();
    if found.is_empty() {
        return None;
    }
    let mut new = s.clone();
    let mut binds = Vec::new();
    for &(k, x) in found.iter().rev() {
        new.inputs.remove(k);
        let p = new.map.params.remove(k);
        binds.push(Stm {
            pat: vec![p.var],
            exp: Exp::Atom(x),
            attrs: Vec::new(),
            span: ir::Span::NONE,
        });
    }
    binds.reverse();
    binds.append(&mut new.map.body.stms);
    new.map.body.stms = binds;
    Some(Rewrite::Exp(Exp::Screma(Box::new(new))))
}

/// The value every row of `v` holds, when `v` is a replicate of a scalar
/// or a slice of one's rows.
fn replicated(cx: &dyn Ctx, v: VarId) -> Option<Operand> {
    match cx.def(v)? {
        Exp::Replicate { shape, value } if shape.len() == 1 => Some(*value),
        Exp::Screma(r)
            if r.inputs.is_empty()
                && r.scans.is_empty()
                && r.reduces.is_empty()
                && r.map.body.stms.is_empty()
                && r.map.body.result.len() == 1 =>
        {
            let x = r.map.body.result[0];
            let own = |p: &ir::Param| x == Operand::Var(p.var);
            (!r.map.params.iter().any(own)).then_some(x)
        }
        Exp::Index(src, idx) if matches!(idx.as_slice(), [DimIndex::Range { .. }]) => {
            replicated(cx, *src)
        }
        _ => None,
    }
}
