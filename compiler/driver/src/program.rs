//! Loading a whole program: the root file, everything it imports, and the prelude.
//!
//! [`load_program`] walks the import graph from the prelude's root and from the
//! program's root, reports import cycles (I002) and, when there are none, checks
//! every file (through the database, so files shared between programs are checked
//! once). The result lists the files in dependency order, which is the order in
//! which the interpreter loads them.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use semantic::{CheckedFile, EntryPoint};
use syntax::{Diagnostic, FileId};

use crate::db::{Database, Db, SourceFile, check, parse, resolved_imports};

/// A loaded and checked program.
#[derive(Debug)]
pub struct Program {
    /// The program's root file.
    pub root: SourceFile,
    /// Every file of the program, the prelude's included, dependencies first.
    pub files: Vec<SourceFile>,
    /// All diagnostics of all files, in the order of `files`.
    pub diagnostics: Vec<Diagnostic>,
    /// The root's checker output, when the program has no errors.
    pub checked: Option<Arc<CheckedFile>>,
}

impl Program {
    /// True when the program has no errors (warnings allowed).
    pub fn is_ok(&self) -> bool {
        self.checked.is_some()
    }

    /// The entry points of the root file (empty if it did not check).
    pub fn entry_points(&self) -> &[EntryPoint] {
        match &self.checked {
            Some(c) => &c.entry_points,
            None => &[],
        }
    }
}

/// Why a program could not even be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// Depth-first state of one file in the import walk.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    OnStack,
    Done,
}

struct Walk<'a> {
    db: &'a Database,
    marks: HashMap<SourceFile, Mark>,
    /// The files on the current path, each with the import that leads onwards.
    stack: Vec<(SourceFile, Option<usize>)>,
    order: Vec<SourceFile>,
    cycles: Vec<Diagnostic>,
}

impl Walk<'_> {
    fn visit(&mut self, file: SourceFile) {
        match self.marks.get(&file) {
            Some(Mark::Done) => return,
            Some(Mark::OnStack) => return, // handled by the caller
            None => {}
        }
        self.marks.insert(file, Mark::OnStack);
        self.stack.push((file, None));
        let imps = resolved_imports(self.db, file);
        for (i, imp) in imps.iter().enumerate() {
            let Ok(target) = imp.target else { continue };
            if let Some(top) = self.stack.last_mut() {
                top.1 = Some(i);
            }
            if self.marks.get(&target) == Some(&Mark::OnStack) {
                self.cycles.push(self.cycle_diagnostic(target));
            } else {
                self.visit(target);
            }
        }
        self.stack.pop();
        self.marks.insert(file, Mark::Done);
        self.order.push(file);
    }

    /// An I002 diagnostic for the cycle that the top of the stack closes by
    /// importing `target`.
    fn cycle_diagnostic(&self, target: SourceFile) -> Diagnostic {
        let db = self.db;
        let start = self
            .stack
            .iter()
            .position(|(f, _)| *f == target)
            .unwrap_or(0);
        let edges: Vec<(SourceFile, usize)> = self.stack[start..]
            .iter()
            .filter_map(|(f, i)| i.map(|i| (*f, i)))
            .collect();
        let name = |f: SourceFile| f.path(db).display().to_string();
        let mut chain = vec![name(target)];
        for (f, i) in &edges {
            if let Ok(t) = resolved_imports(db, *f)[*i].target {
                let _ = f;
                chain.push(name(t));
            }
        }
        let (last_file, last_i) = edges[edges.len() - 1];
        let last = &resolved_imports(db, last_file)[last_i];
        let mut d = Diagnostic::error(
            "I002",
            format!("import cycle: {}", chain.join(" imports ")),
            last.span,
            "this import closes the cycle",
        );
        for (f, i) in &edges[..edges.len() - 1] {
            let imp = &resolved_imports(db, *f)[*i];
            d = d.with_secondary(imp.span, format!("{} is imported here", imp.written));
        }
        d
    }
}

