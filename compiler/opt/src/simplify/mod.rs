//! The simplification engine: one engine, run per function to a fixpoint
//! (at most [`MAX_ROUNDS`] rounds), whose rules are small functions. Each
//! round is a forward sweep (substitution, local rules, CSE), a backward
//! sweep (dead code) and a hoisting sweep. The passes [`PASS`]
//! (`simplify`: everything), [`CSE_PASS`], [`DCE_PASS`] and [`HOIST_PASS`]
//! run the engine with some rule groups switched off.
//!
//! Every rule keeps the program valid and its meaning, and never makes it
//! more expensive by the interpreter's operation counter (except that a
//! statement hoisted out of a loop or lambda that runs zero times is
//! executed once, and the copy a split hoists is one execution more of
//! what it copies, and the bound a guarded reduction computes costs two to
//! five operations once, more than it saves when the `screma` runs zero or
//! one times).
//!
//! **Constant folding** ([`rules::fold`]): unary, binary, comparison,
//! conversion and math operations whose operands are all constants are
//! evaluated with [`ir::interp::scalar`], so folding and the interpreter
//! agree. An operation that fails (an integer division by zero, a negative
//! integer exponent) is left to fail at run time.
//!
//! **Algebraic rules** ([`rules::binop`], [`rules::rewrite`]); "int" means
//! integer types only, "exact" that it holds for every float too, NaN,
//! infinities and -0.0 included:
//! - `x + 0`, `0 + x` → `x` (int); `x + -0.0`, `-0.0 + x` → `x` (exact;
//!   `x + 0.0` is not folded: `-0.0 + 0.0` is `0.0`);
//! - `x - 0` → `x` (int, and exact for `0.0`); `x - x` → `0` (int);
//! - `x * 0`, `0 * x` → `0` (int only: `NaN * 0.0` and `inf * 0.0` are NaN,
//!   `-1.0 * 0.0` is `-0.0`); `x * 1`, `1 * x` → `x` (exact);
//! - `x / 1` → `x` (int `div` and `quot`, exact for float `div`);
//!   `x mod 1`, `x rem 1` → `0` (int);
//! - `pow(x, 1)` → `x` (exact); `pow(x, 0)` → `1` (int);
//! - `min(x, x)`, `max(x, x)`, `x & x`, `x | x` → `x`;
//!   `x ^ x` → `0`/`false` (int, bool); `x ^ 0`, `x | 0` → `x`;
//!   `x & 0` → `0`; `x & -1` → `x` (signed int); shifts by `0` → `x`;
//! - booleans: `x && true` → `x`, `x && false` → `false`, `x || false` →
//!   `x`, `x || true` → `true`, `x ^ false` → `x`, `not(not x)` → `x`,
//!   `not(a < b)` → `a >= b` (and the other comparisons; not for floats);
//! - `x == x`, `x <= x`, `x >= x` → `true`; `x != x`, `x < x`, `x > x` →
//!   `false` (not for floats: NaN);
//! - `neg(neg x)` → `x` (exact; wrapping for int);
//! - a conversion or bit cast to the operand's own type → the operand;
//! - factoring `a*b + a*c` → `a*(b+c)` (int, when both products are used
//!   only there: three operations become two; not for floats, where it
//!   changes rounding).
//!
//! **Arrays**: `iota(n, 0i64, 1i64)[i]` → `i`; `replicate(s, x)[i...]` →
//! `x` (or an index of `x` when there are more indices than replicated
//! dimensions), only where each index dropped is known to be in bounds
//! (`i` is the index of an enclosing `for i < n`, or the element of an
//! `iota(n, 0, 1)` that an enclosing SOAC maps over, or both are
//! constants), since an index out of bounds must fail; a map whose lambda returns some of its rows unchanged
//! (`map (\x y -> (y, x)) xs ys`) → those inputs, when neither they nor
//! the results are consumed; a `screma` input that is a replicate of a
//! scalar (or a map of no inputs returning one value, or a slice of either's
//! rows) → the lambda's parameter bound to that value ([`replicated`]).
//!
//! **Guarded reductions** ([`guarded_iota`]): a `screma` over `iota n`
//! whose results are reductions and accumulators, and whose lambda is
//! `if c < x then e else ne` (`c` the iota element, `ne` what leaves every
//! result unchanged: the reductions' neutral elements, the accumulators as
//! they came) → the same `screma` over the first `min(n, max(x, 0))`
//! elements with the lambda `e`; also for `c <= x`, `c > x`, `c >= x`,
//! either way round, with `ne` in either branch (the kept range may be the
//! rest `[m, n)`). The bound costs two to five operations, once.
//!
//! **Control**: `if` with a constant condition → the taken branch's
//! statements; `if` whose branches have no statements and the same
//! results → those results; `if c then true else false` → `c`; a `for`
//! loop with a constant bound `<= 0` or a `while` loop whose condition
//! starts `false` → its initial values; `assert(true)` → nothing.
//!
//! **Copy propagation**: `let y = x` → uses of `y` become `x` (everywhere,
//! sizes in types included); for arrays only when neither is consumed.
//! `let y = copy(x)` → the same, when neither is consumed and the
//! function's results do not alias `y` ([`analysis::escaping_vars`]).
//! "Consumed" is closed under aliasing ([`analysis::consumed_vars`]): each
//! result of an `if` or a loop aliases what its position returns (and a
//! loop's result its non-unique parameter and initial value), an index,
//! reshape or rearrange its array; a scalar aliases nothing.
//!
//! **CSE** ([`forward`]): a statement whose expression (operands after
//! substitution; commutative operands in a fixed order) and result types
//! equal those of an earlier statement in scope reuses its results.
//! Only expressions without nested bodies that consume nothing (no
//! `update`, `update_acc`, `scratch`, or call with unique parameters), and
//! never when either result is consumed somewhere, or aliases something
//! consumed.
//!
//! **Dead code** ([`dce`]): a statement none of whose results is used is
//! removed unless it contains an assertion or a function call. A failure it
//! might have raised (an index out of bounds) goes with it, as in Futhark:
//! removing dead code never introduces an error. Also removed: unused
//! loop parameters (those not needed, transitively, for a used result or
//! the `while` condition), unused `if` results, unused `screma` map results
//! (not accumulators), scans and reductions none of whose results is used,
//! the components of a scan or reduction operator that its used results do
//! not need (the tangent half of a `jvp`'s `+`, say), and `screma` inputs
//! whose lambda parameter is unused.
//! A dead `screma` whose only effects are assertions on values bound
//! outside it becomes those assertions ([`crate::dead_maps`]).
//!
//! **Hoisting** ([`hoist`]): loop-invariant statements move out of loop
//! bodies and out of the map lambdas of `screma`, `hist` and `scatter`;
//! see that module for the conditions. A `screma`, `if` or loop with both
//! invariant and variant results is split first ([`fission`]), so that the
//! invariant part moves out: the value half of a forward-mode AD
//! statement inside a map over directions, say. The split copy runs once
//! more than it would have (the remainder recomputes what it needs), so it
//! is made only when another statement uses an invariant result.

