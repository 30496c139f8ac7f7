//! Declarations and module expressions: files, structures, functors, `open`,
//! `local`, `import`.

use std::rc::Rc;

use syntax::ast::{self, Dec, DecKind, ModExp, ModExpKind, Name, SigExpKind, SpecKind};
use syntax::{FileId, Span};

use crate::env::{Env, Functor, ModVal, Module, Scope, SigDef, TypeDef};
use crate::error::{R, rt_err};
use crate::eval::{Interp, LoadedFile, intrinsic_name};
use crate::intrinsics::intrinsic_arity_ok;
use crate::sizes::SizeCtx;
use crate::value::{Closure, FunDef, Value, unique_param};

impl Interp {
    /// Evaluates a file's declarations and records it as loaded.
    pub fn load(&mut self, id: FileId, file: &ast::File, prelude: Option<FileId>) -> R<()> {
        let parent = match prelude {
            Some(p) => Some(Env::of_scope(&self.prelude_scope(p)?)),
            None => None,
        };
        for (node, args) in &file.size_args {
            self.size_args.insert((id, *node), Rc::new(args.clone()));
        }
        let scope = Scope::new(parent);
        self.eval_decs(&file.decs, &scope, true)?;
        let module = Rc::new(scope.export());
        self.files.insert(id, LoadedFile { scope, module });
        Ok(())
    }

    /// The scope that has the prelude opened in it (built once per prelude file).
    fn prelude_scope(&mut self, p: FileId) -> R<Rc<Scope>> {
        if let Some(s) = self.prelude_scopes.get(&p) {
            return Ok(s.clone());
        }
        let module = self
            .files
            .get(&p)
            .map(|f| f.module.clone())
            .ok_or_else(|| no_file("the prelude is not loaded"))?;
        let scope = Scope::new(None);
        scope.open(&module, false);
        self.prelude_scopes.insert(p, scope.clone());
        Ok(scope)
    }

    fn imported(&self, path: &str, span: Span) -> R<Rc<Module>> {
        let id = self
            .imports
            .get(path)
            .ok_or_else(|| rt_err(format!("import \"{path}\" is not loaded"), span))?;
        self.files
            .get(id)
            .map(|f| f.module.clone())
            .ok_or_else(|| rt_err(format!("import \"{path}\" is not loaded"), span))
    }

    /// Evaluates declarations into `scope`.
    pub fn eval_decs(&mut self, decs: &[Dec], scope: &Rc<Scope>, exported: bool) -> R<()> {
        for d in decs {
            self.eval_dec(d, scope, exported)?;
        }
        Ok(())
    }

