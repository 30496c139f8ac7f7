//! Writing `lib/`: the files of every package of a build list, each package in
//! `lib/PKGPATH/`.
//!
//! The new `lib/` is built as `lib~new/`; the old one is renamed `lib~old/`,
//! `lib~new/` becomes `lib/`, the folder of the package being developed
//! (`lib/P/` for the manifest's own `package P`) is moved back from `lib~old/`,
//! and `lib~old/` is deleted. Everything else in the old `lib/` is gone, local
//! changes included; if the command fails half-way, `lib~old/` still holds the old
//! state. Running it twice gives the same `lib/`.

use std::fs;
use std::path::{Component, Path};

use super::PkgError;
use super::fetch::PkgFile;

fn io_err(what: &str, path: &Path, e: std::io::Error) -> PkgError {
    PkgError::msg(format!("cannot {what} {}: {e}", path.display()))
}

fn remove_all(path: &Path) -> Result<(), PkgError> {
    match fs::symlink_metadata(path) {
        Err(_) => Ok(()),
        Ok(m) if m.is_dir() => fs::remove_dir_all(path).map_err(|e| io_err("remove", path, e)),
        Ok(_) => fs::remove_file(path).map_err(|e| io_err("remove", path, e)),
    }
}

/// Whether `rel` is a plain relative path (no root, no `..`), safe to join.
fn is_plain(rel: &str) -> bool {
    Path::new(rel)
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
}

/// Replaces `ROOT/lib` by the packages `packages` (package path and files), keeping
/// `lib/OWN/` when `own` is the manifest's package path.
pub fn install(
    root: &Path,
    own: Option<&str>,
    packages: &[(String, Vec<PkgFile>)],
) -> Result<(), PkgError> {
    let lib = root.join("lib");
    let new = root.join("lib~new");
    let old = root.join("lib~old");
    remove_all(&new)?;
    fs::create_dir(&new).map_err(|e| io_err("create", &new, e))?;
    for (pkg, files) in packages {
        if !is_plain(pkg) {
            return Err(PkgError::msg(format!(
                "the package path {pkg} cannot name a folder"
            )));
        }
        let dir = new.join(pkg);
        for (rel, bytes) in files {
            if !is_plain(rel) {
                return Err(PkgError::msg(format!(
                    "package {pkg} has a file outside its folder: {rel}"
                )));
            }
            let to = dir.join(rel);
            if let Some(parent) = to.parent() {
                fs::create_dir_all(parent).map_err(|e| io_err("create", parent, e))?;
            }
            fs::write(&to, bytes).map_err(|e| io_err("write", &to, e))?;
        }
    }
    let had_lib = lib.is_dir();
    if had_lib {
        remove_all(&old)?;
        fs::rename(&lib, &old).map_err(|e| io_err("rename", &lib, e))?;
    }
    fs::rename(&new, &lib).map_err(|e| io_err("rename", &new, e))?;
    if had_lib {
        if let Some(own) = own.filter(|o| is_plain(o)) {
            let from = old.join(own);
            if from.is_dir() {
                let to = lib.join(own);
                if to.exists() {
                    // A dependency with the manifest's own path: the local folder wins.
                    remove_all(&to)?;
                }
                if let Some(parent) = to.parent() {
                    fs::create_dir_all(parent).map_err(|e| io_err("create", parent, e))?;
                }
                fs::rename(&from, &to).map_err(|e| io_err("rename", &from, e))?;
            }
        }
        remove_all(&old)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).expect("readable") {
                let p = e.expect("entry").path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let rel = p.strip_prefix(dir).expect("below").to_string_lossy();
                    let text = fs::read_to_string(&p).expect("text");
                    out.push(format!("{rel}={text}"));
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn replaces_lib_and_keeps_the_own_package() {
        let root = std::env::temp_dir().join(format!("fut-pkg-sync-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("lib/me.org/mine")).expect("mkdir");
        fs::create_dir_all(root.join("lib/stale.org/x")).expect("mkdir");
        fs::write(root.join("lib/me.org/mine/m.fut"), "own").expect("write");
        fs::write(root.join("lib/stale.org/x/x.fut"), "stale").expect("write");
        let pkgs = vec![(
            "a.org/b".to_string(),
            vec![
                ("b.fut".to_string(), b"B".to_vec()),
                ("sub/c.fut".to_string(), b"C".to_vec()),
            ],
        )];
        install(&root, Some("me.org/mine"), &pkgs).expect("installs");
        let want = [
            "a.org/b/b.fut=B",
            "a.org/b/sub/c.fut=C",
            "me.org/mine/m.fut=own",
        ];
        assert_eq!(listing(&root.join("lib")), want);
        install(&root, Some("me.org/mine"), &pkgs).expect("installs again");
        assert_eq!(listing(&root.join("lib")), want);
        assert!(!root.join("lib~old").exists() && !root.join("lib~new").exists());
        let bad = vec![("a.org/b".to_string(), vec![("../x".to_string(), vec![])])];
        assert!(install(&root, None, &bad).is_err());
        assert_eq!(listing(&root.join("lib")), want);
        fs::remove_dir_all(&root).expect("cleanup");
    }
}
