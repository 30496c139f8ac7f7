//! Test bundles: the executables of a `fut test` run on a compiled backend
//! and the table of its programs, written to a folder, so that another
//! machine runs the cases without compiling anything (a GPU machine with a
//! driver but no Rust toolchain or NVRTC: `tools/gpu-check.sh`).
//!
//! `fut test --backend=B --write-bundle=DIR PATHS` compiles and builds as
//! usual, then copies each test executable into `DIR` and writes
//! `DIR/bundle.json`; it runs no case. `fut test --backend=B --bundle=DIR
//! PATHS` runs the cases of `PATHS` with the bundle's executables, reading
//! only the programs' test blocks and data. The table names programs and
//! the source files of their spans by paths relative to the folder `fut`
//! ran in (absolute when outside it), so the bundle is used from the same
//! place in a copy of the tree.
//!
//! `bundle.json`: `{"format": 1, "backend": "cuda", "executables":
//! ["exe0", …], "programs": [{"path": "tests/a.fut", "exe": 0, "module":
//! 3, "files": ["tests/a.fut", "/prelude/soacs.fut"]}, {"path":
//! "tests/b.fut", "error": "…"}]}`: per program its executable, its
//! module there and the files of its spans in the module's numbering, or
//! why it has no code.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Value, json};

use super::{Batch, start};
use crate::db::{Database, Db};

/// The version of the bundle format.
const FORMAT: u64 = 1;

/// Why a test program has no code when that is no failure
/// (`batch::test_module`'s reasons).
const NO_CODE_NEEDED: &[&str] = &[
    super::NOT_A_TEST,
    super::COMPILE_ERROR_TEST,
    super::ILL_TYPED,
];

/// `path` relative to the current folder when it lies inside it.
fn relative(path: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let here = std::env::current_dir()
        .ok()
        .and_then(|d| std::fs::canonicalize(d).ok());
    match here.as_deref().and_then(|h| abs.strip_prefix(h).ok()) {
        Some(rel) => rel.display().to_string(),
        None => path.display().to_string(),
    }
}