/// Loads the program whose root file is at `path`, with the prelude, and checks it.
/// Fails only when the root file cannot be read; every problem in the program's
/// text is a diagnostic.
pub fn load_program(db: &Database, path: &Path) -> Result<Program, LoadError> {
    let root = db.load(path).map_err(LoadError)?;
    let mut walk = Walk {
        db,
        marks: HashMap::new(),
        stack: Vec::new(),
        order: Vec::new(),
        cycles: Vec::new(),
    };
    if let Some(prelude) = db.prelude_root() {
        walk.visit(prelude);
    }
    walk.visit(root);
    let Walk { order, cycles, .. } = walk;
    let mut diagnostics = Vec::new();
    if !cycles.is_empty() {
        for f in &order {
            diagnostics.extend(parse(db, *f).diagnostics.iter().cloned());
            for imp in resolved_imports(db, *f) {
                if let Err(d) = &imp.target {
                    diagnostics.push(d.clone());
                }
            }
        }
        diagnostics.extend(cycles);
        return Ok(Program {
            root,
            files: order,
            diagnostics,
            checked: None,
        });
    }
    for f in &order {
        diagnostics.extend(check(db, *f).diagnostics.iter().cloned());
    }
    let c = check(db, root);
    let checked = if c.ok { c.file.clone() } else { None };
    Ok(Program {
        root,
        files: order,
        diagnostics,
        checked,
    })
}

