//! Parallel scatter.
//!
//! A `scatter` outside any parallel operation whose map computes something
//! runs as a parallel loop: each iteration computes its indices and value
//! and writes the value in place (the map body is usually where the work
//! is). Futhark allows an index to repeat only when every write to it has
//! the same value, so the order of the writes does not matter.
//! Out-of-bounds writes are ignored, as everywhere.

use ir::{Function, Scatter};

/// Whether scatter `s` of function `f` runs in parallel: its map computes
/// something (a map that only passes its inputs on leaves only the writes,
/// which are memory-bound), no input or
/// destination is an accumulator and the map returns none.
pub fn parallel(f: &Function, s: &Scatter) -> bool {
    !s.map.body.stms.is_empty()
        && !crate::has_accs(f, &s.inputs, &s.map)
        && !s.dests.iter().any(|d| crate::is_acc(f, &d.arr))
}
