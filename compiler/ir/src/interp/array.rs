//! Array helpers for the interpreter: element access on flat buffers,
//! index and slice resolution with bounds checks, and stacking rows.

use values::{Data, PrimType, PrimValue, Value};

use super::scalar::zero;

/// A resolved dimension index.
#[derive(Clone, Copy, Debug)]
pub enum Dim {
    /// A fixed index.
    Fix(i64),
    /// `start:+len*stride`.
    Range {
        /// First index.
        start: i64,
        /// Number of elements.
        len: i64,
        /// Step.
        stride: i64,
    },
}

/// Sets element `i` of `d`; false when out of range or of another type.
pub fn set(d: &mut Data, i: usize, x: PrimValue) -> bool {
    macro_rules! put {
        ($v:expr, $x:expr) => {
            match $v.get_mut(i) {
                Some(slot) => {
                    *slot = $x;
                    true
                }
                None => false,
            }
        };
    }
    match (d, x) {
        (Data::I8(v), PrimValue::I8(x)) => put!(v, x),
        (Data::I16(v), PrimValue::I16(x)) => put!(v, x),
        (Data::I32(v), PrimValue::I32(x)) => put!(v, x),
        (Data::I64(v), PrimValue::I64(x)) => put!(v, x),
        (Data::U8(v), PrimValue::U8(x)) => put!(v, x),
        (Data::U16(v), PrimValue::U16(x)) => put!(v, x),
        (Data::U32(v), PrimValue::U32(x)) => put!(v, x),
        (Data::U64(v), PrimValue::U64(x)) => put!(v, x),
        (Data::F16(v), PrimValue::F16(x)) => put!(v, x),
        (Data::F32(v), PrimValue::F32(x)) => put!(v, x),
        (Data::F64(v), PrimValue::F64(x)) => put!(v, x),
        (Data::Bool(v), PrimValue::Bool(x)) => put!(v, x),
        _ => false,
    }
}

/// A buffer of `n` zeros of type `t`.
pub fn zeros(t: PrimType, n: usize) -> Data {
    let mut d = Data::with_capacity(t, n);
    let z = zero(t);
    for _ in 0..n {
        d.push(z);
    }
    d
}

/// `shape` as text: `[2][3]`.
pub fn shape_text(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

fn dims_text(idx: &[Dim]) -> String {
    let parts: Vec<String> = idx
        .iter()
        .map(|d| match d {
            Dim::Fix(i) => i.to_string(),
            Dim::Range { start, len, stride } => format!("{start}:+{len}*{stride}"),
        })
        .collect();
    parts.join(", ")
}

/// Where the elements of `arr[idx]` are: the result's shape, the flat
/// start of each contiguous block (in row-major order of the result) and
/// the block length. Fails with Futhark's messages when out of bounds.
pub fn blocks(shape: &[usize], idx: &[Dim]) -> Result<(Vec<usize>, Vec<usize>, usize), String> {
    if idx.len() > shape.len() {
        return Err(format!(
            "Index [{}] out of bounds for array of shape {}.",
            dims_text(idx),
            shape_text(shape)
        ));
    }
    // A slice out of bounds is an invalid slice, as in the reference
    // interpreter.
    let slice = idx.iter().any(|d| matches!(d, Dim::Range { .. }));
    let oob = || {
        format!(
            "{}Index [{}] out of bounds for array of shape {}.",
            if slice { "Invalid slice: " } else { "" },
            dims_text(idx),
            shape_text(shape)
        )
    };
    let block: usize = shape[idx.len()..].iter().product();
    let mut strides = vec![0usize; shape.len()];
    let mut acc = 1usize;
    for d in (0..shape.len()).rev() {
        strides[d] = acc;
        acc = acc.saturating_mul(shape[d]);
    }
    let mut result_shape = Vec::new();
    let mut starts = vec![0usize];
    for (d, ix) in idx.iter().enumerate() {
        let n = shape[d] as i64;
        match *ix {
            Dim::Fix(i) => {
                if i < 0 || i >= n {
                    return Err(oob());
                }
                for s in &mut starts {
                    *s += i as usize * strides[d];
                }
            }
            Dim::Range { start, len, stride } => {
                if len < 0 || (stride == 0 && len > 1) {
                    return Err(format!("Invalid slice [{}].", dims_text(idx)));
                }
                if len > 0 {
                    let last = stride
                        .checked_mul(len - 1)
                        .and_then(|x| x.checked_add(start))
                        .ok_or_else(oob)?;
                    if start < 0 || start >= n || last < 0 || last >= n {
                        return Err(oob());
                    }
                }
                result_shape.push(len as usize);
                let mut next = Vec::with_capacity(starts.len() * len as usize);
                for s in &starts {
                    for k in 0..len {
                        next.push(s + (start + k * stride) as usize * strides[d]);
                    }
                }
                starts = next;
            }
        }
    }
    result_shape.extend_from_slice(&shape[idx.len()..]);
    Ok((result_shape, starts, block))
}

/// Copies `n` elements from `src[si..]` to `dst[di..]`.
pub fn copy_elems(dst: &mut Data, di: usize, src: &Data, si: usize, n: usize) -> bool {
    (0..n).all(|k| src.get(si + k).is_some_and(|x| set(dst, di + k, x)))
}

/// `arr[idx]` as a new value.
pub fn gather(arr: &Value, idx: &[Dim]) -> Result<Value, String> {
    let (shape, starts, block) = blocks(arr.shape(), idx)?;
    let mut data = Data::with_capacity(arr.prim_type(), starts.len() * block);
    for s in starts {
        for k in 0..block {
            if let Some(x) = arr.data().get(s + k) {
                data.push(x);
            }
        }
    }
    Value::new(shape, data).map_err(|e| e.to_string())
}

/// Stacks rows of equal shape `row_shape` into an array of `rows.len()`
/// rows.
pub fn stack(elem: PrimType, row_shape: &[usize], rows: &[Value]) -> Result<Value, String> {
    let row_len: usize = row_shape.iter().product();
    let mut data = Data::with_capacity(elem, rows.len() * row_len);
    for r in rows {
        if r.shape() != row_shape || r.prim_type() != elem {
            return Err(format!(
                "Size mismatch: rows of shape {} and {} in one array",
                shape_text(row_shape),
                shape_text(r.shape())
            ));
        }
        for x in r.data().iter() {
            data.push(x);
        }
    }
    let mut shape = vec![rows.len()];
    shape.extend_from_slice(row_shape);
    Value::new(shape, data).map_err(|e| e.to_string())
}
