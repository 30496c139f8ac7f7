//! Value definitions (top-level and local functions): parameters, return types,
//! intrinsic bodies, uniqueness of results, defaulting and generalisation.

use crate::checker::{Checker, GLOBAL, Local};
use crate::exhaustive::{simplify, unmatched};
use crate::expr::PendingMatch;
use crate::pattern::{PatBind, pat_ident};
use crate::typeexp::AnonSize;
use crate::types::{
    Arrow, Scheme, Size, TParam, Ty, TyArg, TypeDef, Uid, fresh_uid, make_array, size_poly,
};
use crate::unify::{Cons, VarState, describe_mask};
use syntax::Diagnostic;
use syntax::ast::{Expr, ExprKind, Ident, Liftedness, Literal, Pat, PrimType, TypeExp, TypeParam};

/// The result of checking a function definition.
pub struct FunResult {
    pub scheme: Scheme,
    /// The type parameters as written (for entry-point checks).
    pub has_type_params: bool,
}

/// A parameter's type, its name when later types may refer to it, its uniqueness, and
/// the uniqueness of its components when they are marked individually.
type ParamInfo = (Ty, Option<(Uid, syntax::ast::Name)>, bool, Vec<bool>);

/// If `body` is `__intrinsic "name"`, the name.
pub fn intrinsic_name(body: &Expr) -> Option<String> {
    let ExprKind::Apply(f, args) = &body.kind else {
        return None;
    };
    let ExprKind::Var(qn) = &f.kind else {
        return None;
    };
    if !qn.quals.is_empty() || &*qn.name.name != "__intrinsic" || args.len() != 1 {
        return None;
    }
    match &args[0].kind {
        ExprKind::Literal(Literal::String(s)) => Some(String::from_utf8_lossy(s).into_owned()),
        _ => None,
    }
}

