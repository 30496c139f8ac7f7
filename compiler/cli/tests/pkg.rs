//! End-to-end tests of `fut pkg`: local git repositories with tagged versions
//! stand in for hosted packages, through `FUT_PKG_URL_MAP`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `git args` in `dir`, isolated from the user's git configuration.
fn git(dir: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.org")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.org")
        .stdin(Stdio::null())
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// A git repository under construction.
struct Repo(PathBuf);

impl Repo {
    fn new(dir: PathBuf) -> Repo {
        fs::create_dir_all(&dir).expect("mkdir");
        git(&dir, &["init", "-q", "-b", "main"]);
        Repo(dir)
    }

    /// Replaces the work tree's files (other than .git) by `files` and commits.
    fn commit(&self, files: &[(&str, &str)]) -> &Repo {
        for e in fs::read_dir(&self.0).expect("readable") {
            let p = e.expect("entry").path();
            if p.file_name().is_some_and(|n| n != ".git") {
                if p.is_dir() {
                    fs::remove_dir_all(&p).expect("rm");
                } else {
                    fs::remove_file(&p).expect("rm");
                }
            }
        }
        for (name, text) in files {
            let p = self.0.join(name);
            fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            fs::write(p, text).expect("write");
        }
        git(&self.0, &["add", "-A"]);
        git(&self.0, &["commit", "-q", "--allow-empty", "-m", "c"]);
        self
    }

    fn tag(&self, tag: &str) -> &Repo {
        git(&self.0, &["tag", tag]);
        self
    }

    fn rev(&self, r: &str) -> String {
        git(&self.0, &["rev-parse", &format!("{r}^{{commit}}")])
    }
}

/// A project folder and the repositories of `example.org/fut/*`.
struct World {
    _tmp: tempfile::TempDir,
    repos: PathBuf,
    project: PathBuf,
}

const SORT_V01: &str = "def sort_id (xs: []i32) : []i32 = xs\n";
const SORT_V02: &str =
    "def sort_id (xs: []i32) : []i32 = xs\ndef sorted_len (xs: []i32) : i64 = length xs\n";

fn manifest(pkg: &str, reqs: &[(&str, &str, &str)]) -> String {
    let mut s = format!("package {pkg}\n\nrequire {{\n");
    for (p, v, h) in reqs {
        s.push_str(&format!("  {p} {v} #{h}\n"));
    }
    s.push_str("}\n");
    s
}

impl World {
    fn new() -> World {
        let tmp = tempfile::tempdir().expect("temp dir");
        let repos = tmp.path().join("repos");
        let project = tmp.path().join("project");
        fs::create_dir_all(&project).expect("mkdir");
        let sorts = Repo::new(repos.join("sorts"));
        let sp = "example.org/fut/sorts";
        let sorts_lib = "lib/example.org/fut/sorts/sort.fut";
        sorts
            .commit(&[("futhark.pkg", &manifest(sp, &[])), (sorts_lib, SORT_V01)])
            .tag("v0.1.0");
        sorts
            .commit(&[
                ("futhark.pkg", &manifest(sp, &[])),
                (sorts_lib, SORT_V02),
                (
                    "lib/example.org/fut/sorts/extra/more.fut",
                    "def more = 1i32\n",
                ),
                ("README.md", "not copied\n"),
                ("tests/t.fut", "-- not copied\n"),
            ])
            .tag("v0.2.0");
        sorts
            .commit(&[("futhark.pkg", &manifest(sp, &[])), (sorts_lib, SORT_V02)])
            .tag("v1.0.0");
        // An annotated tag, and a major version 2 with its own package path.
        git(&sorts.0, &["tag", "-a", "-m", "one", "v1.1.0"]);
        sorts
            .commit(&[
                ("futhark.pkg", &manifest("example.org/fut/sorts@2", &[])),
                ("lib/example.org/fut/sorts@2/sort.fut", "def sort2 = 2i32\n"),
            ])
            .tag("v2.0.0")
            .tag("not-a-version");
        let s01 = sorts.rev("v0.1.0");
        let s02 = sorts.rev("v0.2.0");
        let stats = Repo::new(repos.join("stats"));
        let tp = "example.org/fut/stats";
        let stats_src = "import \"../sorts/sort\"\n\
                         def total (xs: []i32) : i32 = reduce (+) 0 (sort_id xs)\n";
        stats
            .commit(&[
                ("futhark.pkg", &manifest(tp, &[(sp, "0.1.0", &s01)])),
                ("lib/example.org/fut/stats/stats.fut", stats_src),
            ])
            .tag("v0.1.0");
        stats
            .commit(&[
                ("futhark.pkg", &manifest(tp, &[(sp, "0.2.0", &s02)])),
                ("lib/example.org/fut/stats/stats.fut", stats_src),
            ])
            .tag("v0.2.0");
        // Requires a version of sorts that does not exist.
        let broken = Repo::new(repos.join("broken"));
        broken
            .commit(&[
                (
                    "futhark.pkg",
                    "package example.org/fut/broken\nrequire {\n  example.org/fut/sorts 0.7.0\n}\n",
                ),
                ("lib/example.org/fut/broken/b.fut", "def b = 0i32\n"),
            ])
            .tag("v0.1.0");
        // No releases: only commits.
        let nover = Repo::new(repos.join("nover"));
        let np = "package example.org/fut/nover\n";
        nover.commit(&[
            ("futhark.pkg", np),
            ("lib/example.org/fut/nover/n.fut", "def n = 1i32\n"),
        ]);
        nover.commit(&[
            ("futhark.pkg", np),
            ("lib/example.org/fut/nover/n.fut", "def n = 2i32\n"),
        ]);
        World {
            _tmp: tmp,
            repos,
            project,
        }
    }

