//! Taking an entry point's arguments apart: each problem reads its inputs, in the
//! Futhark entries' parameter order, from the values of a binary input file, and
//! checks their types and shapes so that the objectives can index without checks.

use values::{Data, Value};

/// One argument's element type and shape, or a message naming the argument.
fn typed<'a>(v: &'a Value, name: &str, rank: usize) -> Result<&'a [usize], String> {
    if v.rank() != rank {
        return Err(format!(
            "argument `{name}`: expected an array of rank {rank}, got {}",
            v.value_type()
        ));
    }
    Ok(v.shape())
}

/// An `f64` array of the given rank: its shape and its elements, row-major.
pub fn f64s<'a>(v: &'a Value, name: &str, rank: usize) -> Result<(&'a [usize], &'a [f64]), String> {
    let shape = typed(v, name, rank)?;
    match v.data() {
        Data::F64(xs) => Ok((shape, xs)),
        _ => Err(format!(
            "argument `{name}`: expected f64 elements, got {}",
            v.value_type()
        )),
    }
}

/// An `i32` array of the given rank: its shape and its elements, row-major.
pub fn i32s<'a>(v: &'a Value, name: &str, rank: usize) -> Result<(&'a [usize], &'a [i32]), String> {
    let shape = typed(v, name, rank)?;
    match v.data() {
        Data::I32(xs) => Ok((shape, xs)),
        _ => Err(format!(
            "argument `{name}`: expected i32 elements, got {}",
            v.value_type()
        )),
    }
}

/// An `f64` scalar.
pub fn f64_scalar(v: &Value, name: &str) -> Result<f64, String> {
    match v.data() {
        Data::F64(xs) if v.is_scalar() => Ok(xs[0]),
        _ => Err(format!(
            "argument `{name}`: expected f64, got {}",
            v.value_type()
        )),
    }
}

/// An `i64` scalar.
pub fn i64_scalar(v: &Value, name: &str) -> Result<i64, String> {
    match v.data() {
        Data::I64(xs) if v.is_scalar() => Ok(xs[0]),
        _ => Err(format!(
            "argument `{name}`: expected i64, got {}",
            v.value_type()
        )),
    }
}

/// A `bool` scalar.
pub fn bool_scalar(v: &Value, name: &str) -> Result<bool, String> {
    match v.data() {
        Data::Bool(xs) if v.is_scalar() => Ok(xs[0]),
        _ => Err(format!(
            "argument `{name}`: expected bool, got {}",
            v.value_type()
        )),
    }
}

/// Checks that there are exactly `names.len()` arguments.
pub fn count(values: &[Value], names: &[&str]) -> Result<(), String> {
    if values.len() != names.len() {
        return Err(format!(
            "expected {} arguments ({}), got {}",
            names.len(),
            names.join(", "),
            values.len()
        ));
    }
    Ok(())
}

/// Checks that dimension `what` is `expected`.
pub fn dim(name: &str, what: &str, got: usize, expected: usize) -> Result<(), String> {
    if got != expected {
        return Err(format!(
            "argument `{name}`: {what} is {got}, expected {expected}"
        ));
    }
    Ok(())
}

/// Converts an index read from the input, checking it is below `bound`.
pub fn index(name: &str, at: usize, i: i32, bound: usize) -> Result<usize, String> {
    usize::try_from(i)
        .ok()
        .filter(|&u| u < bound)
        .ok_or_else(|| format!("argument `{name}`: element {at} is {i}, outside 0..{bound}"))
}
