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

use crate::imp::{Block, SVar, Stm};

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
                Stm::Assign { var, exp, .. } => *var == v && !exp.mentions(v),
                Stm::Read { var, view, idx } => {
                    let mut reads = false;
                    view.for_each_exp(&mut |e| reads |= e.mentions(v));
                    *var == v && !reads && !idx.iter().any(|e| e.mentions(v))
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
    if matches!(s, Stm::AtomicUpdate { .. }) {
        return None;
    }
    // A parallel loop's index variables are the loop's own.
    if !matches!(s, Stm::ParFor { .. }) {
        s.for_each_set(&mut |v| here.push(v));
    }
    s.for_each_exp(&mut |e| e.for_each_var(&mut |v| here.push(v)));
    match s {
        Stm::For { body, .. } | Stm::While { body, .. } | Stm::Planned { body, .. } => {
            blocks.push((0, body))
        }
        Stm::If {
            then_block,
            else_block,
            ..
        } => {
            blocks.push((0, then_block));
            blocks.push((1, else_block));
        }
        Stm::ParFor { body, .. } => blocks.push((PAR, body)),
        _ => {}
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
pub(super) fn mentioned(b: &Block, out: &mut Vec<SVar>) -> Option<()> {
    for s in &b.stms {
        let mut blocks = Vec::new();
        own(s, out, &mut blocks)?;
        for (_, body) in blocks {
            mentioned(body, out)?;
        }
    }
    Some(())
}
