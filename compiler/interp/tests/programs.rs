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
    assert_eq!(
        ok("def main (x: i32) (y: i32) = x * y + 1", &["6", "7"]),
        "43i32"
    );
}

#[test]
fn soacs() {
    let src = "def main (xs: []i32) = (map (+1) xs, reduce (+) 0 xs, scan (+) 0 xs)";
    assert_eq!(
        ok(src, &["[1, 2, 3]"]),
        "[2i32, 3i32, 4i32] 6i32 [1i32, 3i32, 6i32]"
    );
    let src = "def main (xs: []i32) = filter (\\x -> x % 2 == 0) xs";
    assert_eq!(ok(src, &["[1, 2, 3, 4]"]), "[2i32, 4i32]");
}

#[test]
fn integer_semantics() {
    let src =
        "def main (a: i32) (b: i32) = (a / b, a % b, a // b, a %% b, 255u8 + 1u8, 1i32 << 31i32)";
    assert_eq!(
        ok(src, &["-7", "2"]),
        "-4i32 1i32 -3i32 -1i32 0u8 -2147483648i32"
    );
    assert!(err(src, &["1", "0"]).contains("Division by zero"));
}

#[test]
fn run_time_errors_use_the_documented_phrases() {
    let idx = "def main (xs: []i32) (i: i64) = xs[i]";
    assert_eq!(
        err(idx, &["[1, 2, 3]", "3i64"]),
        "Index [3] out of bounds for array of shape [3]."
    );
    let assert_src = "def main (x: i32) = assert (x >= 0i32) (x + 1i32)";
    assert_eq!(err(assert_src, &["-5"]), "Assertion is false: x >= 0i32");
    let range = "def main (a: i32) (b: i32) = length (a..<b)";
    assert!(err(range, &["5", "1"]).contains("Invalid range"));
    let slice = "def main (xs: []i32) (i: i64) = xs[:i]";
    assert!(err(slice, &["[1, 2]", "3i64"]).contains("Invalid slice"));
    let sizes = "def main [n] (xs: [n]i32) (ys: [n]i32) = map2 (+) xs ys";
    assert!(err(sizes, &["[1, 2]", "[1, 2, 3]"]).contains("Size mismatch"));
    let coerce = "def main [n] (xs: [n]i32) = xs[1:] :> [n]i32";
    assert!(err(coerce, &["[1, 2]"]).contains("Size mismatch"));
    assert!(err("def main (n: i64) = iota n", &["-1i64"]).contains("Invalid range"));
}

#[test]
fn errors_carry_a_backtrace_of_calls() {
    let src = "def f (xs: []i32) (i: i64) = xs[i]\ndef g (xs: []i32) = f xs 5i64\ndef main (xs: []i32) = g xs";
    let e = common::run(src, "main", &["[1]"]).unwrap_err();
    assert!(e.message.contains("out of bounds"));
    assert!(e.span.is_some());
    assert_eq!(e.backtrace.len(), 2, "{:?}", e.backtrace);
}

