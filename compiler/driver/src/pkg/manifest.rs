//! `futhark.pkg`, the package manifest: its parser and its printer.
//!
//! The format, as Futhark writes it:
//!
//! ```text
//! package github.com/user/mine
//!
//! require {
//!   github.com/diku-dk/sorts 0.4.1 #6f4a2e0c...
//!   github.com/user/big@2 2.1.0 #a1b2c3...
//! }
//! ```
//!
//! Both parts are optional. Line comments (`--` to the end of the line) may stand
//! before `package`, before `require`, between requirements and at the end; they
//! are kept, so that a manifest the commands rewrite keeps its comments. Each
//! requirement is a package path, its minimum version and optionally `#COMMIT`,
//! the commit the version had when it was chosen, on a line of its own.
//! Whitespace is free otherwise. Errors carry the line and column (from 1).

use std::fmt;

use super::semver::Version;

/// A requirement: a package, the least version wanted, and the commit it was
/// seen at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Required {
    /// The package path, such as `github.com/diku-dk/sorts` or `github.com/a/b@2`.
    pub path: String,
    /// The minimum version.
    pub version: Version,
    /// The commit of that version when it was added, checked when it is fetched.
    pub hash: Option<String>,
}

/// An item of the `require` block: a comment (its text after `--`) or a
/// requirement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A line comment, without its `--`.
    Comment(String),
    /// A requirement.
    Required(Required),
}

/// A parsed `futhark.pkg`, comments included. No package path is required twice
/// (the parser checks this and the editing methods keep it so).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Comments before `package`.
    pub package_comments: Vec<String>,
    /// The path of the package this manifest defines, if any.
    pub package: Option<String>,
    /// Comments before `require`.
    pub require_comments: Vec<String>,
    /// The `require` block's items, in order.
    pub require: Vec<Entry>,
    /// Comments after the `require` block.
    pub end_comments: Vec<String>,
}

/// A syntax error in a manifest, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestError {
    /// The file name to report.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// The column (in characters), from 1.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for ManifestError {}

/// Whether `c` may appear in a package path.
fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "@-/.:_~".contains(c)
}

/// Checks that a package path can name a folder under `lib/`: not empty, made of
/// the allowed characters, not absolute, without empty, `.` or `..` components.
pub fn check_path(path: &str) -> Result<(), String> {
    if path.is_empty() {
        return Err("a package path may not be empty".into());
    }
    if let Some(c) = path.chars().find(|c| !is_path_char(*c)) {
        return Err(format!(
            "`{c}` may not appear in a package path (letters, digits and `@-/.:_~` may)"
        ));
    }
    if path
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
    {
        return Err(format!(
            "`{path}` is not a valid package path: it has an empty, `.` or `..` component \
             (package paths look like `github.com/user/repo`)"
        ));
    }
    Ok(())
}

impl Manifest {
    /// A manifest with the given package path (if any) and no requirements.
    pub fn new(package: Option<String>) -> Manifest {
        Manifest {
            package,
            ..Manifest::default()
        }
    }

    /// The requirements, in order.
    pub fn requirements(&self) -> impl Iterator<Item = &Required> {
        self.require.iter().filter_map(|e| match e {
            Entry::Required(r) => Some(r),
            Entry::Comment(_) => None,
        })
    }

    /// The requirement of `path`, if any.
    pub fn requirement(&self, path: &str) -> Option<&Required> {
        self.requirements().find(|r| r.path == path)
    }

    /// Adds a requirement, replacing the one of the same package in place if
    /// there is one; returns the replaced one.
    pub fn add(&mut self, new: Required) -> Option<Required> {
        for e in &mut self.require {
            if let Entry::Required(r) = e
                && r.path == new.path
            {
                return Some(std::mem::replace(r, new));
            }
        }
        self.require.push(Entry::Required(new));
        None
    }

    /// Removes the requirement of `path`; returns it, or `None` if there was none.
    pub fn remove(&mut self, path: &str) -> Option<Required> {
        let i = self
            .require
            .iter()
            .position(|e| matches!(e, Entry::Required(r) if r.path == path))?;
        match self.require.remove(i) {
            Entry::Required(r) => Some(r),
            Entry::Comment(_) => None,
        }
    }

    /// Parses a manifest; `file` is the name errors report.
    pub fn parse(file: &str, text: &str) -> Result<Manifest, ManifestError> {
        Parser {
            file,
            chars: text.chars().collect(),
            pos: 0,
        }
        .manifest()
    }
}

