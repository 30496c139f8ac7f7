//! Size inference for `loop` parameters.
//!
//! Inside a loop's body, each distinct size of the initial value (sizes known to be equal
//! share one) is a fresh size variable of its own (a *loop size*), which the body may fix
//! by using the parameter: `map2 (+) acc (replicate n 1)` makes it `n`, and so does an
//! `if` one of whose branches is the parameter and the other an array of size `n`
//! ([`Checker::join_loop_size`]). After the body, each size of the parameter is
//! classified by the body's result ([`Checker::loop_result`]): a size the body gives
//! back as it was (the parameter's own size, fixed to nothing or to the initial size) is
//! invariant; one the body changes is variant, and the loop's result has an unknown size
//! there, made after the loop. A size the parameter's pattern declares (`loop (acc:
//! [n]i32) = ...`) must be invariant: a body whose result has another size is an error.
//! Finally the loop sizes that are variant or that nothing fixed are made unknown
//! ([`Size::Any`]), so that no size argument inside the body names a size that changes
//! between iterations.

use crate::checker::Checker;
use crate::types::{Size, SizePoly, Ty, Uid, fresh_uid, make_array, size_has_var, size_poly};
use syntax::Diagnostic;
use syntax::ast::Span;

/// What makes two sizes of a loop's initial value the same size.
#[derive(Clone, Debug, PartialEq)]
enum SizeKey {
    Poly(SizePoly),
    Exist(Uid),
    Var(u32),
}

/// The loop sizes of one loop, made by [`Checker::fresh_loop_sizes`].
#[derive(Debug, Default)]
pub struct LoopSizes {
    /// The size variables standing for the parameter's sizes inside the body.
    pub vars: Vec<u32>,
    /// The first size variable made for this loop: variables from here on are local
    /// to the loop (its own and those its body made).
    first_var: u32,
    /// For each of `vars`, the size the parameter's pattern declares, if it does.
    declared: Vec<Option<Size>>,
    /// A uid drawn just before the body was checked: unknown sizes with a greater uid
    /// were made inside the body.
    body_start: Uid,
}

/// The symbolic value of a size that is fully known: no unknown size, no variable.
fn known(s: &Size) -> Option<SizePoly> {
    if size_has_var(s) { None } else { size_poly(s) }
}

/// Whether `s` mentions an unknown size made after `start`.
fn mentions_exist_after(s: &Size, start: Uid) -> bool {
    match s {
        Size::Exist(u) => *u > start,
        Size::Op(_, a, b) => mentions_exist_after(a, start) || mentions_exist_after(b, start),
        _ => false,
    }
}

/// Whether a body result size `body`, not the parameter's own, differs from the
/// initial size `init`: only sizes known symbolically count.
fn body_size_varies(body: &Size, init: &Size) -> bool {
    match body {
        Size::Any | Size::Var(_) | Size::Hidden(_) => false,
        _ => {
            let p = size_poly(body);
            p.is_none() || p != size_poly(init)
        }
    }
}

