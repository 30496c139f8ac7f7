//! The `fusion` pass.

use ir::pass::Pass;
use ir::syntax::Program;

/// The `fusion` pass.
pub const PASS: Pass = Pass {
    name: "fusion",
    description: "fusion (not yet implemented: returns the program unchanged)",
    run,
};

fn run(prog: Program) -> Program {
    prog
}
