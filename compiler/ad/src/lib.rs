//! Automatic differentiation as passes on the core IR.
//!
//! The [`AD_PASS`] expands every `jvp` node (forward mode) and every `vjp`
//! node (reverse mode) into ordinary IR, innermost nodes first whatever
//! their kind: a `jvp` of a function containing a `vjp` (a Hessian-vector
//! product) sees the `vjp` already expanded. [`JVP_PASS`] and [`VJP_PASS`]
//! are the same pass under the older names.
//!
//! Forward mode is dual numbers as a program transformation: for each
//! statement of the differentiated lambda the primal statement is kept and,
//! where the result can carry a tangent, tangent statements follow it.
//!
//! The rules, chosen to agree with the reference interpreter's dynamic AD:
//! - Every non-`bool`, non-accumulator value may carry a tangent (adjoint)
//!   of its own type; integers are differentiated with integer arithmetic
//!   (`+ - * / pow min max neg abs` propagate, other integer operations
//!   give none). Booleans never carry one; a boolean result's tangent and a
//!   boolean parameter's adjoint are `false`.
//! - A variable with no tangent has a tangent known to be zero: closed-over
//!   variables and constants. Only operands with a tangent contribute a term
//!   `∂f/∂xᵢ · ẋᵢ`, summed in operand order.
//! - `custom_vjp(f, f', args)`: forward mode differentiates a fresh copy
//!   of `f`'s body in place of the node and ignores `f'`.
//! - Numeric conversions convert the tangent (adjoint); conversions to or
//!   from `bool` drop it. A bit cast is linear in forward mode (the tangent
//!   is cast like the value) and drops the adjoint in reverse mode.
//! - Accumulators (from an inner `vjp`'s expansion) carry tangent
//!   accumulators beside them ([`fwd_acc`]); in reverse mode, each update
//!   of a `+` accumulator gets the adjoint of the result where it wrote
//!   ([`rev_with_acc`]), so a `vjp` of a `vjp` through a gather expands.
//! - A construct with no rule (a function application left after inlining,
//!   accumulators with operators other than `+` in reverse mode, scans in reverse mode whose elements mix arrays of
//!   unknown sizes with an operator that is not elementwise) leaves its node
//!   unexpanded; [`expand_ad`] reports it as an [`AdError`] naming the
//!   construct.
//!
//! Reverse mode works without a tape, by re-execution: `pat = vjp(f, x, ȳ)`
//! becomes the forward sweep (the statements of `f`), then the return
//! sweep, which visits the statements in reverse order and adds each
//! result's adjoint, times the partial derivatives, to the adjoints of the
//! operands. A nested scope (an `if` branch, a loop body, a map lambda) is
//! swept back by a construct of the same kind whose body first re-executes
//! a fresh copy of the scope's statements, so that every value the sweep
//! needs is in scope. Variables bound outside `f` do not depend on `x` and
//! get no adjoints. The rules:
//! - scalars: `x̄ᵢ += ∂f/∂xᵢ · ȳ` with the partial derivatives of forward
//!   mode ([`scalar::Ctx::scalar_partials`]).
//! - indexing: `x̄[i] += ȳ`, an in-place update of the array's adjoint;
//!   `update`: `v̄ += ȳ[i]`, `x̄ += ȳ with [i] = 0`; `replicate` sums,
//!   `reshape`/`rearrange`/`concat`/`copy` reshape, permute back, slice or
//!   pass the adjoint on.
//! - `if`: an `if` on the same condition, each branch sweeping itself back
//!   and returning the adjoints of the free variables.
//! - `for` loops: the forward sweep checkpoints the loop parameters of every
//!   iteration in arrays; the return sweep is a loop running backwards
//!   that restores one iteration's parameters, re-executes the body and
//!   sweeps it back, carrying the adjoints of the loop parameters and of the
//!   free variables.
//! - `while` loops become `for` loops first: with `#[bound(n)]`, `n`
//!   iterations guarded by the condition; without, an inspector counts the
//!   iterations. A `for` loop marked `#[stripmine(k)]` is split into `k`
//!   nested loops of about `n^(1/k)` iterations, checkpointing about
//!   `k·n^(1/k)` rows instead of `n`. In a `#[true_dep]` loop, an array
//!   that the body changes only by in-place updates is saved once, with the
//!   elements each iteration overwrites, instead of per iteration.
//! - `screma`: a map whose lambda is the vjp of the map lambda, giving the
//!   adjoints of the input rows; the adjoint of an array free in the map is
//!   an accumulator that each iteration updates where it read (a
//!   `with_acc` around the map, or the enclosing map's accumulator passed
//!   on), scalars free in the map sum their adjoints by `+` reductions; a
//!   `+` reduction passes its result's adjoint to every element.
//! - other reductions (when their results have adjoints): the values they
//!   reduce are computed again by a map, whose return sweep follows the
//!   rules above. A float `*` reduction counts zeros: `x̄ᵢ = ȳ·p/xᵢ`
//!   without zeros (`p` the product), `ȳ·p` for a single zero element
//!   (`p` the product of the others), else `0`. A selecting operator
//!   (`min`, `max`) finds the element it selects (the first of equal
//!   extremes) by one reduction of (value, index) pairs; it gets `ȳ`. Any
//!   other associative operator takes exclusive scans from both ends, `lᵢ`
//!   and `rᵢ`, and the vjp of `x ↦ (lᵢ ⊙ x) ⊙ rᵢ` at each element.
//! - scans (likewise through a map): with `+`, `x̄ᵢ = Σ_{j ≥ i} ȳⱼ`, a `+`
//!   scan of the reversed adjoints; with any other operator on scalars,
//!   the adjoint `cᵢ = ȳᵢ + ∂yᵢ₊₁/∂yᵢ · cᵢ₊₁` of each result is a scan
//!   from the end composing the linear functions `c ↦ ȳᵢ + aᵢ·c`, and
//!   `x̄ᵢ = ∂yᵢ/∂xᵢ · cᵢ` (the partials by the vjp of the operator). On
//!   tuples, and on rows (of constant shapes, or of one run-time length),
//!   the same with Jacobian matrices of the operator. Elementwise
//!   operators (`map2 f`) of scans and reductions take the scalar rule per
//!   column ([`rev_scanred`]).
//! - `hist` with `+` (likewise through a map): the destination's adjoint
//!   passes through, and each value's adjoint is its bucket's (zero for an
//!   index out of bounds). `*` counts zeros per bucket, `min`/`max` give
//!   the adjoint to each bucket's winner, any other operator sorts the
//!   updates into segments by bucket ([`rev_hist`]).
//! - `scatter` (likewise through a map): each value gets the adjoint of the
//!   element it wrote, zero when its index is out of bounds or a later
//!   iteration wrote the same element (the last write wins, as in the
//!   reference interpreter); the destination's adjoint is the result's with
//!   the written elements zeroed. When statements before the scatter use
//!   the destination, the forward sweep saves the elements it overwrites
//!   and the return sweep restores the destination for them.
//! - consumption: a statement that consumes an array which the return
//!   sweep still needs (statements before it read the array, or it is an
//!   `if` whose return sweep runs the branch again) consumes a copy in the
//!   forward sweep, and such an `if` runs its branch again on a fresh copy;
//!   a loop parameter that the body consumes is restored from a copy of
//!   its checkpoint.
//! - `custom_vjp(f, f', args)`: the forward sweep keeps the node (it
//!   computes `y = f(args)`); the return sweep runs a fresh copy of `f'`
//!   on `y` and `ȳ` and adds its results to the adjoints of `args`. `f` is
//!   not differentiated, so its free variables get no adjoint.
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
//! - [`fwd_acc`]: `with_acc` and `update_acc`.
//! - [`jvp`]: the expansion of one `jvp` node and the per-statement dispatch.
//! - [`jmp`]: a map of `jvp` over seeds (`jmp`) expanded once for all
//!   seeds, tangents carrying the seeds as an innermost dimension.
//! - [`adjoint`]: reverse mode's adjoint bookkeeping (accumulation, sums,
//!   scopes, fresh copies of bodies for re-execution).
//! - [`vjp`]: the expansion of one `vjp` node, the forward and return
//!   sweeps, and the scalar rules of reverse mode.
//! - [`rev_arrays`], [`rev_control`], [`rev_soacs`], [`rev_scanred`],
//!   [`rev_scatter`]: reverse mode through array operations, `if` and
//!   loops, `screma`, reductions, scans and histograms, and `scatter`;
//!   [`rev_hist`]: histograms with operators other than `+`.
//! - [`rev_acc`]: reverse mode of statements inside a map that touch an
//!   adjoint held as an accumulator (indexing, `if`, loops).
//! - [`rev_with_acc`]: reverse mode of `with_acc` and `update_acc`
//!   (a `vjp` of code that an inner `vjp` expanded).
//! - [`while_loops`], [`stripmine`]: loops rewritten before reverse mode;
//!   [`true_dep`]: arrays of `#[true_dep]` loops saved once.
//! - [`activity`]: the variables of a `vjp`'s lambda that do not depend on
//!   its parameters, which reverse mode gives no adjoint.

