//! Static estimates of the work of one iteration of a SOAC, which decide how
//! finely a segmented operation is split into parallel chunks
//! (`par::chunk_count_cost` in the runtime): a map over 14 elements whose
//! body is a few scalar operations runs as one sequential chunk, while the
//! same map over a body with an inner loop of 1000 iterations is split.
//!
//! The unit is one IR statement of scalar work. Loops and nested SOACs
//! multiply their body's cost by their trip count where it is a constant, or
//! by [`UNKNOWN_TRIPS`] where it is known only at run time; an `if` costs its
//! dearer branch; a call costs its callee's body (functions are not
//! recursive, and the depth is bounded anyway).

use ir::{Body, Exp, Lambda, LoopForm, Operand, Program};

/// The trip count assumed for a loop or nested SOAC whose size is known only
/// at run time.
pub const UNKNOWN_TRIPS: u64 = 32;

/// How deep calls are followed before a call is given a fixed cost.
const MAX_CALL_DEPTH: usize = 8;

/// The cost of a call not followed into its callee.
const OPAQUE_CALL: u64 = 256;

/// The estimated cost of one application of `l`.
pub fn lambda_cost(prog: &Program, l: &Lambda) -> u64 {
    body_cost(prog, &l.body, 0)
}

/// The estimated cost of one iteration of screma `s`: its map and its
/// operators.
pub fn screma_cost(prog: &Program, s: &ir::Screma) -> u64 {
    screma_iteration(prog, s, 0)
}

/// The estimated cost of one iteration of hist `h`: its map and its
/// operators.
pub fn hist_cost(prog: &Program, h: &ir::Hist) -> u64 {
    hist_iteration(prog, h, 0)
}

fn screma_iteration(prog: &Program, s: &ir::Screma, depth: usize) -> u64 {
    s.scans
        .iter()
        .chain(&s.reduces)
        .map(|x| lam(prog, &x.op, depth))
        .fold(lam(prog, &s.map, depth), u64::saturating_add)
}

fn hist_iteration(prog: &Program, h: &ir::Hist, depth: usize) -> u64 {
    h.hists
        .iter()
        .map(|x| lam(prog, &x.op, depth))
        .fold(lam(prog, &h.map, depth), u64::saturating_add)
}

fn trips(o: &Operand) -> u64 {
    match o {
        Operand::Const(c) => c
            .as_i128()
            .map_or(UNKNOWN_TRIPS, |n| n.clamp(0, u64::MAX as i128) as u64),
        Operand::Var(_) => UNKNOWN_TRIPS,
    }
}

fn body_cost(prog: &Program, b: &Body, depth: usize) -> u64 {
    b.stms
        .iter()
        .map(|s| exp_cost(prog, &s.exp, depth))
        .fold(0u64, u64::saturating_add)
        .max(1)
}

fn lam(prog: &Program, l: &Lambda, depth: usize) -> u64 {
    body_cost(prog, &l.body, depth)
}

fn exp_cost(prog: &Program, e: &Exp, depth: usize) -> u64 {
    match e {
        Exp::If {
            then_body,
            else_body,
            ..
        } => 1 + body_cost(prog, then_body, depth).max(body_cost(prog, else_body, depth)),
        Exp::Loop { form, body, .. } => {
            let n = match form {
                LoopForm::For { bound, .. } => trips(bound),
                LoopForm::While { .. } => UNKNOWN_TRIPS,
            };
            n.saturating_mul(body_cost(prog, body, depth))
        }
        Exp::Screma(s) => trips(&s.w).saturating_mul(screma_iteration(prog, s, depth)),
        Exp::Hist(h) => trips(&h.w).saturating_mul(hist_iteration(prog, h, depth)),
        Exp::Scatter(s) => trips(&s.w).saturating_mul(lam(prog, &s.map, depth)),
        Exp::WithAcc(w) => lam(prog, &w.lambda, depth),
        Exp::CustomVjp(c) => lam(prog, &c.f, depth),
        Exp::Apply { fun, .. } => match prog.functions.get(*fun) {
            Some(f) if depth < MAX_CALL_DEPTH => body_cost(prog, &f.body, depth + 1),
            _ => OPAQUE_CALL,
        },
        Exp::Math(..) => 8,
        // Array construction allocates and fills.
        Exp::Iota { .. }
        | Exp::Replicate { .. }
        | Exp::Copy(_)
        | Exp::Concat { .. }
        | Exp::Scratch { .. }
        | Exp::Rearrange { .. } => 8,
        _ => 1,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The program `src` and the map of the first screma of its first
    /// function's body.
    pub(crate) fn map_lambda(src: &str) -> (Program, Lambda) {
        let prog = ir::parse::parse_program(src).unwrap();
        let f = prog.functions.values().next().unwrap();
        let l = f
            .body
            .stms
            .iter()
            .find_map(|s| match &s.exp {
                Exp::Screma(s) => Some(s.map.clone()),
                _ => None,
            })
            .unwrap();
        (prog, l)
    }

    #[test]
    fn inner_loops_multiply_their_bodies() {
        let small = "fun main(n: i64, xs: [n]f64) -> ([n]f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      let z: f64 = add(y, x)
      in (z)
    })
  in (ys)
}
";
        let (p, l) = map_lambda(small);
        assert_eq!(lambda_cost(&p, &l), 2);
        let looped = "fun main(n: i64, xs: [n]f64) -> ([n]f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\\(x: f64) -> (f64) {
      let (r: f64) = loop (a: f64 = x) for i: i64 < 100i64 {
        let b: f64 = mul(a, x)
        let c: f64 = add(b, 1.0f64)
        in (c)
      }
      in (r)
    })
  in (ys)
}
";
        let (p, l) = map_lambda(looped);
        assert_eq!(lambda_cost(&p, &l), 200);
    }
}
