//! Exhaustiveness of `match` cases and refutability of `let` patterns, by the classic
//! usefulness algorithm over simplified patterns.

use crate::types::Ty;
use syntax::ast::{Literal, Pat, PatKind};

/// A simplified pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum SPat {
    Wild,
    Con(Ctor, Vec<SPat>),
}

/// A constructor of a simplified pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum Ctor {
    /// The only constructor of a tuple or record type (record fields in type order).
    Tuple(usize),
    /// A sum type constructor.
    Sum(String),
    /// `true`/`false`.
    Bool(bool),
    /// A literal of a type with infinitely many values.
    Lit(String),
}

/// Converts a pattern to a simplified pattern, guided by its (resolved) type.
pub fn simplify(p: &Pat, ty: &Ty) -> SPat {
    match &p.kind {
        PatKind::Id(_) | PatKind::Wildcard => SPat::Wild,
        PatKind::Ascribed(q, _) | PatKind::Attr(_, q) => simplify(q, ty),
        PatKind::Tuple(ps) if ps.len() == 1 => simplify(&ps[0], ty),
        PatKind::Tuple(ps) => {
            let tys: Vec<Ty> = match ty {
                Ty::Tuple(ts) if ts.len() == ps.len() => ts.clone(),
                _ => vec![Ty::Error; ps.len()],
            };
            SPat::Con(
                Ctor::Tuple(ps.len()),
                ps.iter().zip(&tys).map(|(p, t)| simplify(p, t)).collect(),
            )
        }
        PatKind::Record(fs) => match ty {
            Ty::Record(rfs) => SPat::Con(
                Ctor::Tuple(rfs.len()),
                rfs.iter()
                    .map(|(n, t)| match fs.iter().find(|(m, _)| m.name == *n) {
                        Some((_, q)) => simplify(q, t),
                        None => SPat::Wild,
                    })
                    .collect(),
            ),
            _ => SPat::Wild,
        },
        PatKind::Literal(Literal::Bool(b)) => SPat::Con(Ctor::Bool(*b), Vec::new()),
        PatKind::Literal(l) => SPat::Con(Ctor::Lit(lit_string(l)), Vec::new()),
        PatKind::Constructor(n, ps) => {
            let tys: Vec<Ty> = match ty {
                Ty::Sum(cs) => cs
                    .iter()
                    .find(|(m, _)| *m == n.name)
                    .map(|(_, ts)| ts.clone())
                    .unwrap_or_default(),
                _ => Vec::new(),
            };
            SPat::Con(
                Ctor::Sum(n.name.to_string()),
                ps.iter()
                    .enumerate()
                    .map(|(i, p)| simplify(p, tys.get(i).unwrap_or(&Ty::Error)))
                    .collect(),
            )
        }
    }
}

fn lit_string(l: &Literal) -> String {
    match l {
        Literal::Int { value, .. } => value.to_string(),
        Literal::Float { value, .. } => value.to_string(),
        Literal::Char { value, .. } => format!("'{}'", char::from_u32(*value).unwrap_or('?')),
        Literal::Bool(b) => b.to_string(),
        Literal::String(s) => format!("{:?}", String::from_utf8_lossy(s)),
    }
}

/// The complete set of constructors of a type, with their field types; `None` for
/// types with infinitely many or unknown values.
fn ctors(ty: &Ty) -> Option<Vec<(Ctor, Vec<Ty>)>> {
    match ty {
        Ty::Tuple(ts) => Some(vec![(Ctor::Tuple(ts.len()), ts.clone())]),
        Ty::Record(fs) => Some(vec![(
            Ctor::Tuple(fs.len()),
            fs.iter().map(|(_, t)| t.clone()).collect(),
        )]),
        Ty::Sum(cs) => Some(
            cs.iter()
                .map(|(n, ts)| (Ctor::Sum(n.to_string()), ts.clone()))
                .collect(),
        ),
        Ty::Prim(syntax::ast::PrimType::Bool) => Some(vec![
            (Ctor::Bool(false), Vec::new()),
            (Ctor::Bool(true), Vec::new()),
        ]),
        _ => None,
    }
}

