//! Sum types in library crates (`library`): each sum type is a generated
//! enum `SumN` with one variant per constructor, holding its payload (a
//! scalar, an `Array` of primitives, or the enum of
//! a sum inside it), and an array of sums of rank `r` is `r` nested `Vec`s
//! of the enum (a slice of them as a parameter).
//!
//! A sum's components are its variant's number (an `i64`) and then every
//! variant's payload in order, a sum inside a payload being its components in
//! turn; the variants a value does not hold get blank values (zeros, empty
//! arrays, variant 0 of an inner sum). In an array of sums each component is
//! an array with the outer dimensions in front: a scalar payload is one
//! element of it per sum, an array payload one row, all rows of one shape
//! (an argument's elements holding another variant get rows of zeros).
//! This module writes the enums' declarations and the code of a method that
//! turns an argument into its components (`x{k}`, …) and the components of a
//! result (`r{c}`) back into a value.

use std::collections::BTreeMap;
use std::fmt::Write;

use ir::Type;

use crate::library::{api_type, variant_ident};
use crate::opaque::{PayloadLayout, SumLayout};
use crate::scalar;

/// A sum type as a generated enum.
#[derive(Clone, Debug)]
pub struct SumEnum {
    /// The enum's name (`Sum0`).
    pub name: String,
    /// The variants, in the order of their numbers.
    pub variants: Vec<EnumVariant>,
}

/// A variant of a generated enum.
#[derive(Clone, Debug)]
pub struct EnumVariant {
    /// The Rust name (`Circle` for `#circle`).
    pub rust: String,
    /// Its payload values.
    pub payload: Vec<Payload>,
}

/// One payload value of a variant.
#[derive(Clone, Debug)]
pub enum Payload {
    /// A scalar or an array: one component.
    Value,
    /// A sum: its components.
    Sum(SumEnum),
}

impl SumEnum {
    /// How many components a value has.
    pub fn components(&self) -> usize {
        1 + self
            .variants
            .iter()
            .flat_map(|v| &v.payload)
            .map(Payload::components)
            .sum::<usize>()
    }

    /// Each variant with the components of each payload value, as indices
    /// into `comps` (this sum's components).
    fn layout<'c>(&self, comps: &'c [usize]) -> Vec<(&EnumVariant, Vec<&'c [usize]>)> {
        let mut at = 1;
        self.variants
            .iter()
            .map(|v| {
                let parts = v
                    .payload
                    .iter()
                    .map(|p| {
                        let n = p.components();
                        let part = &comps[at..at + n];
                        at += n;
                        part
                    })
                    .collect();
                (v, parts)
            })
            .collect()
    }
}

impl Payload {
    fn components(&self) -> usize {
        match self {
            Payload::Value => 1,
            Payload::Sum(e) => e.components(),
        }
    }
}

impl EnumVariant {
    /// The names bound to its payload (`p{depth}_0`, …) and the pattern of
    /// enum `name` that binds them (`Sum0::Circle(p0_0)`).
    fn pattern(&self, name: &str, depth: usize) -> (Vec<String>, String) {
        let binds: Vec<String> = (0..self.payload.len())
            .map(|j| format!("p{depth}_{j}"))
            .collect();
        let pattern = if binds.is_empty() {
            format!("{name}::{}", self.rust)
        } else {
            format!("{name}::{}({})", self.rust, binds.join(", "))
        };
        (binds, pattern)
    }

    /// A sample value of this variant for documentation, from sample
    /// payload values, or `None` when a payload is a sum.
    pub fn sample(&self, name: &str, values: &[String]) -> Option<String> {
        if self.payload.iter().any(|p| matches!(p, Payload::Sum(_))) {
            return None;
        }
        Some(if values.is_empty() {
            format!("{name}::{}", self.rust)
        } else {
            format!("{name}::{}({})", self.rust, values.join(", "))
        })
    }
}

/// The enums generated so far, by the structure of their sum type, and
/// their declarations.
#[derive(Default)]
pub struct SumEnums {
    by_text: BTreeMap<String, SumEnum>,
    /// The declarations, in order.
    pub decls: String,
}

