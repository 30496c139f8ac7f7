//! Reverse mode against forward mode: for a function `f` with Jacobian
//! `J`, ⟨v, J·u⟩ (from `jvp`) must equal ⟨Jᵀ·v, u⟩ (from `vjp`).

use ir::pass::{PipelineConfig, run_pipeline};
use ir::{interp, parse};
use values::Value;

/// Runs `main` after the AD pass and reads its `f64` results.
fn run(text: &str, args: &[f64]) -> Vec<f64> {
    let prog = parse::parse_program(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let prog = run_pipeline(&[ad::AD_PASS], prog, PipelineConfig { validate: true })
        .unwrap_or_else(|e| panic!("{e}"));
    interp::run_function(
        &prog,
        "main",
        args.iter().map(|x| Value::scalar(*x)).collect(),
    )
    .unwrap_or_else(|e| panic!("{e}"))
    .values
    .iter()
    .map(|v| v.to_string().trim_end_matches("f64").parse().unwrap())
    .collect()
}

/// `body` computes results `r1`, `r2` from parameters `a`, `b`; every
/// variable it binds is written `{p}name`.
fn check(body: &str, point: [f64; 2], u: [f64; 2], v: [f64; 2]) {
    let lam = |p: &str| {
        format!(
            "\\({p}a: f64, {p}b: f64) -> (f64, f64) {{\n{}\n    in ({p}r1, {p}r2)\n  }}",
            body.replace("{p}", p)
        )
    };
    let text = format!(
        "fun main(x: f64, y: f64, u1: f64, u2: f64, v1: f64, v2: f64) -> (f64, f64, f64, f64) {{\n  \
         let (p1: f64, p2: f64, t1: f64, t2: f64) = jvp({}, (x, y), (u1, u2))\n  \
         let (q1: f64, q2: f64, g1: f64, g2: f64) = vjp({}, (x, y), (v1, v2))\n  \
         in (t1, t2, g1, g2)\n}}\n",
        lam("f_"),
        lam("r_")
    );
    let args = [point[0], point[1], u[0], u[1], v[0], v[1]];
    let got = run(&text, &args);
    let fwd = v[0] * got[0] + v[1] * got[1];
    let rev = got[2] * u[0] + got[3] * u[1];
    assert!(
        (fwd - rev).abs() <= 1e-9 * (1.0 + fwd.abs()),
        "{body}: <v, Ju> = {fwd}, <J^T v, u> = {rev}"
    );
}

#[test]
fn vjp_agrees_with_jvp() {
    let bodies = [
        // Scalar operations and math functions.
        "    let {p}m: f64 = mul({p}a, {p}b)
    let {p}s: f64 = sin({p}m)
    let {p}r1: f64 = div({p}s, {p}b)
    let {p}e: f64 = exp({p}a)
    let {p}l: f64 = log({p}b)
    let {p}r2: f64 = atan2({p}e, {p}l)",
        // A loop and a conditional.
        "    let ({p}r1: f64, {p}w: f64) = loop ({p}c: f64 = {p}a, {p}d: f64 = {p}b) for {p}i: i64 < 4i64 {
      let {p}c1: f64 = mul({p}c, {p}d)
      let {p}c2: f64 = sin({p}c1)
      let {p}d1: f64 = add({p}d, {p}c2)
      in ({p}c2, {p}d1)
    }
    let {p}pos: bool = gt({p}w, 0.0f64)
    let ({p}r2: f64) = if {p}pos then {
      let {p}q: f64 = mul({p}w, {p}a)
      in ({p}q)
    } else {
      let {p}q2: f64 = sqrt({p}b)
      in ({p}q2)
    }",
        // Arrays: replicate, a map closing over a parameter, a sum, an index.
        "    let {p}xs: [4]f64 = replicate([4], {p}a)
    let ({p}ys: [4]f64) = screma(4i64, {p}xs)
      map(\\({p}x: f64, {p}j: i64) -> (f64) {
        let {p}jf: f64 = to_f64({p}j)
        let {p}xj: f64 = mul({p}x, {p}jf)
        let {p}y: f64 = mul({p}xj, {p}b)
        in ({p}y)
      })
    let ({p}r1: f64) = screma(4i64, {p}ys)
      reduce_comm(\\({p}s1: f64, {p}s2: f64) -> (f64) {
        let {p}s3: f64 = add({p}s1, {p}s2)
        in ({p}s3)
      }, 0.0f64)
      map(\\({p}z: f64) -> (f64) {
        in ({p}z)
      })
    let {p}y2: f64 = {p}ys[2i64]
    let {p}r2: f64 = mul({p}y2, {p}y2)",
        // Reductions: a product, a maximum and a general operator on pairs.
        "    let ({p}xs: [4]f64) = screma(4i64)
      map(\\({p}j: i64) -> (f64) {
        let {p}jf: f64 = to_f64({p}j)
        let {p}jb: f64 = mul({p}jf, {p}b)
        let {p}x: f64 = add({p}a, {p}jb)
        in ({p}x)
      })
    let ({p}pr: f64, {p}mx: f64, {p}ys: [4]f64) = screma(4i64, {p}xs)
      reduce_comm(\\({p}u: f64, {p}v: f64) -> (f64) {
        let {p}uv: f64 = mul({p}u, {p}v)
        in ({p}uv)
      }, 1.0f64)
      reduce_comm(\\({p}u2: f64, {p}v2: f64) -> (f64) {
        let {p}w2: f64 = max({p}u2, {p}v2)
        in ({p}w2)
      }, -10.0f64)
      map(\\({p}z: f64) -> (f64, f64, f64) {
        let {p}zb: f64 = mul({p}z, {p}b)
        let {p}sz: f64 = sin({p}zb)
        in ({p}z, {p}sz, {p}sz)
      })
    let {p}r1: f64 = mul({p}pr, {p}mx)
    let ({p}s1: f64, {p}r2: f64) = screma(4i64, {p}xs, {p}ys)
      reduce(\\({p}a1: f64, {p}b1: f64, {p}a2: f64, {p}b2: f64) -> (f64, f64) {
        let {p}ac: f64 = mul({p}a1, {p}a2)
        let {p}bc: f64 = mul({p}b1, {p}a2)
        let {p}bcd: f64 = add({p}bc, {p}b2)
        in ({p}ac, {p}bcd)
      }, 1.0f64, 0.0f64)
      map(\\({p}e1: f64, {p}e2: f64) -> (f64, f64) {
        in ({p}e1, {p}e2)
      })",
        // Scans: `*` and `+` fused, and a ⊙ b = a + b + a·b.
        "    let ({p}xs: [3]f64) = screma(3i64)
      map(\\({p}j: i64) -> (f64) {
        let {p}jf: f64 = to_f64({p}j)
        let {p}jb: f64 = mul({p}jf, {p}b)
        let {p}x: f64 = add({p}a, {p}jb)
        in ({p}x)
      })
    let ({p}ps: [3]f64, {p}ss: [3]f64) = screma(3i64, {p}xs)
      scan(\\({p}u: f64, {p}v: f64) -> (f64) {
        let {p}uv: f64 = mul({p}u, {p}v)
        in ({p}uv)
      }, 1.0f64)
      scan(\\({p}u2: f64, {p}v2: f64) -> (f64) {
        let {p}w2: f64 = add({p}u2, {p}v2)
        in ({p}w2)
      }, 0.0f64)
      map(\\({p}z: f64) -> (f64, f64) {
        let {p}zb: f64 = mul({p}z, {p}b)
        let {p}sz: f64 = sin({p}zb)
        in ({p}z, {p}sz)
      })
    let ({p}gs: [3]f64) = screma(3i64, {p}ss)
      scan(\\({p}u3: f64, {p}v3: f64) -> (f64) {
        let {p}uv3: f64 = mul({p}u3, {p}v3)
        let {p}w3: f64 = add({p}u3, {p}v3)
        let {p}y3: f64 = add({p}w3, {p}uv3)
        in ({p}y3)
      }, 0.0f64)
      map(\\({p}z3: f64) -> (f64) {
        in ({p}z3)
      })
    let {p}p2: f64 = {p}ps[2i64]
    let {p}g1: f64 = {p}gs[1i64]
    let {p}r1: f64 = mul({p}p2, {p}g1)
    let {p}r2: f64 = {p}gs[2i64]",
        // A scatter at indices [2, 0, 2, 5] (a duplicate and an index out of
        // bounds) into a destination that is also read before the scatter.
        "    let {p}i0: [4]i64 = replicate([4], 2i64)
    let {p}i1: [4]i64 = {p}i0 with [1i64] = 0i64
    let {p}is: [4]i64 = {p}i1 with [3i64] = 5i64
    let ({p}ds: [3]f64) = screma(3i64)
      map(\\({p}j: i64) -> (f64) {
        let {p}jf: f64 = to_f64({p}j)
        let {p}x: f64 = mul({p}jf, {p}b)
        in ({p}x)
      })
    let {p}d1: f64 = {p}ds[1i64]
    let {p}rs: [3]f64 = scatter(4i64, {p}is)
      into({p}ds@1)
      map(\\({p}i: i64, {p}k: i64) -> (i64, f64) {
        let {p}kf: f64 = to_f64({p}k)
        let {p}k1: f64 = add({p}kf, 1.0f64)
        let {p}ak: f64 = mul({p}a, {p}k1)
        let {p}v: f64 = sin({p}ak)
        in ({p}i, {p}v)
      })
    let {p}y0: f64 = {p}rs[0i64]
    let {p}y1: f64 = {p}rs[1i64]
    let {p}y2: f64 = {p}rs[2i64]
    let {p}r1: f64 = mul({p}y0, {p}y2)
    let {p}y1d: f64 = mul({p}y1, {p}d1)
    let {p}r2: f64 = add({p}y1d, {p}b)",
    ];
    for body in bodies {
        check(body, [0.7, 1.3], [0.3, -1.1], [2.0, 0.5]);
        check(body, [-0.4, 2.1], [1.0, 0.25], [-1.0, 1.5]);
    }
}
