//! Packages from git repositories: versions from tags, manifests and files from
//! commits, all by running the `git` program.
//!
//! The package path `HOST/USER/REPO` is the repository `https://HOST/USER/REPO`;
//! `HOST/USER/REPO@N` is the same repository, whose tags `vN.*.*` are its
//! versions (a path without `@N` takes the tags `v0.*.*` and `v1.*.*`). The
//! environment variable `FUT_PKG_URL_MAP` redirects package paths to other URLs
//! or local folders (see [`UrlMap`]). Each repository is cloned (bare) once per
//! command into a temporary folder that is deleted afterwards.

use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::PkgError;
use super::manifest::{Manifest, Required};
use super::semver::{Version, major_of_path};
use super::solve::Registry;

/// The environment variable that maps package paths to repository URLs.
pub const URL_MAP_VAR: &str = "FUT_PKG_URL_MAP";

/// Where repositories are fetched from: `PREFIX=URL` entries, separated by `;` or
/// newlines. A repository path equal to a prefix is fetched from its URL; one
/// that continues the prefix with `/REST` from `URL/REST`. The longest matching
/// prefix wins; a path no prefix matches is fetched from `https://PATH`.
#[derive(Clone, Debug, Default)]
pub struct UrlMap(Vec<(String, String)>);

impl UrlMap {
    /// Parses the entries of `FUT_PKG_URL_MAP`.
    pub fn parse(text: &str) -> Result<UrlMap, PkgError> {
        let mut entries = Vec::new();
        for entry in text.split([';', '\n']).map(str::trim) {
            if entry.is_empty() {
                continue;
            }
            let Some((prefix, url)) = entry.split_once('=') else {
                return Err(PkgError::msg(format!(
                    "{URL_MAP_VAR}: the entry `{entry}` is not of the form PACKAGE-PATH=URL"
                )));
            };
            let prefix = prefix.trim().trim_end_matches('/');
            let url = url.trim().trim_end_matches('/');
            if prefix.is_empty() || url.is_empty() {
                return Err(PkgError::msg(format!(
                    "{URL_MAP_VAR}: the entry `{entry}` has an empty side"
                )));
            }
            entries.push((prefix.to_string(), url.to_string()));
        }
        Ok(UrlMap(entries))
    }

    /// Reads `FUT_PKG_URL_MAP` (empty when unset).
    pub fn from_env() -> Result<UrlMap, PkgError> {
        match std::env::var(URL_MAP_VAR) {
            Ok(s) => UrlMap::parse(&s),
            Err(_) => Ok(UrlMap::default()),
        }
    }

    /// The URL of the repository at `repo` (a package path without `@N`).
    pub fn url(&self, repo: &str) -> String {
        let mut best: Option<(usize, String)> = None;
        for (prefix, url) in &self.0 {
            let mapped = if repo == prefix {
                url.clone()
            } else if let Some(rest) = repo
                .strip_prefix(prefix.as_str())
                .and_then(|r| r.strip_prefix('/'))
            {
                format!("{url}/{rest}")
            } else {
                continue;
            };
            if best.as_ref().is_none_or(|(len, _)| prefix.len() > *len) {
                best = Some((prefix.len(), mapped));
            }
        }
        best.map(|(_, u)| u)
            .unwrap_or_else(|| format!("https://{repo}"))
    }
}

/// A folder under the system's temporary folder, deleted when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, PkgError> {
        let base = std::env::temp_dir();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        for i in 0..1000 {
            let p = base.join(format!("fut-pkg-{}-{nanos}-{i}", std::process::id()));
            match std::fs::create_dir(&p) {
                Ok(()) => return Ok(TempDir(p)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(PkgError::msg(format!(
                        "cannot create a temporary folder in {}: {e}",
                        base.display()
                    )));
                }
            }
        }
        Err(PkgError::msg("cannot create a temporary folder"))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What is known of one package path: its released versions and their commits.
struct PkgInfo {
    gitdir: PathBuf,
    versions: BTreeMap<Version, String>,
}

/// A file of a package: its path below the package's folder and its contents.
pub type PkgFile = (String, Vec<u8>);

/// Packages fetched with git; the [`Registry`] of the package commands.
pub struct GitRegistry {
    urls: UrlMap,
    verbose: bool,
    tmp: Option<TempDir>,
    clones: HashMap<String, PathBuf>,
    infos: HashMap<String, PkgInfo>,
    manifests: HashMap<String, Manifest>,
    /// Commit versions already looked up, by package path and revision.
    commits: HashMap<(String, String), (Version, String)>,
}

