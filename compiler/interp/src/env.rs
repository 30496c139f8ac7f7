//! Environments: local bindings, module-level scopes and module values.
//!
//! A module-level [`Scope`] only grows: each definition gets a sequence number, and an
//! [`Env`] sees the definitions made before its `limit`. A closure defined at the top
//! level thus captures the scope as it was at its definition (later shadowing
//! definitions stay invisible to it) without copying any map. Local bindings form a
//! linked list in front of the scope.
//!
//! Each environment also keeps a small filter of the names of its local values (one
//! bit per name, chosen from its length and end characters) and whether it has
//! opened a module locally. A name whose bit is clear in an environment without local
//! opens is not local, so looking up a module-level name (a function, a prelude
//! module) skips the walk over the locals. [`Env::global_val`] and [`Env::scope_key`]
//! let the evaluator cache such lookups: the module-level part of an environment is
//! fixed by its scope and limit.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

use syntax::ast::{self, Name};

use crate::hash::FastMap as HashMap;
use crate::value::Value;

/// A type abbreviation, kept for the sizes it may carry.
#[derive(Debug)]
pub struct TypeDef {
    /// The type's parameters.
    pub params: Vec<ast::TypeParam>,
    /// Its definition, if it is not abstract.
    pub def: Option<ast::TypeExp>,
    /// The environment its definition's names resolve in.
    pub env: Env,
    /// Whether matching a value against the definition can never bind or check a
    /// size, once known (see `Interp::check_type`).
    pub(crate) trivial: Cell<Option<bool>>,
}

impl TypeDef {
    /// A type abbreviation.
    pub fn new(params: Vec<ast::TypeParam>, def: Option<ast::TypeExp>, env: Env) -> TypeDef {
        TypeDef {
            params,
            def,
            env,
            trivial: Cell::new(None),
        }
    }
}

/// A module type (signature) with the environment its names resolve in; at run time
/// it decides which names an ascribed module exposes.
pub type SigDef = semantic::module_eval::SigDef<Env>;

/// A module value: its values, types, sub-modules and module types.
pub type Module = semantic::module_eval::Structure<
    Value,
    Rc<TypeDef>,
    Env,
    std::hash::BuildHasherDefault<crate::hash::FastHasher>,
>;

/// A module or a functor.
pub type ModVal = semantic::module_eval::ModVal<Module, Env>;

/// A functor: a closure over a module environment.
pub type Functor = semantic::module_eval::Functor<Env>;

struct Entry<T> {
    seq: u32,
    item: T,
    exported: bool,
}

#[derive(Default)]
struct ScopeData {
    vals: HashMap<Name, Vec<Entry<Value>>>,
    types: HashMap<Name, Vec<Entry<Rc<TypeDef>>>>,
    mods: HashMap<Name, Vec<Entry<ModVal>>>,
    sigs: HashMap<Name, Vec<Entry<Rc<SigDef>>>>,
    seq: u32,
}

/// A module-level scope that grows as declarations are evaluated.
#[derive(Default)]
pub struct Scope {
    data: RefCell<ScopeData>,
    parent: Option<Env>,
}

impl fmt::Debug for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Scope({} defs)", self.data.borrow().seq)
    }
}

fn latest<T: Clone>(entries: Option<&Vec<Entry<T>>>, limit: u32) -> Option<T> {
    entries?
        .iter()
        .rev()
        .find(|e| e.seq < limit)
        .map(|e| e.item.clone())
}

fn push<T>(map: &mut HashMap<Name, Vec<Entry<T>>>, seq: u32, name: Name, item: T, exported: bool) {
    map.entry(name).or_default().push(Entry {
        seq,
        item,
        exported,
    });
}

fn exports<T: Clone>(map: &HashMap<Name, Vec<Entry<T>>>) -> HashMap<Name, T> {
    map.iter()
        .filter_map(|(n, es)| {
            let e = es.last()?;
            e.exported.then(|| (n.clone(), e.item.clone()))
        })
        .collect()
}

impl Scope {
    /// An empty scope nested in `parent` (whose names are visible behind its own).
    pub fn new(parent: Option<Env>) -> Rc<Scope> {
        Rc::new(Scope {
            data: RefCell::default(),
            parent,
        })
    }

    fn next_seq(&self) -> u32 {
        let mut d = self.data.borrow_mut();
        d.seq += 1;
        d.seq - 1
    }

    /// Defines a value.
    pub fn define_val(&self, name: Name, v: Value, exported: bool) {
        let seq = self.next_seq();
        push(&mut self.data.borrow_mut().vals, seq, name, v, exported);
    }

    /// Defines a type.
    pub fn define_type(&self, name: Name, t: Rc<TypeDef>, exported: bool) {
        let seq = self.next_seq();
        push(&mut self.data.borrow_mut().types, seq, name, t, exported);
    }

    /// Defines a module.
    pub fn define_mod(&self, name: Name, m: ModVal, exported: bool) {
        let seq = self.next_seq();
        push(&mut self.data.borrow_mut().mods, seq, name, m, exported);
    }

