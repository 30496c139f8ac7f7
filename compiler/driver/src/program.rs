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
