//! The compiler driver: the salsa database, program loading, and the commands of the
//! `fut` binary (check, run, test, dataset) as library functions.
//!
//! Invariants:
//! - salsa lives here only; the stages below are plain functions on plain data;
//! - all file access goes through [`system::System`];
//! - the prelude is parsed and checked once per process, however many programs are
//!   checked.

pub mod db;
pub mod imports;
pub mod prelude;
pub mod program;
pub mod system;
pub mod testspec;

pub use db::Database;
pub use program::{LoadError, Program, load_program};
pub use system::{MemorySystem, OsSystem, System};
