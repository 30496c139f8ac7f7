//! Indexing, slicing and in-place updates of arrays, and range expressions.
//!
//! A slice `i:j:s` on a dimension of length `n` has stride `s` (default 1, never 0);
//! for a positive stride `i` defaults to 0 and `j` to `n`, for a negative one `i`
//! defaults to `n-1` and `j` to just before the start (`-1`). The slice holds
//! `i, i+s, …` while before `j`; it must not run backwards and must stay in bounds.

use std::fmt::Write as _;
use std::rc::Rc;

use syntax::ast::{PrimType, RangeEnd};

use crate::scalar::Scalar;
use crate::value::{Array, Value};

/// One evaluated dimension of an index.
#[derive(Clone, Debug, PartialEq)]
pub enum DimIdx {
    /// A single index.
    Fix(i64),
    /// A slice `start:end:stride`.
    Slice(Option<i64>, Option<i64>, Option<i64>),
}

/// Writes an index as the user wrote it, e.g. `[1, 2:5]`.
pub fn show_index(idx: &[DimIdx]) -> String {
    let mut s = String::from("[");
    for (k, d) in idx.iter().enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        match d {
            DimIdx::Fix(i) => {
                let _ = write!(s, "{i}");
            }
            DimIdx::Slice(a, b, c) => {
                if let Some(a) = a {
                    let _ = write!(s, "{a}");
                }
                s.push(':');
                if let Some(b) = b {
                    let _ = write!(s, "{b}");
                }
                if let Some(c) = c {
                    let _ = write!(s, ":{c}");
                }
            }
        }
    }
    s.push(']');
    s
}

