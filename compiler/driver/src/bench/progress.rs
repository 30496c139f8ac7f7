//! The progress line `fut bench` draws on a terminal while a dataset runs:
//! the dataset's name, a bar filling towards the initial phase's minimum
//! runs and time, the runs so far and their mean; in the convergence phase
//! the relative standard error instead of the bar.

use std::io::Write;
use std::time::{Duration, Instant};

/// Width of the bar, in characters.
const BAR: usize = 20;

/// How often the line is redrawn at most.
const REDRAW: Duration = Duration::from_millis(50);

/// A progress line on a terminal, or nothing.
pub struct Progress<'a> {
    out: Option<&'a mut dyn Write>,
    last: Option<Instant>,
}

impl<'a> Progress<'a> {
    /// Draws on `out` when given, else does nothing.
    pub fn new(out: Option<&'a mut dyn Write>) -> Progress<'a> {
        Progress { out, last: None }
    }

    /// Redraws the line (at most every 50 ms unless `force`): `fraction` of
    /// the initial phase done, or the RSE in the convergence phase.
    pub fn update(
        &mut self,
        name: &str,
        runs: usize,
        mean_us: f64,
        fraction: f64,
        rse: Option<f64>,
        force: bool,
    ) {
        let Some(out) = self.out.as_deref_mut() else {
            return;
        };
        let now = Instant::now();
        if !force && self.last.is_some_and(|t| now.duration_since(t) < REDRAW) {
            return;
        }
        self.last = Some(now);
        let status = match rse {
            Some(r) => format!("converging, RSE {r:.4}"),
            None => {
                let filled = ((fraction.clamp(0.0, 1.0)) * BAR as f64).round() as usize;
                format!("[{}{}]", "#".repeat(filled), " ".repeat(BAR - filled))
            }
        };
        let _ = write!(
            out,
            "\r\x1b[K{name}: {status} {runs} runs, mean {mean_us:.0}μs"
        );
        let _ = out.flush();
    }

    /// Erases the line.
    pub fn clear(&mut self) {
        if let Some(out) = self.out.as_deref_mut() {
            let _ = write!(out, "\r\x1b[K");
            let _ = out.flush();
        }
        self.last = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_bar_and_convergence_and_clears() {
        let mut buf = Vec::new();
        {
            let mut p = Progress::new(Some(&mut buf));
            p.update("#0", 5, 12.0, 0.5, None, true);
            p.update("#0", 20, 11.0, 1.0, Some(0.02), true);
            p.clear();
        }
        let s = String::from_utf8(buf).unwrap();
        assert!(
            s.contains("#0: [##########          ] 5 runs, mean 12μs"),
            "{s:?}"
        );
        assert!(s.contains("converging, RSE 0.0200 20 runs"), "{s:?}");
        assert!(s.ends_with("\r\x1b[K"));
        let mut none = Progress::new(None);
        none.update("x", 1, 1.0, 0.1, None, true);
    }
}