#[test]
fn records_tuples_sums_and_match() {
    let src = r#"
type shape = #circle f64 | #rect f64 f64
def area (s: shape) = match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
def main (x: f64) =
  let r = {a = x, b = (1i32, true)}
  let r2 = r with a = 2.0
  let (p, q) = r2.b
  in (area (#circle x), area (#rect x 2.0), r2.a, p, q, r.b.0)
"#;
    assert_eq!(ok(src, &["1.0"]), "3.0f64 2.0f64 2.0f64 1i32 true 1i32");
}

#[test]
fn loops_and_in_place_updates() {
    let src = r#"
def main (n: i64) =
  let a = loop acc = replicate n 0i64 for i < n do acc with [i] = i * i
  let s = loop s = 0i64 for x in a do s + x
  let w = loop k = 1i64 while k < n do k * 2i64
  let x = 5i64
  let x = loop x for i < 3i64 do x + i
  let b = copy a
  let b[0] = 42i64
  in (s, w, x, b[0], a[0], a[2:4])
"#;
    assert_eq!(
        ok(src, &["5i64"]),
        "30i64 8i64 8i64 42i64 0i64 [4i64, 9i64]"
    );
    // A long loop of updates runs in place (quadratic copying would time out).
    let big = "def main (n: i64) = let a = loop a = replicate n 0i64 for i < n do a with [i] = i in a[n - 1i64]";
    assert_eq!(ok(big, &["200000i64"]), "199999i64");
    // So do unique arguments of functions (here scatter's destination).
    let scat = "def main (n: i64) = let a = loop a = replicate n 0i64 for i < n do scatter a [i] [i + 1i64] in a[n - 1i64]";
    assert_eq!(ok(scat, &["100000i64"]), "100000i64");
}

#[test]
fn sections_and_higher_order_functions() {
    let src = r#"
def twice 'a (f: a -> a) (x: a) = f (f x)
def main (xs: []i32) =
  ( map (2i32 -) xs, map (/ 2i32) xs, twice (+ 1i32) 0i32
  , map (.0) (zip xs xs), map (.[1]) [xs, xs], xs |> map (* 3i32)
  , (flip (-)) 1i32 10i32 )
"#;
    assert_eq!(
        ok(src, &["[4, 6]"]),
        "[-2i32, -4i32] [2i32, 3i32] 2i32 [4i32, 6i32] [6i32, 6i32] [12i32, 18i32] 9i32"
    );
}

#[test]
fn modules_functors_and_opens() {
    let src = r#"
module type num = { type t val zero: t val add: t -> t -> t }
module I: num with t = i32 = { type t = i32 def zero = 0i32 def add (x: i32) (y: i32) = x + y }
module Sum (N: num) = { def sum (xs: []N.t) = reduce N.add N.zero xs }
module S = Sum I
module Outer = { module Inner = { def k = 7i32 } local def hidden = 1i32 def vis = hidden + 1i32 }
open Outer
def main (xs: []i32) = (S.sum xs, Outer.Inner.k, vis, I.(add zero 3i32), f64.sqrt 4.0, i32.max 3i32 9i32)
"#;
    assert_eq!(ok(src, &["[1, 2, 3]"]), "6i32 7i32 2i32 3i32 2.0f64 9i32");
}

#[test]
fn soac_family() {
    let src = r#"
def main (xs: []i32) =
  ( reduce_by_index (replicate 3i64 0i32) (+) 0i32 [0i64, 2i64, 2i64, 7i64] xs
  , hist (+) 0i32 2i64 [1i64, 1i64, 0i64, 0i64] xs
  , scatter (replicate 3i64 0i32) [2i64, 0i64, -1i64, 9i64] xs
  , transpose [[1i32, 2i32], [3i32, 4i32], [5i32, 6i32]]
  , flatten [[1i32, 2i32], [3i32, 4i32]]
  , (unzip (zip xs xs)).1
  , rotate 1i64 xs
  , concat xs xs
  , (partition (> 2i32) xs).1 )
"#;
    assert_eq!(
        ok(src, &["[1, 2, 3, 4]"]),
        "[1i32, 0i32, 5i32] [7i32, 3i32] [2i32, 0i32, 1i32] [[1i32, 3i32, 5i32], [2i32, 4i32, 6i32]] \
         [1i32, 2i32, 3i32, 4i32] [1i32, 2i32, 3i32, 4i32] \
         [2i32, 3i32, 4i32, 1i32] [1i32, 2i32, 3i32, 4i32, 1i32, 2i32, 3i32, 4i32] [1i32, 2i32]"
    );
}

#[test]
fn empty_arrays_keep_their_shape() {
    let src = "def main (n: i64) = (transpose (replicate 0i64 (replicate n 1.0)), filter (> 0.0) (replicate n 0.0))";
    assert_eq!(ok(src, &["3i64"]), "empty([3][0]f64) empty([0]f64)");
    let vs = common::run(src, "main", &["3i64"]).unwrap();
    assert_eq!(vs[0].shape(), &[3, 0]);
    assert_eq!(vs[1].shape(), &[0]);
}

#[test]
fn differentiation() {
    let src = r#"
def f (x: f64) = x * x * x
def g (v: (f64, f64)) = v.0 * f64.sin v.1
def main (x: f64) =
  ( jvp f x 1.0
  , vjp f x 1.0
  , jvp (\y -> jvp f y 1.0) x 1.0
  , vjp (\y -> vjp f y 1.0) x 1.0
  , jvp (\y -> vjp f y 1.0) x 1.0
  , (vjp g (x, 0.0) 1.0).0
  , vjp (\xs -> f64.sum (map (\x -> x * x) xs)) [1.0, 2.0, x] 1.0
  , vjp (with_vjp (\y -> y * y) (\_ dy -> 100.0 * dy)) x 1.0 )
"#;
    assert_eq!(
        ok(src, &["2.0"]),
        "12.0f64 12.0f64 12.0f64 12.0f64 12.0f64 0.0f64 [2.0f64, 4.0f64, 4.0f64] 100.0f64"
    );
}

#[test]
fn strings_chars_and_f16() {
    let src = "def main (x: f16) = (\"hi\", 'a', x + 1.0f16, f16.sqrt 4.0f16)";
    assert_eq!(ok(src, &["2.0f16"]), "[104u8, 105u8] 97i32 3.0f16 2.0f16");
}

#[test]
fn size_arguments_recorded_by_the_checker_are_used() {
    use syntax::ast::{Expr, ExprKind, NodeId};
    // `unflatten`'s sizes `n` and `m` do not follow from the shape `[n*m]`; the
    // checker records them at the use, which this test does by hand.
    let src = "def main (k: i64) (l: i64) = unflatten (iota (k * l))";
    let mut l = common::Loader::with_prelude();
    let mut record = |file: &mut syntax::ast::File| {
        let syntax::ast::DecKind::Val(vb) = &file.decs[0].kind else {
            panic!("expected a definition");
        };
        let ExprKind::Apply(f, _) = &vb.body.kind else {
            panic!("expected an application");
        };
        let var = |name: &str| Expr {
            kind: ExprKind::Var(syntax::ast::QualName {
                quals: Vec::new(),
                name: syntax::ast::Ident {
                    name: name.into(),
                    span: f.span,
                },
            }),
            span: f.span,
            id: NodeId(u32::MAX),
        };
        let id: NodeId = f.id;
        file.size_args
            .insert(id, vec![("n".into(), var("k")), ("m".into(), var("l"))]);
    };
    let id = l
        .load_source_with(src, None, None, true, &mut record)
        .expect("loads");
    let args = vec![values::Value::scalar(2i64), values::Value::scalar(3i64)];
    let out = l.interp.call_entry(id, "main", args).expect("runs");
    assert_eq!(
        out[0].to_string(),
        "[[0i64, 1i64, 2i64], [3i64, 4i64, 5i64]]"
    );
}

#[test]
fn soac_fast_paths_respect_shadowed_operators() {
    let src = "def add (x: i32) (y: i32) = x + y\n\
               def main (xs: []i32) = (reduce add 0 xs, map2 (-) xs (map (+1) xs), scan add 0 xs, map2 add xs xs)";
    assert_eq!(
        ok(src, &["[1, 2, 3]"]),
        "6i32 [-1i32, -1i32, -1i32] [1i32, 3i32, 6i32] [2i32, 4i32, 6i32]"
    );
    // A function whose body uses an operator that a user definition shadows must
    // not be computed as the builtin operator.
    let src = "def (+) (x: i32) (y: i32) = x * y\n\
               def add (x: i32) (y: i32) = x + y\n\
               def main (xs: []i32) = (reduce add 1 xs, map2 add xs xs)";
    assert_eq!(ok(src, &["[2, 3, 4]"]), "24i32 [4i32, 9i32, 16i32]");
}

#[test]
fn ascribed_modules_expose_only_their_signature() {
    let src = "module type has_f = { val f : i32 -> i32 }\n\
               module M = { def f (x: i32) = x + 1  def g (x: i32) = x * 2 }\n\
               def g (x: i32) = x * 10\n\
               open (M : has_f)\n\
               module N : has_f = { def f (x: i32) = x - 1  def g (x: i32) = x }\n\
               open N\n\
               def main (x: i32) = (f x, g x)";
    assert_eq!(ok(src, &["3"]), "2i32 30i32");
}

#[test]
fn top_level_functions_with_a_return_type_may_call_themselves() {
    let src = "def fact (n: i64) : i64 = if n <= 1 then 1 else n * fact (n - 1)\n\
               def main (n: i64) = fact n";
    assert_eq!(ok(src, &["5i64"]), "120i64");
}

#[test]
fn a_name_already_defined_refers_to_the_earlier_definition() {
    // `twice` is brought into scope by `open` first; the new definition's body calls
    // that one, it does not recurse.
    let src = "module m = { def twice (x: i32) : i32 = x * 2 }\n\
               open m\n\
               def twice (x: i32) : i32 = twice x + 1\n\
               def main (x: i32) = twice x";
    assert_eq!(ok(src, &["5"]), "11i32");
}

#[test]
fn operators_defined_with_the_builtin_in_their_body_do_not_recurse() {
    let src = "def (+^) (x: i32) (y: i32) : i32 = x + y\n\
               module m = { def (+) (x: i32) (y: i32) : i32 = x + y + 1 }\n\
               def main (x: i32) = (x +^ 1, x m.+ 1)";
    assert_eq!(ok(src, &["5"]), "6i32 7i32");
}

#[test]
fn map2_over_zipped_arrays() {
    let src = "def main (xs: []i32) (ys: []i32) = (map2 (+) xs ys, map2 (\\x y -> x * 10 + y) xs ys, map (\\(x, y) -> x - y) (zip xs ys))";
    assert_eq!(
        ok(src, &["[1, 2]", "[3, 4]"]),
        "[4i32, 6i32] [13i32, 24i32] [-2i32, -2i32]"
    );
    assert_eq!(
        ok(src, &["empty([0]i32)", "empty([0]i32)"]),
        "empty([0]i32) empty([0]i32) empty([0]i32)"
    );
    let nested = "def main (a: [][]i32) (b: [][]i32) = map2 (map2 (*)) a b";
    assert_eq!(
        ok(nested, &["[[1, 2], [3, 4]]", "[[5, 6], [7, 8]]"]),
        "[[5i32, 12i32], [21i32, 32i32]]"
    );
    let local = "def main (xs: []i32) = let f (a: i32) (b: i32) = a - b in map2 f xs xs";
    assert_eq!(ok(local, &["[1, 2]"]), "[0i32, 0i32]");
}
