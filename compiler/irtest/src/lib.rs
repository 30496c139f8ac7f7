//! The shared harness of the core IR file tests (`compiler/{ir,opt,ad}/tests/filetests.rs`):
//! a dev-dependency only.
//!
//! A file test is a `tests/files/*.ir` file of a crate whose first lines are comment
//! headers `-- key: value` naming what to do with the program below; other comment
//! lines at the top are prose. Each crate's harness decides which keys it reads; this
//! crate finds the files, reads the headers, and parses, verifies and runs programs,
//! panicking with the file's name on any failure (these are tests).

use std::path::{Path, PathBuf};

use ir::Program;
use ir::pass::{Pass, PipelineConfig, run_pipeline};
use values::Value;

/// One file test.
pub struct FileTest {
    /// The file name without its extension: the name of the test and of its snapshot.
    pub name: String,
    /// Where the file is.
    pub path: PathBuf,
    /// Its text.
    pub src: String,
}

/// The `tests/files/*.ir` files of the crate at `manifest_dir` (its
/// `CARGO_MANIFEST_DIR`), sorted by name; at least `min` of them must exist.
pub fn files(manifest_dir: &str, min: usize) -> Vec<FileTest> {
    let dir = Path::new(manifest_dir).join("tests/files");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= min,
        "{}: {} file tests, expected at least {min}",
        dir.display(),
        paths.len()
    );
    paths
        .into_iter()
        .map(|path| {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default();
            let src = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            FileTest { name, path, src }
        })
        .collect()
}

/// The headers of a file test: its leading `-- key: value` lines, in order.
#[derive(Debug, Default)]
pub struct Header {
    entries: Vec<(String, String)>,
}

impl Header {
    /// Reads the headers from the comment lines at the top of `src`. A line
    /// `-- key: value` whose key is one word (letters, digits, `_`, `-`) is a
    /// header; other comment lines are prose.
    pub fn parse(src: &str) -> Header {
        let mut entries = Vec::new();
        for line in src.lines() {
            let Some(rest) = line.strip_prefix("-- ") else {
                break;
            };
            let Some((key, value)) = rest.split_once(':') else {
                continue;
            };
            let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
            if !key.is_empty() && key.chars().all(word) {
                entries.push((key.to_string(), value.to_string()));
            }
        }
        Header { entries }
    }

    /// Every header, in order: key and the text after its colon (untrimmed).
    pub fn entries(&self) -> &[(String, String)] {
        &self.entries
    }

    /// The value of the last header `key`, trimmed.
    pub fn value(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.trim())
    }

    /// The values of all headers `key`, each followed by a newline: the
    /// text of a header that may repeat (`-- input: …`).
    pub fn joined(&self, key: &str) -> Option<String> {
        let mut out: Option<String> = None;
        for (_, v) in self.entries.iter().filter(|(k, _)| k == key) {
            let s = out.get_or_insert_with(String::new);
            s.push_str(v);
            s.push('\n');
        }
        out
    }
}

/// The program of a file test, which must parse.
pub fn parse(name: &str, src: &str) -> Program {
    ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Panics, listing the errors, unless `prog` verifies.
pub fn verified(name: &str, prog: &Program) {
    if let Err(es) = ir::verify::verify(prog) {
        let msgs: Vec<String> = es.iter().map(|e| e.to_string()).collect();
        panic!("{name}: verification failed:\n{}", msgs.join("\n"));
    }
}

/// `passes` run on `prog`, with the verifier after each one.
pub fn run_passes(name: &str, passes: &[Pass], prog: Program) -> Program {
    run_pipeline(passes, prog, PipelineConfig { validate: true })
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Values in Futhark's value format (`what` names them in a failure).
pub fn read_values(name: &str, what: &str, text: &str) -> Vec<Value> {
    values::read_values(text.as_bytes()).unwrap_or_else(|e| panic!("{name}: bad {what}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::Header;

    #[test]
    fn headers_and_prose() {
        let h = Header::parse(
            "-- passes: inline simplify\n-- What this shows: prose.\n-- input: 1i32\n\
             -- input: 2i32\n-- entry: f\nfun f() -> () {}\n-- output: 3",
        );
        assert_eq!(h.value("passes"), Some("inline simplify"));
        assert_eq!(h.value("entry"), Some("f"));
        assert_eq!(h.joined("input").as_deref(), Some(" 1i32\n 2i32\n"));
        assert_eq!(h.value("output"), None);
        assert_eq!(h.value("What this shows"), None);
        assert_eq!(h.entries().len(), 4);
    }
}