impl Checker<'_> {
    /// Binds type and size parameters in a new frame; returns them.
    pub fn bind_type_params(&mut self, tps: &[TypeParam]) -> Vec<TParam> {
        let mut out = Vec::new();
        let mut seen: Vec<&Ident> = Vec::new();
        self.push_env();
        for tp in tps {
            let id = tp.ident();
            if let Some(prev) = seen.iter().find(|i| i.name == id.name) {
                let d = Diagnostic::error(
                    "T010",
                    format!("type parameter `{}` is bound twice: also bound earlier in the same binding", id.name),
                    id.span,
                    "bound again here",
                )
                .with_secondary(prev.span, "first bound here");
                self.report(d);
                continue;
            }
            seen.push(id);
            let uid = fresh_uid();
            match tp {
                TypeParam::Type(i, l) => {
                    self.own_env().types.insert(
                        i.name.clone(),
                        std::sync::Arc::new(TypeDef {
                            params: Vec::new(),
                            ty: Ty::Param(uid, i.name.clone()),
                            liftedness: *l,
                        }),
                    );
                    out.push(TParam::Type(uid, i.name.clone(), *l));
                }
                TypeParam::Size(i) => {
                    out.push(TParam::Size(uid, i.name.clone()));
                }
            }
        }
        for p in &out {
            if let TParam::Size(uid, name) = p {
                let span = seen
                    .iter()
                    .find(|i| i.name == *name)
                    .map(|i| i.span)
                    .unwrap_or_default();
                self.push_local(
                    name.clone(),
                    Local {
                        uid: *uid,
                        ty: Ty::Prim(PrimType::I64),
                        scheme: None,
                        aliases: vec![*uid],
                        consumable: false,
                        parts: None,
                        depth: self.depth + 1,
                        span,
                    },
                );
            }
        }
        out
    }

    /// Checks a function (or constant) definition and returns its generalised scheme.
    pub fn check_fun(
        &mut self,
        name: &Ident,
        tps: &[TypeParam],
        params: &[Pat],
        ret: Option<&TypeExp>,
        body: &Expr,
        top: bool,
    ) -> FunResult {
        let mark = self.scope.len();
        let errors_before = self.diags.len();
        let size_start = self.u.sizes.len();
        // Unknown sizes made while checking this function have greater identities.
        let exist_start = fresh_uid();
        self.u.level += 1;
        let mut tparams = self.bind_type_params(tps);
        for p in &tparams {
            if let TParam::Size(u, _) = p {
                self.u.rigid.insert(*u);
                self.u.bound_at.insert(*u, size_start);
            }
        }
        self.depth += 1;
        // Size parameters and value parameters share one namespace: `[n] (n: i64)`
        // binds `n` twice.
        let mut seen: Vec<Ident> = tps
            .iter()
            .filter_map(|tp| match tp {
                TypeParam::Size(i) => Some(i.clone()),
                TypeParam::Type(..) => None,
            })
            .collect();
        let mut ptys: Vec<ParamInfo> = Vec::new();
        let mut nonunique_params: Vec<Uid> = Vec::new();
        let mut inner_names: Vec<Uid> = Vec::new();
        for p in params {
            let t = self.u.fresh();
            let mut binds: Vec<PatBind> = Vec::new();
            self.check_pat(p, &t, AnonSize::Fresh, &mut binds);
            self.check_dups(&binds, &mut seen);
            let parts = param_unique_parts(p);
            let unique = pat_is_unique(p)
                || (parts.is_empty() && binds.iter().any(|b| b.unique))
                || (!parts.is_empty() && parts.iter().all(|u| *u));
            if pat_is_unique(p) && !self.may_alias(&t) && !matches!(self.u.zonk(&t), Ty::Error) {
                let mut d = Diagnostic::error(
                    "W001",
                    format!(
                        "the uniqueness mark `*` has no effect on a parameter of non-array type `{}`",
                        self.show(&t)
                    ),
                    p.span,
                    "not an array",
                )
                .with_hint("remove the `*`");
                d.severity = syntax::Severity::Warning;
                self.report(d);
            }
            let bind_unique: Vec<bool> = binds.iter().map(|b| b.unique).collect();
            let uids = self.bind_pat(p, binds, &crate::checker::Al::none(), false);
            for u in &uids {
                self.u.bound_at.insert(*u, size_start);
            }
            for (u, bu) in uids.iter().zip(&bind_unique) {
                if !unique && !bu {
                    nonunique_params.push(*u);
                }
            }
            if !unique && !parts.is_empty() && uids.len() == 1 && pat_ident(p).is_some() {
                // A tuple parameter with individually marked components: each component
                // gets its own alias identity, consumable when it is unique.
                let comps = self.bind_param_components(&parts);
                for (c, u) in comps.iter().zip(&parts) {
                    if !u {
                        nonunique_params.push(*c);
                    }
                }
            }
            let pname = pat_ident(p).and_then(|i| uids.first().map(|u| (*u, i.name.clone())));
            if pname.is_none() {
                inner_names.extend(uids.iter().copied());
            }
            ptys.push((t, pname, unique, parts));
        }
        let (mut ret_ty, ret_unique, ret_parts, ret_span) = match ret {
            Some(te) => {
                let saved = std::mem::replace(&mut self.unsizable, inner_names);
                let r = self.resolve_type(te, AnonSize::Any);
                self.unsizable = saved;
                (r.ty, r.unique, r.parts, Some(te.span))
            }
            None => (self.u.fresh(), false, Vec::new(), None),
        };
        let recursive = top
            && ret.is_some()
            && intrinsic_name(body).is_none()
            && self.lookup_val(&name.name).is_none();
        if recursive {
            // A top-level function with a declared return type may call itself: its
            // name is in scope in its body (unless a parameter or an earlier definition
            // of that name is), polymorphic in its explicit type and size parameters,
            // with sizes not yet known treated leniently.
            let mut rty = ret_ty.clone();
            for (i, (p, pname, unique, parts)) in ptys.iter().enumerate().rev() {
                let last = i + 1 == ptys.len();
                rty = Ty::Arrow(Box::new(Arrow {
                    pname: pname.clone(),
                    param: any_size_vars(&self.u.zonk(p)),
                    ret: rty,
                    consume: *unique,
                    ret_unique: ret_unique && last,
                    consume_parts: parts.clone(),
                    ret_parts: if last { ret_parts.clone() } else { Vec::new() },
                }));
            }
            self.push_local(
                name.name.clone(),
                Local {
                    uid: fresh_uid(),
                    ty: rty.clone(),
                    scheme: Some(Scheme {
                        params: tparams.clone(),
                        eq_params: Vec::new(),
                        ty: rty,
                    }),
                    aliases: Vec::new(),
                    consumable: false,
                    parts: None,
                    depth: self.depth,
                    span: name.span,
                },
            );
        } else if top && ret.is_none() {
            self.defining = Some(name.name.clone());
        }
        if let Some(intr) = intrinsic_name(body) {
            if !self.opts.allow_intrinsics {
                self.report(
                    Diagnostic::error(
                        "T012",
                        format!("`__intrinsic \"{intr}\"` is only allowed in the prelude"),
                        body.span,
                        "not allowed here",
                    )
                    .with_hint("use the prelude function of that name instead"),
                );
            } else if ret.is_none() {
                self.report(
                    Diagnostic::error(
                        "T006",
                        "an intrinsic definition needs a return type annotation",
                        body.span,
                        "the type of this intrinsic is unknown",
                    )
                    .with_hint("add a type annotation"),
                );
            }
        } else {
            let (bt, bal) = self.infer(body);
            let because = ret_span.map(|s| (s, "expected because of this return type"));
            if let Err(e) = self.u.unify(&ret_ty, &bt) {
                let mut d = self.unify_diag(&e, body.span, &ret_ty, &bt);
                if let Some((s, m)) = because {
                    let (want, got) = self.show_two(&ret_ty, &bt);
                    d.message = match &e {
                        crate::unify::UErr::Mismatch(a, b) => {
                            let unshared = crate::checker::unshared_constructors(
                                &self.u.zonk(a),
                                &self.u.zonk(b),
                            );
                            format!(
                                "Function body does not have expected type `{want}`: it has type `{got}`{unshared}"
                            )
                        }
                        crate::unify::UErr::NotIn(..) => {
                            format!(
                                "Function body does not have expected type `{want}`: it has type `{got}`"
                            )
                        }
                        _ => format!(
                            "Function body does not have expected type `{want}`: {}",
                            d.message
                        ),
                    };
                    d.primary.message = format!("the body has type `{got}`");
                    d = d.with_secondary(s, m);
                }
                self.report(d);
            } else if ret.is_some() {
                self.check_consuming_fun_arg(&bt, &ret_ty, body.span);
                ret_ty = self.share_anon_sizes(&ret_ty, &bt);
            } else if !params.is_empty() {
                // An unknown size the body makes is made anew by every application,
                // as if the result type were declared with `[]` there.
                ret_ty = hide_exists(&self.u.zonk(&ret_ty), exist_start);
            }
            self.check_unique_result(
                &bt,
                &bal,
                ret_unique,
                &ret_parts,
                &nonunique_params,
                body.span,
            );
            if !params.is_empty() {
                self.check_global_result(&bt, &bal, body.span);
            }
        }
        if recursive {
            let lifted: Vec<Uid> = tparams
                .iter()
                .filter_map(|p| match p {
                    TParam::Type(u, _, syntax::ast::Liftedness::Lifted) => Some(*u),
                    _ => None,
                })
                .collect();
            let higher_order = |t: &Ty| {
                let t = self.u.zonk(t);
                holds_function(&t) || matches!(&t, Ty::Param(u, _) if lifted.contains(u))
            };
            let f = crate::recursion::RecFun {
                name: &name.name,
                params: params
                    .iter()
                    .zip(&ptys)
                    .map(|(p, (t, ..))| (pat_ident(p).map(|i| i.name.clone()), higher_order(t)))
                    .collect(),
                ret_higher_order: holds_function(&self.u.zonk(&ret_ty)),
            };
            for d in crate::recursion::check(&f, body) {
                self.report(d);
            }
        }
        self.defining = None;
        self.depth -= 1;
        self.scope.truncate(mark);
        self.u.level -= 1;
        let mut ty = ret_ty;
        let n = ptys.len();
        for (i, (p, pname, unique, parts)) in ptys.into_iter().enumerate().rev() {
            let last = i + 1 == n;
            ty = Ty::Arrow(Box::new(Arrow {
                pname,
                param: p,
                ret: ty,
                consume: unique,
                ret_unique: ret_unique && last,
                consume_parts: parts,
                ret_parts: if last { ret_parts.clone() } else { Vec::new() },
            }));
        }
        if top {
            self.finish_top_level(Some(&ty));
        }
        let has_type_params = tparams.iter().any(|p| matches!(p, TParam::Type(..)));
        let mut eq_params = Vec::new();
        if top && self.diags.len() > errors_before {
            // Types left open by an error are not generalised (that would only cause
            // follow-up errors such as a polymorphic entry point).
            let mut vars = Vec::new();
            collect_vars(&self.u.zonk(&ty), &mut vars, &mut Vec::new());
            for v in vars {
                if self.u.info(v).is_some() {
                    self.u.vars[v as usize] = VarState::Bound(Ty::Error);
                }
            }
        }
        if top || !tps.is_empty() {
            self.generalise(&ty, size_start, &mut tparams, &mut eq_params);
        } else {
            // A local function without explicit type parameters is monomorphic in its
            // types: its type variables belong to the enclosing definition, and every
            // use must agree on them. Sizes are still generalised.
            self.lower_levels(&ty);
            self.generalise_sizes(&ty, size_start, &mut tparams);
        }
        let ty = self.u.zonk(&ty);
        self.check_size_params(tps, &tparams, params, ret);
        if top && self.diags.len() == errors_before {
            // A size that only the result has and that nothing in the definition
            // determined (`def main = rep 1`, with `rep` taking its size from the
            // context) would become a size parameter no call can know.
            let explicit = tps.len().min(tparams.len());
            for p in &tparams[explicit..] {
                if let TParam::Size(u, n) = p
                    && crate::checker::result_only(&ty, *u)
                    && ret.is_none()
                    && self.context_insts.iter().any(
                        |w| matches!(self.u.size(&Size::Var(*w)), Size::Named(x, _) if x == *u),
                    )
                {
                    self.report(
                        Diagnostic::error(
                            "T006",
                            format!(
                                "Ambiguous size \"{n}\": nothing in `{}` determines it",
                                name.name
                            ),
                            name.span,
                            "the size of this definition's result cannot be inferred",
                        )
                        .with_hint("add a return type that fixes the size, e.g. `: [3]i32`"),
                    );
                }
            }
        }
        FunResult {
            scheme: Scheme {
                params: tparams,
                eq_params,
                ty,
            },
            has_type_params,
        }
    }

    /// Gives anonymous sizes of a declared return type that the body shows to be equal
    /// one shared existential size, so that the caller knows the results agree.
    fn share_anon_sizes(&mut self, ret: &Ty, body: &Ty) -> Ty {
        let mut met: Vec<(Uid, Size)> = Vec::new();
        let (r, b) = (self.u.zonk(ret), self.u.zonk(body));
        hidden_meets(&r, &b, &self.anon_hidden, &mut met);
        let mut rename: Vec<(Uid, Uid)> = Vec::new();
        for (i, (h, s)) in met.iter().enumerate() {
            if rename.iter().any(|(k, _)| k == h) {
                continue;
            }
            if let Some((h0, _)) = met[..i].iter().find(|(h0, s0)| {
                h0 != h && (s0 == s || size_poly(s0).is_some_and(|p| Some(p) == size_poly(s)))
            }) {
                let to = rename
                    .iter()
                    .find(|(k, _)| k == h0)
                    .map_or(*h0, |(_, t)| *t);
                rename.push((*h, to));
            }
        }
        if rename.is_empty() {
            return ret.clone();
        }
        rename_hidden(&r, &rename)
    }

    /// Reports size parameters that neither a parameter type nor the return type
    /// mentions. A size used only in the return type (`def rep [n] 't (x: t) :
    /// [n]t`) is determined by the context of each call.
    fn check_size_params(
        &mut self,
        tps: &[TypeParam],
        tparams: &[TParam],
        params: &[Pat],
        ret: Option<&TypeExp>,
    ) {
        let mut used: Vec<syntax::ast::Name> = Vec::new();
        for p in params {
            pat_size_names(p, &mut used);
        }
        let in_params = used.len();
        if let Some(r) = ret {
            type_size_names(r, &mut used);
        }
        for tp in tps {
            if let TypeParam::Size(i) = tp
                && !used[..in_params].contains(&i.name)
                && used[in_params..].contains(&i.name)
                && let Some(TParam::Size(u, _)) = tparams
                    .iter()
                    .find(|p| matches!(p, TParam::Size(_, n) if *n == i.name))
            {
                crate::types::mark_context_size(*u);
            }
        }
        for tp in tps {
            if let TypeParam::Size(i) = tp
                && !used.contains(&i.name)
            {
                self.report(
                    Diagnostic::error(
                        "S002",
                        format!(
                            "Size parameter \"[{}]\" is unused: no parameter type and not the return type uses it",
                            i.name
                        ),
                        i.span,
                        "its value cannot be determined from the arguments",
                    )
                    .with_hint(format!(
                        "use `[{}]` in the type of a parameter, or remove it",
                        i.name
                    )),
                );
            }
        }
    }

    fn is_free(&self, uid: Uid) -> bool {
        self.scope.iter().any(|f| matches!(f, crate::checker::Frame::Local(_, l) if l.uid == uid && l.depth < self.depth))
    }

    fn local_name(&self, uid: Uid) -> Option<(syntax::ast::Name, syntax::Span)> {
        self.scope.iter().rev().find_map(|f| match f {
            crate::checker::Frame::Local(n, l) if l.uid == uid => Some((n.clone(), l.span)),
            _ => None,
        })
    }

    /// Gives the parameter bound last (a single name whose type is a tuple with
    /// individually marked components) one alias identity per component, consumable
    /// where the component is unique. The components are bound under the parameter's
    /// name but behind it, so they are named in messages and never found by lookup.
    /// Returns the components' identities.
    fn bind_param_components(&mut self, parts: &[bool]) -> Vec<Uid> {
        use crate::checker::{Al, Frame};
        let Some(Frame::Local(name, param)) = self.scope.last().cloned() else {
            return Vec::new();
        };
        let comps: Vec<Uid> = parts.iter().map(|_| fresh_uid()).collect();
        let at = self.scope.len() - 1;
        for (c, unique) in comps.iter().zip(parts) {
            let local = Local {
                uid: *c,
                ty: Ty::Error,
                scheme: None,
                aliases: vec![*c],
                consumable: *unique,
                parts: None,
                depth: param.depth,
                span: param.span,
            };
            self.scope
                .insert(at, Frame::Local(name.clone(), Box::new(local)));
        }
        if let Some(Frame::Local(_, l)) = self.scope.last_mut() {
            l.aliases.extend(comps.iter().copied());
            l.parts = Some(comps.iter().map(|c| Al::of(vec![*c])).collect());
        }
        comps
    }

    /// Checks that a function's unique result (or its unique components, `ret_parts`)
    /// shares no storage with a non-unique parameter, a free or top-level value, or
    /// another component of the result (U003).
    pub(crate) fn check_unique_result(
        &mut self,
        bt: &Ty,
        bal: &crate::checker::Al,
        ret_unique: bool,
        ret_parts: &[bool],
        nonunique_params: &[Uid],
        span: syntax::Span,
    ) {
        if !self.may_alias(bt) {
            return;
        }
        let parts: Option<Vec<Vec<Uid>>> = match &bal.parts {
            Some(ps) if ps.len() == ret_parts.len() => Some(ps.iter().map(|p| p.all()).collect()),
            _ => None,
        };
        let mut checks: Vec<Vec<Uid>> = Vec::new();
        if ret_unique {
            checks.push(bal.all());
        } else if ret_parts.iter().any(|u| *u) {
            match &parts {
                Some(ps) => {
                    for (p, u) in ps.iter().zip(ret_parts) {
                        if *u {
                            checks.push(p.clone());
                        }
                    }
                }
                None => checks.push(bal.all()),
            }
        }
        for set in checks {
            let bad = set.into_iter().find(|u| {
                *u == GLOBAL
                    || *u == crate::checker::UNKNOWN_FUN
                    || nonunique_params.contains(u)
                    || self.is_free(*u)
            });
            if let Some(u) = bad {
                let what = self.local_name(u);
                let why = if u == GLOBAL {
                    "a value defined at the top level".to_string()
                } else if u == crate::checker::UNKNOWN_FUN {
                    "the result of a function-typed parameter".to_string()
                } else if self.is_free(u) {
                    match &what {
                        Some((n, _)) => format!("\"{n}\", which is bound outside this function"),
                        None => "a value bound outside this function".to_string(),
                    }
                } else {
                    match &what {
                        Some((n, _)) => format!("the non-unique parameter \"{n}\""),
                        None => "a non-unique parameter".to_string(),
                    }
                };
                let mut d = Diagnostic::error(
                    "U003",
                    format!("A unique result is aliased by {why}"),
                    span,
                    "this result may share storage with a non-unique value",
                )
                .with_hint("return a copy (`copy x`) or make the parameter unique");
                if let Some((n, s)) = what {
                    d = d.with_secondary(s, format!("`{n}` is bound here"));
                }
                self.report(d);
                return;
            }
        }
        if let Some(ps) = parts {
            for (i, u) in ret_parts.iter().enumerate() {
                if !*u {
                    continue;
                }
                let shared = ps
                    .iter()
                    .enumerate()
                    .find(|(j, q)| *j != i && q.iter().any(|a| ps[i].contains(a)));
                if let Some((j, _)) = shared {
                    self.report(
                        Diagnostic::error(
                            "U003",
                            format!(
                                "Unique component {i} of the result aliases component {j}: \
                                 unique results may not share storage with other results"
                            ),
                            span,
                            "these results may share storage",
                        )
                        .with_hint("return a copy (`copy x`) for one of them"),
                    );
                    return;
                }
            }
        }
    }

    /// Quantifies the unbound variables of `ty` above the current level, and the size
    /// variables created since `size_start`.
    fn generalise(
        &mut self,
        ty: &Ty,
        size_start: usize,
        tparams: &mut Vec<TParam>,
        eq: &mut Vec<Uid>,
    ) {
        let z = self.u.zonk(ty);
        let mut vars = Vec::new();
        let mut sizes = Vec::new();
        collect_vars(&z, &mut vars, &mut sizes);
        let mut k = 0;
        for v in vars {
            let Some(info) = self.u.info(v).cloned() else {
                continue;
            };
            if info.level <= self.u.level || info.cons != Cons::None {
                continue;
            }
            let uid = fresh_uid();
            let name: syntax::ast::Name = format!("t{k}").into();
            k += 1;
            let l = if info.no_fun {
                Liftedness::Unlifted
            } else {
                Liftedness::Lifted
            };
            if info.eq {
                eq.push(uid);
            }
            tparams.push(TParam::Type(uid, name.clone(), l));
            self.u.vars[v as usize] = VarState::Bound(Ty::Param(uid, name));
        }
        self.quantify_sizes(sizes, size_start, tparams);
    }

    /// Quantifies only the size variables of `ty` created since `size_start`.
    fn generalise_sizes(&mut self, ty: &Ty, size_start: usize, tparams: &mut Vec<TParam>) {
        let mut sizes = Vec::new();
        collect_vars(&self.u.zonk(ty), &mut Vec::new(), &mut sizes);
        self.quantify_sizes(sizes, size_start, tparams);
    }

    /// Moves the unbound type variables of `ty` to the current level, so that an
    /// enclosing definition (and not an inner one) may generalise them.
    fn lower_levels(&mut self, ty: &Ty) {
        let mut vars = Vec::new();
        collect_vars(&self.u.zonk(ty), &mut vars, &mut Vec::new());
        let level = self.u.level;
        for v in vars {
            if let VarState::Unbound(info) = &mut self.u.vars[v as usize]
                && info.level > level
            {
                info.level = level;
            }
        }
    }

    /// Turns the given unbound size variables created since `size_start` into size
    /// parameters.
    fn quantify_sizes(&mut self, sizes: Vec<u32>, size_start: usize, tparams: &mut Vec<TParam>) {
        for (i, s) in sizes.into_iter().enumerate() {
            if (s as usize) < size_start || self.u.sizes[s as usize].is_some() {
                continue;
            }
            let uid = fresh_uid();
            let name: syntax::ast::Name = format!("n{i}").into();
            self.u.sizes[s as usize] = Some(Size::Named(uid, name.clone()));
            tparams.push(TParam::Size(uid, name));
        }
    }

    /// At the end of a top-level definition: defaults overloaded literals, reports
    /// ambiguous types, fixes sum types of unannotated constructors, and checks
    /// exhaustiveness of the pending matches, and reports the in-place updates whose
    /// value, of a type known only now, shares storage with the array updated.
    pub fn finish_top_level(&mut self, def_ty: Option<&Ty>) {
        let mut in_type = Vec::new();
        // The sizes of the definition's parameters: an application fixes
        // these, but not a size that appears only in the result type.
        let mut sizes_in_params = Vec::new();
        if let Some(t) = def_ty {
            let t = self.u.zonk(t);
            collect_vars(&t, &mut in_type, &mut Vec::new());
            param_size_vars(&t, &mut sizes_in_params);
        }
        for (v, span) in std::mem::take(&mut self.overloads) {
            let Ty::Var(r) = self.u.shallow(&Ty::Var(v)) else {
                continue;
            };
            let Some(info) = self.u.info(r).cloned() else {
                continue;
            };
            if let Cons::Prims { mask, default } = info.cons {
                let fallback = [PrimType::I32, PrimType::F64]
                    .into_iter()
                    .chain(PrimType::ALL)
                    .find(|p| mask & crate::unify::prim_bit(*p) != 0);
                let default = match default {
                    Some(p) => Some(p),
                    None if in_type.contains(&r) => {
                        if let Some(p) = fallback {
                            let mut d = Diagnostic::error(
                                "W003",
                                format!(
                                    "ambiguous type: this could be {}; the definition is given `{p}`",
                                    describe_mask(mask)
                                ),
                                span,
                                "the type of this is not determined",
                            )
                            .with_hint("annotate the definition's parameters or result");
                            d.severity = syntax::Severity::Warning;
                            self.report(d);
                        }
                        fallback
                    }
                    None => None,
                };
                match default {
                    Some(p) => self.u.vars[r as usize] = VarState::Bound(Ty::Prim(p)),
                    None => {
                        self.report(
                            Diagnostic::error(
                                "T006",
                                format!("ambiguous type: this could be {}", describe_mask(mask)),
                                span,
                                "the type of this cannot be determined",
                            )
                            .with_hint("add a type annotation"),
                        );
                        self.u.vars[r as usize] = VarState::Bound(Ty::Error);
                    }
                }
            }
        }
        for (t, target, span) in std::mem::take(&mut self.update_sources) {
            let t = self.u.zonk(&t);
            if self.may_alias(&t) {
                self.report_update_source(&target, span);
            }
        }
        for (t, span) in std::mem::take(&mut self.eq_uses) {
            let t = self.u.zonk(&t);
            if holds_array(&t) {
                let mut d = Diagnostic::error(
                    "W002",
                    format!("comparing values of type `{t}`, which hold arrays, with `==` or `!=` is deprecated"),
                    span,
                    "compares arrays",
                )
                .with_hint("compare the elements, e.g. `and (map2 (==) xs ys)` for arrays of one size");
                d.severity = syntax::Severity::Warning;
                self.report(d);
            }
        }
        for (v, span) in std::mem::take(&mut self.open_records) {
            let Ty::Var(r) = self.u.shallow(&Ty::Var(v)) else {
                continue;
            };
            let Some(info) = self.u.info(r).cloned() else {
                continue;
            };
            match info.cons {
                Cons::Constrs(mut cs) => {
                    cs.sort_by(|a, b| a.0.cmp(&b.0));
                    self.u.vars[r as usize] = VarState::Bound(Ty::Sum(cs));
                }
                Cons::Fields(fs) => {
                    let names: Vec<String> = fs.iter().map(|(n, _)| n.to_string()).collect();
                    self.report(
                        Diagnostic::error(
                            "T006",
                            format!(
                                "ambiguous type: a record with field{} {} of unknown type",
                                if names.len() == 1 { "" } else { "s" },
                                names.join(", ")
                            ),
                            span,
                            "the type of this cannot be determined",
                        )
                        .with_hint("add a type annotation"),
                    );
                    self.u.vars[r as usize] = VarState::Bound(Ty::Error);
                }
                _ => {}
            }
        }
        for (v, span) in std::mem::take(&mut self.empty_arrays) {
            let Ty::Var(r) = self.u.shallow(&Ty::Var(v)) else {
                continue;
            };
            if in_type.contains(&r) {
                continue;
            }
            self.report(
                Diagnostic::error(
                    "T006",
                    "ambiguous type: the element type of this empty array is never determined",
                    span,
                    "the type of this cannot be determined",
                )
                .with_hint("add a type annotation, e.g. `[] : []i32`"),
            );
            self.u.vars[r as usize] = VarState::Bound(Ty::Error);
        }
        let mut reported = Vec::new();
        for (v, span) in std::mem::take(&mut self.coerce_sizes) {
            if !matches!(self.u.size(&Size::Var(v)), Size::Var(_)) || reported.contains(&span) {
                continue;
            }
            reported.push(span);
            self.report(
                Diagnostic::error(
                    "T006",
                    "Ambiguous size arising from an anonymous size in type expression: nothing determines the size `[]` of this coercion",
                    span,
                    "the anonymous size of this type cannot be inferred",
                )
                .with_hint("name the size in the type (`[n]t`) or remove the coercion"),
            );
            self.u.sizes[v as usize] = Some(Size::Any);
        }
        let mut reported = Vec::new();
        let mut checks = std::mem::take(&mut self.inst_checks);
        let mark = self.def_diag_mark;
        if self.diags[mark.min(self.diags.len())..]
            .iter()
            .any(|d| d.severity == syntax::diag::Severity::Error)
        {
            checks.clear();
        }
        let made: Vec<Size> = checks
            .iter()
            .filter(|c| !c.4)
            .map(|c| self.u.size(&Size::Var(c.0)))
            .collect();
        for (v, name, fun, span, in_params) in checks {
            let Size::Var(w) = self.u.size(&Size::Var(v)) else {
                continue;
            };
            if !in_params
                || sizes_in_params.contains(&w)
                || made.contains(&Size::Var(w))
                || reported.contains(&span)
            {
                continue;
            }
            reported.push(span);
            self.report(
                Diagnostic::error(
                    "T006",
                    format!(
                        "Ambiguous size \"{name}\" arising from instantiation of \"{fun}\": nothing determines it"
                    ),
                    span,
                    format!("the size `{name}` of this use of `{fun}` cannot be inferred"),
                )
                .with_hint("add a type annotation that fixes this size, e.g. `(unflatten xs : [2][3]f64)`"),
            );
            self.u.sizes[w as usize] = Some(Size::Any);
        }
        for m in std::mem::take(&mut self.pending) {
            self.check_pending(&m);
        }
        self.def_diag_mark = self.diags.len();
    }

    fn check_pending(&mut self, m: &PendingMatch) {
        let ty = self.u.zonk(&m.ty);
        if has_error(&ty) {
            return;
        }
        let pats: Vec<_> = m
            .pats
            .iter()
            .map(|p| simplify(p, &zonk_deep(self, &ty)))
            .collect();
        if let Some(w) = unmatched(&pats, &zonk_deep(self, &ty)) {
            let d = if m.is_let {
                Diagnostic::error(
                    "T005",
                    "refutable pattern in a binding",
                    m.span,
                    format!("the value `{w}` is not matched"),
                )
                .with_hint("use `match` to handle every case")
            } else {
                Diagnostic::error(
                    "T005",
                    format!("Unmatched cases in `match`: {w}"),
                    m.span,
                    format!("the value `{w}` is not matched by any case"),
                )
                .with_hint(format!("add a case for `{w}` or a catch-all case `_`"))
            };
            self.report(d);
        }
    }
}

