//! `fut multicore --library` (and `fut opencl`/`fut cuda --library`): a
//! program compiled into a Rust library crate with a typed API
//! (`codegen::library`), written to a folder a user adds as a path
//! dependency. A GPU backend's crate is the same API over its runtime:
//! the entry points' parallel work runs as kernels.
//!
//! The crate holds everything it needs to build without `fut` or its
//! source tree: the generated `src/lib.rs` and `src/program.rs`, a copy of
//! the runtime and values crates under `runtime/` (written from the
//! sources embedded in `fut`, as for executables), a `Cargo.lock` with the
//! workspace's dependency versions (so it builds offline where `fut`'s
//! dependencies are already downloaded) and a `README.md` with an example.

use std::path::{Path, PathBuf};

use syntax::diag::location;

use crate::db::Database;
use crate::multicore::{
    Target, checked_program, cuda, workspace_deps, write_if_changed, write_runtime_crates,
};

/// Options of `fut multicore --library`.
#[derive(Clone, Debug)]
pub struct LibraryOptions {
    /// Keep bounds checks (`--safe=false` turns them off).
    pub safe: bool,
    /// The crate's folder (default: the program's path without `.fut`).
    pub output: Option<PathBuf>,
    /// The backend whose runtime the crate runs on.
    pub target: Target,
    /// The CUDA backend's architectures (`sm_XY`) its kernels are compiled
    /// for ahead of time.
    pub cuda_arch: Vec<String>,
}

/// What [`write_library`] wrote.
#[derive(Clone, Debug)]
pub struct Written {
    /// The crate's folder.
    pub dir: PathBuf,
    /// The package (and crate) name.
    pub name: String,
}

/// The crate's manifest: the runtime and values crates as vendored path
/// dependencies, and the crates generated code uses directly.
fn manifest(name: &str, deps: &[(String, String)], target: Target) -> String {
    let spec = |crate_name: &str, default: &str| {
        deps.iter()
            .find(|(k, _)| k == crate_name)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| default.to_string())
    };
    let gpu = match target {
        Target::Multicore => String::new(),
        Target::OpenCl | Target::Cuda => {
            let api = target.name();
            format!(
                "fut-runtime-gpu = {{ path = \"runtime/fut-runtime-gpu\" }}\n\
                 fut-runtime-{api} = {{ path = \"runtime/fut-runtime-{api}\" }}\n"
            )
        }
    };
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\
         description = \"Entry points of a Futhark program, compiled by fut {} --library\"\n\n\
         [dependencies]\n\
         fut-runtime-multicore = {{ path = \"runtime/fut-runtime-multicore\" }}\n\
         {gpu}values = {{ path = \"runtime/values\" }}\n\
         rayon = {}\nlibm = \"0.2\"\n",
        target.name(),
        spec("rayon", "\"1\"")
    )
}

/// Compiles the program at `path` and writes its library crate; returns
/// where and under which name.
pub fn write_library(db: &Database, path: &Path, opts: &LibraryOptions) -> Result<Written, String> {
    let (program, stem) = checked_program(db, path)?;
    let source = path
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "prog.fut".into());
    let name = codegen::library::crate_name(&stem);
    let ir = crate::multicore::layout(crate::irrun::compile(db, &program, false)?, false)?;
    let sources = db.sources();
    let locate = |s: ir::Span| {
        if s == ir::Span::NONE {
            return String::new();
        }
        location(
            &sources,
            syntax::Span::new(syntax::FileId(s.file), s.start, s.end),
        )
    };
    let copts = codegen::Options {
        safe: opts.safe,
        standalone: true,
        name: stem.clone(),
        kernels: opts.target.kernels(),
    };
    let mut lib = codegen::library::library(&ir, &copts, &locate, &name, &source).map_err(|e| {
        format!(
            "the {} backend cannot compile this program: {e}",
            opts.target.name()
        )
    })?;
    if opts.target == Target::Cuda {
        lib.program_rs = cuda::with_binaries(
            lib.program_rs,
            lib.kernels.as_deref().unwrap_or(""),
            &opts.cuda_arch,
        )?;
    }
    let dir = opts
        .output
        .clone()
        .unwrap_or_else(|| path.with_extension(""));
    if dir.exists() && !dir.is_dir() {
        return Err(format!(
            "cannot write the library crate to {}: it is a file, not a folder",
            dir.display()
        ));
    }
    let deps = workspace_deps(codegen::runtime_sources::file("Cargo.toml").unwrap_or(""));
    write_runtime_crates(&dir.join("runtime"), &deps)?;
    if let Some(lock) = codegen::runtime_sources::file("Cargo.lock") {
        write_if_changed(&dir.join("Cargo.lock"), lock)?;
    }
    write_if_changed(
        &dir.join("Cargo.toml"),
        &manifest(&name, &deps, opts.target),
    )?;
    write_if_changed(&dir.join("src/lib.rs"), &lib.lib_rs)?;
    write_if_changed(&dir.join("src/program.rs"), &lib.program_rs)?;
    write_if_changed(&dir.join("README.md"), &lib.readme)?;
    write_if_changed(&dir.join(".gitignore"), "/target\n")?;
    Ok(Written { dir, name })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifest_names_the_vendored_runtime() {
        let m = manifest(
            "prog",
            &[("rayon".into(), "\"1.10\"".into())],
            Target::Multicore,
        );
        assert!(m.contains("name = \"prog\""), "{m}");
        assert!(
            m.contains("fut-runtime-multicore = { path = \"runtime/fut-runtime-multicore\" }"),
            "{m}"
        );
        assert!(m.contains("rayon = \"1.10\""), "{m}");
        assert!(!m.contains("[workspace]"), "{m}");
        assert!(!m.contains("fut-runtime-gpu"), "{m}");
        let m = manifest("prog", &[], Target::OpenCl);
        assert!(
            m.contains("fut-runtime-opencl = { path = \"runtime/fut-runtime-opencl\" }"),
            "{m}"
        );
        assert!(
            m.contains("fut-runtime-gpu = { path = \"runtime/fut-runtime-gpu\" }"),
            "{m}"
        );
        assert!(m.contains("compiled by fut opencl --library"), "{m}");
    }
}