pub mod analysis;
pub mod dce;
pub mod fission;
pub mod forward;
pub mod guarded_iota;
pub mod hoist;
pub mod replicated;
pub mod rules;

use ir::pass::Pass;
use ir::syntax::Program;
use ir::walk::use_counts;

use analysis::{UniqueParams, consumed_after, consumed_vars, unique_params};

/// The most rounds of the engine per function.
pub const MAX_ROUNDS: usize = 16;

/// Which rule groups run.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Constant folding, algebraic, array and control rules, copy
    /// propagation.
    pub fold: bool,
    /// Common-subexpression elimination.
    pub cse: bool,
    /// Dead-code elimination.
    pub dce: bool,
    /// Hoisting.
    pub hoist: bool,
}

impl Config {
    /// Every rule.
    pub const ALL: Config = Config {
        fold: true,
        cse: true,
        dce: true,
        hoist: true,
    };
}

/// The `simplify` pass: every rule of the module doc, to a fixpoint.
pub const PASS: Pass = Pass {
    name: "simplify",
    description: "constant folding, algebraic rules, copy propagation, CSE, dead code, hoisting",
    run: |p| simplify_program(p, Config::ALL),
};

/// The `cse` pass: common-subexpression elimination only.
pub const CSE_PASS: Pass = Pass {
    name: "cse",
    description: "common-subexpression elimination",
    run: |p| {
        simplify_program(
            p,
            Config {
                fold: false,
                cse: true,
                dce: false,
                hoist: false,
            },
        )
    },
};

/// The `dce` pass: dead-code elimination only.
pub const DCE_PASS: Pass = Pass {
    name: "dce",
    description: "dead-code elimination (statements, loop parameters, SOAC results)",
    run: |p| {
        simplify_program(
            p,
            Config {
                fold: false,
                cse: false,
                dce: true,
                hoist: false,
            },
        )
    },
};

/// The `hoist` pass: hoisting of loop-invariant statements only.
pub const HOIST_PASS: Pass = Pass {
    name: "hoist",
    description: "hoist loop-invariant statements out of loops and SOAC lambdas",
    run: |p| {
        simplify_program(
            p,
            Config {
                fold: false,
                cse: false,
                dce: false,
                hoist: true,
            },
        )
    },
};

/// Simplifies every function of `prog` with the rule groups of `cfg`.
pub fn simplify_program(mut prog: Program, cfg: Config) -> Program {
    let uniq = unique_params(&prog);
    let ids: Vec<ir::FunId> = prog.functions.keys().collect();
    for id in ids {
        simplify_function(&mut prog.functions[id], &uniq, cfg);
    }
    prog
}

/// Simplifies one function to a fixpoint (at most [`MAX_ROUNDS`] rounds).
pub fn simplify_function(fun: &mut ir::Function, uniq: &UniqueParams, cfg: Config) {
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        if cfg.fold || cfg.cse {
            let consumed = consumed_vars(fun, uniq);
            let uses = use_counts(fun);
            let mut body = std::mem::take(&mut fun.body);
            let mut fw = forward::Forward::new(fun, cfg, uniq, consumed, uses);
            fw.body(&mut body);
            changed |= fw.changed;
            let subst = std::mem::take(&mut fw.subst);
            fun.body = body;
            // The sweep substituted the operands; the types follow.
            let keys: Vec<ir::VarId> = fun.vars.keys().collect();
            for k in keys {
                ir::walk::subst_type(&subst, &mut fun.vars[k].ty);
            }
        }
        if cfg.dce {
            let mut body = std::mem::take(&mut fun.body);
            changed |= dce::dce_body(fun, &mut body);
            fun.body = body;
            changed |= crate::dead_maps::lift_asserts(fun);
        }
        if cfg.hoist {
            let consumed = consumed_vars(fun, uniq);
            let after = consumed_after(fun, uniq);
            let uses = use_counts(fun);
            let mut body = std::mem::take(&mut fun.body);
            let mut h = hoist::Hoister::new(fun, uniq, &consumed, after, uses);
            h.body(&mut body);
            changed |= h.changed;
            fun.body = body;
        }
        if !changed {
            return;
        }
    }
}
