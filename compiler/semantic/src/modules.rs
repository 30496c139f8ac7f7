//! The module system: declarations, module expressions, module types, signature
//! matching, ascription and functor application.

use crate::checker::Checker;
use crate::env::{AbsInfo, Env, Functor, ModVal, SigVal, ValInfo, subst_env, subst_sig};
use crate::typeexp::{AnonSize, qn_string};
use crate::types::{
    Scheme, Size, Subst, SubstTarget, TParam, Ty, TyArg, TypeDef, Uid, fresh_uid, size_has_var,
    subst_ty,
};
use std::sync::Arc;
use syntax::Diagnostic;
use syntax::ast::{
    Dec, DecKind, Ident, Liftedness, ModBind, ModExp, ModExpKind, Name, PrimType, QualName, SigExp,
    SigExpKind, Span, Spec, SpecKind, TypeBind, ValBind,
};

impl Checker<'_> {
    /// Reports a name defined twice in one namespace (value, type, module or module
    /// type) by the declarations of one level (`local` declarations included; `entry`
    /// and `def` share the value namespace).
    fn check_duplicate_decs(&mut self, decs: &[Dec]) {
        fn walk<'d>(d: &'d Dec, out: &mut Vec<(&'static str, &'d Ident)>) {
            match &d.kind {
                DecKind::Val(v) => out.push(("value", &v.name)),
                DecKind::Type(t) => out.push(("type", &t.name)),
                DecKind::Mod(m) => out.push(("module", &m.name)),
                DecKind::Sig(s) => out.push(("module type", &s.name)),
                DecKind::Local(d) => walk(d, out),
                DecKind::Open(_) | DecKind::Import(..) => {}
            }
        }
        let mut names = Vec::new();
        for d in decs {
            walk(d, &mut names);
        }
        // The first definition of each name in each namespace (a map: the
        // number of declarations of a file may be large).
        let mut first: std::collections::HashMap<(&str, &str), &Ident> =
            std::collections::HashMap::new();
        for (space, id) in &names {
            let prev = *first.entry((*space, &*id.name)).or_insert(*id);
            if !std::ptr::eq(prev, *id) {
                self.report(
                    Diagnostic::error(
                        "T010",
                        format!("Duplicate definition of {space} \"{}\"", id.name),
                        id.span,
                        "defined again here",
                    )
                    .with_secondary(prev.span, "previously defined here")
                    .with_hint("rename one of the definitions"),
                );
            }
        }
    }

    /// Checks a list of declarations in a new scope level; returns what they export.
    /// `top` marks the file's own top level (where entry points live).
    pub fn check_decs(&mut self, decs: &[Dec], top: bool) -> Env {
        self.check_duplicate_decs(decs);
        let mark = self.scope.len();
        self.push_env();
        let mut exports = Env::default();
        for d in decs {
            self.check_dec(d, top, true, &mut exports);
        }
        self.scope.truncate(mark);
        exports
    }

    fn check_dec(&mut self, d: &Dec, top: bool, export: bool, exports: &mut Env) {
        match &d.kind {
            DecKind::Val(vb) => self.check_valbind(vb, top, export, exports),
            DecKind::Type(tb) => {
                let def = self.check_typebind(tb);
                let def = Arc::new(def);
                self.own_env()
                    .types
                    .insert(tb.name.name.clone(), def.clone());
                if export {
                    exports.types.insert(tb.name.name.clone(), def);
                }
            }
            DecKind::Mod(mb) => {
                let m = self.check_modbind(mb);
                if let Some(m) = m {
                    let m = Arc::new(m);
                    self.own_env().mods.insert(mb.name.name.clone(), m.clone());
                    if export {
                        exports.mods.insert(mb.name.name.clone(), m);
                    }
                }
            }
            DecKind::Sig(sb) => {
                if let Some(s) = self.elab_sig(&sb.sig) {
                    self.own_env().sigs.insert(sb.name.name.clone(), s.clone());
                    if export {
                        exports.sigs.insert(sb.name.name.clone(), s);
                    }
                }
            }
            DecKind::Open(me) => {
                if let Some(m) = self.eval_mod(me)
                    && let Some(env) = self.struct_env(&m, me.span)
                {
                    if export {
                        exports.extend(&env);
                    }
                    self.open_env(env);
                    self.push_env();
                }
            }
            DecKind::Local(inner) => self.check_dec(inner, top, false, exports),
            DecKind::Import(path, span) => {
                if let Some(env) = self.import_env(path, *span) {
                    if export {
                        exports.extend(&env);
                    }
                    self.open_env(env);
                    self.push_env();
                }
            }
        }
    }

    fn import_env(&mut self, path: &str, span: Span) -> Option<Arc<Env>> {
        match self.imports.get(path) {
            Some(f) => Some(f.env.clone()),
            None => {
                self.report(Diagnostic::error(
                    "I001",
                    format!("import not found: \"{path}\""),
                    span,
                    "no such file",
                ));
                None
            }
        }
    }

    fn struct_env(&mut self, m: &ModVal, span: Span) -> Option<Arc<Env>> {
        match m {
            ModVal::Struct(e) => Some(e.clone()),
            ModVal::Functor(_) => {
                self.report(Diagnostic::error(
                    "T008",
                    "a parametric module cannot be opened",
                    span,
                    "apply it to a module first",
                ));
                None
            }
        }
    }

    fn check_valbind(&mut self, vb: &ValBind, top: bool, export: bool, exports: &mut Env) {
        if matches!(&*vb.name.name, "&&" | "||") {
            self.report(
                Diagnostic::error(
                    "T015",
                    format!(
                        "The operator `{}` may not be redefined: it is built in and \
                         short-circuits",
                        vb.name.name
                    ),
                    vb.name.span,
                    "defined here",
                )
                .with_hint("give the function another name"),
            );
        }
        let f = self.check_fun(
            &vb.name,
            &vb.type_params,
            &vb.params,
            vb.ret.as_ref(),
            &vb.body,
            true,
        );
        if top && vb.entry {
            self.check_entry(vb, &f);
        } else if top {
            self.last_main = if &*vb.name.name == "main" {
                Some((vb.clone(), f.scheme.clone(), f.has_type_params))
            } else {
                self.last_main.take()
            };
        }
        // A module-level `i64` constant can be used as a size: it denotes the size of
        // its body when that is known symbolically, and a name of its own otherwise.
        let size = (vb.params.is_empty()
            && vb.type_params.is_empty()
            && f.scheme.params.is_empty()
            && matches!(self.u.zonk(&f.scheme.ty), Ty::Prim(PrimType::I64)))
        .then(|| match self.size_of_arg(&vb.body) {
            s @ (Size::Const(_) | Size::Named(..) | Size::Op(..)) if !size_has_var(&s) => s,
            _ => Size::Named(fresh_uid(), vb.name.name.clone()),
        });
        let info = Arc::new(ValInfo {
            scheme: f.scheme,
            span: vb.name.span,
            size,
        });
        self.own_env()
            .vals
            .insert(vb.name.name.clone(), info.clone());
        if export {
            exports.vals.insert(vb.name.name.clone(), info);
        }
    }

    /// Checks a type abbreviation.
    pub fn check_typebind(&mut self, tb: &TypeBind) -> TypeDef {
        let mark = self.scope.len();
        let params = self.bind_type_params(&tb.params);
        let ty = self.resolve_ty(&tb.def, AnonSize::Any);
        let ty = self.u.zonk(&ty);
        self.scope.truncate(mark);
        let aligned = tb.params.len() == params.len();
        for (tp, p) in tb.params.iter().zip(&params) {
            if aligned
                && let (syntax::ast::TypeParam::Size(i), TParam::Size(uid, _)) = (tp, p)
                && !crate::types::ty_mentions(&ty, *uid)
                && !matches!(ty, Ty::Error)
            {
                self.report(
                    Diagnostic::error(
                        "T011",
                        format!(
                            "Size parameter \"[{}]\" of type abbreviation `{}` is unused",
                            i.name, tb.name.name
                        ),
                        i.span,
                        "not used in the definition",
                    )
                    .with_hint("remove the size parameter or use it in the type"),
                );
            }
        }
        if let Some(span) = anon_size_in_arrow(&tb.def, false) {
            self.report(
                Diagnostic::error(
                    "S002",
                    format!(
                        "type abbreviation `{}` has an anonymous size in a function parameter type",
                        tb.name.name
                    ),
                    span,
                    "this size is anonymous",
                )
                .with_hint(format!(
                    "name it with a size parameter: `type^ {} [n] = ... [n] ...`",
                    tb.name.name
                )),
            );
        }
        if tb.liftedness != Liftedness::Lifted && ty.has_arrow() {
            self.report(
                Diagnostic::error(
                    "T011",
                    format!(
                        "type `{}` contains a function type but is not declared lifted",
                        tb.name.name
                    ),
                    tb.def.span,
                    "this is functional",
                )
                .with_hint(format!("declare it as `type^ {}`", tb.name.name)),
            );
        }
        TypeDef {
            params,
            ty,
            liftedness: tb.liftedness,
        }
    }

    fn check_modbind(&mut self, mb: &ModBind) -> Option<ModVal> {
        if mb.params.is_empty() {
            let m = self.eval_mod(&mb.body)?;
            return match &mb.sig {
                Some(s) => {
                    let sig = self.elab_sig(s)?;
                    self.ascribe(&m, &sig, mb.body.span)
                }
                None => Some(m),
            };
        }
        let params: Vec<(Name, &SigExp)> = mb
            .params
            .iter()
            .map(|p| (p.name.name.clone(), &p.sig))
            .collect();
        self.make_functor(&params, mb.sig.as_ref(), &mb.body)
    }

    /// Binds a module parameter, seen through its module type with fresh abstract
    /// types, in the innermost scope: a structure, or an abstract functor for a
    /// functor type.
    fn bind_mod_param(&mut self, name: &Name, sig: &SigVal) {
        let (fresh, _) = freshen(sig);
        let m = match &fresh {
            SigVal::Functor(pname, a, b) => Some(ModVal::Functor(Arc::new(Functor {
                params: vec![(pname.clone(), a.clone())],
                param_exps: Vec::new(),
                bound: Vec::new(),
                ret: Some(b.clone()),
                ret_exp: None,
                body: None,
                closure: Vec::new(),
            }))),
            _ => sig_as_module(&fresh),
        };
        if let Some(m) = m {
            self.own_env().mods.insert(name.clone(), Arc::new(m));
        }
    }

    /// Builds a functor value: elaborates the parameters' module types (each with the
    /// earlier parameters in scope) and the result signature (with all of them in
    /// scope), and checks the body once with abstract parameters.
    fn make_functor(
        &mut self,
        params: &[(Name, &SigExp)],
        ret: Option<&SigExp>,
        body: &ModExp,
    ) -> Option<ModVal> {
        let closure: Vec<Arc<Env>> = self
            .scope
            .iter()
            .filter_map(|f| match f {
                crate::checker::Frame::Env(e, _) => Some(e.clone()),
                crate::checker::Frame::Local(..) => None,
            })
            .collect();
        let mark = self.scope.len();
        self.push_env();
        let mut vals = Vec::new();
        for (n, se) in params {
            let Some(s) = self.elab_sig(se) else {
                self.scope.truncate(mark);
                return None;
            };
            self.bind_mod_param(n, &s);
            vals.push((n.clone(), s));
        }
        let ret_val = match ret {
            Some(r) => match self.elab_sig(r) {
                Some(v) => Some(v),
                None => {
                    self.scope.truncate(mark);
                    return None;
                }
            },
            None => None,
        };
        let res = self.eval_mod(body);
        if let (Some(m), Some(r)) = (&res, &ret_val) {
            self.ascribe(m, r, body.span);
        }
        self.scope.truncate(mark);
        Some(ModVal::Functor(Arc::new(Functor {
            params: vals,
            param_exps: params.iter().map(|(_, e)| Arc::new((*e).clone())).collect(),
            bound: Vec::new(),
            ret: ret_val,
            ret_exp: ret.map(|r| Arc::new(r.clone())),
            body: Some(Arc::new(body.clone())),
            closure,
        })))
    }

    /// Evaluates a module expression.
    pub fn eval_mod(&mut self, me: &ModExp) -> Option<ModVal> {
        match &me.kind {
            ModExpKind::Var(qn)
                if qn.quals.is_empty()
                    && qn.name.name.as_ref() == "intrinsics"
                    && self.mod_is_prelude("intrinsics") =>
            {
                self.report(
                    Diagnostic::error(
                        "T008",
                        "The 'intrinsics' module may not be used in module expressions.",
                        qn.span(),
                        "the prelude's `intrinsics`",
                    )
                    .with_hint("use its members by name, e.g. `intrinsics.acc_write`"),
                );
                None
            }
            ModExpKind::Var(qn) => self.lookup_mod_qn(qn).map(|m| (*m).clone()),
            ModExpKind::Parens(m) => self.eval_mod(m),
            ModExpKind::Import(path) => self.import_env(path, me.span).map(ModVal::Struct),
            ModExpKind::Struct(decs) => {
                let env = self.check_decs(decs, false);
                Some(ModVal::Struct(Arc::new(env)))
            }
            ModExpKind::Ascribe(m, s) => {
                let m = self.eval_mod(m)?;
                let sig = self.elab_sig(s)?;
                self.ascribe(&m, &sig, me.span)
            }
            ModExpKind::Apply(f, a) => {
                let fv = self.eval_mod(f)?;
                let av = self.eval_mod(a)?;
                self.apply_functor(&fv, &av, a.span, f.span)
            }
            ModExpKind::Lambda(p, ret, body) => {
                self.make_functor(&[(p.name.name.clone(), &p.sig)], ret.as_ref(), body)
            }
        }
    }

    fn lookup_mod_qn(&mut self, qn: &QualName) -> Option<Arc<ModVal>> {
        if qn.quals.is_empty() {
            let m = self.lookup_mod(&qn.name.name);
            if m.is_none() {
                let cands = self.all_names(|e| e.mods.keys().cloned().collect());
                let d = Diagnostic::error(
                    "T001",
                    format!("unknown module `{}`", qn.name.name),
                    qn.name.span,
                    "not defined",
                );
                let d = crate::checker::with_suggestion(d, &qn.name.name, &cands);
                self.report(d);
            }
            return m;
        }
        let env = self.resolve_quals(&qn.quals)?;
        let m = env.mods.get(&qn.name.name).cloned();
        if m.is_none() {
            self.report(Diagnostic::error(
                "T001",
                format!("unknown module `{}`", qn_string(qn)),
                qn.span(),
                "not defined",
            ));
        }
        m
    }

    fn apply_functor(
        &mut self,
        f: &ModVal,
        arg: &ModVal,
        aspan: Span,
        fspan: Span,
    ) -> Option<ModVal> {
        let ModVal::Functor(func) = f else {
            self.report(Diagnostic::error(
                "T008",
                "this module is not parametric and cannot be applied",
                fspan,
                "not a parametric module",
            ));
            return None;
        };
        let (pname, psig) = func.params.first()?;
        // A parameter's module type may mention earlier parameters: elaborate it again
        // with the arguments given so far.
        let psig = match func.param_exps.first() {
            Some(e) if !func.bound.is_empty() => {
                let saved = self.enter_functor_scope(func, &func.bound);
                let s = self.elab_sig(e);
                self.leave_functor_scope(saved);
                s.unwrap_or_else(|| psig.clone())
            }
            _ => psig.clone(),
        };
        if func.body.is_none()
            && func.params.len() == 1
            && let (ModVal::Struct(env), Some(ret)) = (arg, &func.ret)
        {
            // An abstract functor: the result is a module of its result signature,
            // where the parameter's abstract types are the argument's.
            let sub = self.match_sig(env, &psig, aspan)?;
            let (fresh, _) = freshen(&subst_sig(ret, &sub));
            return sig_as_module(&fresh);
        }
        let restricted = self.restrict(arg, &psig, aspan)?;
        let mut bound = func.bound.clone();
        bound.push((pname.clone(), Arc::new(restricted)));
        if func.params.len() > 1 {
            return Some(ModVal::Functor(Arc::new(Functor {
                params: func.params[1..].to_vec(),
                param_exps: func.param_exps.get(1..).unwrap_or_default().to_vec(),
                bound,
                ret: func.ret.clone(),
                ret_exp: func.ret_exp.clone(),
                body: func.body.clone(),
                closure: func.closure.clone(),
            })));
        }
        let Some(body) = &func.body else {
            // An abstract functor: the result is a module of its result signature.
            let (fresh, _) = freshen(func.ret.as_deref()?);
            return sig_as_module(&fresh);
        };
        // Re-check the body with the arguments bound, and ascribe the result signature
        // elaborated with the arguments in scope.
        let saved = self.enter_functor_scope(func, &bound);
        let ret = match &func.ret_exp {
            Some(e) => self.elab_sig(e).or_else(|| func.ret.clone()),
            None => func.ret.clone(),
        };
        let res = self.eval_mod(body);
        let res = match (res, &ret) {
            (Some(m), Some(r)) => self.ascribe(&m, r, aspan),
            (r, _) => r,
        };
        self.leave_functor_scope(saved);
        res
    }

    /// Replaces the scope by a functor's closure with the given arguments bound, quietly
    /// (the functor was checked where it was defined); returns what to restore.
    fn enter_functor_scope(
        &mut self,
        func: &Functor,
        bound: &[(Name, Arc<ModVal>)],
    ) -> (Vec<crate::checker::Frame>, Vec<crate::expr::PendingMatch>) {
        let saved_scope = std::mem::take(&mut self.scope);
        let saved_pending = std::mem::take(&mut self.pending);
        for e in &func.closure {
            self.scope
                .push(crate::checker::Frame::Env(e.clone(), false));
        }
        self.push_env();
        for (n, m) in bound {
            self.own_env().mods.insert(n.clone(), m.clone());
        }
        self.quiet += 1;
        (saved_scope, saved_pending)
    }

    /// Restores the scope saved by [`Checker::enter_functor_scope`].
    fn leave_functor_scope(
        &mut self,
        saved: (Vec<crate::checker::Frame>, Vec<crate::expr::PendingMatch>),
    ) {
        self.quiet -= 1;
        self.scope = saved.0;
        self.pending = saved.1;
    }

    /// Matches a module against a signature and returns the module seen through it
    /// with its abstract types made concrete (functor arguments).
    fn restrict(&mut self, m: &ModVal, sig: &SigVal, span: Span) -> Option<ModVal> {
        match (m, sig) {
            (ModVal::Struct(env), SigVal::Specs { env: senv, .. }) => {
                let sub = self.match_sig(env, sig, span)?;
                let mut out = subst_env(senv, &sub);
                // Keep the module's own (more general) values and types where the
                // signature mentions them.
                for k in senv.vals.keys() {
                    if let Some(v) = env.vals.get(k) {
                        out.vals.insert(k.clone(), v.clone());
                    }
                }
                Some(ModVal::Struct(Arc::new(out)))
            }
            (ModVal::Functor(_), SigVal::Functor(..)) => Some(m.clone()),
            _ => {
                self.report(Diagnostic::error(
                    "T008",
                    "module does not match its module type: a parametric module and a structure differ",
                    span,
                    "this module",
                ));
                None
            }
        }
    }

    /// Ascribes a signature to a module, making its abstract types opaque.
    pub fn ascribe(&mut self, m: &ModVal, sig: &SigVal, span: Span) -> Option<ModVal> {
        match (m, sig) {
            (ModVal::Struct(env), SigVal::Specs { .. }) => {
                // On a mismatch (reported), the module is still seen through the
                // signature so that later uses do not cascade into more errors.
                let _ = self.match_sig(env, sig, span);
                let (fresh, _) = freshen(sig);
                sig_as_module(&fresh)
            }
            (ModVal::Functor(_), SigVal::Functor(..)) => Some(m.clone()),
            _ => {
                self.report(Diagnostic::error(
                    "T008",
                    "module does not match its module type: a parametric module and a structure differ",
                    span,
                    "this module",
                ));
                None
            }
        }
    }

    /// Checks that `env` implements `sig`; returns the substitution of the signature's
    /// abstract types by the module's types.
    pub fn match_sig(&mut self, env: &Env, sig: &SigVal, span: Span) -> Option<Subst> {
        let SigVal::Specs {
            env: senv,
            abstracts,
        } = sig
        else {
            self.report(Diagnostic::error(
                "T008",
                "a structure cannot match a parametric module type",
                span,
                "this module",
            ));
            return None;
        };
        let mut sub = Subst::new();
        let mut ok = true;
        for a in abstracts {
            let Some((last, path)) = a.path.split_last() else {
                continue;
            };
            let mut e: &Env = env;
            let mut holder;
            let mut found = true;
            for p in path {
                match e.mods.get(p).map(|m| (**m).clone()) {
                    Some(ModVal::Struct(inner)) => {
                        holder = inner;
                        e = &holder;
                        let _ = &holder;
                    }
                    _ => {
                        found = false;
                        break;
                    }
                }
            }
            let def = if found {
                e.types.get(last).cloned()
            } else {
                None
            };
            match def {
                Some(d) if d.params.len() == a.params.len() => {
                    let ok_kinds = d.params.iter().zip(&a.params).all(|(x, y)| {
                        matches!(
                            (x, y),
                            (TParam::Type(..), TParam::Type(..))
                                | (TParam::Size(..), TParam::Size(..))
                        )
                    });
                    if !ok_kinds {
                        ok = false;
                        self.report(Diagnostic::error(
                            "T008",
                            format!(
                                "type `{}` has parameters of the wrong kind for its module type",
                                path_string(&a.path)
                            ),
                            span,
                            "this module",
                        ));
                        continue;
                    }
                    let spec_lift = spec_liftedness(senv, &a.path);
                    if lift_rank(d.liftedness) > lift_rank(spec_lift) {
                        ok = false;
                        let what = |l: Liftedness| match l {
                            Liftedness::Lifted => "lifted (`type^`)",
                            Liftedness::SizeLifted => "size-lifted (`type~`)",
                            Liftedness::Unlifted => "non-lifted (`type`)",
                        };
                        self.report(Diagnostic::error(
                            "T008",
                            format!(
                                "type `{}` is {}, but its module type declares it {}",
                                path_string(&a.path),
                                what(d.liftedness),
                                what(spec_lift)
                            ),
                            span,
                            "this module",
                        ));
                        continue;
                    }
                    let mut pd = (*d).clone();
                    // Rename the module's parameters to the signature's.
                    let mut ren = Subst::new();
                    for (x, y) in d.params.iter().zip(&a.params) {
                        match (x, y) {
                            (TParam::Type(u, _, _), TParam::Type(w, n, _)) => {
                                ren.insert(*u, SubstTarget::Ty(Ty::Param(*w, n.clone())));
                            }
                            (TParam::Size(u, _), TParam::Size(w, n)) => {
                                ren.insert(
                                    *u,
                                    SubstTarget::Size(crate::types::Size::Named(*w, n.clone())),
                                );
                            }
                            _ => {}
                        }
                    }
                    pd.ty = subst_ty(&pd.ty, &ren);
                    pd.params = a.params.clone();
                    sub.insert(a.uid, SubstTarget::Def(pd));
                }
                Some(d) => {
                    ok = false;
                    self.report(Diagnostic::error(
                        "T008",
                        format!(
                            "type `{}` takes {} parameters, but its module type requires {}",
                            path_string(&a.path),
                            d.params.len(),
                            a.params.len()
                        ),
                        span,
                        "this module",
                    ));
                }
                None => {
                    ok = false;
                    self.report(Diagnostic::error(
                        "T008",
                        format!(
                            "module lacks type `{}` required by its module type",
                            path_string(&a.path)
                        ),
                        span,
                        "this module",
                    ));
                }
            }
        }
        // Values of the module type used as sizes (`val n: i64` then `val xs: [n]t`)
        // stand for the module's values: sizes of later specs are compared with them.
        let mut value_sizes = Vec::new();
        value_size_subst(env, senv, &mut sub, &mut value_sizes);
        ok &= self.match_env(env, senv, &sub, &value_sizes, span, &mut Vec::new());
        if ok { Some(sub) } else { None }
    }

    fn match_env(
        &mut self,
        env: &Env,
        senv: &Env,
        sub: &Subst,
        value_sizes: &[Uid],
        span: Span,
        path: &mut Vec<Name>,
    ) -> bool {
        let mut ok = true;
        let mut names: Vec<&Name> = senv.vals.keys().collect();
        names.sort();
        for name in names {
            let spec = &senv.vals[name];
            let mut full = path.clone();
            full.push(name.clone());
            let Some(have) = env.vals.get(name) else {
                ok = false;
                self.report(
                    Diagnostic::error(
                        "T008",
                        format!(
                            "module lacks `{}` required by its module type",
                            path_string(&full)
                        ),
                        span,
                        "this module",
                    )
                    .with_secondary(spec.span, "required by this specification"),
                );
                continue;
            };
            let want = subst_ty(&spec.scheme.ty, sub);
            let got = self.instantiate(&have.scheme);
            self.u.ignore_sizes = true;
            let r = self.u.unify(&want, &got);
            self.u.ignore_sizes = false;
            if r.is_err() {
                ok = false;
                let d = Diagnostic::error(
                    "T008",
                    format!(
                        "`{}` has type `{}`, but its module type requires `{}`",
                        path_string(&full),
                        self.show(&have.scheme.ty),
                        self.show(&want)
                    ),
                    span,
                    "this module does not match its module type",
                )
                .with_secondary(spec.span, "required by this specification");
                let d = if have.span.file == span.file {
                    d.with_secondary(have.span, "defined here")
                } else {
                    d
                };
                self.report(d);
            } else if let Some((w, g)) = value_size_mismatch(
                &self.u.zonk(&spec.scheme.ty),
                &self.u.zonk(&got),
                sub,
                value_sizes,
            ) {
                ok = false;
                let d = Diagnostic::error(
                    "T008",
                    format!(
                        "`{}` does not match its specification: Dimensions {} and {} do \
                         not match (its type is `{}`, its module type requires `{}`)",
                        path_string(&full),
                        show_dim(&w),
                        show_dim(&g),
                        self.show(&have.scheme.ty),
                        self.show(&want)
                    ),
                    span,
                    "this module does not match its module type",
                )
                .with_secondary(spec.span, "required by this specification");
                let d = if have.span.file == span.file {
                    d.with_secondary(have.span, "defined here")
                } else {
                    d
                };
                self.report(d);
            } else if let Some(why) = uniqueness_mismatch(&self.u.zonk(&want), &self.u.zonk(&got)) {
                ok = false;
                let d = Diagnostic::error(
                    "T008",
                    format!(
                        "`{}` does not match its specification: {why}",
                        path_string(&full)
                    ),
                    span,
                    "this module does not match its module type",
                )
                .with_secondary(spec.span, "required by this specification");
                let d = if have.span.file == span.file {
                    d.with_secondary(have.span, "defined here")
                } else {
                    d
                };
                self.report(d);
            }
        }
        let mut tnames: Vec<&Name> = senv.types.keys().collect();
        tnames.sort();
        for name in tnames {
            let want = &senv.types[name];
            if matches!(want.ty, Ty::Abs(..))
                && want.params.is_empty()
                && sub.values().next().is_some()
            {
                // Abstract types were handled by the caller.
            }
            let mut full = path.clone();
            full.push(name.clone());
            match env.types.get(name) {
                None => {
                    ok = false;
                    self.report(Diagnostic::error(
                        "T008",
                        format!(
                            "module lacks type `{}` required by its module type",
                            path_string(&full)
                        ),
                        span,
                        "this module",
                    ));
                }
                Some(have) if want.params.is_empty() && have.params.is_empty() => {
                    let w = subst_ty(&want.ty, sub);
                    self.u.ignore_sizes = true;
                    let r = self.u.unify(&w, &have.ty);
                    self.u.ignore_sizes = false;
                    if r.is_err() {
                        ok = false;
                        self.report(Diagnostic::error(
                            "T008",
                            format!(
                                "type `{}` is `{}`, but its module type requires `{}`",
                                path_string(&full),
                                self.show(&have.ty),
                                self.show(&w)
                            ),
                            span,
                            "this module does not match its module type",
                        ));
                    }
                }
                Some(_) => {}
            }
        }
        let mut mnames: Vec<&Name> = senv.mods.keys().collect();
        mnames.sort();
        for name in mnames {
            let mut full = path.clone();
            full.push(name.clone());
            match (env.mods.get(name).map(|m| &**m), &*senv.mods[name]) {
                (Some(ModVal::Struct(e)), ModVal::Struct(s)) => {
                    path.push(name.clone());
                    ok &= self.match_env(e, s, sub, value_sizes, span, path);
                    path.pop();
                }
                (Some(_), _) => {}
                (None, _) => {
                    ok = false;
                    self.report(Diagnostic::error(
                        "T008",
                        format!(
                            "module lacks module `{}` required by its module type",
                            path_string(&full)
                        ),
                        span,
                        "this module",
                    ));
                }
            }
        }
        ok
    }

    /// Elaborates a module type expression.
    pub fn elab_sig(&mut self, s: &SigExp) -> Option<Arc<SigVal>> {
        match &s.kind {
            SigExpKind::Var(qn) => {
                let found = if qn.quals.is_empty() {
                    self.lookup_sig_name(&qn.name.name)
                } else {
                    self.resolve_quals(&qn.quals)
                        .and_then(|e| e.sigs.get(&qn.name.name).cloned())
                };
                if found.is_none() {
                    let cands = self.all_names(|e| e.sigs.keys().cloned().collect());
                    let d = Diagnostic::error(
                        "T001",
                        format!("unknown module type `{}`", qn_string(qn)),
                        qn.span(),
                        "not defined",
                    );
                    let d = crate::checker::with_suggestion(d, &qn.name.name, &cands);
                    self.report(d);
                }
                found
            }
            SigExpKind::Parens(s) => self.elab_sig(s),
            SigExpKind::Specs(specs) => Some(Arc::new(self.elab_specs(specs))),
            SigExpKind::With(base, qn, tps, te) => {
                let base = self.elab_sig(base)?;
                let SigVal::Specs { env, abstracts } = &*base else {
                    self.report(Diagnostic::error(
                        "T008",
                        "cannot refine a parametric module type",
                        s.span,
                        "refined here",
                    ));
                    return Some(base);
                };
                let mut path: Vec<Name> = qn.quals.iter().map(|q| q.name.clone()).collect();
                path.push(qn.name.name.clone());
                let Some(a) = abstracts.iter().find(|a| a.path == path) else {
                    self.report(Diagnostic::error(
                        "T008",
                        format!(
                            "cannot refine `{}`: it is not an abstract type of this module type",
                            qn_string(qn)
                        ),
                        qn.span(),
                        "not abstract here",
                    ));
                    return Some(base);
                };
                let mark = self.scope.len();
                let params = self.bind_type_params(tps);
                let ty = self.resolve_ty(te, AnonSize::Any);
                let ty = self.u.zonk(&ty);
                self.scope.truncate(mark);
                if params.len() != a.params.len() {
                    self.report(Diagnostic::error(
                        "T008",
                        format!(
                            "refinement of `{}` has the wrong number of parameters",
                            qn_string(qn)
                        ),
                        qn.span(),
                        "refined here",
                    ));
                    return Some(base);
                }
                let mut sub = Subst::new();
                sub.insert(
                    a.uid,
                    SubstTarget::Def(TypeDef {
                        params,
                        ty,
                        liftedness: Liftedness::Lifted,
                    }),
                );
                let _ = env;
                // The refined type is no longer abstract (even when it is refined to
                // another abstract type, such as a functor parameter's).
                let rest: Vec<AbsInfo> = abstracts
                    .iter()
                    .filter(|b| b.uid != a.uid)
                    .cloned()
                    .collect();
                match subst_sig(&base, &sub) {
                    SigVal::Specs { env, .. } => Some(Arc::new(SigVal::Specs {
                        env,
                        abstracts: rest,
                    })),
                    other => Some(Arc::new(other)),
                }
            }
            SigExpKind::Arrow(p, a, b) => {
                let a = self.elab_sig(a)?;
                // The parameter (when named) is in scope in the result module type.
                let mark = self.scope.len();
                self.push_env();
                let pname: Name = match p {
                    Some(p) => {
                        // Bound with the signature's own abstract types, which an
                        // application replaces by the argument's.
                        if let Some(m) = sig_as_module(&a) {
                            self.own_env().mods.insert(p.name.clone(), Arc::new(m));
                        }
                        p.name.clone()
                    }
                    None => Name::from("_"),
                };
                let b = self.elab_sig(b);
                self.scope.truncate(mark);
                Some(Arc::new(SigVal::Functor(pname, a, b?)))
            }
        }
    }

    fn elab_specs(&mut self, specs: &[Spec]) -> SigVal {
        let mark = self.scope.len();
        self.push_env();
        let mut env = Env::default();
        let mut abstracts = Vec::new();
        let mut seen: Vec<(&'static str, Ident)> = Vec::new();
        for spec in specs {
            let (ns, id) = match &spec.kind {
                SpecKind::Val { name, .. } => ("value", Some(name)),
                SpecKind::Type { name, .. } => ("type", Some(name)),
                SpecKind::Mod { name, .. } => ("module", Some(name)),
                SpecKind::Include(_) => ("", None),
            };
            if let Some(id) = id {
                if let Some((_, prev)) = seen.iter().find(|(n, i)| *n == ns && i.name == id.name) {
                    let d = Diagnostic::error(
                        "T010",
                        format!("duplicate specification of {ns} `{}`", id.name),
                        id.span,
                        "specified again here",
                    )
                    .with_secondary(prev.span, "first specified here");
                    self.report(d);
                    continue;
                }
                seen.push((ns, id.clone()));
            }
            match &spec.kind {
                SpecKind::Val {
                    name,
                    type_params,
                    ty,
                } => {
                    let m2 = self.scope.len();
                    let size_start = self.u.sizes.len();
                    let mut params = self.bind_type_params(type_params);
                    let t = self.resolve_ty(ty, AnonSize::Fresh);
                    let t = self.u.zonk(&t);
                    self.scope.truncate(m2);
                    // Anonymous sizes in specs are implicit size parameters where a
                    // parameter type has them; one only in the result is an existential
                    // size (`val f [n] : [n]t -> []t`), as in a function's return type.
                    let mut vars = Vec::new();
                    let mut sizes = Vec::new();
                    crate::decls::collect_vars(&t, &mut vars, &mut sizes);
                    let mut param_sizes = Vec::new();
                    let mut p = &t;
                    while let Ty::Arrow(a) = p {
                        crate::decls::collect_vars(&a.param, &mut Vec::new(), &mut param_sizes);
                        p = &a.ret;
                    }
                    for s in sizes {
                        if (s as usize) >= size_start && self.u.sizes[s as usize].is_none() {
                            let uid = fresh_uid();
                            if !param_sizes.contains(&s) && matches!(t, Ty::Arrow(_)) {
                                self.u.sizes[s as usize] = Some(crate::types::Size::Hidden(uid));
                                continue;
                            }
                            let n: Name = format!("n{s}").into();
                            self.u.sizes[s as usize] =
                                Some(crate::types::Size::Named(uid, n.clone()));
                            params.push(TParam::Size(uid, n));
                        }
                    }
                    let t = self.u.zonk(&t);
                    // A value of type `i64` may be used as a size by later specs.
                    let size = (params.is_empty() && t == Ty::Prim(PrimType::I64))
                        .then(|| Size::Named(fresh_uid(), name.name.clone()));
                    let info = Arc::new(ValInfo {
                        size,
                        scheme: Scheme {
                            params,
                            eq_params: Vec::new(),
                            ty: t,
                        },
                        span: spec.span,
                    });
                    env.vals.insert(name.name.clone(), info.clone());
                    self.own_env().vals.insert(name.name.clone(), info);
                }
                SpecKind::Type {
                    name,
                    liftedness,
                    params,
                    def,
                } => {
                    let td = match def {
                        Some(te) => self.check_typebind(&TypeBind {
                            name: name.clone(),
                            liftedness: *liftedness,
                            params: params.clone(),
                            def: te.clone(),
                            doc: None,
                            span: spec.span,
                        }),
                        None => {
                            let mark2 = self.scope.len();
                            let ps = self.bind_type_params(params);
                            self.scope.truncate(mark2);
                            let uid = fresh_uid();
                            abstracts.push(AbsInfo {
                                uid,
                                path: vec![name.name.clone()],
                                params: ps.clone(),
                            });
                            TypeDef {
                                ty: Ty::Abs(uid, name.name.clone(), params_as_args(&ps)),
                                params: ps,
                                liftedness: *liftedness,
                            }
                        }
                    };
                    let td = Arc::new(td);
                    env.types.insert(name.name.clone(), td.clone());
                    self.own_env().types.insert(name.name.clone(), td);
                }
                SpecKind::Mod { name, sig } => {
                    if let Some(s) = self.elab_sig(sig) {
                        let (fresh, _) = freshen(&s);
                        if let SigVal::Specs {
                            abstracts: inner, ..
                        } = &fresh
                        {
                            for a in inner {
                                let mut path = vec![name.name.clone()];
                                path.extend(a.path.iter().cloned());
                                abstracts.push(AbsInfo {
                                    uid: a.uid,
                                    path,
                                    params: a.params.clone(),
                                });
                            }
                        }
                        if let Some(m) = sig_as_module(&fresh) {
                            let m = Arc::new(m);
                            env.mods.insert(name.name.clone(), m.clone());
                            self.own_env().mods.insert(name.name.clone(), m);
                        }
                    }
                }
                SpecKind::Include(s) => {
                    if let Some(s) = self.elab_sig(s) {
                        let (fresh, _) = freshen(&s);
                        if let SigVal::Specs {
                            env: e,
                            abstracts: a,
                        } = fresh
                        {
                            env.extend(&e);
                            self.own_env().extend(&e);
                            abstracts.extend(a);
                        }
                    }
                }
            }
        }
        self.scope.truncate(mark);
        SigVal::Specs {
            env: Arc::new(env),
            abstracts,
        }
    }
}

