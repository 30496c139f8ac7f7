//! Conversion between the interpreter's values and the values crate's
//! (scalars and regular arrays of one primitive type).

use std::rc::Rc;

use syntax::ast::{PrimType, TypeExp, TypeExpKind};
use values::{Data, PrimValue};

use crate::scalar::Scalar;
use crate::value::Value;

pub(crate) fn prim_to_values(t: PrimType) -> values::PrimType {
    match t {
        PrimType::I8 => values::PrimType::I8,
        PrimType::I16 => values::PrimType::I16,
        PrimType::I32 => values::PrimType::I32,
        PrimType::I64 => values::PrimType::I64,
        PrimType::U8 => values::PrimType::U8,
        PrimType::U16 => values::PrimType::U16,
        PrimType::U32 => values::PrimType::U32,
        PrimType::U64 => values::PrimType::U64,
        PrimType::F16 => values::PrimType::F16,
        PrimType::F32 => values::PrimType::F32,
        PrimType::F64 => values::PrimType::F64,
        PrimType::Bool => values::PrimType::Bool,
    }
}

fn scalar_of_prim(p: PrimValue) -> Scalar {
    match p {
        PrimValue::I8(x) => Scalar::I8(x),
        PrimValue::I16(x) => Scalar::I16(x),
        PrimValue::I32(x) => Scalar::I32(x),
        PrimValue::I64(x) => Scalar::I64(x),
        PrimValue::U8(x) => Scalar::U8(x),
        PrimValue::U16(x) => Scalar::U16(x),
        PrimValue::U32(x) => Scalar::U32(x),
        PrimValue::U64(x) => Scalar::U64(x),
        PrimValue::F16(x) => Scalar::F16(x),
        PrimValue::F32(x) => Scalar::F32(x),
        PrimValue::F64(x) => Scalar::F64(x),
        PrimValue::Bool(x) => Scalar::Bool(x),
    }
}

fn prim_of_scalar(s: &Scalar) -> PrimValue {
    match s.strip() {
        Scalar::I8(x) => PrimValue::I8(x),
        Scalar::I16(x) => PrimValue::I16(x),
        Scalar::I32(x) => PrimValue::I32(x),
        Scalar::I64(x) => PrimValue::I64(x),
        Scalar::U8(x) => PrimValue::U8(x),
        Scalar::U16(x) => PrimValue::U16(x),
        Scalar::U32(x) => PrimValue::U32(x),
        Scalar::U64(x) => PrimValue::U64(x),
        Scalar::F16(x) => PrimValue::F16(x),
        Scalar::F32(x) => PrimValue::F32(x),
        Scalar::F64(x) => PrimValue::F64(x),
        Scalar::Bool(x) => PrimValue::Bool(x),
        Scalar::Ad(_) => PrimValue::Bool(false),
    }
}

fn values_prim_to_ast(t: values::PrimType) -> PrimType {
    PrimType::from_name(t.name()).unwrap_or(PrimType::I32)
}

/// The most rows (of arrays without elements) the interpreter builds for an
/// input array without elements, such as `empty([1000000][0]f64)`: its
/// arrays hold their rows, so such a value needs memory for every row
/// although the data gives none.
pub const MAX_EMPTY_ROWS: u128 = 1 << 24;

/// Converts an input value to the interpreter's representation; an array
/// without elements whose rows the interpreter cannot hold (more than
/// [`MAX_EMPTY_ROWS`]) is an error.
pub fn to_internal(v: &values::Value) -> Result<Value, String> {
    let t = values_prim_to_ast(v.prim_type());
    if v.data().is_empty() && !v.shape().is_empty() {
        let rows = empty_rows(v.shape());
        if rows > MAX_EMPTY_ROWS {
            let dims: String = v.shape().iter().map(|d| format!("[{d}]")).collect();
            return Err(format!(
                "the interpreter cannot hold the empty array {dims}{}: it has {rows} rows \
                 (at most {MAX_EMPTY_ROWS} rows of an array without elements)",
                v.prim_type().name()
            ));
        }
    }
    Ok(build(v.shape(), v.data(), &mut 0, t))
}

/// How many rows [`build`] makes for an array of `shape` without elements
/// (saturating).
fn empty_rows(shape: &[usize]) -> u128 {
    match shape.split_first() {
        None => 0,
        // The prototype of an empty dimension: one row of each inner size.
        Some((0, rest)) => rest.iter().fold(0u128, |a, &d| a.saturating_add(d as u128)),
        Some((&n, rest)) => (n as u128).saturating_mul(1u128.saturating_add(empty_rows(rest))),
    }
}

