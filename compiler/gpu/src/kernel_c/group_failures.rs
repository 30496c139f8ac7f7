//! The failure protocol of group kernels with checks, in structured
//! control flow only.
//!
//! A thread of an ordinary kernel that fails a check records the failure
//! and returns. A thread of a group kernel cannot: the others would wait
//! for it at the next barrier. Jumping to that barrier instead is not an
//! option either (PoCL's work-group compiler corrupts memory with jumps
//! into loops that hold barriers), so a group kernel with checks is
//! emitted with guards:
//!
//! - A failing thread records the failure as usual, sets its private
//!   `fut_failed` and writes the number of barriers it has passed
//!   (`fut_epoch`, the same on every thread) to the group's flag
//!   `fut_gfail` in local memory. The rest of the C block up to the next
//!   barrier is guarded by `if (!fut_failed)`: the thread skips it, but
//!   leaves loops without barriers through their normal exit and reaches
//!   the barrier the others reach.
//! - After each barrier every thread counts it and reads the flag: the
//!   group stops (`fut_stop`) when a thread failed before this barrier,
//!   that is when the flag is below the count. A failure after the
//!   barrier writes the new count, which is not below it, so a thread
//!   that reads late sees the same answer. Every thread thus decides the
//!   same, and what follows a barrier is guarded by `if (!fut_stop)`.
//! - After a `for`, `while` or `if` with barriers inside, the guard is
//!   `if (!fut_stop && !fut_failed)`: a thread may have failed after the
//!   statement's last barrier.
//! - A `for`, `while` or `if` with barriers inside whose bound or
//!   condition reads what the threads compute is preceded by a barrier of
//!   its own when a thread may have failed since the last one, so that a
//!   failure in the statements that compute it stops the group before it
//!   enters; a loop's first stretch is guarded by `if (!fut_failed)` (a
//!   thread may have failed late in the previous iteration); its bound
//!   or condition then holds `!fut_stop`, and a `while` loop's body ends
//!   with a barrier too, since its condition is computed in the body.
//!
//! The group leaves through the end of the kernel, every thread together.
//! Kernels without checks are emitted as before, without any of this.

use imp::groups::has_barrier;
use imp::{Block, Stm};
use ir::Span;

use super::kernel::{E, Em, var};

/// The guard after a statement with barriers: the group has not stopped,
/// and the thread has not failed since the statement's last barrier.
const AFTER: &str = "!fut_stop && !fut_failed";

impl Em<'_> {
    /// The declarations of the protocol, and the flag's initial value
    /// (above every count) with a barrier, before the kernel's body.
    pub(super) fn failure_prologue(&mut self) {
        self.line("__local int fut_gfail[1];");
        self.line("int fut_failed = 0;");
        self.line("int fut_stop = 0;");
        self.line("int fut_epoch = 0;");
        self.line("if (get_local_id(0) == 0) fut_gfail[0] = 2147483647;");
        self.line("barrier(CLK_LOCAL_MEM_FENCE);");
    }

    /// Asks for a guard `if (cond) {` in the current C block: it opens
    /// with the block's next line (an empty guard is not written) and
    /// closes with the block.
    pub(super) fn open_guard(&mut self, cond: &str) {
        self.pending.push(cond.to_string());
    }

    /// Opens the guards asked for.
    pub(super) fn flush_guards(&mut self) {
        for cond in std::mem::take(&mut self.pending) {
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
            self.out.push_str(&format!("if ({cond}) {{\n"));
            self.depth += 1;
            if let Some(n) = self.frames.last_mut() {
                *n += 1;
            }
        }
    }

    /// Closes the guards the current C block has open.
    fn close_guards(&mut self) {
        self.pending.clear();
        let n = self.frames.last_mut().map_or(0, std::mem::take);
        for _ in 0..n {
            self.depth -= 1;
            self.line("}");
        }
    }

    /// Closes the guards of the current C block, and forgets it.
    pub(super) fn close_frame(&mut self) {
        self.close_guards();
        self.frames.pop();
    }

    /// A barrier, counted, after which every thread reads whether the
    /// group stops.
    fn counted_barrier(&mut self) {
        self.unsynced = false;
        self.line("barrier(CLK_LOCAL_MEM_FENCE);");
        self.line("fut_epoch++;");
        self.line("fut_stop = fut_gfail[0] < fut_epoch;");
    }

    /// The barrier before a statement with barriers whose bound or
    /// condition is `e`: needed only where a thread may have failed since
    /// the last barrier and `e` reads what the threads compute.
    fn sync_for(&mut self, e: &imp::SExp) {
        if self.unsynced && self.sets_any(e) {
            self.counted_barrier();
        }
    }

    /// Statement `s` of a group kernel with checks.
    pub(super) fn guarded_stm(&mut self, s: &Stm) -> E<()> {
        if !has_barrier(s) {
            let before = self.frames.len();
            let checks = self.checks_count();
            self.stm(s)?;
            debug_assert_eq!(before, self.frames.len());
            // A failure inside the statement's blocks skips the rest of
            // this one too.
            if self.checks_count() > checks && !s.blocks().is_empty() {
                self.open_guard("!fut_failed");
            }
            return Ok(());
        }
        let checks = self.checks_count();
        match s {
            Stm::Barrier => {
                self.close_guards();
                self.counted_barrier();
                self.open_guard("!fut_stop");
            }
            Stm::For { i, bound, body } => {
                self.checks(bound, Span::NONE)?;
                let n = self.exp(bound)?;
                self.close_guards();
                self.sync_for(bound);
                // A thread that failed in an iteration's last stretch
                // reaches the next iteration's first barrier.
                self.unsynced = true;
                let i = var(*i);
                self.line(&format!("for ({i} = 0; !fut_stop && {i} < {n}; {i}++) {{"));
                self.inner(body, false)?;
                self.open_guard(AFTER);
            }
            Stm::While { cond, body } => {
                let c = self.loop_condition(cond)?;
                self.close_guards();
                self.sync_for(cond);
                self.line(&format!("while (!fut_stop && ({c})) {{"));
                self.inner(body, true)?;
                self.open_guard(AFTER);
            }
            Stm::If {
                cond,
                then_block,
                else_block,
            } => {
                self.checks(cond, Span::NONE)?;
                let c = self.exp(cond)?;
                self.close_guards();
                self.sync_for(cond);
                self.line(&format!("if (!fut_stop && ({c})) {{"));
                self.inner(then_block, false)?;
                if !else_block.stms.is_empty() {
                    self.line("else if (!fut_stop) {");
                    self.inner(else_block, false)?;
                }
                self.open_guard(AFTER);
            }
            Stm::Planned { body, .. } => {
                self.close_guards();
                self.line("{");
                self.inner(body, false)?;
                self.open_guard(AFTER);
            }
            _ => return Err("a barrier inside a statement other than a loop or branch".into()),
        }
        // A thread may have failed after the statement's last barrier.
        if self.checks_count() > checks {
            self.unsynced = true;
        }
        Ok(())
    }

    /// The block `b` of a statement with barriers, after its opening
    /// brace, and the closing brace; `ending` adds a counted barrier at
    /// its end.
    fn inner(&mut self, b: &Block, ending: bool) -> E<()> {
        self.depth += 1;
        self.frames.push(0);
        // A thread that failed since the last barrier (in an earlier
        // iteration) skips the statements before the next one.
        self.open_guard("!fut_failed");
        for s in &b.stms {
            self.guarded_stm(s)?;
        }
        self.close_guards();
        if ending {
            self.counted_barrier();
        }
        self.frames.pop();
        self.depth -= 1;
        self.line("}");
        Ok(())
    }
}
