//! End-to-end tests of the `fut` binary: each runs the built executable on small
//! programs written into a fresh temporary directory.

mod support;

use std::path::Path;
use std::process::{Command, Output};

/// Runs `fut` in `dir` with `args`, feeding `stdin`.
fn fut(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    support::fut_stdin(dir, args, stdin, false)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    dir
}

const PROG: &str = "\
entry main (xs: []i32) (y: i32) : i32 = reduce (+) 0 xs + y
entry pair (x: f32) = (x * 2, [x, x])
entry div (x: i32) (y: i32) : i32 = x / y
";

#[test]
fn check_accepts_a_good_program() {
    let d = dir_with(&[("good.fut", PROG)]);
    let o = fut(d.path(), &["check", "good.fut"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}

#[test]
fn check_reports_type_errors() {
    let d = dir_with(&[("bad.fut", "entry main (x: i32) : i32 = x + true\n")]);
    let o = fut(d.path(), &["--color=never", "check", "bad.fut"], b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(!err.contains('\u{1b}'), "no colour: {err}");
    insta::assert_snapshot!("check_type_error", err);
}

#[test]
fn check_reports_syntax_errors() {
    let d = dir_with(&[("syn.fut", "def f (x: i32) = let in x\n")]);
    let o = fut(d.path(), &["--color=never", "check", "syn.fut"], b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("P001"), "{err}");
    assert!(err.contains("syn.fut:1:"), "{err}");
}

#[test]
fn check_reports_import_errors() {
    let d = dir_with(&[
        (
            "a.fut",
            "import \"b\"\nimport \"missing\"\nentry main (x: i32) = x\n",
        ),
        ("b.fut", "import \"a\"\n"),
    ]);
    let o = fut(d.path(), &["--color=never", "check", "a.fut"], b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("I002"), "{err}");
    assert!(err.contains("I001"), "{err}");
    assert!(err.contains("missing"), "{err}");
}

#[test]
fn colour_always_colours_and_never_does_not() {
    let d = dir_with(&[("bad.fut", "entry main (x: i32) : i32 = x + true\n")]);
    let o = fut(d.path(), &["--color=always", "check", "bad.fut"], b"");
    assert!(stderr(&o).contains('\u{1b}'), "{}", stderr(&o));
    let o = fut(d.path(), &["check", "bad.fut"], b"");
    assert!(
        !stderr(&o).contains('\u{1b}'),
        "auto is off when not a terminal"
    );
}

#[test]
fn check_missing_file_is_an_error_not_a_panic() {
    let d = dir_with(&[]);
    let o = fut(d.path(), &["check", "nope.fut"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nope.fut"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn run_reads_typed_arguments_and_prints_results() {
    let d = dir_with(&[("p.fut", PROG)]);
    let o = fut(d.path(), &["run", "p.fut"], b"[1, 2, 3] 4");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "10i32\n");
    // An unsuffixed number reads at the parameter's type (f32 here).
    let o = fut(d.path(), &["run", "p.fut", "-e", "pair"], b"2.5");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "5.0f32\n[2.5f32, 2.5f32]\n");
}

#[test]
fn run_reads_binary_and_writes_binary() {
    let d = dir_with(&[("p.fut", PROG)]);
    let data = fut(
        d.path(),
        &["dataset", "-b", "-g", "[1,2,3]", "-g", "4"],
        b"",
    );
    assert_eq!(data.status.code(), Some(0), "{}", stderr(&data));
    let o = fut(d.path(), &["run", "p.fut", "-b"], &data.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout.first(), Some(&b'b'));
    let t = fut(d.path(), &["dataset", "--text"], &o.stdout);
    assert_eq!(stdout(&t), "10i32\n");
}

#[test]
fn run_rejects_malformed_input_naming_the_parameter() {
    let d = dir_with(&[("p.fut", PROG)]);
    let o = fut(d.path(), &["run", "p.fut"], b"[1, 2, 3 4");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with("Error: "), "{err}");
    assert!(err.contains("`main`"), "{err}");
    assert!(err.contains("parameter 1"), "{err}");
    let o = fut(d.path(), &["run", "p.fut"], b"[1.5] 2");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("parameter 1 of type []i32"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_rejects_the_wrong_number_of_arguments() {
    let d = dir_with(&[("p.fut", PROG)]);
    let o = fut(d.path(), &["run", "p.fut"], b"[1, 2]");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("takes 2 arguments ([]i32, i32)"), "{err}");
    let o = fut(d.path(), &["run", "p.fut"], b"[1] 2 3");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("more values"), "{}", stderr(&o));
}

#[test]
fn run_lists_entries_when_the_entry_is_missing() {
    let d = dir_with(&[("p.fut", PROG)]);
    let o = fut(d.path(), &["run", "p.fut", "-e", "nope"], b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("`nope` not found"), "{err}");
    assert!(err.contains("main, pair, div"), "{err}");
}

#[test]
fn run_reports_runtime_errors_with_location() {
    let d = dir_with(&[("p.fut", PROG)]);
    let o = fut(d.path(), &["run", "p.fut", "-e", "div"], b"1 0");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with("Error: "), "{err}");
    assert!(err.contains("Division by zero"), "{err}");
    assert!(err.contains("p.fut:3:"), "{err}");
    assert_eq!(stdout(&o), "");
}

const PASSING: &str = "\
-- Adds.
-- ==
-- input { [1, 2, 3] 4 } output { 10 }
-- input { empty([0]i32) 1 }
-- output { 1 }
-- random input { [10]i32 0 }
-- compiled input { [1] 1 } output { 999 }
entry main (xs: []i32) (y: i32) : i32 = reduce (+) 0 xs + y
";

const FAILING: &str = "\
-- ==
-- input { [1, 2, 3] } output { [2, 3, 5] }
entry main (xs: []i32) = map (+1) xs
";

const RUNTIME_ERROR: &str = "\
-- ==
-- input { 1 0 } error: Division by zero
-- input { 4 2 } output { 2 }
entry main (x: i32) (y: i32) : i32 = x / y
";

const COMPILE_ERROR: &str = "\
-- ==
-- error: T002
entry main (x: i32) : i32 = x + true
";

const FILES: &str = "\
-- ==
-- entry: twice
-- input @ data/in.txt output @ data/out.txt
entry twice (x: f64) = x * 2
";

#[test]
fn test_runs_a_fixture_folder() {
    let d = dir_with(&[
        ("t/pass.fut", PASSING),
        ("t/fail.fut", FAILING),
        ("t/rt.fut", RUNTIME_ERROR),
        ("t/sub/compile_error.fut", COMPILE_ERROR),
        ("t/sub/files.fut", FILES),
        ("t/sub/data/in.txt", "1.5\n"),
        ("t/sub/data/out.txt", "3.0\n"),
        ("t/lib.fut", "def helper (x: i32) = x\n"),
        (
            "t/disabled.fut",
            "-- ==\n-- tags { disable }\n-- input { 1 } output { 2 }\nentry main (x: i32) = x\n",
        ),
    ]);
    let o = fut(d.path(), &["test", "-i", "-j", "2", "t"], b"");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{}", stderr(&o));
    assert_eq!(out.lines().last(), Some("4 passed, 1 failed"), "{out}");
    assert!(out.contains("FAILED t/fail.fut"), "{out}");
    assert!(out.contains("entry main, case #0"), "{out}");
    assert!(out.contains("index [2]"), "{out}");
    assert!(out.contains("skipped: 1 program, 1 case"), "{out}");
    let actual = std::fs::read_to_string(d.path().join("t/fail.main.0.actual")).expect("actual");
    let expected =
        std::fs::read_to_string(d.path().join("t/fail.main.0.expected")).expect("expected");
    assert_eq!(actual, "[2i32, 3i32, 4i32]\n");
    assert_eq!(expected, "[2i32, 3i32, 5i32]\n");
}

#[test]
fn test_passes_when_everything_passes() {
    let d = dir_with(&[("pass.fut", PASSING), ("rt.fut", RUNTIME_ERROR)]);
    let o = fut(d.path(), &["test", "pass.fut", "rt.fut"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().last(), Some("2 passed, 0 failed"));
}

#[test]
fn test_reports_malformed_blocks_and_wrong_expectations() {
    let d = dir_with(&[
        (
            "bad_block.fut",
            "-- ==\n-- input { 1 }\n-- outptu { 2 }\nentry main (x: i32) = x\n",
        ),
        (
            "typechecks.fut",
            "-- ==\n-- error: T002\nentry main (x: i32) = x\n",
        ),
        (
            "no_error.fut",
            "-- ==\n-- input { 1 } error: Division\nentry main (x: i32) = x\n",
        ),
    ]);
    let o = fut(d.path(), &["test", "-j", "1", "."], b"");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out.lines().last(), Some("0 passed, 3 failed"), "{out}");
    assert!(out.contains("line 3"), "{out}");
    assert!(out.contains("type-checked"), "{out}");
    assert!(out.contains("succeeded"), "{out}");
}

#[test]
fn test_excludes_tags_and_selects_entries() {
    let d = dir_with(&[
        (
            "slow.fut",
            "-- ==\n-- tags { slow }\n-- input { 1 } output { 9 }\nentry main (x: i32) = x\n",
        ),
        (
            "two.fut",
            "-- ==\n-- entry: a b\n-- input { 1 } output { 1 }\nentry a (x: i32) = x\nentry b (x: i32) = x + 1\n",
        ),
    ]);
    let o = fut(
        d.path(),
        &["test", "--exclude", "slow", "-e", "a", "."],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().last(), Some("1 passed, 0 failed"));
}

#[test]
fn test_missing_path_is_an_error() {
    let d = dir_with(&[]);
    let o = fut(d.path(), &["test", "nowhere"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nowhere"), "{}", stderr(&o));
}

#[test]
fn dataset_generates_and_round_trips() {
    let d = dir_with(&[]);
    let a = fut(
        d.path(),
        &["dataset", "-g", "[4][3]f32", "-g", "i64", "-s", "7"],
        b"",
    );
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let text = stdout(&a);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.lines().next().unwrap_or("").ends_with("f32]]"),
        "{text}"
    );
    let b = fut(
        d.path(),
        &["dataset", "-b", "-g", "[4][3]f32", "-g", "i64", "-s", "7"],
        b"",
    );
    let back = fut(d.path(), &["dataset"], &b.stdout);
    assert_eq!(stdout(&back), text, "binary and text generation agree");
    let bin = fut(d.path(), &["dataset", "-b"], text.as_bytes());
    assert_eq!(bin.stdout, b.stdout);
}

#[test]
fn dataset_bounds_and_errors() {
    let d = dir_with(&[]);
    let o = fut(
        d.path(),
        &["dataset", "-g", "[50]i32", "--i32-bounds=-2:2"],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = stdout(&o);
    for x in v.trim().trim_matches(['[', ']']).split(", ") {
        let n: i32 = x.trim_end_matches("i32").parse().expect("an i32");
        assert!((-2..=2).contains(&n), "{n}");
    }
    let o = fut(d.path(), &["dataset", "-g", "[x]f32"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("[x]f32"), "{}", stderr(&o));
    let o = fut(d.path(), &["dataset"], b"[1, 2");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: invalid input"),
        "{}",
        stderr(&o)
    );
}

const MAP_THEN_SUM: &str = r"fun main(n: i64, xs: [n]f64) -> (f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      in (y)
    })
  let s: f64 = screma(n, ys)
    reduce(\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\(z: f64) -> (f64) {
      in (z)
    })
  in (s)
}
";