fn show_ctor(c: &Ctor, args: Vec<String>, ty: &Ty) -> String {
    match c {
        Ctor::Tuple(_) => match ty {
            Ty::Record(fs) => format!(
                "{{{}}}",
                fs.iter()
                    .zip(args)
                    .map(|((n, _), a)| format!("{n} = {a}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => format!("({})", args.join(", ")),
        },
        Ctor::Sum(n) => {
            let mut s = format!("#{n}");
            for a in args {
                s.push(' ');
                s.push_str(&a);
            }
            if s.contains(' ') { format!("({s})") } else { s }
        }
        Ctor::Bool(b) => b.to_string(),
        Ctor::Lit(l) => l.clone(),
    }
}

/// Specialises the rows of a matrix to a constructor of arity `n`.
fn specialise(rows: &[Vec<SPat>], c: &Ctor, n: usize) -> Vec<Vec<SPat>> {
    let mut out = Vec::new();
    for r in rows {
        match &r[0] {
            SPat::Wild => {
                let mut nr = vec![SPat::Wild; n];
                nr.extend_from_slice(&r[1..]);
                out.push(nr);
            }
            SPat::Con(d, args) if d == c => {
                let mut nr = args.clone();
                nr.resize(n, SPat::Wild);
                nr.extend_from_slice(&r[1..]);
                out.push(nr);
            }
            SPat::Con(..) => {}
        }
    }
    out
}

/// A value (as text) not matched by any row, if there is one. `budget` bounds the work
/// on pathological inputs.
fn missing(rows: &[Vec<SPat>], tys: &[Ty], budget: &mut u32) -> Option<Vec<String>> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if tys.is_empty() {
        return if rows.is_empty() {
            Some(Vec::new())
        } else {
            None
        };
    }
    let ty = &tys[0];
    let heads_used = rows.iter().any(|r| matches!(r[0], SPat::Con(..)));
    if heads_used && let Some(cs) = ctors(ty) {
        for (c, ftys) in cs {
            let spec = specialise(rows, &c, ftys.len());
            let mut ntys = ftys.clone();
            ntys.extend_from_slice(&tys[1..]);
            if let Some(mut w) = missing(&spec, &ntys, budget) {
                let rest = w.split_off(ftys.len());
                let mut out = vec![show_ctor(&c, w, ty)];
                out.extend(rest);
                return Some(out);
            }
        }
        return None;
    }
    let default: Vec<Vec<SPat>> = rows
        .iter()
        .filter(|r| r[0] == SPat::Wild)
        .map(|r| r[1..].to_vec())
        .collect();
    missing(&default, &tys[1..], budget).map(|w| {
        let mut out = vec!["_".to_string()];
        out.extend(w);
        out
    })
}

/// A value of type `ty` that none of the patterns match, if there is one.
pub fn unmatched(pats: &[SPat], ty: &Ty) -> Option<String> {
    let rows: Vec<Vec<SPat>> = pats.iter().map(|p| vec![p.clone()]).collect();
    let mut budget = 100_000;
    missing(&rows, std::slice::from_ref(ty), &mut budget).and_then(|w| w.into_iter().next())
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntax::ast::{Name, PrimType};

    fn sum() -> Ty {
        Ty::Sum(vec![
            (Name::from("a"), vec![Ty::Prim(PrimType::Bool)]),
            (Name::from("b"), vec![]),
        ])
    }

    fn con(n: &str, args: Vec<SPat>) -> SPat {
        SPat::Con(Ctor::Sum(n.into()), args)
    }

    #[test]
    fn missing_constructor_is_reported() {
        let pats = vec![con("a", vec![SPat::Wild])];
        assert_eq!(unmatched(&pats, &sum()).as_deref(), Some("#b"));
    }

    #[test]
    fn nested_bool_must_be_covered() {
        let t = SPat::Con(Ctor::Bool(true), vec![]);
        let pats = vec![con("a", vec![t]), con("b", vec![])];
        assert_eq!(unmatched(&pats, &sum()).as_deref(), Some("(#a false)"));
    }

    #[test]
    fn wildcard_covers_everything() {
        let pats = vec![con("b", vec![]), SPat::Wild];
        assert_eq!(unmatched(&pats, &sum()), None);
    }

    #[test]
    fn integer_literals_are_never_exhaustive() {
        let lit = |s: &str| SPat::Con(Ctor::Lit(s.into()), vec![]);
        let pats = vec![lit("0"), lit("1")];
        assert_eq!(
            unmatched(&pats, &Ty::Prim(PrimType::I32)).as_deref(),
            Some("_")
        );
    }
}
