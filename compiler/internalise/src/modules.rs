//! The module level, evaluated statically: declarations extend environments,
//! structures become [`Module`]s, functors are applied by evaluating their
//! bodies with the argument bound, `open`, `local` and `import` as in the
//! reference interpreter; ascription to a module type hides the names the type
//! does not specify, as in the reference interpreter. No module survives into
//! the IR.

use std::rc::Rc;

use syntax::ast::{self, Dec, DecKind, ModExp, ModExpKind, Name, QualName, SigExpKind, SpecKind};

use crate::cx::Cx;
use crate::env::{Env, Functor, ModVal, Module, SigDef, TypeDef};
use crate::error::{IResult, InternaliseError};
use crate::value::{Closure, FunDef, V};

/// Is this body exactly `__intrinsic "NAME"`? Returns the name.
pub(crate) fn intrinsic_name(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ast::ExprKind::Apply(f, args) if args.len() == 1 => {
            let ast::ExprKind::Var(q) = &f.kind else {
                return None;
            };
            if !q.quals.is_empty() || &*q.name.name != "__intrinsic" {
                return None;
            }
            match &args[0].kind {
                ast::ExprKind::Literal(ast::Literal::String(s)) => {
                    Some(String::from_utf8_lossy(s).into_owned())
                }
                _ => None,
            }
        }
        ast::ExprKind::Parens(e) => intrinsic_name(e),
        _ => None,
    }
}

impl Cx {
    /// Evaluates declarations in `env`; returns the extended environment
    /// and adds the exported bindings to `out`.
    pub(crate) fn decs(&mut self, decs: &[Dec], env: Env, out: &mut Module) -> IResult<Env> {
        let mut env = env;
        for d in decs {
            env = self.dec(d, env, out, true)?;
        }
        Ok(env)
    }

    fn dec(&mut self, d: &Dec, env: Env, out: &mut Module, exported: bool) -> IResult<Env> {
        match &d.kind {
            DecKind::Val(vb) => {
                let v = if let Some(name) = intrinsic_name(&vb.body) {
                    V::Fun(Rc::new(Closure::Intrinsic {
                        name: name.into(),
                        arity: vb.params.len(),
                    }))
                } else {
                    let mut def = FunDef::new(
                        Some(vb.name.name.clone()),
                        &vb.type_params,
                        vb.params.clone(),
                        vb.body.clone(),
                    );
                    def.ret = vb.ret.clone();
                    def.attrs = crate::exprs::ir_attrs(&vb.attrs);
                    def.recursive = vb.ret.is_some()
                        && !vb.params.is_empty()
                        && env.val(&vb.name.name).is_none()
                        && crate::exprs::builtin_op(&vb.name.name).is_none();
                    V::Fun(Rc::new(Closure::Def {
                        def: Rc::new(def),
                        env: env.clone(),
                        top: true,
                        captures: false,
                    }))
                };
                if exported {
                    out.vals.insert(vb.name.name.clone(), v.clone());
                }
                Ok(env.bind(vb.name.name.clone(), v))
            }
            DecKind::Type(tb) => {
                let td = Rc::new(TypeDef {
                    params: tb.params.clone(),
                    def: Some(tb.def.clone()),
                    env: env.clone(),
                });
                if exported {
                    out.types.insert(tb.name.name.clone(), td.clone());
                }
                Ok(env.bind_type(tb.name.name.clone(), td))
            }
            DecKind::Mod(mb) => {
                let m = if mb.params.is_empty() {
                    let m = self.modexp(&mb.body, &env)?;
                    match &mb.sig {
                        Some(sig) => self.restrict(m, sig, &env),
                        None => m,
                    }
                } else {
                    let mut body = mb.body.clone();
                    if let Some(sig) = &mb.sig {
                        body = ModExp {
                            span: body.span,
                            kind: ModExpKind::Ascribe(Box::new(body), sig.clone()),
                        };
                    }
                    for p in mb.params[1..].iter().rev() {
                        body = ModExp {
                            span: body.span,
                            kind: ModExpKind::Lambda(p.clone(), None, Box::new(body)),
                        };
                    }
                    ModVal::Functor(Rc::new(Functor {
                        param: mb.params[0].name.name.clone(),
                        body: Rc::new(body),
                        env: env.clone(),
                    }))
                };
                if exported {
                    out.mods.insert(mb.name.name.clone(), m.clone());
                }
                Ok(env.bind_mod(mb.name.name.clone(), m))
            }
            DecKind::Sig(sb) => {
                let def = Rc::new(SigDef {
                    exp: sb.sig.clone(),
                    env: env.clone(),
                });
                if exported {
                    out.sigs.insert(sb.name.name.clone(), def.clone());
                }
                Ok(env.bind_sig(sb.name.name.clone(), def))
            }
            DecKind::Open(me) => match self.modexp(me, &env)? {
                ModVal::Struct(m) => {
                    if exported {
                        export_all(&m, out);
                    }
                    Ok(env.open(m))
                }
                ModVal::Functor(_) => Err(InternaliseError::at("cannot open a functor", me.span)),
            },
            DecKind::Local(inner) => self.dec(inner, env, out, false),
            DecKind::Import(path, span) => {
                let m = self.imported(path, *span)?;
                if exported {
                    export_all(&m, out);
                }
                Ok(env.open(m))
            }
        }
    }

    fn imported(&self, path: &str, span: syntax::Span) -> IResult<Rc<Module>> {
        self.imports
            .get(path)
            .and_then(|id| self.files.get(id))
            .map(|f| f.module.clone())
            .ok_or_else(|| InternaliseError::at(format!("import \"{path}\" is not loaded"), span))
    }

