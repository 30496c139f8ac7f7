//! Evaluating the module language after checking: module values, module
//! paths, module expressions, ascription and functor definitions, for the
//! evaluators that walk the checked tree (the reference interpreter, which
//! evaluates modules at run time, and the internaliser, which evaluates them
//! statically).
//!
//! Both keep module values as [`ModVal`]s: a [`Structure`] (maps of their
//! own values and types, of modules and of module types) or a [`Functor`]
//! (a closure over their own environment type). They differ in how
//! environments are built and how declarations are evaluated, which they
//! supply through [`ModuleEval`]; the rules of the module language itself
//! live here once:
//! - `a.b.c` names module `c` of module `b` of the module `a` in scope;
//! - `module F (A: s) (B: t): r = e` is the functor `\A -> \B -> (e : r)`;
//! - applying a functor evaluates its body in its defining environment with
//!   the parameter bound to the argument;
//! - ascription `m : s` keeps the names `s` specifies (its `include`s and
//!   named module types followed, sub-modules restricted by their own module
//!   types) and hides the others. A functor, or a module type that cannot be
//!   resolved here, is left as it is: the checker has already judged it.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::rc::Rc;

use syntax::Span;
use syntax::ast::{
    self, ModBind, ModExp, ModExpKind, Name, QualName, SigExp, SigExpKind, SpecKind,
};

/// A module value: a structure or a functor.
#[derive(Debug)]
pub enum ModVal<M, E> {
    /// A structure.
    Struct(Rc<M>),
    /// A parametric module.
    Functor(Rc<Functor<E>>),
}

impl<M, E> Clone for ModVal<M, E> {
    fn clone(&self) -> Self {
        match self {
            ModVal::Struct(m) => ModVal::Struct(m.clone()),
            ModVal::Functor(f) => ModVal::Functor(f.clone()),
        }
    }
}

/// A structure: its exported bindings, values `V` and types `T` as its
/// evaluator keeps them, in maps with hasher `H`.
#[derive(Debug)]
pub struct Structure<V, T, E, H = RandomState> {
    /// Value bindings.
    pub vals: HashMap<Name, V, H>,
    /// Type bindings.
    pub types: HashMap<Name, T, H>,
    /// Sub-modules.
    pub mods: HashMap<Name, ModVal<Self, E>, H>,
    /// Module types.
    pub sigs: HashMap<Name, Rc<SigDef<E>>, H>,
}

impl<V, T, E, H: Default> Default for Structure<V, T, E, H> {
    fn default() -> Self {
        Structure {
            vals: HashMap::default(),
            types: HashMap::default(),
            mods: HashMap::default(),
            sigs: HashMap::default(),
        }
    }
}

/// The structures of the evaluator `S`.
pub type StructureOf<S> = Structure<
    <S as ModuleEval>::Val,
    <S as ModuleEval>::Type,
    <S as ModuleEval>::Env,
    <S as ModuleEval>::Hasher,
>;

/// The module values of the evaluator `S`.
pub type ModValOf<S> = ModVal<StructureOf<S>, <S as ModuleEval>::Env>;

/// A functor: a closure over a module environment.
#[derive(Debug)]
pub struct Functor<E> {
    /// The parameter's name.
    pub param: Name,
    /// The body.
    pub body: Rc<ModExp>,
    /// The environment of the definition.
    pub env: E,
}

/// A module type with the environment its names resolve in: it decides
/// which names an ascribed module exposes.
#[derive(Debug)]
pub struct SigDef<E> {
    /// The module type expression.
    pub exp: SigExp,
    /// The environment of its definition.
    pub env: E,
}

/// The names a module type specifies, by namespace; each sub-module with the
/// module type it is specified with (`None` for a functor type).
pub struct SigNames<E> {
    /// Values.
    pub vals: Vec<Name>,
    /// Types.
    pub types: Vec<Name>,
    /// Modules.
    pub mods: Vec<(Name, Option<(SigExp, E)>)>,
}

impl<E> Default for SigNames<E> {
    fn default() -> Self {
        SigNames {
            vals: Vec::new(),
            types: Vec::new(),
            mods: Vec::new(),
        }
    }
}

/// The module part of a qualified name: `a.b` for `a.b.c`; `None` for an
/// unqualified name.
pub fn module_path(q: &QualName) -> Option<QualName> {
    let (last, init) = q.quals.split_last()?;
    Some(QualName {
        quals: init.to_vec(),
        name: last.clone(),
    })
}

/// What an evaluator of the module language supplies: its environments,
/// structures and errors, and how it evaluates declarations. The module
/// language's rules are the provided methods.
pub trait ModuleEval {
    /// An environment.
    type Env: Clone;
    /// A value a structure binds.
    type Val: Clone;
    /// A type a structure binds.
    type Type: Clone;
    /// The hasher of a structure's maps.
    type Hasher: BuildHasher + Default;
    /// An evaluation error.
    type Error;

    /// An error with `message` at `span`.
    fn error(message: String, span: Span) -> Self::Error;
    /// The module `name` is bound to in `env`.
    fn env_module(env: &Self::Env, name: &str) -> Option<ModValOf<Self>>;
    /// The module type `name` is bound to in `env`.
    fn env_sig(env: &Self::Env, name: &str) -> Option<Rc<SigDef<Self::Env>>>;
    /// `env` with the functor parameter `param` bound to `arg`.
    fn bind_param(&mut self, env: &Self::Env, param: Name, arg: ModValOf<Self>) -> Self::Env;
    /// The structure of the declarations `decs` evaluated in `env`.
    fn eval_struct(
        &mut self,
        decs: &[ast::Dec],
        env: &Self::Env,
    ) -> Result<StructureOf<Self>, Self::Error>;
    /// The structure of the imported file `path`.
    fn imported(&self, path: &str, span: Span) -> Result<Rc<StructureOf<Self>>, Self::Error>;

