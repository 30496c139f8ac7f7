//! The checker's state: scopes, name lookup, diagnostics and helpers shared by the
//! expression, pattern, type and module checkers.

use crate::env::{Env, ModVal, SigVal, ValInfo};
use crate::types::{Scheme, Size, SubstTarget, TParam, Ty, TypeDef, Uid, subst_ty};
use crate::unify::{UErr, Unifier, describe_mask};
use crate::{CheckOptions, EntryPoint, FileEnv};
use std::collections::HashMap;
use std::sync::Arc;
use syntax::Diagnostic;
use syntax::ast::{Ident, Liftedness, Name, NodeId, QualName, Span};

/// A local value binding.
#[derive(Clone, Debug)]
pub struct Local {
    /// Identity, also used as the size identity when the value is used as a size.
    pub uid: Uid,
    /// The type (monomorphic locals) ...
    pub ty: Ty,
    /// ... or a scheme (local polymorphic functions).
    pub scheme: Option<Scheme>,
    /// The bindings whose storage this value may share (including itself).
    pub aliases: Vec<Uid>,
    /// Whether the value may be consumed.
    pub consumable: bool,
    /// For a tuple whose components have their own aliases (a parameter typed
    /// `(i64, *[]i64)`): the aliases of each component.
    pub parts: Option<Vec<Al>>,
    /// Function/loop nesting depth at which it was bound.
    pub depth: u32,
    /// Where it was bound.
    pub span: Span,
}

/// One layer of the scope.
#[derive(Clone, Debug)]
pub enum Frame {
    /// Module-level bindings; `true` when the checker may still add to it.
    Env(Arc<Env>, bool),
    /// One local value.
    Local(Name, Box<Local>),
}

/// A value found by name lookup.
pub enum ValRef {
    Local(Box<Local>),
    Global(Arc<ValInfo>),
}

/// Aliasing information of an expression's value.
#[derive(Clone, Debug, Default)]
pub struct Al {
    /// Bindings the value may alias.
    pub set: Vec<Uid>,
    /// For tuple values built from parts: the aliases of each component.
    pub parts: Option<Vec<Al>>,
}

impl Al {
    /// No aliases.
    pub fn none() -> Al {
        Al::default()
    }

    /// Aliases of a set of bindings.
    pub fn of(set: Vec<Uid>) -> Al {
        Al { set, parts: None }
    }

    /// The union of all aliases.
    pub fn all(&self) -> Vec<Uid> {
        let mut v = self.set.clone();
        if let Some(ps) = &self.parts {
            for p in ps {
                for u in p.all() {
                    if !v.contains(&u) {
                        v.push(u);
                    }
                }
            }
        }
        v
    }

    /// The aliases without the given bindings (consumed while computing the value).
    pub fn without(&self, gone: &[Uid]) -> Al {
        Al {
            set: self
                .set
                .iter()
                .copied()
                .filter(|u| !gone.contains(u))
                .collect(),
            parts: self
                .parts
                .as_ref()
                .map(|ps| ps.iter().map(|p| p.without(gone)).collect()),
        }
    }

    /// Adds the aliases of another value.
    pub fn join(&mut self, other: &Al) {
        for u in other.all() {
            if !self.set.contains(&u) {
                self.set.push(u);
            }
        }
        if self.parts.is_some() {
            let all = self.all();
            self.set = all;
            self.parts = None;
        }
    }
}

/// The alias identity standing for global (top-level) values, never consumable.
pub const GLOBAL: Uid = 0;

/// The alias identity of values returned by a function that is not known statically (a
/// function-typed parameter or lambda-bound variable): they may alias anything, so they
/// are never consumable.
pub const UNKNOWN_FUN: Uid = 1;

