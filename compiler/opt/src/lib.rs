//! The optimiser: passes from core IR to core IR.
//!
//! - [`simplify`]: the simplification engine (constant folding, algebraic rules, copy
//!   propagation, common-subexpression and dead-code elimination, hoisting).
//! - [`inline`]: the inliner.
//! - [`fusion`]: producer–consumer and sibling fusion of SOACs.
//! - [`acc_to_red`]: accumulator updates invariant to a map become reductions.
//! - [`acc_screma`]: rebuilding a `screma` whose accumulators become reductions
//!   (shared by `acc_to_red` and the reverse mode of accumulators).
//! - [`dead_maps`]: dead maps kept alive only by their assertions become those
//!   assertions (run with dead-code elimination).
//! - [`structure`]: counts of the constructs of a program, for tests.
//! - [`pipelines`]: every pass by name, and the standard pipelines.
//!
//! Every pass is a plain [`ir::pass::Pass`]: a named `fn(Program) -> Program`. Passes
//! keep the program's meaning (checked by running the IR interpreter before and after
//! on the tests) and its validity (checked by the IR verifier after each pass).

pub mod acc_screma;
pub mod acc_to_red;
pub mod dead_maps;
pub mod fusion;
pub mod inline;
pub mod pipelines;
pub mod simplify;
pub mod structure;
