//! Support for checking files from disk in tests and tools: parses a file, resolves its
//! imports relative to it (recursively), loads the prelude from a folder, and checks
//! everything with the same rules the driver uses.

use crate::{CheckOptions, CheckedFile, FileEnv, check_file};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use syntax::{Diagnostic, FileId};

/// A set of loaded source files, indexed by [`FileId`].
#[derive(Default)]
pub struct Loader {
    /// Display name and text of every file loaded so far.
    pub sources: Vec<(String, String)>,
    checked: HashMap<PathBuf, Arc<FileEnv>>,
    /// Diagnostics of every file checked (parse and check), in order.
    pub diagnostics: Vec<Diagnostic>,
}

/// The result of checking a root file.
pub struct Outcome {
    /// The root file's check result.
    pub checked: Option<CheckedFile>,
    /// All diagnostics: the root's and its imports'.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loader {
    /// Loads and checks a file and its imports; `prelude` is opened in every file
    /// checked without intrinsics.
    pub fn check_path(
        &mut self,
        path: &Path,
        prelude: Option<&FileEnv>,
        opts: CheckOptions,
        stack: &mut Vec<PathBuf>,
    ) -> Option<CheckedFile> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(_) => return None,
        };
        let id = FileId(self.sources.len() as u32);
        self.sources
            .push((path.display().to_string(), text.clone()));
        let (ast, pdiags) = syntax::parse_file(id, &text);
        self.diagnostics.extend(pdiags);
        stack.push(path.to_path_buf());
        let mut imports = HashMap::new();
        for (imp, span) in syntax::imports(&ast) {
            let target = resolve_import(path, &imp);
            if stack.contains(&target) {
                self.diagnostics.push(Diagnostic::error(
                    "I002",
                    format!("import cycle through \"{imp}\""),
                    span,
                    "imported here",
                ));
                continue;
            }
            if let Some(env) = self.checked.get(&target) {
                imports.insert(imp, env.clone());
                continue;
            }
            if !target.exists() {
                continue;
            }
            if let Some(c) = self.check_path(&target, prelude, opts, stack) {
                self.checked.insert(target.clone(), c.env.clone());
                imports.insert(imp, c.env.clone());
            }
        }
        stack.pop();
        let c = check_file(&ast, &imports, prelude, opts);
        self.diagnostics.extend(c.diagnostics.iter().cloned());
        Some(c)
    }
}

/// The path an import string denotes, relative to the importing file.
pub fn resolve_import(from: &Path, imp: &str) -> PathBuf {
    let dir = from.parent().unwrap_or(Path::new("."));
    let mut p = dir.join(imp);
    p.set_extension("fut");
    normalise(&p)
}

fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// Checks the prelude rooted at `dir/prelude.fut`; returns its environment and the
/// loader holding its sources and diagnostics.
pub fn load_prelude(dir: &Path) -> (Option<Arc<FileEnv>>, Loader) {
    let mut l = Loader::default();
    let opts = CheckOptions {
        allow_intrinsics: true,
    };
    let c = l.check_path(&dir.join("prelude.fut"), None, opts, &mut Vec::new());
    (c.map(|c| c.env), l)
}

/// Checks a user file with the given prelude; the loader's sources start with
/// `prelude_sources` so that spans into the prelude render.
pub fn check_user_file(
    path: &Path,
    prelude: Option<&FileEnv>,
    prelude_sources: &[(String, String)],
) -> (Outcome, Vec<(String, String)>) {
    let mut l = Loader {
        sources: prelude_sources.to_vec(),
        ..Loader::default()
    };
    let c = l.check_path(path, prelude, CheckOptions::default(), &mut Vec::new());
    let out = Outcome {
        checked: c,
        diagnostics: std::mem::take(&mut l.diagnostics),
    };
    (out, l.sources)
}

/// Parses and checks a source text as file 0 (no imports); returns the check result
/// and the parse diagnostics followed by the check diagnostics.
pub fn check_str(src: &str, prelude: Option<&FileEnv>) -> (CheckedFile, Vec<Diagnostic>) {
    let (ast, mut diags) = syntax::parse_file(FileId(0), src);
    let c = check_file(&ast, &HashMap::new(), prelude, CheckOptions::default());
    diags.extend(c.diagnostics.iter().cloned());
    (c, diags)
}
