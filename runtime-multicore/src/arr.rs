//! Arrays of generated code and the failures of generated code.
//!
//! An [`Arr`] is a shape and a flat, row-major buffer shared through an
//! [`Arc`]: aliasing an array (passing it on, binding it to another name,
//! reshaping it) costs nothing, and an in-place update writes into the
//! buffer when nothing else holds it ([`Arc::make_mut`]), copying it
//! otherwise. Generated code moves an array into its last use, so the
//! updates of a unique array in a loop happen in place.
//!
//! Every operation that can fail returns the message of the reference
//! interpreter (`Index [3] out of bounds for array of shape [3].`); the
//! generated code adds the source location and turns it into a [`Fail`].

use std::sync::Arc;

use values::{Data, PrimType, PrimValue, Value, f16};

pub use crate::shape::Shape;

/// A run-time failure of generated code: a message and the source span
/// (file number, start and end byte) of the statement that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fail {
    /// The message.
    pub message: String,
    /// File number, start and end byte; all zero when unknown.
    pub span: (u32, u32, u32),
}

/// The result type of generated functions.
pub type R<T> = Result<T, Fail>;

/// The source location of a statement of generated code: file number,
/// start and end byte. Generated functions keep theirs in a table and pass
/// a reference to an entry, which failing operations read only on their
/// (cold) failure path.
pub type Loc = (u32, u32, u32);

/// Attaches a span to the message of a failed operation.
#[inline]
pub fn at<T>(r: Result<T, String>, span: Loc) -> R<T> {
    match r {
        Ok(x) => Ok(x),
        Err(message) => Err(failure(message, &span)),
    }
}

/// The failure of an operation at `loc` with `message`, built out of line.
#[cold]
#[inline(never)]
pub fn failure(message: String, loc: &Loc) -> Fail {
    Fail {
        message,
        span: *loc,
    }
}

/// The failure of an assertion without arguments: `Assertion is false: `
/// and its message.
#[cold]
#[inline(never)]
pub fn assertion_failure(msg: &str, loc: &Loc) -> Fail {
    failure(format!("Assertion is false: {msg}"), loc)
}

/// The failure of an assertion whose message has `{}` holes, filled with
/// `vals` as [`fill_message`] does.
#[cold]
#[inline(never)]
pub fn assertion_failure_with(msg: &str, vals: &[PrimValue], loc: &Loc) -> Fail {
    failure(fill_message(msg, vals), loc)
}

/// A failure at `span`.
pub fn fail<T>(message: impl Into<String>, span: (u32, u32, u32)) -> R<T> {
    Err(Fail {
        message: message.into(),
        span,
    })
}

/// Seals [`Elem`]: only this crate's primitive types implement it, so
/// that their all-zero bit pattern is known to be their default value.
mod sealed {
    /// Implemented by the primitive types only.
    pub trait Prim {}
}

/// A primitive element type of generated code (implemented by this
/// crate's primitive types only; the all-zero bit pattern of each is a
/// valid value, its default).
pub trait Elem:
    sealed::Prim + Copy + Default + Send + Sync + PartialEq + std::fmt::Debug + 'static
{
    /// Its Futhark type.
    const PRIM: PrimType;
    /// The buffer inside `d`, when `d` holds this type.
    fn from_data(d: Data) -> Option<Vec<Self>>;
    /// Wraps a buffer as [`Data`].
    fn into_data(v: Vec<Self>) -> Data;
    /// The scalar inside `p`, when it has this type.
    fn from_prim(p: PrimValue) -> Option<Self>;
    /// The scalar as a [`PrimValue`].
    fn to_prim(self) -> PrimValue;
}

macro_rules! elem {
    ($($t:ty => $v:ident),*) => {
        $(impl sealed::Prim for $t {}
        impl Elem for $t {
            const PRIM: PrimType = PrimType::$v;
            fn from_data(d: Data) -> Option<Vec<Self>> {
                match d {
                    Data::$v(v) => Some(v),
                    _ => None,
                }
            }
            fn into_data(v: Vec<Self>) -> Data {
                Data::$v(v)
            }
            fn from_prim(p: PrimValue) -> Option<Self> {
                match p {
                    PrimValue::$v(x) => Some(x),
                    _ => None,
                }
            }
            fn to_prim(self) -> PrimValue {
                PrimValue::$v(self)
            }
        })*
    };
}

elem!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, f16 => F16, f32 => F32, f64 => F64, bool => Bool);