fn zonk_deep(c: &Checker<'_>, t: &Ty) -> Ty {
    c.u.zonk(t)
}

fn has_error(t: &Ty) -> bool {
    match t {
        Ty::Error => true,
        Ty::Array(e, _) => has_error(e),
        Ty::Tuple(ts) => ts.iter().any(has_error),
        Ty::Record(fs) => fs.iter().any(|(_, t)| has_error(t)),
        Ty::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(has_error)),
        _ => false,
    }
}

/// Whether a parameter pattern is declared unique at its top (`(x: *t)`).
fn pat_is_unique(p: &Pat) -> bool {
    use syntax::ast::{PatKind, TypeExpKind};
    match &p.kind {
        PatKind::Ascribed(q, te) => matches!(te.kind, TypeExpKind::Unique(_)) || pat_is_unique(q),
        PatKind::Attr(_, q) => pat_is_unique(q),
        _ => false,
    }
}

/// The uniqueness of each component of a tuple parameter whose components are marked
/// individually (`(p: (i64, *[]i64))` or `(a: i64, b: *[]i64)`); empty otherwise.
fn param_unique_parts(p: &Pat) -> Vec<bool> {
    use syntax::ast::PatKind;
    match &p.kind {
        PatKind::Ascribed(q, te) => {
            let parts = crate::typeexp::unique_parts(te);
            if parts.is_empty() {
                param_unique_parts(q)
            } else {
                parts
            }
        }
        PatKind::Attr(_, q) => param_unique_parts(q),
        PatKind::Tuple(ps) if ps.len() == 1 => param_unique_parts(&ps[0]),
        PatKind::Tuple(ps) if ps.iter().any(pat_is_unique) => {
            ps.iter().map(pat_is_unique).collect()
        }
        _ => Vec::new(),
    }
}

