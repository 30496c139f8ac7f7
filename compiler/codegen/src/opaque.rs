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
//! own; any other type (a sum or abstract type) is opaque without fields.
//! Each opaque type is emitted once, as a `static`.

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
    /// Anything else (a sum or abstract type, an array of tuples).
    Other(String),
}

impl Tree {
    fn text(&self) -> &str {
        match self {
            Tree::Leaf(t) | Tree::Tuple(t, _) | Tree::Record(t, _) | Tree::Other(t) => t,
        }
    }

    /// The number of scalars and arrays; `None` when a part is `Other`.
    fn leaves(&self) -> Option<usize> {
        match self {
            Tree::Leaf(_) => Some(1),
            Tree::Tuple(_, ts) => ts.iter().map(Tree::leaves).sum(),
            Tree::Record(_, fs) => fs.iter().map(|(_, t)| t.leaves()).sum(),
            Tree::Other(_) => None,
        }
    }
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

/// Splits `text` at the commas outside brackets.
fn split_top(text: &str) -> Vec<&str> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut out = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
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
    if is_leaf(text) {
        Tree::Leaf(text.to_string())
    } else {
        Tree::Other(text.to_string())
    }
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
        let tree = parse(&strip_sizes(text));
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
                let name = self.opaque(&tree, comps, fits);
                format!("fut_runtime_multicore::ExtType::Opaque(&{name}, {unique})")
            }
        }
    }

    /// The static of the opaque type `tree` with components `comps`;
    /// with fields when `fields` (its leaves match the components).
    fn opaque(&mut self, tree: &Tree, comps: &[&Type], fields: bool) -> String {
        let text = tree.text().to_string();
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
                        _ => format!(
                            "fut_runtime_multicore::ExtType::Opaque(&{}, false)",
                            self.opaque(t, part, true)
                        ),
                    };
                    parts.push(format!(
                        "fut_runtime_multicore::Field {{ name: {name:?}, ty: {ty} }}"
                    ));
                }
                format!("Some(&[{}])", parts.join(", "))
            }
        };
        let ident = format!("OPAQUE_{}", self.by_name.len());
        self.by_name.insert(text.clone(), ident.clone());
        let components: Vec<String> = comps.iter().map(|t| type_desc(t, false)).collect();
        writeln!(
            self.decls,
            "static {ident}: fut_runtime_multicore::OpaqueType = fut_runtime_multicore::OpaqueType {{ name: {text:?}, components: &[{}], fields: {fields_expr} }};",
            components.join(", ")
        )
        .ok();
        ident
    }
}

/// Whether the leaves of `tree`, from `*at` on, have the ranks and element
/// types of `comps`.
fn matches_leaves(tree: &Tree, comps: &[&Type], at: &mut usize) -> bool {
    match tree {
        Tree::Leaf(text) => {
            let Some(t) = comps.get(*at) else {
                return false;
            };
            *at += 1;
            let rank = text.matches("[]").count();
            rank == t.rank() && text.ends_with(t.elem.name())
        }
        Tree::Tuple(_, ts) => ts.iter().all(|t| matches_leaves(t, comps, at)),
        Tree::Record(_, fs) => fs.iter().all(|(_, t)| matches_leaves(t, comps, at)),
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
        assert!(matches!(parse("[](f64, f64)"), Tree::Other(_)));
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
        let plain = o.ext_type("[n]i64", true, &[&arr]);
        assert!(
            plain.starts_with("fut_runtime_multicore::ExtType::Value("),
            "{plain}"
        );
    }
}
