//! The multicore backend's build: a program is internalised, optimised
//! with the standard pipeline, flattened and turned into Rust
//! (`codegen`), written as a crate into the cache folder, and built by
//! cargo in release mode.
//!
//! Cache layout (`$FUT_CACHE_DIR`, else `$XDG_CACHE_HOME/fut`, else
//! `~/.cache/fut`):
//!
//! - `src-<hash>/`: the runtime and values crates, written from the sources
//!   embedded in `fut` (so an installed `fut` needs no source tree); the
//!   hash is that of the embedded sources, so a new `fut` writes a new copy;
//! - `crates/<hash>/`: one generated crate per program (the hash covers the
//!   generated code and the options), or per batch of test programs;
//! - `target/`: the target directory all generated crates share, so the
//!   runtime and its dependencies are compiled once.
//!
//! Generated crates carry the workspace's `Cargo.lock`, so they build with
//! the dependency versions already downloaded and work offline; cargo is
//! first run with `--offline` and, if that fails, once more online.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

use syntax::diag::location;

use crate::db::Database;
use crate::program::{Program, load_program};

/// Options of `fut multicore`.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Keep bounds checks (`--safe=false` turns them off).
    pub safe: bool,
    /// Where to write the executable (default: the program's path without
    /// its extension).
    pub output: Option<PathBuf>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            safe: true,
            output: None,
        }
    }
}

/// The cache folder.
pub fn cache_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("FUT_CACHE_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("fut");
    }
    match std::env::var_os("HOME") {
        Some(h) => PathBuf::from(h).join(".cache").join("fut"),
        None => std::env::temp_dir().join("fut-cache"),
    }
}

fn hash_of(parts: &[&str]) -> String {
    let mut h = DefaultHasher::new();
    for p in parts {
        p.hash(&mut h);
    }
    format!("{:016x}", h.finish())
}