/// Writes a shape as `[3][2]`.
pub fn show_shape(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

/// The positions a slice selects in a dimension of length `n`, or `None` if the
/// slice is invalid.
pub fn slice_positions(
    n: usize,
    start: Option<i64>,
    end: Option<i64>,
    stride: Option<i64>,
) -> Option<(i64, i64, usize)> {
    let n = n as i128;
    let s = stride.unwrap_or(1) as i128;
    if s == 0 {
        return None;
    }
    let (i, j) = if s > 0 {
        (start.map_or(0, i128::from), end.map_or(n, i128::from))
    } else {
        (start.map_or(n - 1, i128::from), end.map_or(-1, i128::from))
    };
    let count = if s > 0 {
        if i > j || i < 0 || j > n {
            return None;
        }
        (j - i + s - 1) / s
    } else {
        if i < j || j < -1 || i >= n {
            return None;
        }
        (i - j - s - 1) / (-s)
    };
    if count > 0 && (i < 0 || i >= n) {
        return None;
    }
    Some((i as i64, s as i64, count as usize))
}

fn oob(v: &Value, idx: &[DimIdx]) -> String {
    let slice = idx.iter().any(|d| matches!(d, DimIdx::Slice(..)));
    let msg = format!(
        "Index {} out of bounds for array of shape {}.",
        show_index(idx),
        show_shape(&v.shape())
    );
    if slice {
        format!("Invalid slice: {msg}")
    } else {
        msg
    }
}

/// `v[idx]`.
pub fn index(v: &Value, idx: &[DimIdx]) -> Result<Value, String> {
    go_index(v, idx).ok_or_else(|| oob(v, idx))
}

fn go_index(v: &Value, idx: &[DimIdx]) -> Option<Value> {
    let Some((first, rest)) = idx.split_first() else {
        return Some(v.clone());
    };
    let a = v.as_array()?;
    match first {
        DimIdx::Fix(i) => {
            let i = usize::try_from(*i).ok()?;
            go_index(a.elems.get(i)?, rest)
        }
        DimIdx::Slice(s, e, st) => {
            let (i0, step, count) = slice_positions(a.len(), *s, *e, *st)?;
            let mut out = Vec::with_capacity(count);
            for k in 0..count {
                let p = (i0 + k as i64 * step) as usize;
                out.push(go_index(&a.elems[p], rest)?);
            }
            let proto = match a.example() {
                Some(ex) if out.is_empty() => go_index_proto(&ex, rest).map(Rc::new),
                _ => None,
            };
            Some(Value::array(out, proto))
        }
    }
}

/// The shape-only result of indexing an example element (for empty slices); indices
/// that would be out of bounds in the example are clamped to its first row.
fn go_index_proto(v: &Value, idx: &[DimIdx]) -> Option<Value> {
    let Some((first, rest)) = idx.split_first() else {
        return Some(v.clone());
    };
    let a = v.as_array()?;
    match first {
        DimIdx::Fix(_) => go_index_proto(&a.example()?, rest),
        DimIdx::Slice(..) => {
            let inner = go_index_proto(&a.example()?, rest)?;
            Some(Value::array(Vec::new(), Some(Rc::new(inner))))
        }
    }
}

/// `v with [idx] = new`: updates in place when the array's storage is not shared.
pub fn update(v: Value, idx: &[DimIdx], new: Value) -> Result<Value, String> {
    let shown = oob(&v, idx);
    go_update(v, idx, new).ok_or(shown)
}

fn go_update(v: Value, idx: &[DimIdx], new: Value) -> Option<Value> {
    let Some((first, rest)) = idx.split_first() else {
        return Some(new);
    };
    let Value::Array(mut a) = v else {
        return None;
    };
    match first {
        DimIdx::Fix(i) => {
            let i = usize::try_from(*i).ok()?;
            if i >= a.len() {
                return None;
            }
            let elems = Rc::make_mut(&mut a.elems);
            let old = std::mem::replace(&mut elems[i], Value::unit());
            elems[i] = go_update(old, rest, new)?;
        }
        DimIdx::Slice(s, e, st) => {
            let (i0, step, count) = slice_positions(a.len(), *s, *e, *st)?;
            let Value::Array(src) = new else {
                return None;
            };
            if src.len() != count {
                return None;
            }
            let elems = Rc::make_mut(&mut a.elems);
            for (k, nv) in src.elems.iter().enumerate() {
                let p = (i0 + k as i64 * step) as usize;
                let old = std::mem::replace(&mut elems[p], Value::unit());
                elems[p] = go_update(old, rest, nv.clone())?;
            }
        }
    }
    Some(Value::Array(a))
}

/// The elements of a range expression, of the integer type of `start`.
pub fn range(
    start: &Scalar,
    second: Option<&Scalar>,
    end_kind: RangeEnd,
    end: &Scalar,
) -> Result<Value, String> {
    let t = start.prim_type();
    let (Some(a), Some(b)) = (start.as_i128(), end.as_i128()) else {
        return Err("Invalid range: bounds must be integers.".into());
    };
    let step = match second {
        Some(s) => s.as_i128().unwrap_or(0) - a,
        None if end_kind == RangeEnd::DownToExclusive => -1,
        None => 1,
    };
    let op = match end_kind {
        RangeEnd::Inclusive => "...",
        RangeEnd::UpToExclusive => "..<",
        RangeEnd::DownToExclusive => "..>",
    };
    let invalid = || {
        let mid = second
            .map(|s| format!("..{}", s.as_i128().unwrap_or(0)))
            .unwrap_or_default();
        format!("Invalid range: {a}{mid}{op}{b}.")
    };
    let count: i128 = match end_kind {
        RangeEnd::Inclusive => {
            if step == 0 || (b - a) * step.signum() < 0 {
                return Err(invalid());
            }
            (b - a) / step + 1
        }
        RangeEnd::UpToExclusive => {
            if step <= 0 || b < a {
                return Err(invalid());
            }
            (b - a + step - 1) / step
        }
        RangeEnd::DownToExclusive => {
            if step >= 0 || b > a {
                return Err(invalid());
            }
            (a - b + (-step) - 1) / (-step)
        }
    };
    let mut elems = Vec::new();
    if elems.try_reserve_exact(count as usize).is_err() || count > u32::MAX as i128 {
        return Err(format!("{} (out of memory)", invalid()));
    }
    elems.extend((0..count).map(|k| Value::Scalar(Scalar::from_i128(t, a + k * step))));
    Ok(Value::Array(Array::new(
        elems,
        Some(Rc::new(Value::Scalar(Scalar::zero(t)))),
    )))
}

/// Reads an `i64` index value (any integer type is accepted).
pub fn as_index(s: &Scalar) -> Option<i64> {
    s.as_i128()
        .map(|x| x as i64)
        .filter(|_| s.prim_type() != PrimType::Bool)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(xs: &[i32]) -> Value {
        Value::array(
            xs.iter().map(|&x| Value::Scalar(Scalar::I32(x))).collect(),
            None,
        )
    }

    fn to_vec(v: &Value) -> Vec<i32> {
        v.as_array()
            .unwrap()
            .elems
            .iter()
            .map(|e| match e {
                Value::Scalar(Scalar::I32(x)) => *x,
                _ => panic!("not i32"),
            })
            .collect()
    }

    #[test]
    fn strided_slices() {
        let xs = ints(&[0, 1, 2, 3, 4, 5, 6]);
        let sl = |a, b, c| index(&xs, &[DimIdx::Slice(a, b, c)]).map(|v| to_vec(&v));
        assert_eq!(sl(None, None, Some(-1)), Ok(vec![6, 5, 4, 3, 2, 1, 0]));
        assert_eq!(sl(None, None, Some(2)), Ok(vec![0, 2, 4, 6]));
        assert_eq!(sl(Some(1), Some(6), Some(3)), Ok(vec![1, 4]));
        assert_eq!(sl(Some(5), Some(0), Some(-2)), Ok(vec![5, 3, 1]));
        assert_eq!(sl(Some(2), Some(2), None), Ok(vec![]));
        assert!(
            sl(Some(2), Some(9), None)
                .unwrap_err()
                .contains("Invalid slice")
        );
        assert!(sl(Some(3), Some(1), None).is_err());
        assert!(sl(None, None, Some(0)).is_err());
    }

    #[test]
    fn index_errors_name_index_and_shape() {
        let m = Value::array(vec![ints(&[1, 2]), ints(&[3, 4]), ints(&[5, 6])], None);
        let e = index(&m, &[DimIdx::Fix(1), DimIdx::Fix(2)]).unwrap_err();
        assert_eq!(e, "Index [1, 2] out of bounds for array of shape [3][2].");
        let e = index(&ints(&[1]), &[DimIdx::Fix(-1)]).unwrap_err();
        assert_eq!(e, "Index [-1] out of bounds for array of shape [1].");
    }

    #[test]
    fn updates_copy_shared_storage() {
        let xs = ints(&[1, 2, 3]);
        let ys = update(xs.clone(), &[DimIdx::Fix(1)], Value::Scalar(Scalar::I32(9))).unwrap();
        assert_eq!(to_vec(&xs), vec![1, 2, 3]);
        assert_eq!(to_vec(&ys), vec![1, 9, 3]);
        let zs = update(ys, &[DimIdx::Slice(Some(0), Some(2), None)], ints(&[7, 8])).unwrap();
        assert_eq!(to_vec(&zs), vec![7, 8, 3]);
        assert!(update(zs, &[DimIdx::Fix(3)], Value::Scalar(Scalar::I32(0))).is_err());
    }

    #[test]
    fn extreme_slices_do_not_overflow() {
        let xs = ints(&[1, 2, 3]);
        assert!(index(&xs, &[DimIdx::Slice(Some(1), Some(0), Some(i64::MIN))]).is_ok());
        assert!(index(&xs, &[DimIdx::Slice(Some(i64::MIN), Some(i64::MAX), None)]).is_err());
        assert!(index(&xs, &[DimIdx::Fix(i64::MIN)]).is_err());
    }

    #[test]
    fn ranges() {
        let r = |a: i32, s: Option<i32>, k, b: i32| {
            range(
                &Scalar::I32(a),
                s.map(Scalar::I32).as_ref(),
                k,
                &Scalar::I32(b),
            )
            .map(|v| to_vec(&v))
        };
        assert_eq!(r(1, None, RangeEnd::UpToExclusive, 5), Ok(vec![1, 2, 3, 4]));
        assert_eq!(r(1, None, RangeEnd::Inclusive, 3), Ok(vec![1, 2, 3]));
        assert_eq!(r(5, None, RangeEnd::DownToExclusive, 2), Ok(vec![5, 4, 3]));
        assert_eq!(
            r(0, Some(2), RangeEnd::UpToExclusive, 7),
            Ok(vec![0, 2, 4, 6])
        );
        assert_eq!(r(5, Some(3), RangeEnd::Inclusive, 0), Ok(vec![5, 3, 1]));
        assert_eq!(r(2, None, RangeEnd::UpToExclusive, 2), Ok(vec![]));
        assert!(
            r(5, None, RangeEnd::UpToExclusive, 1)
                .unwrap_err()
                .contains("Invalid range")
        );
        assert!(r(1, Some(1), RangeEnd::Inclusive, 3).is_err());
    }
}