    /// The module that the path `q` names in `env`.
    fn resolve_module(&self, q: &QualName, env: &Self::Env) -> Result<ModValOf<Self>, Self::Error> {
        let mut names = q.quals.iter().chain(std::iter::once(&q.name));
        let first = names.next().map(|i| &i.name).unwrap_or(&q.name.name);
        let mut m = Self::env_module(env, first)
            .ok_or_else(|| Self::error(format!("unknown module {first}"), q.span()))?;
        for n in names {
            let ModVal::Struct(s) = &m else {
                return Err(Self::error("a functor has no members".into(), q.span()));
            };
            m = s
                .mods
                .get(&n.name)
                .cloned()
                .ok_or_else(|| Self::error(format!("unknown module {}", n.name), n.span))?;
        }
        Ok(m)
    }

    /// Evaluates a module expression.
    fn eval_modexp(&mut self, me: &ModExp, env: &Self::Env) -> Result<ModValOf<Self>, Self::Error> {
        match &me.kind {
            ModExpKind::Var(q) => self.resolve_module(q, env),
            ModExpKind::Parens(m) => self.eval_modexp(m, env),
            ModExpKind::Ascribe(m, sig) => {
                let v = self.eval_modexp(m, env)?;
                Ok(self.restrict(v, sig, env))
            }
            ModExpKind::Import(path) => Ok(ModVal::Struct(self.imported(path, me.span)?)),
            ModExpKind::Struct(decs) => Ok(ModVal::Struct(Rc::new(self.eval_struct(decs, env)?))),
            ModExpKind::Apply(f, a) => {
                let fv = self.eval_modexp(f, env)?;
                let av = self.eval_modexp(a, env)?;
                let ModVal::Functor(func) = fv else {
                    return Err(Self::error(
                        "applying a module that is not a functor".into(),
                        me.span,
                    ));
                };
                let fenv = self.bind_param(&func.env, func.param.clone(), av);
                self.eval_modexp(&func.body.clone(), &fenv)
            }
            ModExpKind::Lambda(p, _, body) => Ok(ModVal::Functor(Rc::new(Functor {
                param: p.name.name.clone(),
                body: Rc::new((**body).clone()),
                env: env.clone(),
            }))),
        }
    }

    /// The structure `me` evaluates to, for `open`.
    fn open_module(
        &mut self,
        me: &ModExp,
        env: &Self::Env,
    ) -> Result<Rc<StructureOf<Self>>, Self::Error> {
        match self.eval_modexp(me, env)? {
            ModVal::Struct(m) => Ok(m),
            ModVal::Functor(_) => Err(Self::error("cannot open a functor".into(), me.span)),
        }
    }

    /// The module a `module` declaration binds in `env`: its body (ascribed
    /// to its module type, if any), or for a declaration with parameters,
    /// the functor of the first one whose body takes the others.
    fn mod_bind(&mut self, mb: &ModBind, env: &Self::Env) -> Result<ModValOf<Self>, Self::Error> {
        let Some((first, rest)) = mb.params.split_first() else {
            let m = self.eval_modexp(&mb.body, env)?;
            return Ok(match &mb.sig {
                Some(sig) => self.restrict(m, sig, env),
                None => m,
            });
        };
        let mut body = mb.body.clone();
        if let Some(sig) = &mb.sig {
            body = ModExp {
                span: body.span,
                kind: ModExpKind::Ascribe(Box::new(body), sig.clone()),
            };
        }
        for p in rest.iter().rev() {
            body = ModExp {
                span: body.span,
                kind: ModExpKind::Lambda(p.clone(), None, Box::new(body)),
            };
        }
        Ok(ModVal::Functor(Rc::new(Functor {
            param: first.name.name.clone(),
            body: Rc::new(body),
            env: env.clone(),
        })))
    }

    /// Restricts a module to the names of a module type, as ascription does:
    /// the others become invisible. A functor, or a module type that cannot
    /// be resolved, leaves the module as it is.
    fn restrict(&self, m: ModValOf<Self>, sig: &SigExp, env: &Self::Env) -> ModValOf<Self> {
        let ModVal::Struct(s) = &m else {
            return m;
        };
        let mut names = SigNames::default();
        if !self.sig_names(sig, env, &mut names) {
            return m;
        }
        let mut out = StructureOf::<Self>::default();
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
            if let Some(x) = s.mods.get(&n).cloned() {
                let x = match sub {
                    Some((sig, env)) => self.restrict(x, &sig, &env),
                    None => x,
                };
                out.mods.insert(n, x);
            }
        }
        ModVal::Struct(Rc::new(out))
    }

    /// Collects the names a module type specifies; false when it cannot be
    /// resolved or is a functor type.
    fn sig_names(&self, sig: &SigExp, env: &Self::Env, out: &mut SigNames<Self::Env>) -> bool {
        match &sig.kind {
            SigExpKind::Parens(s) | SigExpKind::With(s, ..) => self.sig_names(s, env, out),
            SigExpKind::Arrow(..) => false,
            SigExpKind::Var(q) => {
                let def = match module_path(q) {
                    None => Self::env_sig(env, &q.name.name),
                    Some(mq) => match self.resolve_module(&mq, env) {
                        Ok(ModVal::Struct(m)) => m.sigs.get(&q.name.name).cloned(),
                        _ => None,
                    },
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