/// The parameters of a type definition as arguments (for abstract types).
pub fn params_as_args(ps: &[TParam]) -> Vec<TyArg> {
    ps.iter()
        .map(|p| match p {
            TParam::Type(u, n, _) => TyArg::Ty(Ty::Param(*u, n.clone())),
            TParam::Size(u, n) => TyArg::Size(crate::types::Size::Named(*u, n.clone())),
        })
        .collect()
}

/// A copy of a signature with fresh identities for its abstract types.
pub fn freshen(s: &SigVal) -> (SigVal, Subst) {
    let SigVal::Specs { abstracts, .. } = s else {
        return (s.clone(), Subst::new());
    };
    let mut sub = Subst::new();
    for a in abstracts {
        let uid = fresh_uid();
        let name = a.path.last().cloned().unwrap_or_else(|| Name::from("t"));
        sub.insert(
            a.uid,
            SubstTarget::Def(TypeDef {
                params: a.params.clone(),
                ty: Ty::Abs(uid, name, params_as_args(&a.params)),
                liftedness: Liftedness::Lifted,
            }),
        );
    }
    (subst_sig(s, &sub), sub)
}

/// Maps the size of every `i64` value spec of `senv` (and its nested module specs) to
/// the size of the module's value of that name (an unknown size when the module's
/// value is not a size), and collects the specs' size identities in `uids`.
fn value_size_subst(env: &Env, senv: &Env, sub: &mut Subst, uids: &mut Vec<Uid>) {
    for (name, spec) in &senv.vals {
        if let Some(Size::Named(u, _)) = &spec.size {
            let have = env.vals.get(name).and_then(|v| v.size.clone());
            sub.insert(*u, SubstTarget::Size(have.unwrap_or(Size::Any)));
            uids.push(*u);
        }
    }
    for (name, sm) in &senv.mods {
        if let (ModVal::Struct(s), Some(ModVal::Struct(e))) =
            (&**sm, env.mods.get(name).map(|m| &**m))
        {
            value_size_subst(e, s, sub, uids);
        }
    }
}