fn build(shape: &[usize], data: &Data, pos: &mut usize, t: PrimType) -> Value {
    match shape.split_first() {
        None => {
            let s = data
                .get(*pos)
                .map(scalar_of_prim)
                .unwrap_or_else(|| Scalar::zero(t));
            *pos += 1;
            Value::Scalar(s)
        }
        Some((&n, rest)) => {
            let elems: Vec<Value> = (0..n).map(|_| build(rest, data, pos, t)).collect();
            let proto = if n == 0 {
                Some(Rc::new(zero_value(rest, t)))
            } else {
                None
            };
            Value::array(elems, proto)
        }
    }
}

fn zero_value(shape: &[usize], t: PrimType) -> Value {
    match shape.split_first() {
        None => Value::Scalar(Scalar::zero(t)),
        Some((&n, rest)) => {
            let row = zero_value(rest, t);
            Value::array(vec![row.clone(); n], Some(Rc::new(row)))
        }
    }
}

/// The element type named by a type annotation (`[n][m]f32` gives `f32`).
fn hint_prim(t: Option<&TypeExp>) -> Option<PrimType> {
    let t = t?;
    match &t.kind {
        TypeExpKind::Array(_, e) | TypeExpKind::Unique(e) | TypeExpKind::Existential(_, e) => {
            hint_prim(Some(e))
        }
        TypeExpKind::Var(q, _) if q.quals.is_empty() => PrimType::from_name(&q.name.name),
        _ => None,
    }
}

fn first_scalar(v: &Value) -> Option<Scalar> {
    match v {
        Value::Scalar(s) => Some(s.strip()),
        Value::Array(a) => a.example().and_then(|e| first_scalar(&e)),
        _ => None,
    }
}

fn flatten_into(v: &Value, data: &mut Data) -> Result<(), String> {
    match v {
        Value::Scalar(s) => {
            if data.push(prim_of_scalar(s)) {
                Ok(())
            } else {
                Err("an array holds values of different types".into())
            }
        }
        Value::Array(a) => a.elems.iter().try_for_each(|e| flatten_into(e, data)),
        _ => Err("only primitive values and arrays of them can be converted".into()),
    }
}

/// Converts a result value; `hint` is its declared type, used for the element type
/// of an empty array whose elements were never seen.
pub fn from_internal(v: &Value, hint: Option<&TypeExp>) -> Result<values::Value, String> {
    if matches!(
        v,
        Value::Tuple(_) | Value::Record(_) | Value::Sum(_) | Value::Fun(_)
    ) {
        return Err("only primitive values and arrays of them can be returned".into());
    }
    let shape = v.shape();
    let t = first_scalar(v)
        .map(|s| s.prim_type())
        .or_else(|| hint_prim(hint))
        .ok_or("cannot determine the element type of an empty array")?;
    let mut data = Data::with_capacity(prim_to_values(t), v.shape().iter().product());
    flatten_into(v, &mut data)?;
    // An unknown inner shape of an empty array is given as zero.
    let shape = if data.is_empty() && values::value::shape_elements(&shape) != Some(0) {
        let mut s = shape;
        s.push(0);
        s
    } else {
        shape
    };
    values::Value::new(shape, data).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_arrays() {
        let v = values::Value::array(vec![2, 3], vec![1i32, 2, 3, 4, 5, 6]).unwrap();
        let i = to_internal(&v).unwrap();
        assert_eq!(i.shape(), vec![2, 3]);
        assert_eq!(from_internal(&i, None).unwrap(), v);
        let e = values::Value::empty(values::PrimType::F64, vec![0, 3]).unwrap();
        let i = to_internal(&e).unwrap();
        assert_eq!(i.shape(), vec![0, 3]);
        assert_eq!(from_internal(&i, None).unwrap(), e);
        let s = values::Value::scalar(2.5f32);
        assert_eq!(from_internal(&to_internal(&s).unwrap(), None).unwrap(), s);
    }

    #[test]
    fn empty_arrays_with_too_many_rows_are_refused() {
        for shape in [
            vec![usize::MAX >> 1, 0],
            vec![1 << 40, 0, 1],
            vec![0, 1 << 40],
        ] {
            let e = values::Value::empty(values::PrimType::F64, shape).unwrap();
            let m = to_internal(&e).unwrap_err();
            assert!(m.contains("cannot hold the empty array"), "{m}");
        }
        let e = values::Value::empty(values::PrimType::U8, vec![1000, 0]).unwrap();
        assert_eq!(to_internal(&e).unwrap().shape(), vec![1000, 0]);
    }
}