/// The state of checking one file.
pub struct Checker<'a> {
    pub u: Unifier,
    pub scope: Vec<Frame>,
    pub diags: Vec<Diagnostic>,
    /// While positive, diagnostics and elaboration are suppressed (functor bodies being
    /// re-checked for an application).
    pub quiet: u32,
    pub imports: &'a HashMap<String, Arc<FileEnv>>,
    pub opts: CheckOptions,
    /// Literal nodes and their (unresolved) types, for elaboration.
    pub lits: Vec<(NodeId, Ty)>,
    /// The size arguments of the latest instantiation of a scheme with size
    /// parameters: each parameter's name and the size variable standing for it.
    pub inst_sizes: Vec<(Name, crate::types::Size)>,
    /// Uses of functions with size parameters (by node) and their size arguments,
    /// resolved when the file has been checked (see [`ast::File::size_args`]).
    ///
    /// [`ast::File::size_args`]: syntax::ast::File::size_args
    pub size_uses: Vec<(NodeId, Vec<(Name, crate::types::Size)>)>,
    /// The size variables standing for loop parameters' sizes inside loop bodies
    /// (`crate::loop_sizes`).
    pub loop_vars: std::collections::HashSet<u32>,
    /// Prims-constrained variables created by literals and operators, with where.
    pub overloads: Vec<(u32, Span)>,
    /// The operand types of uses of the builtin `==` and `!=`, with where: comparing
    /// arrays is deprecated (W002), which is known once the types are resolved.
    pub eq_uses: Vec<(Ty, Span)>,
    /// In-place updates whose value shares storage with the array updated but whose
    /// type is not known yet (an element of an array whose element type is still an
    /// inference variable): an error (U002) only if the type turns out to hold arrays,
    /// which is known once the types are resolved. The value's type, the target's
    /// name, where.
    pub update_sources: Vec<(Ty, String, Span)>,
    /// Element types of empty array literals, with where.
    pub empty_arrays: Vec<(u32, Span)>,
    /// Empty array literals (by node) and their element types, resolved when the file
    /// has been checked (see [`ast::File::empty_array_types`]).
    ///
    /// [`ast::File::empty_array_types`]: syntax::ast::File::empty_array_types
    pub empty_lits: Vec<(NodeId, Ty)>,
    /// Size variables made for anonymous sizes `[]` in the types of size coercions
    /// (`e :> []t`), with the coercion's type expression: each must be determined by
    /// the end of the top-level definition.
    pub coerce_sizes: Vec<(u32, Span)>,
    /// Size variables standing for the size parameters of a use of a function
    /// (`unflatten`'s `[n][m]`), with the parameter's name, the function's name, the
    /// use, and whether a parameter type mentions it. Each of the latter must be
    /// determined by the end of the top-level definition, unless it equals a size
    /// that only a result type mentions (one the function makes).
    pub inst_checks: Vec<(u32, Name, String, Span, bool)>,
    /// The size variables of the latest instantiation that stand for size parameters
    /// mentioned in the function's parameter types (only those can be ambiguous: one
    /// that only a result type mentions is made by the function).
    pub inst_param_sizes: Vec<u32>,
    /// The size variables that instantiated a size parameter taken from the
    /// context of a use (see [`crate::types::mark_context_size`]).
    pub context_insts: Vec<u32>,
    /// How many diagnostics there were when the current top-level definition
    /// began: an ambiguous size is not reported after an error (it is its effect).
    pub def_diag_mark: usize,
    /// Constructor/field-constrained variables, with where.
    pub open_records: Vec<(u32, Span)>,
    /// Consumed bindings and where they were consumed.
    pub consumed: HashMap<Uid, Span>,
    /// Every consumption in order (to drop aliases consumed while computing a value).
    pub consume_log: Vec<Uid>,
    /// Every use of a local in order: the alias identities the use observes, with the
    /// local's name and the use's location (to find what a function body or loop body
    /// reads).
    pub use_log: Vec<(Uid, Name, Span)>,
    /// Function/loop nesting depth.
    pub depth: u32,
    pub entries: Vec<EntryPoint>,
    /// The last top-level `def main`, an entry point like those declared with `entry`.
    pub last_main: Option<(syntax::ast::ValBind, Scheme, bool)>,
    /// Matches and let patterns to check for exhaustiveness at the end of the
    /// current top-level definition.
    pub pending: Vec<crate::expr::PendingMatch>,
    /// The existential sizes made for anonymous sizes `[]` in return types and other
    /// declared types (as opposed to those bound by `?[n]`), which a definition's body
    /// may identify with each other.
    pub anon_hidden: Vec<Uid>,
    /// The top-level function being defined without a return type annotation (it is
    /// not in scope in its own body; used to explain an unknown-name error).
    pub defining: Option<Name>,
    /// Variables bound inside tuple or record parameter patterns, which may not be used
    /// as sizes in the function's return type (only whole parameters may).
    pub unsizable: Vec<Uid>,
}