/// Runs `git ARGS`, returning its standard output; the error names the command
/// and quotes git's message.
fn git(verbose: bool, args: &[&str], stdin: Option<&[u8]>) -> Result<Vec<u8>, String> {
    if verbose {
        eprintln!("running: git {}", args.join(" "));
    }
    let mut child = Command::new("git")
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `git` (is git installed?): {e}"))?;
    let writer = stdin.map(|input| {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        })
    });
    let mut out = Vec::new();
    let mut err = Vec::new();
    if let Some(mut o) = child.stdout.take() {
        let mut e = child.stderr.take();
        let errs = std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(e) = e.as_mut() {
                let _ = e.read_to_end(&mut buf);
            }
            buf
        });
        let _ = o.read_to_end(&mut out);
        err = errs.join().unwrap_or_default();
    }
    if let Some(w) = writer {
        let _ = w.join();
    }
    let status = child
        .wait()
        .map_err(|e| format!("`git {}` failed: {e}", args.join(" ")))?;
    if !status.success() {
        let msg = String::from_utf8_lossy(&err);
        let msg = msg.trim();
        return Err(if msg.is_empty() {
            format!("`git {}` failed", args.join(" "))
        } else {
            format!("`git {}` failed: {msg}", args.join(" "))
        });
    }
    Ok(out)
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::to_string)
        .collect()
}

impl GitRegistry {
    /// A registry fetching from the URLs of `urls`; with `verbose`, each git
    /// command is written to standard error.
    pub fn new(urls: UrlMap, verbose: bool) -> GitRegistry {
        GitRegistry {
            urls,
            verbose,
            tmp: None,
            clones: HashMap::new(),
            infos: HashMap::new(),
            manifests: HashMap::new(),
            commits: HashMap::new(),
        }
    }

    fn git_in(&self, dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
        let mut all = vec!["-C", dir.to_str().unwrap_or(".")];
        all.extend_from_slice(args);
        git(self.verbose, &all, None)
    }

    /// The bare clone of the repository at `repo`, cloning it if needed.
    fn clone_repo(&mut self, path: &str, repo: &str) -> Result<PathBuf, PkgError> {
        if let Some(d) = self.clones.get(repo) {
            return Ok(d.clone());
        }
        if self.tmp.is_none() {
            self.tmp = Some(TempDir::new()?);
        }
        let tmp = &self.tmp.as_ref().expect("just made").0;
        let dir = tmp.join(format!("repo{}", self.clones.len()));
        let url = self.urls.url(repo);
        let dir_s = dir.to_string_lossy().into_owned();
        git(
            self.verbose,
            &["clone", "--bare", "--quiet", &url, &dir_s],
            None,
        )
        .map_err(|e| {
            // The temporary folder in the command is noise; git's message is not.
            let why = e.split_once("failed: ").map_or(e.as_str(), |(_, m)| m);
            PkgError::msg(format!(
                "cannot fetch package {path}: no git repository could be cloned from {url}\n  {why}"
            ))
        })?;
        self.clones.insert(repo.to_string(), dir.clone());
        Ok(dir)
    }

    fn info(&mut self, path: &str) -> Result<&PkgInfo, PkgError> {
        if !self.infos.contains_key(path) {
            let (repo, majors) = major_of_path(path);
            let gitdir = self.clone_repo(path, repo)?;
            let out = self
                .git_in(
                    &gitdir,
                    &[
                        "for-each-ref",
                        "--format=%(refname:strip=2)\t%(objectname)\t%(*objectname)",
                        "refs/tags",
                    ],
                )
                .map_err(PkgError::msg)?;
            let mut versions = BTreeMap::new();
            for line in lines(&out) {
                let mut parts = line.split('\t');
                let (Some(tag), Some(obj), peeled) = (parts.next(), parts.next(), parts.next())
                else {
                    continue;
                };
                let Some(v) = tag.strip_prefix('v').and_then(|t| Version::parse(t).ok()) else {
                    continue;
                };
                if !majors.contains(&v.major) {
                    continue;
                }
                let commit = match peeled {
                    Some(p) if !p.is_empty() => p,
                    _ => obj,
                };
                versions.insert(v, commit.to_string());
            }
            self.infos
                .insert(path.to_string(), PkgInfo { gitdir, versions });
        }
        Ok(&self.infos[path])
    }

