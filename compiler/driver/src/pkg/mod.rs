//! `fut pkg`: the package manager, compatible with Futhark's `futhark pkg`.
//!
//! A project's `futhark.pkg` ([`manifest`]) names the packages it requires, each
//! with a least version; [`solve`] picks the versions of the whole build by
//! minimal version selection; [`fetch`] learns versions, manifests and files from
//! git repositories (a release is a tag `vX.Y.Z`); [`sync`] writes each package's
//! files to `lib/PKGPATH/`, where programs import them from
//! (`import "lib/github.com/user/repo/file"`).
//!
//! The commands work in a project folder (normally the current one) and change
//! only `futhark.pkg` and `lib/`: `init`, `add`, `remove`, `upgrade` and `fmt`
//! rewrite `futhark.pkg`; `sync` rewrites `lib/`; `check` and `versions` change
//! nothing. Messages for the user go to the given writer.

pub mod fetch;
pub mod manifest;
pub mod semver;
pub mod solve;
pub mod sync;

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use fetch::{GitRegistry, UrlMap};
use manifest::{Manifest, ManifestError, Required, check_path};
use semver::Version;

/// The manifest's file name.
pub const MANIFEST: &str = "futhark.pkg";

/// Why a package command failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PkgError {
    /// `futhark.pkg` is malformed.
    Manifest(ManifestError),
    /// Anything else, as a message (it may span lines).
    Message(String),
}

impl PkgError {
    /// An error with this message.
    pub fn msg(m: impl Into<String>) -> PkgError {
        PkgError::Message(m.into())
    }

    /// The error with a line of context (in parentheses) appended.
    pub fn context(self, c: String) -> PkgError {
        PkgError::Message(format!("{self}\n  ({c})"))
    }
}

