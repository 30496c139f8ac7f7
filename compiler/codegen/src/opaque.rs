//! The types of entry points' parameters and results in `PROGRAM`, the
//! description executables are run from: scalars and arrays of
//! primitives as `TypeDesc`s, everything else as the runtime's opaque
//! types.
//!
//! An opaque type is named as the program writes the type, without sizes
//! (`(f64, i32)`, `{a: f64, b: []i64}`). When its text is a tuple or record
//! whose leaves are scalars and arrays that match the entry function's
//! values one for one, it gets fields (a tuple's are `0`, `1`, …; a
//! record's in the order of their names, which is the order of its
//! components), and nested tuples and records are opaque types of their
//! own. A sum type (`#a f64 | #b`) whose components are its variant's
//! number (an `i64`) and then every variant's payload, in the order of the
//! variants' names, gets variants. An array of tuples, records or sums is an
//! array of its element type, whose components are the element's with the
//! array's outer dimensions in front (a sum's numbers an `[]i64`). Any other type (an abstract type) is
//! opaque without fields. A type the entry point names by an abbreviation
//! comes as `NAME = STRUCTURE` ([`name_and_structure`]): it is called
//! `NAME` and has the fields or variants of its structure. Each opaque
//! type is emitted once, as a `static`.

use std::collections::BTreeMap;
use std::fmt::Write;

use ir::Type;

/// The structure of a type's text.
#[derive(Debug, PartialEq)]
enum Tree {
    /// A scalar or array of primitives (its text, sizes removed).
    Leaf(String),
    /// A tuple: its text and its components.
    Tuple(String, Vec<Tree>),
    /// A record: its text and its fields, sorted by name.
    Record(String, Vec<(String, Tree)>),
    /// A sum type: its text and its variants (sorted by name, as the
    /// program's type printer writes them) with their payloads.
    Sum(String, Vec<(String, Vec<Tree>)>),
    /// An array of tuples, records or sums: its text, rank and element.
    Array(String, usize, Box<Tree>),
    /// Anything else (a sum or abstract type, an array of tuples).
    Other(String),
}

impl Tree {
    fn text(&self) -> &str {
        match self {
            Tree::Leaf(t)
            | Tree::Tuple(t, _)
            | Tree::Record(t, _)
            | Tree::Sum(t, _)
            | Tree::Array(t, _, _)
            | Tree::Other(t) => t,
        }
    }

    /// The number of scalars and arrays; `None` when a part is `Other`.
    fn leaves(&self) -> Option<usize> {
        match self {
            Tree::Leaf(_) => Some(1),
            Tree::Tuple(_, ts) => ts.iter().map(Tree::leaves).sum(),
            Tree::Record(_, fs) => fs.iter().map(|(_, t)| t.leaves()).sum(),
            Tree::Sum(_, vs) => {
                let payloads: Option<usize> =
                    vs.iter().flat_map(|(_, ts)| ts).map(Tree::leaves).sum();
                Some(1 + payloads?)
            }
            Tree::Array(_, _, e) => e.leaves(),
            Tree::Other(_) => None,
        }
    }
}

/// An entry value's type text split into the name the program gives the
/// type and its structure: the internaliser writes `NAME = STRUCTURE` for
/// a type the entry point names by an abbreviation (`point = {x: f64, y:
/// f64}`), and the structure alone otherwise.
pub fn name_and_structure(text: &str) -> (String, String) {
    let text = text.trim().trim_start_matches('*').trim();
    match text.split_once(" = ") {
        Some((name, structure)) => (name.trim().to_string(), strip_sizes(structure.trim())),
        None => {
            let s = strip_sizes(text);
            (s.clone(), s)
        }
    }
}

/// Splits `text` at the spaces outside brackets, without empty parts.
fn split_atoms(text: &str) -> Vec<&str> {
    split_outside_brackets(text, ' ')
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect()
}

