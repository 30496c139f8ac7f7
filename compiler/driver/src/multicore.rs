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
//!   generated code and the options);
//! - `tests/<key>/`: the workspace of a `fut test` run's programs, spread
//!   over a few crates (`workspace.rs`);
//! - `target/`: the target directory all generated crates share, so the
//!   runtime and its dependencies are compiled once (`target-<cpu>/` for
//!   code built for a CPU other than this machine's, `cpu.rs`).
//!
//! Generated crates carry the workspace's `Cargo.lock`, so they build with
//! the dependency versions already downloaded and work offline; cargo is
//! first run with `--offline` and, if that fails, once more online.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use syntax::diag::location;

use crate::db::Database;
use crate::program::{Program, load_program};

mod batch;
pub mod cpu;
pub mod cuda;
mod spans;
mod workspace;

pub use batch::{Batch, CallError, TIMED_OUT, prepare_batch, run_case, timed_out};

/// A backend whose programs are compiled to Rust crates: the multicore
/// backend, or a GPU backend whose host code is the same Rust over its
/// runtime's memory blocks, with kernels (`gpu` crate).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Target {
    /// `fut multicore`: Rust on rayon.
    #[default]
    Multicore,
    /// `fut opencl`: kernels in OpenCL C, host code on `fut-runtime-opencl`.
    OpenCl,
    /// `fut cuda`: kernels in CUDA C compiled ahead of time (`cuda.rs`),
    /// host code on `fut-runtime-cuda`.
    Cuda,
}

impl Target {
    /// The backend's name (`--backend=NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Target::Multicore => "multicore",
            Target::OpenCl => "opencl",
            Target::Cuda => "cuda",
        }
    }

    /// The code generation hook of its kernels, if it has any.
    pub fn kernels(self) -> Option<codegen::Kernels> {
        match self {
            Target::Multicore => None,
            Target::OpenCl => Some(gpu::OPENCL),
            Target::Cuda => Some(gpu::CUDA),
        }
    }

    /// The runtime crate whose `main` an executable calls.
    pub fn runtime_crate(self) -> &'static str {
        match self {
            Target::Multicore => "fut_runtime_multicore",
            Target::OpenCl => "fut_runtime_opencl",
            Target::Cuda => "fut_runtime_cuda",
        }
    }
}

/// Options of `fut multicore`.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Keep bounds checks (`--safe=false` turns them off).
    pub safe: bool,
    /// Where to write the executable (default: the program's path without
    /// its extension).
    pub output: Option<PathBuf>,
    /// The backend.
    pub target: Target,
    /// The CUDA backend's architectures (`sm_XY`): a cubin is compiled for
    /// each (`cuda.rs`).
    pub cuda_arch: Vec<String>,
    /// The CPU the host code is compiled for (`cpu.rs`; default:
    /// `FUT_TARGET_CPU`, else `native`).
    pub target_cpu: String,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            safe: true,
            output: None,
            target: Target::Multicore,
            cuda_arch: cuda::default_archs(),
            target_cpu: cpu::default_cpu(),
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
fn standalone_manifest(manifest: &str, deps: &[(String, String)]) -> String {
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
    write_runtime_crates(&dir, &deps)?;
    write_if_changed(&marker, "")?;
    Ok(dir)
}

/// Writes the embedded runtime and values crates under `dir` (every
/// embedded file but the workspace's `Cargo.toml` and `Cargo.lock`), their
/// manifests made standalone with the workspace's dependencies `deps`.
pub(crate) fn write_runtime_crates(dir: &Path, deps: &[(String, String)]) -> Result<(), String> {
    for (path, contents) in codegen::runtime_sources::FILES {
        if *path == "Cargo.toml" || *path == "Cargo.lock" {
            continue;
        }
        let text = if path.ends_with("/Cargo.toml") {
            standalone_manifest(contents, deps)
        } else {
            contents.to_string()
        };
        write_if_changed(&dir.join(path), &text)?;
    }
    Ok(())
}

