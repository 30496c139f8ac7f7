//! The contract between generated programs and the runtime.
//!
//! A generated program describes itself as a [`Program`]: a name and its
//! [`EntryPoint`]s, each with the [`TypeDesc`]s of its parameters and
//! results and a `run` function. The runtime reads arguments at the
//! parameter types, moves them into `run`, and writes what it returns; a
//! run-time error of the program comes back as an [`Error`].

use values::{PrimType, RankedType, Value};

pub use crate::cli::main;
pub use crate::context::Context;

/// A parameter or result type of an entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeDesc {
    /// The number of array dimensions (0 for a scalar).
    pub rank: usize,
    /// The element type.
    pub elem: PrimType,
    /// Whether the parameter is unique (`*[]f64`): the entry may consume it.
    pub unique: bool,
}

impl TypeDesc {
    /// The rank and element type, as the value reader checks them.
    pub fn ranked(&self) -> RankedType {
        RankedType::new(self.rank, self.elem)
    }

    /// Whether `v` has this type's rank and element type.
    pub fn matches(&self, v: &Value) -> bool {
        self.ranked().matches(v)
    }
}

impl std::fmt::Display for TypeDesc {
    /// The type without sizes or uniqueness, as in `[][]f32`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.ranked().fmt(f)
    }
}

/// One entry point of a generated program.
#[derive(Clone, Copy)]
pub struct EntryPoint {
    /// The entry's name, as `-e NAME` and the server's `call` use it.
    pub name: &'static str,
    /// The types of its parameters, in order.
    pub params: &'static [TypeDesc],
    /// The types of its results, in order (a tuple result is flattened).
    pub results: &'static [TypeDesc],
    /// Runs the entry on arguments of the parameters' types. Arguments are
    /// moved in (their buffers may be reused in place); an `Err` is a
    /// run-time error of the program (failed bounds check, assertion, size
    /// mismatch) whose message names the source location.
    pub run: fn(&Context, Vec<Value>) -> Result<Vec<Value>, Error>,
}

/// A generated program: its entry points.
#[derive(Clone, Copy)]
pub struct Program {
    /// The name of the source program, for messages.
    pub name: &'static str,
    /// The entry points.
    pub entries: &'static [EntryPoint],
}

impl Program {
    /// The entry point called `name`.
    pub fn entry(&self, name: &str) -> Option<&'static EntryPoint> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The message for an entry point that does not exist, listing those that do.
    pub fn no_such_entry(&self, name: &str) -> String {
        if self.entries.is_empty() {
            return format!("entry point `{name}` not found: the program has no entry points");
        }
        let names: Vec<&str> = self.entries.iter().map(|e| e.name).collect();
        format!(
            "entry point `{name}` not found; the program's entry points are: {}",
            names.join(", ")
        )
    }
}

/// A run-time error of a generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The message, with the source location where there is one.
    pub message: String,
}

impl Error {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
