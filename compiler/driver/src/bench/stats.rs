//! Statistics of a dataset's run times: mean, standard deviation, the
//! relative standard error of the mean, a 95% confidence interval of the
//! mean from Student's t distribution, and the lag-1 autocorrelation of the
//! runs in order.

/// Summary statistics of a sample of run times in microseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Number of runs.
    pub runs: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (0 for one run).
    pub std_dev: f64,
    /// Standard error of the mean divided by the mean (0 when the mean is 0).
    pub rse: f64,
    /// Lower end of the 95% confidence interval of the mean (not below 0:
    /// times are never negative).
    pub ci_low: f64,
    /// Upper end of the 95% confidence interval of the mean.
    pub ci_high: f64,
    /// Correlation of each run's time with the next one's (0 for fewer than
    /// two runs or no variation): near 0 when runs are independent, positive
    /// when times drift or come in streaks.
    pub autocorrelation: f64,
}

/// The 0.975 quantile of Student's t distribution with `df` degrees of
/// freedom: tabulated up to 30, then a series expansion around the normal
/// quantile (accurate to about 1e-4 there).
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    if df == 0 {
        return f64::INFINITY;
    }
    if df <= TABLE.len() {
        return TABLE[df - 1];
    }
    let z: f64 = 1.959_963_985;
    let d = df as f64;
    z + (z.powi(3) + z) / (4.0 * d)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * d * d)
}

/// The statistics of `samples` (microseconds); `None` for no samples.
pub fn stats(samples: &[f64]) -> Option<Stats> {
    let n = samples.len();
    if n == 0 {
        return None;
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    let std_dev = if n > 1 {
        let ss: f64 = samples.iter().map(|x| (x - mean).powi(2)).sum();
        (ss / (n - 1) as f64).sqrt()
    } else {
        0.0
    };
    let sem = std_dev / (n as f64).sqrt();
    let rse = if mean > 0.0 { sem / mean } else { 0.0 };
    let half = if n > 1 { t_975(n - 1) * sem } else { 0.0 };
    let ss: f64 = samples.iter().map(|x| (x - mean).powi(2)).sum();
    let autocorrelation = if n > 1 && ss > 0.0 {
        samples
            .windows(2)
            .map(|w| (w[0] - mean) * (w[1] - mean))
            .sum::<f64>()
            / ss
    } else {
        0.0
    };
    Some(Stats {
        runs: n,
        mean,
        std_dev,
        rse,
        ci_low: (mean - half).max(0.0),
        ci_high: mean + half,
        autocorrelation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles() {
        assert_eq!(t_975(1), 12.706);
        assert_eq!(t_975(30), 2.042);
        assert!((t_975(40) - 2.0211).abs() < 1e-3, "{}", t_975(40));
        assert!((t_975(120) - 1.9799).abs() < 1e-3, "{}", t_975(120));
        assert!((t_975(100_000) - 1.96).abs() < 1e-3);
    }

    #[test]
    fn mean_deviation_and_interval() {
        let s = stats(&[10.0, 12.0, 14.0]).unwrap();
        assert_eq!(s.runs, 3);
        assert!((s.mean - 12.0).abs() < 1e-12);
        assert!((s.std_dev - 2.0).abs() < 1e-12);
        let sem = 2.0 / 3f64.sqrt();
        assert!((s.rse - sem / 12.0).abs() < 1e-12);
        assert!((s.ci_high - (12.0 + 4.303 * sem)).abs() < 1e-9);
        assert!((s.ci_low - (12.0 - 4.303 * sem)).abs() < 1e-9);
        let one = stats(&[5.0]).unwrap();
        assert_eq!((one.ci_low, one.ci_high, one.rse), (5.0, 5.0, 0.0));
        assert!(stats(&[]).is_none());
        assert_eq!(stats(&[0.0, 0.0, 0.0, 30.0]).unwrap().ci_low, 0.0);
        assert_eq!(one.autocorrelation, 0.0);
    }

    #[test]
    fn autocorrelation_sees_drift_and_alternation() {
        let drift = stats(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
        assert!(drift.autocorrelation > 0.4, "{drift:?}");
        let alternating = stats(&[1.0, 3.0, 1.0, 3.0, 1.0, 3.0]).unwrap();
        assert!(alternating.autocorrelation < -0.5, "{alternating:?}");
        assert_eq!(stats(&[2.0, 2.0]).unwrap().autocorrelation, 0.0);
    }
}
