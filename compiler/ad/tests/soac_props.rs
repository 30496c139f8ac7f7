//! Property tests of the SOAC rules on random `f64` inputs. For a function
//! `f: [8]f64 -> [P]f64` built from one SOAC, at random points `x` with
//! random directions `u` and adjoint seeds `v`:
//! - reverse mode against forward mode: ⟨v, J·u⟩ (from `jvp`) equals
//!   ⟨Jᵀ·v, u⟩ (from `vjp`);
//! - forward mode against central finite differences:
//!   ⟨v, J·u⟩ ≈ ⟨v, (f(x + h·u) − f(x − h·u)) / 2h⟩.
//!
//! Every function may use the index arrays `js: [8]i64` (buckets and
//! scatter targets, some out of bounds) and `ks: [4]i64`, and `two: i64`
//! (2, a size the compiler does not know), as free variables.

mod support;
use support::{Points, check_body};

/// Checks `body` (results `{p}r: [p]f64`) at six random points.
/// `zeros` puts exact zeros into some inputs (for the zero-counting rules).
fn check(name: &str, body: &str, p: usize, zeros: bool) {
    let points = Points {
        seed: 0x5eed,
        ks_below: 8,
        zeros,
    };
    check_body(name, body, p, points);
}

/// `{p}r: [4]f64`, the destination of the histograms: `0.5·x[j] + 1`.
const DEST: &str = "    let ({p}d: [4]f64) = screma(4i64)
      map(\\({p}dj: i64) -> (f64) {
        let {p}dx: f64 = {p}x[{p}dj]
        let {p}dh: f64 = mul({p}dx, 0.5f64)
        let {p}dv: f64 = add({p}dh, 1.0f64)
        in ({p}dv)
      })";

/// A histogram of `sin(x)` into `js` with the scalar operator `op` (a body
/// computing `{p}c` from `{p}a`, `{p}b`) and neutral element `ne`.
fn hist(op: &str, ne: &str) -> String {
    format!(
        "{DEST}
    let ({{p}}r: [4]f64) = hist(8i64, js, {{p}}x)
      into(({{p}}d), ({ne}), \\({{p}}a: f64, {{p}}b: f64) -> (f64) {{
{op}
        in ({{p}}c)
      }})
      map(\\({{p}}j: i64, {{p}}e: f64) -> (i64, f64) {{
        let {{p}}s: f64 = sin({{p}}e)
        in ({{p}}j, {{p}}s)
      }})"
    )
}

/// A reduction (`kind` "reduce") or scan ("scan") of `sin(x)` with the
/// scalar operator `op`; the results are `[1]f64` or `[8]f64`.
fn scanred(kind: &str, op: &str, ne: &str) -> String {
    let (ty, tail) = if kind == "scan" {
        ("[8]f64", "    let {p}r: [8]f64 = {p}y")
    } else {
        ("f64", "    let {p}r: [1]f64 = replicate([1], {p}y)")
    };
    format!(
        "    let ({{p}}y: {ty}) = screma(8i64, {{p}}x)
      {kind}(\\({{p}}a: f64, {{p}}b: f64) -> (f64) {{
{op}
        in ({{p}}c)
      }}, {ne})
      map(\\({{p}}e: f64) -> (f64) {{
        let {{p}}s: f64 = sin({{p}}e)
        in ({{p}}s)
      }})
{tail}"
    )
}

const ADD: &str = "        let {p}c: f64 = add({p}a, {p}b)";
const MUL: &str = "        let {p}c: f64 = mul({p}a, {p}b)";
const MIN: &str = "        let {p}le: bool = le({p}a, {p}b)
        let {p}c: f64 = if {p}le then {
          in ({p}a)
        } else {
          in ({p}b)
        }";
const MAX: &str = "        let {p}c: f64 = max({p}a, {p}b)";
/// a ⊙ b = a + b + a·b, associative with neutral 0.
const GEN: &str = "        let {p}ab: f64 = mul({p}a, {p}b)
        let {p}s0: f64 = add({p}a, {p}b)
        let {p}c: f64 = add({p}s0, {p}ab)";

