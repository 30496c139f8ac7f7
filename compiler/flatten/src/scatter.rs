//! Parallel scatter.
//!
//! A `scatter` outside any parallel operation whose map computes something
//! computes its indices and values in parallel chunks (the map body is
//! usually where the work is);
//! the writes are then applied in iteration order, so that when an index
//! repeats the last write wins (Futhark leaves the result unspecified
//! then; any of the written values is allowed) and the result does not
//! depend on the number of threads. Out-of-bounds writes are ignored, as
//! everywhere.

use ir::{Function, Scatter};

/// Whether scatter `s` of function `f` runs in parallel: its map computes
/// something (a map that only passes its inputs on leaves nothing to run
/// in parallel, and the writes are applied in order anyway), no input or
/// destination is an accumulator and the map returns none.
pub fn parallel(f: &Function, s: &Scatter) -> bool {
    !s.map.body.stms.is_empty()
        && !crate::has_accs(f, &s.inputs, &s.map)
        && !s.dests.iter().any(|d| crate::is_acc(f, &d.arr))
}