    fn fut(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_fut"))
            .args(args)
            .current_dir(&self.project)
            .env(
                "FUT_PKG_URL_MAP",
                format!("example.org/fut={}", self.repos.display()),
            )
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("NO_COLOR")
            .stdin(Stdio::null())
            .output()
            .expect("fut runs")
    }

    /// Runs `fut pkg args` and expects success; returns standard output.
    fn ok(&self, args: &[&str]) -> String {
        let mut all = vec!["pkg"];
        all.extend_from_slice(args);
        let o = self.fut(&all);
        assert_eq!(
            o.status.code(),
            Some(0),
            "fut pkg {args:?}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Runs `fut pkg args` and expects exit status 1; returns standard error.
    fn fails(&self, args: &[&str]) -> String {
        let mut all = vec!["pkg"];
        all.extend_from_slice(args);
        let o = self.fut(&all);
        assert_eq!(
            o.status.code(),
            Some(1),
            "fut pkg {args:?} should fail\nstdout: {}",
            String::from_utf8_lossy(&o.stdout)
        );
        String::from_utf8_lossy(&o.stderr).into_owned()
    }

    fn manifest(&self) -> String {
        fs::read_to_string(self.project.join("futhark.pkg")).expect("futhark.pkg")
    }

    fn write_manifest(&self, text: &str) {
        fs::write(self.project.join("futhark.pkg"), text).expect("write");
    }

    fn rev(&self, repo: &str, r: &str) -> String {
        Repo(self.repos.join(repo)).rev(r)
    }

    /// Every file under `lib/`, as `path=contents`, sorted.
    fn lib(&self) -> Vec<String> {
        let root = self.project.join("lib");
        let mut out = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).expect("readable") {
                let p = e.expect("entry").path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let rel = p.strip_prefix(&root).expect("below");
                    let text = fs::read_to_string(&p).expect("text");
                    out.push(format!("{}={}", rel.display(), text.trim_end()));
                }
            }
        }
        out.sort();
        out
    }
}

