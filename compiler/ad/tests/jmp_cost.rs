//! Cost of forward mode over many seeds (`jmp f x u̇s`, lowered to
//! `map (\u̇ -> jvp f x u̇) u̇s`), measured with the IR interpreter's
//! operation counter (scalar operations + array elements read + written)
//! after the AD pass and the optimiser's clean-up.
//!
//! `f` has the shape of the function of the `mjp` figure in `docs/ad.md`: a loop of 10
//! iterations of a map, then a scan, then a map, over 8 elements. One
//! `jvp` costs the primal plus one tangent sweep. A map of `jvp` over 8
//! seeds expanded once for all seeds must cost about the primal plus 8
//! tangent sweeps; before, the loop and the SOACs (which carry values and
//! tangents together) ran the primal once per seed, costing about 8 whole
//! `jvp`s, which the same map with a seed that is not a bare row of the
//! map still does (the `each` function).

use ir::pass::{PipelineConfig, run_pipeline};
use ir::{interp, parse};
use values::Value;

/// The body of `f` over `{z}: [8]f64`, result `d`.
const F: &str = "
    let (l: [8]f64) = loop (a: [8]f64 = {z}) for i: i64 < 10i64 {
      let (b: [8]f64) = screma(8i64, a)
        map(\\(e: f64) -> (f64) {
          let s: f64 = sin(e)
          let m: f64 = mul(s, 0.5f64)
          let r: f64 = add(m, e)
          in (r)
        })
      in (b)
    }
    let (c: [8]f64) = screma(8i64, l)
      scan(\\(p: f64, q: f64) -> (f64) {
        let pq: f64 = add(p, q)
        in (pq)
      }, 0.0f64)
      map(\\(e2: f64) -> (f64) {
        in (e2)
      })
    let (d: [8]f64) = screma(8i64, l, c)
      map(\\(e3: f64, g: f64) -> (f64) {
        let eg: f64 = mul(e3, g)
        in (eg)
      })";

/// `\(z: [8]f64) -> ([8]f64) { f }`.
fn lambda() -> String {
    format!(
        "\\(z: [8]f64) -> ([8]f64) {{{}\n    in (d)\n  }}",
        F.replace("{z}", "z")
    )
}

/// The program: `primal(x)`, `one(x, u)` (one jvp), `many(x, us)` (a map
/// of jvp over the seeds' rows) and `each(x, us)` (the same map, its seed
/// a copy of the row, which keeps one jvp per seed).
fn program() -> String {
    format!(
        "fun primal(x: [8]f64) -> ([8]f64) {{{}\n  in (d)\n}}\n\
         fun one(x: [8]f64, u: [8]f64) -> ([8]f64) {{\n  \
           let (y: [8]f64, t: [8]f64) = jvp({}, (x), (u))\n  in (t)\n}}\n\
         fun many(x: [8]f64, us: [8][8]f64) -> ([8][8]f64) {{\n  \
           let (ts: [8][8]f64) = screma(8i64, us)\n    map(\\(u: [8]f64) -> ([8]f64) {{\n      \
             let (y: [8]f64, t: [8]f64) = jvp({}, (x), (u))\n      in (t)\n    }})\n  in (ts)\n}}\n\
         fun each(x: [8]f64, us: [8][8]f64) -> ([8][8]f64) {{\n  \
           let (ts: [8][8]f64) = screma(8i64, us)\n    map(\\(u: [8]f64) -> ([8]f64) {{\n      \
             let v: [8]f64 = copy(u)\n      \
             let (y: [8]f64, t: [8]f64) = jvp({}, (x), (v))\n      in (t)\n    }})\n  in (ts)\n}}\n",
        F.replace("{z}", "x"),
        lambda(),
        lambda(),
        lambda()
    )
}

fn vector(xs: &[f64]) -> Value {
    Value::vector(xs.to_vec())
}

/// 8 seeds: the unit vectors in a scrambled order, scaled.
fn seeds() -> Value {
    let mut data = vec![0.0; 64];
    for s in 0..8 {
        data[s * 8 + (s * 3) % 8] = 1.0 + s as f64 * 0.25;
    }
    Value::array(vec![8, 8], data).expect("shape matches")
}

/// The operation counts of `name` on `args`, and its results as text.
fn run(prog: &ir::Program, name: &str, args: Vec<Value>) -> (interp::Counters, Vec<String>) {
    let out = interp::run_function(prog, name, args).unwrap_or_else(|e| panic!("{name}: {e}"));
    let c = out.counters;
    (c, out.values.iter().map(|v| v.to_string()).collect())
}

#[test]
fn jmp_runs_the_primal_once_for_all_seeds() {
    let text = program();
    let prog = parse::parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let passes = [
        ad::AD_PASS,
        opt::simplify::PASS,
        opt::fusion::PASS,
        opt::simplify::PASS,
    ];
    let prog = run_pipeline(&passes, prog, PipelineConfig { validate: true })
        .unwrap_or_else(|e| panic!("{e}"));
    let x = vector(&[0.3, -1.2, 0.8, 2.0, -0.4, 1.1, 0.05, -2.2]);
    let (primal, _) = run(&prog, "primal", vec![x.clone()]);
    let u = vector(&[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    let (one, _) = run(&prog, "one", vec![x.clone(), u]);
    let (many, many_out) = run(&prog, "many", vec![x.clone(), seeds()]);
    let (each, each_out) = run(&prog, "each", vec![x, seeds()]);
    assert_eq!(many_out, each_out, "the two maps must agree");
    println!(
        "primal {primal:?}\none jvp {one:?}\n8 seeds at once {many:?}\none jvp per seed {each:?}"
    );
    let total = |c: &interp::Counters| c.scalar_ops + c.reads + c.writes;
    // Scalar operations: at most one primal and 8 tangent sweeps (fewer,
    // as the partial derivatives, cos(e) say, are computed once for all
    // seeds), about half of one jvp per seed.
    let sweep = one.scalar_ops - primal.scalar_ops;
    let ideal = primal.scalar_ops + 8 * sweep;
    assert!(sweep > 0, "the tangent sweep must cost something");
    assert!(
        many.scalar_ops <= ideal,
        "8 seeds: {} scalar operations, more than one primal + 8 sweeps ({ideal})",
        many.scalar_ops
    );
    assert!(
        2 * many.scalar_ops <= each.scalar_ops + each.scalar_ops / 10,
        "8 seeds at once ({}) must cost about half as many scalar operations as one jvp per seed ({})",
        many.scalar_ops,
        each.scalar_ops
    );
    // All operations (with elements read and written): a tangent row
    // handed to the map over the seeds is counted when the enclosing map
    // reads it and again when the map over the seeds reads its elements
    // (likewise for writes), so the tangents of 8 seeds held together
    // read and write about twice the elements of 8 separate sweeps; the
    // total stays within 1.3 times one primal and 8 sweeps, and well
    // under 8 jvps.
    let sweep = total(&one) - total(&primal);
    let ideal = total(&primal) + 8 * sweep;
    assert!(
        total(&many) as f64 <= 1.3 * ideal as f64,
        "8 seeds: {} operations, more than 1.3 x (one primal + 8 sweeps = {ideal})",
        total(&many)
    );
    assert!(
        total(&each) as f64 >= 1.3 * total(&many) as f64,
        "one jvp per seed ({}) must cost well over one pass for all seeds ({})",
        total(&each),
        total(&many)
    );
}
