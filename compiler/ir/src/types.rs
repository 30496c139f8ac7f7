//! Types of IR values and source spans.
//!
//! A [`Type`] is a primitive element type with a shape: rank 0 is a scalar,
//! otherwise a regular array whose dimensions are [`Size`]s (a constant, a
//! variable of type `i64`, or `?` for a size not known statically). An
//! accumulator type (`acc([n]f64)`) is the type of the accumulator that
//! `with_acc` hands its lambda for an array of that type.

use std::fmt;

use values::PrimType;

use crate::ids::VarId;

/// One dimension of an array type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Size {
    /// A size known at compile time.
    Const(i64),
    /// The value of an `i64` variable in scope.
    Var(VarId),
    /// A size not known statically (an existential size, such as that of a
    /// function result whose length depends on the data).
    Any,
}

impl Size {
    /// True when the two sizes are known to differ: both constants with
    /// different values.
    pub fn known_different(self, other: Size) -> bool {
        matches!((self, other), (Size::Const(a), Size::Const(b)) if a != b)
    }
}

/// The type of an IR value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    /// The element type.
    pub elem: PrimType,
    /// The dimensions, outermost first; empty for a scalar.
    pub shape: Vec<Size>,
    /// True for an accumulator for an array of type `shape elem`.
    pub acc: bool,
}

impl Type {
    /// A scalar type.
    pub fn scalar(elem: PrimType) -> Type {
        Type {
            elem,
            shape: Vec::new(),
            acc: false,
        }
    }

    /// An array type.
    pub fn array(elem: PrimType, shape: Vec<Size>) -> Type {
        Type {
            elem,
            shape,
            acc: false,
        }
    }

    /// The accumulator type for arrays of type `self`.
    pub fn to_acc(&self) -> Type {
        Type {
            acc: true,
            ..self.clone()
        }
    }

    /// The array type an accumulator type accumulates into (or `self`).
    pub fn without_acc(&self) -> Type {
        Type {
            acc: false,
            ..self.clone()
        }
    }

    /// Number of dimensions.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// True for a (non-accumulator) scalar.
    pub fn is_scalar(&self) -> bool {
        self.shape.is_empty() && !self.acc
    }

    /// True for a (non-accumulator) scalar of type `t`.
    pub fn is_prim(&self, t: PrimType) -> bool {
        self.is_scalar() && self.elem == t
    }

    /// The type of one row (the outer dimension dropped); `None` for
    /// scalars and accumulators.
    pub fn row(&self) -> Option<Type> {
        if self.acc || self.shape.is_empty() {
            return None;
        }
        Some(Type::array(self.elem, self.shape[1..].to_vec()))
    }

    /// The array type with one more outer dimension `n`.
    pub fn array_of(&self, n: Size) -> Type {
        let mut shape = vec![n];
        shape.extend_from_slice(&self.shape);
        Type::array(self.elem, shape)
    }

    /// True when the types agree in accumulator-ness, element type and rank
    /// and no dimension is known to differ.
    pub fn compatible(&self, other: &Type) -> bool {
        self.acc == other.acc
            && self.elem == other.elem
            && self.shape.len() == other.shape.len()
            && self
                .shape
                .iter()
                .zip(&other.shape)
                .all(|(a, b)| !a.known_different(*b))
    }
}

/// A source span: a file number and a byte range in it. The IR does not
/// know file names; the driver maps file numbers to files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The file number.
    pub file: u32,
    /// Byte offset of the first character.
    pub start: u32,
    /// Byte offset one past the last character.
    pub end: u32,
}

impl Span {
    /// The span of generated code with no source location.
    pub const NONE: Span = Span {
        file: 0,
        start: 0,
        end: 0,
    };

    /// A span.
    pub fn new(file: u32, start: u32, end: u32) -> Span {
        Span { file, start, end }
    }

    /// True for [`Span::NONE`].
    pub fn is_none(&self) -> bool {
        *self == Span::NONE
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}-{}", self.file, self.start, self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::EntityId;

    #[test]
    fn compatibility_ignores_unknown_sizes() {
        let n = Size::Var(VarId::new(0));
        let a = Type::array(PrimType::F64, vec![n, Size::Const(3)]);
        let b = Type::array(PrimType::F64, vec![Size::Any, Size::Const(3)]);
        let c = Type::array(PrimType::F64, vec![n, Size::Const(4)]);
        assert!(a.compatible(&b));
        assert!(!a.compatible(&c));
        assert!(!a.compatible(&a.to_acc()));
        assert_eq!(
            a.row(),
            Some(Type::array(PrimType::F64, vec![Size::Const(3)]))
        );
        assert_eq!(a.row().unwrap().array_of(n), a);
    }
}
