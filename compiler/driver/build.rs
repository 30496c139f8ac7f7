//! Embeds the prelude: every `.fut` file under the workspace's `prelude/` folder
//! becomes an entry of a generated table, so that new prelude files are picked up
//! without touching the driver's code.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, rel: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let name = rel.join(e.file_name());
        if path.is_dir() {
            collect(&path, &name, out);
        } else if path.extension().is_some_and(|x| x == "fut") {
            let name = name.to_string_lossy().replace('\\', "/");
            out.push((name, path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets this"));
    let prelude = manifest.join("../../prelude");
    println!("cargo:rerun-if-changed={}", prelude.display());
    let mut files = Vec::new();
    collect(&prelude, Path::new(""), &mut files);
    let mut src = String::from(
        "/// The prelude's source files: path relative to `prelude/`, and text.\n\
         pub static PRELUDE_FILES: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &files {
        let abs = path.canonicalize().unwrap_or_else(|_| path.clone());
        println!("cargo:rerun-if-changed={}", abs.display());
        let _ = writeln!(
            src,
            "    ({name:?}, include_str!({:?})),",
            abs.display().to_string()
        );
    }
    src.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets this"));
    std::fs::write(out.join("prelude_files.rs"), src).expect("OUT_DIR is writable");
}
