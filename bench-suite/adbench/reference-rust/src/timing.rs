//! ADBench's way of timing a function: calls back to back in batches, the batch
//! size doubled until one batch takes at least half a second, then batches of that
//! size until there are ten or the time limit is spent; the result is the shortest
//! time per call over the batches.

use std::time::{Duration, Instant};

/// The shortest time a batch may take to count as a measurement.
pub const MIN_BATCH: Duration = Duration::from_millis(500);

/// How many measured batches are enough.
pub const MAX_BATCHES: usize = 10;

/// A timing's outcome.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// The minimum over the batches of a batch's time divided by its calls.
    pub per_call: Duration,
    /// Calls per batch in the measured batches.
    pub calls_per_batch: u64,
    /// How many batches of that size ran.
    pub batches: usize,
}

/// Times `f` with ADBench's rule; `limit` bounds the total time spent after the
/// batch size is found (at least one measured batch always runs).
pub fn time_calls<T>(mut f: impl FnMut() -> T, limit: Duration) -> Timing {
    let mut batch = |n: u64| {
        let start = Instant::now();
        for _ in 0..n {
            std::hint::black_box(f());
        }
        start.elapsed()
    };
    let mut calls = 1;
    let mut took = batch(calls);
    while took < MIN_BATCH {
        calls *= 2;
        took = batch(calls);
    }
    let mut best = took;
    let mut batches = 1;
    let start = Instant::now();
    while batches < MAX_BATCHES && start.elapsed() + took <= limit {
        let t = batch(calls);
        best = best.min(t);
        batches += 1;
    }
    Timing {
        per_call: best / u32::try_from(calls).unwrap_or(u32::MAX),
        calls_per_batch: calls,
        batches,
    }
}