impl SumEnums {
    /// The enum of the sum type `text` with layout `layout`, whose values have
    /// the components `comps` of `types` inside `outer` array dimensions
    /// (declared on first use); `None` when the components do not fit.
    pub fn enum_of(
        &mut self,
        text: &str,
        layout: &SumLayout,
        comps: &[usize],
        types: &[&Type],
        outer: usize,
    ) -> Option<SumEnum> {
        let tag = types.get(*comps.first()?)?;
        if tag.rank() != outer || tag.elem != values::PrimType::I64 {
            return None;
        }
        // Inside arrays, every component has the outer dimensions in front.
        if comps.iter().any(|&c| types[c].rank() < outer) {
            return None;
        }
        let mut at = 1;
        let mut variants = Vec::new();
        let mut field_types = Vec::new();
        let mut rust_names: Vec<String> = Vec::new();
        for (i, (futhark, payload)) in layout.variants.iter().enumerate() {
            let mut rust = variant_ident(futhark);
            if rust_names.contains(&rust) {
                rust = format!("{rust}{i}");
            }
            rust_names.push(rust.clone());
            let mut parts = Vec::new();
            let mut tys = Vec::new();
            for p in payload {
                match p {
                    PayloadLayout::Value(_) => {
                        let t = types[*comps.get(at)?];
                        at += 1;
                        tys.push(payload_type(t, outer));
                        parts.push(Payload::Value);
                    }
                    PayloadLayout::Sum(inner) => {
                        let n = count(inner);
                        let inner_comps = comps.get(at..at + n)?;
                        at += n;
                        let e = self.enum_of(&inner.text, inner, inner_comps, types, outer)?;
                        tys.push(e.name.clone());
                        parts.push(Payload::Sum(e));
                    }
                }
            }
            let written = std::iter::once(format!("#{futhark}"))
                .chain(payload.iter().map(|p| match p {
                    PayloadLayout::Value(t) => t.clone(),
                    PayloadLayout::Sum(s) => format!("({})", s.text),
                }))
                .collect::<Vec<_>>()
                .join(" ");
            field_types.push((written, tys));
            variants.push(EnumVariant {
                rust,
                payload: parts,
            });
        }
        if at != comps.len() {
            return None;
        }
        // One enum per structure: a named sum type and the same structure
        // inside another sum's payload are one Rust type.
        if let Some(e) = self.by_text.get(&layout.text) {
            return Some(e.clone());
        }
        let name = format!("Sum{}", self.by_text.len());
        let shown = if text == layout.text {
            format!("`{text}`")
        } else {
            format!("`{text}` (`{}`)", layout.text)
        };
        let mut decl = format!(
            "/// The sum type {shown} of the program: one variant per constructor.\n#[derive(Clone, Debug, PartialEq)]\npub enum {name} {{\n"
        );
        for ((written, tys), v) in field_types.iter().zip(&variants) {
            if tys.is_empty() {
                writeln!(decl, "    /// `{written}`.\n    {},", v.rust).ok();
            } else {
                writeln!(
                    decl,
                    "    /// `{written}`.\n    {}({}),",
                    v.rust,
                    tys.join(", ")
                )
                .ok();
            }
        }
        decl.push_str("}\n\n");
        self.decls.push_str(&decl);
        let e = SumEnum { name, variants };
        self.by_text.insert(layout.text.clone(), e.clone());
        Some(e)
    }
}

/// How many components a value of `layout` has.
pub fn count(layout: &SumLayout) -> usize {
    1 + layout
        .variants
        .iter()
        .flat_map(|(_, p)| p)
        .map(|p| match p {
            PayloadLayout::Value(_) => 1,
            PayloadLayout::Sum(s) => count(s),
        })
        .sum::<usize>()
}

/// The API type of an array of rank `rank` of the enum `name`: nested
/// `Vec`s.
pub fn vec_type(name: &str, rank: usize) -> String {
    (0..rank).fold(name.to_string(), |t, _| format!("Vec<{t}>"))
}

/// The parameter type of such an array: a slice of its rows.
pub fn slice_type(name: &str, rank: usize) -> String {
    format!("&[{}]", vec_type(name, rank.saturating_sub(1)))
}

/// The API type of a payload value of component type `t` inside `outer`
/// array dimensions: a scalar, or an `Array` of the dimensions after them.
fn payload_type(t: &Type, outer: usize) -> String {
    let e = scalar::rust_prim(t.elem);
    match t.rank() - outer.min(t.rank()) {
        0 => e.to_string(),
        p if outer == 0 => {
            debug_assert_eq!(p, t.rank());
            api_type(t)
        }
        p => format!("Array<{e}, {p}>"),
    }
}

/// Whether component type `t` inside `outer` array dimensions holds an
/// array per element: an array payload inside an array of sums.
fn array_rows(t: &Type, outer: usize) -> bool {
    outer > 0 && t.rank() > outer
}

