//! The file system as the driver sees it.
//!
//! Every read of a source file, data file or directory listing goes through the
//! [`System`] trait, so that tests can run the driver on an in-memory file system
//! ([`MemorySystem`]) and the binary on the real one ([`OsSystem`]).

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::RwLock;

/// Access to files. Implementations must be usable from several threads at once.
pub trait System: Send + Sync {
    /// The whole contents of a file.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;

    /// Is there a regular file at `path`?
    fn is_file(&self, path: &Path) -> bool;

    /// Is there a directory at `path`?
    fn is_dir(&self, path: &Path) -> bool;

    /// The entries of a directory (full paths), in no particular order.
    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>>;

    /// Writes a file, replacing it if it exists.
    fn write(&self, path: &Path, contents: &[u8]) -> io::Result<()>;

    /// The contents of a file as UTF-8 text.
    fn read_to_string(&self, path: &Path) -> io::Result<String> {
        let bytes = self.read(path)?;
        String::from_utf8(bytes).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is not valid UTF-8", path.display()),
            )
        })
    }
}

/// The operating system's file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct OsSystem;

impl System for OsSystem {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect()
    }

    fn write(&self, path: &Path, contents: &[u8]) -> io::Result<()> {
        std::fs::write(path, contents)
    }
}

/// An in-memory file system for tests: a map from path to contents. Directories
/// exist implicitly as the ancestors of files.
#[derive(Debug, Default)]
pub struct MemorySystem {
    files: RwLock<BTreeMap<PathBuf, Vec<u8>>>,
}

impl MemorySystem {
    /// An empty file system.
    pub fn new() -> MemorySystem {
        MemorySystem::default()
    }

    /// A file system holding the given files.
    pub fn with_files<P: Into<PathBuf>, C: Into<Vec<u8>>>(
        files: impl IntoIterator<Item = (P, C)>,
    ) -> MemorySystem {
        let fs = MemorySystem::new();
        for (p, c) in files {
            fs.insert(p, c);
        }
        fs
    }

    /// Adds or replaces a file.
    pub fn insert(&self, path: impl Into<PathBuf>, contents: impl Into<Vec<u8>>) {
        let mut files = self.files.write().unwrap_or_else(|e| e.into_inner());
        files.insert(path.into(), contents.into());
    }

    /// The contents of a file, if it exists.
    pub fn get(&self, path: &Path) -> Option<Vec<u8>> {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.get(path).cloned()
    }
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::NotFound,
        format!("{}: no such file or directory", path.display()),
    )
}

impl System for MemorySystem {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.get(path).ok_or_else(|| not_found(path))
    }

    fn is_file(&self, path: &Path) -> bool {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.contains_key(path)
    }

    fn is_dir(&self, path: &Path) -> bool {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        files.keys().any(|p| p != path && p.starts_with(path))
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        let files = self.files.read().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<PathBuf> = Vec::new();
        for p in files.keys() {
            if p == path {
                continue;
            }
            if let Ok(rest) = p.strip_prefix(path)
                && let Some(first) = rest.components().next()
            {
                let child = path.join(first);
                if !out.contains(&child) {
                    out.push(child);
                }
            }
        }
        if out.is_empty() {
            return Err(not_found(path));
        }
        Ok(out)
    }

    fn write(&self, path: &Path, contents: &[u8]) -> io::Result<()> {
        self.insert(path, contents);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_system_lists_directories() {
        let fs = MemorySystem::with_files([("a/b.fut", "x"), ("a/c/d.fut", "y"), ("e.fut", "z")]);
        assert!(fs.is_file(Path::new("a/b.fut")));
        assert!(fs.is_dir(Path::new("a")));
        assert!(fs.is_dir(Path::new("a/c")));
        assert!(!fs.is_dir(Path::new("a/b.fut")));
        let mut entries = fs.read_dir(Path::new("a")).unwrap();
        entries.sort();
        assert_eq!(
            entries,
            vec![PathBuf::from("a/b.fut"), PathBuf::from("a/c")]
        );
        assert_eq!(fs.read_to_string(Path::new("e.fut")).unwrap(), "z");
        assert!(fs.read(Path::new("nope")).is_err());
    }
}