impl<'a> Checker<'a> {
    /// A checker over the given imports.
    pub fn new(imports: &'a HashMap<String, Arc<FileEnv>>, opts: CheckOptions) -> Self {
        Checker {
            u: Unifier::default(),
            scope: Vec::new(),
            diags: Vec::new(),
            quiet: 0,
            imports,
            opts,
            lits: Vec::new(),
            inst_sizes: Vec::new(),
            size_uses: Vec::new(),
            loop_vars: std::collections::HashSet::new(),
            overloads: Vec::new(),
            eq_uses: Vec::new(),
            update_sources: Vec::new(),
            open_records: Vec::new(),
            empty_arrays: Vec::new(),
            empty_lits: Vec::new(),
            coerce_sizes: Vec::new(),
            inst_checks: Vec::new(),
            inst_param_sizes: Vec::new(),
            context_insts: Vec::new(),
            def_diag_mark: 0,
            consumed: HashMap::new(),
            consume_log: Vec::new(),
            use_log: Vec::new(),
            depth: 0,
            entries: Vec::new(),
            last_main: None,
            pending: Vec::new(),
            anon_hidden: Vec::new(),
            defining: None,
            unsizable: Vec::new(),
        }
    }

    /// Reports a diagnostic unless quiet.
    pub fn report(&mut self, d: Diagnostic) {
        if self.quiet == 0 {
            self.diags.push(d);
        }
    }

    /// Displays a type with its variables resolved.
    pub fn show(&self, t: &Ty) -> String {
        self.u.zonk(t).to_string()
    }

    /// Displays two types that a message compares: distinct abstract types that would
    /// both print as the same name are qualified by the module that exports them
    /// (`M.t` and `N.t`).
    pub fn show_two(&self, a: &Ty, b: &Ty) -> (String, String) {
        let (a, b) = (self.u.zonk(a), self.u.zonk(b));
        let mut abs: Vec<(Uid, Name)> = Vec::new();
        abs_types(&a, &mut abs);
        abs_types(&b, &mut abs);
        let mut rename: HashMap<Uid, Name> = HashMap::new();
        for (u, n) in &abs {
            if abs.iter().any(|(w, m)| m == n && w != u)
                && let Some(q) = self.abs_path(*u)
            {
                rename.insert(*u, q.into());
            }
        }
        if rename.is_empty() {
            return (a.to_string(), b.to_string());
        }
        (
            rename_abs(&a, &rename).to_string(),
            rename_abs(&b, &rename).to_string(),
        )
    }

    /// The qualified name under which the abstract type `uid` is visible from the
    /// current scope (`M.t`), searching modules a few levels deep.
    fn abs_path(&self, uid: Uid) -> Option<String> {
        fn search(env: &Env, uid: Uid, prefix: &str, depth: u32) -> Option<String> {
            let mut names: Vec<&Name> = env.types.keys().collect();
            names.sort();
            for n in names {
                if matches!(&env.types[n].ty, Ty::Abs(u, _, _) if *u == uid) {
                    return Some(format!("{prefix}{n}"));
                }
            }
            if depth == 0 {
                return None;
            }
            let mut mods: Vec<&Name> = env.mods.keys().collect();
            mods.sort();
            for m in mods {
                if let ModVal::Struct(e) = &*env.mods[m]
                    && let Some(q) = search(e, uid, &format!("{prefix}{m}."), depth - 1)
                {
                    return Some(q);
                }
            }
            None
        }
        self.scope.iter().rev().find_map(|f| match f {
            Frame::Env(e, _) => search(e, uid, "", 3),
            _ => None,
        })
    }

