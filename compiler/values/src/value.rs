//! Values: scalars and regular multi-dimensional arrays of one primitive type.
//!
//! A [`Value`] is a shape (`Vec<usize>`, empty for a scalar) plus a typed,
//! flat, row-major buffer ([`Data`]) whose length is the product of the
//! shape. Empty arrays keep their element type and full shape (`[0][3]f64`
//! and `[3][0]f64` are different values). The invariant is checked by every
//! constructor, so code holding a `Value` may rely on it.
//!
//! [`ValueType`] is a value's concrete type (shape and element type, printed
//! `[2][3]f32`); [`RankedType`] is a type with only a rank (printed
//! `[][]f32`), as an entry point parameter declares it, and is what the
//! readers check input against.

use std::fmt;

use half::f16;

use crate::prim::{PrimType, PrimValue};

/// A typed, flat buffer of primitive values.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// `i8` elements.
    I8(Vec<i8>),
    /// `i16` elements.
    I16(Vec<i16>),
    /// `i32` elements.
    I32(Vec<i32>),
    /// `i64` elements.
    I64(Vec<i64>),
    /// `u8` elements.
    U8(Vec<u8>),
    /// `u16` elements.
    U16(Vec<u16>),
    /// `u32` elements.
    U32(Vec<u32>),
    /// `u64` elements.
    U64(Vec<u64>),
    /// `f16` elements.
    F16(Vec<f16>),
    /// `f32` elements.
    F32(Vec<f32>),
    /// `f64` elements.
    F64(Vec<f64>),
    /// `bool` elements.
    Bool(Vec<bool>),
}

/// Applies an expression to the vector inside any [`Data`] variant.
macro_rules! with_data {
    ($data:expr, $v:ident => $e:expr) => {
        match $data {
            Data::I8($v) => $e,
            Data::I16($v) => $e,
            Data::I32($v) => $e,
            Data::I64($v) => $e,
            Data::U8($v) => $e,
            Data::U16($v) => $e,
            Data::U32($v) => $e,
            Data::U64($v) => $e,
            Data::F16($v) => $e,
            Data::F32($v) => $e,
            Data::F64($v) => $e,
            Data::Bool($v) => $e,
        }
    };
}

impl Data {
    /// An empty buffer of element type `t`.
    pub fn empty(t: PrimType) -> Data {
        Data::with_capacity(t, 0)
    }

    /// An empty buffer of element type `t` with room for `n` elements.
    pub fn with_capacity(t: PrimType, n: usize) -> Data {
        match t {
            PrimType::I8 => Data::I8(Vec::with_capacity(n)),
            PrimType::I16 => Data::I16(Vec::with_capacity(n)),
            PrimType::I32 => Data::I32(Vec::with_capacity(n)),
            PrimType::I64 => Data::I64(Vec::with_capacity(n)),
            PrimType::U8 => Data::U8(Vec::with_capacity(n)),
            PrimType::U16 => Data::U16(Vec::with_capacity(n)),
            PrimType::U32 => Data::U32(Vec::with_capacity(n)),
            PrimType::U64 => Data::U64(Vec::with_capacity(n)),
            PrimType::F16 => Data::F16(Vec::with_capacity(n)),
            PrimType::F32 => Data::F32(Vec::with_capacity(n)),
            PrimType::F64 => Data::F64(Vec::with_capacity(n)),
            PrimType::Bool => Data::Bool(Vec::with_capacity(n)),
        }
    }

