//! An estimate of the work of a block of the imperative IR, in statements:
//! what the multicore runtime weighs when it splits a parallel loop or a
//! reduction into chunks (small bodies are not split finely).

use super::{Block, Stm};

/// The least work (in [`cost`]'s units) the multicore runtime splits into
/// more than one chunk (its `par::MIN_CHUNK_WORK`): a loop of constant size
/// and less work always runs as one.
pub const MIN_SPLIT_WORK: u64 = 4096;

/// How many runs of its body [`cost`] counts for a loop whose trip count
/// is known only at run time.
pub const UNKNOWN_TRIPS: u64 = 16;

/// The work of one iteration of a loop over chunks whose body, a chunk of
/// run-time length, costs `chunk_body` (see [`UNKNOWN_TRIPS`]): at least 1.
pub fn per_chunk_iteration(chunk_body: u64) -> u64 {
    (chunk_body / UNKNOWN_TRIPS).max(1)
}

/// The work of one run of `b`, in statements: loops of unknown length
/// count [`UNKNOWN_TRIPS`] runs of their body, parallel loops as many
/// iterations, calls 64 statements, copies 16.
pub fn cost(b: &Block) -> u64 {
    b.stms
        .iter()
        .fold(0u64, |acc, s| acc.saturating_add(stm_cost(s)))
}

/// The work of one run of statement `s`, as [`cost`] counts it.
pub fn stm_cost(s: &Stm) -> u64 {
    match s {
        Stm::For { bound, body, .. } => {
            let n = bound.as_i64().map_or(UNKNOWN_TRIPS, |n| n.max(0) as u64);
            1 + n.saturating_mul(cost(body))
        }
        Stm::While { body, .. } | Stm::ParFor { body, .. } | Stm::Planned { body, .. } => {
            1 + UNKNOWN_TRIPS.saturating_mul(cost(body))
        }
        Stm::If {
            then_block,
            else_block,
            ..
        } => 1 + cost(then_block).max(cost(else_block)),
        Stm::Call { .. } => 64,
        Stm::AtomicUpdate { body, .. } => 4 + cost(body),
        Stm::Copy { .. } => 16,
        _ => 1,
    }
}
