//! Embeds the sources of the crates generated programs build against (the
//! multicore runtime, the GPU runtimes and the values crate), with the workspace's manifest
//! and lock file, so that `fut` can write them into its cache and build
//! generated crates without the source tree. New source files are picked up
//! without touching this crate's code.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, rel: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let name = format!("{rel}/{}", e.file_name().to_string_lossy());
        if path.is_dir() {
            collect(&path, &name, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push((name, path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets this"));
    let root = manifest.join("../..");
    let mut files = Vec::new();
    for (dir, name) in [
        ("runtime-multicore", "fut-runtime-multicore"),
        ("runtime-gpu", "fut-runtime-gpu"),
        ("runtime-opencl", "fut-runtime-opencl"),
        ("runtime-cuda", "fut-runtime-cuda"),
        ("compiler/values", "values"),
    ] {
        let d = root.join(dir);
        println!("cargo:rerun-if-changed={}", d.join("src").display());
        println!("cargo:rerun-if-changed={}", d.join("Cargo.toml").display());
        files.push((format!("{name}/Cargo.toml"), d.join("Cargo.toml")));
        collect(&d.join("src"), &format!("{name}/src"), &mut files);
    }
    for f in ["Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(f).display());
        files.push((f.to_string(), root.join(f)));
    }
    let mut out = String::from(
        "/// The embedded files: path in the cache, contents.\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for (name, path) in files {
        let abs = path.canonicalize().unwrap_or(path);
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            abs.display().to_string()
        )
        .ok();
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets this"))
        .join("runtime_sources.rs");
    std::fs::write(dest, out).expect("writing to OUT_DIR");
}
