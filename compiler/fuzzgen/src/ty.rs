//! The types of generated programs: primitive types, arrays with named sizes,
//! tuples and records.

use std::fmt;

/// A primitive type of the language: the value crate's, whose `ALL`,
/// `name`, `is_float`, `is_integer`, `is_signed_integer` and
/// `integer_range` the generator uses.
pub use values::PrimType as Prim;

/// Every primitive type.
pub const PRIMS: [Prim; 12] = Prim::ALL;

/// A type: arrays carry the name of their outer size (a size parameter in scope).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A primitive type.
    Prim(Prim),
    /// An array of `n` rows of the element type, `n` a size in scope.
    Arr(Box<Ty>, String),
    /// A tuple of at least two components.
    Tuple(Vec<Ty>),
    /// A record with named fields.
    Record(Vec<(String, Ty)>),
}

impl Ty {
    /// An array of `elem` with outer size `dim`.
    pub fn arr(elem: Ty, dim: &str) -> Ty {
        Ty::Arr(Box::new(elem), dim.to_string())
    }

    /// The number of array dimensions.
    pub fn rank(&self) -> usize {
        match self {
            Ty::Arr(t, _) => 1 + t.rank(),
            _ => 0,
        }
    }

    /// The primitive element type of a (possibly nested) array of primitives.
    pub fn elem_prim(&self) -> Option<Prim> {
        match self {
            Ty::Prim(p) => Some(*p),
            Ty::Arr(t, _) => t.elem_prim(),
            _ => None,
        }
    }

    /// The type with every size named `from` renamed `to`.
    pub fn rename_dim(&self, from: &str, to: &str) -> Ty {
        match self {
            Ty::Prim(p) => Ty::Prim(*p),
            Ty::Arr(t, d) => Ty::Arr(
                Box::new(t.rename_dim(from, to)),
                if d == from { to.to_string() } else { d.clone() },
            ),
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| t.rename_dim(from, to)).collect()),
            Ty::Record(fs) => Ty::Record(
                fs.iter()
                    .map(|(n, t)| (n.clone(), t.rename_dim(from, to)))
                    .collect(),
            ),
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Prim(p) => write!(f, "{}", p.name()),
            Ty::Arr(t, d) => write!(f, "[{d}]{t}"),
            Ty::Tuple(ts) => {
                write!(f, "(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ")")
            }
            Ty::Record(fs) => {
                write!(f, "{{")?;
                for (i, (n, t)) in fs.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{n}: {t}")?;
                }
                write!(f, "}}")
            }
        }
    }
}
