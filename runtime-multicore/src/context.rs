//! The context entry points run with: a rayon thread pool of a chosen size
//! and the profiler.

use std::time::Duration;

use crate::entry::Error;
use crate::profile::Profiler;

/// What an entry point runs with: the thread pool and the profiler.
///
/// The runtime calls an entry's `run` function inside the pool (see
/// [`crate::call::call`]), so rayon's parallel iterators in generated code
/// use this pool and its thread count; code running elsewhere (threads of its
/// own) can enter the pool with [`Context::install`]. Generated code wraps
/// each segmented operation in [`Context::profile`].
pub struct Context {
    threads: usize,
    pool: rayon::ThreadPool,
    profiler: Profiler,
}

impl Context {
    /// A context with `threads` worker threads (all cores when `None`),
    /// profiling from the start when `profiling`.
    pub fn new(threads: Option<usize>, profiling: bool) -> Result<Context, Error> {
        let threads = match threads {
            Some(0) => {
                return Err(Error::new("the number of threads must be at least 1"));
            }
            Some(n) => n,
            None => std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("fut-worker-{i}"))
            .build()
            .map_err(|e| Error::new(format!("cannot start {threads} worker threads: {e}")))?;
        Ok(Context {
            threads,
            pool,
            profiler: Profiler::new(profiling),
        })
    }

    /// The number of worker threads.
    pub fn num_threads(&self) -> usize {
        self.threads
    }

    /// Runs `f` in the context's thread pool and returns its result.
    pub fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }

    /// Runs `f`, recording its time under `name` while profiling is on.
    pub fn profile<R>(&self, name: &str, f: impl FnOnce() -> R) -> R {
        self.profiler.profile(name, f)
    }

    /// Adds a measured time to the operation `name` while profiling is on
    /// (for code that times itself).
    pub fn record(&self, name: &str, time: Duration) {
        if self.profiler.enabled() {
            self.profiler.record(name, time);
        }
    }

    /// The profiler.
    pub fn profiler(&self) -> &Profiler {
        &self.profiler
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn runs_in_a_pool_of_the_chosen_size() {
        let ctx = Context::new(Some(3), false).unwrap();
        assert_eq!(ctx.num_threads(), 3);
        assert_eq!(ctx.install(rayon::current_num_threads), 3);
        let s: i64 = ctx.install(|| (1..=100i64).into_par_iter().sum());
        assert_eq!(s, 5050);
    }

    #[test]
    fn zero_threads_is_an_error() {
        let e = Context::new(Some(0), false).err().unwrap();
        assert!(e.message.contains("at least 1"), "{e}");
    }

    #[test]
    fn profiles_named_operations() {
        let ctx = Context::new(Some(1), true).unwrap();
        let x = ctx.profile("segmap t.fut:1:1", || 7);
        assert_eq!(x, 7);
        let s = ctx.profiler().snapshot();
        assert_eq!(s.len(), 1);
        assert_eq!(s[0].0, "segmap t.fut:1:1");
        assert_eq!(s[0].1.calls, 1);
    }
}
