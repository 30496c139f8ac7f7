//! The module level, evaluated statically: declarations extend environments,
//! structures become [`Module`]s, functors are applied by evaluating their
//! bodies with the argument bound, `open`, `local` and `import` as in the
//! reference interpreter; ascription to a module type hides the names the type
//! does not specify, as in the reference interpreter. No module survives into
//! the IR. The rules of the module language (paths, functor application,
//! ascription) are `semantic::module_eval`'s, shared with the interpreter;
//! the internaliser supplies its persistent environments.

use std::rc::Rc;

use semantic::module_eval::ModuleEval;
use syntax::ast::{self, Dec, DecKind, Name};

use crate::cx::Cx;
use crate::env::{Env, ModVal, Module, SigDef, TypeDef};
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
                let m = self.mod_bind(mb, &env)?;
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
            DecKind::Open(me) => {
                let m = self.open_module(me, &env)?;
                if exported {
                    export_all(&m, out);
                }
                Ok(env.open(m))
            }
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
}

impl ModuleEval for Cx {
    type Env = Env;
    type Val = V;
    type Type = Rc<TypeDef>;
    type Hasher = std::collections::hash_map::RandomState;
    type Error = InternaliseError;

    fn error(message: String, span: syntax::Span) -> InternaliseError {
        InternaliseError::at(message, span)
    }

    fn env_module(env: &Env, name: &str) -> Option<ModVal> {
        env.module(name)
    }

    fn env_sig(env: &Env, name: &str) -> Option<Rc<SigDef>> {
        env.sig(name)
    }

    fn bind_param(&mut self, env: &Env, param: Name, arg: ModVal) -> Env {
        env.bind_mod(param, arg)
    }

    fn eval_struct(&mut self, decs: &[Dec], env: &Env) -> IResult<Module> {
        let mut out = Module::default();
        self.decs(decs, env.clone(), &mut out)?;
        Ok(out)
    }

    fn imported(&self, path: &str, span: syntax::Span) -> IResult<Rc<Module>> {
        self.imports
            .get(path)
            .and_then(|id| self.files.get(id))
            .map(|f| f.module.clone())
            .ok_or_else(|| InternaliseError::at(format!("import \"{path}\" is not loaded"), span))
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
