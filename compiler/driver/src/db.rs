//! The salsa database: source files as inputs; parsing, import resolution and
//! checking as tracked queries.
//!
//! One [`Database`] lives for the whole process. Clones share its storage, so
//! threads that check different programs in parallel (as `fut test` does) share every
//! result, the prelude's above all: it is parsed and checked once per process.
//!
//! Import cycles are found by [`crate::program`] before [`check`] is asked for a file,
//! so [`check`], which asks for the files a file imports, never recurses into itself.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use semantic::{CheckOptions, CheckedFile, FileEnv};
use syntax::{Diagnostic, FileId, Span, ast};

use crate::imports as paths;
use crate::prelude;
use crate::system::System;

/// One source file: its normalised path, its text, and the id its spans carry.
#[salsa::input(debug)]
pub struct SourceFile {
    /// The path, normalised; `/prelude/...` for the embedded prelude.
    #[returns(ref)]
    pub path: PathBuf,
    /// The file's text.
    #[returns(ref)]
    pub text: Arc<str>,
    /// The id that spans in this file carry.
    #[returns(copy)]
    pub id: FileId,
}

/// Queries the tracked functions need from the database.
#[salsa::db]
pub trait Db: salsa::Database {
    /// The source file at a normalised path, read on first use.
    fn load(&self, path: &Path) -> Result<SourceFile, String>;
}

/// The file table shared by all clones of a database.
#[derive(Default)]
struct Files {
    by_path: HashMap<PathBuf, SourceFile>,
    /// Display name and text, indexed by `FileId`.
    sources: Vec<(String, Arc<str>)>,
}

/// The compilation database.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    system: Arc<dyn System>,
    files: Arc<Mutex<Files>>,
    executions: Arc<Mutex<Vec<String>>>,
}

#[salsa::db]
impl salsa::Database for Database {}

impl Database {
    /// A database reading files through `system`.
    pub fn new(system: Arc<dyn System>) -> Database {
        Database {
            storage: salsa::Storage::default(),
            system,
            files: Arc::default(),
            executions: Arc::default(),
        }
    }

    /// Like [`Database::new`], but records every query execution (see
    /// [`Database::executions`]); for tests of what is computed how often.
    pub fn logging(system: Arc<dyn System>) -> Database {
        let executions: Arc<Mutex<Vec<String>>> = Arc::default();
        let log = executions.clone();
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
                log.push(format!("{database_key:?}"));
            }
        })));
        Database {
            storage,
            system,
            files: Arc::default(),
            executions,
        }
    }

    /// The queries executed so far (empty unless made with [`Database::logging`]),
    /// e.g. `check(Id(3))`.
    pub fn executions(&self) -> Vec<String> {
        self.executions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The file system this database reads.
    pub fn system(&self) -> &Arc<dyn System> {
        &self.system
    }

    /// The names and texts of every file loaded so far, for rendering diagnostics.
    pub fn sources(&self) -> Sources {
        let files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        Sources(files.sources.clone())
    }

    /// Replaces the text of the file at `path`, loaded or not: queries over
    /// it run again on their next use, while those over other files (the
    /// prelude's checking among them) keep their results. Later loads of
    /// `path` give this text, not the file system's.
    pub fn set_text(&mut self, path: &Path, text: &str) {
        use salsa::Setter;
        let path = paths::normalize(path);
        let text: Arc<str> = Arc::from(text);
        let existing = {
            let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
            let file = files.by_path.get(&path).copied();
            if let Some(f) = file {
                let id = f.id(&*self).0 as usize;
                files.sources[id].1 = text.clone();
            }
            file
        };
        match existing {
            Some(f) => {
                f.set_text(self).to(text);
            }
            None => {
                let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
                let id = FileId(files.sources.len() as u32);
                files
                    .sources
                    .push((path.display().to_string(), text.clone()));
                let file = SourceFile::new(&*self, path.clone(), text, id);
                files.by_path.insert(path, file);
            }
        }
    }

    /// The prelude's root file, if the prelude has one.
    pub fn prelude_root(&self) -> Option<SourceFile> {
        self.load(&prelude::root_path()).ok()
    }
}