/// The `[dependencies]` of a generated crate: the runtime and values crates
/// written by [`write_runtime`] into `runtime`, and the crates generated
/// code names directly.
fn dependencies(runtime: &Path, target: Target) -> String {
    let rt = runtime.display();
    let gpu = match target {
        Target::Multicore => String::new(),
        Target::OpenCl | Target::Cuda => {
            let api = target.name();
            format!(
                "fut-runtime-gpu = {{ path = \"{rt}/fut-runtime-gpu\" }}\nfut-runtime-{api} = {{ path = \"{rt}/fut-runtime-{api}\" }}\n"
            )
        }
    };
    format!(
        "[dependencies]\nfut-runtime-multicore = {{ path = \"{rt}/fut-runtime-multicore\" }}\n{gpu}values = {{ path = \"{rt}/values\" }}\nrayon = \"1\"\nlibm = \"0.2\"\n"
    )
}

/// Copies the workspace's `Cargo.lock` into the generated crate or
/// workspace at `dir` unless it has one, so that it builds with the
/// dependency versions already downloaded.
fn write_lock(dir: &Path) -> Result<(), String> {
    if !dir.join("Cargo.lock").exists()
        && let Some(lock) = codegen::runtime_sources::file("Cargo.lock")
    {
        write_if_changed(&dir.join("Cargo.lock"), lock)?;
    }
    Ok(())
}

/// What a `cargo build` reported: whether it succeeded, and its error
/// output (rustc's rendered diagnostics).
struct CargoRun {
    success: bool,
    stderr: String,
}

/// Runs `cargo build --release` on `manifest` with `target` as the target
/// directory, code for the CPU `target_cpu` (`cpu.rs`) and `extra`
/// arguments, reading cargo's JSON messages:
/// `on_executable(path, fresh)` is called for each executable as it is
/// finished (`fresh`: it was up to date). Cargo runs `--offline` first, and
/// once more online if that fails for want of the network.
fn cargo_build(
    manifest: &Path,
    target: &Path,
    target_cpu: &str,
    extra: &[&str],
    on_executable: &mut dyn FnMut(&Path, bool),
) -> Result<CargoRun, String> {
    let mut run = |offline: bool| -> Result<CargoRun, String> {
        let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        c.arg("build")
            .arg("--release")
            .arg("--quiet")
            .arg("--message-format=json-render-diagnostics")
            .arg("--manifest-path")
            .arg(manifest)
            .arg("--target-dir")
            .arg(target)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if offline {
            c.arg("--offline");
        }
        c.env_remove("RUSTFLAGS")
            .env("CARGO_ENCODED_RUSTFLAGS", cpu::rustflags(target_cpu));
        let mut child = c.spawn().map_err(|e| format!("cannot run cargo: {e}"))?;
        let mut err = child.stderr.take().ok_or("cannot read cargo's output")?;
        let errors = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            text
        });
        if let Some(out) = child.stdout.take() {
            for line in BufReader::new(out).lines() {
                let Ok(line) = line else { break };
                if let Some((exe, fresh)) = built_executable(&line) {
                    on_executable(&exe, fresh);
                }
            }
        }
        let status = child.wait().map_err(|e| format!("cannot run cargo: {e}"))?;
        Ok(CargoRun {
            success: status.success(),
            stderr: errors.join().unwrap_or_default(),
        })
    };
    let out = run(true)?;
    if !out.success && (out.stderr.contains("offline") || out.stderr.contains("network")) {
        return run(false);
    }
    Ok(out)
}

