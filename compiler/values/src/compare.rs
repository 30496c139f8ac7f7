//! Comparing a result with an expected value, as `fut test` does.
//!
//! The rule, which follows the one `futhark test` uses:
//!
//! - The element types must be equal, and the shapes must be equal
//!   (including for empty arrays): otherwise the result is a
//!   [`Mismatch::Type`] or [`Mismatch::Shape`] and no elements are compared.
//! - Integers and booleans must be exactly equal.
//! - Floats (`f16`, `f32`, `f64`, all compared as `f64`, which is exact) are
//!   equal when both are NaN, or both are infinite with the same sign, or
//!   `|got - expected| <= threshold`, where the threshold is one number for
//!   the whole value:
//!
//!   ```text
//!   threshold = tolerance * max(1, max |e| over the finite elements e of expected)
//!   ```
//!
//!   So the tolerance is relative to the largest magnitude in the expected
//!   value, with an absolute floor of `tolerance` itself. The default
//!   tolerance is 0.002 ([`Tolerance::DEFAULT`]). (Futhark takes the
//!   maximum of the expected elements' signed values rather than their
//!   magnitudes; using magnitudes treats negative results like positive
//!   ones, and accepts everything Futhark accepts.) A NaN against a number,
//!   or an infinity against anything but the same infinity, is a mismatch.
//!
//! A mismatch report ([`Mismatch::Elements`]) gives the first differing
//! index, both elements there, and how many elements differ, and prints as
//! one line a test runner can show.

use std::fmt;

use crate::prim::PrimValue;
use crate::value::{Data, Value, ValueType};

/// The relative tolerance for comparing floats (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance(pub f64);

impl Tolerance {
    /// The default tolerance, 0.002 (0.2%).
    pub const DEFAULT: Tolerance = Tolerance(0.002);
    /// No tolerance: floats must be equal (NaN still equals NaN).
    pub const EXACT: Tolerance = Tolerance(0.0);
}

impl Default for Tolerance {
    fn default() -> Self {
        Tolerance::DEFAULT
    }
}

/// How a result differs from the expected value.
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// The element types differ.
    Type {
        /// The result's type.
        got: ValueType,
        /// The expected type.
        expected: ValueType,
    },
    /// The element types agree but the shapes (or ranks) differ.
    Shape {
        /// The result's type.
        got: ValueType,
        /// The expected type.
        expected: ValueType,
    },
    /// Some elements differ.
    Elements {
        /// The multi-dimensional index of the first differing element
        /// (empty for a scalar).
        index: Vec<usize>,
        /// The result's element there.
        got: PrimValue,
        /// The expected element there.
        expected: PrimValue,
        /// How many elements differ.
        count: usize,
        /// How many elements were compared.
        total: usize,
        /// The threshold floats were compared with (`None` for integers and
        /// booleans).
        threshold: Option<f64>,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Type { got, expected } => {
                write!(f, "expected a value of type {expected}, got {got}")
            }
            Mismatch::Shape { got, expected } => {
                write!(f, "expected a value of shape {expected}, got {got}")
            }
            Mismatch::Elements {
                index,
                got,
                expected,
                count,
                total,
                threshold,
            } => {
                if index.is_empty() {
                    write!(f, "expected {expected}, got {got}")?;
                } else {
                    write!(f, "{count} of {total} elements differ; first at index [")?;
                    for (k, i) in index.iter().enumerate() {
                        if k > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "{i}")?;
                    }
                    write!(f, "]: expected {expected}, got {got}")?;
                }
                if let Some(t) = threshold {
                    write!(f, " (tolerance {t:?})")?;
                }
                Ok(())
            }
        }
    }
}

