//! Small programs parsed with the real parser and run on the interpreter.

mod common;

use common::run_main;

fn ok(src: &str, args: &[&str]) -> String {
    match run_main(src, args) {
        Ok(s) => s,
        Err(e) => panic!("program failed: {e}\n{src}"),
    }
}

fn err(src: &str, args: &[&str]) -> String {
    match run_main(src, args) {
        Ok(s) => panic!("program succeeded with {s}\n{src}"),
        Err(e) => e,
    }
}

#[test]
fn prelude_loads_and_arithmetic_runs() {
    assert_eq!(ok("def main (x: i32) (y: i32) = x * y + 1", &["6", "7"]), "43i32");
}

#[test]
fn soacs() {
    let src = "def main (xs: []i32) = (map (+1) xs, reduce (+) 0 xs, scan (+) 0 xs)";
    assert_eq!(ok(src, &["[1, 2, 3]"]), "[2i32, 3i32, 4i32] 6i32 [1i32, 3i32, 6i32]");
    let src = "def main (xs: []i32) = filter (\\x -> x % 2 == 0) xs";
    assert_eq!(ok(src, &["[1, 2, 3, 4]"]), "[2i32, 4i32]");
}
