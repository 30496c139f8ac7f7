//! Helpers shared by the ad crate's property tests: the program that
//! differentiates a function body both ways, random points, and the check
//! at each point.
//!
//! A body defines `f: [8]f64 -> [P]f64` (argument `{p}x`, result
//! `{p}r: [P]f64`, every name it binds prefixed with `{p}` so that its two
//! copies keep apart) and may use, free, the index arrays `js: [8]i64`
//! (values -1 to 4: some out of bounds) and `ks: [4]i64`, and `two: i64`
//! (2, a size the compiler does not know).

use ir::pass::{PipelineConfig, run_pipeline};
use ir::{interp, parse};
use values::Value;

/// A 64-bit linear congruential generator: deterministic, so a failing
/// random case reproduces.
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64) / ((1u64 << 53) as f64)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: i64) -> i64 {
        (self.unit() * n as f64) as i64
    }
}

/// The elements of a one-dimensional `f64` array value.
pub fn floats(v: &values::Value) -> Vec<f64> {
    v.to_string()
        .trim_matches(|c| c == '[' || c == ']')
        .split(',')
        .map(|e| e.trim().trim_end_matches("f64").parse().unwrap())
        .collect()
}

/// The dot product of `a` and `b`.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Checks one random point `x` with direction `u` and adjoint seed `v`,
/// where `run(x)` returns `f(x)`, `J·u` and `Jᵀ·v`: reverse mode against
/// forward mode (⟨v, J·u⟩ = ⟨Jᵀ·v, u⟩), and forward mode against central
/// finite differences. `what` names the case in a failure.
pub fn check_point(
    what: &str,
    x: &[f64],
    u: &[f64],
    v: &[f64],
    run: impl Fn(&[f64]) -> Vec<Vec<f64>>,
) {
    let at = run(x);
    let fwd = dot(v, &at[1]);
    let rev = dot(&at[2], u);
    assert!(
        (fwd - rev).abs() <= 1e-9 * (1.0 + fwd.abs()),
        "{what}: <v, Ju> = {fwd}, <J^T v, u> = {rev}"
    );
    let h = 1e-6;
    let plus: Vec<f64> = x.iter().zip(u).map(|(a, b)| a + h * b).collect();
    let minus: Vec<f64> = x.iter().zip(u).map(|(a, b)| a - h * b).collect();
    let fd: Vec<f64> = run(&plus)[0]
        .iter()
        .zip(&run(&minus)[0])
        .map(|(a, b)| (a - b) / (2.0 * h))
        .collect();
    let fd = dot(v, &fd);
    assert!(
        (fwd - fd).abs() <= 1e-5 * (1.0 + fwd.abs()),
        "{what}: jvp {fwd}, finite differences {fd}"
    );
}

/// `main(x, u, v, js, ks, two)` returning `f(x)`, `J·u` (by `jvp`) and
/// `Jᵀ·v` (by `vjp`) for the body `body` with `P = p`.
pub fn program(body: &str, p: usize) -> String {
    let lam = |pre: &str| {
        format!(
            "\\({pre}x: [8]f64) -> ([{p}]f64) {{\n{}\n    in ({pre}r)\n  }}",
            body.replace("{p}", pre)
        )
    };
    format!(
        "fun main(x: [8]f64, u: [8]f64, v: [{p}]f64, js: [8]i64, ks: [4]i64, two: i64) -> ([{p}]f64, [{p}]f64, [8]f64) {{\n  \
         let (y: [{p}]f64, t: [{p}]f64) = jvp({}, (x), (u))\n  \
         let (y2: [{p}]f64, g: [8]f64) = vjp({}, (x), (v))\n  \
         in (y, t, g)\n}}\n",
        lam("f_"),
        lam("r_")
    )
}

/// A one-dimensional array value of the elements `xs`, each written with
/// `suffix` (`f64`, `i64`).
pub fn literal<T: std::fmt::Debug>(xs: &[T], suffix: &str) -> Value {
    let elems: Vec<String> = xs.iter().map(|x| format!("{x:?}{suffix}")).collect();
    let text = format!("[{}]", elems.join(", "));
    values::read_values(text.as_bytes()).unwrap().remove(0)
}

/// How the random points of a suite are drawn.
pub struct Points {
    /// Mixed with the length of the case's name to seed the generator.
    pub seed: u64,
    /// `ks` holds values below this.
    pub ks_below: i64,
    /// Whether some points have exact zeros in `x` (for the rules that
    /// count zeros).
    pub zeros: bool,
}

/// Differentiates `body` (results `[p]f64`) by the AD pass, which must
/// leave no `jvp` or `vjp`, and checks it at six random points drawn as
/// `points` says.
pub fn check_body(name: &str, body: &str, p: usize, points: Points) {
    let text = program(body, p);
    let prog = parse::parse_program(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
    let prog = run_pipeline(&[ad::AD_PASS], prog, PipelineConfig { validate: true })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let counts = opt::structure::count_constructs(&prog);
    assert_eq!(counts.get("Vjp"), None, "{name}: a vjp is left");
    assert_eq!(counts.get("Jvp"), None, "{name}: a jvp is left");
    let mut rng = Rng(points.seed ^ name.len() as u64);
    for trial in 0..6 {
        let mut x: Vec<f64> = (0..8).map(|_| rng.range(-2.0, 2.0)).collect();
        if points.zeros && trial % 2 == 1 {
            let a = rng.below(8) as usize;
            x[a] = 0.0;
            if trial % 3 == 0 {
                x[(a + 3) % 8] = 0.0;
            }
        }
        let u: Vec<f64> = (0..8).map(|_| rng.range(-1.0, 1.0)).collect();
        let v: Vec<f64> = (0..p).map(|_| rng.range(-1.0, 1.0)).collect();
        // Indices 0..4, sometimes out of bounds (-1 or 4).
        let js: Vec<i64> = (0..8).map(|_| rng.below(6) - 1).collect();
        let ks: Vec<i64> = (0..4).map(|_| rng.below(points.ks_below)).collect();
        let run = |x: &[f64]| -> Vec<Vec<f64>> {
            let args = vec![
                literal(x, "f64"),
                literal(&u, "f64"),
                literal(&v, "f64"),
                literal(&js, "i64"),
                literal(&ks, "i64"),
                Value::scalar(2i64),
            ];
            interp::run_function(&prog, "main", args)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .values
                .iter()
                .map(floats)
                .collect()
        };
        check_point(
            &format!("{name} at {x:?}, js {js:?}, ks {ks:?}"),
            &x,
            &u,
            &v,
            run,
        );
    }
}