    /// The released versions of `path`, oldest first.
    pub fn versions(&mut self, path: &str) -> Result<Vec<Version>, PkgError> {
        Ok(self.info(path)?.versions.keys().cloned().collect())
    }

    /// The commit version of `rev` (a commit id or `HEAD`) of `path`.
    fn commit_version(&mut self, path: &str, rev: &str) -> Result<(Version, String), PkgError> {
        let key = (path.to_string(), rev.to_string());
        if let Some(found) = self.commits.get(&key) {
            return Ok(found.clone());
        }
        let gitdir = self.info(path)?.gitdir.clone();
        let spec = format!("{rev}^{{commit}}");
        let commit = self
            .git_in(&gitdir, &["rev-parse", "--verify", "--quiet", &spec])
            .ok()
            .and_then(|o| lines(&o).into_iter().next())
            .ok_or_else(|| {
                PkgError::msg(if rev == "HEAD" {
                    format!("package {path} has no releases and no commits")
                } else {
                    format!("package {path} has no commit {rev}")
                })
            })?;
        if self.verbose {
            eprintln!("running: git show -s --format=%cd {commit} (dates in UTC)");
        }
        let stamp = Command::new("git")
            .args(["-C", gitdir.to_str().unwrap_or(".")])
            .args([
                "show",
                "-s",
                "--date=format-local:%Y%m%d%H%M%S",
                "--format=%cd",
            ])
            .arg(&commit)
            .env("TZ", "UTC")
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| lines(&o.stdout).into_iter().next())
            .ok_or_else(|| PkgError::msg(format!("cannot read the date of {path} {commit}")))?;
        let found = (Version::commit(&stamp, &commit), commit);
        self.commits.insert(key, found.clone());
        Ok(found)
    }

    /// The newest version of `path`: its greatest release, or, without releases,
    /// the commit version of its default branch's head.
    pub fn newest(&mut self, path: &str) -> Result<Version, PkgError> {
        match self.info(path)?.versions.keys().next_back() {
            Some(v) => Ok(v.clone()),
            None => Ok(self.commit_version(path, "HEAD")?.0),
        }
    }

    /// The commit of `path` at `version`.
    pub fn commit(&mut self, path: &str, version: &Version) -> Result<String, PkgError> {
        if let Some(id) = version.commit_id() {
            return Ok(self.commit_version(path, id)?.1);
        }
        let info = self.info(path)?;
        if let Some(c) = info.versions.get(version) {
            return Ok(c.clone());
        }
        let mut msg = format!("package {path} does not have a version {version}");
        if info.versions.is_empty() {
            let (_, majors) = major_of_path(path);
            let tags: Vec<String> = majors.iter().map(|m| format!("v{m}.*.*")).collect();
            msg.push_str(&format!(
                "\n  it has no release tags ({}); is the package path right?",
                tags.join(" or ")
            ));
        } else {
            let known: Vec<String> = info.versions.keys().map(|v| v.to_string()).collect();
            msg.push_str(&format!("\n  known versions: {}", known.join(", ")));
        }
        let (repo, majors) = major_of_path(path);
        if !majors.contains(&version.major) {
            let hint = if version.major >= 2 {
                format!("{repo}@{}", version.major)
            } else {
                repo.to_string()
            };
            msg.push_str(&format!(
                "\n  for major version {}, use the package path {hint}",
                version.major
            ));
        }
        Err(PkgError::msg(msg))
    }

    /// The manifest of `path` at `version` (its `futhark.pkg`).
    pub fn manifest(&mut self, path: &str, version: &Version) -> Result<Manifest, PkgError> {
        let commit = self.commit(path, version)?;
        if let Some(m) = self.manifests.get(&commit) {
            return Ok(m.clone());
        }
        let gitdir = self.info(path)?.gitdir.clone();
        let spec = format!("{commit}:futhark.pkg");
        let text = self.git_in(&gitdir, &["show", &spec]).map_err(|_| {
            PkgError::msg(format!(
                "package {path} {version} has no futhark.pkg (a package needs one, naming its package path)"
            ))
        })?;
        let m = Manifest::parse("futhark.pkg", &String::from_utf8_lossy(&text)).map_err(|e| {
            PkgError::msg(format!(
                "the futhark.pkg of {path} {version} is malformed: {e}"
            ))
        })?;
        self.manifests.insert(commit, m.clone());
        Ok(m)
    }

    /// The files of `path` at `version`: those under `lib/P/` of its repository,
    /// where P is the package path its own manifest declares, with their paths
    /// below that folder.
    pub fn files(&mut self, path: &str, version: &Version) -> Result<Vec<PkgFile>, PkgError> {
        let m = self.manifest(path, version)?;
        let Some(own) = m.package else {
            return Err(PkgError::msg(format!(
                "the futhark.pkg of {path} {version} does not name a package path"
            )));
        };
        let commit = self.commit(path, version)?;
        let gitdir = self.info(path)?.gitdir.clone();
        let dir = format!("lib/{own}/");
        let listing = self
            .git_in(&gitdir, &["ls-tree", "-r", "-z", &commit, "--", &dir])
            .map_err(PkgError::msg)?;
        let mut entries = Vec::new();
        for item in listing.split(|b| *b == 0).filter(|i| !i.is_empty()) {
            let item = String::from_utf8_lossy(item);
            let Some((meta, file)) = item.split_once('\t') else {
                continue;
            };
            let meta: Vec<&str> = meta.split(' ').collect();
            // Regular files only: symbolic links and submodules are not copied.
            if meta.len() == 3
                && meta[1] == "blob"
                && meta[0].starts_with("100")
                && let Some(rel) = file.strip_prefix(&dir)
            {
                entries.push((rel.to_string(), meta[2].to_string()));
            }
        }
        if entries.is_empty() {
            return Err(PkgError::msg(format!(
                "package {path} {version} does not contain a folder {dir} with files"
            )));
        }
        let request: String = entries.iter().map(|(_, sha)| format!("{sha}\n")).collect();
        let gd = gitdir.to_string_lossy().into_owned();
        let out = git(
            self.verbose,
            &["-C", &gd, "cat-file", "--batch"],
            Some(request.as_bytes()),
        )
        .map_err(PkgError::msg)?;
        let mut files = Vec::new();
        let mut rest = &out[..];
        for (rel, sha) in entries {
            let bad = || PkgError::msg(format!("git gave an unreadable answer for {path} {rel}"));
            let nl = rest.iter().position(|b| *b == b'\n').ok_or_else(bad)?;
            let header = String::from_utf8_lossy(&rest[..nl]).into_owned();
            let size: usize = header
                .strip_prefix(&format!("{sha} blob "))
                .and_then(|s| s.parse().ok())
                .ok_or_else(bad)?;
            let body = rest.get(nl + 1..nl + 1 + size).ok_or_else(bad)?;
            files.push((rel, body.to_vec()));
            rest = rest.get(nl + 2 + size..).unwrap_or(&[]);
        }
        Ok(files)
    }
}

