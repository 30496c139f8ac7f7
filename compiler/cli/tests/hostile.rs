//! Hostile input: programs and values built to break the compiler (deep
//! nesting, long literals, many declarations, sizes beyond memory). Each must
//! give a clear message and a non-zero exit, or the right result, never a
//! panic, an abort or a stack overflow. The inputs are generated large enough
//! that a quadratic algorithm or an unbounded recursion would show; no test
//! measures time.

mod support;

use std::path::Path;
use std::process::Output;

/// Runs `fut` in `dir` with `args`, feeding `stdin`.
fn fut(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    support::fut_stdin(dir, args, stdin, true)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory holding `name` with `src`.
fn with_file(name: &str, src: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(name), src).expect("write");
    dir
}

/// `fut check` of `src` fails with P003, "nesting too deep".
fn check_too_deep(src: &str) {
    let d = with_file("deep.fut", src);
    let o = fut(d.path(), &["check", "deep.fut"], b"");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("P003") && err.contains("nesting too deep"),
        "{err}"
    );
}

#[test]
fn a_long_sum_is_too_deep() {
    let terms = vec!["1"; 50_000].join("+");
    check_too_deep(&format!("def main : i32 = {terms}\n"));
}

#[test]
fn many_unary_minuses_are_too_deep() {
    check_too_deep(&format!("def main : i32 = {}1\n", "- ".repeat(100_000)));
}

#[test]
fn deeply_nested_brackets_are_too_deep() {
    let n = 100_000;
    check_too_deep(&format!("def main = {}1{}\n", "[".repeat(n), "]".repeat(n)));
    check_too_deep(&format!(
        "def main : i32 = {}1{}\n",
        "(".repeat(n),
        ")".repeat(n)
    ));
}

#[test]
fn a_long_let_chain_is_too_deep() {
    let lets: String = (0..10_000).map(|i| format!("  let x{i} = {i}\n")).collect();
    check_too_deep(&format!("def main : i32 =\n{lets}  in x0\n"));
}

#[test]
fn nesting_just_below_the_limit_runs_on_the_interpreter_and_the_ir() {
    // Each construct nested close to the documented limit of 2000 levels.
    let n = 1900;
    let sum = vec!["x"; n].join(" + ");
    let lets: String = (1..n)
        .map(|i| format!("  let x{i} = x{} + 1\n", i - 1))
        .collect();
    // `x` is 1: no branch is taken.
    let ifs: String = (0..n)
        .map(|i| format!("if x == {} then 0 else ", i + 2))
        .collect();
    let parens = format!("{}x + 1{}", "(".repeat(n), ")".repeat(n));
    let src = format!(
        "-- ==\n-- entry: sum lets ifs parens\n-- input {{ 1 }} output {{ {n} }}\n\n\
         entry sum (x: i32) : i32 = {sum}\n\
         entry lets (x0: i32) : i32 =\n{lets}  in x{}\n\
         entry ifs (x: i32) : i32 = {ifs}{n}\n\
         entry parens (x: i32) : i32 = {parens} + {}\n",
        n - 1,
        n - 2
    );
    let d = with_file("deep.fut", &src);
    for backend in [&["test", "-i"][..], &["test", "--backend=ir"][..]] {
        let mut args = backend.to_vec();
        args.push("deep.fut");
        let o = fut(d.path(), &args, b"");
        let out = text(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
        assert!(out.contains("1 passed, 0 failed"), "{out}");
    }
}

#[test]
fn a_long_array_literal_and_many_definitions_check() {
    let elems: Vec<String> = (0..50_000).map(|i| i.to_string()).collect();
    let defs: String = (0..40_000)
        .map(|i| format!("def f{i} : i32 = {i}\n"))
        .collect();
    let src = format!("{defs}entry main : []i32 = [{}]\n", elems.join(","));
    let d = with_file("long.fut", &src);
    let o = fut(d.path(), &["check", "long.fut"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

#[test]
fn an_empty_array_with_too_many_rows_is_an_error() {
    let d = with_file("len.fut", "entry main (x: [][]f64) : i64 = length x\n");
    let o = fut(
        d.path(),
        &["run", "len.fut"],
        b"empty([9223372036854775807][0]f64)",
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot hold the empty array"), "{err}");
    let o = fut(d.path(), &["run", "len.fut"], b"empty([1000][0]f64)");
    assert_eq!(text(&o.stdout).trim(), "1000i64");
}

#[test]
fn random_values_larger_than_memory_are_an_error() {
    let d = tempfile::tempdir().expect("temp dir");
    let o = fut(d.path(), &["dataset", "-g", "[1099511627776]f64"], b"");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot allocate the 8796093022208 bytes"),
        "{err}"
    );
    let src = "-- ==\n-- random input { [1099511627776]f64 } output { 0i64 }\n\n\
               entry main (x: []f64) : i64 = length x\n";
    let d = with_file("big.fut", src);
    let o = fut(d.path(), &["test", "-i", "big.fut"], b"");
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("cannot allocate"), "{out}");
}

#[test]
fn dataset_takes_negative_values() {
    let d = tempfile::tempdir().expect("temp dir");
    let o = fut(d.path(), &["dataset", "-g", "-129i16"], b"");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).trim(), "-129i16");
}

#[test]
fn a_directory_is_not_a_program() {
    let d = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(d.path().join("prog")).expect("mkdir");
    let o = fut(d.path(), &["check", "prog"], b"");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("is a directory"), "{err}");
}