    /// Defines a module type.
    pub fn define_sig(&self, name: Name, s: Rc<SigDef>, exported: bool) {
        let seq = self.next_seq();
        push(&mut self.data.borrow_mut().sigs, seq, name, s, exported);
    }

    /// Defines everything in `m`, as `open` does.
    pub fn open(&self, m: &Module, exported: bool) {
        for (n, v) in &m.vals {
            self.define_val(n.clone(), v.clone(), exported);
        }
        for (n, t) in &m.types {
            self.define_type(n.clone(), t.clone(), exported);
        }
        for (n, x) in &m.mods {
            self.define_mod(n.clone(), x.clone(), exported);
        }
        for (n, x) in &m.sigs {
            self.define_sig(n.clone(), x.clone(), exported);
        }
    }

    /// The exported bindings, as a module value.
    pub fn export(&self) -> Module {
        let d = self.data.borrow();
        Module {
            vals: exports(&d.vals),
            types: exports(&d.types),
            mods: exports(&d.mods),
            sigs: exports(&d.sigs),
        }
    }

    /// The latest value named `name`, exported or not (for entry points).
    pub fn latest_val(&self, name: &str) -> Option<Value> {
        latest(self.data.borrow().vals.get(name), u32::MAX)
    }
}

#[derive(Debug)]
enum LocalKind {
    /// A value; taken out (left `None`) when the program consumes it in an update.
    Val(Name, RefCell<Option<Value>>),
    Open(Rc<Module>),
}

#[derive(Debug)]
struct Local {
    kind: LocalKind,
    next: Option<Rc<Local>>,
}

/// An environment: local bindings in front of a module-level scope.
#[derive(Clone, Debug)]
pub struct Env {
    locals: Option<Rc<Local>>,
    scope: Rc<Scope>,
    limit: u32,
    /// The union of [`name_bit`] over the local value names.
    mask: u64,
    /// Whether a module is opened among the locals.
    opens: bool,
}

/// The filter bit of a name: a cheap function of its length and end bytes.
fn name_bit(name: &str) -> u64 {
    let b = name.as_bytes();
    let first = b.first().copied().unwrap_or(0) as u32;
    let last = b.last().copied().unwrap_or(0) as u32;
    let h = (b.len() as u32)
        .wrapping_mul(7)
        .wrapping_add(first)
        .wrapping_add(last.wrapping_mul(13));
    1u64 << (h % 64)
}

