//! The contract between generated programs and the runtime.
//!
//! A generated program describes itself as a [`Program`]: a name and its
//! [`EntryPoint`]s, each with the [`ExtType`]s of its parameters and
//! results and a `run` function. A parameter or result is either a scalar
//! or an array of a primitive type ([`TypeDesc`]), or an *opaque* value
//! ([`OpaqueType`]): a tuple, a record, or a value of a sum or abstract
//! type, named as the program writes its type (`(f64, i32)`,
//! `{a: f64, b: []i64}`), which callers handle as a whole. `run` takes
//! and returns the flat *components* of the values: each transparent
//! value as itself, each opaque one as its scalars and arrays in order
//! (tuples by position, records by field name). The runtime reads
//! arguments at the parameter types, moves them into `run`, and writes
//! what it returns; a run-time error of the program comes back as an
//! [`Error`].

use values::{PrimType, RankedType, Value};

pub use crate::cli::main;
pub use crate::context::Context;

/// A scalar or array type of an entry point, or a component of an opaque one.
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

/// An opaque type: a tuple, record, sum or abstract type of the program.
#[derive(Debug)]
pub struct OpaqueType {
    /// The type's name: its type as the program writes it, without sizes
    /// (`(f64, i32)`, `{a: f64, b: []i64}`, `m.t`).
    pub name: &'static str,
    /// The scalars and arrays a value of the type is made of, in order.
    pub components: &'static [TypeDesc],
    /// The fields of a record or tuple type (a tuple's are `0`, `1`, …),
    /// in the order of [`OpaqueType::components`]; `None` for other types.
    pub fields: Option<&'static [Field]>,
    /// The variants of a sum type, sorted by name; `None` for other types.
    /// A value's first component is its variant's number (an `i64`, the
    /// index in this list), followed by the payloads of all variants in
    /// this order; the payloads of the variants it is not hold blank
    /// values.
    pub variants: Option<&'static [Variant]>,
    /// For an array of records or tuples (`[]{x: f64, y: f64}`): its rank
    /// and element type. Its components are the element type's, each with
    /// the array's outer dimensions in front (one array per field).
    pub array: Option<ArrayOf>,
}

/// The rank and element type of an array of opaque values.
#[derive(Clone, Copy, Debug)]
pub struct ArrayOf {
    /// The number of outer dimensions.
    pub rank: usize,
    /// The type of the elements.
    pub elem: &'static OpaqueType,
}

impl OpaqueType {
    /// The kind the server's `kind` command prints: `record`, `sum`,
    /// `array` (arrays of records and tuples) or `opaque`.
    pub fn kind(&self) -> &'static str {
        if self.array.is_some() {
            "array"
        } else if self.fields.is_some() {
            "record"
        } else if self.variants.is_some() {
            "sum"
        } else {
            "opaque"
        }
    }

    /// The variant called `name`, its number and the range of its
    /// payload's components.
    pub fn variant(&self, name: &str) -> Option<(usize, &'static Variant, std::ops::Range<usize>)> {
        self.variant_ranges()
            .into_iter()
            .enumerate()
            .find(|(_, (v, _))| v.name == name)
            .map(|(i, (v, r))| (i, v, r))
    }

    /// Each variant with the range of its payload's components (after the
    /// variant number, component 0).
    pub fn variant_ranges(&self) -> Vec<(&'static Variant, std::ops::Range<usize>)> {
        let mut at = 1;
        let mut out = Vec::new();
        for v in self.variants.unwrap_or_default() {
            let n: usize = v.payload.iter().map(ExtType::num_components).sum();
            out.push((v, at..at + n));
            at += n;
        }
        out
    }

    /// The number of the variant of a sum value with these components, if
    /// it is one of the type's variants.
    pub fn variant_of(&self, components: &[Value]) -> Option<usize> {
        let n = self.variants?.len();
        let tag = components.first()?.as_scalar()?.as_i128()?;
        usize::try_from(tag).ok().filter(|&t| t < n)
    }

    /// The outer dimensions of an array of records with these components.
    pub fn outer_shape<'v>(&self, components: &'v [Value]) -> &'v [usize] {
        let rank = self.array.map_or(0, |a| a.rank);
        components
            .first()
            .map_or(&[][..], |c| &c.shape()[..rank.min(c.rank())])
    }

    /// Why a value with these components is not a valid value of the type
    /// (a variant number out of range in any sum it holds: its own, those
    /// of its payloads and fields, every element's of an array of sums;
    /// an array of records whose fields' arrays differ in their outer
    /// sizes), if it is not.
    pub fn check(&self, components: &[Value]) -> Result<(), String> {
        if self.array.is_some() {
            let outer = self.outer_shape(components);
            if let Some(c) = components
                .iter()
                .find(|c| c.shape().get(..outer.len()) != Some(outer))
            {
                return Err(format!(
                    "the arrays of a value of {} differ in their outer sizes ({} and {})",
                    self.name,
                    crate::arr::shape_text(outer),
                    crate::arr::shape_text(c.shape())
                ));
            }
        }
        self.check_variant_numbers(components)
    }

    /// Whether every variant number in these components (a scalar for a
    /// sum value, an array of them for an array of sums) is one of its
    /// sum's, at any depth.
    fn check_variant_numbers(&self, components: &[Value]) -> Result<(), String> {
        if let Some(a) = self.array {
            return a.elem.check_variant_numbers(components);
        }
        let parts: Vec<&ExtType> = match (self.variants, self.fields) {
            (Some(vs), _) => {
                if let Some(numbers) = components.first() {
                    check_numbers(self.name, vs.len(), numbers)?;
                }
                vs.iter().flat_map(|v| v.payload).collect()
            }
            (None, Some(fs)) => fs.iter().map(|f| &f.ty).collect(),
            (None, None) => return Ok(()),
        };
        let mut at = usize::from(self.variants.is_some());
        for t in parts {
            let n = t.num_components();
            if let (ExtType::Opaque(o, _), Some(part)) = (t, components.get(at..at + n)) {
                o.check_variant_numbers(part)?;
            }
            at += n;
        }
        Ok(())
    }
    /// The field called `name`, with the range of its components.
    pub fn field(&self, name: &str) -> Option<(&'static Field, std::ops::Range<usize>)> {
        let mut at = 0;
        for f in self.fields? {
            let n = f.ty.num_components();
            if f.name == name {
                return Some((f, at..at + n));
            }
            at += n;
        }
        None
    }
}