pub(crate) fn write_if_changed(path: &Path, contents: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).is_ok_and(|c| c == contents) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The `[workspace.dependencies]` entries of the workspace manifest, as
/// `name = spec` lines.
pub(crate) fn workspace_deps(manifest: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            inside = t == "[workspace.dependencies]";
            continue;
        }
        if inside && let Some((k, v)) = t.split_once('=') {
            out.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

/// A member crate's manifest made standalone: workspace-inherited fields
/// and dependencies replaced by their values, path dependencies pointing
/// at the sibling crates in the cache.
pub(crate) fn standalone_manifest(manifest: &str, deps: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut section = String::new();
    for line in manifest.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            section = t.to_string();
            if t == "[lints]" {
                continue;
            }
        }
        if section == "[lints]" {
            continue;
        }
        match t {
            "version.workspace = true" => out.push_str("version = \"0.1.0\"\n"),
            "edition.workspace = true" => out.push_str("edition = \"2024\"\n"),
            "license.workspace = true" | "rust-version.workspace = true" => {}
            _ => {
                if let Some(name) = t.strip_suffix(".workspace = true") {
                    let spec = deps
                        .iter()
                        .find(|(k, _)| k == name)
                        .map(|(_, v)| v.clone())
                        .unwrap_or_else(|| "\"*\"".into());
                    if spec.contains("path") {
                        out.push_str(&format!("{name} = {{ path = \"../{name}\" }}\n"));
                    } else {
                        out.push_str(&format!("{name} = {spec}\n"));
                    }
                } else {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// Writes the runtime and values crates into the cache (once per version
/// of the embedded sources) and returns their folder.
fn write_runtime(cache: &Path) -> Result<PathBuf, String> {
    let files = codegen::runtime_sources::FILES;
    let all: Vec<&str> = files.iter().flat_map(|(p, c)| [*p, *c]).collect();
    let dir = cache.join(format!("src-{}", hash_of(&all)));
    let marker = dir.join(".complete");
    if marker.exists() {
        return Ok(dir);
    }
    let deps = workspace_deps(codegen::runtime_sources::file("Cargo.toml").unwrap_or(""));
    for (path, contents) in files {
        if *path == "Cargo.toml" || *path == "Cargo.lock" {
            continue;
        }
        let text = if path.ends_with("/Cargo.toml") {
            standalone_manifest(contents, &deps)
        } else {
            contents.to_string()
        };
        write_if_changed(&dir.join(path), &text)?;
    }
    write_if_changed(&marker, "")?;
    Ok(dir)
}

/// Cargo's settings for a generated crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Full optimisation, for `fut multicore`.
    Release,
    /// Quick to compile, for test batches: correctness, not speed.
    Test,
}

/// Writes a generated crate (`main.rs` and the modules) and builds it;
/// returns the executable's path.
fn build_crate(
    name_hint: &str,
    main_rs: &str,
    modules: &[(String, String)],
    profile: Profile,
) -> Result<PathBuf, String> {
    let cache = cache_dir();
    let runtime = write_runtime(&cache)?;
    let mut parts: Vec<&str> = vec![main_rs, runtime.to_str().unwrap_or("")];
    for (n, m) in modules {
        parts.push(n);
        parts.push(m);
    }
    let profile_name = match profile {
        Profile::Release => "release",
        Profile::Test => "test",
    };
    parts.push(profile_name);
    let hash = hash_of(&parts);
    let crate_name = format!("fut-{}-{}", sanitize(name_hint), &hash[..12]);
    let dir = cache.join("crates").join(&hash);
    let rt = runtime.display().to_string();
    let profile_text = match profile {
        Profile::Release => {
            "[profile.release]\nopt-level = 3\ndebug = false\nincremental = false\n"
        }
        Profile::Test => {
            "[profile.release]\nopt-level = 1\ndebug = false\nincremental = false\ncodegen-units = 16\n"
        }
    };
    let manifest = format!(
        "[package]\nname = \"{crate_name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nfut-runtime-multicore = {{ path = \"{rt}/fut-runtime-multicore\" }}\nvalues = {{ path = \"{rt}/values\" }}\nrayon = \"1\"\nlibm = \"0.2\"\n\n\
         {profile_text}\n[workspace]\n"
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    if !dir.join("Cargo.lock").exists()
        && let Some(lock) = codegen::runtime_sources::file("Cargo.lock")
    {
        write_if_changed(&dir.join("Cargo.lock"), lock)?;
    }
    write_if_changed(&dir.join("src/main.rs"), main_rs)?;
    for (n, m) in modules {
        write_if_changed(&dir.join(format!("src/{n}.rs")), m)?;
    }
    let target = cache.join("target");
    let exe = target.join("release").join(&crate_name);
    if exe.exists() {
        return Ok(exe);
    }
    let run = |offline: bool| {
        let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        c.arg("build")
            .arg("--release")
            .arg("--quiet")
            .arg("--manifest-path")
            .arg(dir.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&target);
        if offline {
            c.arg("--offline");
        }
        c.env_remove("RUSTFLAGS");
        c.output()
    };
    let mut out = run(true).map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stderr);
        if text.contains("offline") || text.contains("network") {
            out = run(false).map_err(|e| format!("cannot run cargo: {e}"))?;
        }
    }
    if !out.status.success() {
        let text = String::from_utf8_lossy(&out.stderr);
        let short: String = text.lines().take(200).collect::<Vec<_>>().join("\n");
        return Err(format!(
            "internal compiler error (a bug in fut): the Rust code generated by the multicore backend (pass `codegen`) does not compile; crate at {}:\n{short}",
            dir.display()
        ));
    }
    Ok(exe)
}

fn sanitize(s: &str) -> String {
    let t: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let t = t.trim_matches('-').to_string();
    if t.is_empty() { "prog".into() } else { t }
}

/// Compiles a checked program to the Rust module of the multicore backend.
pub fn compile_module(
    db: &Database,
    program: &Program,
    safe: bool,
    standalone: bool,
    name: &str,
) -> Result<String, String> {
    let ir = crate::irrun::compile(db, program, false)?;
    let sources = db.sources();
    let locate = |s: ir::Span| {
        location(
            &sources,
            syntax::Span::new(syntax::FileId(s.file), s.start, s.end),
        )
    };
    let opts = codegen::Options {
        safe,
        standalone,
        name: name.to_string(),
    };
    codegen::program_module(&ir, &opts, &locate)
        .map_err(|e| format!("the multicore backend cannot compile this program: {e}"))
}

/// `fut multicore prog.fut`: builds a native executable for the program
/// and returns its path.
pub fn build_executable(
    db: &Database,
    path: &Path,
    opts: &BuildOptions,
) -> Result<PathBuf, String> {
    let program = load_program(db, path).map_err(|e| e.to_string())?;
    if !program.is_ok() {
        let sources = db.sources();
        return Err(crate::render::diagnostics(
            &program.diagnostics,
            &sources,
            false,
        ));
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "prog".into());
    let module = compile_module(db, &program, opts.safe, true, &stem)?;
    let main_rs = "mod prog;\n\nfn main() {\n    fut_runtime_multicore::main(&prog::PROGRAM)\n}\n";
    let exe = build_crate(
        &stem,
        main_rs,
        &[("prog".to_string(), module)],
        Profile::Release,
    )?;
    let out = opts
        .output
        .clone()
        .unwrap_or_else(|| path.with_extension(""));
    std::fs::copy(&exe, &out)
        .map_err(|e| format!("cannot write the executable {}: {e}", out.display()))?;
    Ok(out)
}

/// Many test programs compiled into one executable that serves calls
/// (`fut_runtime_multicore::batch`).
pub struct Batch {
    /// Per program: its index in the executable, or why it did not compile.
    pub programs: Vec<(PathBuf, Result<usize, String>)>,
    server: Option<Mutex<Server>>,
    /// Why the executable could not be built, if it could not.
    pub build_error: Option<String>,
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The failure of a call into a batch: the message and the span of the
/// failing statement.
#[derive(Clone, Debug)]
pub struct CallError {
    /// The message.
    pub message: String,
    /// The span, when known.
    pub span: Option<syntax::Span>,
}

impl Batch {
    /// Compiles `modules` (program path and its module or compile error)
    /// into one executable and starts it.
    pub fn build(mut modules: Vec<(PathBuf, Result<String, String>)>) -> Batch {
        // A module whose generated code does not compile fails its program
        // only: it is left out and the crate built again.
        let mut last_error = String::new();
        for _ in 0..4 {
            let mut programs = Vec::new();
            let mut mods = Vec::new();
            for (path, m) in &modules {
                match m {
                    Ok(src) => {
                        let k = mods.len();
                        mods.push((format!("p{k}"), src.clone()));
                        programs.push((path.clone(), Ok(k)));
                    }
                    Err(e) => programs.push((path.clone(), Err(e.clone()))),
                }
            }
            let main_rs = batch_main(&mods);
            match build_crate("tests", &main_rs, &mods, Profile::Test) {
                Ok(exe) => {
                    let (server, build_error) = match start(&exe) {
                        Ok(s) => (Some(Mutex::new(s)), None),
                        Err(e) => (None, Some(e)),
                    };
                    return Batch {
                        programs,
                        server,
                        build_error,
                    };
                }
                Err(e) => {
                    let bad = failing_modules(&e, mods.len());
                    if bad.is_empty() {
                        last_error = e;
                        break;
                    }
                    let mut k = 0;
                    for (_, m) in modules.iter_mut() {
                        if m.is_ok() {
                            if let Some(excerpt) = bad.get(&k) {
                                *m = Err(format!(
                                    "internal compiler error (a bug in fut): the Rust code generated for this program by the multicore backend (pass `codegen`) does not compile:\n{excerpt}"
                                ));
                            }
                            k += 1;
                        }
                    }
                    last_error = e;
                }
            }
        }
        Batch {
            programs: modules
                .into_iter()
                .map(|(p, m)| (p, m.map(|_| 0)))
                .collect(),
            server: None,
            build_error: Some(last_error),
        }
    }

    /// The program index of `path`, or why it cannot run.
    pub fn program(&self, path: &Path) -> Result<usize, String> {
        if let Some(e) = &self.build_error {
            return Err(e.clone());
        }
        match self.programs.iter().find(|(p, _)| p == path) {
            Some((_, r)) => r.clone(),
            None => Err("the program was not compiled".into()),
        }
    }

    /// Calls entry `entry` of program `prog` on flat arguments.
    pub fn call(
        &self,
        prog: usize,
        entry: &str,
        args: &[values::Value],
    ) -> Result<Vec<values::Value>, CallError> {
        let internal = |m: String| CallError {
            message: m,
            span: None,
        };
        let Some(server) = &self.server else {
            return Err(internal("the test executable is not running".into()));
        };
        let mut s = server
            .lock()
            .map_err(|_| internal("the test executable was lost".into()))?;
        let mut bytes = Vec::new();
        for a in args {
            values::write_binary(a, &mut bytes).map_err(|e| internal(e.to_string()))?;
        }
        let lost = |e: std::io::Error| {
            internal(format!(
                "the test executable stopped (a crash of generated code): {e}"
            ))
        };
        writeln!(s.stdin, "CALL {prog} {entry} {}", bytes.len()).map_err(lost)?;
        s.stdin.write_all(&bytes).map_err(lost)?;
        s.stdin.flush().map_err(lost)?;
        let mut line = String::new();
        s.stdout.read_line(&mut line).map_err(lost)?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["OK", n] => {
                let mut buf = vec![0u8; n.parse().unwrap_or(0)];
                s.stdout.read_exact(&mut buf).map_err(lost)?;
                values::read_values(&buf).map_err(|e| internal(e.to_string()))
            }
            ["ERR", f, st, en, n] => {
                let mut buf = vec![0u8; n.parse().unwrap_or(0)];
                s.stdout.read_exact(&mut buf).map_err(lost)?;
                let num = |x: &str| x.parse::<u32>().unwrap_or(0);
                let (f, st, en) = (num(f), num(st), num(en));
                Err(CallError {
                    message: String::from_utf8_lossy(&buf).to_string(),
                    span: if (f, st, en) == (0, 0, 0) {
                        None
                    } else {
                        Some(syntax::Span::new(syntax::FileId(f), st, en))
                    },
                })
            }
            _ => {
                // The process died (a panic): restart it for the next calls.
                let _ = s.child.kill();
                let mut msg = String::new();
                if let Some(mut e) = s.child.stderr.take() {
                    let _ = e.read_to_string(&mut msg);
                }
                Err(internal(format!(
                    "the generated code crashed (a bug in fut): {}",
                    msg.lines().take(5).collect::<Vec<_>>().join("\n")
                )))
            }
        }
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        if let Some(s) = self.server.take()
            && let Ok(mut s) = s.into_inner()
        {
            let _ = s.child.kill();
            let _ = s.child.wait();
        }
    }
}

/// Compiles the test programs among `programs` (those with cases to run
/// that type-check) to modules, on `opts.jobs` threads, and builds them into
/// one executable.
pub fn prepare_batch(
    db: &Database,
    programs: &[PathBuf],
    opts: &crate::testrun::TestOptions,
    progress: &mut dyn Write,
) -> Batch {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let jobs = opts.jobs.max(1).min(programs.len().max(1));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Result<String, String>)>> = Mutex::new(Vec::new());
    if opts.progress {
        let _ = write!(
            progress,
            "compiling {} programs for the multicore backend",
            programs.len()
        );
        let _ = progress.flush();
    }
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let db = db.clone();
            let (next, results) = (&next, &results);
            let _ = std::thread::Builder::new()
                .stack_size(crate::STACK_SIZE)
                .spawn_scoped(scope, move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        let Some(path) = programs.get(i) else { break };
                        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            test_module(&db, path)
                        }))
                        .unwrap_or_else(|_| {
                            Err("internal compiler error (a bug in fut): the multicore backend panicked".into())
                        });
                        if let Ok(mut v) = results.lock() {
                            v.push((i, r));
                        }
                    }
                });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(i, _)| *i);
    let modules: Vec<(PathBuf, Result<String, String>)> = results
        .into_iter()
        .map(|(i, r)| (programs[i].clone(), r))
        .collect();
    if opts.progress {
        let _ = write!(progress, "\r\x1b[Kbuilding the test executable");
        let _ = progress.flush();
    }
    let b = Batch::build(modules);
    if opts.progress {
        let _ = write!(progress, "\r\x1b[K");
        let _ = progress.flush();
    }
    b
}

