//! The imperative IR: memory made explicit.
//!
//! Below the core IR's values sit blocks of memory and views of them. A
//! program of the imperative IR ([`syntax`]) has scalar variables, memory
//! block handles, and statements: allocations, element reads and writes
//! through views, strided copies, sequential `for`/`while` loops, `if`,
//! parallel loops over independent iterations, calls, and assertions with
//! their source spans. An array is a [`View`] (block, offset, shape,
//! strides): row-major when allocated; slicing, indexing a row and
//! transposing change the view, not the data.
//!
//! - [`lower`]: from the core IR (after the optimiser, AD and with the
//!   `flatten` crate's plans) to the imperative IR;
//! - [`print`]: its textual form (`fut dev --print=imp`);
//! - [`interp`]: an interpreter with counters of allocations and copies;
//! - [`uses`]: what a parallel loop's body reads and writes from outside
//!   (a kernel's parameters).
//!
//! The backends' emitters are meant to consume this IR: a parallel loop
//! becomes a rayon loop on the multicore backend and a kernel launch on
//! the GPU backends; blocks become buffers; views become index arithmetic.
//! `docs/imperative.md` describes the memory rules and what is lowered.

pub mod copies;
pub mod cost;
pub mod groups;
pub mod interp;
pub mod lower;
pub mod print;
pub mod syntax;
pub mod tiled_transpose;
pub mod uses;

pub use lower::{LowerError, Options, lower_program, lower_program_with};
pub use syntax::*;

#[cfg(test)]
mod tests;

/// The imperative IR of a core IR program given as text, which must parse,
/// verify and lower; panics otherwise. For tests (this crate's unit tests'
/// starting point, and those of the crates consuming the IR).
pub fn lower_text(src: &str) -> Program {
    let prog = ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{e}"));
    ir::verify::verify(&prog).unwrap_or_else(|e| panic!("{e:?}"));
    lower_program(&prog).unwrap_or_else(|e| panic!("{e}"))
}