/// One dimension of an index: a fixed position or `start:+len*stride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ix {
    /// A fixed index; the dimension disappears.
    Fix(i64),
    /// The elements `start + k*stride` for `k < len`.
    Range(i64, i64, i64),
}

/// `[2][3]`.
pub fn shape_text(shape: &[usize]) -> String {
    shape.iter().map(|d| format!("[{d}]")).collect()
}

fn ix_text(idx: &[Ix]) -> String {
    let parts: Vec<String> = idx
        .iter()
        .map(|d| match d {
            Ix::Fix(i) => i.to_string(),
            Ix::Range(s, l, st) => format!("{s}:+{l}*{st}"),
        })
        .collect();
    parts.join(", ")
}

/// A regular array: shape and shared row-major buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Arr<T> {
    /// The dimensions, outermost first.
    pub shape: Shape,
    /// The elements.
    pub data: Arc<Vec<T>>,
}

impl<T: Elem> Default for Arr<T> {
    fn default() -> Self {
        Arr {
            shape: Shape::from([0]),
            data: Arc::new(Vec::new()),
        }
    }
}

/// Checks and converts sizes (`i64`) to a shape.
pub fn shape_of(dims: &[i64]) -> Result<Shape, String> {
    let size = |d: i64| usize::try_from(d).map_err(|_| negative_size(d));
    if dims.len() <= crate::shape::INLINE_RANK {
        let mut a = [0; crate::shape::INLINE_RANK];
        for (s, &d) in a.iter_mut().zip(dims) {
            *s = size(d)?;
        }
        Ok(Shape::Inline(dims.len() as u8, a))
    } else {
        dims.iter()
            .map(|&d| size(d))
            .collect::<Result<Vec<usize>, String>>()
            .map(Shape::from)
    }
}

#[cold]
#[inline(never)]
fn negative_size(d: i64) -> String {
    format!("Invalid range: negative size {d}")
}

/// The flat start and length of the block `a[idx]` of an array of shape
/// `shape`, when every index is fixed (a row, a plane, an element) and in
/// bounds; `None` otherwise (sliced, or out of bounds).
#[inline]
fn fixed_block(shape: &[usize], idx: &[Ix]) -> Option<(usize, usize)> {
    if idx.len() > shape.len() {
        return None;
    }
    let mut off = 0usize;
    for (ix, &n) in idx.iter().zip(shape) {
        match *ix {
            Ix::Fix(i) if (i as u64) < n as u64 => off = off * n + i as usize,
            _ => return None,
        }
    }
    let len: usize = shape[idx.len()..].iter().product();
    Some((off * len, len))
}

impl<T: Elem> Arr<T> {
    /// An array from its shape and buffer (whose length is the product of
    /// the shape).
    #[inline]
    pub fn new(shape: impl Into<Shape>, data: Vec<T>) -> Arr<T> {
        Arr {
            shape: shape.into(),
            data: Arc::new(data),
        }
    }

    /// Size of dimension `d` (0 when missing).
    #[inline]
    pub fn dim(&self, d: usize) -> i64 {
        self.as_row().dim(d)
    }

    /// Number of elements of one row.
    #[inline]
    pub fn row_len(&self) -> usize {
        self.as_row().row_len()
    }

    /// The elements.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }

    /// The elements, to be written (copied first when shared).
    #[inline]
    pub fn make_mut(&mut self) -> &mut Vec<T> {
        Arc::make_mut(&mut self.data)
    }

    /// A value of the value formats.
    pub fn from_value(v: Value, rank: usize) -> Result<Arr<T>, String> {
        if v.rank() != rank || v.prim_type() != T::PRIM {
            return Err(format!(
                "expected a value of type {}{}, got {}",
                "[]".repeat(rank),
                T::PRIM,
                v.value_type()
            ));
        }
        let (shape, data) = v.into_parts();
        let data = T::from_data(data).ok_or("element type mismatch")?;
        Ok(Arr::new(shape, data))
    }

    /// As a value of the value formats.
    pub fn to_value(self) -> Value {
        let data = Arc::try_unwrap(self.data).unwrap_or_else(|a| (*a).clone());
        Value::new(self.shape.to_vec(), T::into_data(data))
            .unwrap_or_else(|_| Value::scalar(T::default().to_prim()))
    }