    /// The diagnostic for a unification failure.
    pub fn unify_diag(&self, err: &UErr, span: Span, expected: &Ty, found: &Ty) -> Diagnostic {
        let (e, f) = self.show_two(expected, found);
        match err {
            UErr::Mismatch(a, b) => {
                let unshared = unshared_constructors(&self.u.zonk(a), &self.u.zonk(b));
                let (a, b) = self.show_two(a, b);
                let mut d = Diagnostic::error(
                    "T002",
                    format!("type mismatch: expected `{e}`, found `{f}`{unshared}"),
                    span,
                    format!("this has type `{f}`"),
                );
                if a != e || b != f {
                    d = d.with_hint(format!("`{a}` and `{b}` differ"));
                }
                d
            }
            UErr::Size(a, b) => Diagnostic::error(
                "S001",
                format!("Dimensions `{a}` and `{b}` do not match"),
                span,
                format!("expected `{e}`, found `{f}`"),
            ),
            UErr::Unknown(a, b) => {
                let show = |s: &Size| match s {
                    Size::Exist(_) => "a size unknown until run time".to_string(),
                    s => format!("size `{s}`"),
                };
                Diagnostic::error(
                    "S003",
                    format!("sizes do not match: {} and {}", show(a), show(b)),
                    span,
                    format!("expected `{e}`, found `{f}`"),
                )
                .with_hint(format!("if they are equal at run time, coerce with `:> {e}`"))
            }
            UErr::Causality(..) => Diagnostic::error(
                "S003",
                "Causality check: a size of a value bound earlier would have to equal an \
                 unknown size that is only computed later",
                span,
                format!("expected `{e}`, found `{f}`"),
            )
            .with_hint("bind the later value first, or coerce with `:>` to a size known earlier"),
            UErr::Scope(_, inner) => Diagnostic::error(
                "S002",
                format!(
                    "Size `{inner}` is a parameter of a function or lambda inside the scope of \
                     this size: it would escape its scope (scope violation)"
                ),
                span,
                format!("expected `{e}`, found `{f}`"),
            )
            .with_hint("make the sizes equal outside the function, or coerce with `:>`"),
            UErr::Lifted(t) => Diagnostic::error(
                "T007",
                format!(
                    "functional type `{}` used where a non-functional type is required",
                    self.show(t)
                ),
                span,
                "this is a function",
            )
            .with_hint("functions may not be stored in arrays, returned from `if`, `match` or `loop`, or instantiate a type parameter declared without `^`"),
            UErr::NotIn(t, m) => Diagnostic::error(
                "T002",
                format!("type mismatch: `{}` is not {}", self.show(t), describe_mask(*m)),
                span,
                format!("this has type `{f}`"),
            ),
            UErr::NoEq(t) => Diagnostic::error(
                "T002",
                format!("type `{}` does not support equality", self.show(t)),
                span,
                "compared here",
            ),
            UErr::Field(n, t) => Diagnostic::error(
                "T004",
                format!("type `{}` has no field `{n}`", self.show(t)),
                span,
                format!("this has type `{f}`"),
            ),
            UErr::Constr(n, t) => Diagnostic::error(
                "T002",
                format!("type `{}` has no constructor `#{n}`", self.show(t)),
                span,
                format!("expected `{e}`"),
            ),
            UErr::ConstrArity(n, has, used, t) => Diagnostic::error(
                "T002",
                format!(
                    "Constructor `#{n}` with {used} payload{} cannot match type `{}`, whose `#{n}` has {has}",
                    if *used == 1 { "" } else { "s" },
                    self.show(t)
                ),
                span,
                format!("`#{n}` is used here with {used} payload{}", if *used == 1 { "" } else { "s" }),
            )
            .with_hint(format!("give `#{n}` exactly {has} payload{}", if *has == 1 { "" } else { "s" })),
            UErr::Dependent(n) => Diagnostic::error(
                "S002",
                format!(
                    "the result size of a function depends on its parameter \"{n}\", so \
                     its results cannot share one type (mapping it would give an irregular \
                     array)"
                ),
                span,
                format!("this has type `{f}`"),
            )
            .with_hint(format!("expected a function of type `{e}`, the same result type for every argument")),
            UErr::Occurs => Diagnostic::error(
                "T002",
                format!("type mismatch: `{e}` would have to contain itself (`{f}`)"),
                span,
                "an infinite type is needed here",
            ),
        }
    }