/// The first pair of sizes (as the module type requires it, as the module has it) that
/// differ, among the sizes of the spec type `want` that name values of the module type
/// (`uids`, replaced by the module's values through `sub`). Sizes the module's type
/// leaves to be inferred or does not know are not compared; an existential size of the
/// module's type differs from every size such a spec names.
fn value_size_mismatch(want: &Ty, got: &Ty, sub: &Subst, uids: &[Uid]) -> Option<(Size, Size)> {
    let mut pairs = Vec::new();
    size_pairs(want, got, &mut pairs);
    pairs.into_iter().find_map(|(w, g)| {
        if !uids.iter().any(|u| crate::types::size_mentions(&w, *u)) {
            return None;
        }
        let w = crate::types::subst_size(&w, sub);
        let differ = match (&w, &g) {
            (Size::Any, _) | (_, Size::Any) => false,
            _ if size_has_var(&w) || size_has_var(&g) => false,
            (_, Size::Hidden(_) | Size::Exist(_)) => true,
            _ => match (crate::types::size_poly(&w), crate::types::size_poly(&g)) {
                (Some(a), Some(b)) => a != b,
                _ => false,
            },
        };
        differ.then_some((w, g))
    })
}

/// A size in a message: in backquotes, or described when it has no name.
fn show_dim(s: &Size) -> String {
    match s.to_string() {
        t if t.is_empty() => "an unknown size".into(),
        t => format!("`{t}`"),
    }
}

