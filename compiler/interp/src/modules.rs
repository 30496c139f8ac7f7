//! Declarations and module expressions: files, structures, functors, `open`,
//! `local`, `import`. The rules of the module language (paths, functor
//! application, ascription) are `semantic::module_eval`'s; the interpreter
//! supplies its scopes, evaluated at run time.

use std::rc::Rc;

use semantic::module_eval::ModuleEval;
use syntax::ast::{self, Dec, DecKind, Name};
use syntax::{FileId, Span};

use crate::env::{Env, ModVal, Module, Scope, SigDef, TypeDef};
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
                let m = self.mod_bind(mb, &Env::of_scope(scope))?;
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
                let m = self.open_module(me, &Env::of_scope(scope))?;
                scope.open(&m, exported);
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
        // A definition with size parameters but no value parameters
        // (`def iiota [n] : [n]i64 = iota n`) is evaluated at each use, with
        // the sizes the type checker inferred there.
        let sized = vb
            .type_params
            .iter()
            .any(|p| matches!(p, ast::TypeParam::Size(_)));
        if vb.params.is_empty() && !sized {
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
}

impl ModuleEval for Interp {
    type Env = Env;
    type Val = Value;
    type Type = Rc<TypeDef>;
    type Hasher = std::hash::BuildHasherDefault<crate::hash::FastHasher>;
    type Error = Box<crate::RuntimeError>;

    fn error(message: String, span: Span) -> Self::Error {
        rt_err(message, span)
    }

    fn env_module(env: &Env, name: &str) -> Option<ModVal> {
        env.module(name)
    }

    fn env_sig(env: &Env, name: &str) -> Option<Rc<SigDef>> {
        env.sig(name)
    }

    fn bind_param(&mut self, env: &Env, param: Name, arg: ModVal) -> Env {
        let scope = Scope::new(Some(env.clone()));
        scope.define_mod(param, arg, false);
        Env::of_scope(&scope)
    }

    fn eval_struct(&mut self, decs: &[Dec], env: &Env) -> R<Module> {
        let scope = Scope::new(Some(env.clone()));
        self.eval_decs(decs, &scope, true)?;
        Ok(scope.export())
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
}

fn no_file(msg: &str) -> Box<crate::RuntimeError> {
    Box::new(crate::RuntimeError {
        message: msg.to_string(),
        span: None,
        backtrace: Vec::new(),
    })
}
