//! Test support: parses the prelude and small programs and runs them on the
//! interpreter (without the type checker, so literals keep their default types).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use interp::{Interpreter, RuntimeError};
use syntax::FileId;
use syntax::ast::{DecKind, ModExp, ModExpKind};

/// Loads files and their imports, each once, in dependency order.
pub struct Loader {
    pub interp: Interpreter,
    loaded: HashMap<PathBuf, FileId>,
    next: u32,
    pub prelude: Option<FileId>,
}

fn mod_imports(m: &ModExp, out: &mut Vec<String>) {
    match &m.kind {
        ModExpKind::Import(p) => out.push(p.clone()),
        ModExpKind::Parens(x) | ModExpKind::Ascribe(x, _) | ModExpKind::Lambda(_, _, x) => {
            mod_imports(x, out)
        }
        ModExpKind::Apply(a, b) => {
            mod_imports(a, out);
            mod_imports(b, out);
        }
        ModExpKind::Struct(decs) => decs_imports(decs, out),
        ModExpKind::Var(_) => {}
    }
}

fn decs_imports(decs: &[syntax::ast::Dec], out: &mut Vec<String>) {
    for d in decs {
        match &d.kind {
            DecKind::Import(p, _) => out.push(p.clone()),
            DecKind::Open(m) => mod_imports(m, out),
            DecKind::Mod(mb) => mod_imports(&mb.body, out),
            DecKind::Local(inner) => decs_imports(std::slice::from_ref(inner), out),
            _ => {}
        }
    }
}

impl Loader {
    /// A loader with the prelude loaded.
    pub fn with_prelude() -> Loader {
        let mut l = Loader {
            interp: Interpreter::new(),
            loaded: HashMap::new(),
            next: 1,
            prelude: None,
        };
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prelude/prelude.fut");
        let id = l.load_path(&root, false).expect("prelude loads");
        l.prelude = Some(id);
        l
    }

    fn load_path(&mut self, path: &Path, with_prelude: bool) -> Result<FileId, String> {
        let path = path
            .canonicalize()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if let Some(id) = self.loaded.get(&path) {
            return Ok(*id);
        }
        let src = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        self.load_source(
            &src,
            path.parent().map(Path::to_path_buf),
            Some(path),
            with_prelude,
        )
    }

    /// Parses and loads a source text; imports are resolved relative to `dir`.
    pub fn load_source(
        &mut self,
        src: &str,
        dir: Option<PathBuf>,
        key: Option<PathBuf>,
        with_prelude: bool,
    ) -> Result<FileId, String> {
        self.load_source_with(src, dir, key, with_prelude, &mut |_| {})
    }

    /// [`Loader::load_source`], letting `edit` change the tree before loading (as the
    /// type checker's elaboration would).
    pub fn load_source_with(
        &mut self,
        src: &str,
        dir: Option<PathBuf>,
        key: Option<PathBuf>,
        with_prelude: bool,
        edit: &mut dyn FnMut(&mut syntax::ast::File),
    ) -> Result<FileId, String> {
        let id = FileId(self.next);
        self.next += 1;
        let (mut file, diags) = syntax::parse_file(id, src);
        edit(&mut file);
        if let Some(d) = diags.first() {
            return Err(format!("parse error: {d:?}"));
        }
        let mut paths = Vec::new();
        decs_imports(&file.decs, &mut paths);
        let mut imports = HashMap::new();
        for p in paths {
            let dir = dir.clone().unwrap_or_default();
            let dep = self.load_path(&dir.join(format!("{p}.fut")), with_prelude)?;
            imports.insert(p, dep);
        }
        self.interp.set_source(id, src.into());
        let prelude = if with_prelude { self.prelude } else { None };
        self.interp
            .load_file(id, &file, &imports, prelude)
            .map_err(|e| format!("load error: {}", e.message))?;
        if let Some(k) = key {
            self.loaded.insert(k, id);
        }
        Ok(id)
    }
}

/// Runs `entry` of a program with arguments in the textual value format.
pub fn run(src: &str, entry: &str, args: &[&str]) -> Result<Vec<values::Value>, RuntimeError> {
    let mut l = Loader::with_prelude();
    let id = l
        .load_source(src, None, None, true)
        .map_err(|m| RuntimeError {
            message: m,
            span: None,
            backtrace: Vec::new(),
        })?;
    let args = args
        .iter()
        .map(|a| values::parse_value(a).expect("argument parses"))
        .collect();
    l.interp.call_entry(id, entry, args)
}

/// Runs `main` and renders the results in the textual value format.
pub fn run_main(src: &str, args: &[&str]) -> Result<String, String> {
    run(src, "main", args)
        .map(|vs| {
            vs.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .map_err(|e| e.message)
}
