//! Test bundles (`fut test --write-bundle`, `--bundle`): the executables of a
//! test run written to a folder, and the cases run from it in another copy of
//! the tree without compiling anything, as on a GPU machine without Rust.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use support::text;

const PROG: &str = "\
-- ==
-- entry: f
-- input { [1, 2, 3] } output { 12i32 }
-- input { [1, -2] } error: Assertion is false
entry f (xs: []i32) : i32 =
  let s = i32.sum (map (*2) xs)
  in assert (s >= 0) s
-- ==
-- entry: g
-- input { 3i64 } output { [0i64, 1i64, 2i64] }
entry g (n: i64) : []i64 = iota n
";

/// Runs `fut args` in `dir` with `env` and a cache folder of its own.
fn fut(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fut"));
    c.args(args)
        .current_dir(dir)
        .env("FUT_CACHE_DIR", dir.join("cache"));
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("fut runs")
}

#[test]
fn a_bundle_runs_the_cases_without_compiling() {
    let here = tempfile::tempdir().expect("temp dir");
    let there = tempfile::tempdir().expect("temp dir");
    let bundle = here.path().join("bundle");
    let bundle = bundle.to_str().expect("utf-8 path");
    for d in [here.path(), there.path()] {
        std::fs::create_dir_all(d.join("t")).expect("mkdir");
        std::fs::write(d.join("t/p.fut"), PROG).expect("write");
    }
    let o = fut(
        here.path(),
        &[
            "test",
            "--backend=multicore",
            &format!("--write-bundle={bundle}"),
            "t",
        ],
        &[],
    );
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(
        text(&o.stdout).contains("1 of 1 programs compiled"),
        "{}",
        text(&o.stdout)
    );
    let table = std::fs::read_to_string(Path::new(bundle).join("bundle.json")).expect("table");
    assert!(table.contains("\"path\": \"t/p.fut\""), "{table}");
    // Another copy of the tree, where cargo cannot run: the cases pass, the
    // failing assertion with its location.
    let no_cargo = [("CARGO", "/nonexistent/cargo"), ("PATH", "/nonexistent")];
    let o = fut(
        there.path(),
        &[
            "test",
            "--backend=multicore",
            &format!("--bundle={bundle}"),
            "t",
        ],
        &no_cargo,
    );
    assert!(o.status.success(), "{}{}", text(&o.stdout), text(&o.stderr));
    assert!(
        text(&o.stdout).contains("1 passed, 0 failed"),
        "{}",
        text(&o.stdout)
    );
    // A wrong expected value fails: the cases really run.
    std::fs::write(there.path().join("t/p.fut"), PROG.replace("12i32", "13i32")).expect("write");
    let o = fut(
        there.path(),
        &[
            "test",
            "--backend=multicore",
            &format!("--bundle={bundle}"),
            "t",
        ],
        &no_cargo,
    );
    assert!(!o.status.success());
    assert!(
        text(&o.stdout).contains("FAILED t/p.fut"),
        "{}",
        text(&o.stdout)
    );
    // A program the bundle does not have, and a bundle of another backend.
    std::fs::write(there.path().join("t/q.fut"), PROG).expect("write");
    let o = fut(
        there.path(),
        &[
            "test",
            "--backend=multicore",
            &format!("--bundle={bundle}"),
            "t/q.fut",
        ],
        &no_cargo,
    );
    assert!(!o.status.success());
    assert!(
        text(&o.stdout).contains("not in the bundle"),
        "{}",
        text(&o.stdout)
    );
    let o = fut(
        there.path(),
        &[
            "test",
            "--backend=opencl",
            &format!("--bundle={bundle}"),
            "t/p.fut",
        ],
        &no_cargo,
    );
    assert!(!o.status.success());
    assert!(
        text(&o.stdout).contains("written for --backend=multicore, not --backend=opencl"),
        "{}",
        text(&o.stdout)
    );
    // No bundle there, and a backend that compiles nothing.
    let o = fut(
        there.path(),
        &["test", "--backend=multicore", "--bundle=nowhere", "t/p.fut"],
        &no_cargo,
    );
    assert!(!o.status.success());
    assert!(
        text(&o.stdout).contains("cannot read the bundle nowhere/bundle.json"),
        "{}",
        text(&o.stdout)
    );
    let o = fut(there.path(), &["test", "--bundle=nowhere", "t/p.fut"], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("need a compiled backend"),
        "{}",
        text(&o.stderr)
    );
}