/// Collects the unification variables (types and sizes) of a zonked type.
pub fn collect_vars(t: &Ty, vars: &mut Vec<u32>, sizes: &mut Vec<u32>) {
    match t {
        Ty::Var(v) if !vars.contains(v) => vars.push(*v),
        Ty::Array(e, s) => {
            for d in s {
                size_vars(d, sizes);
            }
            collect_vars(e, vars, sizes);
        }
        Ty::Tuple(ts) => ts.iter().for_each(|t| collect_vars(t, vars, sizes)),
        Ty::Record(fs) => fs.iter().for_each(|(_, t)| collect_vars(t, vars, sizes)),
        Ty::Sum(cs) => cs
            .iter()
            .for_each(|(_, ts)| ts.iter().for_each(|t| collect_vars(t, vars, sizes))),
        Ty::Arrow(a) => {
            collect_vars(&a.param, vars, sizes);
            collect_vars(&a.ret, vars, sizes);
        }
        Ty::Abs(_, _, args) => {
            for a in args {
                match a {
                    TyArg::Ty(t) => collect_vars(t, vars, sizes),
                    TyArg::Size(d) => size_vars(d, sizes),
                }
            }
        }
        _ => {}
    }
}

/// Collects the size variables of the parameter types of a (zonked)
/// function type, through every arrow of a curried function; the type of
/// a definition that is not a function counts as a parameter whole.
fn param_size_vars(t: &Ty, sizes: &mut Vec<u32>) {
    let mut vars = Vec::new();
    match t {
        Ty::Arrow(_) => {
            let mut t = t;
            while let Ty::Arrow(a) = t {
                collect_vars(&a.param, &mut vars, sizes);
                t = &a.ret;
            }
        }
        _ => collect_vars(t, &mut vars, sizes),
    }
}

