//! Static environments: local bindings in front of module-level scopes, and
//! module values (structures and functors).
//!
//! An [`Env`] is a persistent linked list, so closures capture it cheaply; an
//! opened module is one node holding the module's maps.

use std::rc::Rc;

use syntax::ast::{self, Name};

use crate::value::V;

/// A type abbreviation with the environment it was defined in.
#[derive(Debug)]
pub(crate) struct TypeDef {
    pub params: Vec<ast::TypeParam>,
    pub def: Option<ast::TypeExp>,
    pub env: Env,
}

/// A module type with the environment it was defined in.
pub(crate) type SigDef = semantic::module_eval::SigDef<Env>;

/// A structure: its exported bindings.
pub(crate) type Module = semantic::module_eval::Structure<V, Rc<TypeDef>, Env>;

/// A module value.
pub(crate) type ModVal = semantic::module_eval::ModVal<Module, Env>;

#[derive(Debug)]
enum Node {
    Val(Name, V),
    Type(Name, Rc<TypeDef>),
    Mod(Name, ModVal),
    Sig(Name, Rc<SigDef>),
    Open(Rc<Module>),
}

/// An environment.
#[derive(Clone, Debug, Default)]
pub(crate) struct Env(Option<Rc<(Node, Env)>>);

impl Env {
    fn with(&self, n: Node) -> Env {
        Env(Some(Rc::new((n, self.clone()))))
    }

    /// Binds a value.
    pub fn bind(&self, name: Name, v: V) -> Env {
        self.with(Node::Val(name, v))
    }

    /// Binds a type.
    pub fn bind_type(&self, name: Name, t: Rc<TypeDef>) -> Env {
        self.with(Node::Type(name, t))
    }

    /// Binds a module.
    pub fn bind_mod(&self, name: Name, m: ModVal) -> Env {
        self.with(Node::Mod(name, m))
    }

    /// Binds a module type.
    pub fn bind_sig(&self, name: Name, s: Rc<SigDef>) -> Env {
        self.with(Node::Sig(name, s))
    }

    /// The module type bound to `name`.
    pub fn sig(&self, name: &str) -> Option<Rc<SigDef>> {
        self.iter().find_map(|n| match n {
            Node::Sig(m, s) if &**m == name => Some(s.clone()),
            Node::Open(m) => m.sigs.get(name).cloned(),
            _ => None,
        })
    }

    /// Opens a structure.
    pub fn open(&self, m: Rc<Module>) -> Env {
        self.with(Node::Open(m))
    }

    fn iter(&self) -> impl Iterator<Item = &Node> {
        let mut cur = self.0.as_deref();
        std::iter::from_fn(move || {
            let (n, next) = cur?;
            cur = next.0.as_deref();
            Some(n)
        })
    }

    /// The value bound to `name`.
    pub fn val(&self, name: &str) -> Option<V> {
        self.iter().find_map(|n| match n {
            Node::Val(m, v) if &**m == name => Some(v.clone()),
            Node::Open(m) => m.vals.get(name).cloned(),
            _ => None,
        })
    }

    /// The values bound by name (not through opened modules), innermost
    /// first.
    pub fn vals(&self) -> impl Iterator<Item = (&Name, &V)> {
        self.iter().filter_map(|n| match n {
            Node::Val(m, v) => Some((m, v)),
            _ => None,
        })
    }

    /// The type bound to `name`.
    pub fn type_def(&self, name: &str) -> Option<Rc<TypeDef>> {
        self.iter().find_map(|n| match n {
            Node::Type(m, t) if &**m == name => Some(t.clone()),
            Node::Open(m) => m.types.get(name).cloned(),
            _ => None,
        })
    }

    /// The module bound to `name`.
    pub fn module(&self, name: &str) -> Option<ModVal> {
        self.iter().find_map(|n| match n {
            Node::Mod(m, v) if &**m == name => Some(v.clone()),
            Node::Open(m) => m.mods.get(name).cloned(),
            _ => None,
        })
    }
}