/// The Rust type of component `c` as pushed by [`push_components`]: a
/// runtime array, a scalar, or (an array payload in an array of sums) the
/// payload of each element, `None` where the element holds another variant.
fn comp_type(t: &Type, outer: usize) -> String {
    let e = scalar::rust_prim(t.elem);
    if outer == 0 && !t.is_scalar() {
        format!("Arr<{e}>")
    } else if array_rows(t, outer) {
        format!("Option<&Array<{e}, {}>>", t.rank() - outer)
    } else {
        e.to_string()
    }
}

/// A blank value of component type `t` (inside `outer` dimensions).
fn blank(t: &Type, outer: usize) -> String {
    let e = scalar::rust_prim(t.elem);
    if outer == 0 && !t.is_scalar() {
        let r = t.rank();
        format!("Array::<{e}, {r}>::from_vec(Vec::new(), [0; {r}])?.into_arr()")
    } else if array_rows(t, outer) {
        "None".to_string()
    } else {
        format!("<{e}>::default()")
    }
}

/// The components an argument's conversion pushes onto: `all` (the
/// argument's, the vector `c{j}` holding the one at position `j`), their
/// types, and the array dimensions around the sums.
struct Pushes<'a> {
    all: &'a [usize],
    types: &'a [&'a Type],
    outer: usize,
}

/// Statements pushing the components of the value `v` (a reference to an
/// enum `e`) onto the vectors of `to`; `comps` are this sum's components.
fn push_components(
    out: &mut String,
    e: &SumEnum,
    v: &str,
    comps: &[usize],
    to: &Pushes,
    depth: usize,
) {
    let (all, types, outer) = (to.all, to.types, to.outer);
    let pos = |c: usize| all.iter().position(|&a| a == c).unwrap_or(0);
    write!(out, "match {v} {{ ").ok();
    let layout = e.layout(comps);
    for (number, (variant, _)) in layout.iter().enumerate() {
        let (binds, pattern) = variant.pattern(&e.name, depth);
        write!(out, "{pattern} => {{ c{}.push({number}); ", pos(comps[0])).ok();
        for (w, (other, parts)) in layout.iter().enumerate() {
            for (j, (p, cs)) in other.payload.iter().zip(parts).enumerate() {
                match (w == number, p) {
                    (true, Payload::Value) => {
                        let c = cs[0];
                        let value = if outer == 0 && !types[c].is_scalar() {
                            format!("{}.to_arr()", binds[j])
                        } else if array_rows(types[c], outer) {
                            format!("Some({})", binds[j])
                        } else {
                            format!("*{}", binds[j])
                        };
                        write!(out, "c{}.push({value}); ", pos(c)).ok();
                    }
                    (true, Payload::Sum(inner)) => {
                        push_components(out, inner, &binds[j], cs, to, depth + 1);
                    }
                    (false, _) => {
                        // An inner sum's blank is its variant 0.
                        for &c in cs.iter() {
                            write!(out, "c{}.push({}); ", pos(c), blank(types[c], outer)).ok();
                        }
                    }
                }
            }
        }
        write!(out, "}} ").ok();
    }
    write!(out, "}} ").ok();
}

/// Writes, into the method `m`, the binding of the components `x{k}`, … of
/// the argument `arg`: a reference to the enum `e` when `rank` is 0, else a
/// slice of rows of an array of that rank (rows of different lengths are an
/// error naming the entry point `entry`).
#[allow(clippy::too_many_arguments)]
pub fn argument(
    m: &mut String,
    arg: &str,
    entry: &str,
    e: &SumEnum,
    rank: usize,
    comps: &[usize],
    types: &[&Type],
    k: usize,
) {
    for (j, &c) in comps.iter().enumerate() {
        writeln!(
            m,
            "        let mut c{j}: Vec<{}> = Vec::new();",
            comp_type(types[c], rank)
        )
        .ok();
    }
    let mut body = String::new();
    let to = Pushes {
        all: comps,
        types,
        outer: rank,
    };
    push_components(&mut body, e, "e", comps, &to, 0);
    if rank == 0 {
        writeln!(m, "        let e = {arg};\n        {}", body.trim_end()).ok();
        for j in 0..comps.len() {
            writeln!(m, "        let x{} = c{j}.remove(0);", k + j).ok();
        }
        return;
    }
    // The sizes, from the first row at each level; every row must match.
    writeln!(m, "        let s0 = {arg}.len();").ok();
    for d in 1..rank {
        let rows = format!("{arg}.iter(){}", ".flatten()".repeat(d - 1));
        writeln!(
            m,
            "        let s{d} = {rows}.next().map_or(0, |r| r.len());\n        if {rows}.any(|r| r.len() != s{d}) {{ return Err(Error::new(\"entry point `{entry}`: the rows of argument `{arg}` differ in their lengths\")); }}"
        )
        .ok();
    }
    writeln!(
        m,
        "        for e in {arg}.iter(){} {{\n            {}\n        }}",
        ".flatten()".repeat(rank - 1),
        body.trim_end()
    )
    .ok();
    let shape: Vec<String> = (0..rank).map(|d| format!("s{d}")).collect();
    for (j, &c) in comps.iter().enumerate() {
        let t = types[c];
        if array_rows(t, rank) {
            // The payloads' rows, each of the shape `h{j}` they all share.
            writeln!(
                m,
                "        let (c{j}, h{j}) = {PAYLOAD_ROWS}(c{j}, \"{entry}\", \"{arg}\")?;"
            )
            .ok();
            let mut full = shape.clone();
            full.extend((0..t.rank() - rank).map(|d| format!("h{j}[{d}]")));
            writeln!(
                m,
                "        let x{} = Array::<_, {}>::from_vec(c{j}, [{}])?.into_arr();",
                k + j,
                t.rank(),
                full.join(", ")
            )
            .ok();
        } else {
            writeln!(
                m,
                "        let x{} = Array::<_, {rank}>::from_vec(c{j}, [{}])?.into_arr();",
                k + j,
                shape.join(", ")
            )
            .ok();
        }
    }
}

