//! How an entry point's external values appear in a library crate's API
//! ([`Shape`]), found from each value's type text and its components: a
//! scalar or array is itself, a tuple a Rust tuple, a record of scalars and
//! arrays a generated struct, a sum an enum and an array of sums nested
//! `Vec`s of it (`crate::sum_enums`), and a tuple or record holding sums
//! the tuple or struct with the enums in their places.

use std::collections::BTreeMap;
use std::fmt::Write;

use ir::Type;

use super::{api_type, rust_ident};
use crate::sum_enums::{self, SumEnum, SumEnums};

/// The field names of a record type's text (`{a: f64, b: []i64}`) when
/// every field is a scalar or an array.
pub(super) fn record_fields(text: &str) -> Option<Vec<String>> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut fields = Vec::new();
    let pieces = split_top_level(inner);
    for p in pieces {
        let (name, ty) = p.split_once(':')?;
        let ty = ty.trim().trim_start_matches('*');
        if ty.starts_with('(') || ty.starts_with('{') {
            return None;
        }
        let name = name.trim();
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        fields.push(name.to_string());
    }
    Some(fields)
}

/// How one external value appears in the API.
pub(super) enum Shape {
    /// One scalar or array.
    Single,
    /// A Rust tuple of the components.
    Tuple,
    /// A generated struct with these field names.
    Record(String, Vec<String>),
    /// A generated enum (`crate::sum_enums`).
    Sum(SumEnum),
    /// An array of such an enum of this rank: nested `Vec`s of it.
    SumArray(SumEnum, usize),
    /// A tuple (a Rust tuple, nested tuples flattened) or a record (a
    /// generated struct: its name and field names) holding sums or arrays
    /// of sums: its parts in order.
    WithSums(Option<(String, Vec<String>)>, Vec<Part>),
}

/// One element of a tuple, or field of a record, holding sums.
pub(super) struct Part {
    /// Its components.
    pub(super) comps: Vec<usize>,
    /// The enum of a sum and the rank of the array of it (0 for a bare
    /// sum); `None` for a scalar or an array of primitives.
    pub(super) sum: Option<(SumEnum, usize)>,
}

impl Part {
    /// Its API type.
    pub(super) fn api_type(&self, types: &[&Type]) -> String {
        match &self.sum {
            None => api_type(types[self.comps[0]]),
            Some((e, rank)) => sum_enums::vec_type(&e.name, *rank),
        }
    }
}

/// The element texts of a tuple type's text, nested tuples flattened, or
/// `None` when `text` is not a tuple.
fn tuple_elements(text: &str) -> Option<Vec<String>> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let pieces = split_top_level(inner);
    if pieces.len() < 2 {
        return None;
    }
    let mut out = Vec::new();
    for p in pieces {
        let p = p.trim();
        match tuple_elements(p) {
            Some(inner) => out.extend(inner),
            None => out.push(unparenthesised(p).to_string()),
        }
    }
    Some(out)
}

/// `text` without the parentheses around it, when they hold one type.
fn unparenthesised(text: &str) -> &str {
    match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(inner) if split_top_level(inner).len() == 1 => unparenthesised(inner.trim()),
        _ => text,
    }
}

/// Splits `text` at the commas outside brackets.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut depth = 0i32;
    let mut start = 0usize;
    let mut pieces = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                pieces.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&text[start..]);
    pieces
}

/// Whether `text` is a primitive type or an array of one.
fn is_primitive(text: &str) -> bool {
    values::PrimType::from_name(text.trim().trim_start_matches("[]")).is_some()
}

