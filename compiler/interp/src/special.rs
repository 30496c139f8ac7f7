//! Special functions that Rust's standard library lacks and derivative rules need:
//! the polygamma family (digamma is the derivative of `lgamma`, and each order is the
//! derivative of the one before, so nested differentiation of `gamma` works).

/// Bernoulli numbers B2, B4, …, B16.
const BERNOULLI: [f64; 8] = [
    1.0 / 6.0,
    -1.0 / 30.0,
    1.0 / 42.0,
    -1.0 / 30.0,
    5.0 / 66.0,
    -691.0 / 2730.0,
    7.0 / 6.0,
    -3617.0 / 510.0,
];

fn factorial(n: u32) -> f64 {
    (1..=n).map(f64::from).product()
}

/// The polygamma function of order `n` at `x`: `n = 0` is digamma, the derivative
/// of `ln Γ`; order `n + 1` is the derivative of order `n`.
pub fn polygamma(n: u8, x: f64) -> f64 {
    if x.is_nan() || x < -1e7 {
        return f64::NAN;
    }
    let n = u32::from(n);
    let sign = if n % 2 == 1 { 1.0 } else { -1.0 }; // (-1)^(n+1)
    let nfact = factorial(n);
    let mut x = x;
    let mut acc = 0.0;
    // Recurrence: ψ⁽ⁿ⁾(x) = ψ⁽ⁿ⁾(x+1) + (-1)^(n+1) n! / x^(n+1).
    while x < 20.0 {
        if x == 0.0 || (x < 0.0 && x == x.floor()) {
            return f64::NAN;
        }
        acc += sign * nfact / x.powi(n as i32 + 1);
        x += 1.0;
    }
    let asym = if n == 0 {
        let mut s = x.ln() - 0.5 / x;
        for (k, b) in BERNOULLI.iter().enumerate() {
            let k2 = 2 * (k as i32 + 1);
            s -= b / (f64::from(k2) * x.powi(k2));
        }
        s
    } else {
        let mut s = factorial(n - 1) / x.powi(n as i32) + nfact / (2.0 * x.powi(n as i32 + 1));
        for (k, b) in BERNOULLI.iter().enumerate() {
            let k2 = 2 * (k as u32 + 1);
            s += b * factorial(k2 + n - 1) / (factorial(k2) * x.powi((k2 + n) as i32));
        }
        sign * s
    };
    asym + acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digamma_values() {
        // ψ(1) = -γ, ψ(0.5) = -γ - 2 ln 2.
        let gamma = 0.577_215_664_901_532_9;
        assert!((polygamma(0, 1.0) + gamma).abs() < 1e-12);
        assert!((polygamma(0, 0.5) + gamma + 2.0 * 2f64.ln()).abs() < 1e-12);
        assert!((polygamma(0, 30.0) - 3.384_438_132_685_524_6).abs() < 1e-10);
    }

    #[test]
    fn trigamma_values() {
        // ψ'(1) = π²/6.
        let pi2_6 = std::f64::consts::PI.powi(2) / 6.0;
        assert!((polygamma(1, 1.0) - pi2_6).abs() < 1e-12);
        // ψ''(1) = -2 ζ(3).
        assert!((polygamma(2, 1.0) + 2.0 * 1.202_056_903_159_594).abs() < 1e-10);
    }

    #[test]
    fn derivative_of_digamma_is_trigamma() {
        for &x in &[0.3, 1.7, 4.2, 25.0] {
            let h = 1e-5;
            let fd = (polygamma(0, x + h) - polygamma(0, x - h)) / (2.0 * h);
            assert!(
                (fd - polygamma(1, x)).abs() < 1e-5 * (1.0 + fd.abs()),
                "{x}"
            );
        }
    }
}
