//! Maps with parallelism inside: parallel at both levels.
//!
//! A map whose body holds parallel operations (SOACs that would be
//! segmented operations on their own, possibly inside a loop or a branch
//! of the body) but is not a perfect nest ([`crate::nest`]) has two useful
//! parallel levels. The backend makes the map a segmented operation and
//! each parallel operation of its body one too; at run time, with the
//! map's width `n`:
//!
//! - `n` at least the number of threads: each thread has a row or more,
//!   and the body's operations run as one chunk each (sequentially);
//! - fewer rows than threads: the body's operations are split as well,
//!   their chunks running on the threads the map leaves idle.
//!   This is the parallelism that distributing the map over the body's
//!   statements (and interchanging it with a loop of the body) exposes, and
//!   no work is repeated: every statement still runs once per row.

use ir::{Body, Exp, Function, Screma};

/// Whether screma `s` is parallel at both levels: it has no accumulator
/// inputs or results, and its map body holds a parallel operation.
pub fn versioned(f: &Function, s: &Screma) -> bool {
    if crate::has_accs(f, &s.inputs, &s.map) {
        return false;
    }
    has_parallel_inside(f, &s.map.body)
}

/// Whether body `b` holds a statement that would be a segmented operation
/// at the top level, directly or in the bodies of its loops and branches.
pub fn has_parallel_inside(f: &Function, b: &Body) -> bool {
    b.stms.iter().any(|s| match &s.exp {
        Exp::If {
            then_body,
            else_body,
            ..
        } => has_parallel_inside(f, then_body) || has_parallel_inside(f, else_body),
        Exp::Loop { body, .. } => has_parallel_inside(f, body),
        _ => crate::plan_with(f, s, false).is_some(),
    })
}