/// The element of an array of a sum type: its name, structure (`shape`,
/// `#circle f64 | #empty`) and the array's rank.
fn sum_array_element(name: &str, structure: &str) -> Option<(String, String, usize)> {
    let inner = structure.trim_start_matches("[]");
    let rank = (structure.len() - inner.len()) / 2;
    if rank == 0 {
        return None;
    }
    let inner = inner
        .strip_prefix('(')
        .and_then(|i| i.strip_suffix(')'))
        .unwrap_or(inner);
    // An array of tuples (`[](#a | #b, i32)`) is not one of sums.
    if split_top_level(inner).len() != 1 {
        return None;
    }
    crate::opaque::sum_layout(inner)?;
    let elem_name = unparenthesised(name.strip_prefix(&"[]".repeat(rank)).unwrap_or(inner));
    Some((elem_name.to_string(), inner.to_string(), rank))
}

/// One external parameter or result.
pub(super) struct Ext {
    /// Declared unique (`*[]f64`): a single array is taken by value.
    pub(super) unique: bool,
    /// Its components.
    pub(super) comps: Vec<usize>,
    /// How it appears in the API.
    pub(super) shape: Shape,
}

impl Ext {
    /// Its API type.
    pub(super) fn api_type(&self, types: &[&Type]) -> String {
        match &self.shape {
            Shape::Single => api_type(types[self.comps[0]]),
            Shape::Tuple => {
                let parts: Vec<String> = self.comps.iter().map(|&c| api_type(types[c])).collect();
                format!("({})", parts.join(", "))
            }
            Shape::Record(name, _) => name.clone(),
            Shape::Sum(e) => e.name.clone(),
            Shape::SumArray(e, rank) => sum_enums::vec_type(&e.name, *rank),
            Shape::WithSums(Some((name, _)), _) => name.clone(),
            Shape::WithSums(None, parts) => {
                let parts: Vec<String> = parts.iter().map(|p| p.api_type(types)).collect();
                format!("({})", parts.join(", "))
            }
        }
    }

    /// The Rust expressions of the components of the value `v` (not used for
    /// sums, whose components depend on the variant).
    pub(super) fn parts(&self, v: &str) -> Vec<String> {
        match &self.shape {
            Shape::Single => vec![v.to_string()],
            Shape::Tuple => (0..self.comps.len()).map(|i| format!("{v}.{i}")).collect(),
            Shape::Record(_, fields) => fields
                .iter()
                .map(|f| format!("{v}.{}", rust_ident(f)))
                .collect(),
            Shape::WithSums(Some((_, fields)), _) => fields
                .iter()
                .map(|f| format!("{v}.{}", rust_ident(f)))
                .collect(),
            Shape::WithSums(None, parts) => (0..parts.len()).map(|i| format!("{v}.{i}")).collect(),
            Shape::Sum(..) | Shape::SumArray(..) => Vec::new(),
        }
    }
}

/// Records and sums seen so far: type text to struct or enum name.
#[derive(Default)]
pub(super) struct Records {
    by_text: BTreeMap<String, String>,
    /// The sum enums.
    pub(super) sums: SumEnums,
    /// The structs' declarations.
    pub(super) decls: String,
}

impl Records {
    /// How the value of type `text` with components `comps` appears in
    /// the API; `None` when it holds a sum type that has no typed API.
    pub(super) fn shape(&mut self, text: &str, comps: &[usize], types: &[&Type]) -> Option<Shape> {
        // A record named by an abbreviation (`point = {x: f64, y: f64}`)
        // has the fields of its structure and is documented by its name.
        let (text, structure) = crate::opaque::name_and_structure(text);
        let text = text.as_str();
        if structure.starts_with('#') {
            let layout = crate::opaque::sum_layout(&structure)?;
            return Some(Shape::Sum(
                self.sums.enum_of(text, &layout, comps, types, 0)?,
            ));
        }
        if let Some((elem, inner, rank)) = sum_array_element(text, &structure) {
            let layout = crate::opaque::sum_layout(&inner)?;
            let e = self.sums.enum_of(&elem, &layout, comps, types, rank)?;
            return Some(Shape::SumArray(e, rank));
        }
        if structure.contains('#') {
            return self.with_sums(text, &structure, comps, types);
        }
        if comps.len() == 1 {
            return Some(Shape::Single);
        }
        Some(match record_fields(&structure) {
            Some(fields) if fields.len() == comps.len() => {
                let tys: Vec<String> = comps.iter().map(|&c| api_type(types[c])).collect();
                let name = self.record(text, &fields, &tys);
                Shape::Record(name, fields)
            }
            _ => Shape::Tuple,
        })
    }

