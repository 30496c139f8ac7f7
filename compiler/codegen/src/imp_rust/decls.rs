//! Where the scalar variables of emitted code are declared.
//!
//! A variable is declared in the innermost block that holds every mention
//! of it (a parallel loop's body counts as one statement of the block
//! around it, unless the body sets the variable, which then belongs to the
//! body). When the first of those statements is an assignment of the
//! variable (`x = e` or `x = m[p]`, the right side not mentioning it), the
//! assignment declares it (`let mut x: T = e;`): the block runs its
//! statements in order, so every mention follows it, at every iteration
//! of a loop whose body the block is. Otherwise it is declared with a
//! placeholder value at the top of that block. A variable never mentioned
//! is not declared.

use std::collections::{HashMap, HashSet};

use crate::imp::{Arg, Block, SExp, SVar, Slot, Stm, View};

/// The declarations of one function or parallel loop body (or of several:
/// their blocks and statements are distinct).
#[derive(Debug, Default)]
pub struct Decls {
    /// The assignments that declare their variable (statement addresses).
    pub at_stm: HashSet<usize>,
    /// The variables declared with a placeholder at the top of a block
    /// (block addresses).
    pub at_block: HashMap<usize, Vec<SVar>>,
}

impl Decls {
    /// Adds the declarations of another body.
    pub fn extend(&mut self, other: Decls) {
        self.at_stm.extend(other.at_stm);
        self.at_block.extend(other.at_block);
    }
}

/// The address of a block, naming it in [`Decls::at_block`].
pub fn block_key(b: &Block) -> usize {
    b as *const Block as usize
}

/// Where a mention is: the statement index and child block (`THIS`: the
/// statement itself) at each level from the root down.
type Path = Vec<(usize, u8)>;

/// A mention in the statement itself, not in one of its blocks.
const THIS: u8 = u8::MAX;

/// The declarations of `locals` in the body `root`, whose end mentions
/// `tail` (a function's scalar results); `sets_in_par(body)` gives the
/// variables a nested parallel loop's body sets (its own). `None` when
/// `root` holds a statement this module does not know: the caller then
/// declares every local at the top.
pub fn plan(
    root: &Block,
    locals: &HashSet<SVar>,
    tail: &[SVar],
    sets_in_par: &dyn Fn(&Block) -> HashSet<SVar>,
) -> Option<Decls> {
    let mut refs: HashMap<SVar, Vec<Path>> = HashMap::new();
    let mut path = Vec::new();
    walk(root, locals, sets_in_par, &mut path, &mut refs)?;
    for v in tail {
        if locals.contains(v) {
            refs.entry(*v)
                .or_default()
                .push(vec![(root.stms.len(), THIS)]);
        }
    }
    let mut decls = Decls::default();
    let mut vars: Vec<_> = refs.into_iter().collect();
    vars.sort_by_key(|(v, _)| *v);
    for (v, paths) in vars {
        let first_path = &paths[0];
        let mut k = first_path.len() - 1;
        for p in &paths[1..] {
            let common = first_path
                .iter()
                .zip(p)
                .take_while(|(a, b)| a == b && a.1 != THIS)
                .count();
            k = k.min(common);
        }
        // The block holding every mention.
        let mut b = root;
        for &(i, c) in &first_path[..k] {
            b = child(&b.stms[i], c)?;
        }
        let first = paths.iter().map(|p| p[k].0).min()?;
        let only_there = paths
            .iter()
            .filter(|p| p[k].0 == first)
            .all(|p| p.len() == k + 1);
        let declares = only_there
            && b.stms.get(first).is_some_and(|s| match s {
                Stm::Assign { var, exp, .. } => *var == v && !mentions(exp, v),
                Stm::Read { var, view, idx } => {
                    *var == v && !view_mentions(view, v) && !idx.iter().any(|e| mentions(e, v))
                }
                _ => false,
            });
        if declares {
            decls.at_stm.insert(super::ranges::stm_key(&b.stms[first]));
        } else {
            decls.at_block.entry(block_key(b)).or_default().push(v);
        }
    }
    Some(decls)
}

/// Block `c` of statement `s`.
fn child(s: &Stm, c: u8) -> Option<&Block> {
    match (s, c) {
        (Stm::For { body, .. } | Stm::While { body, .. } | Stm::Planned { body, .. }, 0) => {
            Some(body)
        }
        (Stm::If { then_block, .. }, 0) => Some(then_block),
        (Stm::If { else_block, .. }, 1) => Some(else_block),
        _ => None,
    }
}

/// The child block of a parallel loop (its body, a root of its own).
const PAR: u8 = 2;

