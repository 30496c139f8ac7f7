//! The `simplify` pass.

use ir::pass::Pass;
use ir::syntax::Program;

/// The `simplify` pass.
pub const PASS: Pass = Pass {
    name: "simplify",
    description: "simplify (not yet implemented: returns the program unchanged)",
    run,
};

fn run(prog: Program) -> Program {
    prog
}
