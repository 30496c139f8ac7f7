//! Property tests of AD through accumulators (`with_acc`, `update_acc`):
//! for a function `f: [8]f64 -> [P]f64` whose body accumulates into arrays,
//! at random points `x` with random directions `u` and adjoint seeds `v`,
//! reverse mode agrees with forward mode (⟨v, J·u⟩ from `jvp` equals
//! ⟨Jᵀ·v, u⟩ from `vjp`), and forward mode with central finite
//! differences. The index arrays `js: [8]i64` (some out of bounds) and
//! `ks: [4]i64` are free in every function (see `support`).

use ir::parse;

mod support;
use support::{Points, check_body, program};

/// Checks `body` (results `[p]f64`) at six random points.
fn check(name: &str, body: &str, p: usize) {
    let points = Points {
        seed: 0xacc,
        ks_below: 4,
        zeros: false,
    };
    check_body(name, body, p, points);
}

/// `\(c, d) -> c + d` on `f64`, the operator of a summing accumulator.
const PLUS: &str = "op(\\({p}c: f64, {p}d: f64) -> (f64) {
      let {p}e: f64 = add({p}c, {p}d)
      in ({p}e)
    }, 0.0f64)";

#[test]
fn summing_accumulator_in_a_map() {
    // r[js[i]] += x[i]·sin(x[ks[i mod 4]]) over a destination 0.5·x[0..4].
    let body = format!(
        "    let {{p}}z: [4]f64 = {{p}}x[0i64:+4i64*1i64]
    let {{p}}zc: [4]f64 = copy({{p}}z)
    let ({{p}}r: [4]f64) = with_acc({{p}}zc {PLUS}) \\({{p}}a0: acc([4]f64)) -> (acc([4]f64)) {{
      let {{p}}a1: acc([4]f64) = screma(8i64, {{p}}x, js, {{p}}a0)
        map(\\({{p}}y: f64, {{p}}j: i64, {{p}}ac: acc([4]f64), {{p}}i: i64) -> (acc([4]f64)) {{
          let {{p}}m: i64 = mod({{p}}i, 4i64)
          let {{p}}k: i64 = ks[{{p}}m]
          let {{p}}xk: f64 = {{p}}x[{{p}}k]
          let {{p}}s: f64 = sin({{p}}xk)
          let {{p}}w: f64 = mul({{p}}y, {{p}}s)
          let {{p}}ac2: acc([4]f64) = update_acc({{p}}ac, ({{p}}j), {{p}}w)
          in ({{p}}ac2)
        }})
      in ({{p}}a1)
    }}"
    );
    check("map", &body, 4);
}

#[test]
fn accumulator_shared_by_nested_maps_and_rows() {
    // Nested maps share one accumulator of rows: row ks[i] gets
    // (x[i]·x[j], x[j]²) for every j < 8 with js[j] in bounds.
    let body = format!(
        "    let {{p}}z: [4][2]f64 = replicate([4][2], 0.0f64)
    let ({{p}}q: [4][2]f64) = with_acc({{p}}z {PLUS}) \\({{p}}a0: acc([4][2]f64)) -> (acc([4][2]f64)) {{
      let {{p}}a1: acc([4][2]f64) = screma(4i64, ks, {{p}}a0)
        map(\\({{p}}k: i64, {{p}}ac: acc([4][2]f64), {{p}}i: i64) -> (acc([4][2]f64)) {{
          let {{p}}xi: f64 = {{p}}x[{{p}}i]
          let {{p}}ac3: acc([4][2]f64) = screma(8i64, {{p}}x, js, {{p}}ac)
            map(\\({{p}}y: f64, {{p}}j: i64, {{p}}bc: acc([4][2]f64)) -> (acc([4][2]f64)) {{
              let {{p}}ok: bool = le(0i64, {{p}}j)
              let {{p}}bc3: acc([4][2]f64) = if {{p}}ok then {{
                let {{p}}w: f64 = mul({{p}}xi, {{p}}y)
                let {{p}}w2: f64 = mul({{p}}y, {{p}}y)
                let {{p}}row: [2]f64 = replicate([2], {{p}}w)
                let {{p}}row2: [2]f64 = {{p}}row with [1i64] = {{p}}w2
                let {{p}}bc2: acc([4][2]f64) = update_acc({{p}}bc, ({{p}}k), {{p}}row2)
                in ({{p}}bc2)
              }} else {{
                in ({{p}}bc)
              }}
              in ({{p}}bc3)
            }})
          in ({{p}}ac3)
        }})
      in ({{p}}a1)
    }}
    let {{p}}r: [8]f64 = reshape([8], {{p}}q)"
    );
    check("nested", &body, 8);
}