impl fmt::Display for PkgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PkgError::Manifest(e) => e.fmt(f),
            PkgError::Message(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PkgError {}

impl From<ManifestError> for PkgError {
    fn from(e: ManifestError) -> PkgError {
        PkgError::Manifest(e)
    }
}

/// Where and how the package commands run.
pub struct PkgOptions {
    /// The project folder, holding `futhark.pkg` and `lib/`.
    pub root: PathBuf,
    /// Write each git command run to standard error.
    pub verbose: bool,
    /// Where repositories are fetched from.
    pub urls: UrlMap,
}

impl PkgOptions {
    /// Options for the project in `root`, with URLs from `FUT_PKG_URL_MAP`.
    pub fn new(root: PathBuf, verbose: bool) -> Result<PkgOptions, PkgError> {
        Ok(PkgOptions {
            root,
            verbose,
            urls: UrlMap::from_env()?,
        })
    }

    fn manifest_path(&self) -> PathBuf {
        self.root.join(MANIFEST)
    }

    fn registry(&self) -> GitRegistry {
        GitRegistry::new(self.urls.clone(), self.verbose)
    }
}

fn say(out: &mut dyn Write, line: impl fmt::Display) {
    // A closed standard output is not worth failing a package command for.
    let _ = writeln!(out, "{line}");
}

/// Reads `futhark.pkg`; a missing one is an empty manifest (with a note).
fn read_manifest(opts: &PkgOptions, out: &mut dyn Write) -> Result<Manifest, PkgError> {
    let path = opts.manifest_path();
    if path.is_dir() {
        return Err(PkgError::msg(format!(
            "{} is a folder, not a manifest",
            path.display()
        )));
    }
    match std::fs::read(&path) {
        Ok(bytes) => {
            let text = String::from_utf8(bytes)
                .map_err(|_| PkgError::msg(format!("{MANIFEST} is not UTF-8 text")))?;
            Ok(Manifest::parse(MANIFEST, &text)?)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            say(out, format!("{MANIFEST} not found; treating it as empty."));
            Ok(Manifest::default())
        }
        Err(e) => Err(PkgError::msg(format!(
            "cannot read {}: {e}",
            path.display()
        ))),
    }
}

fn write_manifest(opts: &PkgOptions, m: &Manifest) -> Result<(), PkgError> {
    let path = opts.manifest_path();
    std::fs::write(&path, m.to_string())
        .map_err(|e| PkgError::msg(format!("cannot write {}: {e}", path.display())))
}

fn roots(m: &Manifest) -> Vec<Required> {
    m.requirements().cloned().collect()
}

/// `fut pkg init PKGPATH`: writes a `futhark.pkg` for the package `path`, with no
/// requirements, and creates `lib/PKGPATH/`. Fails if `futhark.pkg` exists.
pub fn init(opts: &PkgOptions, path: &str, out: &mut dyn Write) -> Result<(), PkgError> {
    check_path(path).map_err(|m| {
        PkgError::msg(format!(
            "{m}\n  (`fut pkg init` creates a package; to use packages, `fut pkg add` them)"
        ))
    })?;
    let manifest = opts.manifest_path();
    if manifest.exists() {
        return Err(PkgError::msg(format!("{MANIFEST} already exists")));
    }
    let dir = opts.root.join("lib").join(path);
    std::fs::create_dir_all(&dir)
        .map_err(|e| PkgError::msg(format!("cannot create {}: {e}", dir.display())))?;
    say(out, format!("Created folder lib/{path}."));
    write_manifest(opts, &Manifest::new(Some(path.to_string())))?;
    say(out, format!("Wrote {MANIFEST}."));
    Ok(())
}

/// Parses a version given on the command line.
pub fn parse_version_arg(s: &str) -> Result<Version, PkgError> {
    Version::parse(s).map_err(|(_, m)| {
        let hint = if s.starts_with('v') {
            " (write the version without the `v` of its tag)"
        } else {
            ""
        };
        PkgError::msg(format!("`{s}` is not a version: {m}{hint}"))
    })
}

/// `fut pkg add PKGPATH [VERSION]`: requires `path` at `version` (default: its
/// newest release, or its newest commit if it has none), replacing an existing
/// requirement of it. The new requirements are solved first, so a missing
/// package or version, or one a dependency cannot be had for, changes nothing.
pub fn add(
    opts: &PkgOptions,
    path: &str,
    version: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), PkgError> {
    check_path(path).map_err(PkgError::msg)?;
    let version = version.map(parse_version_arg).transpose()?;
    let mut m = read_manifest(opts, out)?;
    let mut reg = opts.registry();
    let version = match version {
        Some(v) => v,
        None => reg.newest(path)?,
    };
    let commit = reg.commit(path, &version)?;
    let mut wanted: Vec<Required> = roots(&m).into_iter().filter(|r| r.path != path).collect();
    wanted.push(Required {
        path: path.to_string(),
        version: version.clone(),
        hash: None,
    });
    solve::solve(&mut reg, &wanted)?;
    let new = Required {
        path: path.to_string(),
        hash: (!version.is_zero()).then_some(commit),
        version: version.clone(),
    };
    match m.add(new) {
        Some(old) if old.version == version => say(
            out,
            format!("Package already at version {version}; nothing to do."),
        ),
        Some(old) => say(
            out,
            format!("Replaced {path} {} => {version}.", old.version),
        ),
        None => say(out, format!("Added new required package {path} {version}.")),
    }
    write_manifest(opts, &m)?;
    say(out, "Remember to run 'fut pkg sync'.");
    Ok(())
}

/// `fut pkg remove PKGPATH`: drops the requirement of `path` (not its files in
/// `lib/`; `fut pkg sync` removes those).
pub fn remove(opts: &PkgOptions, path: &str, out: &mut dyn Write) -> Result<(), PkgError> {
    let mut m = read_manifest(opts, out)?;
    match m.remove(path) {
        None => Err(PkgError::msg(format!(
            "no package {path} is required in {MANIFEST}"
        ))),
        Some(r) => {
            write_manifest(opts, &m)?;
            say(out, format!("Removed {path} {}.", r.version));
            Ok(())
        }
    }
}

/// `fut pkg sync`: solves the requirements and replaces `lib/` by the chosen
/// packages' files (see [`sync`]).
pub fn sync(opts: &PkgOptions, out: &mut dyn Write) -> Result<(), PkgError> {
    let m = read_manifest(opts, out)?;
    let mut reg = opts.registry();
    let list = solve::solve(&mut reg, &roots(&m))?;
    let mut packages = Vec::new();
    for (p, v) in &list {
        packages.push((p.clone(), reg.files(p, v)?));
    }
    sync::install(&opts.root, m.package.as_deref(), &packages)?;
    for (p, v) in &list {
        say(out, format!("{p} {v}"));
    }
    Ok(())
}

/// `fut pkg upgrade`: raises every requirement to its package's newest version
/// (recording its commit).
pub fn upgrade(opts: &PkgOptions, out: &mut dyn Write) -> Result<(), PkgError> {
    let mut m = read_manifest(opts, out)?;
    let mut reg = opts.registry();
    let mut changed = false;
    for entry in &mut m.require {
        let manifest::Entry::Required(r) = entry else {
            continue;
        };
        let newest = reg.newest(&r.path)?;
        let commit = reg.commit(&r.path, &newest)?;
        if newest != r.version {
            say(
                out,
                format!("Upgraded {} {} => {newest}.", r.path, r.version),
            );
            changed = true;
        }
        let hash = (!newest.is_zero()).then_some(commit);
        if hash != r.hash {
            changed = true;
        }
        r.version = newest;
        r.hash = hash;
    }
    if changed {
        write_manifest(opts, &m)?;
        say(out, "Remember to run 'fut pkg sync'.");
    } else {
        say(out, "Nothing to upgrade.");
    }
    Ok(())
}

/// Whether a folder holds a `.fut` file, at any depth.
fn has_fut_file(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            let p = e.path();
            if p.is_dir() {
                has_fut_file(&p)
            } else {
                p.extension().is_some_and(|x| x == "fut")
            }
        })
}

