//! Every differentiable math function and operator of the IR, checked
//! after the forward-mode pass against central finite differences in
//! `f64`.

use ir::pass::{PipelineConfig, run_pipeline};
use ir::{interp, parse};
use values::Value;

fn run(text: &str, args: Vec<Value>) -> Vec<f64> {
    let prog = parse::parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let prog = run_pipeline(&[ad::JVP_PASS], prog, PipelineConfig { validate: true })
        .unwrap_or_else(|e| panic!("{e}"));
    interp::run_function(&prog, "main", args)
        .unwrap_or_else(|e| panic!("{e}"))
        .values
        .iter()
        .map(|v| v.to_string().trim_end_matches("f64").parse().unwrap())
        .collect()
}

/// `exp` is an expression of `p`: checks d/dp at `x`.
fn check(exp: &str, x: f64) {
    let text = format!(
        "fun main(x: f64) -> (f64, f64) {{\n  let (y: f64, d: f64) = jvp(\\(p: f64) -> (f64) {{\n    let r: f64 = {exp}\n    in (r)\n  }}, (x), (1.0f64))\n  in (y, d)\n}}\n"
    );
    let h = 1e-6;
    let f = |v: f64| run(&text, vec![Value::scalar(v)])[0];
    let fd = (f(x + h) - f(x - h)) / (2.0 * h);
    let d = run(&text, vec![Value::scalar(x)])[1];
    assert!(
        (d - fd).abs() <= 1e-5 * (1.0 + fd.abs()),
        "{exp} at {x}: jvp {d}, finite differences {fd}"
    );
}

#[test]
fn math_functions_match_finite_differences() {
    let unary = [
        "sqrt", "cbrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
        "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "atanh", "erf", "erfc", "gamma",
        "lgamma",
    ];
    for f in unary {
        check(&format!("{f}(p)"), 0.37);
    }
    check("acosh(p)", 1.7);
    check("gamma(p)", 4.3);
    check("lgamma(p)", -2.6);
    for e in [
        "atan2(p, 0.7f64)",
        "atan2(0.7f64, p)",
        "hypot(p, 0.7f64)",
        "hypot(-0.7f64, p)",
        "fma(p, p, p)",
        "mad(p, 3.0f64, p)",
        "pow(p, 2.5f64)",
        "pow(2.5f64, p)",
        "pow(p, p)",
        "div(1.5f64, p)",
        "mod(5.5f64, p)",
        "copysign(p, -1.0f64)",
        "abs(p)",
        "neg(p)",
        "min(p, 0.5f64)",
        "max(p, 0.5f64)",
    ] {
        check(e, 0.37);
    }
    // Piecewise constant functions have zero derivatives.
    for f in ["floor", "ceil", "round", "trunc"] {
        check(&format!("{f}(p)"), 0.37);
    }
}