#[test]
fn accumulator_through_a_loop_and_overwrites() {
    // A loop adds x[i]·x[i+1] at js[i]; an overwriting accumulator over
    // x[4..8] is written at ks[0] and then ks[1] (the later write wins when
    // they are equal), with products of x.
    let body = format!(
        "    let {{p}}z: [4]f64 = replicate([4], 1.0f64)
    let {{p}}b: [4]f64 = {{p}}x[4i64:+4i64*1i64]
    let {{p}}bc: [4]f64 = copy({{p}}b)
    let ({{p}}s: [4]f64, {{p}}o: [4]f64) = with_acc({{p}}z {PLUS}, {{p}}bc) \\({{p}}a0: acc([4]f64), {{p}}w0: acc([4]f64)) -> (acc([4]f64), acc([4]f64)) {{
      let {{p}}a1: acc([4]f64) = loop ({{p}}ac: acc([4]f64) = {{p}}a0) for {{p}}i: i64 < 7i64 {{
        let {{p}}y: f64 = {{p}}x[{{p}}i]
        let {{p}}i1: i64 = add({{p}}i, 1i64)
        let {{p}}y1: f64 = {{p}}x[{{p}}i1]
        let {{p}}m: f64 = mul({{p}}y, {{p}}y1)
        let {{p}}j: i64 = js[{{p}}i]
        let {{p}}ac2: acc([4]f64) = update_acc({{p}}ac, ({{p}}j), {{p}}m)
        in ({{p}}ac2)
      }}
      let {{p}}k0: i64 = ks[0i64]
      let {{p}}k1: i64 = ks[1i64]
      let {{p}}x0: f64 = {{p}}x[0i64]
      let {{p}}x1: f64 = {{p}}x[1i64]
      let {{p}}e0: f64 = mul({{p}}x0, {{p}}x1)
      let {{p}}w1: acc([4]f64) = update_acc({{p}}w0, ({{p}}k0), {{p}}e0)
      let {{p}}e1: f64 = exp({{p}}x1)
      let {{p}}w2: acc([4]f64) = update_acc({{p}}w1, ({{p}}k1), {{p}}e1)
      in ({{p}}a1, {{p}}w2)
    }}
    let {{p}}r: [8]f64 = concat(0, [8], {{p}}s, {{p}}o)"
    );
    check("loop_overwrite", &body, 8);
}

/// The message with which the AD pass stops on `body`.
fn ad_error(body: &str) -> String {
    let text = program(body, 4);
    let prog = parse::parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    match ad::expand_ad(prog) {
        Ok(_) => panic!("the AD pass accepted\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn accumulators_without_a_reverse_rule_are_errors() {
    // An accumulator multiplying: no reverse rule.
    let times = "    let {p}z: [4]f64 = replicate([4], 1.0f64)
    let ({p}r: [4]f64) = with_acc({p}z op(\\({p}c: f64, {p}d: f64) -> (f64) {
      let {p}e: f64 = mul({p}c, {p}d)
      in ({p}e)
    }, 1.0f64)) \\({p}a0: acc([4]f64)) -> (acc([4]f64)) {
      let {p}y: f64 = {p}x[0i64]
      let {p}a1: acc([4]f64) = update_acc({p}a0, (1i64), {p}y)
      in ({p}a1)
    }";
    let e = ad_error(times);
    assert!(e.contains("operator is not `+`"), "{e}");
    // Overwrites inside a map: which write wins depends on the order.
    let map = "    let {p}z: [4]f64 = replicate([4], 1.0f64)
    let ({p}r: [4]f64) = with_acc({p}z) \\({p}a0: acc([4]f64)) -> (acc([4]f64)) {
      let {p}a1: acc([4]f64) = screma(8i64, {p}x, js, {p}a0)
        map(\\({p}y: f64, {p}j: i64, {p}ac: acc([4]f64)) -> (acc([4]f64)) {
          let {p}ac2: acc([4]f64) = update_acc({p}ac, ({p}j), {p}y)
          in ({p}ac2)
        })
      in ({p}a1)
    }";
    let e = ad_error(map);
    assert!(
        e.contains("overwriting accumulator updated inside a map"),
        "{e}"
    );
}
