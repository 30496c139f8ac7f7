//! End-to-end tests of `fut bench` on small programs in a temporary directory.

mod support;

use std::path::Path;
use std::process::Output;

use support::{fut, text};

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, body) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, body).expect("write");
    }
    dir
}

const SUM: &str = "\
-- ==
-- entry: main
-- input { [1, 2, 3] } output { 6 }
-- nobench input { [1] } output { 1 }
-- input @ data.in output { 10 }
entry main (xs: []i32) : i32 = i32.sum xs

-- ==
-- entry: twice
-- input { 4 } output { 8 }
-- slow input { 5 } output { 10 }
entry twice (x: i64) : i64 = x * 2
";

/// Quick settings: a few runs, no convergence phase.
const QUICK: &[&str] = &["-r", "3", "--no-convergence-phase"];

fn bench(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["bench"];
    args.extend_from_slice(QUICK);
    args.extend_from_slice(extra);
    fut(dir, &args)
}

#[test]
fn reports_mean_and_interval_and_writes_json() {
    let d = dir_with(&[("sum.fut", SUM), ("data.in", "[1, 2, 3, 4]")]);
    let o = bench(d.path(), &["sum.fut", "--json", "out.json"]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert!(out.contains("sum.fut:\n"), "{out}");
    assert!(out.contains("sum.fut:twice:\n"), "{out}");
    for name in [
        "#0 (\"[1, 2, 3]\"):",
        "data.in:",
        "#3 (\"4\"):",
        "#4 (\"5\"):",
    ] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no line for {name} in\n{out}"));
        assert!(line.contains("μs (95% CI: ["), "{line}");
    }
    assert!(!out.contains("[1]"), "nobench case ran:\n{out}");
    let json = std::fs::read_to_string(d.path().join("out.json")).unwrap();
    for key in [
        "\"sum.fut\":{\"datasets\":{",
        "\"sum.fut:twice\":{\"datasets\":{",
        "\"data.in\":{\"bytes\":{},\"runtimes\":[",
    ] {
        assert!(json.contains(key), "{key} not in {json}");
    }
    // Three counted runs per dataset.
    let runs = json.matches("\"runtimes\":[").count();
    assert_eq!(runs, 4, "{json}");
}

#[test]
fn entry_exclude_and_backend_select_datasets() {
    let d = dir_with(&[("sum.fut", SUM), ("data.in", "[1, 2, 3, 4]")]);
    let o = bench(
        d.path(),
        &[
            "sum.fut",
            "-e",
            "twice",
            "--exclude",
            "slow",
            "--backend=ir",
        ],
    );
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert!(out.contains("#3 (\"4\"):"), "{out}");
    assert!(!out.contains("#4 (\"5\")"), "{out}");
    assert!(!out.contains("data.in"), "{out}");
}

#[test]
fn wrong_results_and_errors_fail_the_run() {
    let prog = "\
-- ==
-- input { 3 } output { 7 }
-- input { 3 } output { 6 }
-- input { -1 } output { 0 }
entry main (n: i64) : i64 = assert (n >= 0) (n * 2)
";
    let d = dir_with(&[("p.fut", prog)]);
    let o = bench(d.path(), &["p.fut", "--json", "r.json"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("#0 (\"3\"): FAILED"), "{out}");
    assert!(out.contains("result differs"), "{out}");
    assert!(out.contains("#2 (\"-1\"): FAILED"), "{out}");
    assert!(
        out.contains("p.fut:5"),
        "the error names the location:\n{out}"
    );
    assert!(text(&o.stderr).contains("2 datasets failed"));
    let json = std::fs::read_to_string(d.path().join("r.json")).unwrap();
    assert!(
        json.contains("\"#0 (\\\"3\\\")\":\"result differs"),
        "{json}"
    );
    assert!(json.contains("\"#1 (\\\"3\\\")\":{\"bytes\""), "{json}");
}

#[test]
fn time_limit_and_bad_programs() {
    let d = dir_with(&[
        ("sum.fut", SUM),
        ("data.in", "[1]"),
        (
            "bad.fut",
            "-- ==\n-- input { 1 }\n-- input { 2 }\nentry main (x: i32) : i32 = x + true\n",
        ),
        ("none.fut", "entry main (x: i32) : i32 = x\n"),
    ]);
    let o = bench(d.path(), &["sum.fut", "--timeout", "0", "-e", "twice"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("time limit of 0 s"), "{out}");
    let o = bench(d.path(), &["bad.fut", "none.fut"]);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(out.matches("does not type-check").count(), 1, "{out}");
    assert!(out.contains("#1 (\"2\"): FAILED (as above)"), "{out}");
    assert!(
        !out.contains("none.fut"),
        "a program without blocks is no benchmark:\n{out}"
    );
    let o = fut(d.path(), &["bench", "-r", "0", "sum.fut"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn multicore_backend_runs_the_executable_as_a_server() {
    let prog = "\
-- ==
-- input { [1.0, 2.0, 3.0] } output { 14.0 }
-- input { [1.0, 2.0] } output { 7.0 }
entry main (xs: []f64) : f64 = f64.sum (map (\\x -> x * x) xs)

-- ==
-- entry: bump
-- input { [1, 2, 3] } output { [2, 3, 4] }
entry bump (xs: *[]i64) : *[]i64 = map (+1) xs
";
    let d = dir_with(&[("mc.fut", prog)]);
    let o = bench(
        d.path(),
        &[
            "mc.fut",
            "--backend=multicore",
            "--pass-option=--num-threads=1",
            "--json",
            "mc.json",
        ],
    );
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}\n{}", text(&o.stderr));
    // The unique argument is restored before every run, so each run bumps the
    // original values and the results match.
    for name in ["#0 (\"[1.0, 2.0, 3.0]\"):", "#2 (\"[1, 2, 3]\"):"] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no line for {name} in\n{out}"));
        assert!(line.contains("μs (95% CI: ["), "{line}");
    }
    assert!(
        out.contains("#1 (\"[1.0, 2.0]\"): FAILED\n    result differs"),
        "{out}"
    );
    assert!(
        d.path().join("mc").exists(),
        "the executable is built next to the program"
    );
    let json = std::fs::read_to_string(d.path().join("mc.json")).unwrap();
    assert!(
        json.contains("\"mc.fut:bump\":{\"datasets\":{\"#2"),
        "{json}"
    );
}
