//! The cargo workspace of a `fut test --backend=multicore` run.
//!
//! The run's programs are spread over [`crate_count`] crates by a hash of their
//! path, each crate a module per program and a `main` serving calls
//! (`fut_runtime_multicore::batch::serve`). One `cargo build --workspace`
//! builds them all, so rustc runs on several crates at once (one large
//! crate keeps a single core busy for most of its build), and each crate
//! links into its own executable.
//!
//! The workspace stays at the same place from run to run
//! (`tests/<key>/` in the cache, the key made from the folders holding the
//! programs), and files are written only when their contents change, so
//! cargo rebuilds only the crates whose programs changed: editing or adding
//! one program rebuilds one crate, and a run with nothing changed builds
//! nothing. A lock file keeps two runs from writing the same workspace at
//! once.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::fs::File;
use std::path::{Path, PathBuf};

use super::{Target, cargo_build, dependencies, hash_of, write_if_changed, write_lock};

/// The most crates a run's programs are spread over.
pub(super) const CRATES: usize = 8;

/// How many crates a run's programs are spread over (fewer when there are
/// fewer programs): one per available core, at most [`CRATES`]. Each crate
/// compiles the runtime's generic code again, so more crates than cores
/// cost compile time without using more of the machine (on two cores, 8
/// crates took twice the CPU time of 2); more crates make the rebuild after
/// an edit smaller.
pub(super) fn crate_count() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, CRATES)
}

/// Cargo's settings for test crates: the generated code unoptimised, which
/// compiles several times faster than `opt-level = 1` (LLVM's passes are
/// most of the build) and runs the corpus's small test data quickly
/// enough; the runtime and the other dependencies optimised, since they
/// are compiled once for every run.
const PROFILE: &str = "[profile.release]\nopt-level = 0\ndebug = false\nincremental = false\ncodegen-units = 16\n\n[profile.release.package.\"*\"]\nopt-level = 1\n";

/// A crate of the workspace.
pub(super) struct Member {
    /// Its number, below [`crate_count`].
    pub index: usize,
    /// The programs it holds (their indices in the run), in module order.
    pub programs: Vec<usize>,
    /// Their modules' source.
    pub modules: Vec<String>,
}

/// What a build gave.
pub(super) struct Built {
    /// The executable of each crate that built.
    pub executables: BTreeMap<usize, PathBuf>,
    /// Rustc's and cargo's error output.
    pub errors: String,
}

/// The workspace of a run, in the cache.
pub(super) struct Workspace {
    dir: PathBuf,
    target: PathBuf,
    key: String,
    backend: Target,
    /// The CPU the executables are compiled for (`cpu.rs`).
    cpu: String,
}

/// The crate that holds the program at `path`.
pub(super) fn crate_of(path: &Path) -> usize {
    let p = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let h = hash_of(&[&p.to_string_lossy()]);
    u64::from_str_radix(&h, 16).map_or(0, |x| (x % crate_count() as u64) as usize)
}

impl Workspace {
    /// The workspace for a run over `programs`, in the cache folder `cache`.
    pub fn new(cache: &Path, programs: &[PathBuf]) -> Workspace {
        let folders: BTreeSet<String> = programs
            .iter()
            .map(|p| {
                let p = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
                p.parent()
                    .map(|d| d.to_string_lossy().to_string())
                    .unwrap_or_default()
            })
            .collect();
        let mut parts: Vec<&str> = folders.iter().map(|s| s.as_str()).collect();
        parts.push(PROFILE);
        let cpu = super::cpu::default_cpu();
        parts.push(&cpu);
        let key = hash_of(&parts)[..12].to_string();
        Workspace {
            dir: cache.join("tests").join(&key),
            target: super::cpu::target_dir(cache, &cpu),
            key,
            backend: Target::Multicore,
            cpu,
        }
    }

    /// The same workspace for the programs of backend `backend` (a GPU
    /// backend's workspace is another folder, its crates depend on its
    /// runtime).
    pub fn for_target(self, backend: Target) -> Workspace {
        if backend == Target::Multicore {
            return self;
        }
        let key = format!("{}-{}", backend.name(), self.key);
        let cache = self
            .target
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        Workspace {
            dir: cache.join("tests").join(&key),
            target: self.target,
            key,
            backend,
            cpu: self.cpu,
        }
    }

    /// The folder of crate `index`.
    pub fn member_dir(&self, index: usize) -> PathBuf {
        self.dir.join(format!("c{index}"))
    }

    fn package(&self, index: usize) -> String {
        format!("fut-tests-{}-{index}", self.key)
    }

