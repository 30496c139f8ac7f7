//! Environments: what a module (or file) binds, module and module-type values, and
//! substitution over whole environments.

use crate::types::{Scheme, Size, Subst, SubstTarget, TypeDef, Uid, subst_size, subst_ty};
use std::collections::HashMap;
use std::sync::Arc;
use syntax::ast::{ModExp, Name, SigExp, Span};

/// A value binding in a module environment.
#[derive(Clone, Debug)]
pub struct ValInfo {
    /// The value's (possibly polymorphic) type.
    pub scheme: Scheme,
    /// Where it was defined.
    pub span: Span,
    /// The size the value denotes when it is used as a size (in a type, or as the
    /// argument of a parameter that sizes name): set for module-level `i64` constants
    /// and `val` specs of type `i64`, `None` for every other value.
    pub size: Option<Size>,
}

/// The bindings of a module, in four namespaces.
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub vals: HashMap<Name, Arc<ValInfo>>,
    pub types: HashMap<Name, Arc<TypeDef>>,
    pub mods: HashMap<Name, Arc<ModVal>>,
    pub sigs: HashMap<Name, Arc<SigVal>>,
}

impl Env {
    /// Adds every binding of `other`, shadowing existing ones.
    pub fn extend(&mut self, other: &Env) {
        for (k, v) in &other.vals {
            self.vals.insert(k.clone(), v.clone());
        }
        for (k, v) in &other.types {
            self.types.insert(k.clone(), v.clone());
        }
        for (k, v) in &other.mods {
            self.mods.insert(k.clone(), v.clone());
        }
        for (k, v) in &other.sigs {
            self.sigs.insert(k.clone(), v.clone());
        }
    }
}

/// A module value: a structure or a functor.
#[derive(Clone, Debug)]
pub enum ModVal {
    Struct(Arc<Env>),
    Functor(Arc<Functor>),
}

/// A functor: its remaining parameters, the arguments already given, its body and the
/// scope it was defined in. Applying it re-checks the body with the arguments bound.
#[derive(Debug)]
pub struct Functor {
    /// Parameters still to be supplied: name and signature.
    pub params: Vec<(Name, Arc<SigVal>)>,
    /// The written module types of the parameters still to be supplied (aligned with
    /// `params`, or empty): re-elaborated on application with the earlier arguments in
    /// scope, since a parameter's module type may mention earlier parameters.
    pub param_exps: Vec<Arc<SigExp>>,
    /// Arguments supplied so far (restricted to their signatures).
    pub bound: Vec<(Name, Arc<ModVal>)>,
    /// The result signature, if given (elaborated with abstract parameters).
    pub ret: Option<Arc<SigVal>>,
    /// The written result signature: re-elaborated on application with the arguments
    /// in scope, so that `with t = P.t` refers to the argument's `t`.
    pub ret_exp: Option<Arc<SigExp>>,
    /// The body; `None` for an abstract functor (a module parameter whose module type
    /// is a functor type), whose application gives a module of the result signature.
    pub body: Option<Arc<ModExp>>,
    /// The scope the functor was defined in.
    pub closure: Vec<Arc<Env>>,
}

/// An abstract type of a module type: its identity, where it lives (module path and
/// name) and its parameters.
#[derive(Clone, Debug)]
pub struct AbsInfo {
    pub uid: Uid,
    pub path: Vec<Name>,
    pub params: Vec<crate::types::TParam>,
}

/// A module type: the environment its specs describe, and which of its types are
/// abstract.
#[derive(Clone, Debug)]
pub enum SigVal {
    Specs {
        env: Arc<Env>,
        abstracts: Vec<AbsInfo>,
    },
    /// A functor type `(p: a) -> b` with its parameter name (`_` when unnamed);
    /// matched leniently.
    Functor(Name, Arc<SigVal>, Arc<SigVal>),
}

/// Applies a substitution (to abstract types, parameters, sizes) throughout an
/// environment.
pub fn subst_env(env: &Env, sub: &Subst) -> Env {
    if sub.is_empty() {
        return env.clone();
    }
    Env {
        vals: env
            .vals
            .iter()
            .map(|(k, v)| {
                let mut s = v.scheme.clone();
                s.ty = subst_ty(&s.ty, sub);
                (
                    k.clone(),
                    Arc::new(ValInfo {
                        scheme: s,
                        span: v.span,
                        size: v.size.as_ref().map(|z| subst_size(z, sub)),
                    }),
                )
            })
            .collect(),
        types: env
            .types
            .iter()
            .map(|(k, d)| (k.clone(), Arc::new(subst_typedef(d, sub))))
            .collect(),
        mods: env
            .mods
            .iter()
            .map(|(k, m)| (k.clone(), Arc::new(subst_mod(m, sub))))
            .collect(),
        sigs: env.sigs.clone(),
    }
}

/// Applies a substitution to a type definition.
pub fn subst_typedef(d: &TypeDef, sub: &Subst) -> TypeDef {
    TypeDef {
        params: d.params.clone(),
        ty: subst_ty(&d.ty, sub),
        liftedness: d.liftedness,
    }
}

/// Applies a substitution to a module value (functors are left alone: they are
/// re-checked on application).
pub fn subst_mod(m: &ModVal, sub: &Subst) -> ModVal {
    match m {
        ModVal::Struct(e) => ModVal::Struct(Arc::new(subst_env(e, sub))),
        ModVal::Functor(_) => m.clone(),
    }
}

/// Applies a substitution to a signature.
pub fn subst_sig(s: &SigVal, sub: &Subst) -> SigVal {
    match s {
        SigVal::Specs { env, abstracts } => SigVal::Specs {
            env: Arc::new(subst_env(env, sub)),
            abstracts: abstracts
                .iter()
                .filter_map(|a| match sub.get(&a.uid) {
                    None => Some(a.clone()),
                    Some(SubstTarget::Def(TypeDef {
                        ty: crate::types::Ty::Abs(nu, _, _),
                        ..
                    })) => Some(AbsInfo {
                        uid: *nu,
                        ..a.clone()
                    }),
                    Some(_) => None,
                })
                .collect(),
        },
        SigVal::Functor(p, a, b) => SigVal::Functor(
            p.clone(),
            Arc::new(subst_sig(a, sub)),
            Arc::new(subst_sig(b, sub)),
        ),
    }
}
