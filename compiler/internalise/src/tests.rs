//! Small programs internalised, verified and run through the IR interpreter.

use std::collections::HashMap;

use syntax::FileId;
use values::Value;

use crate::{InputFile, collect_results, expand_args, internalise};

/// The SOACs the tests use, declared as in the prelude.
const SOACS: &str = "\
def jvp2 'a 'b (f: a -> b) (x: a) (dx: a): (b, b) = __intrinsic \"jvp2\"
def vjp2 'a 'b (f: a -> b) (x: a) (dy: b): (b, a) = __intrinsic \"vjp2\"
def map 'a [n] 'x (f: a -> x) (xs: [n]a): *[n]x = __intrinsic \"map\"
def reduce [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a): a = __intrinsic \"reduce\"
def iota (n: i64): *[n]i64 = __intrinsic \"iota\"
";

/// Checks `src` (without the prelude, with [`SOACS`] in front),
/// internalises it and verifies the IR.
pub(crate) fn compile(src: &str) -> ir::Program {
    let src = format!("{SOACS}{src}");
    let src = src.as_str();
    let (ast, mut diags) = syntax::parse_file(FileId(0), src);
    let opts = semantic::CheckOptions {
        allow_intrinsics: true,
    };
    let checked = semantic::check_file(&ast, &HashMap::new(), None, opts);
    diags.extend(checked.diagnostics.iter().cloned());
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

pub(crate) fn run(prog: &ir::Program, entry: &str, args: Vec<Value>) -> Vec<Value> {
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
    let src = "entry main (x: i32) : i32 = let y: i32 = ??? in x + y\n";
    let (checked, _) = semantic::testing::check_str(src, None);
    let files = [InputFile {
        id: FileId(0),
        ast: &checked.ast,
        imports: HashMap::new(),
        prelude: None,
        source: None,
    }];
    let err = internalise(&files, FileId(0), &checked.entry_points).unwrap_err();
    assert!(err.message.contains("does not yet support holes"), "{err}");
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

const SUMS: &str = "\
type shape = #none | #square i32 | #rect i32 i32
type option 'a = #some a | #none

def area (s: shape) : i32 =
  match s
  case #none -> 0
  case #square a -> a * a
  case #rect w h -> w * h

def first_above [n] (t: i32) (xs: [n]i32) : option i64 =
  loop (r: option i64) = #none for i < n do
    match r
    case #none -> if xs[i] > t then #some i else #none
    case #some j -> #some j

entry main (k: i32) (xs: []i32) : (i32, i64, bool, bool) =
  let s = if k == 0 then #none else if k == 1 then #rect 2 5 else #square k
  let i = match first_above k xs
          case #some i -> i
          case #none -> -1
  let c: shape = #square 3
  in (area s, i, c == #square 3, s == #none)

entry signs (xs: []i32) : []i32 =
  let ss = map (\\x -> if x >= 0 then #pos x else #neg x) xs
  in map (\\s -> match s case #pos v -> v case #neg v -> 10 * v) ss
";

#[test]
fn sum_types_are_tags_and_payloads() {
    let prog = compile(SUMS);
    let show = |vs: Vec<Value>| vs.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    let out = run(
        &prog,
        "main",
        vec![Value::scalar(1i32), i32s(&[0, 1, 5, 7])],
    );
    assert_eq!(show(out), vec!["10i32", "2i64", "true", "false"]);
    let out = run(&prog, "main", vec![Value::scalar(0i32), i32s(&[-1])]);
    assert_eq!(show(out), vec!["0i32", "-1i64", "true", "true"]);
    let out = run(&prog, "main", vec![Value::scalar(3i32), i32s(&[4])]);
    assert_eq!(show(out), vec!["9i32", "0i64", "true", "false"]);
    let out = run(&prog, "signs", vec![i32s(&[3, -2, 0])]);
    assert_eq!(show(out), vec!["[3i32, -20i32, 0i32]"]);
}

const INNER_SIZE: &str = "\
def row (m: i64) (i: i64) = map (+ i) (iota m)
def add [k] (a: [k]i64) (b: [k]i64) = map (\\j -> a[j] + b[j]) (iota k)
entry main (n: i64) (m: i64) : ([][]i64, []i64) =
  let rows = map (row m) (iota n)
  in (rows, reduce add (row m 0) rows)
entry rows (n: i64) (m: i64) : [][]i64 = map (row m) (iota n)
def row1 (m: i64) (i: i64) = map (+ i) (iota (m + 1))
entry rows1 (n: i64) (m: i64) : [][]i64 = map (row1 m) (iota n)
";

#[test]
fn map_results_sized_inside_the_function() {
    let prog = compile(INNER_SIZE);
    let text = ir::print::print_program(&prog);
    let out = run(
        &prog,
        "main",
        vec![Value::scalar(3i64), Value::scalar(2i64)],
    );
    let show: Vec<String> = out.iter().map(|v| v.to_string()).collect();
    assert_eq!(
        show,
        vec!["[[0i64, 1i64], [1i64, 2i64], [2i64, 3i64]]", "[3i64, 7i64]"],
        "{text}"
    );
    // The rows of `row m` have the size `m` of its parameter, which the
    // call knows: an empty map has rows of that size, as in the
    // interpreter.
    let out = run(
        &prog,
        "rows",
        vec![Value::scalar(0i64), Value::scalar(2i64)],
    );
    assert_eq!(out[0].shape(), &[0, 2]);
    // An empty map cannot compute a size computed inside the function (and
    // not declared): it is taken to be 0.
    let out = run(
        &prog,
        "rows1",
        vec![Value::scalar(0i64), Value::scalar(2i64)],
    );
    assert_eq!(out[0].shape(), &[0, 0]);
    let out = run(
        &prog,
        "rows1",
        vec![Value::scalar(2i64), Value::scalar(2i64)],
    );
    assert_eq!(
        out[0].to_string(),
        "[[0i64, 1i64, 2i64], [1i64, 2i64, 3i64]]"
    );
}

const ITEM4: &str = "\
def fact (n: i64) : i64 = if n <= 1 then 1 else n * fact (n - 1)
def tail_or_empty [n] (xs: [n]i64) : []i64 = if n <= 1 then [] else xs[1:]
def len [n] 't (_: [n]t) : i64 = n
entry main (n: i64) : (i64, i64, i64) =
  (fact n, len (tail_or_empty (iota n)), len (0..<n))
def ldexp (x: f64) (k: i32) : f64 = __intrinsic \"f64.ldexp\"
entry scale (x: f64) (k: i32) : f64 = ldexp x k
";

#[test]
fn recursion_empty_literals_ranges_and_ldexp() {
    let prog = compile(ITEM4);
    let show = |vs: Vec<Value>| vs.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    let out = run(&prog, "main", vec![Value::scalar(5i64)]);
    assert_eq!(show(out), vec!["120i64", "4i64", "5i64"]);
    let out = run(&prog, "main", vec![Value::scalar(1i64)]);
    assert_eq!(show(out), vec!["1i64", "0i64", "1i64"]);
    let err = run_err(&prog, "main", vec![Value::scalar(-1i64)]);
    assert!(err.contains("Invalid range"), "{err}");
    let out = run(
        &prog,
        "scale",
        vec![Value::scalar(1.5f64), Value::scalar(4i32)],
    );
    assert_eq!(show(out), vec!["24.0f64"]);
    let out = run(
        &prog,
        "scale",
        vec![Value::scalar(1.0f64), Value::scalar(-1074i32)],
    );
    assert_eq!(show(out), vec![format!("{:?}f64", f64::from_bits(1))]);
}

const AD: &str = "\
entry fwd (x: f64) : (f64, f64) = jvp2 (\\y -> y * y) x 1
entry rev (x: f64) (y: f64) : (f64, f64) = (vjp2 (\\(a, b) -> a * b) (x, y) 1).1
";

#[test]
fn ad_intrinsics_become_jvp_and_vjp_nodes() {
    let prog = compile(AD);
    let counts = opt::structure::count_constructs(&prog);
    assert_eq!(counts.get("Jvp"), Some(&1));
    assert_eq!(counts.get("Vjp"), Some(&1));
    let err = run_err(&prog, "fwd", vec![Value::scalar(3.0f64)]);
    assert!(err.contains("not expanded"), "{err}");
}

const DOT: &str = "\
entry dot [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  reduce (+) 0 (map (\\i -> xs[i] * ys[i]) (iota n))
";

#[test]
fn dot_product() {
    let prog = compile(DOT);
    let xs = Value::vector(vec![1.0f64, 2.0, 3.0]);
    let ys = Value::vector(vec![4.0f64, 5.0, 6.0]);
    let out = run(&prog, "dot", vec![xs, ys]);
    assert_eq!(out[0].to_string(), "32.0f64");
    insta::assert_snapshot!(ir::print::print_program(&prog));
}

const FUNCTOR: &str = "\
module type num = { type t val zero: t val add: t -> t -> t }
module sum (N: num) = { def total [n] (xs: [n]N.t) : N.t = reduce N.add N.zero xs }
module i32num = { type t = i32 def zero: i32 = 0 def add (a: i32) (b: i32) : i32 = a + b }
module s = sum i32num
entry main (xs: []i32) : i32 = s.total xs
";

#[test]
fn functor_application() {
    let prog = compile(FUNCTOR);
    let out = run(&prog, "main", vec![i32s(&[1, 2, 3, 4])]);
    assert_eq!(out[0].to_string(), "10i32");
    insta::assert_snapshot!(ir::print::print_program(&prog));
}

/// Runs the standard pipeline, verified after every pass.
pub(crate) fn optimise(prog: ir::Program) -> ir::Program {
    let config = ir::pass::PipelineConfig { validate: true };
    ir::run_pipeline(&opt::pipelines::standard(), prog, config).unwrap()
}

const LOOP_INITS: &str = "\
def step [n] (ps: [n]f64, vs: [n]f64) : ([n]f64, [n]f64) =
  (map (\\i -> ps[i] + vs[i]) (iota n), vs)
def sum [n] (xs: [n]f64) : f64 = reduce (+) 0 xs
def first2 [n] (xs: [n]f64) : [2]f64 = xs[0:2]
entry reused [n] (xs: [n]f64) (ys: [n]f64) : f64 =
  let p0 = map (* 2) xs
  let (a, b) = loop st = (p0, ys) for _i < 2 do step st
  in sum a + sum b - sum p0
entry sliced [n] (ps: [n]f64) : [2]f64 =
  loop cs = first2 ps for _i < 2 do map (+ 1) cs
entry updated [n] (ps: [n]f64) : ([2]f64, f64) =
  let cs = loop cs = map (+ 1) (first2 ps) for i < 1 do let cs[i] = 0 in cs
  in (cs, sum ps)
";

#[test]
fn loop_parameters_are_unique_only_when_consumed() {
    let prog = optimise(compile(LOOP_INITS));
    let show = |vs: Vec<Value>| vs.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    let xs = Value::vector(vec![1.0f64, 2.0]);
    let ys = Value::vector(vec![3.0f64, 4.0]);
    assert_eq!(show(run(&prog, "reused", vec![xs, ys])), ["21.0f64"]);
    let ps = Value::vector(vec![1.0f64, 2.0, 3.0]);
    assert_eq!(
        show(run(&prog, "sliced", vec![ps.clone()])),
        ["[3.0f64, 4.0f64]"]
    );
    assert_eq!(
        show(run(&prog, "updated", vec![ps])),
        ["[0.0f64, 3.0f64]", "6.0f64"]
    );
}

const AD_INNER_SIZE: &str = "\
entry fwd (m: i64) (x: f64) : ([]f64, []f64) =
  jvp2 (\\y -> map (\\_ -> y * y) (iota (m + 1))) x 1
entry rev (m: i64) (x: f64) : f64 =
  (vjp2 (\\y -> map (\\_ -> y * y) (iota (m + 1))) x (map (\\_ -> 1) (iota (m + 1)))).1
";

#[test]
fn ad_of_functions_whose_result_size_is_computed_inside() {
    let prog = optimise(compile(AD_INNER_SIZE));
    let counts = opt::structure::count_constructs(&prog);
    assert_eq!(counts.get("Jvp"), Some(&1));
    assert_eq!(counts.get("Vjp"), Some(&1));
    // The size is an extra `i64` result of the differentiated lambda; the
    // vjp's adjoint for it is zero.
    let text = ir::print::print_program(&prog);
    let jvp = text.lines().find(|l| l.contains("= jvp")).unwrap_or("");
    assert!(jvp.contains(": i64"), "{text}");
    assert!(text.contains("}, (x_1), (map, 0i64))"), "{text}");
    let err = run_err(
        &prog,
        "fwd",
        vec![Value::scalar(2i64), Value::scalar(3.0f64)],
    );
    assert!(err.contains("not expanded"), "{err}");
}

const POINT_FREE: &str = "\
def scale (k: i32) (xs: []i32) = map (* k) xs
module m = { def add (x: i32) (y: i32) : i32 = x + y }
entry scale_all = scale 3
entry plus = m.add
";

#[test]
fn point_free_entry_points_apply_their_body() {
    let prog = optimise(compile(POINT_FREE));
    let out = run(&prog, "scale_all", vec![i32s(&[1, 2, 3])]);
    assert_eq!(out[0].to_string(), "[3i32, 6i32, 9i32]");
    let out = run(
        &prog,
        "plus",
        vec![Value::scalar(2i32), Value::scalar(5i32)],
    );
    assert_eq!(out[0].to_string(), "7i32");
}

const CLOSURE_RESULTS: &str = "\
def scale (k: i32) : i32 -> i32 = \\x -> k * x
def shift k = \\(x: i32) -> x + k
entry main (x: i32) : (i32, i32, i32) =
  let r = {f = scale 3, g = \\(y: i32) -> y + 1}
  in (r.f x, r.g x, shift x 10)
";

#[test]
fn functions_returning_closures_are_inlined() {
    let prog = optimise(compile(CLOSURE_RESULTS));
    let out = run(&prog, "main", vec![Value::scalar(4i32)]);
    let show: Vec<String> = out.iter().map(|v| v.to_string()).collect();
    assert_eq!(show, ["12i32", "5i32", "14i32"]);
}

const HOLES: &str = "\
entry main (x: i32) : i32 = if x > 1000 then ??? else x
entry pair (x: i32) : ([]i32, i32) = if x < 0 then ??? else (map (+ 1) [x], x)
";

#[test]
fn holes_in_branches_fail_when_reached() {
    let prog = optimise(compile(HOLES));
    let out = run(&prog, "main", vec![Value::scalar(3i32)]);
    assert_eq!(out[0].to_string(), "3i32");
    let err = run_err(&prog, "main", vec![Value::scalar(2000i32)]);
    assert!(err.contains("Reached a hole"), "{err}");
    let e = prog.entries.iter().find(|e| e.name == "main").unwrap();
    let name = &prog.functions[e.fun].name;
    let span = ir::interp::run_function(&prog, name, vec![Value::scalar(2000i32)])
        .map(|_| ())
        .unwrap_err()
        .span;
    let start = HOLES.find("???").unwrap() + SOACS.len();
    assert_eq!((span.start as usize, span.end as usize), (start, start + 3));
    let out = run(&prog, "pair", vec![Value::scalar(3i32)]);
    let show: Vec<String> = out.iter().map(|v| v.to_string()).collect();
    assert_eq!(show, ["[4i32]", "3i32"]);
    let err = run_err(&prog, "pair", vec![Value::scalar(-3i32)]);
    assert!(err.contains("Reached a hole"), "{err}");
}

const ABBREV_SIZES: &str = "\
type pair 'a 'b = (a, b)
type vec [n] 'a = [n]a
module m = { type grid [r][c] = [r][c]i32 }
def mk [n] (xs: vec [n] i32) : pair (vec [n] i32) i64 = (xs, n)
def cols [r][c] (g: m.grid [r][c]) : i64 = c
entry main (xs: []i32) (g: [][]i32) : ([]i32, i64, i64) =
  let (ys, n) = mk xs in (ys, n, cols g)
";

#[test]
fn size_names_inside_type_abbreviations_are_bound() {
    let prog = optimise(compile(ABBREV_SIZES));
    let g = Value::array(vec![1, 2], vec![1i32, 2]).unwrap();
    let out = run(&prog, "main", vec![i32s(&[1, 2, 3]), g]);
    let show: Vec<String> = out.iter().map(|v| v.to_string()).collect();
    assert_eq!(show, ["[1i32, 2i32, 3i32]", "3i64", "2i64"]);
}

#[test]
fn a_function_does_not_hide_a_module_of_the_same_name() {
    // Values and modules have separate namespaces: `m.k` names the module's
    // member although a function `m` is defined later.
    let prog = compile(
        "module m = { def k (x: i64) : i64 = x + 10 }\n\
         def m (x: i64) : i64 = m.k x * 2\n\
         entry main (x: i64) : i64 = m x + m.k 1\n",
    );
    let out = run(&prog, "main", vec![Value::from(1i64)]);
    assert_eq!(out, vec![Value::from(33i64)]);
}

#[test]
fn module_type_ascription_hides_unspecified_names() {
    // `m.g` is hidden by the ascription, so after `open m` the `g` in `main`
    // is the top-level one; `f` still calls the module's own `g`.
    let prog = compile(
        "module type mt = { val f : i64 -> i64 }\n\
         module m : mt = { def g (x: i64) = x + 1\n def f (x: i64) = g x * 2 }\n\
         module n = ({ def g (x: i64) = x + 2 def f (x: i64) = g x } : mt)\n\
         def g (x: i64) = x + 100\n\
         open m\n\
         entry main (x: i64) : i64 = f x + g x + n.f 0\n",
    );
    let out = run(&prog, "main", vec![Value::from(1i64)]);
    assert_eq!(out, vec![Value::from(107i64)]);
}

const EMPTY_LITERALS: &str = "\
def count (ps: [](i32, bool)) : i64 = reduce (+) 0 (map (\\_ -> 1) ps)
entry main (x: f32) : (f32, i64, [][2]i64) =
  let e = []
  in (reduce (+) x (map (\\v -> v * 2) e), count [], [])
";

#[test]
fn empty_array_literals_take_the_element_types_the_checker_inferred() {
    let prog = compile(EMPTY_LITERALS);
    let out = run(&prog, "main", vec![Value::scalar(1.5f32)]);
    assert_eq!(
        out.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        vec!["1.5f32", "0i64", "empty([0][2]i64)"]
    );
    let text = ir::print::print_program(&prog);
    for t in [
        "scratch(f32, [0])",
        "scratch(bool, [0])",
        "scratch(i64, [0][2])",
    ] {
        assert!(text.contains(t), "{t} in\n{text}");
    }
}

const ATTRIBUTES: &str = "\
#[noinline]
def scale (k: i32) (x: i32) : i32 = x * k
#[sequential]
#[stripmine(2)]
def total (xs: []i32) : i32 = reduce (+) 0 xs
entry main (xs: []i32) : (i32, i32) =
  let a = (#[unsafe] xs[0]) + 1
  let b = #[noinline] scale 3 a
  in (b, #[bound(10)] #[unknown] total (map (\\x -> x * 2) xs))
";

#[test]
fn attributes_reach_functions_and_statements() {
    let prog = compile(ATTRIBUTES);
    let out = run(&prog, "main", vec![i32s(&[4, 5])]);
    assert_eq!(
        out.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
        vec!["15i32", "18i32"]
    );
    let text = ir::print::print_program(&prog);
    let fun_attrs = |name: &str| {
        let f = prog.functions.values().find(|f| f.name == name).unwrap();
        f.attrs.iter().map(|a| a.name()).collect::<Vec<_>>()
    };
    assert_eq!(fun_attrs("scale"), ["noinline"], "{text}");
    assert_eq!(fun_attrs("total"), ["sequential", "stripmine"], "{text}");
    assert!(text.contains("#[noinline]\nfun scale"), "{text}");
    assert!(
        text.contains("#[sequential, stripmine(2)]\nfun total"),
        "{text}"
    );
    let main = prog.functions.values().find(|f| f.name == "main").unwrap();
    let stm_attrs = |pred: &dyn Fn(&ir::Exp) -> bool| {
        main.body
            .stms
            .iter()
            .filter(|s| pred(&s.exp))
            .map(|s| s.attrs.clone())
            .collect::<Vec<_>>()
    };
    // Of `(#[unsafe] xs[0]) + 1`, only the index is inside the attribute.
    assert_eq!(
        stm_attrs(&|e| matches!(e, ir::Exp::Index(..))),
        [vec![ir::Attr::Unsafe]],
        "{text}"
    );
    assert_eq!(
        stm_attrs(&|e| matches!(e, ir::Exp::BinOp(ir::BinOp::Add, ..))),
        [Vec::<ir::Attr>::new()],
        "{text}"
    );
    let scale = prog
        .functions
        .iter()
        .find(|(_, f)| f.name == "scale")
        .unwrap()
        .0;
    let total = prog
        .functions
        .iter()
        .find(|(_, f)| f.name == "total")
        .unwrap()
        .0;
    assert_eq!(
        stm_attrs(&|e| matches!(e, ir::Exp::Apply { fun, .. } if *fun == scale)),
        [vec![ir::Attr::NoInline]],
        "{text}"
    );
    // The map in the argument is inside the attribute as well; the unknown
    // attribute is dropped; the statements of `total` itself carry none.
    assert_eq!(
        stm_attrs(&|e| matches!(e, ir::Exp::Apply { fun, .. } if *fun == total)),
        [vec![ir::Attr::Bound(10)]],
        "{text}"
    );
    assert_eq!(
        stm_attrs(&|e| matches!(e, ir::Exp::Screma { .. })),
        [vec![ir::Attr::Bound(10)]],
        "{text}"
    );
    assert!(
        prog.functions[total]
            .body
            .stms
            .iter()
            .all(|s| s.attrs.is_empty()),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

const ARRAY_EQ: &str = "\
entry main (xs: []i32) (ys: []i32) : (bool, bool, bool) =
  (xs == ys, [xs] != [ys], (1i32, xs) == (1i32, ys))
";

#[test]
fn array_equality_compares_shapes_then_elements() {
    let prog = compile(ARRAY_EQ);
    let show = |vs: Vec<Value>| vs.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    let cases: [(&[i32], &[i32], [&str; 3]); 4] = [
        (&[1, 2], &[1, 2], ["true", "false", "true"]),
        (&[1, 2], &[1, 3], ["false", "true", "false"]),
        (&[1, 2], &[1], ["false", "true", "false"]),
        (&[], &[], ["true", "false", "true"]),
    ];
    for (a, b, want) in cases {
        let out = run(&prog, "main", vec![i32s(a), i32s(b)]);
        assert_eq!(show(out), want, "{a:?} {b:?}");
    }
}

const TUPLE_ENTRY: &str = "\
entry main [n][m] (xs: [n]i32, ys: [m]i32) : (i64, i64) = (n, m)
";

#[test]
fn entry_parameters_of_tuples_of_arrays_take_each_component_in_turn() {
    let prog = compile(TUPLE_ENTRY);
    let e = prog.entries.iter().find(|e| e.name == "main").unwrap();
    assert_eq!(e.params.len(), 1);
    assert_eq!(e.params[0].values, 4);
    let out = run(&prog, "main", vec![i32s(&[1, 2, 3]), i32s(&[4])]);
    let show: Vec<String> = out.iter().map(|v| v.to_string()).collect();
    assert_eq!(show, ["3i64", "1i64"]);
}

const ENTRY_CONSTANT_DIMS: &str = "\
entry last [n] (xs: [n][3]f64) : [n]f64 = map (\\r -> r[2]) xs
entry set (xs: *[2]i64) : [2]i64 = let xs[0] = 5 in xs
";

#[test]
fn entry_parameters_dimensions_written_as_constants_are_checked_and_known() {
    let prog = compile(ENTRY_CONSTANT_DIMS);
    let text = ir::print::print_program(&prog);
    // The entry function passes the constant size on; once `last` is
    // inlined, the rows of `xs` are `[3]f64` in the map. The unique
    // parameter is updated in place, without a copy.
    assert!(text.contains("apply last(n, 3i64, "), "{text}");
    assert!(!text.contains("copy("), "{text}");
    let opt = ir::print::print_program(&optimise(prog.clone()));
    assert!(opt.contains(": [3]f64) -> (f64)"), "{opt}");
    assert!(!opt.contains("copy("), "{opt}");
    let xs = Value::array(vec![2, 3], vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let out = run(&prog, "last", vec![xs]);
    assert_eq!(out[0].to_string(), "[3.0f64, 6.0f64]");
    let out = run(&prog, "set", vec![Value::vector(vec![1i64, 2])]);
    assert_eq!(out[0].to_string(), "[5i64, 2i64]");
    // An argument of another size is an error naming the parameter.
    let xs = Value::array(vec![1, 2], vec![1.0f64, 2.0]).unwrap();
    let err = run_err(&prog, "last", vec![xs]);
    assert!(
        err.contains("Size mismatch: dimension 2 of parameter 1 of entry point `last` is 2"),
        "{err}"
    );
    let err = run_err(&prog, "set", vec![Value::vector(vec![1i64, 2, 3])]);
    assert!(err.contains("is 3, but its type gives 2"), "{err}");
}
