//! End-to-end tests of `fut dev --fuzz`: the per-program time limit (a worker
//! that stalls is killed and reported, and the run goes on) and its option.

use std::process::Command;
use std::time::{Duration, Instant};

fn fuzz(dir: &std::path::Path, args: &[&str], stall: Option<&str>) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fut"));
    cmd.current_dir(dir)
        .args(["dev", "--fuzz"])
        .args(args)
        .args(["--fuzz-dir", "work", "--regress-dir", "regress"]);
    cmd.env_remove("FUT_FUZZ_STALL");
    if let Some(s) = stall {
        cmd.env("FUT_FUZZ_STALL", s);
    }
    cmd.output().expect("fut runs")
}

#[test]
fn a_stalling_program_is_reported_as_timed_out_and_the_run_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let started = Instant::now();
    // Every generated program has an `entry main`: each stalls on the interpreter.
    let out = fuzz(
        dir.path(),
        &[
            "3",
            "--seed",
            "5",
            "--backends",
            "ir",
            "--time-limit",
            "0.5",
        ],
        Some("entry main"),
    );
    let elapsed = started.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(elapsed < Duration::from_secs(120), "took {elapsed:?}");
    for (i, seed) in [(0, 5), (1, 6), (2, 7)] {
        let line = format!("program {i} (seed {seed}, interp backend): timed out");
        assert!(
            stdout.contains(&line),
            "no `{line}` in:\n{stdout}\n{stderr}"
        );
    }
    assert!(stdout.contains("interp: 3 ran, 0 agreed"), "{stdout}");
    assert!(stdout.contains("ir: 0 ran, 0 agreed"), "{stdout}");
    // Nothing is written as a reproducer for a timeout.
    assert!(!dir.path().join("regress").exists());
}

#[test]
fn without_a_stall_the_same_programs_agree() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = fuzz(
        dir.path(),
        &["3", "--seed", "5", "--backends", "ir", "--time-limit", "60"],
        None,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("interp: 3 ran, 3 agreed"), "{stdout}");
    assert!(stdout.contains("ir: 3 ran, 3 agreed"), "{stdout}");
}

#[test]
fn a_time_limit_that_is_not_positive_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    for bad in ["0", "-1", "nan"] {
        let out = fuzz(dir.path(), &["1", "--time-limit", bad], None);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert!(stderr.contains("--time-limit"), "{bad}: {stderr}");
    }
}
