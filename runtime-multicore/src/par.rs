//! Parallel building blocks for the segmented operations of generated code.
//!
//! A parallel `screma` (map with scans and reductions) is split into
//! contiguous chunks of its iteration space; each chunk runs the sequential
//! loop of the generated code with its own partial results, so the body is
//! a tight loop over contiguous memory that LLVM can vectorise, and small
//! bodies are never split finer than a chunk. The partials are then
//! combined in order: mapped rows are concatenated, reduction partials are
//! folded with the operator, and each chunk's scan results are offset by
//! the combined totals of the chunks before it (a second parallel pass).

use std::cell::Cell;

use rayon::prelude::*;

use crate::arr::R;

/// The least estimated work (in the code generator's units: IR statements
/// of scalar work, see `codegen::cost`) that a chunk must have for a
/// segmented operation to be split: below it, starting a parallel task and
/// combining its partial results costs more than it saves.
pub const MIN_CHUNK_WORK: u64 = 4096;

thread_local! {
    /// Set while a chunk of an operation split into at least one chunk per
    /// thread runs: every thread has work, so the operations nested in its
    /// body run as one chunk each.
    static SATURATED: Cell<bool> = const { Cell::new(false) };
}

/// How many chunks an iteration space of `w` elements is split into: a
/// few per thread (for load balance), never more than `w`, and one on a
/// single thread or inside a chunk of an operation that keeps every thread
/// busy. An operation nested in the body of one with fewer chunks than
/// threads (a map over two rows on eight threads) is split, and rayon
/// spreads its chunks over the idle threads.
#[inline]
pub fn chunk_count(w: usize) -> usize {
    // The mark first: it is the cheaper read, and nested operations of
    // small rows ask for every row.
    if SATURATED.with(Cell::get) {
        return 1;
    }
    let threads = rayon::current_num_threads().max(1);
    if threads == 1 {
        return 1;
    }
    w.min(threads * 4).max(1)
}

/// How many chunks an iteration space of `w` elements, each estimated to
/// cost `cost` units, is split into: as [`chunk_count`], but each chunk
/// gets at least [`MIN_CHUNK_WORK`] units of work, so small operations run
/// as one sequential chunk.
#[inline]
pub fn chunk_count_cost(w: usize, cost: u64) -> usize {
    let work = (w as u64).saturating_mul(cost.max(1));
    let by_work = (work / MIN_CHUNK_WORK).max(1);
    chunk_count(w).min(usize::try_from(by_work).unwrap_or(usize::MAX))
}

/// The bounds of chunk `c` of `n` over `0..w`.
#[inline]
pub fn chunk_bounds(w: usize, n: usize, c: usize) -> (usize, usize) {
    (c * w / n, (c + 1) * w / n)
}

/// Runs `f(lo, hi)` on `n` chunks of `0..w` in parallel and returns the
/// results in chunk order; the first failure (in chunk order) wins.
///
/// Only this small function is instantiated for each operation of
/// generated code: the chunks are run by [`run_chunks`], which is compiled
/// once, in this crate, so a program's crate does not compile rayon's
/// parallel iterators again for every segmented operation.
pub fn par_chunks_n<O, F>(w: usize, n: usize, f: F) -> R<Vec<O>>
where
    O: Send,
    F: Fn(usize, usize) -> R<O> + Sync + Send,
{
    let n = n.clamp(1, w.max(1));
    if n <= 1 {
        return Ok(vec![f(0, w)?]);
    }
    let slots: Vec<Slot<R<O>>> = (0..n).map(|_| Slot::default()).collect();
    run_chunks(n, &|c| {
        let (lo, hi) = chunk_bounds(w, n, c);
        slots[c].put(f(lo, hi));
    });
    slots
        .into_iter()
        .map(|s| s.take().unwrap_or_else(not_run))
        .collect()
}

/// The result of one chunk, written by the task that ran it.
struct Slot<T>(std::sync::Mutex<Option<T>>);

impl<T> Default for Slot<T> {
    fn default() -> Self {
        Slot(std::sync::Mutex::new(None))
    }
}