impl Batch {
    /// Writes the batch's executables and program table to `dir` for
    /// backend `backend`; returns a line saying what was written, and the
    /// programs that should have compiled but did not, with why (not the
    /// compile-error tests, nor programs without tests or that do not
    /// type-check, whose cases need no code).
    pub fn write_bundle(
        &self,
        dir: &Path,
        db: &Database,
        backend: &str,
    ) -> Result<(String, Vec<(PathBuf, String)>), String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let mut exes = Vec::new();
        let mut bytes = 0u64;
        for (i, s) in self.servers.iter().enumerate() {
            let name = format!("exe{i}");
            if let Ok(s) = s {
                let s = s
                    .lock()
                    .map_err(|_| "a test executable was lost".to_string())?;
                let to = dir.join(&name);
                bytes += std::fs::copy(&s.exe, &to).map_err(|e| {
                    format!("cannot copy {} to {}: {e}", s.exe.display(), to.display())
                })?;
            }
            exes.push(Value::String(name));
        }
        let sources = db.sources();
        let mut programs = Vec::new();
        let mut compiled = 0;
        let mut failed = Vec::new();
        for (path, r) in &self.programs {
            let entry = match r {
                Ok(k) => {
                    let (exe, module, files) = &self.slots[*k];
                    let files: Vec<Value> = files
                        .iter()
                        .map(|&f| {
                            let name = sources.0.get(f as usize).map_or("", |(n, _)| n.as_str());
                            let name = if name.starts_with("/prelude") {
                                name.to_string()
                            } else {
                                relative(Path::new(name))
                            };
                            Value::String(name)
                        })
                        .collect();
                    match &self.servers[*exe] {
                        Ok(_) => {
                            compiled += 1;
                            json!({"path": relative(path), "exe": exe, "module": module, "files": files})
                        }
                        Err(e) => json!({"path": relative(path), "error": e}),
                    }
                }
                Err(e) => {
                    if !NO_CODE_NEEDED.contains(&e.as_str()) {
                        failed.push((path.clone(), e.clone()));
                    }
                    json!({"path": relative(path), "error": e})
                }
            };
            programs.push(entry);
        }
        let table = json!({
            "format": FORMAT,
            "backend": backend,
            "executables": exes,
            "programs": programs,
        });
        let file = dir.join("bundle.json");
        let text = serde_json::to_string_pretty(&table).map_err(|e| e.to_string())?;
        std::fs::write(&file, text).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        let line = format!(
            "wrote the bundle {}: {compiled} of {} programs compiled, {} executables, {:.1} MiB",
            dir.display(),
            self.programs.len(),
            self.servers.len(),
            bytes as f64 / (1024.0 * 1024.0)
        );
        Ok((line, failed))
    }

    /// The batch of `programs` from the bundle in `dir`, written for
    /// backend `backend`: its executables started, each program found in
    /// its table (a program it does not have cannot run, with the reason).
    pub fn from_bundle(dir: &Path, programs: &[PathBuf], db: &Database, backend: &str) -> Batch {
        let fail_all = |e: String| Batch {
            programs: programs
                .iter()
                .map(|p| (p.clone(), Err(e.clone())))
                .collect(),
            slots: Vec::new(),
            servers: Vec::new(),
            time_limit: None,
        };
        let file = dir.join("bundle.json");
        let table: Value = match std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read the bundle {}: {e}", file.display()))
            .and_then(|t| {
                serde_json::from_str(&t)
                    .map_err(|e| format!("{}: not a bundle: {e}", file.display()))
            }) {
            Ok(t) => t,
            Err(e) => return fail_all(e),
        };
        if table["format"].as_u64() != Some(FORMAT) {
            return fail_all(format!(
                "{}: not a bundle of format {FORMAT}",
                file.display()
            ));
        }
        let written = table["backend"].as_str().unwrap_or("");
        if written != backend {
            return fail_all(format!(
                "the bundle {} was written for --backend={written}, not --backend={backend}",
                dir.display()
            ));
        }
        let servers: Vec<Result<Mutex<super::Server>, String>> = table["executables"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|n| start(&dir.join(n.as_str().unwrap_or("?"))).map(Mutex::new))
            .collect();
        let entries = table["programs"].as_array().cloned().unwrap_or_default();
        let mut slots = Vec::new();
        let mut out = Vec::new();
        for p in programs {
            let rel = relative(p);
            let found = entries
                .iter()
                .find(|e| e["path"].as_str() == Some(rel.as_str()));
            let r = match found {
                None => Err(format!(
                    "the program is not in the bundle {}",
                    dir.display()
                )),
                Some(e) => match e["error"].as_str() {
                    Some(err) => Err(err.to_string()),
                    None => slot(e, db, servers.len()).map(|s| {
                        slots.push(s);
                        slots.len() - 1
                    }),
                },
            };
            out.push((p.clone(), r));
        }
        Batch {
            programs: out,
            slots,
            servers,
            time_limit: None,
        }
    }
}

/// The slot of a program entry of the table: its executable, module and
/// files as the database numbers them.
fn slot(e: &Value, db: &Database, exes: usize) -> Result<(usize, usize, Vec<u32>), String> {
    let bad = || "the bundle's entry for the program is damaged".to_string();
    let exe = e["exe"].as_u64().ok_or_else(bad)? as usize;
    let module = e["module"].as_u64().ok_or_else(bad)? as usize;
    if exe >= exes {
        return Err(bad());
    }
    let mut files = Vec::new();
    for f in e["files"].as_array().ok_or_else(bad)? {
        let f = f.as_str().ok_or_else(bad)?;
        let file = db.load(Path::new(f))?;
        files.push(file.id(db).0);
    }
    Ok((exe, module, files))
}