impl fmt::Display for Manifest {
    /// The manifest in Futhark's layout; parsing it gives the same manifest.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.package_comments {
            writeln!(f, "--{c}")?;
        }
        if let Some(p) = &self.package {
            writeln!(f, "package {p}\n")?;
        }
        for c in &self.require_comments {
            writeln!(f, "--{c}")?;
        }
        writeln!(f, "require {{")?;
        for e in &self.require {
            match e {
                Entry::Comment(c) => writeln!(f, "  --{c}")?,
                Entry::Required(r) => {
                    write!(f, "  {} {}", r.path, r.version)?;
                    if let Some(h) = &r.hash {
                        write!(f, " #{h}")?;
                    }
                    writeln!(f)?;
                }
            }
        }
        writeln!(f, "}}")?;
        for c in &self.end_comments {
            writeln!(f, "--{c}")?;
        }
        Ok(())
    }
}

/// A recursive-descent parser over the characters of a manifest.
struct Parser<'a> {
    file: &'a str,
    chars: Vec<char>,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }

    fn error_at(&self, pos: usize, message: impl Into<String>) -> ManifestError {
        let mut line = 1;
        let mut col = 1;
        for &c in &self.chars[..pos.min(self.chars.len())] {
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        ManifestError {
            file: self.file.to_string(),
            line,
            col,
            message: message.into(),
        }
    }

    /// A description of what stands at `pos`, for error messages.
    fn found_at(&self, pos: usize) -> String {
        match self.chars.get(pos) {
            None => "the end of the file".into(),
            Some('\n') | Some('\r') => "the end of the line".into(),
            Some(_) => {
                let word: String = self.chars[pos..]
                    .iter()
                    .take_while(|c| !c.is_whitespace())
                    .take(40)
                    .collect();
                format!("`{word}`")
            }
        }
    }

    fn skip_hspace(&mut self) -> bool {
        let start = self.pos;
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.pos += 1;
        }
        self.pos > start
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn at_comment(&self) -> bool {
        self.peek() == Some('-') && self.peek_at(1) == Some('-')
    }

    /// A `--` comment to the end of the line; returns its text after `--`.
    fn comment(&mut self) -> String {
        self.pos += 2;
        let start = self.pos;
        while self.peek().is_some_and(|c| c != '\n') {
            self.pos += 1;
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        text.strip_suffix('\r').map(str::to_string).unwrap_or(text)
    }

    /// Blank space and comments; returns the comments.
    fn comments(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            self.skip_space();
            if self.at_comment() {
                out.push(self.comment());
            } else {
                return out;
            }
        }
    }

    /// A run of package-path characters (possibly empty).
    fn word(&mut self) -> (usize, String) {
        let start = self.pos;
        while self.peek().is_some_and(is_path_char) {
            self.pos += 1;
        }
        (start, self.chars[start..self.pos].iter().collect())
    }

    fn package_path(&mut self, what: &str) -> Result<String, ManifestError> {
        let (start, path) = self.word();
        if path.is_empty() {
            return Err(self.error_at(
                start,
                format!("expected {what}, found {}", self.found_at(start)),
            ));
        }
        if self.peek().is_some_and(|c| !c.is_whitespace()) {
            return Err(self.error_at(
                self.pos,
                format!(
                    "`{}` may not appear in a package path",
                    self.peek().unwrap_or(' ')
                ),
            ));
        }
        check_path(&path).map_err(|m| self.error_at(start, m))?;
        Ok(path)
    }

    fn manifest(mut self) -> Result<Manifest, ManifestError> {
        let mut m = Manifest {
            package_comments: self.comments(),
            ..Manifest::default()
        };
        let save = self.pos;
        let (start, w) = self.word();
        if w == "package" {
            self.skip_space();
            m.package = Some(self.package_path("a package path after `package`")?);
            m.require_comments = self.comments();
        } else {
            self.pos = save;
            if !w.is_empty() && w != "require" {
                return Err(self.error_at(
                    start,
                    format!("expected `package` or `require`, found `{w}`"),
                ));
            }
            m.require_comments = std::mem::take(&mut m.package_comments);
        }
        let save = self.pos;
        let (start, w) = self.word();
        if w == "require" {
            self.require_block(&mut m)?;
            m.end_comments = self.comments();
        } else {
            self.pos = save;
            if !w.is_empty() {
                let expected = if m.package.is_some() {
                    "`require`"
                } else {
                    "`package` or `require`"
                };
                return Err(self.error_at(start, format!("expected {expected}, found `{w}`")));
            }
            // Without a require block, trailing comments stay before the empty
            // block the printer writes.
        }
        if self.pos < self.chars.len() {
            let what = if m.require.is_empty() && !self.chars[..self.pos].contains(&'{') {
                "expected `package`, `require` or a comment"
            } else {
                "expected a comment or the end of the file"
            };
            return Err(self.error_at(
                self.pos,
                format!("{what}, found {}", self.found_at(self.pos)),
            ));
        }
        Ok(m)
    }

    fn require_block(&mut self, m: &mut Manifest) -> Result<(), ManifestError> {
        self.skip_space();
        if self.peek() != Some('{') {
            return Err(self.error_at(
                self.pos,
                format!(
                    "expected `{{` after `require`, found {}",
                    self.found_at(self.pos)
                ),
            ));
        }
        let open = self.pos;
        self.pos += 1;
        let mut seen: Vec<(String, usize)> = Vec::new();
        loop {
            self.skip_space();
            if self.at_comment() {
                let c = self.comment();
                m.require.push(Entry::Comment(c));
                continue;
            }
            match self.peek() {
                Some('}') => {
                    self.pos += 1;
                    return Ok(());
                }
                None => {
                    let o = self.error_at(open, "");
                    return Err(self.error_at(
                        self.pos,
                        format!(
                            "the `{{` of `require` at line {}, column {} is never closed",
                            o.line, o.col
                        ),
                    ));
                }
                _ => {}
            }
            let start = self.pos;
            let r = self.requirement()?;
            if let Some((_, first)) = seen.iter().find(|(p, _)| *p == r.path) {
                let first = self.error_at(*first, "");
                return Err(self.error_at(
                    start,
                    format!(
                        "`{}` is required twice (first at line {}, column {})",
                        r.path, first.line, first.col
                    ),
                ));
            }
            seen.push((r.path.clone(), start));
            m.require.push(Entry::Required(r));
        }
    }

    fn requirement(&mut self) -> Result<Required, ManifestError> {
        let path = self.package_path("a package path, a comment or `}`")?;
        if !self.skip_hspace() {
            return Err(self.error_at(
                self.pos,
                format!(
                    "expected a version such as 1.2.3 after `{path}`, found {}",
                    self.found_at(self.pos)
                ),
            ));
        }
        let start = self.pos;
        let rest: String = self.chars[start..]
            .iter()
            .take_while(|c| !c.is_whitespace())
            .collect();
        let (version, used) = Version::parse_prefix(&rest).map_err(|(off, msg)| {
            self.error_at(
                start + rest[..off].chars().count(),
                format!("{msg}, found {}", self.found_at(start)),
            )
        })?;
        self.pos = start + rest[..used].chars().count();
        if self.peek().is_some_and(|c| !c.is_whitespace()) {
            return Err(self.error_at(
                self.pos,
                format!(
                    "unexpected `{}` in the version of `{path}`",
                    self.peek().unwrap_or(' ')
                ),
            ));
        }
        self.skip_hspace();
        let mut hash = None;
        if self.peek() == Some('#') {
            self.pos += 1;
            let start = self.pos;
            while self.peek().is_some_and(|c| c.is_ascii_alphanumeric()) {
                self.pos += 1;
            }
            if start == self.pos {
                return Err(self.error_at(
                    start,
                    format!(
                        "expected a commit hash after `#`, found {}",
                        self.found_at(start)
                    ),
                ));
            }
            hash = Some(self.chars[start..self.pos].iter().collect());
            self.skip_hspace();
        }
        match self.peek() {
            None | Some('\n' | '\r' | '}') => {}
            Some(_) if self.at_comment() => {}
            Some(_) => {
                return Err(self.error_at(
                    self.pos,
                    format!(
                        "expected the end of the line after the requirement of `{path}`, found {}",
                        self.found_at(self.pos)
                    ),
                ));
            }
        }
        Ok(Required {
            path,
            version,
            hash,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FULL: &str = "\
-- My package.
package github.com/user/mine

-- What it needs.
require {
  github.com/diku-dk/sorts 0.4.1 #6f4a2e0c5b
  -- pinned to a commit:
  github.com/athas/quux 0.0.0-20180801102532+b70028521e4dbcc286834b32ce82c1d2721a6209
  github.com/user/big@2 2.1.0 #a1b2c3
}
-- The end.
";

    fn err(text: &str) -> String {
        Manifest::parse("futhark.pkg", text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn round_trips_futhark_layout() {
        let m = Manifest::parse("futhark.pkg", FULL).expect("parses");
        assert_eq!(m.to_string(), FULL);
        assert_eq!(m.package.as_deref(), Some("github.com/user/mine"));
        let reqs: Vec<_> = m.requirements().map(|r| r.path.as_str()).collect();
        assert_eq!(
            reqs,
            [
                "github.com/diku-dk/sorts",
                "github.com/athas/quux",
                "github.com/user/big@2"
            ]
        );
        let quux = m.requirement("github.com/athas/quux").expect("present");
        assert_eq!(
            quux.version.commit_id(),
            Some("b70028521e4dbcc286834b32ce82c1d2721a6209")
        );
        assert_eq!(quux.hash, None);
        assert_eq!(Manifest::parse("f", &m.to_string()), Ok(m));
    }

    #[test]
    fn empty_manifests() {
        let m = Manifest::new(Some("github.com/a/b".into()));
        assert_eq!(m.to_string(), "package github.com/a/b\n\nrequire {\n}\n");
        assert_eq!(Manifest::parse("f", &m.to_string()), Ok(m));
        let empty = Manifest::parse("f", "").expect("parses");
        assert_eq!(empty, Manifest::default());
        assert_eq!(empty.to_string(), "require {\n}\n");
        let m = Manifest::parse("f", "package x.org/y").expect("parses");
        assert_eq!(m.package.as_deref(), Some("x.org/y"));
        let m = Manifest::parse("f", "-- only a comment\n").expect("parses");
        assert_eq!(m.to_string(), "-- only a comment\nrequire {\n}\n");
        assert_eq!(Manifest::parse("f", &m.to_string()), Ok(m));
    }

    #[test]
    fn free_layout_normalises() {
        let m = Manifest::parse(
            "f",
            "package\n  a.org/b\r\nrequire{c.org/d 1.0.0 -- note\n\n  e.org/f 0.1.2 #abc}",
        )
        .expect("parses");
        assert_eq!(
            m.to_string(),
            "package a.org/b\n\nrequire {\n  c.org/d 1.0.0\n  -- note\n  e.org/f 0.1.2 #abc\n}\n"
        );
    }

    #[test]
    fn edits_keep_order_and_comments() {
        let mut m = Manifest::parse("futhark.pkg", FULL).expect("parses");
        let old = m.add(Required {
            path: "github.com/diku-dk/sorts".into(),
            version: Version::new(0, 5, 0),
            hash: Some("ff".into()),
        });
        assert_eq!(old.map(|r| r.version), Some(Version::new(0, 4, 1)));
        assert!(
            m.to_string()
                .contains("require {\n  github.com/diku-dk/sorts 0.5.0 #ff\n  -- pinned")
        );
        assert!(
            m.add(Required {
                path: "x.org/new".into(),
                version: Version::new(1, 0, 0),
                hash: None,
            })
            .is_none()
        );
        assert!(
            m.to_string()
                .ends_with("  x.org/new 1.0.0\n}\n-- The end.\n")
        );
        assert_eq!(
            m.remove("github.com/user/big@2").map(|r| r.version),
            Some(Version::new(2, 1, 0))
        );
        assert_eq!(m.remove("github.com/user/big@2"), None);
        assert!(!m.to_string().contains("big@2"));
    }

    #[test]
    fn malformed_manifests() {
        let cases = [
            "packge github.com/a/b\n",
            "package\n",
            "package github.com/a/b\nrequire\n",
            "require {\n  github.com/a/b\n}\n",
            "require {\n  github.com/a/b 1.2\n}\n",
            "require {\n  github.com/a/b v1.2.3\n}\n",
            "require {\n  github.com/a/b 1.2.3-rc1\n}\n",
            "require {\n  github.com/a/b 1.2.3 #\n}\n",
            "require {\n  github.com/a/b 1.2.3 #abc extra\n}\n",
            "require {\n  github.com/a/b 1.2.3\n  github.com/a/b 1.3.0\n}\n",
            "require {\n  github.com/a/b 1.2.3\n",
            "require {\n  ../../etc 1.0.0\n}\n",
            "require {\n  github.com/a/b$ 1.0.0\n}\n",
            "require {\n}\n}\n",
            "package a.org/b\npackage c.org/d\n",
        ];
        let out: Vec<String> = cases
            .iter()
            .map(|c| format!("{c:?}\n  => {}", err(c)))
            .collect();
        insta::assert_snapshot!(out.join("\n"));
    }

    #[test]
    fn path_checks() {
        assert!(check_path("github.com/a/b@2").is_ok());
        assert!(check_path("").is_err());
        assert!(check_path("/abs/path").is_err());
        assert!(check_path("a/../b").is_err());
        assert!(check_path("a//b").is_err());
        assert!(check_path("a b").is_err());
    }
}
