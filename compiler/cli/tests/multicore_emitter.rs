//! End-to-end tests of the multicore backend's emitter (Rust from the
//! imperative IR): corpus programs pass their test blocks, and an
//! executable computes, fails with the source location of a failed
//! check, and profiles its parallel loops.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use support::{run_with_input, text};

/// Runs `fut args` in `dir`.
fn fut_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fut"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("fut runs")
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn corpus_programs_pass() {
    let progs = [
        "tests/multicore/flatten_nest_map.fut",
        "tests/multicore/scan_reduce_parallel.fut",
        "tests/multicore/hist_parallel.fut",
        "tests/multicore/flatten_scatter.fut",
        "tests/multicore/acc_parallel.fut",
    ];
    let mut args = vec!["test", "--backend=multicore"];
    args.extend(progs);
    let o = fut_in(repo(), &args);
    let out = format!("{}{}", text(&o.stdout), text(&o.stderr));
    assert!(o.status.success(), "{out}");
    assert!(out.contains(" 0 failed"), "{out}");
    assert!(!out.contains("FAILED"), "{out}");
}

const PROG: &str = "\
entry main (xs: []f64) (i: i64) : (f64, []f64, f64) =
  let s = reduce (+) 0 (map (\\x -> x * x) xs)
  in (s, scan (+) 0 (map (\\x -> x * s) xs), xs[i])
";

#[test]
fn an_executable_computes_fails_with_locations_and_profiles() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("prog.fut"), PROG).expect("write");
    let o = fut_in(dir.path(), &["multicore", "prog.fut", "-o", "prog"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let exe = dir.path().join("prog");
    let o = run_with_input(&exe, &["-P"], b"[1.0, 2.0, 3.0] 1i64");
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(
        text(&o.stdout),
        "14.0f64\n[14.0f64, 42.0f64, 84.0f64]\n2.0f64\n"
    );
    // The parallel loops are timed under their operation and location.
    for kind in ["segred ", "segscan "] {
        assert!(
            err.lines()
                .any(|l| l.starts_with(kind) && l.contains("prog.fut:")),
            "{err}"
        );
    }
    // A failed bounds check stops the program with its message and location.
    let o = run_with_input(&exe, &[], b"[1.0, 2.0, 3.0] 3i64");
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("Index [3] out of bounds"), "{err}");
    assert!(err.contains("prog.fut:3:"), "{err}");
}

#[test]
fn target_cpus_that_rustc_does_not_know_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("prog.fut"), PROG).expect("write");
    for bad in ["pentium-9000", "x86 64", ""] {
        let o = fut_in(
            dir.path(),
            &["multicore", "prog.fut", "-o", "prog", "--target-cpu", bad],
        );
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("rustc --print target-cpus"), "{err}");
        assert!(!dir.path().join("prog").exists());
    }
    let o = Command::new(env!("CARGO_BIN_EXE_fut"))
        .args(["multicore", "prog.fut", "-o", "prog"])
        .env("FUT_TARGET_CPU", "pentium-9000")
        .current_dir(dir.path())
        .output()
        .expect("fut runs");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("knows no CPU `pentium-9000`"));
    let o = fut_in(
        dir.path(),
        &[
            "multicore",
            "prog.fut",
            "--library",
            "--target-cpu",
            "x86-64",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--target-cpu applies to executables"));
}