/// Whether every element of `numbers` (a sum's variant number, or an array
/// of them) numbers one of the `n` variants of the sum type `name`.
fn check_numbers(name: &str, n: usize, numbers: &Value) -> Result<(), String> {
    let bad = numbers.data().iter().enumerate().find(|(_, x)| {
        !x.as_i128()
            .is_some_and(|t| usize::try_from(t).is_ok_and(|t| t < n))
    });
    let Some((i, x)) = bad else {
        return Ok(());
    };
    let at = if numbers.rank() == 0 {
        String::new()
    } else {
        let index: Vec<String> = numbers
            .unflatten_index(i)
            .iter()
            .map(|k| format!("[{k}]"))
            .collect();
        format!(" (element {} of the variant numbers)", index.concat())
    };
    Err(format!(
        "{} is not a variant number of {name}{at}: it has {n} variants, numbered from 0",
        Value::scalar(x)
    ))
}

/// One variant of a sum type.
#[derive(Debug)]
pub struct Variant {
    /// The constructor's name, without the `#`.
    pub name: &'static str,
    /// The types of its payload, in order.
    pub payload: &'static [ExtType],
}

/// A blank value of type `t`: zero, `false`, or an empty array.
pub fn blank(t: &TypeDesc) -> Value {
    use values::PrimValue;
    if t.rank > 0 {
        return Value::empty(t.elem, vec![0; t.rank]).unwrap_or(Value::scalar(false));
    }
    let zero = if t.elem == PrimType::Bool {
        Some(PrimValue::Bool(false))
    } else if t.elem.is_float() {
        PrimValue::float_of_type(t.elem, 0.0)
    } else {
        PrimValue::int_of_type(t.elem, 0)
    };
    zero.map(Value::scalar).unwrap_or(Value::scalar(false))
}

/// One field of a record (or tuple) type.
#[derive(Debug)]
pub struct Field {
    /// The field's name (a tuple's fields are `0`, `1`, …).
    pub name: &'static str,
    /// Its type.
    pub ty: ExtType,
}

/// The type of an entry point's parameter or result, or of a record field.
#[derive(Clone, Copy, Debug)]
pub enum ExtType {
    /// A scalar or an array of primitives.
    Value(TypeDesc),
    /// An opaque value, and whether it is unique (consumed as a parameter).
    Opaque(&'static OpaqueType, bool),
}

impl ExtType {
    /// The type's name, without uniqueness: `[]f64`, or the opaque type's.
    pub fn name(&self) -> String {
        match self {
            ExtType::Value(t) => t.to_string(),
            ExtType::Opaque(o, _) => o.name.to_string(),
        }
    }

    /// Whether the parameter is consumed (or the result unique).
    pub fn unique(&self) -> bool {
        match self {
            ExtType::Value(t) => t.unique,
            ExtType::Opaque(_, u) => *u,
        }
    }

    /// The opaque type, if it is one.
    pub fn opaque(&self) -> Option<&'static OpaqueType> {
        match self {
            ExtType::Value(_) => None,
            ExtType::Opaque(o, _) => Some(o),
        }
    }

