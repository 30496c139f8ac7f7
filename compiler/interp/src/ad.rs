//! Dynamic automatic differentiation: the tags that floats carry.
//!
//! Forward mode uses dual numbers: an [`AdNum`] with a [`Tangent::Fwd`] holds a primal
//! and a tangent. Reverse mode records each operation on a [`Tape`]: an [`AdNum`] with
//! a [`Tangent::Rev`] names its node there, and the node lists its parents with the
//! local partial derivatives. Every `jvp`/`vjp` invocation gets a fresh perturbation
//! level, larger than every level alive before it; a tagged number's primal (and its
//! tangent and partials) only carry lower levels, so nested differentiation never
//! confuses perturbations. Partials and tangents are ordinary scalars computed with
//! the AD-aware operations of [`crate::ops`], so they are themselves differentiable
//! by an enclosing level.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use syntax::ast::PrimType;

use crate::ops;
use crate::scalar::Scalar;

/// A float tagged at one perturbation level.
#[derive(Debug)]
pub struct AdNum {
    /// The perturbation level; larger is more recent (more deeply nested).
    pub level: u32,
    /// The value, possibly tagged at lower levels.
    pub primal: Scalar,
    /// The derivative information.
    pub tan: Tangent,
}

/// Derivative information of a tagged float.
#[derive(Debug)]
pub enum Tangent {
    /// Forward mode: the tangent.
    Fwd(Scalar),
    /// Reverse mode: the tape and this value's node on it.
    Rev(Rc<Tape>, usize),
}

/// One recorded operation: its inputs' node indices with local partial derivatives
/// (d result / d input), and the float type of its result.
#[derive(Debug)]
pub struct Node {
    /// Parents and partials.
    pub parents: Vec<(usize, Scalar)>,
    /// The float type of the value this node stands for.
    pub ty: PrimType,
    /// A hand-written derivative (`with_vjp`) whose outputs start at this node.
    pub custom: Option<Rc<CustomVjp>>,
}

/// A `with_vjp` call recorded on a tape: its output nodes get their adjoints, then
/// the user's derivative function maps them to input adjoints.
#[derive(Debug)]
pub struct CustomVjp {
    /// The derivative function `f'`, applied to the primal result and its cotangent.
    pub df: crate::value::Value,
    /// The primal result, untagged at this level.
    pub y: crate::value::Value,
    /// The nodes of the result's floats, in traversal order.
    pub y_nodes: Vec<usize>,
    /// The input, untagged at this level, as a template for its cotangent.
    pub x: crate::value::Value,
    /// The nodes of the input's floats at this level, in traversal order (`None` for
    /// floats that carried no tag of this level).
    pub x_nodes: Vec<Option<usize>>,
    /// The perturbation level of the `vjp` whose tape holds this block. `f'` may
    /// close over values tagged at this level; their tags are stripped from its
    /// result, so that an enclosing `jvp` or `vjp` differentiates `f'` itself.
    pub level: u32,
}

/// The operations recorded during one reverse-mode invocation.
#[derive(Debug, Default)]
pub struct Tape {
    /// The nodes in creation order (a topological order).
    pub nodes: RefCell<Vec<Node>>,
}

impl Tape {
    /// Records a node and returns its index.
    pub fn push(&self, node: Node) -> usize {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(node);
        nodes.len() - 1
    }
}

thread_local! {
    static NEXT_LEVEL: Cell<u32> = const { Cell::new(1) };
}

/// A fresh perturbation level, larger than all earlier ones on this thread.
pub fn fresh_level() -> u32 {
    NEXT_LEVEL.with(|c| {
        let l = c.get();
        c.set(l + 1);
        l
    })
}

/// The level of a scalar's outermost tag (0 when untagged).
pub fn level_of(s: &Scalar) -> u32 {
    match s {
        Scalar::Ad(a) => a.level,
        _ => 0,
    }
}

/// Tags float `x` with a forward tangent at `level`; other scalars stay as they are.
pub fn dual(level: u32, x: &Scalar, tangent: &Scalar) -> Scalar {
    if !x.is_differentiable() {
        return x.clone();
    }
    let tangent = ops::convert(tangent, x.prim_type());
    Scalar::Ad(Rc::new(AdNum {
        level,
        primal: x.clone(),
        tan: Tangent::Fwd(tangent),
    }))
}

/// Splits a scalar into primal and tangent at `level` (tangent zero if the scalar
/// does not carry that level).
pub fn split_dual(level: u32, s: &Scalar) -> (Scalar, Scalar) {
    if let Scalar::Ad(a) = s
        && a.level == level
        && let Tangent::Fwd(t) = &a.tan
    {
        return (a.primal.clone(), t.clone());
    }
    (s.clone(), Scalar::zero(s.prim_type()))
}

/// Tags float `x` as a fresh input node of `tape`; other scalars stay as they are.
/// Returns the node index for floats.
pub fn tag_input(level: u32, tape: &Rc<Tape>, x: &Scalar) -> (Scalar, Option<usize>) {
    if !x.is_differentiable() {
        return (x.clone(), None);
    }
    let idx = tape.push(Node {
        parents: Vec::new(),
        ty: x.prim_type(),
        custom: None,
    });
    let s = Scalar::Ad(Rc::new(AdNum {
        level,
        primal: x.clone(),
        tan: Tangent::Rev(tape.clone(), idx),
    }));
    (s, Some(idx))
}

/// The node of `s` on the tape of `level`, if it carries that level.
pub fn rev_node(level: u32, s: &Scalar) -> Option<usize> {
    match s {
        Scalar::Ad(a) if a.level == level => match &a.tan {
            Tangent::Rev(_, i) => Some(*i),
            Tangent::Fwd(_) => None,
        },
        _ => None,
    }
}

/// Removes the tag of `level` from `s` (if it is the outermost one).
pub fn strip_level(level: u32, s: &Scalar) -> Scalar {
    match s {
        Scalar::Ad(a) if a.level == level => a.primal.clone(),
        _ => s.clone(),
    }
}

/// Element `i` of `iota n`, where the length `n` may carry tags. As in Futhark's
/// reverse mode, the elements of `iota n` pass their adjoints on to `n` (so the
/// adjoint of `n` is the sum of theirs): each reverse-mode tag of `n` gives the
/// element a node on the same tape with `n`'s node as its parent and partial 1.
/// Forward-mode tags are dropped, which gives `iota` a zero tangent, again as in
/// Futhark.
pub fn iota_elem(n: &Scalar, i: i64) -> Scalar {
    let Scalar::Ad(a) = n else {
        return Scalar::I64(i);
    };
    let primal = iota_elem(&a.primal, i);
    match &a.tan {
        Tangent::Fwd(_) => primal,
        Tangent::Rev(tape, parent) => {
            let idx = tape.push(Node {
                parents: vec![(*parent, Scalar::I64(1))],
                ty: PrimType::I64,
                custom: None,
            });
            Scalar::Ad(Rc::new(AdNum {
                level: a.level,
                primal,
                tan: Tangent::Rev(tape.clone(), idx),
            }))
        }
    }
}