/// The variables statement `s` mentions itself, into `here`, and its
/// blocks, into `blocks`; `None` for a statement this module does not
/// know.
fn own<'a>(s: &'a Stm, here: &mut Vec<SVar>, blocks: &mut Vec<(u8, &'a Block)>) -> Option<()> {
    match s {
        Stm::Assign { var, exp, .. } => {
            here.push(*var);
            vars_of(exp, here);
        }
        Stm::Read { var, view, idx } => {
            here.push(*var);
            view_vars(view, here);
            idx.iter().for_each(|e| vars_of(e, here));
        }
        Stm::Write { view, idx, value } => {
            view_vars(view, here);
            idx.iter().for_each(|e| vars_of(e, here));
            vars_of(value, here);
        }
        Stm::Copy { dst, src, .. } => {
            view_vars(dst, here);
            view_vars(src, here);
        }
        Stm::Alloc { count, .. } => vars_of(count, here),
        Stm::SwapMem(..) | Stm::AliasMem { .. } => {}
        Stm::For { i, bound, body } => {
            here.push(*i);
            vars_of(bound, here);
            blocks.push((0, body));
        }
        Stm::While { cond, body } => {
            vars_of(cond, here);
            blocks.push((0, body));
        }
        Stm::If {
            cond,
            then_block,
            else_block,
        } => {
            vars_of(cond, here);
            blocks.push((0, then_block));
            blocks.push((1, else_block));
        }
        Stm::Planned { body, .. } => blocks.push((0, body)),
        Stm::ParFor { sizes, body, .. } => {
            // Its index variables are the loop's own.
            sizes.iter().for_each(|e| vars_of(e, here));
            blocks.push((PAR, body));
        }
        Stm::Call { args, results, .. } => {
            for a in args {
                if let Arg::Scalar(e) = a {
                    vars_of(e, here);
                }
            }
            for r in results {
                if let Slot::Scalar(v) = r {
                    here.push(*v);
                }
            }
        }
        Stm::Assert { cond, args, .. } => {
            vars_of(cond, here);
            args.iter().for_each(|e| vars_of(e, here));
        }
        #[allow(unreachable_patterns)]
        _ => return None,
    }
    Some(())
}

/// Records the mentions of `locals` in `b` (at `path`).
fn walk(
    b: &Block,
    locals: &HashSet<SVar>,
    sets_in_par: &dyn Fn(&Block) -> HashSet<SVar>,
    path: &mut Path,
    refs: &mut HashMap<SVar, Vec<Path>>,
) -> Option<()> {
    for (i, s) in b.stms.iter().enumerate() {
        let mut here = Vec::new();
        let mut blocks = Vec::new();
        own(s, &mut here, &mut blocks)?;
        for (c, body) in blocks {
            if c == PAR {
                // What the body only reads is mentioned by the loop; its
                // index variables and what it sets are its own.
                let mut inner_own = sets_in_par(body);
                if let Stm::ParFor { ids, .. } = s {
                    inner_own.extend(ids.iter().copied());
                }
                let mut inner = Vec::new();
                mentioned(body, &mut inner)?;
                here.extend(inner.into_iter().filter(|v| !inner_own.contains(v)));
            } else {
                path.push((i, c));
                walk(body, locals, sets_in_par, path, refs)?;
                path.pop();
            }
        }
        for v in here {
            if locals.contains(&v) {
                let mut p = path.clone();
                p.push((i, THIS));
                refs.entry(v).or_default().push(p);
            }
        }
    }
    Some(())
}

/// Every variable `b` mentions, nested blocks included.
fn mentioned(b: &Block, out: &mut Vec<SVar>) -> Option<()> {
    for s in &b.stms {
        let mut blocks = Vec::new();
        own(s, out, &mut blocks)?;
        for (_, body) in blocks {
            mentioned(body, out)?;
        }
    }
    Some(())
}

/// The variables of `e`, into `out`.
fn vars_of(e: &SExp, out: &mut Vec<SVar>) {
    match e {
        SExp::Var(v) => out.push(*v),
        SExp::Const(_) => {}
        SExp::UnOp(_, x) | SExp::Convert(_, _, x) => vars_of(x, out),
        SExp::BinOp(_, x, y) | SExp::Cmp(_, x, y) => {
            vars_of(x, out);
            vars_of(y, out);
        }
        SExp::Math(_, args) => args.iter().for_each(|a| vars_of(a, out)),
        SExp::Chunks { w, .. } => vars_of(w, out),
    }
}

/// The variables of a view's offset, shape and strides, into `out`.
fn view_vars(v: &View, out: &mut Vec<SVar>) {
    vars_of(&v.offset, out);
    v.shape.iter().for_each(|e| vars_of(e, out));
    v.strides.iter().for_each(|e| vars_of(e, out));
}

/// Whether `e` mentions `v`.
fn mentions(e: &SExp, v: SVar) -> bool {
    let mut out = Vec::new();
    vars_of(e, &mut out);
    out.contains(&v)
}

/// Whether view `view` mentions `v`.
fn view_mentions(view: &View, v: SVar) -> bool {
    let mut out = Vec::new();
    view_vars(view, &mut out);
    out.contains(&v)
}
