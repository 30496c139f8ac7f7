//! The internaliser's state: the program being built, the function under
//! construction, the loaded files and the specialisation memo.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use syntax::FileId;
use syntax::ast::{Expr, Name, NodeId, TypeExp};

use crate::env::{Env, Module};
use crate::fb::Fb;
use crate::specialise::Specialised;
use crate::value::T;

/// The size arguments of one use of a function.
pub(crate) type SizeArgs = Rc<Vec<(Name, Expr)>>;

/// A loaded file: its whole top-level environment and its exports.
pub(crate) struct Loaded {
    pub env: Env,
    pub module: Rc<Module>,
}

/// The internaliser.
pub(crate) struct Cx {
    /// The function under construction.
    pub fb: Fb,
    /// The program so far.
    pub prog: ir::Program,
    /// Specialised functions by key.
    pub memo: HashMap<String, Specialised>,
    /// Size arguments the checker recorded, by use site.
    pub size_args: HashMap<(FileId, NodeId), SizeArgs>,
    /// Element types of empty array literals the checker recorded, by node.
    pub empty_array_types: HashMap<(FileId, NodeId), TypeExp>,
    /// Loaded files.
    pub files: HashMap<FileId, Loaded>,
    /// The import map of the file being loaded.
    pub imports: HashMap<String, FileId>,
    /// Source texts, for assertion messages.
    pub sources: HashMap<FileId, Arc<str>>,
    /// Nesting of calls being internalised (inlined or specialised).
    pub depth: usize,
    /// Names given to functions so far.
    pub fun_names: HashMap<String, usize>,
    /// The shape of the `then` branch of the `if` whose `else` branch is
    /// being internalised (for an `else []`).
    pub then_shape: Option<crate::value::T>,
    /// The tags of sum constructors, by name.
    pub ctor_tags: HashMap<Name, i64>,
    /// Functions found to return closures (by the address of their
    /// definition): they are inlined at every call, never specialised.
    pub closure_results: HashSet<usize>,
    /// Everything whose address is part of a key of `memo` or
    /// `closure_results`, kept alive for as long as those tables exist so
    /// that no other closure or definition can be allocated at the same
    /// address and be mistaken for it.
    pub keep_alive: Vec<KeptAlive>,
}

/// A value held only so that its address stays unique (see `Cx::keep_alive`).
#[allow(dead_code)]
pub enum KeptAlive {
    /// A closure and the argument shapes of a specialisation.
    Specialisation(Rc<crate::value::Closure>, Vec<T>),
    /// A function definition.
    Def(Rc<crate::value::FunDef>),
}

impl Cx {
    pub fn new() -> Cx {
        Cx {
            fb: Fb::new(),
            prog: ir::Program::default(),
            memo: HashMap::new(),
            size_args: HashMap::new(),
            empty_array_types: HashMap::new(),
            files: HashMap::new(),
            imports: HashMap::new(),
            sources: HashMap::new(),
            depth: 0,
            fun_names: HashMap::new(),
            ctor_tags: HashMap::new(),
            keep_alive: Vec::new(),
            then_shape: None,
            closure_results: HashSet::new(),
        }
    }

    /// A function name not used before, derived from `base`.
    pub fn fun_name(&mut self, base: &str) -> String {
        let base: String = base
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let base = if base.starts_with(|c: char| c.is_ascii_alphabetic()) {
            base
        } else {
            format!("f{base}")
        };
        let n = self.fun_names.entry(base.clone()).or_insert(0);
        *n += 1;
        if *n == 1 && ir::print::is_plain_name(&base) {
            base
        } else {
            format!("{base}_{n}")
        }
    }
}
