//! Type inference for expressions, with alias tracking for uniqueness checking.

use crate::checker::{Al, Checker, GLOBAL, Local, ValRef, with_suggestion};
use crate::pattern::PatBind;
use crate::typeexp::AnonSize;
use crate::types::{Arrow, Size, SubstTarget, Ty, Uid, fresh_uid, make_array, subst_ty};
use crate::unify::{Cons, mask_all, mask_integral, mask_numeric, prim_bit};
use std::collections::HashMap;
use syntax::Diagnostic;
use syntax::ast::{
    DimIndex, Expr, ExprKind, Ident, LoopForm, Name, Pat, PatKind, PathStep, PrimType, QualName,
    RecordField, Span,
};

/// The function being applied, as far as diagnostics name it.
#[derive(Clone, Debug, Default)]
pub struct Callee {
    /// The name as written (`f`, `M.f`, `+`).
    pub name: Option<String>,
    /// Where the function is defined, when it is a value of this checker's scope.
    pub def: Option<Span>,
    /// Whether it is applied as an infix operator.
    pub is_op: bool,
}

/// An unsuffixed numeric literal: what kind it is and its text.
fn overloaded_literal(e: &Expr) -> Option<(&'static str, String, Option<f64>)> {
    match &e.kind {
        ExprKind::Parens(x) => overloaded_literal(x),
        ExprKind::Neg(x) => {
            overloaded_literal(x).map(|(k, t, v)| (k, format!("-{t}"), v.map(|v| -v)))
        }
        ExprKind::Literal(syntax::ast::Literal::Float { value, ty: None }) => {
            Some(("decimal literal", format!("{value:?}"), Some(*value)))
        }
        ExprKind::Literal(syntax::ast::Literal::Int { value, ty: None }) => {
            Some(("integer literal", value.to_string(), None))
        }
        _ => None,
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
/// An expression's text for a message: on one line, shortened when long.
fn short_expr(e: &Expr) -> String {
    const MAX: usize = 40;
    let text = syntax::pretty::pretty_expr(e);
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() > MAX {
        let cut: String = line.chars().take(MAX - 3).collect();
        format!("{cut}...")
    } else {
        line
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// A pattern match to check for exhaustiveness once types are resolved.
#[derive(Clone, Debug)]
pub struct PendingMatch {
    pub pats: Vec<Pat>,
    pub ty: Ty,
    pub span: Span,
    /// `true` for a `let` pattern (refutable pattern), `false` for `match`.
    pub is_let: bool,
}

fn arrow(param: Ty, ret: Ty) -> Ty {
    Ty::Arrow(Box::new(Arrow {
        pname: None,
        param,
        ret,
        consume: false,
        ret_unique: false,
        consume_parts: Vec::new(),
        ret_parts: Vec::new(),
    }))
}

impl Checker<'_> {
    /// The type of a builtin overloaded operator, if `name` is one.
    pub fn builtin_op(&mut self, name: &str, span: Span) -> Option<Ty> {
        let class = |c: &mut Self, mask| {
            let t = c.u.fresh_prims(mask, None);
            if let Ty::Var(v) = t {
                c.overloads.push((v, span));
            }
            t
        };
        let t = match name {
            "+" | "-" | "*" | "/" | "%" | "**" => {
                let t = class(self, mask_numeric());
                arrow(t.clone(), arrow(t.clone(), t))
            }
            // Quotient and remainder rounding towards zero exist for integers only.
            "//" | "%%" | "&" | "|" | "^" | "<<" | ">>" | ">>>" => {
                let t = class(self, mask_integral());
                arrow(t.clone(), arrow(t.clone(), t))
            }
            "==" | "!=" => {
                let t = self.u.fresh_eq();
                self.eq_uses.push((t.clone(), span));
                arrow(t.clone(), arrow(t, Ty::Prim(PrimType::Bool)))
            }
            "<" | "<=" | ">" | ">=" => {
                let t = class(self, mask_all());
                arrow(t.clone(), arrow(t, Ty::Prim(PrimType::Bool)))
            }
            "&&" | "||" => {
                let b = Ty::Prim(PrimType::Bool);
                arrow(b.clone(), arrow(b.clone(), b))
            }
            _ => return None,
        };
        Some(t)
    }

    /// The type and aliases of an operator name (user-defined or builtin).
    fn op_type(&mut self, qn: &QualName) -> (Ty, Al) {
        if qn.quals.is_empty()
            && self.lookup_val(&qn.name.name).is_none()
            && let Some(t) = self.builtin_op(&qn.name.name, qn.name.span)
        {
            return (t, Al::none());
        }
        self.infer_var(qn, qn.span())
    }

    /// Requires a type not to be functional (results of `if`, `match`, `loop`).
    pub fn require_no_fun(&mut self, t: &Ty, span: Span, what: &str) {
        let v = self.u.fresh_with(Cons::None, true);
        if self.u.unify(&v, t).is_err() {
            self.report(
                Diagnostic::error(
                    "T007",
                    format!(
                        "{what} may not be a function, but has type `{}`",
                        self.show(t)
                    ),
                    span,
                    "this is a function",
                )
                .with_hint("apply the function in each branch instead"),
            );
        }
    }

    /// Marks the values in `al` as consumed at `span`, checking they may be consumed.
    pub fn consume(&mut self, al: &Al, span: Span) {
        for uid in al.all() {
            if uid == GLOBAL {
                self.report(
                    Diagnostic::error(
                        "U002",
                        "Consuming a value defined at the top level, which is not consumable",
                        span,
                        "this value may not be consumed",
                    )
                    .with_hint("consume a copy instead: `copy x`"),
                );
                continue;
            }
            if uid == crate::checker::UNKNOWN_FUN {
                self.report(
                    Diagnostic::error(
                        "U002",
                        "Consuming a value returned by a function-typed parameter, which is not \
                         consumable: it may alias anything",
                        span,
                        "consumed here",
                    )
                    .with_hint("consume a copy instead: `copy x`"),
                );
                continue;
            }
            let local = self.scope.iter().rev().find_map(|f| match f {
                crate::checker::Frame::Local(n, l) if l.uid == uid => Some((n.clone(), l.clone())),
                _ => None,
            });
            if let Some((name, l)) = local {
                if !l.consumable {
                    self.report(
                        Diagnostic::error(
                            "U002",
                            format!(
                                "Consuming \"{name}\", which is not consumable: it is non-unique"
                            ),
                            span,
                            format!("`{name}` is consumed here"),
                        )
                        .with_secondary(
                            l.span,
                            format!("bound here with the non-unique type `{}`", self.show(&l.ty)),
                        )
                        .with_hint(format!(
                            "if it is a parameter, mark its type unique (`*{}`) so that callers hand the value over; otherwise consume a copy (`copy {name}`)",
                            self.show(&l.ty)
                        )),
                    );
                    continue;
                }
                if l.depth < self.depth {
                    self.report(
                        Diagnostic::error(
                            "U002",
                            format!("Consuming \"{name}\", which is not consumable: it is bound outside this function or loop"),
                            span,
                            format!("`{name}` is consumed here"),
                        )
                        .with_secondary(l.span, "bound here"),
                    );
                    continue;
                }
            }
            self.consumed.entry(uid).or_insert(span);
            self.consume_log.push(uid);
        }
    }

    /// The rest of an in-place update of `target` (of type `tt`, aliases `tal`)
    /// whose updated part has type `focus`: `value` must have that type and may
    /// not share storage with the target, which is consumed. The result has the
    /// target's type and aliases nothing.
    fn in_place_update(
        &mut self,
        target: &Expr,
        tt: Ty,
        tal: Al,
        focus: &Ty,
        value: &Expr,
    ) -> (Ty, Al) {
        let (vt, val) = self.infer(value);
        self.unify_because(focus, &vt, value.span, None);
        let tname = match &target.kind {
            ExprKind::Var(qn) => qn.name.name.clone(),
            _ => Name::from("the target"),
        };
        self.check_update_source(&tal, &vt, &val, &tname, value.span);
        self.consume(&tal, target.span);
        (tt, Al::none())
    }

    /// The value written by an in-place update may not share storage with the array
    /// being updated (`a with [i] = a[0]` for a row `a[0]`).
    ///
    /// A value whose type is still an inference variable (a scalar read from an array
    /// whose element type is not known yet, as in a lambda checked before the arrays
    /// it is mapped over) is decided at the end of the definition, when its type is.
    fn check_update_source(&mut self, tal: &Al, vt: &Ty, val: &Al, target: &str, span: Span) {
        if !self.may_alias(vt) {
            return;
        }
        let targets = tal.all();
        if val
            .all()
            .iter()
            .any(|u| *u != GLOBAL && targets.contains(u))
        {
            if matches!(self.u.shallow(vt), Ty::Var(_)) {
                self.update_sources
                    .push((vt.clone(), target.to_string(), span));
            } else {
                self.report_update_source(target, span);
            }
        }
    }

    /// Reports that the value of an in-place update of `target` shares its storage.
    pub fn report_update_source(&mut self, target: &str, span: Span) {
        self.report(
            Diagnostic::error(
                "U002",
                format!(
                    "The source of an in-place update of \"{target}\" aliases \"{target}\", \
                     which the update consumes"
                ),
                span,
                "this value shares storage with the array being updated",
            )
            .with_hint("write a copy instead: `copy (...)`"),
        );
    }

    /// Checks a use of a local against consumption.
    fn check_use(&mut self, name: &str, l: &Local, span: Span) {
        let check: Vec<Uid> =
            if self.may_alias(&l.ty) || matches!(self.u.shallow(&l.ty), Ty::Arrow(_)) {
                l.aliases.clone()
            } else {
                vec![l.uid]
            };
        for a in &check {
            self.use_log.push((*a, Name::from(name), span));
        }
        for a in check {
            if let Some(at) = self.consumed.get(&a).copied() {
                let is_fun = matches!(self.u.shallow(&l.ty), Ty::Arrow(_));
                let read = if is_fun && a != l.uid {
                    self.scope.iter().rev().find_map(|f| match f {
                        crate::checker::Frame::Local(n, x) if x.uid == a => Some(n.clone()),
                        _ => None,
                    })
                } else {
                    None
                };
                let msg = match read {
                    Some(x) => format!(
                        "Using \"{name}\", which reads \"{x}\", but it was consumed \
                         (Variable `{x}` previously consumed)"
                    ),
                    None => format!(
                        "Using \"{name}\", but it was consumed (Variable `{name}` previously \
                         consumed)"
                    ),
                };
                self.report(
                    Diagnostic::error("U001", msg, span, "used here")
                        .with_secondary(at, "consumed here")
                        .with_hint(format!("use a copy (`copy {name}`) where it is consumed")),
                );
                return;
            }
        }
    }

    /// Binds the names of a pattern as locals, with aliases following the pattern.
    pub fn bind_pat(
        &mut self,
        p: &Pat,
        binds: Vec<PatBind>,
        al: &Al,
        consumable: bool,
    ) -> Vec<Uid> {
        let mut als = Vec::new();
        pat_aliases(p, al, &mut als);
        let mut uids = Vec::new();
        for (i, b) in binds.into_iter().enumerate() {
            let uid = fresh_uid();
            let mut aliases = vec![uid];
            // A function value holds what it reads (a lambda's free variables, a
            // partial application's arguments).
            if self.may_alias(&b.ty) || matches!(self.u.shallow(&b.ty), Ty::Arrow(_)) {
                for a in als.get(i).cloned().unwrap_or_else(|| al.all()) {
                    if !aliases.contains(&a) {
                        aliases.push(a);
                    }
                }
            }
            uids.push(uid);
            self.push_local(
                b.ident.name.clone(),
                Local {
                    uid,
                    ty: b.ty,
                    scheme: None,
                    aliases,
                    consumable: consumable || b.unique,
                    parts: None,
                    depth: self.depth,
                    span: b.ident.span,
                },
            );
        }
        uids
    }

    /// Infers the type of a (possibly qualified) name, resolving module qualification
    /// first and record projection after: values and modules have namespaces of their
    /// own, so in `i32.highest` a value named `i32` does not hide the module `i32`,
    /// but a value's field is found when the module has no such member.
    pub fn infer_var(&mut self, qn: &QualName, span: Span) -> (Ty, Al) {
        if qn.quals.is_empty()
            && qn.name.name.starts_with('_')
            && self.lookup_local(&qn.name.name).is_some()
        {
            self.report(
                Diagnostic::error(
                    "T015",
                    format!(
                        "Using \"{}\": variables prefixed with an underscore may not be used",
                        qn.name.name
                    ),
                    qn.name.span,
                    "used here",
                )
                .with_hint("remove the underscore where the variable is bound"),
            );
        }
        let mut comps: Vec<&Ident> = qn.quals.iter().collect();
        comps.push(&qn.name);
        let mut i = 0;
        let val = if comps.len() > 1 && self.lookup_mod(&comps[0].name).is_some() {
            let Some(mut env) = self.resolve_quals(&qn.quals[..1]) else {
                return (Ty::Error, Al::none());
            };
            i = 1;
            while i + 1 < comps.len() {
                let Some(m) = env.mods.get(&comps[i].name).cloned() else {
                    break;
                };
                let Some(e) = self.mod_env(&m, comps[i]) else {
                    return (Ty::Error, Al::none());
                };
                env = e;
                i += 1;
            }
            let member = env.vals.get(&comps[i].name).cloned();
            // Not a member of the module: a field of a value of that name.
            let value = match member {
                Some(_) => None,
                None => self.lookup_val(&comps[0].name),
            };
            match (member, value) {
                (Some(v), _) => ValRef::Global(v),
                (None, Some(v)) => {
                    i = 0;
                    v
                }
                (None, None) => {
                    let cands: Vec<Name> = env.vals.keys().cloned().collect();
                    let path: Vec<&str> = comps[..=i].iter().map(|c| &*c.name).collect();
                    let d = Diagnostic::error(
                        "T001",
                        format!("Unknown name \"{}\"", path.join(".")),
                        comps[0].span.to(comps[i].span),
                        "not defined in this module",
                    );
                    let d = with_suggestion(d, &comps[i].name, &cands);
                    self.report(d);
                    return (Ty::Error, Al::none());
                }
            }
        } else {
            match self.lookup_val(&comps[0].name) {
                Some(v) => v,
                None => {
                    let name = &comps[0].name;
                    if &**name == "__intrinsic" {
                        self.report(Diagnostic::error(
                            "T012",
                            "`__intrinsic` may only be the whole body of a prelude definition",
                            comps[0].span,
                            "not allowed here",
                        ));
                        return (Ty::Error, Al::none());
                    }
                    let cands = self.value_names();
                    let d = if comps.len() > 1 {
                        Diagnostic::error(
                            "T001",
                            format!("Unknown name \"{name}\" (neither a module nor a variable)"),
                            comps[0].span,
                            "not defined",
                        )
                    } else {
                        Diagnostic::error(
                            "T001",
                            format!("Unknown name \"{name}\""),
                            comps[0].span,
                            "not defined",
                        )
                    };
                    let mut d = with_suggestion(d, name, &cands);
                    if self.defining.as_ref() == Some(name) {
                        d = d.with_hint(format!(
                            "a recursive function needs a return type annotation: \
                             `def {name} ... : t = ...`"
                        ));
                    }
                    self.report(d);
                    return (Ty::Error, Al::none());
                }
            }
        };
        let (mut ty, mut al) = match val {
            ValRef::Local(l) => {
                self.check_use(&comps[i].name, &l, comps[i].span);
                let ty = match &l.scheme {
                    Some(s) => self.instantiate(s),
                    None => l.ty.clone(),
                };
                let al = if self.may_alias(&ty) {
                    match &l.parts {
                        Some(parts) => Al {
                            set: vec![l.uid],
                            parts: Some(parts.clone()),
                        },
                        None => Al::of(l.aliases.clone()),
                    }
                } else if l.scheme.is_none() && matches!(self.u.shallow(&ty), Ty::Arrow(_)) {
                    // What an unknown function returns may alias anything.
                    Al::of(vec![crate::checker::UNKNOWN_FUN])
                } else {
                    Al::none()
                };
                (ty, al)
            }
            ValRef::Global(v) => {
                let ty = self.instantiate(&v.scheme);
                // A definition with size or type parameters and no value parameters
                // (`def iiota [n] : [n]i64 = iota n`) is evaluated at each use.
                let sized = v
                    .scheme
                    .params
                    .iter()
                    .any(|p| matches!(p, crate::types::TParam::Size(..)));
                let al = if self.may_alias(&ty) && !sized {
                    Al::of(vec![GLOBAL])
                } else {
                    Al::none()
                };
                (ty, al)
            }
        };
        for f in &comps[i + 1..] {
            ty = self.project(&ty, f, span);
            al = if self.may_alias(&ty) {
                al_project(al, f)
            } else {
                Al::none()
            };
        }
        (ty, al)
    }

    /// The type of field `f` of a value of type `ty`.
    pub fn project(&mut self, ty: &Ty, f: &Ident, span: Span) -> Ty {
        match self.u.shallow(ty) {
            Ty::Record(fs) => match fs.iter().find(|(n, _)| *n == f.name) {
                Some((_, t)) => t.clone(),
                None => {
                    let cands: Vec<Name> = fs.iter().map(|(n, _)| n.clone()).collect();
                    let d = Diagnostic::error(
                        "T004",
                        format!("record type `{}` has no field `{}`", self.show(ty), f.name),
                        f.span,
                        "unknown field",
                    );
                    let d = with_suggestion(d, &f.name, &cands);
                    self.report(d);
                    Ty::Error
                }
            },
            Ty::Tuple(ts) if !ts.is_empty() => {
                match f.name.parse::<usize>().ok().and_then(|i| ts.get(i)) {
                    Some(t) => t.clone(),
                    None => {
                        self.report(Diagnostic::error(
                            "T004",
                            format!(
                                "tuple type `{}` has no component `{}`",
                                self.show(ty),
                                f.name
                            ),
                            f.span,
                            format!("components are numbered 0 to {}", ts.len() - 1),
                        ));
                        Ty::Error
                    }
                }
            }
            Ty::Var(_) => {
                let r = self.u.fresh();
                let v = self
                    .u
                    .fresh_with(Cons::Fields(vec![(f.name.clone(), r.clone())]), false);
                if let Ty::Var(x) = v {
                    self.open_records.push((x, span));
                }
                self.unify_at(&v, ty, span);
                r
            }
            Ty::Error => Ty::Error,
            t => {
                self.report(Diagnostic::error(
                    "T004",
                    format!(
                        "projection of field `{}` from a value of type `{}`, which is not a record",
                        f.name,
                        self.show(&t)
                    ),
                    f.span,
                    "not a record or tuple",
                ));
                Ty::Error
            }
        }
    }

    /// Names the function of an application for diagnostics.
    pub fn callee_of_name(&self, qn: &QualName) -> Callee {
        let def = if qn.quals.is_empty() {
            match self.lookup_val(&qn.name.name) {
                Some(ValRef::Local(l)) => Some(l.span),
                Some(ValRef::Global(v)) => Some(v.span),
                None => None,
            }
        } else {
            None
        };
        let name = crate::typeexp::qn_string(qn);
        let is_op = !name.starts_with(|c: char| c.is_alphanumeric() || c == '_');
        Callee {
            name: Some(name),
            def,
            is_op,
        }
    }

    /// The type an overloaded literal's type variable defaults to, if it has one.
    fn literal_default(&self, v: u32) -> Option<PrimType> {
        match self.u.info(v).map(|i| &i.cons) {
            Some(crate::unify::Cons::Prims { default, .. }) => *default,
            _ => None,
        }
    }

    /// Displays a type, showing the type variable of an unsuffixed literal as the type
    /// it defaults to (`1` as `i32`).
    fn show_literal(&self, t: &Ty) -> String {
        match self.u.zonk(t) {
            Ty::Var(v) => match self.literal_default(v) {
                Some(p) => Ty::Prim(p).to_string(),
                None => self.show(t),
            },
            _ => self.show(t),
        }
    }

    /// A type, or the class an overloaded type variable is constrained to, as the
    /// object of "of": "of type `i32`", "of a floating-point type".
    fn of_type(&self, t: &Ty, mask: Option<crate::unify::PrimMask>) -> String {
        match (self.u.zonk(t), mask) {
            (Ty::Var(v), _) if self.literal_default(v).is_some() => {
                format!("of type `{}`", self.show_literal(t))
            }
            (Ty::Var(_), Some(m)) => format!("of {}", crate::unify::describe_mask(m)),
            (t, _) => format!("of type `{t}`"),
        }
    }

    /// The diagnostic for an argument whose type does not fit its parameter. `cause` is
    /// an earlier argument (and its type) that fixed the parameter type.
    #[allow(clippy::too_many_arguments)]
    fn arg_mismatch(
        &self,
        err: &crate::unify::UErr,
        arg: &Expr,
        param: &Ty,
        aty: &Ty,
        fspan: Span,
        callee: &Callee,
        i: usize,
        cause: Option<(Span, Ty)>,
    ) -> Diagnostic {
        let mut d = self.arg_mismatch_detail(err, arg, param, aty, fspan, callee, i, cause);
        if let Some(n) = &callee.name {
            d.message = format!(
                "Cannot apply \"{n}\" to \"{}\": {}",
                short_expr(arg),
                d.message
            );
        }
        d
    }

    /// [`Checker::arg_mismatch`] without the leading `Cannot apply` phrase.
    #[allow(clippy::too_many_arguments)]
    fn arg_mismatch_detail(
        &self,
        err: &crate::unify::UErr,
        arg: &Expr,
        param: &Ty,
        aty: &Ty,
        fspan: Span,
        callee: &Callee,
        i: usize,
        cause: Option<(Span, Ty)>,
    ) -> Diagnostic {
        use crate::unify::UErr;
        let what = match &callee.name {
            Some(n) => format!("\"{n}\""),
            None => "the function".to_string(),
        };
        let nth = ordinal(i + 1);
        let cause_label = |t: &Ty| {
            if callee.is_op {
                format!(
                    "this operand has type `{}`, so both operands of {what} must have it",
                    self.show(t)
                )
            } else {
                format!(
                    "this argument has type `{}`, which fixes the type of the {nth} argument of {what}",
                    self.show_literal(t)
                )
            }
        };
        let explain = |d: Diagnostic, expected: &str| match (&cause, callee.def) {
            (Some((sp, t)), _) => d.with_secondary(*sp, cause_label(t)),
            (None, Some(def)) if def.file == fspan.file => d.with_secondary(
                def,
                format!("{what} is defined here; its {nth} parameter is {expected}"),
            ),
            _ => d.with_secondary(fspan, format!("{what} expects an argument {expected}")),
        };
        let mask = match err {
            UErr::NotIn(_, m) => Some(*m),
            _ => None,
        };
        match err {
            UErr::Mismatch(..) | UErr::NotIn(..) => {
                let expected = self.of_type(param, mask);
                if let Some((kind, text, value)) = overloaded_literal(arg) {
                    let target = self.show(param);
                    let class = if kind == "decimal literal" {
                        "a floating-point type (`f16`, `f32` or `f64`)"
                    } else {
                        "a numeric type"
                    };
                    let mut d = Diagnostic::error(
                        "T002",
                        format!("type mismatch: the {kind} `{text}` cannot have type `{target}`"),
                        arg.span,
                        format!(
                            "{} {kind} has {class}",
                            if kind.starts_with('i') { "an" } else { "a" }
                        ),
                    );
                    d = explain(d, &expected);
                    let int_target = matches!(
                        self.u.zonk(param),
                        Ty::Prim(p) if p.is_integral()
                    );
                    if let (Some(v), true) = (value, int_target) {
                        d = d.with_hint(format!(
                            "to compute in floating point, convert the `{target}` value with \
                             `f32.{target}` or `f64.{target}`; to stay with `{target}`, write \
                             an integer literal (`{text}` → `{}`)",
                            v.trunc() as i64
                        ));
                    }
                    return d;
                }
                let found = self.of_type(aty, mask);
                let (expected, found) = match (self.u.zonk(param), self.u.zonk(aty)) {
                    (Ty::Var(_), _) | (_, Ty::Var(_)) => (expected, found),
                    (p, a) => {
                        let (p, a) = self.show_two(&p, &a);
                        (format!("of type `{p}`"), format!("of type `{a}`"))
                    }
                };
                let unshared = match err {
                    UErr::Mismatch(a, b) => {
                        crate::checker::unshared_constructors(&self.u.zonk(a), &self.u.zonk(b))
                    }
                    _ => String::new(),
                };
                let mut d = Diagnostic::error(
                    "T002",
                    format!("Argument {found} passed for parameter {expected}{unshared}"),
                    arg.span,
                    format!("the {nth} argument of {what} is {found}"),
                );
                if let UErr::Mismatch(a, b) = err {
                    let (a, b) = (self.show(a), self.show(b));
                    let (e, f) = (self.show(param), self.show(aty));
                    if a != e || b != f {
                        d = d.with_hint(format!("`{a}` and `{b}` differ"));
                    }
                }
                explain(d, &expected)
            }
            UErr::Size(..) => {
                let mut d = self.unify_diag(err, arg.span, param, aty);
                d.primary.message = format!("this argument has type `{}`", self.show(aty));
                let d = match &cause {
                    Some((sp, t)) => d.with_secondary(
                        *sp,
                        format!(
                            "this argument has type `{}`, which fixes the size of the {nth} argument of {what}",
                            self.show(t)
                        ),
                    ),
                    None => explain(d, &format!("of type `{}`", self.show(param))),
                };
                d.with_hint(
                    "the sizes are known to differ: make them equal, e.g. by slicing the longer array (`xs[:n]`)",
                )
            }
            _ => {
                let d = self.unify_diag(err, arg.span, param, aty);
                let expected = format!("of type `{}`", self.show(param));
                explain(d, &expected)
            }
        }
    }

    /// Applies a function of type `fty` to arguments. `callee` names the function
    /// (and where it is defined) for diagnostics.
    pub fn apply(
        &mut self,
        fty: Ty,
        fal: Al,
        fspan: Span,
        callee: &Callee,
        args: &[&Expr],
    ) -> (Ty, Al) {
        // The type and size variables of each parameter before any argument is seen:
        // an argument that fails may have been constrained by an earlier one sharing
        // them.
        let mut param_vars: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
        let mut walk = self.u.zonk(&fty);
        while let Ty::Arrow(a) = walk {
            let (mut vs, mut ss) = (Vec::new(), Vec::new());
            crate::decls::collect_vars(&a.param, &mut vs, &mut ss);
            param_vars.push((vs, ss));
            walk = a.ret;
        }
        let mut seen: Vec<(Span, Ty)> = Vec::new();
        let mut arg_als: Vec<Al> = Vec::new();
        let mut fun_al = Al::none();
        let mut cur = fty;
        let mut al = fal;
        let mut ret_unique = false;
        let mut ret_parts: Vec<bool> = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            let a = match self.u.shallow(&cur) {
                Ty::Arrow(a) => *a,
                Ty::Var(_) => {
                    let p = self.u.fresh();
                    let r = self.u.fresh();
                    let ar = Arrow {
                        pname: None,
                        param: p,
                        ret: r,
                        consume: false,
                        ret_unique: false,
                        consume_parts: Vec::new(),
                        ret_parts: Vec::new(),
                    };
                    self.unify_at(&Ty::Arrow(Box::new(ar.clone())), &cur, fspan);
                    ar
                }
                Ty::Error => {
                    for a in &args[i..] {
                        self.infer(a);
                    }
                    return (Ty::Error, Al::none());
                }
                t => {
                    let what = match &callee.name {
                        Some(n) => format!("\"{n}\""),
                        None => "this expression".to_string(),
                    };
                    let mut d = if i == 0 {
                        Diagnostic::error(
                            "T003",
                            format!(
                                "Cannot apply {what}: it has type `{}`, which is not a function",
                                self.show(&t)
                            ),
                            fspan,
                            "not a function",
                        )
                        .with_secondary(arg.span, "applied to this argument")
                    } else {
                        Diagnostic::error(
                            "T003",
                            format!(
                                "Cannot apply {what} to {} arguments: it takes {i}",
                                args.len()
                            ),
                            arg.span,
                            format!(
                                "one argument too many: the result after {i} argument{} has type `{}`, which is not a function",
                                if i == 1 { "" } else { "s" },
                                self.show(&t)
                            ),
                        )
                        .with_secondary(fspan, format!("{what} is applied here"))
                        .with_hint("remove the extra arguments, or add parentheses if an argument is itself an application (`f (g x)`)")
                    };
                    if let Some(def) = callee.def.filter(|s| s.file == fspan.file) {
                        d = d.with_secondary(def, format!("{what} is defined here"));
                    }
                    self.report(d);
                    for a in &args[i..] {
                        self.infer(a);
                    }
                    return (Ty::Error, Al::none());
                }
            };
            let log_start = self.consume_log.len();
            let (aty, aal) = self.infer(arg);
            self.check_fun_consumption(&aty, log_start, arg.span, "An argument");
            if let Err(e) = self.u.unify(&a.param, &aty) {
                let cause = param_vars.get(i).and_then(|(vs, ss)| {
                    (0..i).find(|j| {
                        param_vars[*j].0.iter().any(|v| vs.contains(v))
                            || param_vars[*j].1.iter().any(|v| ss.contains(v))
                    })
                });
                let cause = cause.and_then(|j| seen.get(j).cloned());
                let d = self.arg_mismatch(&e, arg, &a.param, &aty, fspan, callee, i, cause);
                // Later arguments are checked against an erroneous parameter type
                // rather than failing again for the same reason.
                let _ = self.u.unify(&a.param, &Ty::Error);
                self.report(d);
            } else {
                self.check_consuming_fun_arg(&aty, &a.param, arg.span);
            }
            seen.push((arg.span, aty.clone()));
            if a.consume || a.consume_parts.iter().any(|c| *c) {
                self.check_consumed_arg(&aal, &arg_als, arg.span);
            }
            arg_als.push(aal.clone());
            if a.consume {
                self.consume(&aal, arg.span);
            } else if !a.consume_parts.is_empty() {
                match &aal.parts {
                    Some(ps) if ps.len() == a.consume_parts.len() => {
                        for (p, c) in ps.iter().zip(&a.consume_parts) {
                            if *c {
                                self.consume(p, arg.span);
                            } else {
                                al.join(p);
                            }
                        }
                    }
                    _ => self.consume(&aal, arg.span),
                }
            } else if matches!(self.u.shallow(&aty), Ty::Arrow(_)) {
                fun_al.join(&aal);
            } else {
                al.join(&aal);
            }
            cur = match &a.pname {
                Some((uid, _)) => {
                    let s = self.size_of_arg(arg);
                    let mut sub = HashMap::new();
                    sub.insert(*uid, SubstTarget::Size(s));
                    subst_ty(&a.ret, &sub)
                }
                None => a.ret.clone(),
            };
            ret_unique = a.ret_unique;
            ret_parts = a.ret_parts;
        }
        // A partial application holds its arguments, functions included.
        let partial = matches!(self.u.shallow(&cur), Ty::Arrow(_));
        if partial {
            al.join(&fun_al);
        } else if ret_unique || !self.may_alias(&cur) {
            al = Al::none();
        } else if ret_parts.iter().any(|u| *u)
            && matches!(self.u.shallow(&cur), Ty::Tuple(ts) if ts.len() == ret_parts.len())
        {
            let shared = al.all();
            al = Al {
                set: Vec::new(),
                parts: Some(
                    ret_parts
                        .iter()
                        .map(|u| {
                            if *u {
                                Al::none()
                            } else {
                                Al::of(shared.clone())
                            }
                        })
                        .collect(),
                ),
            };
        }
        if !matches!(cur, Ty::Arrow(_)) {
            cur = crate::types::fresh_exists(&cur);
        }
        (cur, al)
    }

    /// A section is a function whose parameter is bound where the section is written,
    /// like a lambda's: its type is fixed there, so it may not later take an unknown
    /// size made afterwards (the causality check).
    fn freeze_section_param(&mut self, t: &Ty) {
        if let Ty::Arrow(a) = self.u.shallow(t) {
            let now = fresh_uid();
            self.u.freeze_ty(&a.param, now);
        }
    }

    /// The causality check for the branches of an `if`: the type variables that the
    /// `then` branch left open (`then_open`, with the fields or constructors each one
    /// named) may not have taken, from the `else` branch, a type with an unknown size
    /// made after the `then` branch (`then_done`). In `if c then #nothing else #just
    /// (f ())` the type of `#nothing` would otherwise name the size of the array that
    /// `f` returns, which does not exist yet when the `then` branch is evaluated.
    fn check_branch_causality(
        &mut self,
        then_open: &[(u32, Vec<Name>)],
        then_done: Uid,
        tspan: Span,
        fspan: Span,
    ) {
        let Some(late) = then_open
            .iter()
            .find_map(|(v, known)| self.u.late_exist(*v, known, then_done))
        else {
            return;
        };
        let late = self.show(&late);
        self.report(
            Diagnostic::error(
                "S003",
                format!(
                    "Causality check: the type of the `then` branch would contain `{late}`, \
                     whose size is only computed later, in the `else` branch"
                ),
                fspan,
                "the size is computed in this branch",
            )
            .with_secondary(tspan, "this branch is evaluated before that size exists")
            .with_hint(
                "bind the `else` branch's value before the `if`, or give it a size known \
                 earlier with `:>`",
            ),
        );
    }

    /// The size an argument denotes when passed for a named parameter.
    pub fn size_of_arg(&mut self, e: &Expr) -> Size {
        match &e.kind {
            ExprKind::Literal(syntax::ast::Literal::Int { value, .. }) => {
                i64::try_from(*value).map(Size::Const).unwrap_or(Size::Any)
            }
            ExprKind::Parens(x) => self.size_of_arg(x),
            ExprKind::Var(qn) if qn.quals.is_empty() => match self.lookup_local(&qn.name.name) {
                Some(l) if l.scheme.is_none() => Size::Named(l.uid, qn.name.name.clone()),
                Some(_) => Size::Any,
                None => self.global_size(qn).unwrap_or(Size::Any),
            },
            ExprKind::Var(qn) => self.global_size(qn).unwrap_or(Size::Any),
            ExprKind::BinOp(op, a, b) if op.quals.is_empty() => {
                match crate::types::SizeOp::from_name(&op.name.name) {
                    Some(o) => {
                        let x = self.size_of_arg(a);
                        let y = self.size_of_arg(b);
                        crate::types::size_op(o, x, y)
                    }
                    None => Size::Any,
                }
            }
            _ => Size::Any,
        }
    }

    /// Checks index components; returns the element type after indexing a value of
    /// type `arr` and the shape kept by slices.
    fn index_type(&mut self, arr: &Ty, idxs: &[DimIndex], span: Span) -> Ty {
        let elem = self.u.fresh();
        let dims: Vec<Size> = idxs.iter().map(|_| self.u.fresh_size()).collect();
        let want = make_array(elem.clone(), dims.clone());
        if let Err(e) = self.u.unify(&want, arr) {
            let d = self.unify_diag(&e, span, &want, arr);
            let d = Diagnostic {
                message: format!(
                    "cannot index a value of type `{}` with {} ind{}",
                    self.show(arr),
                    idxs.len(),
                    if idxs.len() == 1 { "ex" } else { "ices" }
                ),
                ..d
            };
            self.report(d);
            for i in idxs {
                self.check_dim_index(i);
            }
            return Ty::Error;
        }
        let mut kept = Vec::new();
        for (i, d) in idxs.iter().zip(dims) {
            if self.check_dim_index(i) {
                let _ = d;
                kept.push(Size::Any);
            }
        }
        make_array(elem, kept)
    }

    /// Checks one index component; returns whether it is a slice.
    fn check_dim_index(&mut self, d: &DimIndex) -> bool {
        match d {
            DimIndex::Fix(e) => {
                self.check_index_exp(e);
                false
            }
            DimIndex::Slice { start, end, stride } => {
                for e in [start, end, stride].into_iter().flatten() {
                    self.check_index_exp(e);
                }
                true
            }
        }
    }

    fn check_index_exp(&mut self, e: &Expr) {
        let (t, _) = self.infer(e);
        let want = self.u.fresh_prims(mask_integral(), None);
        self.unify_at(&want, &t, e.span);
    }

    /// Records that the sizes of a bound value's type not yet known are fixed now: they
    /// may not later be found equal to an unknown size that comes into existence after
    /// this point (Futhark's causality check).
    pub fn freeze_sizes(&mut self, t: &Ty) {
        let z = self.u.zonk(t);
        let mut vars = Vec::new();
        crate::decls::collect_vars(&z, &mut Vec::new(), &mut vars);
        if vars.is_empty() {
            return;
        }
        let now = fresh_uid();
        for v in vars {
            self.u.frozen.entry(v).or_insert(now);
        }
    }

    /// Replaces the sizes of a type that mention names going out of scope (`gone`) by
    /// unknown sizes, one per distinct size, as a `let` does for its result.
    pub fn existential_sizes(&mut self, t: &Ty, gone: &[Uid]) -> Ty {
        if gone.is_empty() {
            return t.clone();
        }
        let z = self.u.zonk(t);
        if !gone.iter().any(|u| crate::types::ty_mentions(&z, *u)) {
            return z;
        }
        let mut made: Vec<(Size, Size)> = Vec::new();
        crate::types::map_sizes(&z, &mut |s: &Size| {
            if !gone.iter().any(|u| crate::types::size_mentions(s, *u)) {
                return s.clone();
            }
            if let Some((_, e)) = made.iter().find(|(k, _)| k == s) {
                return e.clone();
            }
            let e = Size::Exist(fresh_uid());
            made.push((s.clone(), e.clone()));
            e
        })
    }

    /// The type of an `if` whose branches have the (zonked, equal up to sizes)
    /// types `t` and `f`: where the branches' sizes differ, the result has a fresh
    /// unknown size, as each run takes one branch or the other; an undetermined size
    /// is the `then` branch's.
    fn merge_branch_sizes(&mut self, t: &Ty, f: &Ty) -> Ty {
        match (t, f) {
            (Ty::Array(te, ts), Ty::Array(fe, fs)) if ts.len() == fs.len() => {
                let mut dims = Vec::new();
                for (a, b) in ts.iter().zip(fs) {
                    let (a, b) = (self.u.size(a), self.u.size(b));
                    if let Some(s) = self.join_loop_size(&a, &b) {
                        dims.push(s);
                        continue;
                    }
                    let rigid = |s: &Size| !matches!(s, Size::Var(_) | Size::Any);
                    dims.push(if a != b && rigid(&a) && rigid(&b) {
                        Size::Exist(fresh_uid())
                    } else {
                        a
                    });
                }
                Ty::Array(Box::new(self.merge_branch_sizes(te, fe)), dims)
            }
            (Ty::Tuple(ts), Ty::Tuple(fs)) if ts.len() == fs.len() => Ty::Tuple(
                ts.iter()
                    .zip(fs)
                    .map(|(a, b)| self.merge_branch_sizes(a, b))
                    .collect(),
            ),
            (Ty::Record(ts), Ty::Record(fs)) if ts.len() == fs.len() => Ty::Record(
                ts.iter()
                    .zip(fs)
                    .map(|((n, a), (_, b))| (n.clone(), self.merge_branch_sizes(a, b)))
                    .collect(),
            ),
            (Ty::Sum(ts), Ty::Sum(fs)) if ts.len() == fs.len() => Ty::Sum(
                ts.iter()
                    .zip(fs)
                    .map(|((n, a), (_, b))| {
                        let args = if a.len() == b.len() {
                            a.iter()
                                .zip(b)
                                .map(|(x, y)| self.merge_branch_sizes(x, y))
                                .collect()
                        } else {
                            a.clone()
                        };
                        (n.clone(), args)
                    })
                    .collect(),
            ),
            _ => t.clone(),
        }
    }

    /// Infers an expression's type and aliases.
    pub fn infer(&mut self, e: &Expr) -> (Ty, Al) {
        match &e.kind {
            ExprKind::Literal(l) => (self.literal_type(l, e.id, e.span), Al::none()),
            ExprKind::Var(qn) => {
                self.inst_sizes.clear();
                let r = self.infer_var(qn, e.span);
                if self.quiet == 0 && !self.inst_sizes.is_empty() {
                    let sizes = std::mem::take(&mut self.inst_sizes);
                    for (n, s) in &sizes {
                        if let crate::types::Size::Var(v) = s {
                            let in_params = self.inst_param_sizes.contains(v);
                            self.inst_checks.push((
                                *v,
                                n.clone(),
                                qn.name.name.to_string(),
                                e.span,
                                in_params,
                            ));
                        }
                    }
                    self.size_uses.push((e.id, sizes));
                }
                r
            }
            ExprKind::Parens(x) | ExprKind::Attr(_, x) => self.infer(x),
            ExprKind::QualParens(qn, x) => {
                let mut quals = qn.quals.clone();
                quals.push(qn.name.clone());
                let Some(env) = self.resolve_quals(&quals) else {
                    self.infer(x);
                    return (Ty::Error, Al::none());
                };
                let mark = self.scope.len();
                self.open_env(env);
                let r = self.infer(x);
                self.scope.truncate(mark);
                r
            }
            ExprKind::Tuple(es) => {
                if es.len() == 1 {
                    return self.infer(&es[0]);
                }
                let mut tys = Vec::new();
                let mut parts = Vec::new();
                for x in es {
                    let (t, a) = self.infer(x);
                    tys.push(t);
                    parts.push(a);
                }
                (
                    Ty::Tuple(tys),
                    Al {
                        set: Vec::new(),
                        parts: Some(parts),
                    },
                )
            }
            ExprKind::Record(fs) => {
                let mut out: Vec<(Name, Ty)> = Vec::new();
                let mut al = Al::none();
                for f in fs {
                    let (name, t, a) = match f {
                        RecordField::Explicit(n, x) => {
                            let (t, a) = self.infer(x);
                            (n, t, a)
                        }
                        RecordField::Pun(n) => {
                            let qn = QualName {
                                quals: Vec::new(),
                                name: n.clone(),
                            };
                            let (t, a) = self.infer_var(&qn, n.span);
                            (n, t, a)
                        }
                    };
                    if out.iter().any(|(m, _)| *m == name.name) {
                        self.report(Diagnostic::error(
                            "T004",
                            format!("duplicate field `{}` in record", name.name),
                            name.span,
                            "defined twice",
                        ));
                        continue;
                    }
                    al.join(&a);
                    out.push((name.name.clone(), t));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                (crate::types::record(out), al)
            }
            ExprKind::ArrayLit(es) => {
                let elem = self.u.fresh_with(Cons::None, true);
                if es.is_empty()
                    && let Ty::Var(v) = elem
                {
                    self.empty_arrays.push((v, e.span));
                    if self.quiet == 0 {
                        self.empty_lits.push((e.id, elem.clone()));
                    }
                }
                // The element type as unified so far. An element whose type is
                // a variable (an unsuffixed literal) is bound to it, not the
                // other way round: each element would otherwise lengthen the
                // chain of bound variables that the types of all earlier ones
                // follow (quadratic in the array's length).
                let mut cur = elem.clone();
                for x in es {
                    let (t, _) = self.infer(x);
                    let unified = match self.u.shallow(&t) {
                        Ty::Var(_) => self.u.unify(&t, &cur),
                        _ => self.u.unify(&cur, &t),
                    };
                    cur = self.u.shallow(&cur);
                    if let Err(err) = unified {
                        let mut d = self.unify_diag(&err, x.span, &elem, &t);
                        if d.code == "T002" {
                            d.message = format!(
                                "array elements differ in type: expected `{}`, found `{}`",
                                self.show(&elem),
                                self.show(&t)
                            );
                            if let Some(first) = es.first() {
                                d = d.with_secondary(
                                    first.span,
                                    "the first element fixes the element type",
                                );
                            }
                        }
                        self.report(d);
                        let _ = self.u.unify(&elem, &Ty::Error);
                    }
                }
                (
                    make_array(elem, vec![Size::Const(es.len() as i64)]),
                    Al::none(),
                )
            }
            ExprKind::Range {
                start, second, end, ..
            } => {
                let t = self.u.fresh_prims(mask_integral(), None);
                if let Ty::Var(v) = t {
                    self.overloads.push((v, e.span));
                }
                for x in [Some(start), second.as_ref(), Some(end)]
                    .into_iter()
                    .flatten()
                {
                    let (xt, _) = self.infer(x);
                    self.unify_at(&t, &xt, x.span);
                }
                (make_array(t, vec![Size::Any]), Al::none())
            }
            ExprKind::Project(x, f) => {
                let (t, a) = self.infer(x);
                let r = self.project(&t, f, e.span);
                let al = if self.may_alias(&r) {
                    al_project(a, f)
                } else {
                    Al::none()
                };
                (r, al)
            }
            ExprKind::BinOp(op, l, r) => {
                let (ft, fal) = self.op_type(op);
                let callee = self.callee_of_name(op);
                self.apply(ft, fal, op.span(), &callee, &[l, r])
            }
            ExprKind::Neg(x) => {
                let (t, _) = self.infer(x);
                let want = self.u.fresh_prims(mask_numeric(), None);
                if let Ty::Var(v) = want {
                    self.overloads.push((v, e.span));
                }
                self.unify_at(&want, &t, x.span);
                (t, Al::none())
            }
            ExprKind::Not(x) => {
                let (t, _) = self.infer(x);
                let want = self
                    .u
                    .fresh_prims(mask_integral() | prim_bit(PrimType::Bool), None);
                if let Ty::Var(v) = want {
                    self.overloads.push((v, e.span));
                }
                self.unify_at(&want, &t, x.span);
                (t, Al::none())
            }
            ExprKind::OpSection(op) => self.op_type(op),
            ExprKind::OpSectionLeft(op, x) => {
                let (ft, fal) = self.op_type(op);
                let callee = self.callee_of_name(op);
                let r = self.apply(ft, fal, op.span(), &callee, &[x]);
                self.freeze_section_param(&r.0);
                r
            }
            ExprKind::OpSectionRight(op, y) => {
                let (ft, _) = self.op_type(op);
                let a = self.u.fresh();
                let b = self.u.fresh();
                let c = self.u.fresh();
                self.unify_at(
                    &arrow(a.clone(), arrow(b.clone(), c.clone())),
                    &ft,
                    op.span(),
                );
                let (yt, _) = self.infer(y);
                self.unify_at(&b, &yt, y.span);
                let t = arrow(a, c);
                self.freeze_section_param(&t);
                (t, Al::none())
            }
            ExprKind::ProjectSection(fields) => {
                let t = self.u.fresh();
                let mut r = t.clone();
                for f in fields {
                    r = self.project(&r, f, e.span);
                }
                (arrow(t, r), Al::none())
            }
            ExprKind::IndexSection(idxs) => {
                let t = self.u.fresh();
                let r = self.index_type(&t, idxs, e.span);
                (arrow(t, r), Al::none())
            }
            ExprKind::PathSection(path) => {
                let t = self.u.fresh();
                let r = self.path_type(&t, path);
                (arrow(t, r), Al::none())
            }
            ExprKind::Apply(f, args) => {
                if let ExprKind::Var(qn) = &f.kind
                    && qn.quals.is_empty()
                    && &*qn.name.name == "__intrinsic"
                    && self.lookup_val("__intrinsic").is_none()
                {
                    self.report(Diagnostic::error(
                        "T012",
                        "`__intrinsic` may only be the whole body of a prelude definition",
                        e.span,
                        "not allowed here",
                    ));
                    return (Ty::Error, Al::none());
                }
                let (ft, fal) = self.infer(f);
                let args: Vec<&Expr> = args.iter().collect();
                let callee = match &f.kind {
                    ExprKind::Var(qn) => self.callee_of_name(qn),
                    _ => Callee::default(),
                };
                self.apply(ft, fal, f.span, &callee, &args)
            }
            ExprKind::Constructor(name, args) => {
                let mut tys = Vec::new();
                let mut al = Al::none();
                for a in args {
                    let (t, x) = self.infer(a);
                    tys.push(t);
                    al.join(&x);
                }
                let v = self
                    .u
                    .fresh_with(Cons::Constrs(vec![(name.name.clone(), tys)]), false);
                if let Ty::Var(x) = v {
                    self.open_records.push((x, e.span));
                }
                (v, al)
            }
            ExprKind::If(c, t, f) => {
                let (ct, _) = self.infer(c);
                self.unify_because(&Ty::Prim(PrimType::Bool), &ct, c.span, None);
                let before = self.consumed.clone();
                let (tt, mut tal) = self.infer(t);
                let after_t = std::mem::replace(&mut self.consumed, before);
                let then_open = self.u.open_vars(&tt);
                let then_done = fresh_uid();
                let diags_before_else = self.diags.len();
                let (ft, fal) = self.infer(f);
                self.consumed.extend(after_t);
                self.u.ignore_sizes = true;
                let res = self.u.unify(&tt, &ft);
                self.u.ignore_sizes = false;
                // An error inside the `else` branch (a nested `if` failing this same
                // check) is not repeated for the outer `if`.
                if res.is_ok() && self.diags.len() == diags_before_else {
                    self.check_branch_causality(&then_open, then_done, t.span, f.span);
                }
                let unified = res.is_ok();
                if let Err(err) = res {
                    let d = self.unify_diag(&err, f.span, &tt, &ft);
                    let d = if d.code == "T002" {
                        let (st, sf) = self.show_two(&tt, &ft);
                        let unshared = crate::checker::unshared_constructors(
                            &self.u.zonk(&tt),
                            &self.u.zonk(&ft),
                        );
                        let mut d = Diagnostic {
                            message: format!(
                                "branches of `if` differ in type: `{st}` and `{sf}`{unshared}"
                            ),
                            ..d
                        }
                        .with_secondary(t.span, format!("this branch has type `{st}`"));
                        d.primary.message = format!("this branch has type `{sf}`");
                        d
                    } else {
                        d
                    };
                    self.report(d);
                }
                self.require_no_fun(&tt, e.span, "the result of `if`");
                tal.join(&fal);
                let t = if unified {
                    let (zt, zf) = (self.u.zonk(&tt), self.u.zonk(&ft));
                    self.merge_branch_sizes(&zt, &zf)
                } else {
                    tt
                };
                (t, tal)
            }
            ExprKind::Let {
                sizes,
                pat,
                value,
                body,
            } => {
                let log_start = self.consume_log.len();
                let (vt, mut val) = self.infer(value);
                self.check_fun_consumption(&vt, log_start, value.span, "A `let`-bound expression");
                if self.consume_log.len() > log_start {
                    let gone: Vec<Uid> = self.consume_log[log_start..].to_vec();
                    val = val.without(&gone);
                }
                let mark = self.scope.len();
                let mut size_uids = Vec::new();
                let mut seen: Vec<Ident> = Vec::new();
                if !sizes.is_empty() {
                    let mut used = Vec::new();
                    crate::decls::pat_size_names(pat, &mut used);
                    for s in sizes.iter().filter(|s| !used.contains(&s.name)) {
                        self.report(
                            Diagnostic::error(
                                "S002",
                                format!("Size \"[{}]\" unused in pattern", s.name),
                                s.span,
                                "no type in the pattern uses this size",
                            )
                            .with_hint(format!(
                                "annotate a part of the pattern with a type using it: `(xs: [{}]t)`",
                                s.name
                            )),
                        );
                    }
                }
                for s in sizes {
                    self.check_dup(s, &mut seen);
                    let uid = fresh_uid();
                    size_uids.push((uid, s.name.clone()));
                    self.push_local(
                        s.name.clone(),
                        Local {
                            uid,
                            ty: Ty::Prim(PrimType::I64),
                            scheme: None,
                            aliases: vec![uid],
                            consumable: false,
                            parts: None,
                            depth: self.depth,
                            span: s.span,
                        },
                    );
                }
                let vt = if size_uids.is_empty() {
                    vt
                } else {
                    let z = self.u.zonk(&vt);
                    fill_sizes(&z, &mut size_uids.iter())
                };
                let mut binds = Vec::new();
                self.check_pat(pat, &vt, AnonSize::Fresh, &mut binds);
                self.check_dups(&binds, &mut seen);
                self.pending.push(PendingMatch {
                    pats: vec![pat.clone()],
                    ty: vt.clone(),
                    span: pat.span,
                    is_let: true,
                });
                let mut bound = self.bind_pat(pat, binds, &val, true);
                bound.extend(size_uids.iter().map(|(u, _)| *u));
                self.freeze_sizes(&vt);
                let (rt, ral) = self.infer(body);
                self.scope.truncate(mark);
                (self.existential_sizes(&rt, &bound), ral)
            }
            ExprKind::LetFun {
                name,
                type_params,
                params,
                ret,
                value,
                body,
            } => {
                let uses_start = self.use_log.len();
                let f = self.check_fun(name, type_params, params, ret.as_ref(), value, false);
                let mark = self.scope.len();
                let uid = fresh_uid();
                // Calling the function reads the free values its body reads, so it may
                // not be used once one of them is consumed.
                let mut aliases = vec![uid];
                let used: Vec<Uid> = self.use_log[uses_start..].iter().map(|x| x.0).collect();
                for u in used {
                    let in_scope = self
                        .scope
                        .iter()
                        .any(|f| matches!(f, crate::checker::Frame::Local(_, l) if l.uid == u));
                    if in_scope && !aliases.contains(&u) {
                        aliases.push(u);
                    }
                }
                self.push_local(
                    name.name.clone(),
                    Local {
                        uid,
                        ty: f.scheme.ty.clone(),
                        scheme: Some(f.scheme),
                        aliases,
                        consumable: false,
                        parts: None,
                        depth: self.depth,
                        span: name.span,
                    },
                );
                let r = self.infer(body);
                self.scope.truncate(mark);
                r
            }
            ExprKind::LetWith {
                dest,
                indices,
                value,
                body,
            } => {
                let qn = QualName {
                    quals: Vec::new(),
                    name: dest.clone(),
                };
                let (dt, dal) = self.infer_var(&qn, dest.span);
                let elem = self.index_type(&dt, indices, dest.span);
                let (vt, val) = self.infer(value);
                self.unify_because(&elem, &vt, value.span, None);
                self.check_update_source(&dal, &vt, &val, &dest.name, value.span);
                self.consume(&dal, dest.span);
                let mark = self.scope.len();
                let uid = fresh_uid();
                self.push_local(
                    dest.name.clone(),
                    Local {
                        uid,
                        ty: dt,
                        scheme: None,
                        aliases: vec![uid],
                        consumable: true,
                        parts: None,
                        depth: self.depth,
                        span: dest.span,
                    },
                );
                let r = self.infer(body);
                self.scope.truncate(mark);
                r
            }
            ExprKind::Update {
                target,
                indices,
                value,
            } => {
                let (tt, tal) = self.infer(target);
                let elem = self.index_type(&tt, indices, target.span);
                self.in_place_update(target, tt, tal, &elem, value)
            }
            ExprKind::UpdatePath {
                target,
                path,
                value,
            } => {
                // An index step makes this an in-place update: the value keeps the
                // type of what the path reaches, and the target is consumed.
                let (tt, tal) = self.infer(target);
                let focus = self.path_type(&tt, path);
                self.in_place_update(target, tt, tal, &focus, value)
            }
            ExprKind::RecordUpdate {
                target,
                fields,
                value,
            } => {
                let (tt, mut tal) = self.infer(target);
                let (vt, val) = self.infer(value);
                let nt = self.update_field(&tt, fields, vt, e.span);
                tal.join(&val);
                (nt, tal)
            }
            ExprKind::Lambda { params, ret, body } => {
                let uses_start = self.use_log.len();
                let mark = self.scope.len();
                let size_start = self.u.sizes.len();
                self.depth += 1;
                let mut seen: Vec<Ident> = Vec::new();
                let mut ptys = Vec::new();
                let mut nonunique_params: Vec<Uid> = Vec::new();
                for p in params {
                    let t = self.u.fresh();
                    let mut binds = Vec::new();
                    self.check_pat(p, &t, AnonSize::Fresh, &mut binds);
                    self.check_dups(&binds, &mut seen);
                    let unique = binds.iter().any(|b| b.unique);
                    let bind_unique: Vec<bool> = binds.iter().map(|b| b.unique).collect();
                    let uids = self.bind_pat(p, binds, &Al::none(), false);
                    for (u, bu) in uids.iter().zip(&bind_unique) {
                        if !bu {
                            nonunique_params.push(*u);
                        }
                        self.u.bound_at.insert(*u, size_start);
                    }
                    let now = fresh_uid();
                    self.u.freeze_ty(&t, now);
                    let pname = crate::pattern::pat_ident(p)
                        .and_then(|i| uids.first().map(|u| (*u, i.name.clone())));
                    ptys.push((t, unique, pname));
                }
                let (rt, runique) = match ret {
                    Some(te) => {
                        let r = self.resolve_type(te, AnonSize::Any);
                        (Some((r.ty, te.span)), r.unique)
                    }
                    None => (None, false),
                };
                let (bt, bal) = self.infer(body);
                self.check_global_result(&bt, &bal, body.span);
                if runique {
                    self.check_unique_result(&bt, &bal, true, &[], &nonunique_params, body.span);
                }
                let t = match rt {
                    Some((rt, span)) => {
                        self.unify_because(
                            &rt,
                            &bt,
                            body.span,
                            Some((span, "expected because of this annotation")),
                        );
                        rt
                    }
                    None => bt,
                };
                self.depth -= 1;
                self.scope.truncate(mark);
                let mut ty = t;
                let mut dependent = false;
                for (i, (p, unique, pname)) in ptys.into_iter().enumerate().rev() {
                    // A parameter that sizes a later parameter or the result makes
                    // the type dependent, as a function's is: an application puts
                    // the argument's size in its place.
                    let pname =
                        pname.filter(|(u, _)| crate::types::ty_mentions(&self.u.zonk(&ty), *u));
                    dependent |= pname.is_some();
                    ty = Ty::Arrow(Box::new(Arrow {
                        pname,
                        param: p,
                        ret: ty,
                        consume: unique,
                        ret_unique: runique && i + 1 == params.len(),
                        consume_parts: Vec::new(),
                        ret_parts: Vec::new(),
                    }));
                }
                if dependent {
                    // Substituting the argument's size needs the parameter types
                    // themselves, not the variables they were inferred through.
                    ty = self.u.zonk(&ty);
                }
                // The function reads the free values its body reads: it may not be
                // used once one of them is consumed.
                let used: Vec<Uid> = self.use_log[uses_start..].iter().map(|x| x.0).collect();
                (ty, Al::of(self.in_scope_uids(used)))
            }
            ExprKind::Loop {
                pat,
                init,
                form,
                body,
            } => self.infer_loop(pat, init.as_deref(), form, body, e.span),
            ExprKind::Match(x, cases) => {
                let (xt, xal) = self.infer(x);
                let rt = self.u.fresh();
                let before = self.consumed.clone();
                let mut after = HashMap::new();
                let mut al = Al::none();
                for c in cases {
                    self.consumed = before.clone();
                    let mark = self.scope.len();
                    let mut binds = Vec::new();
                    self.check_pat(&c.pat, &xt, AnonSize::Fresh, &mut binds);
                    self.bind_pat(&c.pat, binds, &xal, true);
                    let (bt, bal) = self.infer(&c.body);
                    self.u.ignore_sizes = true;
                    self.unify_because(&rt, &bt, c.body.span, None);
                    self.u.ignore_sizes = false;
                    al.join(&bal);
                    self.scope.truncate(mark);
                    after.extend(self.consumed.drain());
                }
                self.consumed = before;
                self.consumed.extend(after);
                self.pending.push(PendingMatch {
                    pats: cases.iter().map(|c| c.pat.clone()).collect(),
                    ty: xt,
                    span: x.span,
                    is_let: false,
                });
                self.require_no_fun(&rt, e.span, "the result of `match`");
                (rt, al)
            }
            ExprKind::Ascribe(x, te) => {
                let r = self.resolve_type(te, AnonSize::Fresh);
                let (t, al) = self.infer(x);
                self.unify_because(
                    &r.ty,
                    &t,
                    x.span,
                    Some((te.span, "expected because of this annotation")),
                );
                (r.ty, al)
            }
            ExprKind::Coerce(x, te) => {
                let first = self.u.sizes.len() as u32;
                let r = self.resolve_type(te, AnonSize::Fresh);
                let last = self.u.sizes.len() as u32;
                self.coerce_sizes
                    .extend((first..last).map(|v| (v, te.span)));
                let (t, al) = self.infer(x);
                self.u.ignore_sizes = true;
                let res = self.u.unify(&r.ty, &t);
                self.u.ignore_sizes = false;
                if let Err(err) = res {
                    let d = self
                        .unify_diag(&err, x.span, &r.ty, &t)
                        .with_secondary(te.span, "expected because of this coercion");
                    self.report(d);
                }
                (r.ty, al)
            }
            ExprKind::Index(x, idxs) => {
                let (t, al) = self.infer(x);
                let r = self.index_type(&t, idxs, e.span);
                let al = if self.may_alias(&r) { al } else { Al::none() };
                (r, al)
            }
            ExprKind::Assert(c, x) => {
                let (ct, _) = self.infer(c);
                self.unify_at(&Ty::Prim(PrimType::Bool), &ct, c.span);
                self.infer(x)
            }
            ExprKind::Hole => (self.u.fresh(), Al::none()),
        }
    }

    /// The type that a path of fields and indices reaches from a value of type `t`
    /// (checking the index expressions), as `t.f[i]…` would have.
    fn path_type(&mut self, t: &Ty, path: &[PathStep]) -> Ty {
        let mut cur = t.clone();
        for step in path {
            cur = match step {
                PathStep::Field(f) => self.project(&cur, f, f.span),
                PathStep::Index(is, span) => self.index_type(&cur, is, *span),
            };
        }
        cur
    }

    /// The type of `r with a.b = v`.
    fn update_field(&mut self, t: &Ty, fields: &[Ident], vt: Ty, span: Span) -> Ty {
        let Some((f, rest)) = fields.split_first() else {
            return vt;
        };
        match self.u.shallow(t) {
            Ty::Record(fs) => {
                let mut out = fs.clone();
                match out.iter_mut().find(|(n, _)| *n == f.name) {
                    Some((_, ft)) => {
                        let inner = ft.clone();
                        let nt = self.update_field(&inner, rest, vt, span);
                        // A record update keeps the field's type, but the sizes of an
                        // array field may change.
                        self.u.ignore_sizes = true;
                        let same = self.u.unify(&inner, &nt).is_ok();
                        self.u.ignore_sizes = false;
                        if !same {
                            let (want, got) = self.show_two(&inner, &nt);
                            self.report(
                                Diagnostic::error(
                                    "T002",
                                    format!(
                                        "Cannot update record field \"{}\" of type `{want}` with \
                                         a value of type `{got}`",
                                        f.name
                                    ),
                                    span,
                                    format!("this value has type `{got}`"),
                                )
                                .with_hint("build a new record to change the type of a field"),
                            );
                            return Ty::Error;
                        }
                        *ft = nt;
                        Ty::Record(out)
                    }
                    None => {
                        self.report(Diagnostic::error(
                            "T004",
                            format!("record type `{}` has no field `{}`", self.show(t), f.name),
                            f.span,
                            "unknown field",
                        ));
                        Ty::Error
                    }
                }
            }
            Ty::Error => Ty::Error,
            _ => {
                let ft = self.project(t, f, span);
                let nt = self.update_field(&ft, rest, vt, span);
                self.unify_at(&ft, &nt, span);
                t.clone()
            }
        }
    }

    /// Reports names bound twice among parameters, or in one `let` pattern with its
    /// size binders; `seen` holds the names bound so far in the group.
    pub fn check_dups(&mut self, binds: &[PatBind], seen: &mut Vec<Ident>) {
        for b in binds {
            self.check_dup(&b.ident, seen);
        }
    }

    /// Reports `ident` if `seen` already binds its name, else adds it to `seen`.
    pub fn check_dup(&mut self, ident: &Ident, seen: &mut Vec<Ident>) {
        if let Some(prev) = seen.iter().find(|i| i.name == ident.name) {
            let d = Diagnostic::error(
                "T010",
                format!(
                    "`{}` is bound twice: also bound earlier in the same binding",
                    ident.name
                ),
                ident.span,
                "bound again here",
            )
            .with_secondary(prev.span, "first bound here");
            self.report(d);
        } else {
            seen.push(ident.clone());
        }
    }

    /// In a loop whose body consumes a loop parameter, the components of the body's
    /// result become the next iteration's (unique) parameters, so no two may alias.
    fn check_loop_results_disjoint(&mut self, pat: &Pat, parts: &[Al], span: Span) {
        let sets: Vec<Vec<Uid>> = parts
            .iter()
            .map(|a| {
                let mut v = a.all();
                v.retain(|u| *u != GLOBAL && *u != crate::checker::UNKNOWN_FUN);
                v
            })
            .collect();
        for j in 1..sets.len() {
            for i in 0..j {
                let Some(u) = sets[j].iter().find(|u| sets[i].contains(u)) else {
                    continue;
                };
                let who = self.scope.iter().rev().find_map(|f| match f {
                    crate::checker::Frame::Local(n, l) if l.uid == *u => Some(n.clone()),
                    _ => None,
                });
                let names = pat_component_names(pat);
                let comp = |k: usize| match names.get(k).and_then(|n| n.as_ref()) {
                    Some(n) => format!("\"{n}\""),
                    None => format!("component {}", k + 1),
                };
                let msg = match who {
                    Some(n) => format!(
                        "Loop body returns values that alias each other: the results for {} \
                         and {} both alias \"{n}\"",
                        comp(i),
                        comp(j)
                    ),
                    None => format!(
                        "Loop body returns values that alias each other: the results for {} \
                         and {}",
                        comp(i),
                        comp(j)
                    ),
                };
                self.report(
                    Diagnostic::error("U003", msg, span, "these results share storage")
                        .with_hint("return a copy (`copy x`) of one of them"),
                );
                return;
            }
        }
    }

    /// A loop whose body consumes a loop parameter consumes its initial value before
    /// the body runs, so the body may not read an alias of that value; and what the body
    /// returns for a consumed parameter is consumed by the next iteration, so it may not
    /// be a value bound outside the loop.
    fn check_loop_consumption(
        &mut self,
        pat: &Pat,
        param_uids: &[Uid],
        ial: &Al,
        ispan: Span,
        bal: &Al,
        uses_start: usize,
    ) {
        let init = ial.all();
        let bad_use = self.use_log[uses_start..]
            .iter()
            .find(|(u, _, _)| *u != GLOBAL && init.contains(u))
            .cloned();
        if let Some((_, name, at)) = bad_use {
            self.report(
                Diagnostic::error(
                    "U001",
                    format!("Using \"{name}\", but it was consumed by the loop"),
                    at,
                    "used here",
                )
                .with_secondary(
                    ispan,
                    "consumed here: the loop body consumes the loop parameter bound to this value",
                )
                .with_hint(format!("use a copy (`copy {name}`) in the loop")),
            );
        }
        // The body's results, per component of the loop pattern when they are known.
        let comps: Vec<(usize, Al)> = match (&pat.kind, &bal.parts) {
            (PatKind::Tuple(ps), Some(parts)) if ps.len() > 1 && ps.len() == parts.len() => {
                let mut start = 0;
                ps.iter()
                    .zip(parts)
                    .map(|(q, a)| {
                        let n = pat_bind_count(q);
                        let r = (start, n, a.clone());
                        start += n;
                        r
                    })
                    .filter(|(st, n, _)| {
                        param_uids
                            .get(*st..*st + *n)
                            .is_some_and(|us| us.iter().any(|u| self.consumed.contains_key(u)))
                    })
                    .map(|(st, _, a)| (st, a))
                    .collect()
            }
            _ => vec![(0, bal.clone())],
        };
        for (_, a) in comps {
            let free: Vec<Uid> = a
                .all()
                .into_iter()
                .filter(|u| {
                    *u == GLOBAL
                        || *u == crate::checker::UNKNOWN_FUN
                        || self.scope.iter().any(|f| {
                            matches!(f, crate::checker::Frame::Local(_, l)
                                if l.uid == *u && l.depth < self.depth)
                        })
                })
                .collect();
            if let Some(u) = free.first() {
                let name = self.scope.iter().rev().find_map(|f| match f {
                    crate::checker::Frame::Local(n, l) if l.uid == *u => Some(n.clone()),
                    _ => None,
                });
                let what = match name {
                    Some(n) => format!("\"{n}\""),
                    None => "a value bound outside the loop".to_string(),
                };
                self.report(
                    Diagnostic::error(
                        "U002",
                        format!(
                            "Consuming {what}, which is not consumable: the loop body returns it \
                             for a loop parameter that the next iteration consumes"
                        ),
                        ispan,
                        "this loop consumes its parameter",
                    )
                    .with_hint("return a copy (`copy x`) from the loop body"),
                );
                return;
            }
        }
    }

    fn infer_loop(
        &mut self,
        pat: &Pat,
        init: Option<&Expr>,
        form: &LoopForm,
        body: &Expr,
        span: Span,
    ) -> (Ty, Al) {
        let (it, ial, ispan) = match init {
            Some(x) => {
                let (t, a) = self.infer(x);
                (t, a, x.span)
            }
            None => {
                let e = pat_to_expr(pat);
                let (t, a) = self.infer(&e);
                (t, a, pat.span)
            }
        };
        let pty = self.u.fresh();
        let loose = loosen(&self.u.zonk(&it));
        self.unify_because(&pty, &loose, ispan, None);
        // Inside the body, the sizes of the loop parameters are size variables of their
        // own (one per distinct size of the initial value), which the body may fix
        // (`crate::loop_sizes`).
        let (ppar, mut loop_sizes) = self.fresh_loop_sizes(&self.u.zonk(&it));
        let mark = self.scope.len();
        // The iteration bound is checked outside the loop parameters' scope.
        let form_bind: Option<(Pat, Ty, bool)> = match form {
            LoopForm::For(i, bound) => {
                let (bt, _) = self.infer(bound);
                let want = self.u.fresh_prims(mask_integral(), None);
                // Like an overloaded operator's type: defaulted (to i32) at the end of
                // the definition when nothing else fixes it.
                if let Ty::Var(v) = want {
                    self.overloads.push((v, bound.span));
                }
                self.unify_at(&want, &bt, bound.span);
                let p = Pat {
                    kind: PatKind::Id(i.clone()),
                    span: i.span,
                    id: syntax::ast::NodeId(u32::MAX),
                };
                Some((p, bt, false))
            }
            LoopForm::ForIn(p, xs) => {
                let (xt, _) = self.infer(xs);
                let el = self.u.fresh();
                let want = make_array(el.clone(), vec![Size::Any]);
                self.unify_at(&want, &xt, xs.span);
                Some((p.clone(), el, false))
            }
            LoopForm::While(_) => None,
        };
        self.depth += 1;
        let mut binds = Vec::new();
        self.check_pat(pat, &ppar, AnonSize::Fresh, &mut binds);
        self.require_no_fun(&pty, pat.span, "a loop parameter");
        let param_uids = self.bind_pat(pat, binds, &Al::none(), true);
        if let Some((p, t, _)) = form_bind {
            let mut b = Vec::new();
            self.check_pat(&p, &t, AnonSize::Fresh, &mut b);
            self.bind_pat(&p, b, &Al::none(), false);
        }
        if let LoopForm::While(c) = form {
            let (ct, _) = self.infer(c);
            self.unify_at(&Ty::Prim(PrimType::Bool), &ct, c.span);
        }
        self.loop_body_starts(&mut loop_sizes);
        let uses_start = self.use_log.len();
        let (bt, bal) = self.infer(body);
        let loose_b = loosen(&self.u.zonk(&bt));
        self.unify_because(
            &pty,
            &loose_b,
            body.span,
            Some((pat.span, "the loop parameter has this type")),
        );
        let consumed_param = param_uids.iter().any(|u| self.consumed.contains_key(u));
        if consumed_param && let Some(parts) = &bal.parts {
            self.check_loop_results_disjoint(pat, parts, body.span);
        }
        if consumed_param {
            self.check_loop_consumption(pat, &param_uids, &ial, ispan, &bal, uses_start);
        }
        self.depth -= 1;
        self.scope.truncate(mark);
        let _ = span;
        let rty = self.loop_result(&ppar, &loop_sizes, &it, &bt, pat.span, body.span);
        if consumed_param {
            self.consume(&ial, ispan);
            (rty, Al::none())
        } else {
            (rty, ial)
        }
    }
}

/// Assigns each name bound by `p` the aliases of the part of the value it binds.
fn pat_aliases(p: &Pat, al: &Al, out: &mut Vec<Vec<Uid>>) {
    match &p.kind {
        PatKind::Id(_) => out.push(al.all()),
        PatKind::Wildcard | PatKind::Literal(_) => {}
        PatKind::Tuple(ps) if ps.len() == 1 => pat_aliases(&ps[0], al, out),
        PatKind::Tuple(ps) => match &al.parts {
            Some(parts) if parts.len() == ps.len() => {
                for (q, a) in ps.iter().zip(parts) {
                    pat_aliases(q, a, out);
                }
            }
            _ => {
                for q in ps {
                    pat_aliases(q, &Al::of(al.all()), out);
                }
            }
        },
        PatKind::Record(fs) => {
            for (_, q) in fs {
                pat_aliases(q, &Al::of(al.all()), out);
            }
        }
        PatKind::Constructor(_, ps) => {
            for q in ps {
                pat_aliases(q, &Al::of(al.all()), out);
            }
        }
        PatKind::Ascribed(q, _) | PatKind::Attr(_, q) => pat_aliases(q, al, out),
    }
}

/// The aliases of field `f` of a value with aliases `al`: the component's own when the
/// value is a tuple whose components are tracked separately.
fn al_project(al: Al, f: &Ident) -> Al {
    match (&al.parts, f.name.parse::<usize>()) {
        (Some(ps), Ok(k)) if k < ps.len() => ps[k].clone(),
        _ => al,
    }
}

/// The number of names a pattern binds.
fn pat_bind_count(p: &Pat) -> usize {
    match &p.kind {
        PatKind::Id(_) => 1,
        PatKind::Wildcard | PatKind::Literal(_) => 0,
        PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => ps.iter().map(pat_bind_count).sum(),
        PatKind::Record(fs) => fs.iter().map(|(_, q)| pat_bind_count(q)).sum(),
        PatKind::Ascribed(q, _) | PatKind::Attr(_, q) => pat_bind_count(q),
    }
}

/// The expression that re-reads the variables a loop pattern binds (short `loop x`).
fn pat_to_expr(p: &Pat) -> Expr {
    let kind = match &p.kind {
        PatKind::Id(i) => ExprKind::Var(QualName {
            quals: Vec::new(),
            name: i.clone(),
        }),
        PatKind::Tuple(ps) => ExprKind::Tuple(ps.iter().map(pat_to_expr).collect()),
        PatKind::Record(fs) => ExprKind::Record(
            fs.iter()
                .map(|(n, q)| RecordField::Explicit(n.clone(), pat_to_expr(q)))
                .collect(),
        ),
        PatKind::Ascribed(q, _) | PatKind::Attr(_, q) => return pat_to_expr(q),
        _ => ExprKind::Hole,
    };
    Expr {
        kind,
        span: p.span,
        id: p.id,
    }
}

/// Replaces every size in a type by an unknown size (loop parameters may change size).
pub fn loosen(t: &Ty) -> Ty {
    match t {
        Ty::Array(e, s) => make_array(loosen(e), vec![Size::Any; s.len()]),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(loosen).collect()),
        Ty::Record(fs) => Ty::Record(fs.iter().map(|(n, t)| (n.clone(), loosen(t))).collect()),
        Ty::Sum(cs) => Ty::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(loosen).collect()))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// Gives unknown sizes in a type the names bound by `let [n]`, in order.
fn fill_sizes<'a>(t: &Ty, it: &mut impl Iterator<Item = &'a (Uid, Name)>) -> Ty {
    match t {
        Ty::Array(e, s) => {
            let shape = s
                .iter()
                .map(|d| match d {
                    Size::Any | Size::Var(_) | Size::Exist(_) | Size::Hidden(_) => {
                        match it.next() {
                            Some((u, n)) => Size::Named(*u, n.clone()),
                            None => d.clone(),
                        }
                    }
                    d => d.clone(),
                })
                .collect();
            make_array((**e).clone(), shape)
        }
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| fill_sizes(t, it)).collect()),
        t => t.clone(),
    }
}

/// The names of the components of a tuple pattern (`None` for components that are not
/// plain names).
fn pat_component_names(p: &Pat) -> Vec<Option<syntax::ast::Name>> {
    match &p.kind {
        PatKind::Tuple(ps) if ps.len() != 1 => ps
            .iter()
            .map(|q| crate::pattern::pat_ident(q).map(|i| i.name.clone()))
            .collect(),
        PatKind::Tuple(ps) => pat_component_names(&ps[0]),
        PatKind::Ascribed(q, _) | PatKind::Attr(_, q) => pat_component_names(q),
        _ => Vec::new(),
    }
}