impl<T> Slot<T> {
    fn put(&self, x: T) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(x);
    }

    /// The result (every chunk has run when the slots are read).
    fn take(self) -> Option<T> {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

/// The failure of a chunk whose task did not run (a bug of the runtime).
#[cold]
fn not_run<T>() -> R<T> {
    crate::arr::fail("internal error: a parallel chunk did not run", (0, 0, 0))
}

/// Runs `body(c)` for every chunk `c` in `0..n` on rayon's pool (a panic
/// in one is resumed here, after the others). Not generic, so rayon's
/// machinery is instantiated once for all operations.
#[inline(never)]
pub fn run_chunks(n: usize, body: &(dyn Fn(usize) + Sync)) {
    let saturating = n >= rayon::current_num_threads();
    (0..n).into_par_iter().for_each(|c| {
        let _nested = Nested::enter(saturating);
        body(c)
    });
}

/// As [`chunk_count_cost`], and whether the operation runs on a single
/// thread not yet marked: its one chunk should then run under the mark
/// ([`run_saturated`]), so that each operation nested in it (one per row of
/// a map, say) gets its one chunk from the mark instead of asking rayon for
/// the thread count again. The thread count is asked for at most once.
#[inline]
pub fn chunk_plan(w: usize, cost: u64) -> (usize, bool) {
    if SATURATED.with(Cell::get) {
        return (1, false);
    }
    let threads = rayon::current_num_threads().max(1);
    if threads == 1 {
        return (1, true);
    }
    let work = (w as u64).saturating_mul(cost.max(1));
    let by_work = usize::try_from((work / MIN_CHUNK_WORK).max(1)).unwrap_or(usize::MAX);
    (w.min(threads * 4).max(1).min(by_work), false)
}

/// Runs `f` with the running thread marked as inside a saturating chunk
/// (see [`chunk_plan`]); the previous mark is restored afterwards.
pub fn run_saturated<T>(f: impl FnOnce() -> T) -> T {
    let _nested = Nested::enter(true);
    f()
}

/// Marks the running thread as inside a chunk (saturating or not) until
/// dropped, when the previous mark is restored.
struct Nested(bool);

impl Nested {
    fn enter(saturating: bool) -> Nested {
        Nested(SATURATED.with(|s| s.replace(s.get() || saturating)))
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        SATURATED.with(|s| s.set(self.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_space_in_order() {
        let parts = par_chunks_n(1000, 7, |lo, hi| Ok((lo..hi).collect::<Vec<_>>())).unwrap();
        assert_eq!(parts.concat(), (0..1000).collect::<Vec<_>>());
        let sums = par_chunks_n(10, 64, |lo, hi| Ok((lo..hi).sum::<usize>())).unwrap();
        assert_eq!(sums.len(), 10);
        assert_eq!(sums.iter().sum::<usize>(), 45);
        let err = par_chunks_n(100, 4, |lo, _| {
            if lo > 0 {
                crate::arr::fail("boom", (0, 1, 2))
            } else {
                Ok(())
            }
        });
        assert!(err.is_err());
    }

    #[test]
    fn nested_operations_split_only_when_threads_are_idle() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        pool.install(|| {
            // Four chunks on four threads: the nested operations run whole.
            let inner = par_chunks_n(100, 4, |_, _| Ok(chunk_count(1000))).unwrap();
            assert_eq!(inner, vec![1; 4]);
            // Two chunks leave threads idle: nested operations are split.
            let inner = par_chunks_n(100, 2, |_, _| Ok(chunk_count(1000))).unwrap();
            assert_eq!(inner, vec![16; 2]);
            // One chunk runs in place, as the operation itself.
            let inner = par_chunks_n(100, 1, |_, _| Ok(chunk_count(1000))).unwrap();
            assert_eq!(inner, vec![16]);
            // The mark is gone once the operation is over.
            assert_eq!(chunk_count(1000), 16);
        });
    }

    #[test]
    fn a_single_chunk_is_marked_only_on_one_thread() {
        let saturated = || SATURATED.with(Cell::get);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        one.install(|| {
            assert_eq!(chunk_plan(1 << 20, 100), (1, true));
            assert!(run_saturated(saturated));
            assert!(!saturated());
            // Inside the mark, nothing more to mark.
            assert_eq!(run_saturated(|| chunk_plan(1 << 20, 100)), (1, false));
        });
        let four = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        four.install(|| {
            // With idle threads, one chunk is not marked, and what runs
            // inside it may still be split.
            assert_eq!(chunk_plan(14, 20), (1, false));
            assert_eq!(chunk_plan(1 << 20, 100), (16, false));
            assert_eq!(chunk_plan(2 * MIN_CHUNK_WORK as usize, 1), (2, false));
        });
    }

    #[test]
    fn small_work_is_not_split() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        pool.install(|| {
            // 14 elements of 20 units: one chunk.
            assert_eq!(chunk_count_cost(14, 20), 1);
            // Enough work for two chunks, not for the 16 a 4-thread pool allows.
            assert_eq!(chunk_count_cost(2 * MIN_CHUNK_WORK as usize, 1), 2);
            assert_eq!(chunk_count_cost(1 << 20, 100), 16);
        });
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        assert_eq!(one.install(|| chunk_count_cost(1 << 20, 100)), 1);
    }
}