/// The name of the function [`payload_rows_fn`] defines.
pub const PAYLOAD_ROWS: &str = "fut_payload_rows";

/// The definition of the function that joins the array payloads of the
/// elements of an array of sums into one buffer: every payload present must
/// have the same shape (else an error naming the entry point and argument),
/// and the elements holding another variant get zeros of that shape (of
/// shape zero when no element holds an array). The generated library
/// defines it once, after the methods that call it.
pub fn payload_rows_fn() -> String {
    format!(
        "/// The array payloads of the elements of an array of sums (`None` where an\n\
         /// element holds another variant) as one buffer of rows, and the rows' shape.\n\
         fn {PAYLOAD_ROWS}<T: crate::Element, const P: usize>(\n\
         \x20   rows: Vec<Option<&Array<T, P>>>,\n\
         \x20   entry: &str,\n\
         \x20   arg: &str,\n\
         ) -> Result<(Vec<T>, [usize; P]), Error> {{\n\
         \x20   let shape = rows.iter().flatten().next().map_or([0; P], |a| a.shape());\n\
         \x20   let size: usize = shape.iter().product();\n\
         \x20   let mut data = Vec::with_capacity(rows.len() * size);\n\
         \x20   for row in &rows {{\n\
         \x20       match row {{\n\
         \x20           Some(a) if a.shape() == shape => data.extend_from_slice(a.as_slice()),\n\
         \x20           Some(a) => {{\n\
         \x20               return Err(Error::new(format!(\n\
         \x20                   \"entry point `{{entry}}`: the array payloads of argument `{{arg}}` differ in their shapes ({{:?}} and {{:?}})\",\n\
         \x20                   shape,\n\
         \x20                   a.shape()\n\
         \x20               )));\n\
         \x20           }}\n\
         \x20           None => data.extend(std::iter::repeat_n(T::default(), size)),\n\
         \x20       }}\n\
         \x20   }}\n\
         \x20   Ok((data, shape))\n\
         }}\n"
    )
}

/// The expression of the value of enum `e` from its components `comps`:
/// `tag` is the expression of the variant's number, `value(c)` that of
/// component `c`.
fn decode(
    e: &SumEnum,
    comps: &[usize],
    entry: &str,
    tag: &dyn Fn(usize) -> String,
    value: &dyn Fn(usize) -> String,
) -> String {
    let mut arms = Vec::new();
    for (number, (v, parts)) in e.layout(comps).into_iter().enumerate() {
        let payload: Vec<String> = v
            .payload
            .iter()
            .zip(parts)
            .map(|(p, cs)| match p {
                Payload::Value => value(cs[0]),
                Payload::Sum(inner) => decode(inner, cs, entry, tag, value),
            })
            .collect();
        arms.push(if payload.is_empty() {
            format!("{number} => {}::{}", e.name, v.rust)
        } else {
            format!("{number} => {}::{}({})", e.name, v.rust, payload.join(", "))
        });
    }
    format!(
        "match {} {{ {}, n => return Err(Error::new(format!(\"entry point `{entry}` returned the variant number {{n}}, which its result type does not have\"))) }}",
        tag(comps[0]),
        arms.join(", ")
    )
}