/// Compares a result `got` with the `expected` value (see the module docs
/// for the rule).
pub fn compare_values(got: &Value, expected: &Value, tol: Tolerance) -> Result<(), Mismatch> {
    if got.prim_type() != expected.prim_type() {
        return Err(Mismatch::Type {
            got: got.value_type(),
            expected: expected.value_type(),
        });
    }
    if got.shape() != expected.shape() {
        return Err(Mismatch::Shape {
            got: got.value_type(),
            expected: expected.value_type(),
        });
    }
    let threshold = match expected.data() {
        Data::F16(e) => Some(float_threshold(e.iter().map(|x| x.to_f64()), tol)),
        Data::F32(e) => Some(float_threshold(e.iter().map(|&x| f64::from(x)), tol)),
        Data::F64(e) => Some(float_threshold(e.iter().copied(), tol)),
        _ => None,
    };
    let differs = |i: usize| -> bool {
        match (got.data(), expected.data(), threshold) {
            (Data::F16(g), Data::F16(e), Some(t)) => float_differs(g[i].to_f64(), e[i].to_f64(), t),
            (Data::F32(g), Data::F32(e), Some(t)) => {
                float_differs(f64::from(g[i]), f64::from(e[i]), t)
            }
            (Data::F64(g), Data::F64(e), Some(t)) => float_differs(g[i], e[i], t),
            (g, e, _) => g.get(i) != e.get(i),
        }
    };
    let total = expected.num_elements();
    let mut first = None;
    let mut count = 0usize;
    for i in 0..total {
        if differs(i) {
            count += 1;
            if first.is_none() {
                first = Some(i);
            }
        }
    }
    match first {
        None => Ok(()),
        Some(i) => match (got.get_flat(i), expected.get_flat(i)) {
            (Some(g), Some(e)) => Err(Mismatch::Elements {
                index: expected.unflatten_index(i),
                got: g,
                expected: e,
                count,
                total,
                threshold,
            }),
            // Unreachable: both values have `total` elements.
            _ => Err(Mismatch::Shape {
                got: got.value_type(),
                expected: expected.value_type(),
            }),
        },
    }
}

/// The absolute threshold for a float array (see the module docs).
fn float_threshold(expected: impl Iterator<Item = f64>, tol: Tolerance) -> f64 {
    let largest = expected
        .filter(|x| x.is_finite())
        .map(f64::abs)
        .fold(1.0f64, f64::max);
    tol.0 * largest
}

fn float_differs(got: f64, expected: f64, threshold: f64) -> bool {
    if got.is_nan() || expected.is_nan() {
        return !(got.is_nan() && expected.is_nan());
    }
    if got.is_infinite() || expected.is_infinite() {
        return got != expected;
    }
    // Written so that an overflowing difference counts as a mismatch.
    (got - expected).abs().partial_cmp(&threshold) == Some(std::cmp::Ordering::Greater)
}

/// How a list of results differs from the expected list.
#[derive(Clone, Debug, PartialEq)]
pub enum SeveralMismatch {
    /// The lists have different lengths.
    Count {
        /// Number of results.
        got: usize,
        /// Number of expected values.
        expected: usize,
    },
    /// The value at `index` (0-based) differs.
    Value {
        /// Which value.
        index: usize,
        /// How it differs.
        mismatch: Mismatch,
    },
}

impl fmt::Display for SeveralMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeveralMismatch::Count { got, expected } => {
                write!(f, "expected {expected} values, got {got}")
            }
            SeveralMismatch::Value { index, mismatch } => write!(f, "value #{index}: {mismatch}"),
        }
    }
}