/// Collects the size variables of a (zonked) size.
fn size_vars(s: &Size, sizes: &mut Vec<u32>) {
    match s {
        Size::Var(v) if !sizes.contains(v) => sizes.push(*v),
        Size::Op(_, a, b) => {
            size_vars(a, sizes);
            size_vars(b, sizes);
        }
        _ => {}
    }
}

/// Collects the names used in size positions of the type annotations in a pattern.
/// Replaces each unknown size ([`Size::Exist`]) made at or after `start` in a result
/// type by an existential size of the declared type ([`Size::Hidden`]) of the same
/// identity, which each application of the function replaces by a fresh unknown size.
fn hide_exists(t: &Ty, start: Uid) -> Ty {
    crate::types::map_sizes(t, &mut |s| match s {
        Size::Exist(u) if *u >= start => Size::Hidden(*u),
        s => s.clone(),
    })
}

pub(crate) fn pat_size_names(p: &Pat, out: &mut Vec<syntax::ast::Name>) {
    use syntax::ast::PatKind;
    match &p.kind {
        PatKind::Ascribed(q, te) => {
            type_size_names(te, out);
            pat_size_names(q, out);
        }
        PatKind::Tuple(ps) | PatKind::Constructor(_, ps) => {
            ps.iter().for_each(|q| pat_size_names(q, out))
        }
        PatKind::Record(fs) => fs.iter().for_each(|(_, q)| pat_size_names(q, out)),
        PatKind::Attr(_, q) => pat_size_names(q, out),
        _ => {}
    }
}

