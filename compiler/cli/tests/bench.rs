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

/// Script inputs: records made by entry points and passed on, a consumed
/// record, a wrong expected output, and a script whose own call is slow.
const SCRIPT: &str = "\
-- ==
-- entry: norm2
-- script input { mk 3.0 4.0 } output { 25.0 }
-- script input { shift (mk 1.0 2.0) 1.0 } output { 13.0 }
-- script input { let p = mk 1.0 2.0 in mk (norm2 p) 0.0 } output { 25.0 }
-- script input { mk 1.0 1.0 } output { 3.0 }
-- \"slow script\" script input { slow 300000i64 } output { 0.0 }

-- ==
-- entry: zero_first
-- script input { cloud 4i64 } output { [0.0, 1.0, 2.0, 3.0] }

type pt = {x: f64, y: f64}
type cloud = {xs: []f64}

entry mk (x: f64) (y: f64) : pt = {x, y}
entry shift (p: pt) (d: f64) : pt = {x = p.x + d, y = p.y + d}
entry norm2 (p: pt) : f64 = p.x * p.x + p.y * p.y
entry slow (n: i64) : pt =
  let s = loop acc = 0.0 for _i < n do acc + 1.0
  in {x = s - f64.i64 n, y = 0.0}
entry cloud (n: i64) : cloud = {xs = map f64.i64 (iota n)}
entry zero_first (c: *cloud) : []f64 = c.xs with [0] = 0.0
";

#[test]
fn script_inputs_are_evaluated_once_and_the_entry_timed() {
    let d = dir_with(&[("script.fut", SCRIPT)]);
    for backend in ["interp", "ir", "multicore"] {
        let o = bench(
            d.path(),
            &[
                "script.fut",
                &format!("--backend={backend}"),
                "--pass-option=--num-threads=1",
            ],
        );
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{out}\n{}", text(&o.stderr));
        let mean = |name: &str| -> f64 {
            let line = out
                .lines()
                .find(|l| l.trim_start().starts_with(name))
                .unwrap_or_else(|| panic!("{backend}: no line for {name} in\n{out}"));
            let (before, _) = line
                .split_once("μs (95% CI: [")
                .unwrap_or_else(|| panic!("{backend}: {line}"));
            let number = before.rsplit(' ').next().unwrap_or_default();
            number
                .parse()
                .unwrap_or_else(|_| panic!("{backend}: {line}"))
        };
        for name in [
            "#0 (\"mk 3.0 4.0\"):",
            "#1 (\"shift (mk 1.0 2.0) 1.0\"):",
            "#2 (\"let p = mk 1.0 2.0 in mk (norm2 p) 0.0\"):",
            "#5 (\"cloud 4i64\"):",
        ] {
            mean(name);
        }
        // The results of the timed call are checked.
        assert!(
            out.contains("#3 (\"mk 1.0 1.0\"): FAILED\n    result differs"),
            "{backend}: {out}"
        );
        // `slow 300000` takes over 100 ms on the interpreters; it runs once,
        // outside the timed calls of `norm2`, which take microseconds.
        let slow = mean("slow script:");
        assert!(slow < 20_000.0, "{backend}: {out}");
    }
}