#[test]
fn histograms() {
    check("hist +", &hist(ADD, "0.0f64"), 4, false);
    check("hist *", &hist(MUL, "1.0f64"), 4, true);
    check("hist min", &hist(MIN, "f64.inf"), 4, false);
    check("hist max", &hist(MAX, "-f64.inf"), 4, false);
    check("hist general", &hist(GEN, "0.0f64"), 4, false);
}

/// Pairs (x[2i], x[2i+1]) combined as affine maps, (a, b) then (c, d) =
/// (a·c, b·c + d): associative, not commutative. `kind` is "scan",
/// "reduce" or "hist" (into buckets `ks`).
fn pairs(kind: &str) -> String {
    let op = "\\({p}a1: f64, {p}b1: f64, {p}a2: f64, {p}b2: f64) -> (f64, f64) {
        let {p}ac: f64 = mul({p}a1, {p}a2)
        let {p}bc: f64 = mul({p}b1, {p}a2)
        let {p}bcd: f64 = add({p}bc, {p}b2)
        in ({p}ac, {p}bcd)
      }";
    let split = "    let ({p}p1: [4]f64, {p}p2: [4]f64) = screma(4i64)
      map(\\({p}i: i64) -> (f64, f64) {
        let {p}i2: i64 = mul({p}i, 2i64)
        let {p}i3: i64 = add({p}i2, 1i64)
        let {p}e1: f64 = {p}x[{p}i2]
        let {p}e2: f64 = {p}x[{p}i3]
        in ({p}e1, {p}e2)
      })";
    let map = "map(\\({p}q1: f64, {p}q2: f64) -> (f64, f64) {
        in ({p}q1, {p}q2)
      })";
    let concat = "    let {p}r: [8]f64 = concat(0, [8], {p}s1, {p}s2)";
    match kind {
        "scan" => format!(
            "{split}
    let ({{p}}s1: [4]f64, {{p}}s2: [4]f64) = screma(4i64, {{p}}p1, {{p}}p2)
      scan({op}, 1.0f64, 0.0f64)
      {map}
{concat}"
        ),
        "reduce" => format!(
            "{split}
    let ({{p}}t1: f64, {{p}}t2: f64) = screma(4i64, {{p}}p1, {{p}}p2)
      reduce({op}, 1.0f64, 0.0f64)
      {map}
    let {{p}}r0: [2]f64 = replicate([2], {{p}}t1)
    let {{p}}r: [2]f64 = {{p}}r0 with [1i64] = {{p}}t2"
        ),
        _ => format!(
            "{split}
    let {{p}}z1: [4]f64 = replicate([4], 1.0f64)
    let {{p}}z2: [4]f64 = copy({{p}}p2)
    let ({{p}}s1: [4]f64, {{p}}s2: [4]f64) = hist(4i64, ks, {{p}}p1, {{p}}p2)
      into(({{p}}z1, {{p}}z2), (1.0f64, 0.0f64), {op})
      map(\\({{p}}j: i64, {{p}}q1: f64, {{p}}q2: f64) -> (i64, f64, f64) {{
        let {{p}}jm: i64 = mod({{p}}j, 5i64)
        in ({{p}}jm, {{p}}q1, {{p}}q2)
      }})
{concat}"
        ),
    }
}

#[test]
fn reductions_and_scans() {
    check("reduce +", &scanred("reduce_comm", ADD, "0.0f64"), 1, false);
    check("reduce *", &scanred("reduce_comm", MUL, "1.0f64"), 1, true);
    check(
        "reduce max",
        &scanred("reduce_comm", MAX, "-f64.inf"),
        1,
        false,
    );
    check(
        "reduce general",
        &scanred("reduce", GEN, "0.0f64"),
        1,
        false,
    );
    check("scan +", &scanred("scan", ADD, "0.0f64"), 8, false);
    check("scan *", &scanred("scan", MUL, "1.0f64"), 8, true);
    check("scan general", &scanred("scan", GEN, "0.0f64"), 8, false);
    check("scan pairs", &pairs("scan"), 8, false);
    check("reduce pairs", &pairs("reduce"), 2, false);
    check("hist pairs", &pairs("hist"), 8, false);
}