fn type_size_names(te: &TypeExp, out: &mut Vec<syntax::ast::Name>) {
    use syntax::ast::{TypeArg, TypeExpKind};
    match &te.kind {
        TypeExpKind::Var(_, args) => {
            for a in args {
                match a {
                    TypeArg::Size(Some(e), _) => expr_names(e, out),
                    TypeArg::Size(None, _) => {}
                    TypeArg::Type(t) => type_size_names(t, out),
                }
            }
        }
        TypeExpKind::Tuple(ts) => ts.iter().for_each(|t| type_size_names(t, out)),
        TypeExpKind::Record(fs) => fs.iter().for_each(|(_, t)| type_size_names(t, out)),
        TypeExpKind::Array(s, t) => {
            if let Some(e) = s {
                expr_names(e, out);
            }
            type_size_names(t, out);
        }
        TypeExpKind::Sum(cs) => cs
            .iter()
            .for_each(|(_, ts)| ts.iter().for_each(|t| type_size_names(t, out))),
        TypeExpKind::Arrow(_, a, b) => {
            type_size_names(a, out);
            type_size_names(b, out);
        }
        TypeExpKind::Unique(t) | TypeExpKind::Existential(_, t) => type_size_names(t, out),
    }
}

fn expr_names(e: &Expr, out: &mut Vec<syntax::ast::Name>) {
    match &e.kind {
        ExprKind::Var(qn) if qn.quals.is_empty() => out.push(qn.name.name.clone()),
        ExprKind::BinOp(_, a, b) => {
            expr_names(a, out);
            expr_names(b, out);
        }
        ExprKind::Parens(a) | ExprKind::Neg(a) => expr_names(a, out),
        ExprKind::Apply(f, args) => {
            expr_names(f, out);
            args.iter().for_each(|a| expr_names(a, out));
        }
        _ => {}
    }
}