/// Are two names equal? Names are short, so comparing bytes inline beats calling
/// `memcmp`.
#[inline]
pub fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 16 {
        return a == b;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A module-level value found by [`Env::global_val`].
pub struct GlobalVal {
    /// The value.
    pub value: Value,
    /// Whether it depends only on the environment's [`Env::scope_key`] (no local
    /// binding of an enclosing environment took part), so that it may be cached.
    pub cacheable: bool,
}

impl Env {
    /// The environment seeing everything `scope` holds now.
    pub fn of_scope(scope: &Rc<Scope>) -> Env {
        let limit = scope.data.borrow().seq;
        Env {
            locals: None,
            scope: scope.clone(),
            limit,
            mask: 0,
            opens: false,
        }
    }

    /// What fixes the module-level part of this environment: its scope and limit.
    /// Two environments with the same key see the same module-level values.
    pub fn scope_key(&self) -> (&Rc<Scope>, u32) {
        (&self.scope, self.limit)
    }

    /// Whether a module is opened among the local bindings (`M.(e)`).
    pub fn has_local_opens(&self) -> bool {
        self.opens
    }

    /// Can `name` be bound locally (as a value, or by a local open)? `false` means
    /// it certainly is not.
    fn may_be_local(&self, name: &str) -> bool {
        self.opens || self.mask & name_bit(name) != 0
    }

    /// The same environment, but also seeing the next definition made in its scope
    /// (for a recursive function, whose closure must see itself).
    pub fn including_next_definition(mut self) -> Env {
        self.limit += 1;
        self
    }

    /// Adds a local value binding.
    pub fn bind(&self, name: Name, v: Value) -> Env {
        let mask = self.mask | name_bit(&name);
        Env {
            locals: Some(Rc::new(Local {
                kind: LocalKind::Val(name, RefCell::new(Some(v))),
                next: self.locals.clone(),
            })),
            scope: self.scope.clone(),
            limit: self.limit,
            mask,
            opens: self.opens,
        }
    }

    /// Makes the contents of a module visible (local open `M.(e)`).
    pub fn open(&self, m: Rc<Module>) -> Env {
        Env {
            locals: Some(Rc::new(Local {
                kind: LocalKind::Open(m),
                next: self.locals.clone(),
            })),
            scope: self.scope.clone(),
            limit: self.limit,
            mask: self.mask,
            opens: true,
        }
    }

    /// Looks up a value.
    pub fn val(&self, name: &str) -> Option<Value> {
        match self.local_val(name) {
            Some(v) => v,
            None => self.global_val(name).map(|g| g.value),
        }
    }

    /// Looks up a value among the local bindings: `None` if it is not bound locally,
    /// `Some(None)` if it is bound but was consumed.
    pub fn local_val(&self, name: &str) -> Option<Option<Value>> {
        if !self.may_be_local(name) {
            return None;
        }
        let mut l = self.locals.as_deref();
        while let Some(local) = l {
            match &local.kind {
                LocalKind::Val(n, v) if same_name(n, name) => return Some(v.borrow().clone()),
                LocalKind::Open(m) => {
                    if let Some(v) = m.vals.get(name) {
                        return Some(Some(v.clone()));
                    }
                }
                LocalKind::Val(..) => {}
            }
            l = local.next.as_deref();
        }
        None
    }

    /// Looks up a value behind the local bindings: in the scope as of the limit,
    /// then in the enclosing environments.
    pub fn global_val(&self, name: &str) -> Option<GlobalVal> {
        let mut env = self;
        loop {
            if let Some(value) = latest(env.scope.data.borrow().vals.get(name), env.limit) {
                return Some(GlobalVal {
                    value,
                    cacheable: true,
                });
            }
            match &env.scope.parent {
                Some(p) => {
                    if p.locals.is_some() {
                        return p.val(name).map(|value| GlobalVal {
                            value,
                            cacheable: false,
                        });
                    }
                    env = p
                }
                None => return None,
            }
        }
    }

    /// Is `name` bound as a local value (not a module-level one)?
    pub fn is_local_val(&self, name: &str) -> bool {
        if !self.may_be_local(name) {
            return false;
        }
        let mut l = self.locals.as_deref();
        while let Some(local) = l {
            match &local.kind {
                LocalKind::Val(n, _) if same_name(n, name) => return true,
                LocalKind::Open(m) if m.vals.contains_key(name) => return false,
                _ => {}
            }
            l = local.next.as_deref();
        }
        false
    }

    /// Takes a local value out of the environment, so that the caller holds the only
    /// reference and can update it in place. Only used where the program consumes
    /// the variable (the type checker guarantees it is not used afterwards).
    pub fn take_local(&self, name: &str) -> Option<Value> {
        if !self.may_be_local(name) {
            return None;
        }
        let mut l = self.locals.as_deref();
        while let Some(local) = l {
            match &local.kind {
                LocalKind::Val(n, v) if same_name(n, name) => return v.borrow_mut().take(),
                LocalKind::Open(m) if m.vals.contains_key(name) => return None,
                _ => {}
            }
            l = local.next.as_deref();
        }
        None
    }

    /// Looks up a type.
    pub fn ty(&self, name: &str) -> Option<Rc<TypeDef>> {
        self.lookup_in(name, |m| &m.types, |d| &d.types)
    }

    /// Looks up a module type.
    pub fn sig(&self, name: &str) -> Option<Rc<SigDef>> {
        self.lookup_in(name, |m| &m.sigs, |d| &d.sigs)
    }

    /// Looks up a module.
    pub fn module(&self, name: &str) -> Option<ModVal> {
        self.lookup_in(name, |m| &m.mods, |d| &d.mods)
    }

    /// Looks `name` up in one namespace other than values: modules opened locally
    /// (innermost first; skipped when there are none), then this scope up to the
    /// environment's limit, then the enclosing scopes.
    fn lookup_in<T: Clone>(
        &self,
        name: &str,
        opened: fn(&Module) -> &HashMap<Name, T>,
        defined: fn(&ScopeData) -> &HashMap<Name, Vec<Entry<T>>>,
    ) -> Option<T> {
        let mut l = if self.opens {
            self.locals.as_deref()
        } else {
            None
        };
        while let Some(local) = l {
            if let LocalKind::Open(m) = &local.kind
                && let Some(t) = opened(m).get(name)
            {
                return Some(t.clone());
            }
            l = local.next.as_deref();
        }
        if let Some(t) = latest(defined(&self.scope.data.borrow()).get(name), self.limit) {
            return Some(t);
        }
        self.scope
            .parent
            .as_ref()
            .and_then(|p| p.lookup_in(name, opened, defined))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closures_do_not_see_later_shadowing() {
        let scope = Scope::new(None);
        scope.define_val("x".into(), Value::i64(1), true);
        let early = Env::of_scope(&scope);
        scope.define_val("x".into(), Value::i64(2), true);
        let late = Env::of_scope(&scope);
        assert!(matches!(
            early.val("x"),
            Some(Value::Scalar(crate::scalar::Scalar::I64(1)))
        ));
        assert!(matches!(
            late.val("x"),
            Some(Value::Scalar(crate::scalar::Scalar::I64(2)))
        ));
        let local = late.bind("x".into(), Value::i64(3));
        assert!(matches!(
            local.val("x"),
            Some(Value::Scalar(crate::scalar::Scalar::I64(3)))
        ));
        assert!(local.val("y").is_none());
    }

    #[test]
    fn exports_skip_local_definitions() {
        let scope = Scope::new(None);
        scope.define_val("a".into(), Value::i64(1), true);
        scope.define_val("b".into(), Value::i64(1), false);
        let m = scope.export();
        assert!(m.vals.contains_key("a"));
        assert!(!m.vals.contains_key("b"));
        let parent = Env::of_scope(&scope);
        let inner = Scope::new(Some(parent));
        assert!(Env::of_scope(&inner).val("b").is_some());
    }
}