    /// The element type.
    pub fn prim_type(&self) -> PrimType {
        match self {
            Data::I8(_) => PrimType::I8,
            Data::I16(_) => PrimType::I16,
            Data::I32(_) => PrimType::I32,
            Data::I64(_) => PrimType::I64,
            Data::U8(_) => PrimType::U8,
            Data::U16(_) => PrimType::U16,
            Data::U32(_) => PrimType::U32,
            Data::U64(_) => PrimType::U64,
            Data::F16(_) => PrimType::F16,
            Data::F32(_) => PrimType::F32,
            Data::F64(_) => PrimType::F64,
            Data::Bool(_) => PrimType::Bool,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        with_data!(self, v => v.len())
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at flat index `i`.
    pub fn get(&self, i: usize) -> Option<PrimValue> {
        with_data!(self, v => v.get(i).map(|x| PrimValue::from(*x)))
    }

    /// Appends a scalar; returns `false` (and appends nothing) when its type
    /// is not the buffer's element type.
    pub fn push(&mut self, x: PrimValue) -> bool {
        match (self, x) {
            (Data::I8(v), PrimValue::I8(x)) => v.push(x),
            (Data::I16(v), PrimValue::I16(x)) => v.push(x),
            (Data::I32(v), PrimValue::I32(x)) => v.push(x),
            (Data::I64(v), PrimValue::I64(x)) => v.push(x),
            (Data::U8(v), PrimValue::U8(x)) => v.push(x),
            (Data::U16(v), PrimValue::U16(x)) => v.push(x),
            (Data::U32(v), PrimValue::U32(x)) => v.push(x),
            (Data::U64(v), PrimValue::U64(x)) => v.push(x),
            (Data::F16(v), PrimValue::F16(x)) => v.push(x),
            (Data::F32(v), PrimValue::F32(x)) => v.push(x),
            (Data::F64(v), PrimValue::F64(x)) => v.push(x),
            (Data::Bool(v), PrimValue::Bool(x)) => v.push(x),
            _ => return false,
        }
        true
    }

    /// The elements `start..end` as a new buffer, or `None` when out of
    /// range.
    pub fn slice(&self, start: usize, end: usize) -> Option<Data> {
        Some(match self {
            Data::I8(v) => Data::I8(v.get(start..end)?.to_vec()),
            Data::I16(v) => Data::I16(v.get(start..end)?.to_vec()),
            Data::I32(v) => Data::I32(v.get(start..end)?.to_vec()),
            Data::I64(v) => Data::I64(v.get(start..end)?.to_vec()),
            Data::U8(v) => Data::U8(v.get(start..end)?.to_vec()),
            Data::U16(v) => Data::U16(v.get(start..end)?.to_vec()),
            Data::U32(v) => Data::U32(v.get(start..end)?.to_vec()),
            Data::U64(v) => Data::U64(v.get(start..end)?.to_vec()),
            Data::F16(v) => Data::F16(v.get(start..end)?.to_vec()),
            Data::F32(v) => Data::F32(v.get(start..end)?.to_vec()),
            Data::F64(v) => Data::F64(v.get(start..end)?.to_vec()),
            Data::Bool(v) => Data::Bool(v.get(start..end)?.to_vec()),
        })
    }

    /// Iterates over the elements as [`PrimValue`]s.
    pub fn iter(&self) -> impl Iterator<Item = PrimValue> + '_ {
        (0..self.len()).filter_map(move |i| self.get(i))
    }
}

/// A Rust type that is the element type of a [`Data`] buffer.
pub trait Element: Copy + Into<PrimValue> {
    /// The Futhark primitive type of this Rust type.
    const PRIM: PrimType;
    /// Wraps a vector of this type as [`Data`].
    fn into_data(v: Vec<Self>) -> Data;
    /// The vector inside `d`, if `d` holds this type.
    fn slice_of(d: &Data) -> Option<&[Self]>;
}

macro_rules! element {
    ($($t:ty => $v:ident),*) => {
        $(impl Element for $t {
            const PRIM: PrimType = PrimType::$v;
            fn into_data(v: Vec<Self>) -> Data {
                Data::$v(v)
            }
            fn slice_of(d: &Data) -> Option<&[Self]> {
                match d {
                    Data::$v(v) => Some(v),
                    _ => None,
                }
            }
        })*
    };
}

element!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, f16 => F16, f32 => F32, f64 => F64, bool => Bool);

/// The shape and data lengths disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeError {
    /// The shape that was asked for.
    pub shape: Vec<usize>,
    /// The number of elements that were given.
    pub elements: usize,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "shape ")?;
        write_shape(f, &self.shape)?;
        write!(f, " does not match the {} elements given", self.elements)
    }
}

impl std::error::Error for ShapeError {}

fn write_shape(f: &mut dyn fmt::Write, shape: &[usize]) -> fmt::Result {
    for d in shape {
        write!(f, "[{d}]")?;
    }
    Ok(())
}

