//! The compiler driver: the salsa database, program loading, and the commands of the
//! `fut` binary (check, run, test, dataset) as library functions.
//!
//! Invariants:
//! - salsa lives here only; the stages below are plain functions on plain data;
//! - all file access of loading and checking programs goes through
//!   [`system::System`] (the package manager, [`pkg`], works on the project folder
//!   and runs `git` directly);
//! - the prelude is parsed and checked once per process, however many programs are
//!   checked.

pub mod bench;
pub mod dataset;
pub mod db;
pub mod dev;
pub mod fuzz;
pub mod imports;
pub mod irrun;
pub mod library;
pub mod multicore;
pub mod pipelines;
pub mod pkg;
pub mod prelude;
pub mod program;
pub mod render;
pub mod run;
pub mod script;
pub mod system;
pub mod testrun;
pub mod testspec;

pub use db::Database;
pub use program::{LoadError, Program, load_program};
pub use system::{MemorySystem, OsSystem, System};

/// Stack size of the threads that run the checker and the interpreter, which
/// recurse over the program's tree.
pub const STACK_SIZE: usize = 256 << 20;
