//! The core IR of `fut`: a first-order, monomorphic, purely functional
//! language in A-normal form, shared by the internaliser, the optimiser, the
//! AD passes and the backends.
//!
//! Every value is a primitive scalar or a regular array of primitives (tuples
//! and records have already been split into several values), and sizes are
//! part of array types. The modules:
//!
//! - [`ids`] and [`arena`]: typed `u32` ids ([`VarId`], [`FunId`]) and the
//!   [`PrimaryMap`] arena they index.
//! - [`types`]: [`Type`], [`Size`], [`Span`].
//! - [`syntax`]: the program representation ([`Program`], [`Function`],
//!   [`Body`], [`Stm`], [`Exp`], [`Lambda`], the SOACs and scalar ops).
//! - [`builder`]: [`FunctionBuilder`] and [`BodyBuilder`] for constructing
//!   functions in code.
//! - [`print`] and [`parse`]: the textual form (documented in [`print`]);
//!   printing and parsing back gives the same program.
//! - [`typeof_`]: the result types of expressions, shared by the verifier and
//!   the builder.
//! - [`verify`]: the IR type checker; its module doc lists every invariant.
//! - [`interp`]: a reference interpreter with run-time checks and an
//!   operation counter.
//! - [`uses`]: the variables an expression uses, binds and consumes.
//! - [`walk`]: traversals of every variable occurrence, substitution and
//!   use counts, for the passes.
//! - [`pass`]: [`Pass`] (a named `fn(Program) -> Program`) and the pipeline
//!   runner that verifies after each pass.
//!
//! ```
//! let text = "fun main(x: i32) -> (i32) {\n  let y: i32 = add(x, 1i32)\n  in (y)\n}\n";
//! let prog = ir::parse::parse_program(text).unwrap();
//! ir::verify::verify(&prog).unwrap();
//! assert_eq!(ir::print::print_program(&prog), text);
//! let out = ir::interp::run_function(&prog, "main", vec![values::Value::scalar(41i32)]).unwrap();
//! assert_eq!(out.values, vec![values::Value::scalar(42i32)]);
//! ```

pub mod arena;
pub mod builder;
pub mod ids;
pub mod interp;
pub mod parse;
pub mod pass;
pub mod print;
pub mod syntax;
pub mod typeof_;
pub mod types;
pub mod uses;
pub mod verify;
pub mod walk;

pub use arena::PrimaryMap;
pub use builder::{BodyBuilder, FunctionBuilder};
pub use ids::{FunId, VarId};
pub use pass::{Pass, PassError, run_pipeline};
pub use syntax::*;
pub use types::{Size, Span, Type};
pub use values::{PrimType, PrimValue};