/// The variants of a sum type's text (`#a f64 | #b`), or `None`.
fn parse_sum(text: &str) -> Option<Vec<(String, Vec<Tree>)>> {
    let mut variants = Vec::new();
    for part in split_at_bars(text) {
        let atoms = split_atoms(part.trim());
        let (first, payload) = atoms.split_first()?;
        let name = first.strip_prefix('#')?;
        variants.push((name.to_string(), payload.iter().map(|a| parse(a)).collect()));
    }
    variants.sort_by(|a, b| a.0.cmp(&b.0));
    Some(variants)
}

/// A sum type whose payload values are scalars, arrays of primitives and
/// sums of the same kind: its text and its variants sorted by name.
#[derive(Clone, Debug, PartialEq)]
pub struct SumLayout {
    /// The type's text (sizes removed).
    pub text: String,
    /// Each variant's name and payload values.
    pub variants: Vec<(String, Vec<PayloadLayout>)>,
}

/// One payload value of a [`SumLayout`] variant.
#[derive(Clone, Debug, PartialEq)]
pub enum PayloadLayout {
    /// A scalar or an array of primitives: its type's text.
    Value(String),
    /// A sum.
    Sum(SumLayout),
}

/// The layout of a sum type's structure (sizes removed), or `None` when a
/// payload value is anything but a scalar, an array of primitives or such
/// a sum.
pub fn sum_layout(structure: &str) -> Option<SumLayout> {
    fn of(tree: Tree) -> Option<SumLayout> {
        let Tree::Sum(text, vs) = tree else {
            return None;
        };
        let variants = vs
            .into_iter()
            .map(|(name, ts)| {
                let payload = ts
                    .into_iter()
                    .map(|t| match t {
                        Tree::Leaf(text) => Some(PayloadLayout::Value(text)),
                        t @ Tree::Sum(..) => of(t).map(PayloadLayout::Sum),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some((name, payload))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(SumLayout { text, variants })
    }
    of(parse(structure))
}

/// `text` without array sizes: `[n][3]f64` becomes `[][]f64`.
pub fn strip_sizes(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '[' => {
                depth += 1;
                if depth == 1 {
                    out.push('[');
                }
            }
            ']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    out.push(']');
                }
            }
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Splits `text` at the occurrences of `sep` outside brackets.
fn split_outside_brackets(text: &str, sep: char) -> Vec<&str> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// Splits `text` at the `|`s outside brackets.
fn split_at_bars(text: &str) -> Vec<&str> {
    split_outside_brackets(text, '|')
}

/// Splits `text` at the commas outside brackets.
fn split_top(text: &str) -> Vec<&str> {
    split_outside_brackets(text, ',')
}

/// Whether `text` is a prefix of `[]`s and then a primitive type.
fn is_leaf(text: &str) -> bool {
    let mut rest = text;
    while let Some(r) = rest.strip_prefix("[]") {
        rest = r;
    }
    values::PrimType::from_name(rest).is_some()
}

/// The structure of a type's text (sizes already removed).
fn parse(text: &str) -> Tree {
    let text = text.trim().trim_start_matches('*').trim();
    if let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        let parts = split_top(inner);
        if parts.len() == 1 {
            return parse(parts[0]);
        }
        return Tree::Tuple(text.to_string(), parts.into_iter().map(parse).collect());
    }
    if let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let mut fields = Vec::new();
        for p in split_top(inner) {
            let Some((name, ty)) = p.split_once(':') else {
                return Tree::Other(text.to_string());
            };
            fields.push((name.trim().to_string(), parse(ty)));
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        return Tree::Record(text.to_string(), fields);
    }
    if text.starts_with('#')
        && let Some(vs) = parse_sum(text)
    {
        return Tree::Sum(text.to_string(), vs);
    }
    if is_leaf(text) {
        return Tree::Leaf(text.to_string());
    }
    let elem = text.trim_start_matches("[]");
    let rank = (text.len() - elem.len()) / 2;
    if rank > 0 {
        let e = parse(elem);
        if matches!(e, Tree::Tuple(..) | Tree::Record(..) | Tree::Sum(..)) && e.leaves().is_some() {
            return Tree::Array(text.to_string(), rank, Box::new(e));
        }
    }
    Tree::Other(text.to_string())
}

/// The Rust expression of a `TypeDesc`.
pub fn type_desc(t: &Type, unique: bool) -> String {
    format!(
        "fut_runtime_multicore::TypeDesc {{ rank: {}, elem: values::PrimType::{:?}, unique: {unique} }}",
        t.rank(),
        t.elem
    )
}

/// The opaque types of a program, emitted as statics.
#[derive(Default)]
pub struct Opaques {
    /// Type name to the name of its static.
    by_name: BTreeMap<String, String>,
    /// The statics' declarations.
    pub decls: String,
}

impl Opaques {
    /// The Rust expression of the `ExtType` of an external value whose type
    /// the program writes as `text`, made of components of types `comps`.
    pub fn ext_type(&mut self, text: &str, unique: bool, comps: &[&Type]) -> String {
        let (name, structure) = name_and_structure(text);
        let tree = parse(&structure);
        match &tree {
            Tree::Leaf(_) if comps.len() == 1 => {
                format!(
                    "fut_runtime_multicore::ExtType::Value({})",
                    type_desc(comps[0], unique)
                )
            }
            _ => {
                let fits =
                    tree.leaves() == Some(comps.len()) && matches_leaves(&tree, comps, &mut 0);
                let ident = self.opaque(&name, &tree, comps, fits);
                format!("fut_runtime_multicore::ExtType::Opaque(&{ident}, {unique})")
            }
        }
    }

    /// The static of the opaque type `tree` called `text`, with
    /// components `comps`; with fields or variants when `fields` (its
    /// leaves match the components).
    fn opaque(&mut self, text: &str, tree: &Tree, comps: &[&Type], fields: bool) -> String {
        let text = text.to_string();
        if let Some(s) = self.by_name.get(&text) {
            return s.clone();
        }
        let field_list = match tree {
            Tree::Tuple(_, ts) if fields => Some(
                ts.iter()
                    .enumerate()
                    .map(|(i, t)| (i.to_string(), t))
                    .collect::<Vec<_>>(),
            ),
            Tree::Record(_, fs) if fields => {
                Some(fs.iter().map(|(n, t)| (n.clone(), t)).collect::<Vec<_>>())
            }
            _ => None,
        };
        let fields_expr = match field_list {
            None => "None".to_string(),
            Some(fs) => {
                let mut at = 0;
                let mut parts = Vec::new();
                for (name, t) in fs {
                    let n = t.leaves().unwrap_or(0);
                    let part = &comps[at..at + n];
                    at += n;
                    let ty = match t {
                        Tree::Leaf(_) => format!(
                            "fut_runtime_multicore::ExtType::Value({})",
                            type_desc(part[0], false)
                        ),
                        _ => self.part_type(t, part),
                    };
                    parts.push(format!(
                        "fut_runtime_multicore::Field {{ name: {name:?}, ty: {ty} }}"
                    ));
                }
                format!("Some(&[{}])", parts.join(", "))
            }
        };
        let variants_expr = match tree {
            Tree::Sum(_, vs) if fields => {
                let mut at = 1;
                let mut parts = Vec::new();
                for (name, ts) in vs {
                    let mut payload = Vec::new();
                    for t in ts {
                        let n = t.leaves().unwrap_or(0);
                        let part = &comps[at..at + n];
                        at += n;
                        payload.push(self.part_type(t, part));
                    }
                    parts.push(format!(
                        "fut_runtime_multicore::Variant {{ name: {name:?}, payload: &[{}] }}",
                        payload.join(", ")
                    ));
                }
                format!("Some(&[{}])", parts.join(", "))
            }
            _ => "None".to_string(),
        };
        let array_expr = match tree {
            Tree::Array(_, rank, e) if fields => {
                // The element's components: the array's without its outer
                // dimensions.
                let inner: Vec<Type> = comps
                    .iter()
                    .map(|t| Type::array(t.elem, t.shape.get(*rank..).unwrap_or(&[]).to_vec()))
                    .collect();
                let refs: Vec<&Type> = inner.iter().collect();
                // An array of a named type (`[]point`) has elements of that
                // name.
                let elem_name = text
                    .strip_prefix(&"[]".repeat(*rank))
                    .filter(|n| !n.is_empty())
                    .unwrap_or(e.text());
                let elem = self.opaque(elem_name, e, &refs, true);
                format!("Some(fut_runtime_multicore::ArrayOf {{ rank: {rank}, elem: &{elem} }})")
            }
            _ => "None".to_string(),
        };
        let ident = format!("OPAQUE_{}", self.by_name.len());
        self.by_name.insert(text.clone(), ident.clone());
        let components: Vec<String> = comps.iter().map(|t| type_desc(t, false)).collect();
        writeln!(
            self.decls,
            "static {ident}: fut_runtime_multicore::OpaqueType = fut_runtime_multicore::OpaqueType {{ name: {text:?}, components: &[{}], fields: {fields_expr}, variants: {variants_expr}, array: {array_expr} }};",
            components.join(", ")
        )
        .ok();
        ident
    }

    /// The `ExtType` of a field or payload value of structure `t` made of
    /// the components `part`.
    fn part_type(&mut self, t: &Tree, part: &[&Type]) -> String {
        match t {
            Tree::Leaf(_) if part.len() == 1 => format!(
                "fut_runtime_multicore::ExtType::Value({})",
                type_desc(part[0], false)
            ),
            _ => format!(
                "fut_runtime_multicore::ExtType::Opaque(&{}, false)",
                self.opaque(t.text(), t, part, true)
            ),
        }
    }
}

/// Whether the leaves of `tree`, from `*at` on, have the ranks and element
/// types of `comps`.
fn matches_leaves(tree: &Tree, comps: &[&Type], at: &mut usize) -> bool {
    matches_within(tree, comps, at, 0)
}

/// [`matches_leaves`] for leaves inside `outer` dimensions of arrays.
fn matches_within(tree: &Tree, comps: &[&Type], at: &mut usize, outer: usize) -> bool {
    let matches_leaves =
        |t: &Tree, comps: &[&Type], at: &mut usize| matches_within(t, comps, at, outer);
    match tree {
        Tree::Leaf(text) => {
            let Some(t) = comps.get(*at) else {
                return false;
            };
            *at += 1;
            let rank = text.matches("[]").count();
            outer + rank == t.rank() && text.ends_with(t.elem.name())
        }
        Tree::Array(_, rank, e) => matches_within(e, comps, at, outer + rank),
        Tree::Tuple(_, ts) => ts.iter().all(|t| matches_leaves(t, comps, at)),
        Tree::Record(_, fs) => fs.iter().all(|(_, t)| matches_leaves(t, comps, at)),
        Tree::Sum(_, vs) => {
            let Some(tag) = comps.get(*at) else {
                return false;
            };
            *at += 1;
            // Inside an array, the variants' numbers are an array too.
            tag.rank() == outer
                && tag.elem == values::PrimType::I64
                && vs
                    .iter()
                    .flat_map(|(_, ts)| ts)
                    .all(|t| matches_leaves(t, comps, at))
        }
        Tree::Other(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use values::PrimType;

    #[test]
    fn sizes_are_removed_and_structure_read() {
        assert_eq!(
            strip_sizes("{a: [n][3]f64, b: (i32, [m]bool)}"),
            "{a: [][]f64, b: (i32, []bool)}"
        );
        let t = parse("{b: (i32, []bool), a: [][]f64}");
        assert_eq!(t.leaves(), Some(3));
        let Tree::Record(_, fs) = &t else {
            panic!("{t:?}")
        };
        assert_eq!(fs[0].0, "a");
        assert_eq!(fs[1].1.text(), "(i32, []bool)");
        assert!(matches!(parse("m.t"), Tree::Other(_)));
        assert!(matches!(parse("[](f64, f64)"), Tree::Array(_, 1, _)));
        assert!(matches!(parse("[](#a f64 | #b)"), Tree::Array(_, 1, _)));
        assert!(matches!(parse("[]m.t"), Tree::Other(_)));
    }

    #[test]
    fn arrays_of_records_have_an_element_type() {
        let xs = Type::array(PrimType::F64, vec![ir::Size::Any]);
        let yss = Type::array(PrimType::I32, vec![ir::Size::Any, ir::Size::Any]);
        let mut o = Opaques::default();
        let e = o.ext_type("[n]{x: f64, ys: [m]i32}", false, &[&xs, &yss]);
        assert_eq!(
            e,
            "fut_runtime_multicore::ExtType::Opaque(&OPAQUE_1, false)"
        );
        assert!(
            o.decls.contains("name: \"{x: f64, ys: []i32}\", components: &[fut_runtime_multicore::TypeDesc { rank: 0, elem: values::PrimType::F64, unique: false }, fut_runtime_multicore::TypeDesc { rank: 1, elem: values::PrimType::I32, unique: false }]"),
            "{}",
            o.decls
        );
        assert!(
            o.decls.contains("name: \"[]{x: f64, ys: []i32}\", components: &[fut_runtime_multicore::TypeDesc { rank: 1, elem: values::PrimType::F64, unique: false }, fut_runtime_multicore::TypeDesc { rank: 2, elem: values::PrimType::I32, unique: false }], fields: None, variants: None, array: Some(fut_runtime_multicore::ArrayOf { rank: 1, elem: &OPAQUE_0 })"),
            "{}",
            o.decls
        );
        // An array of a named record has elements of that name.
        let xss = Type::array(PrimType::F64, vec![ir::Size::Any, ir::Size::Any]);
        let ysss = Type::array(PrimType::I32, vec![ir::Size::Any; 3]);
        let named = o.ext_type("[][]p = [][]{x: f64, ys: []i32}", false, &[&xss, &ysss]);
        assert!(named.contains("OPAQUE_3"), "{named}");
        assert!(
            o.decls.contains("static OPAQUE_2: fut_runtime_multicore::OpaqueType = fut_runtime_multicore::OpaqueType { name: \"p\""),
            "{}",
            o.decls
        );
        assert!(
            o.decls.contains("name: \"[][]p\"")
                && o.decls.contains("ArrayOf { rank: 2, elem: &OPAQUE_2 }"),
            "{}",
            o.decls
        );
    }

    #[test]
    fn sums_have_variants_in_name_order() {
        let t = parse("#rect f64 (f64, f64) | #empty | #poly [][]f32");
        let Tree::Sum(_, vs) = &t else {
            panic!("{t:?}")
        };
        let names: Vec<&str> = vs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, vec!["empty", "poly", "rect"]);
        assert_eq!(vs[2].1.len(), 2);
        assert_eq!(t.leaves(), Some(5));
        let i64_ = Type::scalar(PrimType::I64);
        let f64_ = Type::scalar(PrimType::F64);
        let f32s = Type::array(PrimType::F32, vec![ir::Size::Any, ir::Size::Any]);
        let mut o = Opaques::default();
        let e = o.ext_type(
            "shape = #empty | #poly [n][m]f32 | #rect f64 (f64, f64)",
            false,
            &[&i64_, &f32s, &f64_, &f64_, &f64_],
        );
        assert_eq!(
            e,
            "fut_runtime_multicore::ExtType::Opaque(&OPAQUE_1, false)"
        );
        assert!(o.decls.contains("name: \"shape\""), "{}", o.decls);
        assert!(
            o.decls.contains("variants: Some(&[fut_runtime_multicore::Variant { name: \"empty\", payload: &[] }, fut_runtime_multicore::Variant { name: \"poly\", payload: &[fut_runtime_multicore::ExtType::Value(fut_runtime_multicore::TypeDesc { rank: 2, elem: values::PrimType::F32, unique: false })] }, fut_runtime_multicore::Variant { name: \"rect\", payload: &[fut_runtime_multicore::ExtType::Value(fut_runtime_multicore::TypeDesc { rank: 0, elem: values::PrimType::F64, unique: false }), fut_runtime_multicore::ExtType::Opaque(&OPAQUE_0, false)] }])"),
            "{}",
            o.decls
        );
        // Components that do not fit (no tag first) give an opaque type
        // without variants.
        let bad = o.ext_type("#a f64 | #b", false, &[&f64_, &f64_]);
        assert!(bad.contains("OPAQUE_2"), "{bad}");
        assert!(o.decls.contains("name: \"#a f64 | #b\", components: &[fut_runtime_multicore::TypeDesc { rank: 0, elem: values::PrimType::F64, unique: false }, fut_runtime_multicore::TypeDesc { rank: 0, elem: values::PrimType::F64, unique: false }], fields: None, variants: None"), "{}", o.decls);
    }

    #[test]
    fn nested_records_get_one_static_each() {
        let f64_ = Type::scalar(PrimType::F64);
        let arr = Type::array(PrimType::I64, vec![ir::Size::Any]);
        let mut o = Opaques::default();
        let e = o.ext_type("{p: (f64, f64), n: [k]i64}", true, &[&arr, &f64_, &f64_]);
        assert_eq!(e, "fut_runtime_multicore::ExtType::Opaque(&OPAQUE_1, true)");
        assert!(o.decls.contains("name: \"(f64, f64)\""), "{}", o.decls);
        assert!(
            o.decls.contains("name: \"{p: (f64, f64), n: []i64}\""),
            "{}",
            o.decls
        );
        assert!(o.decls.contains("Field { name: \"0\""), "{}", o.decls);
        assert!(o.decls.contains("Opaque(&OPAQUE_0, false)"), "{}", o.decls);
        // The same type again reuses its static; a mismatch has no fields.
        let again = o.ext_type("{p: (f64, f64), n: [k]i64}", false, &[&arr, &f64_, &f64_]);
        assert_eq!(
            again,
            "fut_runtime_multicore::ExtType::Opaque(&OPAQUE_1, false)"
        );
        let abs = o.ext_type("m.t", false, &[&f64_]);
        assert!(abs.contains("OPAQUE_2"), "{abs}");
        assert!(o.decls.contains("name: \"m.t\", components: &[fut_runtime_multicore::TypeDesc { rank: 0, elem: values::PrimType::F64, unique: false }], fields: None"), "{}", o.decls);
        // A type named by an abbreviation keeps its name and structure.
        let named = o.ext_type("point = {x: f64, y: f64}", false, &[&f64_, &f64_]);
        assert!(named.contains("OPAQUE_3"), "{named}");
        assert!(
            o.decls.contains("name: \"point\", components: &[fut_runtime_multicore::TypeDesc { rank: 0, elem: values::PrimType::F64, unique: false }, fut_runtime_multicore::TypeDesc { rank: 0, elem: values::PrimType::F64, unique: false }], fields: Some(&[fut_runtime_multicore::Field { name: \"x\""),
            "{}",
            o.decls
        );
        let plain = o.ext_type("[n]i64", true, &[&arr]);
        assert!(
            plain.starts_with("fut_runtime_multicore::ExtType::Value("),
            "{plain}"
        );
    }
}