impl Checker<'_> {
    /// The type of a loop parameter inside the body: the initial value's type `t`
    /// (zonked) where each array size is a fresh loop size, shared by the sizes known
    /// to be equal. Returns the type and the loop sizes made.
    pub(crate) fn fresh_loop_sizes(&mut self, t: &Ty) -> (Ty, LoopSizes) {
        let first_var = self.u.sizes.len() as u32;
        let mut names: Vec<(Option<SizeKey>, u32)> = Vec::new();
        let t = self.name_sizes(t, &mut names);
        let vars: Vec<u32> = names.into_iter().map(|(_, v)| v).collect();
        self.loop_vars.extend(vars.iter().copied());
        let declared = vec![None; vars.len()];
        let ls = LoopSizes {
            vars,
            first_var,
            declared,
            body_start: 0,
        };
        (t, ls)
    }

    fn name_sizes(&mut self, t: &Ty, names: &mut Vec<(Option<SizeKey>, u32)>) -> Ty {
        match t {
            Ty::Array(e, dims) => {
                let dims = dims
                    .iter()
                    .map(|d| {
                        let key = match d {
                            Size::Exist(u) => Some(SizeKey::Exist(*u)),
                            Size::Var(v) => Some(SizeKey::Var(*v)),
                            d => size_poly(d).map(SizeKey::Poly),
                        };
                        let found = key
                            .as_ref()
                            .and_then(|k| names.iter().find(|(k2, _)| k2.as_ref() == Some(k)));
                        let v = match found {
                            Some((_, v)) => *v,
                            None => {
                                let Size::Var(v) = self.u.fresh_size() else {
                                    unreachable!("fresh_size makes a variable")
                                };
                                names.push((key, v));
                                v
                            }
                        };
                        Size::Var(v)
                    })
                    .collect();
                let e = self.name_sizes(e, names);
                make_array(e, dims)
            }
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| self.name_sizes(t, names)).collect()),
            Ty::Record(fs) => Ty::Record(
                fs.iter()
                    .map(|(n, t)| (n.clone(), self.name_sizes(t, names)))
                    .collect(),
            ),
            Ty::Sum(cs) => Ty::Sum(
                cs.iter()
                    .map(|(n, ts)| {
                        let ts = ts.iter().map(|t| self.name_sizes(t, names)).collect();
                        (n.clone(), ts)
                    })
                    .collect(),
            ),
            t => t.clone(),
        }
    }

    /// Records, once the parameter's pattern is checked, the sizes it declares (the loop
    /// sizes it fixed to a known size), and that the body starts now.
    pub(crate) fn loop_body_starts(&mut self, ls: &mut LoopSizes) {
        ls.declared = ls
            .vars
            .iter()
            .map(|v| {
                let s = self.u.size(&Size::Var(*v));
                known(&s).map(|_| s)
            })
            .collect();
        ls.body_start = fresh_uid();
    }

    /// The size of an `if` whose branches have sizes `a` and `b` (resolved), where one of
    /// them is a loop size that nothing fixed yet: the loop size becomes the other
    /// branch's size, as the parameter then has that size. `None` where neither is.
    pub(crate) fn join_loop_size(&mut self, a: &Size, b: &Size) -> Option<Size> {
        if a == b {
            return None;
        }
        let fixable = |s: &Size| matches!(s, Size::Var(_)) || known(s).is_some();
        match (a, b) {
            (Size::Var(x), _) if self.loop_vars.contains(x) && fixable(b) => {
                self.u.sizes[*x as usize] = Some(b.clone());
                Some(b.clone())
            }
            (_, Size::Var(y)) if self.loop_vars.contains(y) && fixable(a) => {
                self.u.sizes[*y as usize] = Some(a.clone());
                Some(a.clone())
            }
            _ => None,
        }
    }

    /// The type of a loop's result, from the parameter's type inside the body `par`
    /// (with the loop sizes of `ls`), the initial value's type `init` and the body's
    /// result type `body`: an unknown size made now where the body changes the size,
    /// the declared size where the pattern declares one, and [`Size::Any`] elsewhere.
    /// Reports a body that changes a declared size or fixes a loop size to an unknown
    /// size made inside it, then makes the loop sizes that are variant or that nothing
    /// fixed unknown.
    pub(crate) fn loop_result(
        &mut self,
        par: &Ty,
        ls: &LoopSizes,
        init: &Ty,
        body: &Ty,
        pat_span: Span,
        body_span: Span,
    ) -> Ty {
        let (init, body) = (self.u.zonk(init), self.u.zonk(body));
        for v in &ls.vars {
            let s = self.u.size(&Size::Var(*v));
            if mentions_exist_after(&s, ls.body_start) {
                self.report(
                    Diagnostic::error(
                        "S003",
                        "A size of the loop parameter is taken to be an unknown size made \
                         inside the loop body",
                        pat_span,
                        "this loop parameter",
                    )
                    .with_secondary(body_span, "the loop body")
                    .with_hint("coerce the value to the parameter's size with `:>`"),
                );
                break;
            }
        }
        let mut variant = Vec::new();
        let t = self.loop_result_ty(par, &init, &body, ls, &mut variant, body_span);
        for (k, v) in ls.vars.iter().enumerate() {
            let fixed = self.u.size(&Size::Var(*v));
            let forget = variant.contains(v) || matches!(fixed, Size::Var(_));
            if forget && ls.declared[k].is_none() {
                self.forget_loop_var(*v, ls.first_var);
            }
        }
        t
    }

    /// Makes loop size `v` unknown, with the variables local to the loop (from
    /// `first`) that it is bound to.
    fn forget_loop_var(&mut self, v: u32, first: u32) {
        let mut x = v;
        loop {
            let next = self.u.sizes[x as usize].clone();
            if x >= first {
                self.u.sizes[x as usize] = Some(Size::Any);
            }
            match next {
                Some(Size::Var(y)) if y != x => x = y,
                _ => break,
            }
        }
    }

    fn loop_result_ty(
        &mut self,
        par: &Ty,
        init: &Ty,
        body: &Ty,
        ls: &LoopSizes,
        variant: &mut Vec<u32>,
        body_span: Span,
    ) -> Ty {
        match (par, init, body) {
            (Ty::Array(pe, pd), Ty::Array(ie, id), Ty::Array(be, bd))
                if pd.len() == id.len() && pd.len() == bd.len() =>
            {
                let mut dims = Vec::new();
                for ((p, i), b) in pd.iter().zip(id).zip(bd) {
                    let d = match p {
                        Size::Var(v) if ls.vars.contains(v) => {
                            self.loop_dim(*v, i, b, ls, variant, body_span)
                        }
                        p => self.u.size(p),
                    };
                    dims.push(d);
                }
                let e = self.loop_result_ty(pe, ie, be, ls, variant, body_span);
                make_array(e, dims)
            }
            (Ty::Tuple(ps), Ty::Tuple(is), Ty::Tuple(bs))
                if ps.len() == is.len() && ps.len() == bs.len() =>
            {
                let mut out = Vec::new();
                for ((p, i), b) in ps.iter().zip(is).zip(bs) {
                    out.push(self.loop_result_ty(p, i, b, ls, variant, body_span));
                }
                Ty::Tuple(out)
            }
            (Ty::Record(ps), Ty::Record(is), Ty::Record(bs))
                if ps.len() == is.len()
                    && ps.len() == bs.len()
                    && ps
                        .iter()
                        .zip(is)
                        .zip(bs)
                        .all(|((p, i), b)| p.0 == i.0 && p.0 == b.0) =>
            {
                let mut out = Vec::new();
                for ((p, i), b) in ps.iter().zip(is).zip(bs) {
                    let t = self.loop_result_ty(&p.1, &i.1, &b.1, ls, variant, body_span);
                    out.push((p.0.clone(), t));
                }
                Ty::Record(out)
            }
            (p, _, _) => {
                // Sums and shapes the body does not match: every loop size is unknown.
                for v in &ls.vars {
                    if !variant.contains(v) {
                        variant.push(*v);
                    }
                }
                crate::types::map_sizes(p, &mut |s| match s {
                    Size::Var(v) if ls.vars.contains(v) => Size::Any,
                    s => s.clone(),
                })
            }
        }
    }

    /// One size of a loop's result where the parameter has loop size `v`, the initial
    /// value size `init` and the body's result size `body` (both resolved).
    fn loop_dim(
        &mut self,
        v: u32,
        init: &Size,
        body: &Size,
        ls: &LoopSizes,
        variant: &mut Vec<u32>,
        body_span: Span,
    ) -> Size {
        let k = ls.vars.iter().position(|x| *x == v).unwrap_or(0);
        let fixed = self.u.size(&Size::Var(v));
        if let Some(d) = &ls.declared[k] {
            let changed = match (known(d), known(body)) {
                (Some(x), Some(y)) => x != y,
                _ => matches!(body, Size::Exist(_)),
            };
            if changed {
                self.report(
                    Diagnostic::error(
                        "S003",
                        format!(
                            "The loop body's result has size `{body}` where the loop \
                             parameter is declared of size `{d}`"
                        ),
                        body_span,
                        format!("this has size `{body}`"),
                    )
                    .with_hint(
                        "declare the parameter's size `[]` if the loop changes it, or \
                         coerce the body's result with `:>`",
                    ),
                );
            }
            return d.clone();
        }
        let varies = if *body == fixed {
            // The body gives back the parameter's own size: it changes only if the body
            // fixed that size to one other than the initial size.
            match (known(&fixed), known(init)) {
                (Some(x), Some(y)) => x != y,
                _ => false,
            }
        } else {
            body_size_varies(body, init)
        };
        if varies {
            if !variant.contains(&v) {
                variant.push(v);
            }
            Size::Exist(fresh_uid())
        } else {
            Size::Any
        }
    }
}
