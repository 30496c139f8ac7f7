//! Semantic analysis: name resolution, the module system, type inference with sizes and
//! uniqueness, and entry-point checks.
//!
//! The entry point is [`check_file`], which checks one parsed file given the environments
//! of the files it imports and of the prelude. Files are checked one at a time so that
//! the driver can cache each file's result (the prelude is checked once per process).
//!
//! The output is an elaborated copy of the AST (every unsuffixed numeric or character
//! literal has its inferred type filled in, and [`ast::File::size_args`] holds the size
//! arguments of every use of a function with size parameters, as far as they are known,
//! and [`ast::File::empty_array_types`] the concrete element type of every empty array
//! literal) plus the file's exported environment and its diagnostics.

pub mod checker;
pub mod consumption;
pub mod decls;
pub mod elaborate;
pub mod entry;
pub mod env;
pub mod exhaustive;
pub mod expr;
pub mod literals;
pub mod loop_sizes;
pub mod module_eval;
pub mod modules;
pub mod pattern;
pub mod recursion;
pub mod testing;
pub mod typeexp;
pub mod types;
pub mod unify;

use std::collections::HashMap;
use std::sync::Arc;
use syntax::{Diagnostic, ast};

/// Everything a file exports to the files that import it: its value, type, module and
/// module-type bindings.
#[derive(Debug, Default)]
pub struct FileEnv {
    /// The exported bindings.
    pub env: Arc<env::Env>,
}

/// The type of an entry point parameter or result, as far as the value formats see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryType {
    /// A primitive scalar or a regular array of primitives.
    Array {
        /// The element type.
        elem: ast::PrimType,
        /// The number of dimensions (0 for a scalar).
        rank: usize,
    },
    /// Anything else (records, sum types, abstract types): opaque to the value formats.
    /// Its type as written, or `NAME = STRUCTURE` for a type the entry point names by an
    /// abbreviation.
    Opaque(String),
}

impl EntryType {
    /// The name of an opaque type (`point` for `point = {x: f64, y: f64}`); `None` for
    /// scalars and arrays of primitives.
    pub fn opaque_name(&self) -> Option<&str> {
        match self {
            EntryType::Array { .. } => None,
            EntryType::Opaque(s) => Some(s.split(" = ").next().unwrap_or(s)),
        }
    }
}

/// An entry point of a checked file.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    /// The entry's name.
    pub name: String,
    /// One per parameter.
    pub params: Vec<EntryType>,
    /// One per result: a tuple-typed result is split into its components.
    pub results: Vec<EntryType>,
}

/// The result of checking one file.
#[derive(Debug)]
pub struct CheckedFile {
    /// The elaborated tree: literal types, size arguments and the element types of
    /// empty array literals filled in.
    pub ast: Arc<ast::File>,
    /// What the file exports.
    pub env: Arc<FileEnv>,
    /// The entry points declared in the file (`entry`, or `main` if it has none).
    pub entry_points: Vec<EntryPoint>,
    /// Errors and warnings; the file is rejected if any is an error.
    pub diagnostics: Vec<Diagnostic>,
}

/// Options for checking one file.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// Whether `__intrinsic "name"` bodies are allowed (true for prelude files only).
    pub allow_intrinsics: bool,
}

/// Checks one file. `imports` maps each import path *as written in the file* to the
/// environment of the imported file (the driver resolves paths and checks imports
/// first); `prelude` is opened implicitly before the file's own declarations.
pub fn check_file(
    file: &ast::File,
    imports: &HashMap<String, Arc<FileEnv>>,
    prelude: Option<&FileEnv>,
    opts: CheckOptions,
) -> CheckedFile {
    let mut c = checker::Checker::new(imports, opts);
    if let Some(p) = prelude {
        c.open_env(p.env.clone());
    }
    let env = c.check_decs(&file.decs, true);
    c.finish_top_level(None);
    c.finish_entries();
    let mut types = HashMap::new();
    for (id, t) in std::mem::take(&mut c.lits) {
        if let types::Ty::Prim(p) = c.u.zonk(&t) {
            types.insert(id, p);
        }
    }
    let mut ast = file.clone();
    c.diags.extend(literals::check_ranges(&mut ast, &types));
    elaborate::elaborate(&mut ast, &types);
    for (id, sizes) in std::mem::take(&mut c.size_uses) {
        let args: Vec<(ast::Name, ast::Expr)> = sizes
            .iter()
            .filter_map(|(n, s)| {
                let s = c.u.size(s);
                Some((n.clone(), elaborate::size_expr(&s)?))
            })
            .collect();
        if !args.is_empty() {
            ast.size_args.insert(id, args);
        }
    }
    // A literal is recorded only if every check of it gives the same concrete type.
    let mut conflicting = Vec::new();
    for (id, t) in std::mem::take(&mut c.empty_lits) {
        let Some(te) = elaborate::type_exp(&c.u.zonk(&t)) else {
            conflicting.push(id);
            continue;
        };
        if ast
            .empty_array_types
            .insert(id, te.clone())
            .is_some_and(|old| old != te)
        {
            conflicting.push(id);
        }
    }
    for id in conflicting {
        ast.empty_array_types.remove(&id);
    }
    CheckedFile {
        ast: Arc::new(ast),
        env: Arc::new(FileEnv { env: Arc::new(env) }),
        entry_points: std::mem::take(&mut c.entries),
        diagnostics: std::mem::take(&mut c.diags),
    }
}