    /// Unifies `expected` with `found`, reporting a failure at `span`. Returns whether
    /// it succeeded.
    pub fn unify_at(&mut self, expected: &Ty, found: &Ty, span: Span) -> bool {
        self.unify_because(expected, found, span, None)
    }

    /// Like [`Checker::unify_at`], with a secondary label explaining the expectation.
    pub fn unify_because(
        &mut self,
        expected: &Ty,
        found: &Ty,
        span: Span,
        because: Option<(Span, &str)>,
    ) -> bool {
        match self.u.unify(expected, found) {
            Ok(()) => true,
            Err(e) => {
                let mut d = self.unify_diag(&e, span, expected, found);
                if let Some((s, m)) = because {
                    d = d.with_secondary(s, m);
                }
                self.report(d);
                false
            }
        }
    }

    // ----- scopes -----

    /// Pushes a fresh module-level frame that bindings are added to.
    pub fn push_env(&mut self) {
        self.scope.push(Frame::Env(Arc::new(Env::default()), true));
    }

    /// The innermost frame that module-level bindings may be added to.
    pub fn own_env(&mut self) -> &mut Env {
        if !matches!(self.scope.last(), Some(Frame::Env(_, true))) {
            self.push_env();
        }
        match self.scope.last_mut() {
            Some(Frame::Env(e, true)) => Arc::make_mut(e),
            _ => unreachable!("an own frame was just pushed"),
        }
    }

    /// Brings an environment into scope (open/import).
    pub fn open_env(&mut self, env: Arc<Env>) {
        self.scope.push(Frame::Env(env, false));
    }

    /// Binds a local value.
    pub fn push_local(&mut self, name: Name, local: Local) {
        self.scope.push(Frame::Local(name, Box::new(local)));
    }

