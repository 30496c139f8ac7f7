//! Random arguments for entry points, in the text value format.

use crate::generator::Gen;
use crate::ty::{Prim, Ty};

/// A random value of type `ty`, array sizes taken from `sizes`.
pub fn value(g: &mut Gen, ty: &Ty, sizes: &[(String, i64)]) -> String {
    let mut shape = Vec::new();
    let mut t = ty;
    while let Ty::Arr(e, d) = t {
        let n = sizes
            .iter()
            .find(|(s, _)| s == d)
            .map(|(_, n)| *n)
            .unwrap_or(0);
        shape.push(n);
        t = e;
    }
    let Ty::Prim(p) = t else {
        return String::from("()");
    };
    if shape.contains(&0) {
        let dims: String = shape.iter().map(|n| format!("[{n}]")).collect();
        return format!("empty({dims}{})", p.name());
    }
    let mut s = String::new();
    array(g, *p, &shape, &mut s);
    s
}

fn array(g: &mut Gen, p: Prim, shape: &[i64], out: &mut String) {
    match shape.split_first() {
        None => out.push_str(&scalar(g, p)),
        Some((n, rest)) => {
            out.push('[');
            for i in 0..*n {
                if i > 0 {
                    out.push_str(", ");
                }
                array(g, p, rest, out);
            }
            out.push(']');
        }
    }
}

/// A random scalar: small, now and then an extreme of its type.
pub fn scalar(g: &mut Gen, p: Prim) -> String {
    let n = p.name();
    match p {
        Prim::Bool => if g.chance(0.5) { "true" } else { "false" }.to_string(),
        p if p.is_float() => {
            let v = g.rng.int_in(-32, 32) as f64 / 4.0;
            format!("{v:?}{n}")
        }
        p => {
            let (lo, hi) = p.integer_range().unwrap_or((0, 1));
            let v = match g.below(20) {
                0 => lo,
                1 => hi,
                2 => g.rng.int_in(lo, hi),
                _ => g.rng.int_in(lo.max(-20), 20),
            };
            format!("{v}{n}")
        }
    }
}
