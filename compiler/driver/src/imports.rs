//! Import paths: resolving the paths written in `import` declarations to files.
//!
//! `import "p"` in a file `dir/f.fut` names the file `dir/p.fut`; an absolute path
//! names a file from the root, and `/prelude/...` a file of the embedded prelude.
//! Paths are normalised lexically (`a/./b/../c` is `a/c`), so that one file imported
//! under two spellings is one file.

use std::path::{Component, Path, PathBuf};

/// Removes `.` components and folds `dir/..` pairs, without consulting the file
/// system. Leading `..` components of a relative path are kept.
pub fn normalize(path: &Path) -> PathBuf {
    let mut parts: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                Some(Component::RootDir) | Some(Component::Prefix(_)) => {}
                _ => parts.push(c),
            },
            _ => parts.push(c),
        }
    }
    let out: PathBuf = parts.iter().collect();
    if out.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        out
    }
}

/// The file that `import "<written>"` in the file at `importer` names: relative to
/// the importer's directory, with `.fut` appended.
pub fn resolve(importer: &Path, written: &str) -> PathBuf {
    let target = format!("{written}.fut");
    let dir = importer.parent().unwrap_or(Path::new(""));
    normalize(&dir.join(target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_lexically() {
        assert_eq!(
            normalize(Path::new("a/./b/../c.fut")),
            PathBuf::from("a/c.fut")
        );
        assert_eq!(
            normalize(Path::new("../x/../y.fut")),
            PathBuf::from("../y.fut")
        );
        assert_eq!(
            normalize(Path::new("/prelude/../prelude/a.fut")),
            PathBuf::from("/prelude/a.fut")
        );
        assert_eq!(normalize(Path::new("a/..")), PathBuf::from("."));
    }

    #[test]
    fn resolves_relative_to_the_importer() {
        assert_eq!(
            resolve(Path::new("tests/m/a.fut"), "lib/b"),
            PathBuf::from("tests/m/lib/b.fut")
        );
        assert_eq!(resolve(Path::new("a.fut"), "b"), PathBuf::from("b.fut"));
        assert_eq!(
            resolve(Path::new("t/a.fut"), "../b"),
            PathBuf::from("b.fut")
        );
        assert_eq!(
            resolve(Path::new("t/a.fut"), "/prelude/math"),
            PathBuf::from("/prelude/math.fut")
        );
    }
}