impl Registry for GitRegistry {
    fn requirements(
        &mut self,
        path: &str,
        version: &Version,
        hash: Option<&str>,
    ) -> Result<Vec<Required>, PkgError> {
        let commit = self.commit(path, version)?;
        if let Some(h) = hash
            && h != commit
        {
            return Err(PkgError::msg(format!(
                "package {path} {version} is commit {commit}, but futhark.pkg expects {h}\n  \
                 (the tag was moved; `fut pkg add {path} {version}` records the new commit)"
            )));
        }
        Ok(self
            .manifest(path, version)?
            .requirements()
            .cloned()
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_map() {
        let m = UrlMap::parse(
            "github.com/diku-dk=/srv/dk; github.com/diku-dk/sorts=file:///x/sorts/\n\nexample.org/a=/a",
        )
        .expect("parses");
        assert_eq!(m.url("github.com/diku-dk/sorts"), "file:///x/sorts");
        assert_eq!(m.url("github.com/diku-dk/segmented"), "/srv/dk/segmented");
        assert_eq!(
            m.url("github.com/diku-dkx/y"),
            "https://github.com/diku-dkx/y"
        );
        assert_eq!(m.url("example.org/a"), "/a");
        assert_eq!(m.url("example.org/ab"), "https://example.org/ab");
        assert!(UrlMap::parse("nonsense").is_err());
        assert!(UrlMap::parse("a=").is_err());
        assert!(UrlMap::parse("").is_ok());
    }
}