    /// Takes the workspace's lock (held until the result is dropped), telling
    /// `say` when another run holds it.
    pub fn lock(&self, say: &mut dyn FnMut(&str)) -> Result<File, String> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let path = self.dir.join(".lock");
        let file =
            File::create(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        if file.try_lock().is_err() {
            say("waiting for another test run building the same programs");
            file.lock()
                .map_err(|e| format!("cannot lock {}: {e}", path.display()))?;
        }
        Ok(file)
    }

    /// Writes `members` (and removes what earlier runs left that they do not
    /// have), builds them, and calls `built(fresh)` as each crate's executable
    /// is ready (`fresh`: it was up to date).
    pub fn build(
        &self,
        runtime: &Path,
        members: &[Member],
        built: &mut dyn FnMut(bool),
    ) -> Result<Built, String> {
        super::cpu::check(&self.cpu)?;
        self.write(runtime, members)?;
        let mut executables = BTreeMap::new();
        let names: BTreeMap<String, usize> = members
            .iter()
            .map(|m| (self.package(m.index), m.index))
            .collect();
        let run = cargo_build(
            &self.dir.join("Cargo.toml"),
            &self.target,
            &self.cpu,
            &["--workspace", "--keep-going"],
            &mut |exe, fresh| {
                let name = exe.file_name().map(|n| n.to_string_lossy().to_string());
                if let Some(&k) = name.and_then(|n| names.get(&n)) {
                    executables.insert(k, exe.to_path_buf());
                    built(fresh);
                }
            },
        )?;
        Ok(Built {
            executables,
            errors: run.stderr,
        })
    }

    fn write(&self, runtime: &Path, members: &[Member]) -> Result<(), String> {
        let list: Vec<String> = members
            .iter()
            .map(|m| format!("\"c{}\"", m.index))
            .collect();
        let root = format!(
            "[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n{PROFILE}",
            list.join(", ")
        );
        write_if_changed(&self.dir.join("Cargo.toml"), &root)?;
        write_lock(&self.dir)?;
        let deps = dependencies(runtime, self.backend);
        for m in members {
            let dir = self.member_dir(m.index);
            let manifest = format!(
                "[package]\nname = \"{}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n{deps}",
                self.package(m.index)
            );
            write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
            write_if_changed(&dir.join("src/main.rs"), &main_rs(m.modules.len()))?;
            for (k, src) in m.modules.iter().enumerate() {
                write_if_changed(&dir.join(format!("src/p{k}.rs")), src)?;
            }
            remove_stale_modules(&dir.join("src"), m.modules.len());
        }
        let kept: BTreeSet<String> = members.iter().map(|m| format!("c{}", m.index)).collect();
        for k in 0..CRATES {
            let name = format!("c{k}");
            if !kept.contains(&name) && self.dir.join(&name).exists() {
                let _ = std::fs::remove_dir_all(self.dir.join(&name));
            }
        }
        Ok(())
    }
}

/// Removes the modules `pK.rs` with `K >= count` that an earlier run left in
/// `src`.
fn remove_stale_modules(src: &Path, count: usize) {
    let Ok(entries) = std::fs::read_dir(src) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let k = name
            .strip_prefix('p')
            .and_then(|r| r.strip_suffix(".rs"))
            .and_then(|d| d.parse::<usize>().ok());
        if k.is_some_and(|k| k >= count) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The `main.rs` of a crate of `count` modules, served by
/// `fut_runtime_multicore::batch::serve`.
fn main_rs(count: usize) -> String {
    let mut main_rs = String::new();
    for k in 0..count {
        main_rs.push_str(&format!("mod p{k};\n"));
    }
    main_rs.push_str("\nstatic PROGRAMS: &[&[fut_runtime_multicore::batch::BatchEntry]] = &[");
    for k in 0..count {
        main_rs.push_str(&format!("p{k}::BATCH, "));
    }
    main_rs.push_str("];\n\nfn main() {\n    fut_runtime_multicore::batch::serve(PROGRAMS)\n}\n");
    main_rs
}

/// The modules of crate `member` (`c<member>/src/pK.rs`) that cargo's error
/// output `text` names, each with the lines of its first error.
pub(super) fn failing_modules(text: &str, member: usize) -> BTreeMap<usize, String> {
    let lines: Vec<&str> = text.lines().collect();
    let prefix = format!("c{member}/src/p");
    let mut out = BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        let mut from = 0;
        while let Some(at) = l[from..].find(&prefix).map(|a| a + from) {
            from = at + prefix.len();
            let before = l[..at].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric()) {
                continue;
            }
            let rest = &l[from..];
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if !rest[digits.len()..].starts_with(".rs") {
                continue;
            }
            if let Ok(k) = digits.parse::<usize>() {
                out.entry(k).or_insert_with(|| excerpt(&lines, i));
            }
        }
    }
    out
}

