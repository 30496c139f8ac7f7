//! Automatic differentiation as passes on the core IR.
//!
//! The [`JVP_PASS`] expands every `jvp` node (forward mode) into ordinary
//! IR: dual numbers as a program transformation. For each statement of the
//! differentiated lambda the primal statement is kept and, where the result
//! can carry a tangent, tangent statements follow it. `vjp` nodes are left
//! as they are (reverse mode is a separate pass).
//!
//! The rules, chosen to agree with the reference interpreter's dynamic AD:
//! - Every non-`bool`, non-accumulator value may carry a tangent of its own
//!   type; integers are differentiated with integer arithmetic (`+ - * /
//!   pow min max neg abs` propagate, other integer operations give none).
//!   Booleans never carry one; a boolean result's tangent is `false`.
//! - A variable with no tangent has a tangent known to be zero: closed-over
//!   variables and constants. Only operands with a tangent contribute a term
//!   `∂f/∂xᵢ · ẋᵢ`, summed in operand order.
//! - Numeric conversions convert the tangent; conversions to or from `bool`
//!   and bit casts drop it.
//! - Nested `jvp` nodes are expanded innermost first, so the outer
//!   expansion differentiates plain IR and perturbations cannot be confused.
//! - A construct with no rule (a function application left after inlining,
//!   accumulators, a `vjp` inside a `jvp`) leaves that `jvp` node
//!   unexpanded; [`expand_jvp`] reports it as an [`AdError`] naming the
//!   construct.
//!
//! The modules, one per construct family:
//! - [`ctx`]: the emission context (fresh variables, typed statements,
//!   the tangent map, zeros).
//! - [`scalar`]: unary and binary operators, comparisons, conversions and
//!   math functions.
//! - [`arrays`]: indexing, in-place update, `iota`, `replicate`, `reshape`,
//!   `rearrange`, `concat`, `copy`, `scratch`.
//! - [`control`]: `if` and `loop`.
//! - [`soacs`]: `screma` (map, scans, reductions), `hist` and `scatter`.
//! - [`jvp`]: the expansion of one `jvp` node and the per-statement dispatch.

pub mod arrays;
pub mod control;
pub mod ctx;
pub mod jvp;
pub mod scalar;
pub mod soacs;

use std::fmt;

use ir::pass::Pass;
use ir::{Body, Exp, Program, Span};

/// A construct that the forward-mode pass cannot differentiate.
#[derive(Clone, Debug, PartialEq)]
pub struct AdError {
    /// What went wrong, naming the construct.
    pub message: String,
    /// The statement it came from.
    pub span: Span,
}

impl fmt::Display for AdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.span.is_none() {
            write!(f, "jvp: {}", self.message)
        } else {
            write!(f, "jvp: {} (at {})", self.message, self.span)
        }
    }
}

impl std::error::Error for AdError {}

/// Forward-mode AD: expands every `jvp` node it can.
pub const JVP_PASS: Pass = Pass {
    name: "jvp",
    description: "forward-mode AD: expands jvp nodes into primal and tangent statements",
    run: jvp_pass,
};

/// Every pass of this crate.
pub fn all_passes() -> Vec<Pass> {
    vec![JVP_PASS]
}

fn jvp_pass(prog: Program) -> Program {
    expand(prog).0
}

/// Expands every `jvp` node of `prog`; the first construct that cannot be
/// differentiated is an error.
pub fn expand_jvp(prog: Program) -> Result<Program, AdError> {
    let (prog, errors) = expand(prog);
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(prog),
    }
}

/// Expands what it can; the nodes that fail stay, with their errors.
fn expand(mut prog: Program) -> (Program, Vec<AdError>) {
    let mut errors = Vec::new();
    let ids: Vec<_> = prog.functions.keys().collect();
    for id in ids {
        let f = &mut prog.functions[id];
        let mut body = std::mem::take(&mut f.body);
        let mut cx = ctx::Ctx::new(&mut f.vars);
        expand_body(&mut cx, &mut body, &mut errors);
        f.body = body;
    }
    (prog, errors)
}

/// Expands the `jvp` nodes of `body`, innermost first.
fn expand_body(cx: &mut ctx::Ctx<'_>, body: &mut Body, errors: &mut Vec<AdError>) {
    let stms = std::mem::take(&mut body.stms);
    for mut stm in stms {
        for nested in ir::walk::nested_bodies_mut(&mut stm.exp) {
            expand_body(cx, nested, errors);
        }
        if let Exp::Jvp(ad) = &stm.exp {
            let mut out = Vec::new();
            cx.span = stm.span;
            match cx.jvp(&stm.pat, ad, &mut out) {
                Ok(()) => body.stms.extend(out),
                Err(e) => {
                    errors.push(e);
                    body.stms.push(stm);
                }
            }
        } else {
            body.stms.push(stm);
        }
    }
}