    /// How many components a value of the type has.
    pub fn num_components(&self) -> usize {
        match self {
            ExtType::Value(_) => 1,
            ExtType::Opaque(o, _) => o.components.len(),
        }
    }

    /// The components' types; those of a unique opaque parameter are
    /// unique where they are arrays.
    pub fn components(&self) -> Vec<TypeDesc> {
        match self {
            ExtType::Value(t) => vec![*t],
            ExtType::Opaque(o, unique) => o
                .components
                .iter()
                .map(|c| TypeDesc {
                    unique: *unique && c.rank > 0,
                    ..*c
                })
                .collect(),
        }
    }
}

/// A value of an entry point's parameter or result type.
#[derive(Clone, Debug, PartialEq)]
pub enum ExtValue {
    /// A scalar or an array of primitives.
    Value(Value),
    /// A value of an opaque type: its components, in order.
    Opaque(&'static OpaqueType, Vec<Value>),
}

impl PartialEq for OpaqueType {
    /// Opaque types are the same when their names are.
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl ExtValue {
    /// The name of the value's type, as [`ExtType::name`] gives it.
    pub fn type_name(&self) -> String {
        match self {
            ExtValue::Value(v) => v.value_type().ranked().to_string(),
            ExtValue::Opaque(o, _) => o.name.to_string(),
        }
    }

    /// Whether the value has type `t` (uniqueness aside).
    pub fn has_type(&self, t: &ExtType) -> bool {
        match (self, t) {
            (ExtValue::Value(v), ExtType::Value(d)) => d.matches(v),
            (ExtValue::Opaque(o, _), ExtType::Opaque(p, _)) => o.name == p.name,
            _ => false,
        }
    }

    /// The components, in order.
    pub fn into_components(self) -> Vec<Value> {
        match self {
            ExtValue::Value(v) => vec![v],
            ExtValue::Opaque(_, cs) => cs,
        }
    }

    /// Takes values of type `t` from the front of `components`.
    pub fn from_components(t: &ExtType, components: &mut impl Iterator<Item = Value>) -> ExtValue {
        match t {
            ExtType::Value(_) => ExtValue::Value(components.next().unwrap_or(Value::scalar(false))),
            ExtType::Opaque(o, _) => {
                ExtValue::Opaque(o, components.take(o.components.len()).collect())
            }
        }
    }
}

/// One entry point of a generated program.
#[derive(Clone, Copy)]
pub struct EntryPoint {
    /// The entry's name, as `-e NAME` and the server's `call` use it.
    pub name: &'static str,
    /// The types of its parameters, in order.
    pub params: &'static [ExtType],
    /// The types of its results, in order (a tuple result is one result
    /// per component).
    pub results: &'static [ExtType],
    /// Runs the entry on the components of arguments of the parameters'
    /// types and returns the components of its results. Arguments are
    /// moved in (their buffers may be reused in place); an `Err` is a
    /// run-time error of the program (failed bounds check, assertion, size
    /// mismatch) whose message names the source location.
    pub run: fn(&Context, Vec<Value>) -> Result<Vec<Value>, Error>,
}

impl EntryPoint {
    /// The types of the components `run` takes.
    pub fn param_components(&self) -> Vec<TypeDesc> {
        self.params.iter().flat_map(|t| t.components()).collect()
    }

    /// The types of the components `run` returns.
    pub fn result_components(&self) -> Vec<TypeDesc> {
        self.results.iter().flat_map(|t| t.components()).collect()
    }
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

    /// Every opaque type of the entry points' parameters and results, of
    /// their fields and variants' payloads and of the elements of arrays
    /// of them, each once, in order of first appearance.
    pub fn opaque_types(&self) -> Vec<&'static OpaqueType> {
        fn add(t: &'static OpaqueType, out: &mut Vec<&'static OpaqueType>) {
            if out.iter().any(|o| o.name == t.name) {
                return;
            }
            out.push(t);
            let fields = t.fields.unwrap_or_default().iter().map(|f| &f.ty);
            let payloads = t
                .variants
                .unwrap_or_default()
                .iter()
                .flat_map(|v| v.payload);
            for ty in fields.chain(payloads) {
                if let ExtType::Opaque(o, _) = ty {
                    add(o, out);
                }
            }
            if let Some(a) = t.array {
                add(a.elem, out);
            }
        }
        let mut out = Vec::new();
        for e in self.entries {
            for t in e.params.iter().chain(e.results) {
                if let ExtType::Opaque(o, _) = t {
                    add(o, &mut out);
                }
            }
        }
        out
    }

    /// The opaque type called `name`.
    pub fn opaque_type(&self, name: &str) -> Option<&'static OpaqueType> {
        self.opaque_types().into_iter().find(|o| o.name == name)
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