/// For each file of a program, the map from import path as written to the id of the
/// file it names (what the interpreter's `load_file` takes).
pub fn import_ids(db: &Database, file: SourceFile) -> HashMap<String, FileId> {
    resolved_imports(db, file)
        .iter()
        .filter_map(|imp| {
            imp.target
                .as_ref()
                .ok()
                .map(|t| (imp.written.clone(), t.id(db)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::MemorySystem;
    use syntax::diag::SourceMap;

    fn db_with(files: &[(&str, &str)]) -> Database {
        Database::new(Arc::new(MemorySystem::with_files(files.iter().copied())))
    }

    /// The source text a span covers.
    fn text_at(db: &Database, span: syntax::Span) -> String {
        let sources = db.sources();
        let (_, text) = sources.source(span.file).unwrap();
        text[span.range()].to_string()
    }

    fn codes(p: &Program) -> Vec<&'static str> {
        p.diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn missing_import_is_i001_at_the_import() {
        let db = db_with(&[(
            "dir/main.fut",
            "import \"lib/nothere\"\ndef main (x: i32) = x\n",
        )]);
        let p = load_program(&db, Path::new("dir/main.fut")).unwrap();
        assert!(!p.is_ok());
        let d = p
            .diagnostics
            .iter()
            .find(|d| d.code == "I001")
            .unwrap_or_else(|| panic!("no I001 in {:?}", codes(&p)));
        assert!(text_at(&db, d.primary.span).contains("lib/nothere"));
        assert!(
            d.primary.message.contains("dir/lib/nothere.fut"),
            "{}",
            d.primary.message
        );
    }

    #[test]
    fn import_cycle_is_i002_with_the_import_spans() {
        let db = db_with(&[
            ("m/a.fut", "import \"b\"\ndef main (x: i32) = x\n"),
            ("m/b.fut", "import \"sub/c\"\ndef y = 1i32\n"),
            ("m/sub/c.fut", "import \"../a\"\ndef z = 2i32\n"),
        ]);
        let p = load_program(&db, Path::new("m/a.fut")).unwrap();
        assert!(!p.is_ok());
        let cycles: Vec<_> = p.diagnostics.iter().filter(|d| d.code == "I002").collect();
        assert_eq!(cycles.len(), 1, "{:?}", codes(&p));
        let d = cycles[0];
        assert!(d.message.contains("m/a.fut"), "{}", d.message);
        assert!(d.message.contains("m/b.fut"), "{}", d.message);
        assert!(d.message.contains("m/sub/c.fut"), "{}", d.message);
        assert!(text_at(&db, d.primary.span).contains("../a"));
        let secondary: Vec<String> = d.secondary.iter().map(|l| text_at(&db, l.span)).collect();
        assert_eq!(secondary.len(), 2, "{secondary:?}");
        assert!(secondary[0].contains("\"b\""), "{secondary:?}");
        assert!(secondary[1].contains("sub/c"), "{secondary:?}");
    }

    #[test]
    fn self_import_is_a_cycle() {
        let db = db_with(&[("a.fut", "import \"a\"\n")]);
        let p = load_program(&db, Path::new("a.fut")).unwrap();
        assert_eq!(
            p.diagnostics.iter().filter(|d| d.code == "I002").count(),
            1,
            "{:?}",
            codes(&p)
        );
    }

    #[test]
    fn shared_imports_are_one_file_in_dependency_order() {
        let db = db_with(&[
            (
                "t/main.fut",
                "import \"x/../lib\"\nimport \"other\"\ndef main (x: i32) = x\n",
            ),
            ("t/other.fut", "import \"./lib\"\n"),
            ("t/lib.fut", "def one = 1i32\n"),
        ]);
        let p = load_program(&db, Path::new("t/main.fut")).unwrap();
        let user: Vec<String> = p
            .files
            .iter()
            .map(|f| f.path(&db).display().to_string())
            .filter(|n| !n.starts_with("/prelude"))
            .collect();
        assert_eq!(user, vec!["t/lib.fut", "t/other.fut", "t/main.fut"]);
        assert!(
            codes(&p).iter().all(|c| !c.starts_with('I')),
            "{:?}",
            codes(&p)
        );
    }

    #[test]
    fn unreadable_root_is_a_load_error() {
        let db = db_with(&[]);
        let e = load_program(&db, Path::new("nope.fut")).unwrap_err();
        assert!(e.0.contains("nope.fut"), "{e}");
    }

    #[test]
    fn the_prelude_is_checked_once_per_process_across_threads() {
        let files: Vec<(String, String)> = (0..8)
            .map(|i| {
                (
                    format!("p{i}.fut"),
                    format!("def main (x: i32) = x + {i}\n"),
                )
            })
            .collect();
        let fs = MemorySystem::with_files(files.iter().map(|(p, t)| (p.clone(), t.clone())));
        let db = Database::logging(Arc::new(fs));
        std::thread::scope(|s| {
            for i in 0..8 {
                let db = db.clone();
                s.spawn(move || {
                    load_program(&db, Path::new(&format!("p{i}.fut"))).unwrap();
                });
            }
        });
        let prelude_files = db
            .sources()
            .0
            .iter()
            .filter(|(n, _)| n.starts_with("/prelude"))
            .count();
        assert!(prelude_files > 0);
        let checks = db
            .executions()
            .iter()
            .filter(|e| e.starts_with("check("))
            .count();
        // One check per prelude file and one per program, however many threads.
        assert_eq!(checks, prelude_files + 8, "{:?}", db.executions());
    }

    #[test]
    fn a_changed_text_is_checked_again_and_the_prelude_is_not() {
        let fs = MemorySystem::with_files([("m.fut", "def main (x: i32) = x + 1\n")]);
        let mut db = Database::logging(Arc::new(fs));
        let p = load_program(&db, Path::new("m.fut")).unwrap();
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
        let checks = |db: &Database| {
            db.executions()
                .iter()
                .filter(|e| e.starts_with("check("))
                .count()
        };
        let before = checks(&db);
        db.set_text(Path::new("m.fut"), "def main (x: i32) = x + true\n");
        let p = load_program(&db, Path::new("m.fut")).unwrap();
        assert!(!p.diagnostics.is_empty(), "the new text was not checked");
        let text = db.sources().0[p.root.id(&db).0 as usize].1.clone();
        assert!(text.contains("true"), "{text}");
        // Only the changed file is checked again.
        assert_eq!(checks(&db), before + 1, "{:?}", db.executions());
        // A path never loaded gets the given text, not the file system's.
        db.set_text(Path::new("new.fut"), "def main = 2i32\n");
        let p = load_program(&db, Path::new("new.fut")).unwrap();
        assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    }
}
