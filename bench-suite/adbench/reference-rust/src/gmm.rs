//! ADBench's Gaussian mixture model: the log-likelihood of N points of dimension D
//! under K Gaussian components, plus a Wishart prior on the inverse covariances
//! (`bench-suite/adbench/gmm.fut`). Parallel over the points.

use rayon::prelude::*;
use values::Value;
use values::scalar::{FloatFn, float_fn};

use crate::args;

/// A GMM instance: parameters (row-major) and data.
pub struct Gmm {
    d: usize,
    k: usize,
    n: usize,
    alphas: Vec<f64>,
    means: Vec<f64>,
    /// Per component, D log-diagonal entries then D(D−1)/2 lower entries by column.
    icf: Vec<f64>,
    x: Vec<f64>,
    w_gamma: f64,
    w_m: i64,
}

/// `log Σ exp xs`, shifted by the maximum.
fn logsumexp(xs: &[f64]) -> f64 {
    let top = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    top + xs.iter().map(|x| (x - top).exp()).sum::<f64>().ln()
}

impl Gmm {
    /// Reads `alphas, means, icf, x, w_gamma, w_m`.
    pub fn from_values(v: &[Value]) -> Result<Gmm, String> {
        args::count(v, &["alphas", "means", "icf", "x", "w_gamma", "w_m"])?;
        let (sa, alphas) = args::f64s(&v[0], "alphas", 1)?;
        let (sm, means) = args::f64s(&v[1], "means", 2)?;
        let (si, icf) = args::f64s(&v[2], "icf", 2)?;
        let (sx, x) = args::f64s(&v[3], "x", 2)?;
        let (k, d) = (sa[0], sm[1]);
        args::dim("means", "the number of rows", sm[0], k)?;
        args::dim("icf", "the number of rows", si[0], k)?;
        args::dim("icf", "the row length", si[1], d * (d + 1) / 2)?;
        args::dim("x", "the row length", sx[1], d)?;
        Ok(Gmm {
            d,
            k,
            n: sx[0],
            alphas: alphas.to_vec(),
            means: means.to_vec(),
            icf: icf.to_vec(),
            x: x.to_vec(),
            w_gamma: args::f64_scalar(&v[4], "w_gamma")?,
            w_m: args::i64_scalar(&v[5], "w_m")?,
        })
    }

    /// The objective.
    pub fn objective(&self) -> f64 {
        let (d, k, n) = (self.d, self.k, self.n);
        let t = d * (d + 1) / 2;
        let diag_sums: Vec<f64> = self
            .icf
            .chunks_exact(t)
            .map(|r| r[..d].iter().sum())
            .collect();
        let diag_exps: Vec<f64> = self
            .icf
            .chunks_exact(t)
            .flat_map(|r| r[..d].iter().map(|q| q.exp()))
            .collect();
        let point_sum: f64 = self
            .x
            .par_chunks_exact(d)
            .map_init(
                || (vec![0.0; d], vec![0.0; d], vec![0.0; k]),
                |(diff, qd, mains), xi| {
                    for j in 0..k {
                        let mu = &self.means[j * d..(j + 1) * d];
                        let row = &self.icf[j * t..(j + 1) * t];
                        let ex = &diag_exps[j * d..(j + 1) * d];
                        for r in 0..d {
                            diff[r] = xi[r] - mu[r];
                            qd[r] = ex[r] * diff[r];
                        }
                        // The strictly lower part, column by column.
                        let mut at = d;
                        for c in 0..d {
                            let dc = diff[c];
                            for (q, l) in qd[c + 1..].iter_mut().zip(&row[at..at + d - c - 1]) {
                                *q += l * dc;
                            }
                            at += d - c - 1;
                        }
                        let sq: f64 = qd.iter().map(|q| q * q).sum();
                        mains[j] = self.alphas[j] + diag_sums[j] - 0.5 * sq;
                    }
                    logsumexp(mains)
                },
            )
            .sum();
        let constant = -((n * d) as f64) * 0.5 * (2.0 * std::f64::consts::PI).ln();
        constant + point_sum - n as f64 * logsumexp(&self.alphas) + self.wishart_prior()
            - k as f64 * self.wishart_constant()
    }

    /// The log of the Wishart prior, without its normalising constant.
    fn wishart_prior(&self) -> f64 {
        let d = self.d;
        let t = d * (d + 1) / 2;
        let g = self.w_gamma;
        self.icf
            .chunks_exact(t)
            .map(|row| {
                let diag = &row[..d];
                let exp_sq: f64 = diag.iter().map(|q| (2.0 * q).exp()).sum();
                let lower_sq: f64 = row[d..].iter().map(|l| l * l).sum();
                0.5 * g * g * (exp_sq + lower_sq) - self.w_m as f64 * diag.iter().sum::<f64>()
            })
            .sum()
    }

    /// The Wishart prior's log normalising constant per component.
    fn wishart_constant(&self) -> f64 {
        let d = self.d as f64;
        let n1 = self.d as i64 + self.w_m + 1;
        let a = 0.5 * n1 as f64;
        let log_gamma_d = 0.25 * d * (d - 1.0) * std::f64::consts::PI.ln()
            + (1..=self.d)
                .map(|j| float_fn(FloatFn::Lgamma, a + (1.0 - j as f64) / 2.0))
                .sum::<f64>();
        (n1 as f64 * d) * (self.w_gamma.ln() - 0.5 * 2f64.ln()) - log_gamma_d
    }
}