/// Rows of two, `xs` as a [4][2] array, combined with `map2 (*)` by
/// `kind` ("scan", "reduce" or "hist" into buckets `ks`).
fn rows(kind: &str) -> String {
    let op = "\\({p}ra: [2]f64, {p}rb: [2]f64) -> ([2]f64) {
        let {p}m: [2]f64 = screma(2i64, {p}ra, {p}rb)
          map(\\({p}a: f64, {p}b: f64) -> (f64) {
            let {p}c: f64 = mul({p}a, {p}b)
            in ({p}c)
          })
        in ({p}m)
      }";
    let rows = "    let {p}xr: [4][2]f64 = reshape([4][2], {p}x)
    let {p}one: [2]f64 = replicate([2], 1.0f64)";
    match kind {
        "scan" => format!(
            "{rows}
    let ({{p}}s: [4][2]f64) = screma(4i64, {{p}}xr)
      scan({op}, {{p}}one)
      map(\\({{p}}q: [2]f64) -> ([2]f64) {{
        in ({{p}}q)
      }})
    let {{p}}r: [8]f64 = reshape([8], {{p}}s)"
        ),
        "reduce" => format!(
            "{rows}
    let ({{p}}s: [2]f64) = screma(4i64, {{p}}xr)
      reduce_comm({op}, {{p}}one)
      map(\\({{p}}q: [2]f64) -> ([2]f64) {{
        in ({{p}}q)
      }})
    let {{p}}r: [2]f64 = copy({{p}}s)"
        ),
        _ => format!(
            "{rows}
    let {{p}}z: [3][2]f64 = replicate([3], {{p}}one)
    let ({{p}}s: [3][2]f64) = hist(4i64, ks, {{p}}xr)
      into(({{p}}z), ({{p}}one), {op})
      map(\\({{p}}j: i64, {{p}}q: [2]f64) -> (i64, [2]f64) {{
        let {{p}}jm: i64 = mod({{p}}j, 4i64)
        in ({{p}}jm, {{p}}q)
      }})
    let {{p}}r: [6]f64 = reshape([6], {{p}}s)"
        ),
    }
}

#[test]
fn elementwise_operators() {
    check("scan map2 (*)", &rows("scan"), 8, true);
    check("reduce map2 (*)", &rows("reduce"), 2, true);
    check("hist map2 (*)", &rows("hist"), 6, true);
}

#[test]
fn scatter_and_gather() {
    // Scatter sin(x) into a destination made from x at js (duplicates and
    // out-of-bounds indices included).
    let scatter = format!(
        "{DEST}
    let {{p}}r: [4]f64 = scatter(8i64, js, {{p}}x)
      into({{p}}d@1)
      map(\\({{p}}j: i64, {{p}}e: f64) -> (i64, f64) {{
        let {{p}}s: f64 = sin({{p}}e)
        in ({{p}}j, {{p}}s)
      }})"
    );
    check("scatter", &scatter, 4, false);
    // Gather x at ks, times x.
    let gather = "    let ({p}r: [4]f64) = screma(4i64, ks)
      map(\\({p}k: i64, {p}i: i64) -> (f64) {
        let {p}g: f64 = {p}x[{p}k]
        let {p}h: f64 = {p}x[{p}i]
        let {p}c: f64 = mul({p}g, {p}h)
        in ({p}c)
      })";
    check("gather", gather, 4, false);
}