/// Pairs each anonymous existential size (in `anon`) of a declared type with the size at
/// the same place in the type of the value it describes (sizes not known at all are
/// left out).
fn hidden_meets(decl: &Ty, val: &Ty, anon: &[Uid], out: &mut Vec<(Uid, Size)>) {
    match (decl, val) {
        (Ty::Array(e1, s1), Ty::Array(e2, s2)) if s1.len() == s2.len() => {
            for (d, v) in s1.iter().zip(s2) {
                if let Size::Hidden(h) = d
                    && anon.contains(h)
                    && !matches!(v, Size::Any)
                {
                    out.push((*h, v.clone()));
                }
            }
            hidden_meets(e1, e2, anon, out);
        }
        (Ty::Tuple(a), Ty::Tuple(b)) if a.len() == b.len() => {
            for (x, y) in a.iter().zip(b) {
                hidden_meets(x, y, anon, out);
            }
        }
        (Ty::Record(a), Ty::Record(b)) if a.len() == b.len() => {
            for ((n, x), (m, y)) in a.iter().zip(b) {
                if n == m {
                    hidden_meets(x, y, anon, out);
                }
            }
        }
        _ => {}
    }
}

/// Replaces existential sizes of a type by others, as listed in `map`.
fn rename_hidden(t: &Ty, map: &[(Uid, Uid)]) -> Ty {
    match t {
        Ty::Array(e, s) => make_array(
            rename_hidden(e, map),
            s.iter()
                .map(|d| match d {
                    Size::Hidden(h) => {
                        Size::Hidden(map.iter().find(|(k, _)| k == h).map_or(*h, |(_, v)| *v))
                    }
                    d => d.clone(),
                })
                .collect(),
        ),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| rename_hidden(t, map)).collect()),
        Ty::Record(fs) => Ty::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), rename_hidden(t, map)))
                .collect(),
        ),
        t => t.clone(),
    }
}

