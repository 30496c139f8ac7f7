//! Counting the constructs of a program, for tests that state the shape a
//! pass must produce (`structure { Screma 1 }`).
//!
//! [`count_constructs`] counts every expression of every function, nested
//! bodies included, by the name of its [`Exp`] variant (`"Screma"`,
//! `"Hist"`, `"Scatter"`, `"Loop"`, `"If"`, `"Iota"`, `"Replicate"`,
//! `"Apply"`, `"BinOp"`, …), and an expression in a body nested directly in
//! another construct also as `"Outer/Name"` (`"Screma/UpdateAcc"`: an
//! accumulator update in a map lambda). Constructs that do not occur are
//! absent.

use std::collections::BTreeMap;

use ir::syntax::{Body, Exp, Program};
use ir::uses::nested_bodies;

/// The name of an expression's variant, as [`count_constructs`] counts it.
pub fn construct_name(e: &Exp) -> &'static str {
    match e {
        Exp::Atom(_) => "Atom",
        Exp::UnOp(..) => "UnOp",
        Exp::BinOp(..) => "BinOp",
        Exp::Cmp(..) => "Cmp",
        Exp::Convert(..) => "Convert",
        Exp::Math(..) => "Math",
        Exp::Index(..) => "Index",
        Exp::Update(..) => "Update",
        Exp::Iota { .. } => "Iota",
        Exp::Replicate { .. } => "Replicate",
        Exp::Reshape { .. } => "Reshape",
        Exp::Rearrange { .. } => "Rearrange",
        Exp::Concat { .. } => "Concat",
        Exp::Copy(_) => "Copy",
        Exp::Scratch { .. } => "Scratch",
        Exp::If { .. } => "If",
        Exp::Loop { .. } => "Loop",
        Exp::Apply { .. } => "Apply",
        Exp::Assert { .. } => "Assert",
        Exp::Screma(_) => "Screma",
        Exp::Hist(_) => "Hist",
        Exp::Scatter(_) => "Scatter",
        Exp::WithAcc(_) => "WithAcc",
        Exp::UpdateAcc { .. } => "UpdateAcc",
        Exp::Jvp(_) => "Jvp",
        Exp::Vjp(_) => "Vjp",
        Exp::CustomVjp(_) => "CustomVjp",
    }
}

/// How many times each construct occurs in `prog`, nested bodies included,
/// by name and, when nested directly in another construct, as `Outer/Name`.
pub fn count_constructs(prog: &Program) -> BTreeMap<String, usize> {
    fn body(b: &Body, parent: Option<&str>, out: &mut BTreeMap<String, usize>) {
        for s in &b.stms {
            let name = construct_name(&s.exp);
            *out.entry(name.to_string()).or_default() += 1;
            if let Some(p) = parent {
                *out.entry(format!("{p}/{name}")).or_default() += 1;
            }
            for (_, nb) in nested_bodies(&s.exp) {
                body(nb, Some(name), out);
            }
        }
    }
    let mut out = BTreeMap::new();
    for f in prog.functions.values() {
        body(&f.body, None, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_nested_constructs() {
        let src = "fun main(n: i64, xs: [n]f64) -> (f64) {
  let is: [n]i64 = iota(n, 0i64, 1i64)
  let s: f64 = screma(n, xs)
    reduce(\\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      in (y)
    })
  let (r: f64) = loop (acc: f64 = s) for i: i64 < n {
    let acc2: f64 = add(acc, 1.0f64)
    in (acc2)
  }
  in (r)
}
";
        let prog = ir::parse::parse_program(src).unwrap();
        let counts = count_constructs(&prog);
        let expected: BTreeMap<String, usize> = [
            ("BinOp", 3),
            ("Iota", 1),
            ("Loop", 1),
            ("Loop/BinOp", 1),
            ("Screma", 1),
            ("Screma/BinOp", 2),
        ]
        .into_iter()
        .map(|(k, n)| (k.to_string(), n))
        .collect();
        assert_eq!(counts, expected);
    }
}