/// The number of elements of `shape`, or `None` on overflow.
pub fn shape_elements(shape: &[usize]) -> Option<usize> {
    shape.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d))
}

/// A scalar or a regular array of one primitive type.
///
/// The derived `PartialEq` is exact (NaN differs from NaN); use
/// [`crate::compare`] to compare results with a tolerance.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    shape: Vec<usize>,
    data: Data,
}

impl Value {
    /// A value from a shape and row-major data; fails unless the data has
    /// exactly as many elements as the shape describes.
    pub fn new(shape: Vec<usize>, data: Data) -> Result<Value, ShapeError> {
        if shape_elements(&shape) != Some(data.len()) {
            return Err(ShapeError {
                shape,
                elements: data.len(),
            });
        }
        Ok(Value { shape, data })
    }

    /// An array of shape `shape` from a vector of elements.
    pub fn array<T: Element>(shape: Vec<usize>, elems: Vec<T>) -> Result<Value, ShapeError> {
        Value::new(shape, T::into_data(elems))
    }

    /// A one-dimensional array.
    pub fn vector<T: Element>(elems: Vec<T>) -> Value {
        Value {
            shape: vec![elems.len()],
            data: T::into_data(elems),
        }
    }

    /// A scalar.
    pub fn scalar(x: impl Into<PrimValue>) -> Value {
        let x = x.into();
        let mut data = Data::with_capacity(x.prim_type(), 1);
        data.push(x);
        Value {
            shape: Vec::new(),
            data,
        }
    }

    /// The empty array of element type `t` and shape `shape`; fails unless
    /// some dimension is zero.
    pub fn empty(t: PrimType, shape: Vec<usize>) -> Result<Value, ShapeError> {
        Value::new(shape, Data::empty(t))
    }

    /// The shape; empty for a scalar.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of dimensions; 0 for a scalar.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The element type.
    pub fn prim_type(&self) -> PrimType {
        self.data.prim_type()
    }

    /// The concrete type: shape and element type.
    pub fn value_type(&self) -> ValueType {
        ValueType {
            shape: self.shape.clone(),
            prim: self.prim_type(),
        }
    }

    /// The flat, row-major data.
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// Splits the value into its shape and data.
    pub fn into_parts(self) -> (Vec<usize>, Data) {
        (self.shape, self.data)
    }

    /// The number of scalar elements (1 for a scalar).
    pub fn num_elements(&self) -> usize {
        self.data.len()
    }

    /// True for a scalar.
    pub fn is_scalar(&self) -> bool {
        self.shape.is_empty()
    }

    /// The scalar, when the value is one.
    pub fn as_scalar(&self) -> Option<PrimValue> {
        if self.is_scalar() {
            self.data.get(0)
        } else {
            None
        }
    }

    /// The element at flat row-major index `i`.
    pub fn get_flat(&self, i: usize) -> Option<PrimValue> {
        self.data.get(i)
    }

    /// The element at a full multi-dimensional index.
    pub fn get(&self, index: &[usize]) -> Option<PrimValue> {
        if index.len() != self.shape.len() {
            return None;
        }
        let mut flat = 0usize;
        for (&i, &d) in index.iter().zip(&self.shape) {
            if i >= d {
                return None;
            }
            flat = flat.checked_mul(d)?.checked_add(i)?;
        }
        self.data.get(flat)
    }

    /// The elements as a slice of `T`, when `T` is the element type.
    pub fn as_slice<T: Element>(&self) -> Option<&[T]> {
        T::slice_of(&self.data)
    }

    /// Row `i` of an array (a value of rank one less), or `None` for a
    /// scalar or an index out of bounds.
    pub fn row(&self, i: usize) -> Option<Value> {
        let (&n, rest) = self.shape.split_first()?;
        if i >= n {
            return None;
        }
        let row_len = shape_elements(rest)?;
        let start = i.checked_mul(row_len)?;
        let data = self.data.slice(start, start.checked_add(row_len)?)?;
        Some(Value {
            shape: rest.to_vec(),
            data,
        })
    }

    /// The multi-dimensional index of flat index `i` in this value's shape.
    pub fn unflatten_index(&self, i: usize) -> Vec<usize> {
        let mut index = vec![0; self.shape.len()];
        let mut rest = i;
        for (slot, &d) in index.iter_mut().zip(&self.shape).rev() {
            if d == 0 {
                break;
            }
            *slot = rest % d;
            rest /= d;
        }
        index
    }
}