/// The pairs of array sizes at the same places of two types of the same shape.
fn size_pairs(a: &Ty, b: &Ty, out: &mut Vec<(Size, Size)>) {
    match (a, b) {
        (Ty::Array(x, ds), Ty::Array(y, es)) => {
            if ds.len() == es.len() {
                out.extend(ds.iter().cloned().zip(es.iter().cloned()));
            }
            size_pairs(x, y, out);
        }
        (Ty::Tuple(xs), Ty::Tuple(ys)) if xs.len() == ys.len() => {
            xs.iter().zip(ys).for_each(|(x, y)| size_pairs(x, y, out))
        }
        (Ty::Record(xs), Ty::Record(ys)) if xs.len() == ys.len() => xs
            .iter()
            .zip(ys)
            .for_each(|((_, x), (_, y))| size_pairs(x, y, out)),
        (Ty::Sum(xs), Ty::Sum(ys)) if xs.len() == ys.len() => {
            for ((_, xs), (_, ys)) in xs.iter().zip(ys) {
                if xs.len() == ys.len() {
                    xs.iter().zip(ys).for_each(|(x, y)| size_pairs(x, y, out));
                }
            }
        }
        (Ty::Arrow(x), Ty::Arrow(y)) => {
            size_pairs(&x.param, &y.param, out);
            size_pairs(&x.ret, &y.ret, out);
        }
        _ => {}
    }
}