/// `fut pkg check`: solves the requirements (every package and version must be
/// available, at the pinned commits), prints the chosen versions, and, when the
/// manifest names its own package path P, checks that `lib/P/` holds `.fut`
/// files.
pub fn check(opts: &PkgOptions, out: &mut dyn Write) -> Result<(), PkgError> {
    let m = read_manifest(opts, out)?;
    let mut reg = opts.registry();
    let list = solve::solve(&mut reg, &roots(&m))?;
    say(out, "Dependencies chosen:");
    for (p, v) in &list {
        say(out, format!("{p} => {v}"));
    }
    if let Some(p) = &m.package {
        let dir = opts.root.join("lib").join(p);
        if !dir.is_dir() {
            return Err(PkgError::msg(format!(
                "the folder lib/{p} of package {p} does not exist"
            )));
        }
        if !has_fut_file(&dir) {
            return Err(PkgError::msg(format!(
                "the folder lib/{p} of package {p} contains no .fut files"
            )));
        }
    }
    Ok(())
}

/// `fut pkg fmt`: rewrites `futhark.pkg` in the standard layout, keeping comments.
pub fn fmt(opts: &PkgOptions, out: &mut dyn Write) -> Result<(), PkgError> {
    if !opts.manifest_path().exists() {
        return Err(PkgError::msg(format!("{MANIFEST} does not exist")));
    }
    let m = read_manifest(opts, out)?;
    write_manifest(opts, &m)
}

/// `fut pkg versions PKGPATH`: prints the released versions of `path`, oldest
/// first.
pub fn versions(opts: &PkgOptions, path: &str, out: &mut dyn Write) -> Result<(), PkgError> {
    check_path(path).map_err(PkgError::msg)?;
    for v in opts.registry().versions(path)? {
        say(out, v);
    }
    Ok(())
}