/// The expression of a result of enum `e` (rank 0) or of an array of it of
/// rank `rank` (nested `Vec`s), from the components `r{c}` of `comps`.
pub fn result(e: &SumEnum, rank: usize, comps: &[usize], types: &[&Type], entry: &str) -> String {
    if rank == 0 {
        let value = |c: usize| {
            if types[c].is_scalar() {
                format!("r{c}")
            } else {
                format!("Array::from_arr(r{c})")
            }
        };
        return decode(e, comps, entry, &|c| format!("r{c}"), &value);
    }
    let tag = comps[0];
    let mut out = String::from("{ ");
    for &c in comps {
        let t = types[c];
        write!(
            out,
            "let a{c} = Array::<{}, {}>::from_arr(r{c}); ",
            scalar::rust_prim(t.elem),
            t.rank()
        )
        .ok();
        if c == tag {
            // The shape is read before the tags' array is turned into a vector.
            write!(out, "let s = a{c}.shape(); ").ok();
        }
        if array_rows(t, rank) {
            // Each element's payload: a row of the dimensions after the outer ones.
            let dims: Vec<String> = (rank..t.rank()).map(|d| format!("d{c}[{d}]")).collect();
            write!(
                out,
                "let d{c} = a{c}.shape(); let h{c} = [{}]; let z{c}: usize = h{c}.iter().product(); ",
                dims.join(", ")
            )
            .ok();
        }
        writeln!(out, "let v{c} = a{c}.into_vec();").ok();
    }
    let value = |c: usize| {
        let t = types[c];
        if array_rows(t, rank) {
            format!(
                "Array::<{}, {}>::from_vec(v{c}[i * z{c}..(i + 1) * z{c}].to_vec(), h{c})?",
                scalar::rust_prim(t.elem),
                t.rank() - rank
            )
        } else {
            format!("v{c}[i]")
        }
    };
    let element = decode(e, comps, entry, &|c| format!("v{c}[i]"), &value);
    write!(
        out,
        "let mut out = Vec::with_capacity(v{tag}.len()); for i in 0..v{tag}.len() {{ out.push({element}); }} "
    )
    .ok();
    // Rows from the innermost dimension out.
    for d in (1..rank).rev() {
        write!(
            out,
            "let out: Vec<_> = if s[{d}] == 0 {{ (0..s[..{d}].iter().product::<usize>()).map(|_| Vec::new()).collect() }} else {{ out.chunks(s[{d}]).map(|c| c.to_vec()).collect() }}; "
        )
        .ok();
    }
    out.push_str("out }");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_vecs_and_component_counts() {
        assert_eq!(vec_type("Sum0", 0), "Sum0");
        assert_eq!(vec_type("Sum0", 2), "Vec<Vec<Sum0>>");
        assert_eq!(slice_type("Sum0", 1), "&[Sum0]");
        assert_eq!(slice_type("Sum0", 3), "&[Vec<Vec<Sum0>>]");
        let opt = crate::opaque::sum_layout("#none | #some (#circle f64 | #rect f64 f64)")
            .expect("a sum layout");
        // opt's number, shape's number, the radius, width and height.
        assert_eq!(count(&opt), 5);
        assert!(crate::opaque::sum_layout("#a (f64, i32)").is_none());
    }

    #[test]
    fn sums_of_sums_share_the_enum_of_their_structure() {
        let i64s = Type::scalar(values::PrimType::I64);
        let f64s = Type::scalar(values::PrimType::F64);
        let types = [&i64s, &i64s, &f64s, &f64s, &f64s];
        let mut enums = SumEnums::default();
        let shape = crate::opaque::sum_layout("#circle f64 | #rect f64 f64").expect("layout");
        let s = enums
            .enum_of("shape", &shape, &[1, 2, 3, 4], &types, 0)
            .expect("shape's enum");
        let opt = crate::opaque::sum_layout("#none | #some (#circle f64 | #rect f64 f64)")
            .expect("layout");
        let o = enums
            .enum_of("opt", &opt, &[0, 1, 2, 3, 4], &types, 0)
            .expect("opt's enum");
        assert_eq!((s.name.as_str(), o.name.as_str()), ("Sum0", "Sum1"));
        assert!(enums.decls.contains("    Some(Sum0),"), "{}", enums.decls);
        // Components that do not fit the layout give no enum.
        assert!(enums.enum_of("opt", &opt, &[0, 1, 2], &types, 0).is_none());
        // In an array, the result is decoded element by element and
        // regrouped into rows.
        let rows = result(&o, 2, &[0, 1, 2, 3, 4], &types, "f");
        assert!(rows.contains("let s = a0.shape();"), "{rows}");
        assert!(rows.contains("1 => Sum1::Some(match v1[i] {"), "{rows}");
        assert!(rows.contains("out.chunks(s[1])"), "{rows}");
    }
}
