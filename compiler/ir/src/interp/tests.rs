//! Interpreter tests: the operation counter and programs built with the
//! builder.

use values::{PrimType, Value};

use super::*;
use crate::builder::FunctionBuilder;
use crate::parse::parse_program;
use crate::types::Type;
use crate::verify::verify;

/// `map (+1)` over `n` elements, built with the builder.
fn increment_program() -> Program {
    let mut fb = FunctionBuilder::new("main");
    let n = fb.param("n", Type::scalar(PrimType::I64));
    let xs = fb.param("xs", Type::array(PrimType::I32, vec![Size::Var(n)]));
    let body = fb.body(|b| {
        let l = b.lambda(
            &[("x", Type::scalar(PrimType::I32))],
            vec![Type::scalar(PrimType::I32)],
            |b, ps| {
                vec![
                    b.binop("y", BinOp::Add, ps[0].into(), PrimValue::I32(1).into())
                        .into(),
                ]
            },
        );
        let ys = b.map("ys", n.into(), vec![xs], l);
        vec![ys[0].into()]
    });
    let f = fb.finish(vec![Type::array(PrimType::I32, vec![Size::Var(n)])], body);
    let mut p = Program::default();
    p.functions.push(f);
    p
}

#[test]
fn map_reads_and_writes_each_element_once() {
    let p = increment_program();
    verify(&p).unwrap();
    let out = run_function(
        &p,
        "main",
        vec![Value::scalar(4i64), Value::vector(vec![1i32, 2, 3, 4])],
    )
    .unwrap();
    assert_eq!(out.values, vec![Value::vector(vec![2i32, 3, 4, 5])]);
    assert_eq!(
        out.counters,
        Counters {
            scalar_ops: 4,
            reads: 4,
            writes: 4
        }
    );
}

#[test]
fn builder_output_round_trips() {
    let p = increment_program();
    let text = crate::print::print_program(&p);
    let q = parse_program(&text).unwrap();
    // Variable ids may be numbered differently; the text is the same.
    assert_eq!(crate::print::print_program(&q), text);
    assert!(text.contains("let ys: [n]i32 = screma(n, xs)"), "{text}");
}

#[test]
fn fusion_saves_a_pass_over_the_array() {
    let two_maps = "fun main(n: i64, xs: [n]f64) -> ([n]f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, 2.0f64)
      in (y)
    })
  let zs: [n]f64 = screma(n, ys)
    map(\\(y2: f64) -> (f64) {
      let z: f64 = add(y2, 1.0f64)
      in (z)
    })
  in (zs)
}
";
    let fused = "fun main(n: i64, xs: [n]f64) -> ([n]f64) {
  let zs: [n]f64 = screma(n, xs)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, 2.0f64)
      let z: f64 = add(y, 1.0f64)
      in (z)
    })
  in (zs)
}
";
    let args = || {
        vec![
            Value::scalar(5i64),
            Value::vector(vec![0.0f64, 1.0, 2.0, 3.0, 4.0]),
        ]
    };
    let a = run_function(&parse_program(two_maps).unwrap(), "main", args()).unwrap();
    let b = run_function(&parse_program(fused).unwrap(), "main", args()).unwrap();
    assert_eq!(a.values, b.values);
    assert_eq!(a.counters.scalar_ops, b.counters.scalar_ops);
    assert_eq!((a.counters.reads, a.counters.writes), (10, 10));
    assert_eq!((b.counters.reads, b.counters.writes), (5, 5));
}

#[test]
fn bad_arguments_and_unexpanded_ad_are_errors() {
    let p = increment_program();
    let e = run_function(&p, "main", vec![Value::scalar(4i64)]).unwrap_err();
    assert!(e.message.contains("takes 2 arguments"), "{e}");
    let e = run_function(
        &p,
        "main",
        vec![Value::scalar(3i64), Value::vector(vec![1i32])],
    )
    .unwrap_err();
    assert!(e.message.starts_with("Size mismatch"), "{e}");
    let e = run_function(&p, "nope", vec![]).unwrap_err();
    assert!(e.message.contains("no function"), "{e}");
    let jvp = parse_program(
        "fun main(x: f64) -> (f64, f64) {
  let (y: f64, dy: f64) = jvp(\\(p: f64) -> (f64) {
    in (p)
  }, (x), (1.0f64))
  in (y, dy)
}
",
    )
    .unwrap();
    verify(&jvp).unwrap();
    let e = run_function(&jvp, "main", vec![Value::scalar(1.0f64)]).unwrap_err();
    assert!(e.message.contains("not expanded"), "{e}");
}

#[test]
fn slices_and_invalid_reshape() {
    let p = parse_program(
        "fun main(xs: [6]i32) -> ([3]i32, [2][3]i32) {
  let s: [3]i32 = xs[5i64:+3i64*-2i64]
  let r: [2][3]i32 = reshape([2][3], xs)
  in (s, r)
}

fun bad(xs: [6]i32) -> ([4]i32) {
  let r: [4]i32 = reshape([4], xs) @0:5:9
  in (r)
}
",
    )
    .unwrap();
    verify(&p).unwrap_err();
    let xs = Value::vector(vec![0i32, 1, 2, 3, 4, 5]);
    let out = run_function(&p, "main", vec![xs.clone()]).unwrap();
    assert_eq!(out.values[0], Value::vector(vec![5i32, 3, 1]));
    assert_eq!(out.counters, Counters::default());
    let e = run_function(&p, "bad", vec![xs]).unwrap_err();
    assert!(e.message.starts_with("Invalid reshape"), "{e}");
    assert_eq!(e.span, Span::new(0, 5, 9));
}