#[test]
fn dev_lists_passes_and_runs_them_on_an_ir_file() {
    let dir = dir_with(&[("dot.fut_ir", MAP_THEN_SUM)]);
    let o = fut(dir.path(), &["dev", "--list-passes"], b"");
    assert!(o.status.success());
    for name in ["simplify", "inline", "fusion"] {
        assert!(stdout(&o).contains(name), "{}", stdout(&o));
    }
    let o = fut(dir.path(), &["dev", "--passes=fusion", "dot.fut_ir"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("screma(").count(), 1, "{}", stdout(&o));
}

#[test]
fn dev_rejects_unknown_passes_and_source_files() {
    let dir = dir_with(&[("dot.fut_ir", MAP_THEN_SUM), ("p.fut", "def main = 1i32\n")]);
    let o = fut(dir.path(), &["dev", "--passes=nosuch", "dot.fut_ir"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("unknown pass `nosuch`"),
        "{}",
        stderr(&o)
    );
    let o = fut(dir.path(), &["dev", "--print=nosuch", "p.fut"], b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("`nosuch`"), "{err}");
    for name in ["internalise", "inline", "simplify", "fusion"] {
        assert!(err.contains(name), "{err}");
    }
}

const SOURCE: &str = "\
def sq (x: f64) = x * x
entry main (xs: []f64) : f64 = reduce (+) 0 (map sq xs)
";

#[test]
fn dev_prints_a_source_program_after_a_pass() {
    let dir = dir_with(&[("p.fut", SOURCE)]);
    let o = fut(dir.path(), &["dev", "--print=internalise", "p.fut"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    let raw = stdout(&o);
    assert!(raw.contains("entry \"main\""), "{raw}");
    assert!(raw.contains("fun sq("), "{raw}");
    assert_eq!(raw.matches("screma(").count(), 2, "{raw}");
    // Inlining removes `sq`; fusion then merges the map into the reduction.
    let o = fut(dir.path(), &["dev", "--print=inline", "p.fut"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("fun sq("), "{}", stdout(&o));
    assert_eq!(stdout(&o).matches("screma(").count(), 2, "{}", stdout(&o));
    let o = fut(dir.path(), &["dev", "--print=fusion", "p.fut"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("screma(").count(), 1, "{}", stdout(&o));
}

#[test]
fn dev_runs_exactly_the_given_passes_on_a_source_program() {
    let dir = dir_with(&[("p.fut", SOURCE)]);
    // Fusion alone merges the map into the reduction; without inlining, the
    // call to `sq` stays inside the fused lambda.
    let o = fut(dir.path(), &["dev", "--passes=fusion", "p.fut"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("fun sq("), "{out}");
    assert_eq!(out.matches("screma(").count(), 1, "{out}");
    // No passes: the internalised program.
    let o = fut(dir.path(), &["dev", "p.fut"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches("screma(").count(), 2, "{}", stdout(&o));
    let o = fut(
        dir.path(),
        &["dev", "--print=fusion", "--passes=inline", "p.fut"],
        b"",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn dev_renders_source_errors_like_check() {
    let dir = dir_with(&[("bad.fut", "entry main (x: i32) : i32 = x + true\n")]);
    let checked = fut(dir.path(), &["--color=never", "check", "bad.fut"], b"");
    let o = fut(
        dir.path(),
        &["--color=never", "dev", "--print=simplify", "bad.fut"],
        b"",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), stderr(&checked));
    let o = fut(dir.path(), &["dev", "--print=inline", "missing.fut"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.fut"), "{}", stderr(&o));
}

#[test]
fn test_runs_nothing_for_a_block_without_cases() {
    // The top-level constant fails when evaluated; a block with only a `structure`
    // expectation has no case to run, so the program is not evaluated at all.
    let prog = "-- ==\n-- structure { Screma 1 }\n\n\
                def bad : i32 = [1i32][3]\n\
                def main (xs: []i32) = map (+1) xs\n";
    let dir = dir_with(&[("s.fut", prog)]);
    let o = fut(dir.path(), &["test", "-i", "s.fut"], b"");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("1 passed, 0 failed"), "{}", stdout(&o));
}

#[test]
fn fut_validate_0_runs_ir_cases_without_the_reference_interpreter() {
    // The unused constant fails when the reference interpreter evaluates the
    // program's top-level definitions; the IR never evaluates it.
    let prog = "-- ==\n-- input { [1,2,3] } output { [2,3,4] }\n\n\
                def bad : i32 = [1i32][3]\n\
                entry main (xs: []i32) = map (+1) xs\n";
    let dir = dir_with(&[("v.fut", prog)]);
    let run = |validate: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_fut"));
        cmd.args(["test", "--backend=ir", "v.fut"])
            .current_dir(dir.path())
            .env_remove("FUT_VALIDATE");
        if let Some(v) = validate {
            cmd.env("FUT_VALIDATE", v);
        }
        cmd.output().expect("fut runs")
    };
    let o = run(None);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("top-level definitions"),
        "{}",
        stdout(&o)
    );
    let o = run(Some("1"));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let o = run(Some("0"));
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("1 passed, 0 failed"), "{}", stdout(&o));
    // Wrong results are still caught against the expected output.
    let wrong = prog.replace("[2,3,4]", "[2,3,5]");
    std::fs::write(dir.path().join("v.fut"), wrong).expect("write");
    let o = run(Some("0"));
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("result differs"), "{}", stdout(&o));
}