/// The module of one test program, or why there is none.
fn test_module(db: &Database, path: &Path) -> Result<String, String> {
    let src = db
        .system()
        .read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !crate::testspec::has_test_block(&src) {
        return Err("not a test program".into());
    }
    if let Ok(spec) = crate::testspec::parse_spec(&src)
        && matches!(spec.action, crate::testspec::TestAction::CompileError(_))
    {
        return Err("a compile-error test".into());
    }
    let program = load_program(db, path).map_err(|e| e.to_string())?;
    if !program.is_ok() {
        return Err("the program does not type-check".into());
    }
    compile_module(db, &program, true, false, "test")
}

/// Runs one case of a compiled test program: `compiled` is the batch and
/// the program's index in it.
pub fn run_case(
    compiled: Option<(&Batch, usize)>,
    entry: &str,
    args: &[values::Value],
) -> Result<Vec<values::Value>, interp::RuntimeError> {
    let Some((batch, k)) = compiled else {
        return Err(interp::RuntimeError {
            message: "the program was not compiled".into(),
            span: None,
            backtrace: Vec::new(),
        });
    };
    batch
        .call(k, entry, args)
        .map_err(|e| interp::RuntimeError {
            message: e.message,
            span: e.span,
            backtrace: Vec::new(),
        })
}