    fn eval_dec(&mut self, d: &Dec, scope: &Rc<Scope>, exported: bool) -> R<()> {
        match &d.kind {
            DecKind::Val(vb) => {
                let mut env = Env::of_scope(scope);
                // A function with a return type may call itself, unless its name
                // already refers to something, a builtin operator included (then the
                // body means that, as the type checker decides): its closure also sees
                // the definition made next.
                let is_operator = !vb
                    .name
                    .name
                    .starts_with(|c: char| c.is_alphabetic() || c == '_');
                if !vb.params.is_empty()
                    && vb.ret.is_some()
                    && !is_operator
                    && env.val(&vb.name.name).is_none()
                {
                    env = env.including_next_definition();
                }
                let v = self.val_bind(vb, env)?;
                scope.define_val(vb.name.name.clone(), v, exported);
            }
            DecKind::Type(tb) => {
                let td = TypeDef::new(
                    tb.params.clone(),
                    Some(tb.def.clone()),
                    Env::of_scope(scope),
                );
                scope.define_type(tb.name.name.clone(), Rc::new(td), exported);
            }
            DecKind::Mod(mb) => {
                let env = Env::of_scope(scope);
                let m = if mb.params.is_empty() {
                    let m = self.eval_modexp(&mb.body, &env)?;
                    match &mb.sig {
                        Some(sig) => self.restrict(m, sig, &env)?,
                        None => m,
                    }
                } else {
                    // `module F (A: s) (B: t): r = e` is `\A -> \B -> (e: r)`.
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
                        env,
                    }))
                };
                scope.define_mod(mb.name.name.clone(), m, exported);
            }
            DecKind::Sig(sb) => {
                let def = SigDef {
                    exp: sb.sig.clone(),
                    env: Env::of_scope(scope),
                };
                scope.define_sig(sb.name.name.clone(), Rc::new(def), exported);
            }
            DecKind::Open(me) => {
                let env = Env::of_scope(scope);
                match self.eval_modexp(me, &env)? {
                    ModVal::Struct(m) => scope.open(&m, exported),
                    ModVal::Functor(_) => return Err(rt_err("cannot open a functor", me.span)),
                }
            }
            DecKind::Local(inner) => self.eval_dec(inner, scope, false)?,
            DecKind::Import(path, span) => {
                // As the type checker does: the imported names are re-exported.
                let m = self.imported(path, *span)?;
                scope.open(&m, exported);
            }
        }
        Ok(())
    }

    /// The value a `def` binds: a closure, an intrinsic, or (without parameters) the
    /// value of its body.
    fn val_bind(&mut self, vb: &ast::ValBind, env: Env) -> R<Value> {
        if let Some(name) = intrinsic_name(&vb.body) {
            let arity = vb.params.len();
            if !intrinsic_arity_ok(&name, arity) {
                return Err(rt_err(
                    format!("unknown intrinsic \"{name}\""),
                    vb.body.span,
                ));
            }
            let f = Value::Fun(Rc::new(Closure::Intrinsic {
                name: name.clone(),
                arity,
                args: Vec::new(),
                unique: Rc::new(vb.params.iter().map(unique_param).collect()),
            }));
            return if arity == 0 {
                self.call_intrinsic(&name, Vec::new(), vb.span)
            } else {
                Ok(f)
            };
        }
        let def = FunDef::new(
            Some(vb.name.name.clone()),
            vb.type_params.clone(),
            vb.params.clone(),
            vb.ret.clone(),
            vb.body.clone(),
        );
        if vb.params.is_empty() {
            let v = self.eval(&vb.body, &env)?;
            if let Some(ret) = &vb.ret {
                let mut ctx = SizeCtx::new(&[], &[]);
                self.check_type(ret, &v, &env, &mut ctx)?;
            }
            return Ok(v);
        }
        Ok(Value::Fun(Rc::new(Closure::User {
            def: Rc::new(def),
            env,
            args: Vec::new(),
            sizes: Vec::new(),
        })))
    }

    /// Evaluates a module expression.
    pub fn eval_modexp(&mut self, me: &ModExp, env: &Env) -> R<ModVal> {
        match &me.kind {
            ModExpKind::Var(q) => self.resolve_module(q, env),
            ModExpKind::Parens(m) => self.eval_modexp(m, env),
            ModExpKind::Ascribe(m, sig) => {
                let v = self.eval_modexp(m, env)?;
                self.restrict(v, sig, env)
            }
            ModExpKind::Import(path) => Ok(ModVal::Struct(self.imported(path, me.span)?)),
            ModExpKind::Struct(decs) => {
                let scope = Scope::new(Some(env.clone()));
                self.eval_decs(decs, &scope, true)?;
                Ok(ModVal::Struct(Rc::new(scope.export())))
            }
            ModExpKind::Apply(f, a) => {
                let fv = self.eval_modexp(f, env)?;
                let av = self.eval_modexp(a, env)?;
                let ModVal::Functor(func) = fv else {
                    return Err(rt_err("applying a module that is not a functor", me.span));
                };
                let scope = Scope::new(Some(func.env.clone()));
                scope.define_mod(func.param.clone(), av, false);
                self.eval_modexp(&func.body.clone(), &Env::of_scope(&scope))
            }
            ModExpKind::Lambda(p, _, body) => Ok(ModVal::Functor(Rc::new(Functor {
                param: p.name.name.clone(),
                body: Rc::new((**body).clone()),
                env: env.clone(),
            }))),
        }
    }
}

/// The names a module type specifies, by namespace; sub-modules with the module
/// type they are specified with.
#[derive(Default)]
struct SigNames {
    vals: Vec<Name>,
    types: Vec<Name>,
    mods: Vec<(Name, Option<(ast::SigExp, Env)>)>,
}

impl Interp {
    /// Restricts a module to the names of a module type, as ascription does: the
    /// others become invisible. A functor, or a module type that cannot be resolved,
    /// leaves the module as it is.
    fn restrict(&mut self, m: ModVal, sig: &ast::SigExp, env: &Env) -> R<ModVal> {
        let ModVal::Struct(s) = &m else {
            return Ok(m);
        };
        let mut names = SigNames::default();
        if !self.sig_names(sig, env, &mut names) {
            return Ok(m);
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
                    Some((sig, env)) => self.restrict(x.clone(), &sig, &env)?,
                    None => x.clone(),
                };
                out.mods.insert(n, x);
            }
        }
        Ok(ModVal::Struct(Rc::new(out)))
    }

    /// Collects the names a module type specifies; false when it cannot be resolved
    /// or is a functor type.
    fn sig_names(&self, sig: &ast::SigExp, env: &Env, out: &mut SigNames) -> bool {
        match &sig.kind {
            SigExpKind::Parens(s) | SigExpKind::With(s, ..) => self.sig_names(s, env, out),
            SigExpKind::Arrow(..) => false,
            SigExpKind::Var(q) => {
                let def = if q.quals.is_empty() {
                    env.sig(&q.name.name)
                } else {
                    let mq = ast::QualName {
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

fn no_file(msg: &str) -> Box<crate::RuntimeError> {
    Box::new(crate::RuntimeError {
        message: msg.to_string(),
        span: None,
        backtrace: Vec::new(),
    })
}
