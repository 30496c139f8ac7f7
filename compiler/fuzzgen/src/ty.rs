//! The types of generated programs: primitive types, arrays with named sizes,
//! tuples and records.

use std::fmt;

/// A primitive type of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prim {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    F32,
    F64,
    Bool,
}

/// Every primitive type.
pub const PRIMS: [Prim; 12] = [
    Prim::I8,
    Prim::I16,
    Prim::I32,
    Prim::I64,
    Prim::U8,
    Prim::U16,
    Prim::U32,
    Prim::U64,
    Prim::F16,
    Prim::F32,
    Prim::F64,
    Prim::Bool,
];

impl Prim {
    /// The type's name in source text (`i32`, `bool`).
    pub fn name(self) -> &'static str {
        match self {
            Prim::I8 => "i8",
            Prim::I16 => "i16",
            Prim::I32 => "i32",
            Prim::I64 => "i64",
            Prim::U8 => "u8",
            Prim::U16 => "u16",
            Prim::U32 => "u32",
            Prim::U64 => "u64",
            Prim::F16 => "f16",
            Prim::F32 => "f32",
            Prim::F64 => "f64",
            Prim::Bool => "bool",
        }
    }

    /// A floating-point type?
    pub fn is_float(self) -> bool {
        matches!(self, Prim::F16 | Prim::F32 | Prim::F64)
    }

    /// A signed integer type?
    pub fn is_signed(self) -> bool {
        matches!(self, Prim::I8 | Prim::I16 | Prim::I32 | Prim::I64)
    }

    /// An integer type (signed or not)?
    pub fn is_int(self) -> bool {
        !self.is_float() && self != Prim::Bool
    }

    /// Bits of an integer type.
    pub fn bits(self) -> u32 {
        match self {
            Prim::I8 | Prim::U8 => 8,
            Prim::I16 | Prim::U16 | Prim::F16 => 16,
            Prim::I32 | Prim::U32 | Prim::F32 => 32,
            Prim::I64 | Prim::U64 | Prim::F64 => 64,
            Prim::Bool => 1,
        }
    }
}

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
