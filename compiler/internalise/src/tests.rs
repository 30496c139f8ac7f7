//! Small programs internalised, verified and run through the IR interpreter.

use std::collections::HashMap;

use syntax::FileId;
use values::Value;

use crate::{InputFile, collect_results, expand_args, internalise};

/// Checks `src` (without the prelude), internalises it and verifies the IR.
fn compile(src: &str) -> ir::Program {
    let (checked, diags) = semantic::testing::check_str(src, None);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let files = [InputFile {
        id: FileId(0),
        ast: &checked.ast,
        imports: HashMap::new(),
        prelude: None,
        source: Some(src.into()),
    }];
    let prog = internalise(&files, FileId(0), &checked.entry_points).unwrap();
    if let Err(e) = ir::verify::verify(&prog) {
        panic!("{e:?}\n{}", ir::print::print_program(&prog));
    }
    prog
}

fn run(prog: &ir::Program, entry: &str, args: Vec<Value>) -> Vec<Value> {
    let e = prog.entries.iter().find(|e| e.name == entry).unwrap();
    let name = &prog.functions[e.fun].name;
    let out = ir::interp::run_function(prog, name, expand_args(args)).unwrap();
    collect_results(e, out.values)
}

const LOOP_UPDATE: &str = "\
def step (x: i64) (y: i64) : i64 = x * 2 + y
entry main (n: i64) : [5]i64 =
  loop acc = [0, 0, 0, 0, 0] for i < 5i64 do
    let acc[i] = step i n
    in acc
";

const RECORDS: &str = "\
def mk (x: f64) (y: f64) = {x, y, sum = x + y}
entry main (a: f64) (b: f64) : (f64, f64) =
  let r = mk a b
  let (p, q) = if r.sum > 0 then (r.x, r.y) else (r.y, r.x)
  in (p * 2, q)
";

#[test]
fn loop_with_in_place_update_runs() {
    let prog = compile(LOOP_UPDATE);
    let out = run(&prog, "main", vec![Value::scalar(7i64)]);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].to_string(), "[7i64, 9i64, 11i64, 13i64, 15i64]");
}

#[test]
fn records_and_tuples_are_flattened() {
    let prog = compile(RECORDS);
    let out = run(
        &prog,
        "main",
        vec![Value::scalar(1.5f64), Value::scalar(-4.0f64)],
    );
    assert_eq!(
        out.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        vec!["-8.0f64", "1.5f64"]
    );
    insta::assert_snapshot!(ir::print::print_program(&prog));
}

#[test]
fn unsupported_constructs_are_reported_with_a_span() {
    let src =
        "type t = #a | #b\nentry main (x: i32) : i32 = match (#a : t) case #a -> x case #b -> 0\n";
    let (checked, _) = semantic::testing::check_str(src, None);
    let files = [InputFile {
        id: FileId(0),
        ast: &checked.ast,
        imports: HashMap::new(),
        prelude: None,
        source: None,
    }];
    let err = internalise(&files, FileId(0), &checked.entry_points).unwrap_err();
    assert!(
        err.message.contains("does not yet support sum types"),
        "{err}"
    );
    assert!(err.span.is_some());
}

fn run_err(prog: &ir::Program, entry: &str, args: Vec<Value>) -> String {
    let e = prog.entries.iter().find(|e| e.name == entry).unwrap();
    let name = &prog.functions[e.fun].name;
    ir::interp::run_function(prog, name, expand_args(args))
        .map(|_| ())
        .unwrap_err()
        .message
}

fn i32s(xs: &[i32]) -> Value {
    Value::vector(xs.to_vec())
}

const COERCE: &str = "\
def add [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = xs
entry main [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 =
  let zs = ys :> [n]i32
  in add xs zs
";

#[test]
fn size_coercions_are_checked_at_run_time() {
    let prog = compile(COERCE);
    let out = run(&prog, "main", vec![i32s(&[1, 2]), i32s(&[3, 4])]);
    assert_eq!(out[0].to_string(), "[1i32, 2i32]");
    let err = run_err(&prog, "main", vec![i32s(&[1, 2]), i32s(&[3, 4, 5])]);
    assert!(err.contains("Size mismatch"), "{err}");
    assert!(err.contains("`[n]i32`"), "{err}");
}