    /// The whole array as a borrowed [`Row`].
    #[inline]
    pub fn as_row(&self) -> Row<'_, T> {
        Row {
            shape: &self.shape,
            data: &self.data,
        }
    }

    /// The flat position of a full index, with a bounds check.
    pub fn flat(&self, idx: &[i64]) -> Result<usize, String> {
        self.as_row().flat(idx)
    }

    /// The element at a full index, with a bounds check.
    #[inline]
    pub fn get(&self, idx: &[i64]) -> Result<T, String> {
        self.as_row().get(idx)
    }

    fn blocks(&self, idx: &[Ix]) -> Result<(Vec<usize>, Vec<usize>, usize), String> {
        blocks(&self.shape, idx)
    }

    /// `self[idx]` as a new array (a row, a slice, a strided slice).
    pub fn slice(&self, idx: &[Ix]) -> Result<Arr<T>, String> {
        self.as_row().slice(idx)
    }

    /// Row `i` (no bounds check beyond the buffer's).
    #[inline]
    pub fn row(&self, i: usize) -> Arr<T> {
        self.as_row().row(i)
    }

    /// Writes the element at a full index; consumes and returns the array.
    pub fn update1(mut self, idx: &[i64], v: T) -> Result<Arr<T>, String> {
        let k = self.flat(idx)?;
        self.make_mut()[k] = v;
        Ok(self)
    }

    /// Writes `v` into `self[idx]`; consumes and returns the array.
    pub fn update(mut self, idx: &[Ix], v: &Arr<T>) -> Result<Arr<T>, String> {
        if let Some((off, len)) = fixed_block(&self.shape, idx)
            && v.shape[..] == self.shape[idx.len()..]
            && v.data.len() == len
        {
            self.make_mut()[off..off + len].copy_from_slice(&v.data);
            return Ok(self);
        }
        let (shape, starts, block) = self.blocks(idx)?;
        if v.shape[..] != shape[..] {
            return Err(format!(
                "Size mismatch: writing a value of shape {} into a slice of shape {}",
                shape_text(&v.shape),
                shape_text(&shape)
            ));
        }
        let data = self.make_mut();
        for (k, s) in starts.iter().enumerate() {
            data[*s..s + block].copy_from_slice(&v.data[k * block..(k + 1) * block]);
        }
        Ok(self)
    }

    /// An array of the given shape filled with `v`.
    pub fn replicate(dims: &[i64], v: T) -> Result<Arr<T>, String> {
        let shape = shape_of(dims)?;
        let n = shape.iter().product();
        Ok(Arr::new(shape, vec![v; n]))
    }

    /// An array of unspecified (default) contents.
    pub fn scratch(dims: &[i64]) -> Result<Arr<T>, String> {
        Arr::replicate(dims, T::default())
    }

    /// The same elements with another shape (no copy).
    pub fn reshape(&self, dims: &[i64]) -> Result<Arr<T>, String> {
        let shape = shape_of(dims)?;
        if shape.iter().product::<usize>() != self.data.len() {
            return Err(format!(
                "Invalid reshape: cannot reshape array of shape {} into {}",
                shape_text(&self.shape),
                shape_text(&shape)
            ));
        }
        Ok(Arr {
            shape,
            data: self.data.clone(),
        })
    }

    /// Dimension `i` of the result is dimension `perm[i]` of `self`.
    pub fn rearrange(&self, perm: &[usize]) -> Arr<T> {
        if let (&[1, 0], &[n, m]) = (perm, &self.shape[..]) {
            let mut out = Vec::with_capacity(n * m);
            for j in 0..m {
                out.extend((0..n).map(|i| self.data[i * m + j]));
            }
            return Arr::new([m, n], out);
        }
        let r = self.shape.len();
        let new_shape: Vec<usize> = perm.iter().map(|&p| self.shape[p]).collect();
        let mut old_strides = vec![1usize; r];
        for d in (0..r.saturating_sub(1)).rev() {
            old_strides[d] = old_strides[d + 1] * self.shape[d + 1];
        }
        let strides: Vec<usize> = perm.iter().map(|&p| old_strides[p]).collect();
        let n = self.data.len();
        let mut out = Vec::with_capacity(n);
        let mut idx = vec![0usize; r];
        for _ in 0..n {
            let off: usize = idx.iter().zip(&strides).map(|(i, s)| i * s).sum();
            out.push(self.data[off]);
            for d in (0..r).rev() {
                idx[d] += 1;
                if idx[d] < new_shape[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
        Arr::new(new_shape, out)
    }

    /// A fresh copy.
    pub fn copy(&self) -> Arr<T> {
        Arr::new(self.shape.clone(), self.data.to_vec())
    }

    /// The array with a buffer of its own: the same one when nothing else
    /// holds it, else a copy (a copy of an array that is not used again).
    #[inline]
    pub fn into_unique(mut self) -> Arr<T> {
        Arc::make_mut(&mut self.data);
        self
    }

    /// Concatenation along dimension `dim`, whose result size is `len`.
    pub fn concat(dim: usize, len: i64, arrs: &[&Arr<T>]) -> Result<Arr<T>, String> {
        let first = arrs.first().ok_or("concat of no arrays")?;
        if dim >= first.shape.len() {
            return Err("concat along a missing dimension".into());
        }
        let mut total = 0;
        for a in arrs {
            let same_rows = a.shape.len() == first.shape.len()
                && a.shape
                    .iter()
                    .zip(first.shape.iter())
                    .enumerate()
                    .all(|(d, (x, y))| d == dim || x == y);
            if !same_rows {
                return Err(format!(
                    "Size mismatch: cannot concatenate arrays of shape {} and {}",
                    shape_text(&first.shape),
                    shape_text(&a.shape)
                ));
            }
            total += a.shape[dim];
        }
        if total as i64 != len {
            return Err(format!(
                "Size mismatch: concatenation has {total} elements along dimension {dim}, expected {len}"
            ));
        }
        let outer: usize = first.shape[..dim].iter().product();
        let mut data = Vec::with_capacity(arrs.iter().map(|a| a.data.len()).sum());
        for o in 0..outer {
            for a in arrs {
                let chunk: usize = a.shape[dim..].iter().product();
                data.extend_from_slice(&a.data[o * chunk..(o + 1) * chunk]);
            }
        }
        let mut shape = first.shape.clone();
        shape[dim] = total;
        Ok(Arr::new(shape, data))
    }

    /// Stacks `w` rows of shape `row_shape`, given as one flat buffer.
    pub fn stacked(w: usize, row_shape: &[usize], data: Vec<T>) -> Result<Arr<T>, String> {
        let shape = Shape::stacked(w, row_shape);
        if shape.iter().product::<usize>() != data.len() {
            return Err(format!(
                "Size mismatch: rows of irregular shape in one array of shape {}",
                shape_text(&shape)
            ));
        }
        Ok(Arr::new(shape, data))
    }

    /// Checks that the outer dimension is at least `w` (the width of a SOAC
    /// reading the array's rows).
    #[inline]
    pub fn check_rows(&self, w: i64) -> Result<(), String> {
        self.as_row().check_rows(w)
    }
}

fn oob(shape: &[usize], idx: &[Ix]) -> String {
    let slice = idx.iter().any(|d| matches!(d, Ix::Range(..)));
    format!(
        "{}Index [{}] out of bounds for array of shape {}.",
        if slice { "Invalid slice: " } else { "" },
        ix_text(idx),
        shape_text(shape)
    )
}

fn oob_fixed(shape: &[usize], idx: &[i64]) -> String {
    oob(shape, &idx.iter().map(|&i| Ix::Fix(i)).collect::<Vec<_>>())
}

/// Where the elements of `a[idx]` are, for an array `a` of shape `shape`:
/// the result's shape, the flat start of each contiguous block, and the
/// block length.
fn blocks(shape: &[usize], idx: &[Ix]) -> Result<(Vec<usize>, Vec<usize>, usize), String> {
    if idx.len() > shape.len() {
        return Err(oob(shape, idx));
    }
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
            Ix::Fix(i) => {
                if i < 0 || i >= n {
                    return Err(oob(shape, idx));
                }
                for s in &mut starts {
                    *s += i as usize * strides[d];
                }
            }
            Ix::Range(start, len, stride) => {
                if len < 0 || (stride == 0 && len > 1) {
                    return Err(format!("Invalid slice [{}].", ix_text(idx)));
                }
                if len > 0 {
                    let last = stride
                        .checked_mul(len - 1)
                        .and_then(|x| x.checked_add(start))
                        .ok_or_else(|| oob(shape, idx))?;
                    if start < 0 || start >= n || last < 0 || last >= n {
                        return Err(oob(shape, idx));
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

/// A borrowed, read-only view of an array or of one of its rows: what a
/// SOAC's iteration binds to a row it only reads, so that reading it
/// neither allocates nor copies. It reads like an [`Arr`] (same methods,
/// same messages); what needs an array of its own (a slice, a row to keep)
/// is copied out.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a, T> {
    /// The dimensions, outermost first.
    pub shape: &'a [usize],
    /// The elements, row-major.
    pub data: &'a [T],
}

impl<'a, T: Elem> Row<'a, T> {
    /// Size of dimension `d` (0 when missing).
    #[inline]
    pub fn dim(&self, d: usize) -> i64 {
        self.shape.get(d).copied().unwrap_or(0) as i64
    }

    /// Number of elements of one row.
    #[inline]
    pub fn row_len(&self) -> usize {
        self.shape.iter().skip(1).product()
    }

    /// The elements.
    #[inline]
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }

    /// The flat position of a full index; `None` when out of bounds.
    #[inline]
    fn flat_pos(&self, idx: &[i64]) -> Option<usize> {
        if idx.len() != self.shape.len() {
            return None;
        }
        let mut off = 0usize;
        for (&i, &n) in idx.iter().zip(self.shape) {
            if (i as u64) >= n as u64 {
                return None;
            }
            off = off * n + i as usize;
        }
        Some(off)
    }

    /// The flat position of a full index, with a bounds check.
    #[inline]
    pub fn flat(&self, idx: &[i64]) -> Result<usize, String> {
        if idx.len() != self.shape.len() {
            return Err(oob_fixed(self.shape, idx));
        }
        let mut off = 0usize;
        for (&i, &n) in idx.iter().zip(self.shape) {
            match usize::try_from(i).ok().filter(|&i| i < n) {
                Some(i) => off = off * n + i,
                None => return Err(oob_fixed(self.shape, idx)),
            }
        }
        Ok(off)
    }

    /// The element at a full index, with a bounds check.
    #[inline]
    pub fn get(&self, idx: &[i64]) -> Result<T, String> {
        let k = self.flat(idx)?;
        Ok(self.data[k])
    }

    /// `self[idx]` as a new array (a row, a slice, a strided slice).
    pub fn slice(&self, idx: &[Ix]) -> Result<Arr<T>, String> {
        if let Some((off, len)) = fixed_block(self.shape, idx) {
            return Ok(Arr::new(
                Shape::from_slice(&self.shape[idx.len()..]),
                self.data[off..off + len].to_vec(),
            ));
        }
        let (shape, starts, block) = blocks(self.shape, idx)?;
        let mut out = Vec::with_capacity(starts.len() * block);
        for s in starts {
            out.extend_from_slice(&self.data[s..s + block]);
        }
        Ok(Arr::new(shape, out))
    }

    /// Row `i`, borrowed (no bounds check beyond the buffer's).
    #[inline]
    pub fn row_ref(&self, i: usize) -> Row<'a, T> {
        let n = self.row_len();
        Row {
            shape: &self.shape[1..],
            data: &self.data[i * n..(i + 1) * n],
        }
    }

    /// Row `i` as an array of its own (a copy).
    #[inline]
    pub fn row(&self, i: usize) -> Arr<T> {
        self.row_ref(i).to_arr()
    }

    /// A copy as an array of its own.
    pub fn to_arr(&self) -> Arr<T> {
        Arr::new(self.shape.to_vec(), self.data.to_vec())
    }

    /// Checks that the outer dimension is at least `w` (the width of a SOAC
    /// reading the rows).
    #[inline]
    pub fn check_rows(&self, w: i64) -> Result<(), String> {
        if w > 0 && self.dim(0) < w {
            return Err(self.too_few_rows());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_few_rows(&self) -> String {
        format!(
            "Index [{}] out of bounds for array of shape {}.",
            self.dim(0),
            shape_text(self.shape)
        )
    }
}

impl<T: Elem> Arr<T> {
    /// The flat position of the element at a full index; `None` when out
    /// of bounds (for accumulator updates, which ignore such writes).
    #[inline]
    pub fn pos(&self, idx: &[i64]) -> Option<usize> {
        self.as_row().flat_pos(idx)
    }

    /// The flat start and length of the block `self[idx]` for a prefix
    /// `idx` of fixed indices; `None` when out of bounds.
    #[inline]
    pub fn block(&self, idx: &[i64]) -> Option<(usize, usize)> {
        if idx.len() > self.shape.len() {
            return None;
        }
        let mut off = 0usize;
        for (&i, &n) in idx.iter().zip(&self.shape) {
            let i = usize::try_from(i).ok().filter(|&i| i < n)?;
            off = off * n + i;
        }
        let len: usize = self.shape[idx.len()..].iter().product();
        Some((off * len, len))
    }
}

/// The next argument of an entry function.
pub fn next_arg(it: &mut impl Iterator<Item = Value>) -> R<Value> {
    it.next().ok_or_else(|| Fail {
        message: "too few arguments".into(),
        span: (0, 0, 0),
    })
}

/// A scalar argument of an entry point.
pub fn scalar_arg<T: Elem>(v: Value) -> Result<T, String> {
    v.as_scalar()
        .and_then(T::from_prim)
        .ok_or_else(|| format!("expected a {}, got {}", T::PRIM, v.value_type()))
}

/// A scalar result of an entry point.
pub fn scalar_value<T: Elem>(x: T) -> Value {
    Value::scalar(x.to_prim())
}

/// An assertion's message: each `{}` of `msg` filled with the next of
/// `vals` (integers and booleans without a type suffix).
pub fn fill_message(msg: &str, vals: &[PrimValue]) -> String {
    let mut out = String::new();
    let mut vals = vals.iter();
    let mut rest = msg;
    while let Some(k) = rest.find("{}") {
        let Some(v) = vals.next() else {
            break;
        };
        out.push_str(&rest[..k]);
        match (v.as_i128(), v.as_bool()) {
            (Some(i), _) => out.push_str(&i.to_string()),
            (None, Some(b)) => out.push_str(if b { "true" } else { "false" }),
            _ => out.push_str(&v.to_string()),
        }
        rest = &rest[k + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_updates_and_messages() {
        let a = Arr::new(vec![2, 3], vec![1, 2, 3, 4, 5, 6i32]);
        assert_eq!(a.get(&[1, 2]), Ok(6));
        assert_eq!(
            a.get(&[2, 0]),
            Err("Index [2, 0] out of bounds for array of shape [2][3].".into())
        );
        let col = a.slice(&[Ix::Range(0, 2, 1), Ix::Fix(1)]).unwrap();
        assert_eq!(
            (col.shape.to_vec(), col.as_slice().to_vec()),
            (vec![2], vec![2, 5])
        );
        let t = a.rearrange(&[1, 0]);
        assert_eq!(t.as_slice(), &[1, 4, 2, 5, 3, 6]);
        let alias = a.clone();
        let shared = alias.clone().into_unique();
        assert!(
            !Arc::ptr_eq(&shared.data, &alias.data),
            "a shared buffer is copied"
        );
        assert_eq!(shared, alias);
        let own = shared.clone().copy();
        let ptr = Arc::as_ptr(&own.data);
        assert_eq!(
            Arc::as_ptr(&own.into_unique().data),
            ptr,
            "an unshared one is kept"
        );
        let b = a.update1(&[0, 0], 9).unwrap();
        assert_eq!(alias.as_slice()[0], 1, "a shared buffer is copied on write");
        assert_eq!(b.as_slice()[0], 9);
        let c = Arr::concat(0, 4, &[&b, &alias]).unwrap();
        assert_eq!(c.shape, vec![4, 3]);
        assert!(b.reshape(&[4]).is_err());
        // A borrowed row reads like the copied one.
        let r = alias.as_row().row_ref(1);
        let loc: Loc = (1, 20, 27);
        assert_eq!(
            assertion_failure("x > 0", &loc).message,
            "Assertion is false: x > 0"
        );
        assert_eq!(
            assertion_failure_with("bad {}", &[3i64.into()], &loc),
            Fail {
                message: "bad 3".into(),
                span: loc
            }
        );
        assert_eq!(r.as_slice(), alias.row(1).as_slice());
        let cube = Arr::new(vec![2, 2, 2], (0..8).collect::<Vec<i64>>());
        let plane = cube.as_row().row_ref(1);
        assert_eq!(plane.get(&[1, 0]), Ok(6));
        assert_eq!(
            plane.get(&[0, 2]),
            Err("Index [0, 2] out of bounds for array of shape [2][2].".into())
        );
        assert_eq!(plane.row_ref(1).as_slice(), &[6, 7]);
        assert_eq!(plane.row(0), Arr::new(vec![2], vec![4, 5]));
        assert_eq!(
            plane.slice(&[Ix::Range(0, 2, 1), Ix::Fix(1)]).unwrap(),
            Arr::new(vec![2], vec![5, 7])
        );
        assert!(plane.check_rows(3).is_err());
        assert_eq!(
            fill_message("Invalid range: {}...{}.", &[5i64.into(), 1i64.into()]),
            "Invalid range: 5...1."
        );
    }
}