/// The module described by a signature (its specs as bindings).
pub fn sig_as_module(s: &SigVal) -> Option<ModVal> {
    match s {
        SigVal::Specs { env, .. } => Some(ModVal::Struct(env.clone())),
        SigVal::Functor(..) => None,
    }
}

/// The liftedness a module type declares for the type at `path`.
fn spec_liftedness(env: &Env, path: &[Name]) -> Liftedness {
    let Some((last, quals)) = path.split_last() else {
        return Liftedness::Lifted;
    };
    let mut e = Arc::new(env.clone());
    for q in quals {
        match e.mods.get(q).map(|m| (**m).clone()) {
            Some(ModVal::Struct(inner)) => e = inner,
            _ => return Liftedness::Lifted,
        }
    }
    e.types
        .get(last)
        .map(|d| d.liftedness)
        .unwrap_or(Liftedness::Lifted)
}

/// Orders liftedness from the most to the least restrictive.
fn lift_rank(l: Liftedness) -> u8 {
    match l {
        Liftedness::Unlifted => 0,
        Liftedness::SizeLifted => 1,
        Liftedness::Lifted => 2,
    }
}

fn path_string(p: &[Name]) -> String {
    p.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(".")
}

/// Where a type expression has an anonymous size `[]` in a parameter type of a function
/// type (`in_arrow` says whether `te` is already inside one); in a result type it is
/// existential, which is allowed.
fn anon_size_in_arrow(te: &syntax::ast::TypeExp, in_arrow: bool) -> Option<syntax::Span> {
    use syntax::ast::{TypeArg, TypeExpKind};
    match &te.kind {
        TypeExpKind::Array(size, elem) => {
            if size.is_none() && in_arrow {
                return Some(te.span);
            }
            anon_size_in_arrow(elem, in_arrow)
        }
        TypeExpKind::Var(_, args) => args.iter().find_map(|a| match a {
            TypeArg::Size(None, span) if in_arrow => Some(*span),
            TypeArg::Size(..) => None,
            TypeArg::Type(t) => anon_size_in_arrow(t, in_arrow),
        }),
        TypeExpKind::Tuple(ts) => ts.iter().find_map(|t| anon_size_in_arrow(t, in_arrow)),
        TypeExpKind::Record(fs) => fs.iter().find_map(|(_, t)| anon_size_in_arrow(t, in_arrow)),
        TypeExpKind::Sum(cs) => cs
            .iter()
            .find_map(|(_, ts)| ts.iter().find_map(|t| anon_size_in_arrow(t, in_arrow))),
        TypeExpKind::Arrow(_, a, b) => {
            anon_size_in_arrow(a, true).or_else(|| anon_size_in_arrow(b, in_arrow))
        }
        TypeExpKind::Unique(t) | TypeExpKind::Existential(_, t) => anon_size_in_arrow(t, in_arrow),
    }
}