#[test]
fn init_add_sync_upgrade_remove() {
    let w = World::new();
    w.ok(&["init", "example.org/me/app"]);
    assert_eq!(w.manifest(), "package example.org/me/app\n\nrequire {\n}\n");
    assert!(w.project.join("lib/example.org/me/app").is_dir());
    fs::write(
        w.project.join("lib/example.org/me/app/app.fut"),
        "def app = 0i32\n",
    )
    .expect("write");

    let out = w.ok(&["add", "example.org/fut/stats", "0.1.0"]);
    assert!(out.contains("Added new required package example.org/fut/stats 0.1.0."));
    let stats01 = w.rev("stats", "v0.1.0");
    assert_eq!(
        w.manifest(),
        format!(
            "package example.org/me/app\n\nrequire {{\n  example.org/fut/stats 0.1.0 #{stats01}\n}}\n"
        )
    );
    // Adding does not fetch.
    assert!(!w.project.join("lib/example.org/fut").exists());

    let out = w.ok(&["sync"]);
    assert_eq!(
        out,
        "example.org/fut/sorts 0.1.0\nexample.org/fut/stats 0.1.0\n"
    );
    let after_first = w.lib();
    assert_eq!(
        after_first,
        [
            format!("example.org/fut/sorts/sort.fut={}", SORT_V01.trim_end()),
            "example.org/fut/stats/stats.fut=import \"../sorts/sort\"\ndef total (xs: []i32) : i32 = reduce (+) 0 (sort_id xs)".to_string(),
            "example.org/me/app/app.fut=def app = 0i32".to_string(),
        ]
    );
    // Idempotent, and stray files in lib/ are removed.
    fs::write(w.project.join("lib/stray.fut"), "x").expect("write");
    w.ok(&["sync"]);
    assert_eq!(w.lib(), after_first);
    assert!(!w.project.join("lib~old").exists() && !w.project.join("lib~new").exists());

    // Without a version: the newest release of major 0 or 1 (v1.1.0 is an
    // annotated tag; v2.0.0 belongs to example.org/fut/sorts@2).
    let out = w.ok(&["add", "example.org/fut/sorts"]);
    assert!(out.contains("Added new required package example.org/fut/sorts 1.1.0."));
    assert!(w.manifest().contains(&format!(
        "example.org/fut/sorts 1.1.0 #{}",
        w.rev("sorts", "v1.1.0")
    )));
    // Minimal version selection: stats wants 0.1.0, the project 1.1.0.
    assert_eq!(
        w.ok(&["sync"]),
        "example.org/fut/sorts 1.1.0\nexample.org/fut/stats 0.1.0\n"
    );
    // Replacing a requirement by a lower one: MVS then picks 0.2.0, whose extra
    // folder is copied, and whose README and tests are not.
    let out = w.ok(&["add", "example.org/fut/sorts", "0.2.0"]);
    assert!(
        out.contains("Replaced example.org/fut/sorts 1.1.0 => 0.2.0."),
        "{out}"
    );
    w.ok(&["sync"]);
    let lib = w.lib();
    assert!(lib.contains(&"example.org/fut/sorts/extra/more.fut=def more = 1i32".to_string()));
    assert!(
        !lib.iter()
            .any(|f| f.contains("README") || f.contains("tests"))
    );

    // Major version 2 is its own package, installed beside major 1.
    let out = w.ok(&["add", "example.org/fut/sorts@2"]);
    assert!(out.contains("example.org/fut/sorts@2 2.0.0"), "{out}");
    w.ok(&["sync"]);
    assert!(
        w.lib()
            .contains(&"example.org/fut/sorts@2/sort.fut=def sort2 = 2i32".to_string())
    );
    assert!(
        w.project
            .join("lib/example.org/fut/sorts/sort.fut")
            .is_file()
    );

    let out = w.ok(&["upgrade"]);
    assert!(
        out.contains("Upgraded example.org/fut/stats 0.1.0 => 0.2.0."),
        "{out}"
    );
    assert!(
        out.contains("Upgraded example.org/fut/sorts 0.2.0 => 1.1.0."),
        "{out}"
    );
    assert!(!out.contains("sorts@2"), "{out}");
    assert_eq!(w.ok(&["upgrade"]), "Nothing to upgrade.\n");

    let out = w.ok(&["check"]);
    assert_eq!(
        out,
        "Dependencies chosen:\n\
         example.org/fut/sorts => 1.1.0\n\
         example.org/fut/sorts@2 => 2.0.0\n\
         example.org/fut/stats => 0.2.0\n"
    );

    let out = w.ok(&["remove", "example.org/fut/stats"]);
    assert_eq!(out, "Removed example.org/fut/stats 0.2.0.\n");
    assert!(!w.manifest().contains("stats"));
    // Removing does not touch lib/; sync does.
    assert!(w.project.join("lib/example.org/fut/stats").is_dir());
    w.ok(&["sync"]);
    assert!(!w.project.join("lib/example.org/fut/stats").exists());
    assert!(w.project.join("lib/example.org/me/app/app.fut").is_file());
    let e = w.fails(&["remove", "example.org/fut/stats"]);
    assert_eq!(
        e,
        "error: no package example.org/fut/stats is required in futhark.pkg\n"
    );
    let e = w.fails(&["init", "example.org/me/other"]);
    assert_eq!(e, "error: futhark.pkg already exists\n");
}

