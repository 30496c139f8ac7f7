//! Listing the files a source file imports.

use crate::ast::*;

/// Every import path in the file with the span of its `import` (declaration-level
/// `import "x"`, `open import "x"`, `module m = import "x"`, and imports nested in
/// module expressions and structures), in source order.
pub fn imports(file: &File) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    for d in &file.decs {
        dec(d, &mut out);
    }
    out
}

fn dec(d: &Dec, out: &mut Vec<(String, Span)>) {
    match &d.kind {
        DecKind::Import(p, sp) => out.push((p.clone(), *sp)),
        DecKind::Open(m) => mod_exp(m, out),
        DecKind::Mod(b) => mod_exp(&b.body, out),
        DecKind::Local(d) => dec(d, out),
        DecKind::Val(_) | DecKind::Type(_) | DecKind::Sig(_) => {}
    }
}

fn mod_exp(m: &ModExp, out: &mut Vec<(String, Span)>) {
    match &m.kind {
        ModExpKind::Import(p) => out.push((p.clone(), m.span)),
        ModExpKind::Var(_) => {}
        ModExpKind::Parens(m) | ModExpKind::Ascribe(m, _) | ModExpKind::Lambda(_, _, m) => {
            mod_exp(m, out)
        }
        ModExpKind::Struct(ds) => {
            for d in ds {
                dec(d, out);
            }
        }
        ModExpKind::Apply(a, b) => {
            mod_exp(a, out);
            mod_exp(b, out);
        }
    }
}