pub mod activity;
pub mod adjoint;
pub mod arrays;
pub mod control;
pub mod ctx;
pub mod fwd_acc;
pub mod jmp;
pub mod jvp;
pub mod rev_acc;
pub mod rev_arrays;
pub mod rev_control;
pub mod rev_hist;
pub mod rev_scanred;
pub mod rev_scatter;
pub mod rev_soacs;
pub mod rev_with_acc;
pub mod scalar;
pub mod soacs;
pub mod stripmine;
pub mod true_dep;
pub mod vjp;
pub mod while_loops;

use std::fmt;

use ir::pass::Pass;
use ir::{Body, Exp, Program, Span};

/// A construct that the AD pass cannot differentiate.
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
            write!(f, "ad: {}", self.message)
        } else {
            write!(f, "ad: {} (at {})", self.message, self.span)
        }
    }
}

impl std::error::Error for AdError {}

/// AD: expands every `jvp` and `vjp` node it can, innermost first.
pub const AD_PASS: Pass = Pass {
    name: "ad",
    description: "AD: expands jvp and vjp nodes, innermost first",
    run: ad_pass,
};

/// The AD pass under the name of forward mode.
pub const JVP_PASS: Pass = Pass {
    name: "jvp",
    description: "the ad pass (expands jvp and vjp nodes)",
    run: ad_pass,
};

