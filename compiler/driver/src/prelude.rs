//! The prelude, embedded into the binary at build time.
//!
//! `build.rs` turns every `.fut` file under the workspace's `prelude/` folder into an
//! entry of [`PRELUDE_FILES`]. The prelude's files live under the virtual directory
//! [`PRELUDE_DIR`], so that diagnostics and run-time errors inside the prelude name
//! them as `/prelude/soacs.fut`, and so that programs may import them explicitly
//! (`import "/prelude/math"`). The root, `/prelude/prelude.fut`, is opened implicitly
//! in every program.

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/prelude_files.rs"));

/// The virtual directory holding the prelude's files.
pub const PRELUDE_DIR: &str = "/prelude";

/// The prelude's root file, opened implicitly in every program.
pub fn root_path() -> PathBuf {
    Path::new(PRELUDE_DIR).join("prelude.fut")
}

/// Is `path` (normalised) a file of the prelude's virtual directory?
pub fn is_prelude_path(path: &Path) -> bool {
    path.starts_with(PRELUDE_DIR)
}

/// The embedded text of a prelude file, given its virtual path.
pub fn source(path: &Path) -> Option<&'static str> {
    let rel = path.strip_prefix(PRELUDE_DIR).ok()?;
    let rel = rel.to_str()?;
    PRELUDE_FILES
        .iter()
        .find(|(name, _)| *name == rel)
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_prelude_file_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prelude");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "fut") {
                let name = path.file_name().unwrap().to_str().unwrap();
                let text = std::fs::read_to_string(&path).unwrap();
                assert_eq!(
                    source(&Path::new(PRELUDE_DIR).join(name)),
                    Some(text.as_str()),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn only_prelude_paths_are_prelude() {
        assert!(is_prelude_path(&root_path()));
        assert!(!is_prelude_path(Path::new("prelude/soacs.fut")));
        assert_eq!(source(Path::new("/prelude/no_such_file.fut")), None);
    }
}