/// The `main.rs` of a batch: one module per program, served by
/// `fut_runtime_multicore::batch::serve`.
fn batch_main(mods: &[(String, String)]) -> String {
    let mut main_rs = String::new();
    for (n, _) in mods {
        main_rs.push_str(&format!("mod {n};\n"));
    }
    main_rs.push_str("\nstatic PROGRAMS: &[&[fut_runtime_multicore::batch::BatchEntry]] = &[");
    for (n, _) in mods {
        main_rs.push_str(&format!("{n}::BATCH, "));
    }
    main_rs.push_str("];\n\nfn main() {\n    fut_runtime_multicore::batch::serve(PROGRAMS)\n}\n");
    main_rs
}

/// The modules (`src/pK.rs`) that cargo's error output `text` names, each
/// with the lines of its first error.
fn failing_modules(text: &str, n: usize) -> std::collections::BTreeMap<usize, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = std::collections::BTreeMap::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(at) = l.find("src/p") else {
            continue;
        };
        let rest = &l[at + 5..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !rest[digits.len()..].starts_with(".rs") {
            continue;
        }
        if let Ok(k) = digits.parse::<usize>()
            && k < n
        {
            out.entry(k)
                .or_insert_with(|| lines[i.saturating_sub(1)..(i + 1).min(lines.len())].join("\n"));
        }
    }
    out
}

fn start(exe: &Path) -> Result<Server, String> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    Ok(Server {
        child,
        stdin,
        stdout,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_become_standalone() {
        let deps = workspace_deps(
            "[workspace.dependencies]\nvalues = { path = \"compiler/values\" }\nrayon = \"1\"\n[x]\n",
        );
        let m = standalone_manifest(
            "[package]\nname = \"rt\"\nversion.workspace = true\nedition.workspace = true\n\n[lints]\nworkspace = true\n\n[dependencies]\nvalues.workspace = true\nrayon.workspace = true\n",
            &deps,
        );
        assert_eq!(
            m,
            "[package]\nname = \"rt\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\nvalues = { path = \"../values\" }\nrayon = \"1\"\n"
        );
        assert_eq!(sanitize("My Prog.fut"), "my-prog-fut");
        let bad = failing_modules(
            "error[E0308]: mismatched types\n --> src/p12.rs:3:4\nerror: x\n --> src/main.rs:1:1\n --> src/p3.rs:1:1\n",
            13,
        );
        assert_eq!(bad.keys().copied().collect::<Vec<_>>(), vec![3, 12]);
        assert!(bad[&12].contains("mismatched types"));
    }
}