/// Why a value of type `got` does not meet a specification of type `want` in its
/// uniqueness, if it does not: the implementation may consume no argument that the
/// specification does not let it consume, and its result must be unique wherever the
/// specification's is.
fn uniqueness_mismatch(want: &Ty, got: &Ty) -> Option<String> {
    let (mut w, mut g) = (want, got);
    let mut i = 1;
    while let (Ty::Arrow(a), Ty::Arrow(b)) = (w, g) {
        let part =
            |parts: &[bool], whole: bool, k: usize| whole || parts.get(k).copied().unwrap_or(false);
        let n = a.consume_parts.len().max(b.consume_parts.len()).max(1);
        if (0..n)
            .any(|k| part(&b.consume_parts, b.consume, k) && !part(&a.consume_parts, a.consume, k))
        {
            return Some(format!(
                "it consumes its parameter {i}, which the specification does not allow \
                 (the specification's parameter is not unique)"
            ));
        }
        let last = !matches!((&a.ret, &b.ret), (Ty::Arrow(_), Ty::Arrow(_)));
        if last {
            let m = a.ret_parts.len().max(b.ret_parts.len()).max(1);
            if (0..m).any(|k| {
                part(&a.ret_parts, a.ret_unique, k) && !part(&b.ret_parts, b.ret_unique, k)
            }) {
                return Some(
                    "its result is not unique, but the specification's result is unique".into(),
                );
            }
        }
        w = &a.ret;
        g = &b.ret;
        i += 1;
    }
    None
}