/// Rows of two combined as affine maps, [a, b] then [c, d] = [a·c, b·c + d]
/// (an operator on whole rows, not elementwise), scanned; rows of type
/// `[2]f64` (`dim` "2") or of a size known only at run time (`dim` "two").
fn affine_rows(dim: &str) -> String {
    format!(
        "    let {{p}}xr: [4][{dim}]f64 = reshape([4][{dim}], {{p}}x)
    let {{p}}z: [{dim}]f64 = replicate([{dim}], 0.0f64)
    let {{p}}z0: [{dim}]f64 = copy({{p}}z)
    let {{p}}ne: [{dim}]f64 = {{p}}z0 with [0i64] = 1.0f64
    let ({{p}}s: [4][{dim}]f64) = screma(4i64, {{p}}xr)
      scan(\\({{p}}ra: [{dim}]f64, {{p}}rb: [{dim}]f64) -> ([{dim}]f64) {{
        let {{p}}a: f64 = {{p}}ra[0i64]
        let {{p}}b: f64 = {{p}}ra[1i64]
        let {{p}}c: f64 = {{p}}rb[0i64]
        let {{p}}d: f64 = {{p}}rb[1i64]
        let {{p}}ac: f64 = mul({{p}}a, {{p}}c)
        let {{p}}bc: f64 = mul({{p}}b, {{p}}c)
        let {{p}}bcd: f64 = add({{p}}bc, {{p}}d)
        let {{p}}o: [{dim}]f64 = copy({{p}}z)
        let {{p}}o1: [{dim}]f64 = {{p}}o with [0i64] = {{p}}ac
        let {{p}}o2: [{dim}]f64 = {{p}}o1 with [1i64] = {{p}}bcd
        in ({{p}}o2)
      }}, {{p}}ne)
      map(\\({{p}}q: [{dim}]f64) -> ([{dim}]f64) {{
        in ({{p}}q)
      }})
    let {{p}}r: [8]f64 = reshape([8], {{p}}s)"
    )
}

#[test]
fn row_operators() {
    check("scan rows [2]", &affine_rows("2"), 8, false);
    check("scan rows [two]", &affine_rows("two"), 8, false);
}

/// A map over seeds of a `vjp` whose function and point do not depend on
/// the map (the shape `mjp` lowers to, whose forward sweep is emitted once
/// before the map): the gradient of `Π sin(x)` read at `ks`, scaled by a
/// seed that depends on the map. Differentiated again in both modes.
#[test]
fn map_over_seeds() {
    let body = "    let ({p}r: [4]f64) = screma(4i64, ks)
      map(\\({p}k: i64) -> (f64) {
        let {p}kf: f64 = to_f64({p}k)
        let {p}sd: f64 = mul({p}kf, 0.5f64)
        let ({p}y: f64, {p}g: [8]f64) = vjp(\\({p}z: [8]f64) -> (f64) {
          let ({p}s: f64) = screma(8i64, {p}z)
            reduce_comm(\\({p}a: f64, {p}b: f64) -> (f64) {
              let {p}c: f64 = mul({p}a, {p}b)
              in ({p}c)
            }, 1.0f64)
            map(\\({p}e: f64) -> (f64) {
              let {p}se: f64 = sin({p}e)
              in ({p}se)
            })
          in ({p}s)
        }, ({p}x), ({p}sd))
        let {p}gk: f64 = {p}g[{p}k]
        in ({p}gk)
      })";
    check("map of vjp", body, 4, false);
}

/// a ⊙ b = a + b + c·a·b with `c = x[0]` free in the operator: the
/// operator's dependence on `c` must reach `x[0]`'s adjoint (summed over
/// every application of the operator).
#[test]
fn operators_closing_over_inputs() {
    let genc = "        let {p}ab: f64 = mul({p}a, {p}b)
        let {p}cab: f64 = mul({p}cv, {p}ab)
        let {p}s0: f64 = add({p}a, {p}b)
        let {p}c: f64 = add({p}s0, {p}cab)";
    let cv = "    let {p}cv0: f64 = {p}x[0i64]
    let {p}cv: f64 = mul({p}cv0, 0.3f64)\n";
    check(
        "reduce closure",
        &format!("{cv}{}", scanred("reduce", genc, "0.0f64")),
        1,
        false,
    );
    check(
        "scan closure",
        &format!("{cv}{}", scanred("scan", genc, "0.0f64")),
        8,
        false,
    );
    check(
        "hist closure",
        &format!("{cv}{}", hist(genc, "0.0f64")),
        4,
        false,
    );
}
