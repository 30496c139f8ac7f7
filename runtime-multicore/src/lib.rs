//! The runtime of programs that `fut multicore` generates.
//!
//! A generated program is a Rust crate whose `main` hands a [`Program`] (its
//! entry points) to [`main`]; this crate provides everything else:
//!
//! - [`entry`]: the contract between generated code and the runtime —
//!   [`Program`], [`EntryPoint`], [`TypeDesc`], [`Context`], [`Error`].
//! - [`par`]: parallel building blocks for segmented operations (maps,
//!   reductions, scans, histograms) on rayon, with chunking.
//!
//! Generated code runs inside the context's thread pool, so it may use rayon
//! directly.

pub mod entry;
pub mod par;

pub use entry::{Context, EntryPoint, Error, Program, TypeDesc, main};