#[salsa::db]
impl Db for Database {
    fn load(&self, path: &Path) -> Result<SourceFile, String> {
        let path = paths::normalize(path);
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(f) = files.by_path.get(&path) {
            return Ok(*f);
        }
        let text: Arc<str> = if prelude::is_prelude_path(&path) {
            match prelude::source(&path) {
                Some(t) => Arc::from(t),
                None => return Err(format!("{}: no such prelude file", path.display())),
            }
        } else {
            if self.system.is_dir(&path) {
                return Err(format!(
                    "{}: is a directory, not a program file",
                    path.display()
                ));
            }
            if !self.system.is_file(&path) {
                return Err(format!("{}: no such file", path.display()));
            }
            match self.system.read_to_string(&path) {
                Ok(t) => Arc::from(t),
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        };
        let id = FileId(files.sources.len() as u32);
        files
            .sources
            .push((path.display().to_string(), text.clone()));
        let file = SourceFile::new(self, path.clone(), text, id);
        files.by_path.insert(path, file);
        Ok(file)
    }
}

/// Names and texts of loaded files, indexed by [`FileId`].
#[derive(Clone, Debug, Default)]
pub struct Sources(pub(crate) Vec<(String, Arc<str>)>);

impl syntax::diag::SourceMap for Sources {
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        self.0.get(file.0 as usize).map(|(n, t)| (n.as_str(), &**t))
    }
}

/// A parsed file.
#[derive(Debug)]
pub struct Parsed {
    /// The tree, as far as it could be recovered.
    pub ast: Arc<ast::File>,
    /// Syntax errors.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a file.
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parsed {
    let (ast, diagnostics) = syntax::parse_file(file.id(db), file.text(db));
    Parsed {
        ast: Arc::new(ast),
        diagnostics,
    }
}

/// One `import` of a file.
#[derive(Clone, Debug)]
pub struct Import {
    /// The path as written in the source.
    pub written: String,
    /// Where the import is written.
    pub span: Span,
    /// The file it names, or an I001 diagnostic.
    pub target: Result<SourceFile, Diagnostic>,
}

/// The imports of a file, resolved to files.
#[salsa::tracked(returns(ref), no_eq)]
pub fn resolved_imports(db: &dyn Db, file: SourceFile) -> Vec<Import> {
    let parsed = parse(db, file);
    let importer = file.path(db);
    syntax::imports(&parsed.ast)
        .into_iter()
        .map(|(written, span)| {
            let path = paths::resolve(importer, &written);
            let target = db.load(&path).map_err(|_| {
                Diagnostic::error(
                    "I001",
                    format!("import not found: \"{written}\""),
                    span,
                    format!("there is no file {}", path.display()),
                )
            });
            Import {
                written,
                span,
                target,
            }
        })
        .collect()
}

/// The result of checking one file.
#[derive(Debug)]
pub struct Checked {
    /// The checker's output, unless the file could not be checked (syntax errors, or
    /// an import that failed).
    pub file: Option<Arc<CheckedFile>>,
    /// This file's own diagnostics: syntax errors, unresolved imports, type errors
    /// and warnings.
    pub diagnostics: Vec<Diagnostic>,
    /// True when this file and everything it imports are free of errors.
    pub ok: bool,
}

/// Type-checks a file after the files it imports. The caller guarantees that the
/// import graph below `file` has no cycle.
#[salsa::tracked(returns(ref), no_eq)]
pub fn check(db: &dyn Db, file: SourceFile) -> Checked {
    let parsed = parse(db, file);
    let mut diagnostics = parsed.diagnostics.clone();
    if diagnostics.iter().any(Diagnostic::is_error) {
        return Checked {
            file: None,
            diagnostics,
            ok: false,
        };
    }
    let mut envs: HashMap<String, Arc<FileEnv>> = HashMap::new();
    let mut imports_ok = true;
    for imp in resolved_imports(db, file) {
        match &imp.target {
            Err(d) => {
                diagnostics.push(d.clone());
                imports_ok = false;
            }
            Ok(target) => {
                let c = check(db, *target);
                match (&c.file, c.ok) {
                    (Some(cf), true) => {
                        envs.insert(imp.written.clone(), cf.env.clone());
                    }
                    _ => imports_ok = false,
                }
            }
        }
    }
    let is_prelude = prelude::is_prelude_path(file.path(db));
    let prelude_env = if is_prelude {
        None
    } else {
        match db.load(&prelude::root_path()) {
            Ok(root) => {
                let c = check(db, root);
                match (&c.file, c.ok) {
                    (Some(cf), true) => Some(cf.env.clone()),
                    _ => {
                        imports_ok = false;
                        None
                    }
                }
            }
            Err(_) => None,
        }
    };
    if !imports_ok {
        return Checked {
            file: None,
            diagnostics,
            ok: false,
        };
    }
    let opts = CheckOptions {
        allow_intrinsics: is_prelude,
    };
    let checked = semantic::check_file(&parsed.ast, &envs, prelude_env.as_deref(), opts);
    diagnostics.extend(checked.diagnostics.iter().cloned());
    let ok = !diagnostics.iter().any(Diagnostic::is_error);
    Checked {
        file: Some(Arc::new(checked)),
        diagnostics,
        ok,
    }
}