/// The error whose location is line `at` of `lines`: the line before it (the
/// message), and rustc's excerpt of the code after it, up to the next blank
/// line (at most a dozen lines), since the crate may be gone by the time
/// someone reads it.
fn excerpt(lines: &[&str], at: usize) -> String {
    let end = lines[at..]
        .iter()
        .take(12)
        .position(|l| l.trim().is_empty())
        .map_or((at + 12).min(lines.len()), |k| at + k);
    lines[at.saturating_sub(1)..end].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_their_modules() {
        let text = "error[E0308]: mismatched types\n --> c2/src/p12.rs:3:4\nerror: x\n --> c2/src/main.rs:1:1\n --> c12/src/p5.rs:1:1\n --> /cache/tests/k/c2/src/p3.rs:1:1\n";
        let bad = failing_modules(text, 2);
        assert_eq!(bad.keys().copied().collect::<Vec<_>>(), vec![3, 12]);
        assert!(bad[&12].contains("mismatched types"));
        let rendered = "error[E0308]: mismatched types\n --> c0/src/p1.rs:9:2\n  |\n9 | let x: f32 = y;\n  |        ^ expected `f32`\n\nerror: next\n";
        assert_eq!(
            failing_modules(rendered, 0)[&1],
            "error[E0308]: mismatched types\n --> c0/src/p1.rs:9:2\n  |\n9 | let x: f32 = y;\n  |        ^ expected `f32`"
        );
        assert_eq!(
            failing_modules(text, 12)
                .keys()
                .copied()
                .collect::<Vec<_>>(),
            vec![5]
        );
        assert!(failing_modules(text, 1).is_empty());
    }

    #[test]
    fn programs_stay_in_their_crate() {
        let a = crate_of(Path::new("/no/such/dir/a.fut"));
        assert!(a < crate_count());
        assert_eq!(a, crate_of(Path::new("/no/such/dir/a.fut")));
        let spread: BTreeSet<usize> = (0..64)
            .map(|i| crate_of(Path::new(&format!("/no/such/dir/p{i}.fut"))))
            .collect();
        assert!(spread.len() > crate_count() / 2, "{spread:?}");
    }

    #[test]
    fn the_main_module_serves_every_module() {
        let m = main_rs(2);
        assert!(m.starts_with("mod p0;\nmod p1;\n"));
        assert!(m.contains("&[p0::BATCH, p1::BATCH, ]"));
    }

    #[test]
    fn rewriting_keeps_unchanged_files_and_drops_stale_ones() {
        let cache = std::env::temp_dir().join(format!("fut-ws-test-{}", std::process::id()));
        let ws = Workspace::new(&cache, &[PathBuf::from("/x/a.fut")]);
        let member = |index: usize, n: usize| Member {
            index,
            programs: (0..n).collect(),
            modules: (0..n).map(|k| format!("// module {k}\n")).collect(),
        };
        let rt = Path::new("/rt");
        ws.write(rt, &[member(1, 3), member(5, 1)]).unwrap();
        let p2 = ws.member_dir(1).join("src/p2.rs");
        let stamp = std::fs::metadata(&p2).unwrap().modified().unwrap();
        let root = std::fs::read_to_string(ws.dir.join("Cargo.toml")).unwrap();
        assert!(root.contains("members = [\"c1\", \"c5\"]"), "{root}");
        assert!(
            ws.dir.join("Cargo.lock").exists()
                || codegen::runtime_sources::file("Cargo.lock").is_none()
        );
        ws.write(rt, &[member(1, 3)]).unwrap();
        assert_eq!(std::fs::metadata(&p2).unwrap().modified().unwrap(), stamp);
        assert!(!ws.member_dir(5).exists());
        ws.write(rt, &[member(1, 2)]).unwrap();
        assert!(!p2.exists());
        let main = std::fs::read_to_string(ws.member_dir(1).join("src/main.rs")).unwrap();
        assert_eq!(main, main_rs(2));
        let manifest = std::fs::read_to_string(ws.member_dir(1).join("Cargo.toml")).unwrap();
        assert!(manifest.contains(&format!("name = \"{}\"", ws.package(1))));
        assert!(manifest.contains("path = \"/rt/fut-runtime-multicore\""));
        let _ = std::fs::remove_dir_all(&cache);
    }

    #[test]
    fn the_workspace_is_keyed_by_folders() {
        let cache = Path::new("/cache");
        let a = Workspace::new(cache, &[PathBuf::from("/x/a.fut")]);
        let b = Workspace::new(
            cache,
            &[PathBuf::from("/x/b.fut"), PathBuf::from("/x/a.fut")],
        );
        let c = Workspace::new(cache, &[PathBuf::from("/y/a.fut")]);
        assert_eq!(a.dir, b.dir);
        assert_ne!(a.dir, c.dir);
        assert!(a.package(3).ends_with("-3"));
    }
}