#[test]
fn synced_packages_type_check() {
    let w = World::new();
    w.ok(&["add", "example.org/fut/stats", "0.2.0"]);
    w.ok(&["sync"]);
    fs::write(
        w.project.join("main.fut"),
        "import \"lib/example.org/fut/stats/stats\"\n\
         entry main (xs: []i32) : i32 = total xs\n",
    )
    .expect("write");
    let o = w.fut(&["check", "main.fut"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Before sync, the import is missing.
    fs::remove_dir_all(w.project.join("lib")).expect("rm");
    let o = w.fut(&["check", "main.fut"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("I001"));
}

#[test]
fn commit_versions_for_packages_without_releases() {
    let w = World::new();
    let head = w.rev("nover", "HEAD");
    let out = w.ok(&["add", "example.org/fut/nover"]);
    assert!(out.contains("Added new required package example.org/fut/nover 0.0.0-"));
    let m = w.manifest();
    let line = m
        .lines()
        .find(|l| l.contains("nover"))
        .expect("required")
        .trim()
        .to_string();
    // `0.0.0-YYYYMMDDhhmmss+COMMIT`, with no separate hash.
    let (_, version) = line.split_once(' ').expect("path and version");
    assert!(version.ends_with(&format!("+{head}")), "{line}");
    assert_eq!(
        version.len(),
        "0.0.0-".len() + 14 + 1 + head.len(),
        "{line}"
    );
    assert_eq!(w.ok(&["versions", "example.org/fut/nover"]), "");
    w.ok(&["sync"]);
    assert_eq!(w.lib(), ["example.org/fut/nover/n.fut=def n = 2i32"]);
    // An older commit, named by its id.
    let first = w.rev("nover", "HEAD~1");
    w.ok(&[
        "add",
        "example.org/fut/nover",
        &format!("0.0.0-20200101000000+{first}"),
    ]);
    w.ok(&["sync"]);
    assert_eq!(w.lib(), ["example.org/fut/nover/n.fut=def n = 1i32"]);
}

#[test]
fn missing_packages_and_versions() {
    let w = World::new();
    let e = w.fails(&["add", "example.org/fut/nothere"]);
    assert!(
        e.starts_with("error: cannot fetch package example.org/fut/nothere: no git repository could be cloned from"),
        "{e}"
    );
    let e = w.fails(&["add", "example.org/fut/sorts", "0.9.0"]);
    assert!(
        e.starts_with(
            "error: package example.org/fut/sorts does not have a version 0.9.0\n  known versions: 0.1.0, 0.2.0, 1.0.0, 1.1.0\n"
        ),
        "{e}"
    );
    let e = w.fails(&["add", "example.org/fut/sorts", "2.0.0"]);
    assert!(
        e.contains("for major version 2, use the package path example.org/fut/sorts@2"),
        "{e}"
    );
    let e = w.fails(&["add", "example.org/fut/sorts@2", "1.0.0"]);
    assert!(
        e.contains("for major version 1, use the package path example.org/fut/sorts\n"),
        "{e}"
    );
    // A dependency that cannot be satisfied: nothing is written.
    let e = w.fails(&["add", "example.org/fut/broken"]);
    assert!(
        e.contains("example.org/fut/sorts does not have a version 0.7.0"),
        "{e}"
    );
    assert!(
        e.contains("(example.org/fut/sorts 0.7.0 is required by example.org/fut/broken 0.1.0)"),
        "{e}"
    );
    assert!(!w.project.join("futhark.pkg").exists());
    let e = w.fails(&["add", "example.org/fut/sorts", "v1.0.0"]);
    assert!(e.contains("without the `v` of its tag"), "{e}");
    let e = w.fails(&["add", "../evil", "1.0.0"]);
    assert!(e.contains("not a valid package path"), "{e}");
    let e = w.fails(&["versions", "example.org/fut/nothere"]);
    assert!(e.contains("cannot fetch package"), "{e}");
    assert_eq!(w.ok(&["versions", "example.org/fut/sorts@2"]), "2.0.0\n");
}

#[test]
fn moved_tags_conflict_with_recorded_commits() {
    let w = World::new();
    w.ok(&["add", "example.org/fut/sorts", "1.0.0"]);
    w.ok(&["check"]);
    let old = w.rev("sorts", "v1.0.0");
    // Someone moves the v1.0.0 tag to another commit.
    let repo = w.repos.join("sorts");
    git(&repo, &["tag", "-f", "v1.0.0", "v0.2.0"]);
    let e = w.fails(&["check"]);
    let new = w.rev("sorts", "v0.2.0");
    assert!(
        e.starts_with(&format!(
            "error: package example.org/fut/sorts 1.0.0 is commit {new}, but futhark.pkg expects {old}\n"
        )),
        "{e}"
    );
    w.fails(&["sync"]);
    assert!(!w.project.join("lib").exists());
    // A dependency's recorded commit conflicts too: stats 0.1.0 pins sorts 0.1.0.
    git(&repo, &["tag", "-f", "v0.1.0", "v0.2.0"]);
    w.ok(&["remove", "example.org/fut/sorts"]);
    let e = w.fails(&["add", "example.org/fut/stats", "0.1.0"]);
    assert!(
        e.contains("is required by example.org/fut/stats 0.1.0"),
        "{e}"
    );
}

#[test]
fn own_package_check() {
    let w = World::new();
    w.ok(&["init", "example.org/me/lib"]);
    let e = w.fails(&["check"]);
    assert!(e.contains("contains no .fut files"), "{e}");
    fs::write(
        w.project.join("lib/example.org/me/lib/a.fut"),
        "def a = 1i32\n",
    )
    .expect("write");
    assert_eq!(w.ok(&["check"]), "Dependencies chosen:\n");
}

#[test]
fn malformed_manifests_are_reported_with_positions() {
    let w = World::new();
    let bad = "package example.org/me/app\n\nrequire {\n  example.org/fut/sorts 1.0\n}\n";
    w.write_manifest(bad);
    let mut report = Vec::new();
    for cmd in [
        &["sync"][..],
        &["check"],
        &["add", "example.org/fut/stats"],
        &["upgrade"],
    ] {
        report.push(format!("fut pkg {}\n{}", cmd.join(" "), w.fails(cmd)));
    }
    // Nothing was changed.
    assert_eq!(w.manifest(), bad);
    w.write_manifest(
        "package example.org/me/app\nrequire {\n  example.org/fut/sorts 1.0.0 #abc xyz\n",
    );
    report.push(format!("fut pkg sync\n{}", w.fails(&["sync"])));
    w.write_manifest("require {\n  example.org/fut/sorts 1.0.0\n");
    report.push(format!("fut pkg sync\n{}", w.fails(&["sync"])));
    insta::assert_snapshot!(report.join("\n"));
}

#[test]
fn fmt_normalises_layout_and_keeps_comments() {
    let w = World::new();
    w.write_manifest("-- mine\npackage   example.org/me/app\nrequire {   -- deps\nexample.org/fut/sorts   1.0.0\n}");
    w.ok(&["fmt"]);
    assert_eq!(
        w.manifest(),
        "-- mine\npackage example.org/me/app\n\nrequire {\n  -- deps\n  example.org/fut/sorts 1.0.0\n}\n"
    );
}

#[test]
fn help_explains_the_subcommands() {
    let w = World::new();
    let o = w.fut(&["pkg", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    for word in [
        "init",
        "add",
        "remove",
        "sync",
        "upgrade",
        "check",
        "FUT_PKG_URL_MAP",
    ] {
        assert!(help.contains(word), "{word} missing from:\n{help}");
    }
    let o = w.fut(&["pkg", "add", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(
        help.contains("newest release") && help.contains("@2"),
        "{help}"
    );
    let o = w.fut(&["pkg", "frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn renamed_packages_install_under_the_required_path() {
    let w = World::new();
    // An old release still declares the package's former path.
    Repo::new(w.repos.join("moved"))
        .commit(&[
            ("futhark.pkg", "package example.org/old/moved\n"),
            ("lib/example.org/old/moved/m.fut", "def m = 3i32\n"),
        ])
        .tag("v1.0.0");
    w.ok(&["add", "example.org/fut/moved"]);
    w.ok(&["sync"]);
    assert_eq!(w.lib(), ["example.org/fut/moved/m.fut=def m = 3i32"]);
    // A release without a package path, or without files, cannot be installed.
    Repo::new(w.repos.join("nopath"))
        .commit(&[
            ("futhark.pkg", "require {\n}\n"),
            ("lib/x/y.fut", "def y = 1i32\n"),
        ])
        .tag("v0.1.0");
    w.ok(&["add", "example.org/fut/nopath"]);
    let e = w.fails(&["sync"]);
    assert_eq!(
        e,
        "error: the futhark.pkg of example.org/fut/nopath 0.1.0 does not name a package path\n"
    );
    assert_eq!(w.lib(), ["example.org/fut/moved/m.fut=def m = 3i32"]);
}
