//! Writing values in Futhark's textual value format.
//!
//! The output is what Futhark's own tools print, and what the readers in
//! this crate read back to the identical value:
//!
//! - scalars carry their type suffix: `1i32`, `255u8`, `2.5f64`, `true`;
//! - floats use the shortest digits that read back to the same value
//!   (`0.1f32`, `1.0f64`, `1e-7f64`), and `f32.nan`, `f64.inf`, `-f16.inf`
//!   for the non-finite ones;
//! - arrays are bracketed and comma-separated: `[[1i32, 2i32], [3i32, 4i32]]`;
//! - arrays without elements are written with their full shape:
//!   `empty([0]i32)`, `empty([2][0]f64)`.
//!
//! `Display` for [`Value`] produces this format; [`write_text`] writes it to
//! an [`std::io::Write`].

use std::fmt;
use std::io::{self, Write};

use crate::value::Value;

/// Writes `v` in the textual format, without a trailing newline.
pub fn write_text<W: Write + ?Sized>(v: &Value, w: &mut W) -> io::Result<()> {
    write!(w, "{v}")
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_value(f, self)
    }
}

/// Writes `v` to a formatter in the textual format.
fn write_value(f: &mut dyn fmt::Write, v: &Value) -> fmt::Result {
    let shape = v.shape();
    let n = v.num_elements();
    if shape.is_empty() {
        return match v.as_scalar() {
            Some(x) => write!(f, "{x}"),
            None => Ok(()),
        };
    }
    if n == 0 {
        f.write_str("empty(")?;
        write!(f, "{}", v.value_type())?;
        return f.write_str(")");
    }
    // strides[k] is the number of elements in one sub-array at depth k + 1.
    // All dimensions are non-zero here, so every stride is >= 1.
    let mut strides = vec![1usize; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        strides[k] = strides[k + 1].saturating_mul(shape[k + 1]);
    }
    let rank = shape.len();
    for _ in 0..rank {
        f.write_char('[')?;
    }
    for (i, x) in v.data().iter().enumerate() {
        if i > 0 {
            // The sub-arrays that end before element i are exactly those at
            // the depths whose stride divides i (a suffix of the depths).
            let closes = strides[..rank - 1]
                .iter()
                .filter(|&&s| s > 0 && i % s == 0)
                .count();
            for _ in 0..closes {
                f.write_char(']')?;
            }
            f.write_str(", ")?;
            for _ in 0..closes {
                f.write_char('[')?;
            }
        }
        write!(f, "{x}")?;
    }
    for _ in 0..rank {
        f.write_char(']')?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prim::PrimType;
    use half::f16;

    #[test]
    fn scalars() {
        assert_eq!(Value::scalar(1i32).to_string(), "1i32");
        assert_eq!(Value::scalar(-3i8).to_string(), "-3i8");
        assert_eq!(Value::scalar(2.5f32).to_string(), "2.5f32");
        assert_eq!(Value::scalar(f64::NAN).to_string(), "f64.nan");
        assert_eq!(Value::scalar(f32::NEG_INFINITY).to_string(), "-f32.inf");
        assert_eq!(Value::scalar(f16::INFINITY).to_string(), "f16.inf");
        assert_eq!(Value::scalar(false).to_string(), "false");
    }

    #[test]
    fn arrays() {
        assert_eq!(Value::vector(vec![1i32, 2]).to_string(), "[1i32, 2i32]");
        let m = Value::array(vec![2, 2], vec![1i32, 2, 3, 4]).unwrap();
        assert_eq!(m.to_string(), "[[1i32, 2i32], [3i32, 4i32]]");
        let c = Value::array(vec![2, 1, 2], vec![true, false, true, true]).unwrap();
        assert_eq!(c.to_string(), "[[[true, false]], [[true, true]]]");
        let one = Value::array(vec![1, 1, 1], vec![7u64]).unwrap();
        assert_eq!(one.to_string(), "[[[7u64]]]");
    }

    #[test]
    fn empty_arrays() {
        let v = Value::empty(PrimType::I32, vec![0]).unwrap();
        assert_eq!(v.to_string(), "empty([0]i32)");
        let v = Value::empty(PrimType::F64, vec![2, 0]).unwrap();
        assert_eq!(v.to_string(), "empty([2][0]f64)");
    }

    #[test]
    fn io_writer() {
        let mut out = Vec::new();
        write_text(&Value::vector(vec![0.5f64]), &mut out).unwrap();
        assert_eq!(out, b"[0.5f64]");
    }
}
