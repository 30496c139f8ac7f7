//! Helpers shared by the ad crate's property tests.

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
