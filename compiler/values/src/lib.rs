//! Futhark's values and their external formats.
//!
//! This crate is shared by the interpreter, the test and bench runners, and
//! generated programs, so it depends on nothing of ours and on little else
//! (`half` for `f16`, `libm` for the float functions std lacks).
//!
//! - [`prim`]: [`PrimType`] (the twelve primitive types) and [`PrimValue`]
//!   (one typed scalar).
//! - [`value`]: [`Value`], a scalar or a regular multi-dimensional array of
//!   one primitive type, stored as a shape and a flat row-major [`Data`]
//!   buffer; [`ValueType`] (`[2][3]f32`) and [`RankedType`] (`[][]f32`).
//! - [`text`]: writing the textual value format (`Display` for [`Value`]).
//! - [`text_parse`]: the textual format's grammar and typing rules.
//! - [`binary`]: the binary value format, reading and writing.
//! - [`reader`]: [`Reader`], which reads a stream of values where text and
//!   binary mix freely, and helpers such as [`parse_value`] and
//!   [`read_values`]. Errors are [`ReadError`]s with a [`Position`].
//! - [`compare`]: comparing results with expected values using the
//!   tolerance rule of `futhark test`.
//! - [`scalar`]: Futhark's scalar semantics (integer wrapping, division
//!   and modulo rounding, shifts, float to integer conversion, float
//!   functions), shared by the reference and IR interpreters.
//! - [`generate`]: type specifications (`[100][3]f32`), bounds, a seeded
//!   generator, and random values for `fut dataset` and `random input`
//!   test blocks.
//!
//! ```
//! use values::{parse_value, PrimType, RankedType, Value};
//!
//! let v = parse_value("[[1, 2], [3, 4]] -- a matrix").unwrap();
//! assert_eq!(v.to_string(), "[[1i32, 2i32], [3i32, 4i32]]");
//!
//! let t = RankedType::new(1, PrimType::F32);
//! let w = values::parse_value_as("[1, 2.5]", &t).unwrap();
//! assert_eq!(w, Value::vector(vec![1.0f32, 2.5]));
//!
//! let bytes = values::to_binary(&w).unwrap();
//! assert_eq!(values::read_values(&bytes).unwrap(), vec![w]);
//! ```
//!
//! No function in this crate panics on any input; malformed input gives an
//! error value.

#![deny(missing_docs)]

pub mod binary;
pub mod compare;
pub mod error;
pub mod generate;
mod input;
pub mod prim;
pub mod reader;
pub mod scalar;
pub mod text;
pub mod text_parse;
pub mod value;

pub use binary::{BINARY_VERSION, to_binary, write_binary};
pub use compare::{Mismatch, SeveralMismatch, Tolerance, compare_several, compare_values};
pub use error::{Position, ReadError, ReadErrorKind};
pub use generate::{Bounds, Rng, SpecError, generate, parse_type_spec};
pub use half::f16;
pub use prim::{PrimType, PrimValue, UnknownPrimType};
pub use reader::{Reader, parse_value, parse_value_as, read_typed_values, read_values};
pub use text::write_text;
pub use value::{Data, Element, RankedType, ShapeError, Value, ValueType};

#[cfg(test)]
mod tests;