/// The executable a line of cargo's JSON output reports as built, and
/// whether it was up to date.
fn built_executable(line: &str) -> Option<(PathBuf, bool)> {
    if !line.contains("\"compiler-artifact\"") {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let exe = v.get("executable")?.as_str()?;
    let fresh = v.get("fresh").and_then(|f| f.as_bool()).unwrap_or(false);
    Some((PathBuf::from(exe), fresh))
}

/// Writes the generated crate of one program (`main.rs` and the modules)
/// and builds it with full optimisation; returns the executable's path.
fn build_crate(
    name_hint: &str,
    main_rs: &str,
    modules: &[(String, String)],
    target: Target,
    target_cpu: &str,
) -> Result<PathBuf, String> {
    let cache = cache_dir();
    let runtime = write_runtime(&cache)?;
    let mut parts: Vec<&str> = vec![main_rs, runtime.to_str().unwrap_or("")];
    for (n, m) in modules {
        parts.push(n);
        parts.push(m);
    }
    parts.push("release");
    parts.push(target.name());
    parts.push(target_cpu);
    let hash = hash_of(&parts);
    let crate_name = format!("fut-{}-{}", sanitize(name_hint), &hash[..12]);
    let dir = cache.join("crates").join(&hash);
    let manifest = format!(
        "[package]\nname = \"{crate_name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n{}\n\
         [profile.release]\nopt-level = 3\ndebug = false\nincremental = false\n\n[workspace]\n",
        dependencies(&runtime, target)
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    write_lock(&dir)?;
    write_if_changed(&dir.join("src/main.rs"), main_rs)?;
    for (n, m) in modules {
        write_if_changed(&dir.join(format!("src/{n}.rs")), m)?;
    }
    let target = cpu::target_dir(&cache, target_cpu);
    let exe = target.join("release").join(&crate_name);
    if exe.exists() {
        return Ok(exe);
    }
    let out = cargo_build(
        &dir.join("Cargo.toml"),
        &target,
        target_cpu,
        &[],
        &mut |_, _| {},
    )?;
    if !out.success {
        return Err(does_not_compile(&dir, &out.stderr));
    }
    Ok(exe)
}

/// The error of a generated crate at `dir` that cargo failed to build with
/// error output `stderr` (its first 200 lines are kept).
fn does_not_compile(dir: &Path, stderr: &str) -> String {
    let short: String = stderr.lines().take(200).collect::<Vec<_>>().join("\n");
    format!(
        "internal compiler error (a bug in fut): the Rust code generated by the multicore backend (pass `codegen`) does not compile; crate at {}:\n{short}",
        dir.display()
    )
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

/// Compiles a checked program to the Rust module of the multicore backend
/// (or of a GPU backend: `target`; `cuda_arch`, the CUDA backend's
/// architectures).
pub fn compile_module(
    db: &Database,
    program: &Program,
    safe: bool,
    standalone: bool,
    name: &str,
    target: Target,
    cuda_arch: &[String],
) -> Result<String, String> {
    let ir = crate::irrun::compile(db, program, false)?;
    module_of(db, &ir, safe, standalone, name, &[], target, cuda_arch)
}

/// The Rust module of `ir`. Its spans name files by the database's numbers,
/// or, with a non-empty `files`, by their position in it (from 1, as
/// [`spans::localise`] numbers them). A CUDA module gets its kernels
/// compiled for `cuda_arch` ([`cuda::with_binaries`]).
#[allow(clippy::too_many_arguments)]
fn module_of(
    db: &Database,
    ir: &ir::Program,
    safe: bool,
    standalone: bool,
    name: &str,
    files: &[u32],
    target: Target,
    cuda_arch: &[String],
) -> Result<String, String> {
    let sources = db.sources();
    let locate = |s: ir::Span| {
        // Generated code without a source location names none (not the
        // first character of the main file).
        if s == ir::Span::NONE {
            return String::new();
        }
        let file = if files.is_empty() {
            s.file
        } else {
            match (s.file as usize).checked_sub(1).and_then(|k| files.get(k)) {
                Some(&f) => f,
                None => return String::new(),
            }
        };
        location(
            &sources,
            syntax::Span::new(syntax::FileId(file), s.start, s.end),
        )
    };
    let opts = codegen::Options {
        safe,
        standalone,
        name: name.to_string(),
        kernels: target.kernels(),
    };
    let ir = layout(ir.clone(), false)?;
    let (module, kernels) =
        codegen::program_module_with_kernels(&ir, &opts, &locate).map_err(|e| {
            format!(
                "the {} backend cannot compile this program: {e}",
                target.name()
            )
        })?;
    match target {
        Target::Cuda => cuda::with_binaries(module, kernels.as_deref().unwrap_or(""), cuda_arch),
        Target::Multicore | Target::OpenCl => Ok(module),
    }
}

/// The multicore pipeline's passes after the standard pipeline: the layout
/// pass (`flatten::layout`: row-major copies of transposed arrays that a
/// parallel operation's innermost loop reads across rows), with the verifier
/// after it when `validate`. `FUT_LAYOUT` selects its rule: unset or
/// `amortised` (copies that pay for themselves), `always` (every strided
/// read, for measurements) or `off`.
pub fn layout(ir: ir::Program, validate: bool) -> Result<ir::Program, String> {
    let var = std::env::var("FUT_LAYOUT").unwrap_or_default();
    let pass = match var.as_str() {
        "" | "amortised" => flatten::layout::PASS,
        "always" => flatten::layout::PASS_ALWAYS,
        "off" => return Ok(ir),
        other => {
            return Err(format!(
                "FUT_LAYOUT={other} is not a layout rule; use amortised, always or off"
            ));
        }
    };
    let config = ir::pass::PipelineConfig { validate };
    ir::run_pipeline(&[pass], ir, config).map_err(|e| e.to_string())
}

/// The program at `path`, type-checked (its diagnostics rendered as the
/// error otherwise), and the file's name without `.fut` (`prog` if none).
pub(crate) fn checked_program(db: &Database, path: &Path) -> Result<(Program, String), String> {
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
    Ok((program, stem))
}

/// `fut multicore prog.fut` (or `fut opencl`, `fut cuda`: `opts.target`):
/// builds a native executable for the program and returns its path.
pub fn build_executable(
    db: &Database,
    path: &Path,
    opts: &BuildOptions,
) -> Result<PathBuf, String> {
    cpu::check(&opts.target_cpu)?;
    let (program, stem) = checked_program(db, path)?;
    let module = compile_module(
        db,
        &program,
        opts.safe,
        true,
        &stem,
        opts.target,
        &opts.cuda_arch,
    )?;
    // A GPU backend's executable also names its kernels (their tuning
    // parameters).
    let kernels = if opts.target.kernels().is_some() {
        ", &prog::KERNELS"
    } else {
        ""
    };
    let main_rs = format!(
        "mod prog;\n\nfn main() {{\n    {}::main(&prog::PROGRAM{kernels})\n}}\n",
        opts.target.runtime_crate()
    );
    let exe = build_crate(
        &stem,
        &main_rs,
        &[("prog".to_string(), module)],
        opts.target,
        &opts.target_cpu,
    )?;
    let out = opts
        .output
        .clone()
        .unwrap_or_else(|| path.with_extension(""));
    std::fs::copy(&exe, &out)
        .map_err(|e| format!("cannot write the executable {}: {e}", out.display()))?;
    Ok(out)
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
    }

    #[test]
    fn executables_are_read_from_cargo_messages() {
        let line = r#"{"reason":"compiler-artifact","package_id":"x","target":{"kind":["bin"],"name":"t"},"executable":"/c/target/release/t","fresh":true}"#;
        assert_eq!(
            built_executable(line),
            Some((PathBuf::from("/c/target/release/t"), true))
        );
        let lib = r#"{"reason":"compiler-artifact","target":{"kind":["lib"]},"executable":null,"fresh":false}"#;
        assert_eq!(built_executable(lib), None);
        assert_eq!(
            built_executable(r#"{"reason":"build-finished","success":true}"#),
            None
        );
    }
}
