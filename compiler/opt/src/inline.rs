//! The `inline` pass.

use ir::pass::Pass;
use ir::syntax::Program;

/// The `inline` pass.
pub const PASS: Pass = Pass {
    name: "inline",
    description: "inline (not yet implemented: returns the program unchanged)",
    run,
};

fn run(prog: Program) -> Program {
    prog
}