impl<T: Element> From<T> for Value {
    fn from(x: T) -> Self {
        Value::scalar(x)
    }
}

/// The concrete type of a value: its shape and element type, printed as
/// Futhark writes it (`[2][3]f32`, `i32`).
///
/// This is also the type specification that random generation takes
/// (see [`crate::generate`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ValueType {
    /// The shape; empty for a scalar.
    pub shape: Vec<usize>,
    /// The element type.
    pub prim: PrimType,
}

impl ValueType {
    /// A scalar type.
    pub fn scalar(prim: PrimType) -> ValueType {
        ValueType {
            shape: Vec::new(),
            prim,
        }
    }

    /// The type without its sizes.
    pub fn ranked(&self) -> RankedType {
        RankedType {
            rank: self.shape.len(),
            prim: self.prim,
        }
    }
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_shape(f, &self.shape)?;
        write!(f, "{}", self.prim)
    }
}

/// A type with a rank but no sizes (`[][]f32`), as an entry point's
/// parameter declares it; readers check input values against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RankedType {
    /// Number of dimensions; 0 for a scalar.
    pub rank: usize,
    /// The element type.
    pub prim: PrimType,
}

impl RankedType {
    /// A type of the given rank and element type.
    pub fn new(rank: usize, prim: PrimType) -> RankedType {
        RankedType { rank, prim }
    }

    /// True when `v` has this rank and element type.
    pub fn matches(&self, v: &Value) -> bool {
        v.rank() == self.rank && v.prim_type() == self.prim
    }
}

impl fmt::Display for RankedType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for _ in 0..self.rank {
            f.write_str("[]")?;
        }
        write!(f, "{}", self.prim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_check_shape() {
        assert!(Value::array(vec![2, 3], vec![0f64; 6]).is_ok());
        let err = Value::array(vec![2, 3], vec![0f64; 5]).unwrap_err();
        assert_eq!(err.elements, 5);
        assert_eq!(
            err.to_string(),
            "shape [2][3] does not match the 5 elements given"
        );
        assert!(Value::empty(PrimType::I32, vec![0, 3]).is_ok());
        assert!(Value::empty(PrimType::I32, vec![1, 3]).is_err());
        assert!(Value::new(vec![usize::MAX, 3], Data::empty(PrimType::I8)).is_err());
    }

    #[test]
    fn empty_arrays_keep_type_and_shape() {
        let v = Value::empty(PrimType::F64, vec![0, 3]).unwrap();
        assert_eq!(v.value_type().to_string(), "[0][3]f64");
        assert_eq!(v.num_elements(), 0);
        assert_ne!(v, Value::empty(PrimType::F64, vec![3, 0]).unwrap());
    }

    #[test]
    fn indexing_and_rows() {
        let v = Value::array(vec![2, 3], vec![1i32, 2, 3, 4, 5, 6]).unwrap();
        assert_eq!(v.get(&[1, 2]), Some(PrimValue::I32(6)));
        assert_eq!(v.get(&[2, 0]), None);
        assert_eq!(v.get(&[1]), None);
        let r = v.row(1).unwrap();
        assert_eq!(r.shape(), &[3]);
        assert_eq!(r.as_slice::<i32>(), Some(&[4, 5, 6][..]));
        assert_eq!(v.row(2), None);
        assert_eq!(v.unflatten_index(4), vec![1, 1]);
        assert_eq!(Value::scalar(3u8).as_scalar(), Some(PrimValue::U8(3)));
        assert_eq!(v.as_slice::<f32>(), None);
    }

    #[test]
    fn types_display() {
        let t = ValueType {
            shape: vec![100, 3],
            prim: PrimType::F32,
        };
        assert_eq!(t.to_string(), "[100][3]f32");
        assert_eq!(t.ranked().to_string(), "[][]f32");
        assert_eq!(ValueType::scalar(PrimType::Bool).to_string(), "bool");
        assert!(RankedType::new(1, PrimType::F64).matches(&Value::vector(vec![1.0f64])));
    }
}
