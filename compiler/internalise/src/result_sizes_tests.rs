//! Result sizes kept through specialised functions ([`crate::result_sizes`]).

use ir::{Body, Exp, Size, Type};
use values::Value;

use crate::tests::{compile, optimise, run};

/// `map3` and `zip3` written as the prelude writes them, a function with a
/// `[2][3]f64` result mapped with `map3` (directly, and in a lambda that
/// captures a variable, which makes `map3` inlined rather than
/// specialised), and a function whose result has its parameter's size.
const MAP3_BLOCKS: &str = "\
def zip 'a 'b [n] (xs: [n]a) (ys: [n]b): *[n](a, b) = __intrinsic \"zip\"
def zip3 'a 'b 'c [n] (xs: [n]a) (ys: [n]b) (zs: [n]c): *[n](a, b, c) =
  map (\\(x, (y, z)) -> (x, y, z)) (zip xs (zip ys zs))
def map3 'a 'b 'c [n] 'x (f: a -> b -> c -> x) (xs: [n]a) (ys: [n]b) (zs: [n]c): *[n]x =
  map (\\(x, y, z) -> f x y z) (zip3 xs ys zs)
def block (a: f64) (b: f64) (c: f64) : [2][3]f64 =
  [[a, b, c], [c * 2, b * 2, a * 2]]
entry blocks (xs: []f64) (ys: []f64) (zs: []f64) : [][2][3]f64 =
  map3 block xs ys zs
entry scaled (k: f64) (xs: []f64) (ys: []f64) (zs: []f64) : [][2][3]f64 =
  map3 (\\a b c -> block (k * a) b c) xs ys zs
def twice [m] (xs: [m]f64) : [m]f64 = map (\\x -> x * 2) xs
entry doubled (n: i64) (xs: []f64) : [][]f64 =
  map (\\_ -> twice xs) (iota n)
";

/// The result types of every map lambda of the program and the types of
/// the variables its `screma` binds, nested ones included.
fn maps(prog: &ir::Program) -> Vec<(Vec<Type>, Vec<Type>)> {
    fn body(b: &Body, f: &ir::Function, out: &mut Vec<(Vec<Type>, Vec<Type>)>) {
        for s in &b.stms {
            match &s.exp {
                Exp::Screma(sc) => {
                    let pat = s.pat.iter().map(|v| f.vars[*v].ty.clone()).collect();
                    out.push((sc.map.ret.clone(), pat));
                    body(&sc.map.body, f, out);
                }
                Exp::If {
                    then_body,
                    else_body,
                    ..
                } => {
                    body(then_body, f, out);
                    body(else_body, f, out);
                }
                Exp::Loop { body: b, .. } => body(b, f, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for (_, f) in prog.functions.iter() {
        body(&f.body, f, &mut out);
    }
    out
}

fn has_any(t: &Type) -> bool {
    t.shape.contains(&Size::Any)
}

/// Some map binds `[_][2][3]f64` rows from a lambda returning `[2][3]f64`.
fn has_block_map(prog: &ir::Program) -> bool {
    maps(prog).iter().any(|(ret, pat)| {
        ret.iter()
            .any(|t| t.shape == [Size::Const(2), Size::Const(3)])
            && pat
                .iter()
                .any(|t| t.shape[1..] == [Size::Const(2), Size::Const(3)])
    })
}

fn f64s(xs: &[f64]) -> Value {
    Value::vector(xs.to_vec())
}

#[test]
fn map3_of_a_function_with_a_constant_result_size_keeps_it() {
    let prog = compile(MAP3_BLOCKS);
    let text = ir::print::print_program(&prog);
    // No lambda of a map returns rows of unknown size, so no map sizes its
    // rows by the first one, in the internalised program and after the
    // standard pipeline.
    for (ret, _) in maps(&prog) {
        assert!(!ret.iter().any(has_any), "{ret:?}\n{text}");
    }
    assert!(has_block_map(&prog), "{text}");
    let opt = optimise(prog.clone());
    let opt_text = ir::print::print_program(&opt);
    for (ret, pat) in maps(&opt) {
        assert!(!ret.iter().any(has_any), "{ret:?}\n{opt_text}");
        assert!(!pat.iter().any(has_any), "{pat:?}\n{opt_text}");
    }
    assert!(has_block_map(&opt), "{opt_text}");

    let (xs, ys, zs) = (f64s(&[1.0, 2.0]), f64s(&[3.0, 4.0]), f64s(&[5.0, 6.0]));
    let args = vec![xs.clone(), ys.clone(), zs.clone()];
    let want = "[[[1.0f64, 3.0f64, 5.0f64], [10.0f64, 6.0f64, 2.0f64]], \
                [[2.0f64, 4.0f64, 6.0f64], [12.0f64, 8.0f64, 4.0f64]]]";
    for p in [&prog, &opt] {
        assert_eq!(run(p, "blocks", args.clone())[0].to_string(), want);
        let out = run(
            p,
            "scaled",
            vec![Value::scalar(10.0f64), xs.clone(), ys.clone(), zs.clone()],
        );
        assert_eq!(
            out[0].to_string(),
            "[[[10.0f64, 3.0f64, 5.0f64], [10.0f64, 6.0f64, 20.0f64]], \
             [[20.0f64, 4.0f64, 6.0f64], [12.0f64, 8.0f64, 40.0f64]]]"
        );
        // Empty: the rows still have the sizes the function gives them.
        let empty = f64s(&[]);
        let out = run(p, "blocks", vec![empty.clone(), empty.clone(), empty]);
        assert_eq!(out[0].shape(), &[0, 2, 3]);
    }
    insta::assert_snapshot!(text);
}

#[test]
fn a_result_sized_by_a_parameter_takes_the_arguments_size() {
    let prog = compile(MAP3_BLOCKS);
    let text = ir::print::print_program(&prog);
    // `twice xs` in the lambda has the size of `xs`, known outside the map.
    for (ret, _) in maps(&prog) {
        assert!(!ret.iter().any(has_any), "{ret:?}\n{text}");
    }
    let xs = f64s(&[1.0, 2.5]);
    let out = run(&prog, "doubled", vec![Value::scalar(2i64), xs.clone()]);
    assert_eq!(out[0].to_string(), "[[2.0f64, 5.0f64], [2.0f64, 5.0f64]]");
    // An empty map's rows have that size too, as the interpreter gives them.
    let out = run(&prog, "doubled", vec![Value::scalar(0i64), xs]);
    assert_eq!(out[0].shape(), &[0, 2]);
}
