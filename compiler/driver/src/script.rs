//! FutharkScript, the small expression language of `script input { … }` in test
//! blocks: calls of entry points, literals, tuples, records, arrays, `let`, and
//! the builtins `$loaddata` and `$loadbytes`.
//!
//! - [`parse`]: the tokens and the expression tree, with positions;
//! - [`eval`]: evaluation over a [`eval::Backend`], which runs the calls and
//!   keeps opaque values (records, sums, abstract types) in its own form;
//! - [`backends`]: the reference interpreter, the IR interpreter and compiled
//!   programs of a test batch as backends;
//! - [`server`]: a compiled program's server (`--server`) as a backend, opaque
//!   values kept there as variables;
//! - [`source`]: a test case's script, inline or from a file, and the places
//!   of its positions.

pub mod backends;
pub mod eval;
pub mod parse;
pub mod server;
pub mod source;

pub use eval::{Backend, Env, ScriptError, Val};
pub use parse::{Expr, ParseError, Pos, parse};