    /// The struct of the record type `text` with these fields and field
    /// types (declared on first use).
    fn record(&mut self, text: &str, fields: &[String], tys: &[String]) -> String {
        let n = self.by_text.len();
        let name = self
            .by_text
            .entry(text.to_string())
            .or_insert_with(|| format!("Record{n}"))
            .clone();
        if self.by_text.len() > n {
            let mut decl = format!(
                "/// The record type `{text}` of the program.\n#[derive(Clone, Debug, PartialEq)]\npub struct {name} {{\n"
            );
            for (f, t) in fields.iter().zip(tys) {
                writeln!(
                    decl,
                    "    /// Field `{f}`.\n    pub {}: {t},",
                    rust_ident(f)
                )
                .ok();
            }
            decl.push_str("}\n\n");
            self.decls.push_str(&decl);
        }
        name
    }

    /// A tuple or record type `text` (`structure`) holding sums: each
    /// element or field a scalar, an array of primitives, a sum or an
    /// array of sums (`None` for anything else, or components that do not
    /// fit). An array of such tuples or records is a tuple of arrays, one
    /// per element or field (the sums' a `Vec` of their enum), as a
    /// parameter and as a result.
    fn with_sums(
        &mut self,
        text: &str,
        structure: &str,
        comps: &[usize],
        types: &[&Type],
    ) -> Option<Shape> {
        let element = structure.trim_start_matches("[]");
        let outer = (structure.len() - element.len()) / 2;
        let element = unparenthesised(element.trim());
        let (fields, elems) = match element.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(inner) => {
                let mut names = Vec::new();
                let mut elems = Vec::new();
                for piece in split_top_level(inner) {
                    let (name, ty) = piece.split_once(':')?;
                    let name = name.trim();
                    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                        return None;
                    }
                    names.push(name.to_string());
                    elems.push(unparenthesised(ty.trim()).to_string());
                }
                (Some(names), elems)
            }
            None => (None, tuple_elements(element)?),
        };
        let prefix = "[]".repeat(outer);
        let mut parts = Vec::new();
        let mut at = 0usize;
        for elem in &elems {
            let elem = elem.trim_start_matches('*').trim();
            let elem = &if outer == 0 {
                elem.to_string()
            } else if elem.starts_with('#') {
                format!("{prefix}({elem})")
            } else {
                format!("{prefix}{elem}")
            };
            if is_primitive(elem) {
                let c = *comps.get(at)?;
                let rank = (elem.len() - elem.trim_start_matches("[]").len()) / 2;
                if types[c].rank() != rank {
                    return None;
                }
                parts.push(Part {
                    comps: vec![c],
                    sum: None,
                });
                at += 1;
                continue;
            }
            let (name, inner, rank) = if elem.starts_with('#') {
                (elem.to_string(), elem.to_string(), 0)
            } else {
                sum_array_element(elem, elem)?
            };
            let layout = crate::opaque::sum_layout(&inner)?;
            let n = sum_enums::count(&layout);
            let cs = comps.get(at..at + n)?;
            at += n;
            let e = self.sums.enum_of(&name, &layout, cs, types, rank)?;
            parts.push(Part {
                comps: cs.to_vec(),
                sum: Some((e, rank)),
            });
        }
        if at != comps.len() {
            return None;
        }
        let record = fields.filter(|_| outer == 0).map(|fields| {
            let tys: Vec<String> = parts.iter().map(|p| p.api_type(types)).collect();
            (self.record(text, &fields, &tys), fields)
        });
        Some(Shape::WithSums(record, parts))
    }
}