/// The AD pass under the name of reverse mode.
pub const VJP_PASS: Pass = Pass {
    name: "vjp",
    description: "the ad pass (expands jvp and vjp nodes)",
    run: ad_pass,
};

/// Every pass of this crate.
pub fn all_passes() -> Vec<Pass> {
    vec![AD_PASS, JVP_PASS, VJP_PASS]
}

fn ad_pass(prog: Program) -> Program {
    expand(prog).0
}

/// Expands every `jvp` and `vjp` node of `prog`; the first construct that
/// cannot be differentiated is an error.
pub fn expand_ad(prog: Program) -> Result<Program, AdError> {
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

/// Expands the `jvp` and `vjp` nodes of `body`, innermost first.
fn expand_body(cx: &mut ctx::Ctx<'_>, body: &mut Body, errors: &mut Vec<AdError>) {
    let stms = std::mem::take(&mut body.stms);
    for mut stm in stms {
        if let Some((pre, split)) =
            jmp::vector_seed_map(cx, &stm).or_else(|| soacs::split_seed_map(cx, &stm, errors))
        {
            body.stms.extend(pre);
            stm = split;
        }
        let rev = usize::from(matches!(stm.exp, Exp::Vjp(_)));
        cx.under_vjp += rev;
        for nested in ir::walk::nested_bodies_mut(&mut stm.exp) {
            expand_body(cx, nested, errors);
        }
        cx.under_vjp -= rev;
        let mut out = Vec::new();
        cx.span = stm.span;
        let res = match &stm.exp {
            Exp::Jvp(ad) => Some(cx.jvp(&stm.pat, ad, &mut out)),
            Exp::Vjp(ad) => Some(cx.vjp(&stm.pat, ad, &mut out)),
            _ => None,
        };
        if let Some(res) = res {
            match res {
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
