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
