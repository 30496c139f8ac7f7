//! Typed `u32` ids of IR entities.
//!
//! Each id indexes an arena ([`crate::arena::PrimaryMap`]): a [`VarId`]
//! indexes the variables of one function (lambdas share their function's
//! variables), a [`FunId`] the functions of a program.

use std::fmt;

/// An entity id: a `u32` index into a [`crate::arena::PrimaryMap`].
pub trait EntityId: Copy + Eq + Ord + std::hash::Hash + fmt::Debug {
    /// The id with index `i`.
    fn new(i: usize) -> Self;
    /// The id's index.
    fn index(self) -> usize;
}

macro_rules! entity_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(u32);

        impl EntityId for $name {
            fn new(i: usize) -> Self {
                $name(u32::try_from(i).unwrap_or(u32::MAX))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl $name {
            /// The raw index.
            pub fn as_u32(self) -> u32 {
                self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity_id!(
    /// A variable of one function (parameters, pattern elements, lambda and
    /// loop parameters).
    VarId,
    "v"
);
entity_id!(
    /// A function of a program.
    FunId,
    "fn"
);