/// Compares lists of results and expected values pairwise; reports the
/// first differing pair.
pub fn compare_several(
    got: &[Value],
    expected: &[Value],
    tol: Tolerance,
) -> Result<(), SeveralMismatch> {
    if got.len() != expected.len() {
        return Err(SeveralMismatch::Count {
            got: got.len(),
            expected: expected.len(),
        });
    }
    for (index, (g, e)) in got.iter().zip(expected).enumerate() {
        compare_values(g, e, tol).map_err(|mismatch| SeveralMismatch::Value { index, mismatch })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prim::PrimType;
    use half::f16;

    fn cmp(g: Value, e: Value) -> Result<(), Mismatch> {
        compare_values(&g, &e, Tolerance::DEFAULT)
    }

    #[test]
    fn integers_and_bools_are_exact() {
        assert!(cmp(Value::scalar(3i32), Value::scalar(3i32)).is_ok());
        let m = cmp(Value::scalar(3i32), Value::scalar(4i32)).unwrap_err();
        assert_eq!(m.to_string(), "expected 4i32, got 3i32");
        assert!(cmp(Value::vector(vec![true]), Value::vector(vec![false])).is_err());
        assert!(cmp(Value::scalar(u64::MAX), Value::scalar(u64::MAX - 1)).is_err());
    }

    #[test]
    fn relative_tolerance() {
        // Threshold 0.002 * 1000 = 2 for the whole array.
        let e = Value::vector(vec![1000.0f64, 1.0]);
        assert!(cmp(Value::vector(vec![1001.9f64, 2.9]), e.clone()).is_ok());
        let m = cmp(Value::vector(vec![1002.5f64, 1.0]), e).unwrap_err();
        assert_eq!(
            m.to_string(),
            "1 of 2 elements differ; first at index [0]: expected 1000.0f64, got 1002.5f64 (tolerance 2.0)"
        );
        match m {
            Mismatch::Elements {
                index,
                count,
                total,
                threshold,
                ..
            } => {
                assert_eq!(index, vec![0]);
                assert_eq!((count, total), (1, 2));
                assert_eq!(threshold, Some(2.0));
            }
            other => panic!("{other:?}"),
        }
        // Negative magnitudes count too.
        let e = Value::vector(vec![-1000.0f32]);
        assert!(cmp(Value::vector(vec![-1001.5f32]), e).is_ok());
    }

    #[test]
    fn absolute_floor() {
        // Near zero the threshold is the tolerance itself.
        assert!(cmp(Value::scalar(0.0015f64), Value::scalar(0.0f64)).is_ok());
        assert!(cmp(Value::scalar(0.0025f64), Value::scalar(0.0f64)).is_err());
        assert!(cmp(Value::scalar(1.0019f32), Value::scalar(1.0f32)).is_ok());
        assert!(cmp(Value::scalar(1.003f32), Value::scalar(1.0f32)).is_err());
        let h = |x: f32| Value::scalar(f16::from_f32(x));
        assert!(cmp(h(1.0), h(1.0)).is_ok());
        assert!(cmp(h(1.5), h(1.0)).is_err());
        assert!(
            compare_values(
                &Value::scalar(1.0001f64),
                &Value::scalar(1.0f64),
                Tolerance::EXACT
            )
            .is_err()
        );
    }

    #[test]
    fn nan_and_infinity() {
        assert!(cmp(Value::scalar(f64::NAN), Value::scalar(f64::NAN)).is_ok());
        assert!(cmp(Value::scalar(f64::NAN), Value::scalar(1.0f64)).is_err());
        assert!(cmp(Value::scalar(1.0f64), Value::scalar(f64::NAN)).is_err());
        assert!(cmp(Value::scalar(f32::INFINITY), Value::scalar(f32::INFINITY)).is_ok());
        assert!(
            cmp(
                Value::scalar(f32::NEG_INFINITY),
                Value::scalar(f32::INFINITY)
            )
            .is_err()
        );
        assert!(cmp(Value::scalar(f64::MAX), Value::scalar(f64::INFINITY)).is_err());
        // Infinities do not widen the threshold.
        let e = Value::vector(vec![f64::INFINITY, 1.0]);
        assert!(cmp(Value::vector(vec![f64::INFINITY, 5.0]), e).is_err());
        // Overflowing differences are mismatches.
        assert!(cmp(Value::scalar(f64::MAX), Value::scalar(-f64::MAX)).is_err());
    }

    #[test]
    fn types_and_shapes_must_match() {
        let m = cmp(Value::vector(vec![1.0f32]), Value::vector(vec![1.0f64])).unwrap_err();
        assert_eq!(m.to_string(), "expected a value of type [1]f64, got [1]f32");
        let a = Value::array(vec![2, 3], vec![0i32; 6]).unwrap();
        let b = Value::array(vec![3, 2], vec![0i32; 6]).unwrap();
        assert!(matches!(cmp(a, b), Err(Mismatch::Shape { .. })));
        let e0 = Value::empty(PrimType::F64, vec![0, 3]).unwrap();
        let e1 = Value::empty(PrimType::F64, vec![3, 0]).unwrap();
        assert!(cmp(e0.clone(), e0.clone()).is_ok());
        assert!(cmp(e0, e1).is_err());
    }

    #[test]
    fn report_names_first_index_and_count() {
        let e = Value::array(vec![2, 2], vec![1i64, 2, 3, 4]).unwrap();
        let g = Value::array(vec![2, 2], vec![1i64, 2, 5, 6]).unwrap();
        let m = cmp(g, e).unwrap_err();
        assert_eq!(
            m.to_string(),
            "2 of 4 elements differ; first at index [1, 0]: expected 3i64, got 5i64"
        );
    }

    #[test]
    fn several() {
        let a = vec![Value::scalar(1i32), Value::scalar(2.0f64)];
        let b = vec![Value::scalar(1i32), Value::scalar(2.5f64)];
        assert!(compare_several(&a, &a, Tolerance::DEFAULT).is_ok());
        let m = compare_several(&a, &b, Tolerance::DEFAULT).unwrap_err();
        assert!(
            m.to_string()
                .starts_with("value #1: expected 2.5f64, got 2.0f64"),
            "{m}"
        );
        let m = compare_several(&a, &b[..1], Tolerance::DEFAULT).unwrap_err();
        assert_eq!(m.to_string(), "expected 1 values, got 2");
    }
}