    /// Resolves a module path.
    pub(crate) fn resolve_module(&self, q: &QualName, env: &Env) -> IResult<ModVal> {
        let mut names = q.quals.iter().chain(std::iter::once(&q.name));
        let first = names.next().map(|i| &i.name).unwrap_or(&q.name.name);
        let mut m = env
            .module(first)
            .ok_or_else(|| InternaliseError::at(format!("unknown module {first}"), q.span()))?;
        for n in names {
            let ModVal::Struct(s) = &m else {
                return Err(InternaliseError::at("a functor has no members", q.span()));
            };
            m = s.mods.get(&n.name).cloned().ok_or_else(|| {
                InternaliseError::at(format!("unknown module {}", n.name), n.span)
            })?;
        }
        Ok(m)
    }

    /// Evaluates a module expression.
    pub(crate) fn modexp(&mut self, me: &ModExp, env: &Env) -> IResult<ModVal> {
        match &me.kind {
            ModExpKind::Var(q) => self.resolve_module(q, env),
            ModExpKind::Parens(m) => self.modexp(m, env),
            ModExpKind::Ascribe(m, sig) => {
                let m = self.modexp(m, env)?;
                Ok(self.restrict(m, sig, env))
            }
            ModExpKind::Import(path) => Ok(ModVal::Struct(self.imported(path, me.span)?)),
            ModExpKind::Struct(decs) => {
                let mut out = Module::default();
                self.decs(decs, env.clone(), &mut out)?;
                Ok(ModVal::Struct(Rc::new(out)))
            }
            ModExpKind::Apply(f, a) => {
                let fv = self.modexp(f, env)?;
                let av = self.modexp(a, env)?;
                let ModVal::Functor(func) = fv else {
                    return Err(InternaliseError::at(
                        "applying a module that is not a functor",
                        me.span,
                    ));
                };
                let fenv = func.env.bind_mod(func.param.clone(), av);
                self.modexp(&func.body.clone(), &fenv)
            }
            ModExpKind::Lambda(p, _, body) => Ok(ModVal::Functor(Rc::new(Functor {
                param: p.name.name.clone(),
                body: Rc::new((**body).clone()),
                env: env.clone(),
            }))),
        }
    }
}

/// The names a module type specifies.
#[derive(Default)]
struct SigNames {
    vals: Vec<Name>,
    types: Vec<Name>,
    /// Each module with its module type, `None` for a functor type.
    mods: Vec<(Name, Option<(ast::SigExp, Env)>)>,
}

impl Cx {
    /// Restricts a module to the names of a module type, as ascription does (and
    /// as the reference interpreter does): the others become invisible. A functor,
    /// or a module type that cannot be resolved, is left as it is.
    fn restrict(&self, m: ModVal, sig: &ast::SigExp, env: &Env) -> ModVal {
        let ModVal::Struct(s) = &m else {
            return m;
        };
        let mut names = SigNames::default();
        if !self.sig_names(sig, env, &mut names) {
            return m;
        }
        let mut out = Module::default();
        for n in names.vals {
            if let Some(v) = s.vals.get(&n) {
                out.vals.insert(n, v.clone());
            }
        }
        for n in names.types {
            if let Some(t) = s.types.get(&n) {
                out.types.insert(n, t.clone());
            }
        }
        for (n, sub) in names.mods {
            if let Some(x) = s.mods.get(&n) {
                let x = match sub {
                    Some((sig, env)) => self.restrict(x.clone(), &sig, &env),
                    None => x.clone(),
                };
                out.mods.insert(n, x);
            }
        }
        ModVal::Struct(Rc::new(out))
    }

    /// Collects the names a module type specifies; false when it cannot be
    /// resolved or is a functor type.
    fn sig_names(&self, sig: &ast::SigExp, env: &Env, out: &mut SigNames) -> bool {
        match &sig.kind {
            SigExpKind::Parens(s) | SigExpKind::With(s, ..) => self.sig_names(s, env, out),
            SigExpKind::Arrow(..) => false,
            SigExpKind::Var(q) => {
                let def = if q.quals.is_empty() {
                    env.sig(&q.name.name)
                } else {
                    let mq = QualName {
                        quals: q.quals[..q.quals.len() - 1].to_vec(),
                        name: q.quals[q.quals.len() - 1].clone(),
                    };
                    match self.resolve_module(&mq, env) {
                        Ok(ModVal::Struct(m)) => m.sigs.get(&q.name.name).cloned(),
                        _ => None,
                    }
                };
                match def {
                    Some(d) => self.sig_names(&d.exp, &d.env, out),
                    None => false,
                }
            }
            SigExpKind::Specs(specs) => {
                for spec in specs {
                    match &spec.kind {
                        SpecKind::Val { name, .. } => out.vals.push(name.name.clone()),
                        SpecKind::Type { name, .. } => out.types.push(name.name.clone()),
                        SpecKind::Mod { name, sig } => {
                            let sub = match sig.kind {
                                SigExpKind::Arrow(..) => None,
                                _ => Some((sig.clone(), env.clone())),
                            };
                            out.mods.push((name.name.clone(), sub));
                        }
                        SpecKind::Include(s) => {
                            if !self.sig_names(s, env, out) {
                                return false;
                            }
                        }
                    }
                }
                true
            }
        }
    }
}

fn export_all(m: &Module, out: &mut Module) {
    for (k, v) in &m.sigs {
        out.sigs.insert(k.clone(), v.clone());
    }
    for (k, v) in &m.vals {
        out.vals.insert(k.clone(), v.clone());
    }
    for (k, v) in &m.types {
        out.types.insert(k.clone(), v.clone());
    }
    for (k, v) in &m.mods {
        out.mods.insert(k.clone(), v.clone());
    }
}