/// A type with every size variable replaced by the unknown size [`Size::Any`].
fn any_size_vars(t: &Ty) -> Ty {
    let fix = |s: &Size| {
        if crate::types::size_has_var(s) {
            Size::Any
        } else {
            s.clone()
        }
    };
    match t {
        Ty::Array(e, s) => make_array(any_size_vars(e), s.iter().map(fix).collect()),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(any_size_vars).collect()),
        Ty::Record(fs) => Ty::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), any_size_vars(t)))
                .collect(),
        ),
        Ty::Sum(cs) => Ty::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(any_size_vars).collect()))
                .collect(),
        ),
        Ty::Arrow(a) => Ty::Arrow(Box::new(Arrow {
            pname: a.pname.clone(),
            param: any_size_vars(&a.param),
            ret: any_size_vars(&a.ret),
            consume: a.consume,
            ret_unique: a.ret_unique,
            consume_parts: a.consume_parts.clone(),
            ret_parts: a.ret_parts.clone(),
        })),
        Ty::Abs(u, n, args) => Ty::Abs(
            *u,
            n.clone(),
            args.iter()
                .map(|a| match a {
                    TyArg::Ty(t) => TyArg::Ty(any_size_vars(t)),
                    TyArg::Size(s) => TyArg::Size(fix(s)),
                })
                .collect(),
        ),
        t => t.clone(),
    }
}

/// Does a value of type `t` hold an array (itself, or in a component)?
pub(crate) fn holds_array(t: &Ty) -> bool {
    match t {
        Ty::Array(..) => true,
        Ty::Tuple(ts) => ts.iter().any(holds_array),
        Ty::Record(fs) => fs.iter().any(|(_, t)| holds_array(t)),
        Ty::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(holds_array)),
        _ => false,
    }
}

/// Does a value of type `t` hold a function (itself, or in a component)?
pub(crate) fn holds_function(t: &Ty) -> bool {
    match t {
        Ty::Arrow(..) => true,
        Ty::Tuple(ts) => ts.iter().any(holds_function),
        Ty::Record(fs) => fs.iter().any(|(_, t)| holds_function(t)),
        Ty::Sum(cs) => cs.iter().any(|(_, ts)| ts.iter().any(holds_function)),
        _ => false,
    }
}