    /// Looks up an unqualified value.
    pub fn lookup_val(&self, name: &str) -> Option<ValRef> {
        for f in self.scope.iter().rev() {
            match f {
                Frame::Local(n, l) if &**n == name => return Some(ValRef::Local(l.clone())),
                Frame::Env(e, _) => {
                    if let Some(v) = e.vals.get(name) {
                        return Some(ValRef::Global(v.clone()));
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The size a module-level value denotes when used as a size (see
    /// [`ValInfo::size`]), looked up without reporting unknown names; `None` for locals,
    /// unknown names and values that are not sizes.
    pub fn global_size(&self, qn: &syntax::ast::QualName) -> Option<crate::types::Size> {
        let Some((first, rest)) = qn.quals.split_first() else {
            return match self.lookup_val(&qn.name.name)? {
                ValRef::Global(v) => v.size.clone(),
                ValRef::Local(_) => None,
            };
        };
        let mut env = match &*self.lookup_mod(&first.name)? {
            ModVal::Struct(e) => e.clone(),
            ModVal::Functor(_) => return None,
        };
        for q in rest {
            env = match &**env.mods.get(&q.name)? {
                ModVal::Struct(e) => e.clone(),
                ModVal::Functor(_) => return None,
            };
        }
        // A size that is the member's own name is named by its whole path, which
        // is how a use outside the module (a functor's parameter `Size.n`) can
        // evaluate it.
        match env.vals.get(&qn.name.name)?.size.clone()? {
            Size::Named(u, n) if n == qn.name.name => {
                Some(Size::Named(u, crate::typeexp::qn_string(qn).into()))
            }
            s => Some(s),
        }
    }

    /// Looks up a local by name only (for sizes).
    pub fn lookup_local(&self, name: &str) -> Option<&Local> {
        for f in self.scope.iter().rev() {
            match f {
                Frame::Local(n, l) if &**n == name => return Some(l),
                Frame::Env(e, _) if e.vals.contains_key(name) => return None,
                _ => {}
            }
        }
        None
    }

    fn lookup_in_envs<T: Clone>(&self, get: impl Fn(&Env) -> Option<T>) -> Option<T> {
        for f in self.scope.iter().rev() {
            if let Frame::Env(e, _) = f
                && let Some(v) = get(e)
            {
                return Some(v);
            }
        }
        None
    }

    /// Whether the unqualified module `name` is the prelude's: found first in the
    /// outermost frame, which holds the prelude when a user file is checked.
    pub fn mod_is_prelude(&self, name: &str) -> bool {
        if self.opts.allow_intrinsics {
            return false;
        }
        for (i, f) in self.scope.iter().enumerate().rev() {
            if let Frame::Env(e, _) = f
                && e.mods.contains_key(name)
            {
                return i == 0;
            }
        }
        false
    }

    /// Looks up an unqualified module.
    pub fn lookup_mod(&self, name: &str) -> Option<Arc<ModVal>> {
        self.lookup_in_envs(|e| e.mods.get(name).cloned())
    }

    /// Looks up an unqualified module type.
    pub fn lookup_sig_name(&self, name: &str) -> Option<Arc<SigVal>> {
        self.lookup_in_envs(|e| e.sigs.get(name).cloned())
    }

    /// Looks up an unqualified type.
    pub fn lookup_type_name(&self, name: &str) -> Option<Arc<TypeDef>> {
        self.lookup_in_envs(|e| e.types.get(name).cloned())
    }

    /// Resolves the qualifiers of a name to a module environment. Reports unknown
    /// modules.
    pub fn resolve_quals(&mut self, quals: &[Ident]) -> Option<Arc<Env>> {
        let first = quals.first()?;
        let Some(m) = self.lookup_mod(&first.name) else {
            let cands = self.all_names(|e| e.mods.keys().cloned().collect());
            let d = Diagnostic::error(
                "T001",
                format!("unknown module `{}`", first.name),
                first.span,
                "not defined",
            );
            let d = with_suggestion(d, &first.name, &cands);
            self.report(d);
            return None;
        };
        let mut env = self.mod_env(&m, first)?;
        for q in &quals[1..] {
            let Some(m) = env.mods.get(&q.name).cloned() else {
                self.report(Diagnostic::error(
                    "T001",
                    format!("unknown module `{}`", q.name),
                    q.span,
                    "not defined in this module",
                ));
                return None;
            };
            env = self.mod_env(&m, q)?;
        }
        Some(env)
    }

    /// The environment of a structure; reports functors used as structures.
    pub fn mod_env(&mut self, m: &ModVal, at: &Ident) -> Option<Arc<Env>> {
        match m {
            ModVal::Struct(e) => Some(e.clone()),
            ModVal::Functor(_) => {
                self.report(Diagnostic::error(
                    "T008",
                    format!("`{}` is a parametric module, not a structure", at.name),
                    at.span,
                    "apply it to a module first",
                ));
                None
            }
        }
    }

    /// Looks up a possibly qualified type name.
    pub fn lookup_type(&mut self, qn: &QualName) -> Option<Arc<TypeDef>> {
        if qn.quals.is_empty() {
            return self.lookup_type_name(&qn.name.name);
        }
        let env = self.resolve_quals(&qn.quals)?;
        env.types.get(&qn.name.name).cloned()
    }

    /// Names in scope, for suggestions.
    pub fn all_names(&self, get: impl Fn(&Env) -> Vec<Name>) -> Vec<Name> {
        let mut out = Vec::new();
        for f in &self.scope {
            match f {
                Frame::Env(e, _) => out.extend(get(e)),
                Frame::Local(n, _) => out.push(n.clone()),
            }
        }
        out
    }

    /// Value names in scope, for suggestions.
    pub fn value_names(&self) -> Vec<Name> {
        let mut out = Vec::new();
        for f in &self.scope {
            match f {
                Frame::Env(e, _) => out.extend(e.vals.keys().cloned()),
                Frame::Local(n, _) => out.push(n.clone()),
            }
        }
        out
    }

    // ----- schemes -----

    /// Instantiates a scheme with fresh variables.
    pub fn instantiate(&mut self, s: &Scheme) -> Ty {
        if s.params.is_empty() {
            return s.ty.clone();
        }
        let mut sub = HashMap::new();
        self.inst_sizes.clear();
        self.inst_param_sizes.clear();
        for p in &s.params {
            match p {
                TParam::Type(u, _, l) => {
                    let v = if s.eq_params.contains(u) {
                        self.u.fresh_eq()
                    } else {
                        self.u
                            .fresh_with(crate::unify::Cons::None, *l == Liftedness::Unlifted)
                    };
                    sub.insert(*u, SubstTarget::Ty(v));
                }
                TParam::Size(u, n) => {
                    let v = self.u.fresh_size();
                    // A size the parameter types determine, or one only the result
                    // type names (determined by the context of the use), must be
                    // determined by the end of the definition.
                    if let crate::types::Size::Var(w) = v
                        && (param_types_mention(&s.ty, *u) || crate::types::is_context_size(*u))
                    {
                        if crate::types::is_context_size(*u) {
                            self.context_insts.push(w);
                        }
                        self.inst_param_sizes.push(w);
                    }
                    self.inst_sizes.push((n.clone(), v.clone()));
                    sub.insert(*u, SubstTarget::Size(v));
                }
            }
        }
        subst_ty(&s.ty, &sub)
    }

    /// Whether a value of this type may share storage with another (arrays, and types
    /// not yet known).
    pub fn may_alias(&self, t: &Ty) -> bool {
        match self.u.shallow(t) {
            Ty::Prim(_) | Ty::Error | Ty::Arrow(_) => false,
            Ty::Var(v) => !matches!(
                self.u.info(v).map(|i| &i.cons),
                Some(crate::unify::Cons::Prims { .. })
            ),
            Ty::Tuple(ts) => ts.iter().any(|t| self.may_alias(t)),
            Ty::Record(fs) => fs.iter().any(|(_, t)| self.may_alias(t)),
            Ty::Sum(cs) => cs
                .iter()
                .any(|(_, ts)| ts.iter().any(|t| self.may_alias(t))),
            _ => true,
        }
    }
}

/// The abstract types in a type, with their names.
fn abs_types(t: &Ty, out: &mut Vec<(Uid, Name)>) {
    match t {
        Ty::Abs(u, n, args) => {
            if !out.iter().any(|(w, _)| w == u) {
                out.push((*u, n.clone()));
            }
            for a in args {
                if let crate::types::TyArg::Ty(t) = a {
                    abs_types(t, out);
                }
            }
        }
        Ty::Array(e, _) => abs_types(e, out),
        Ty::Tuple(ts) => ts.iter().for_each(|t| abs_types(t, out)),
        Ty::Record(fs) => fs.iter().for_each(|(_, t)| abs_types(t, out)),
        Ty::Sum(cs) => cs
            .iter()
            .for_each(|(_, ts)| ts.iter().for_each(|t| abs_types(t, out))),
        Ty::Arrow(a) => {
            abs_types(&a.param, out);
            abs_types(&a.ret, out);
        }
        Ty::Prim(_) | Ty::Var(_) | Ty::Param(..) | Ty::Error => {}
    }
}

/// A copy of a type with the abstract types in `names` renamed (for display).
fn rename_abs(t: &Ty, names: &HashMap<Uid, Name>) -> Ty {
    let r = |t: &Ty| rename_abs(t, names);
    match t {
        Ty::Abs(u, n, args) => Ty::Abs(
            *u,
            names.get(u).cloned().unwrap_or_else(|| n.clone()),
            args.iter()
                .map(|a| match a {
                    crate::types::TyArg::Ty(t) => crate::types::TyArg::Ty(r(t)),
                    a => a.clone(),
                })
                .collect(),
        ),
        Ty::Array(e, s) => Ty::Array(Box::new(r(e)), s.clone()),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(r).collect()),
        Ty::Record(fs) => Ty::Record(fs.iter().map(|(n, t)| (n.clone(), r(t))).collect()),
        Ty::Sum(cs) => Ty::Sum(
            cs.iter()
                .map(|(n, ts)| (n.clone(), ts.iter().map(r).collect()))
                .collect(),
        ),
        Ty::Arrow(a) => {
            let mut a2 = (**a).clone();
            a2.param = r(&a.param);
            a2.ret = r(&a.ret);
            Ty::Arrow(Box::new(a2))
        }
        t => t.clone(),
    }
}

/// For two sum types whose constructors differ, `: Unshared constructors: #a, #b`
/// naming the constructors only one of them has; empty otherwise.
pub fn unshared_constructors(a: &Ty, b: &Ty) -> String {
    let (Ty::Sum(xs), Ty::Sum(ys)) = (a, b) else {
        return String::new();
    };
    let mut only: Vec<String> = Vec::new();
    for (n, _) in xs {
        if !ys.iter().any(|(m, _)| m == n) {
            only.push(format!("#{n}"));
        }
    }
    for (n, _) in ys {
        if !xs.iter().any(|(m, _)| m == n) {
            only.push(format!("#{n}"));
        }
    }
    if only.is_empty() {
        String::new()
    } else {
        format!(" (Unshared constructors: {})", only.join(", "))
    }
}

/// Optimal string alignment distance (Levenshtein with transpositions of adjacent
/// characters), for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// Adds a "did you mean" hint when a candidate is close to `name`.
pub fn with_suggestion(d: Diagnostic, name: &str, cands: &[Name]) -> Diagnostic {
    let limit = (name.chars().count() / 3).max(1);
    let best = cands
        .iter()
        .filter(|c| &***c != name)
        .map(|c| (edit_distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(b.1)));
    match best {
        Some((_, c)) => d.with_hint(format!("did you mean `{c}`?")),
        None => d,
    }
}

/// Whether a parameter type of the function type `t` mentions the size `uid`.
/// Whether the final result type of a function type names the size `uid` while no
/// parameter type or parameter name does (`def rep [n] 't (x: t) : [n]t`).
pub fn result_only(t: &Ty, uid: crate::types::Uid) -> bool {
    let mut r = t;
    while let Ty::Arrow(a) = r {
        if a.pname.as_ref().is_some_and(|(u, _)| *u == uid) {
            return false;
        }
        r = &a.ret;
    }
    !param_types_mention(t, uid) && crate::types::ty_mentions(r, uid)
}

fn param_types_mention(t: &Ty, uid: crate::types::Uid) -> bool {
    match t {
        Ty::Arrow(a) => {
            crate::types::ty_mentions(&a.param, uid) || param_types_mention(&a.ret, uid)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(edit_distance("foo", "foo"), 0);
        assert_eq!(edit_distance("alpah", "alpha"), 1);
    }

    #[test]
    fn suggestion_picks_near_name() {
        let d = Diagnostic::error("T001", "unknown", Span::default(), "x");
        let d = with_suggestion(d, "lenght", &[Name::from("length"), Name::from("map")]);
        assert_eq!(d.hints, vec!["did you mean `length`?".to_string()]);
    }
}
