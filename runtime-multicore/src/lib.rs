//! The runtime of programs that `fut multicore` generates.
//!
//! A generated program is a Rust crate whose `main` hands a [`Program`] (its
//! entry points) to [`main`]; this crate provides everything else:
//!
//! - [`entry`]: the contract between generated code and the runtime —
//!   [`Program`], [`EntryPoint`], [`TypeDesc`], [`OpaqueType`], [`Error`].
//! - [`context`]: [`Context`], the rayon thread pool entries run in and the
//!   profiler; [`profile`]: time per named segmented operation (`-P`).
//! - [`arr`]: the arrays of generated code (shared buffers updated in place
//!   when unshared, borrowed rows) and the messages of its run-time
//!   failures; [`shape`]: their shapes, inline up to rank 4; [`scalar`]:
//!   Futhark's scalar semantics where Rust's operators differ.
//! - [`mem`]: the memory blocks of code emitted from the imperative IR.
//! - [`par`]: parallel building blocks for segmented operations (maps,
//!   reductions, scans, histograms) on rayon, with chunking.
//! - [`batch`]: one executable serving many compiled test programs, for
//!   `fut test --backend=multicore`.
//! - [`typed`]: the typed arrays and calls of generated libraries
//!   (`fut multicore --library`).
//! - [`cli`]: the executable's `main`; [`options`]: its command line;
//!   [`execute`]: running one entry on arguments from standard input;
//!   [`server`]: the server protocol (`--server`); [`call`]: timing a call
//!   and checking its results.
//!
//! Generated code runs inside the context's thread pool, so it may use rayon
//! directly. `docs/executables.md` describes the options and the protocol.

pub mod arr;
pub mod batch;
pub mod call;
pub mod cli;
pub mod context;
pub mod entry;
pub mod execute;
pub mod mem;
pub mod options;
pub mod par;
pub mod profile;
pub mod scalar;
pub mod server;
pub mod shape;
pub mod tuning;
pub mod typed;

pub use cli::main;
pub use context::Context;
pub use entry::{
    ArrayOf, EntryPoint, Error, ExtType, ExtValue, Field, OpaqueType, Program, TypeDesc, Variant,
};
