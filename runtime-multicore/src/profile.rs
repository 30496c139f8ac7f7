//! The profiler: time per named operation.
//!
//! Generated code times each segmented operation with [`op_start`] and
//! [`op_end`], naming it after the operation and its source location
//! (`segred lstm.fut:52:15-52:40`); the entry being run makes its context's
//! profiler the one these report to ([`Profiler::activate`]) while
//! profiling is on (`-P`, or the server's `unpause_profiling`). Each
//! operation then adds its wall-clock time to its total; while profiling is
//! off, an operation costs one atomic load. Code of the runtime may time
//! itself with [`Context::profile`](crate::Context::profile).
//!
//! [`Profiler::report`] lays the totals out as a table, the longest total
//! first, which the executable prints on standard error at exit with `-P`.
//! The server answers `report` with [`Profiler::report_json`], the JSON
//! layout of Futhark's profiling reports (`events` and `memory`), so that
//! tools reading those also read ours.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Calls and total time of one named operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpStats {
    /// How many times it ran while profiling was on.
    pub calls: u64,
    /// Its total wall-clock time.
    pub total: Duration,
}

/// The state of a profiler, shared with the generated code's operations
/// while it is active.
#[derive(Debug, Default)]
struct Shared {
    enabled: AtomicBool,
    ops: Mutex<HashMap<String, OpStats>>,
}

/// Time per named operation, switched on and off at run time.
#[derive(Debug, Default)]
pub struct Profiler {
    shared: Arc<Shared>,
}

/// The profiler that generated code's operations report to, when one is
/// active and recording.
static ACTIVE: Mutex<Option<Arc<Shared>>> = Mutex::new(None);

/// Whether [`ACTIVE`] holds a profiler (checked first, without the lock).
static ACTIVE_ON: AtomicBool = AtomicBool::new(false);

/// While alive, the generated code's operations report to a profiler (see
/// [`Profiler::activate`]); dropping it restores what was active before.
#[must_use = "the profiler is active only while this is alive"]
pub struct Activation {
    previous: Option<Option<Arc<Shared>>>,
}

impl Drop for Activation {
    fn drop(&mut self) {
        if let Some(prev) = self.previous.take() {
            let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
            ACTIVE_ON.store(prev.is_some(), Ordering::Relaxed);
            *active = prev;
        }
    }
}

/// The start of a segmented operation: the time now when a profiler is
/// active, `None` (one atomic load) otherwise.
#[inline]
pub fn op_start() -> Option<Instant> {
    if ACTIVE_ON.load(Ordering::Relaxed) {
        Some(Instant::now())
    } else {
        None
    }
}

/// The end of the operation `name` started at `start` (from [`op_start`]):
/// its time is added to the active profiler's total for `name`.
#[inline]
pub fn op_end(name: &str, start: Option<Instant>) {
    if let Some(t) = start {
        record_active(name, t.elapsed());
    }
}

fn record_active(name: &str, time: Duration) {
    let shared = ACTIVE.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(s) = shared
        && s.enabled.load(Ordering::Relaxed)
    {
        Profiler { shared: s }.record(name, time);
    }
}

impl Profiler {
    /// A profiler, recording from the start when `enabled`.
    pub fn new(enabled: bool) -> Profiler {
        Profiler {
            shared: Arc::new(Shared {
                enabled: AtomicBool::new(enabled),
                ops: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// Whether calls are being recorded.
    pub fn enabled(&self) -> bool {
        self.shared.enabled.load(Ordering::Relaxed)
    }

    /// Starts or stops recording (the totals so far are kept).
    pub fn set_enabled(&self, on: bool) {
        self.shared.enabled.store(on, Ordering::Relaxed);
    }

    /// Makes this profiler the one generated code's operations
    /// ([`op_start`], [`op_end`]) report to, while the result is alive and
    /// when it is recording now; an entry point's code calls it first, so
    /// that the operations of the call are timed.
    pub fn activate(&self) -> Activation {
        if !self.enabled() {
            return Activation { previous: None };
        }
        let mut active = ACTIVE.lock().unwrap_or_else(|e| e.into_inner());
        let prev = active.replace(self.shared.clone());
        ACTIVE_ON.store(true, Ordering::Relaxed);
        Activation {
            previous: Some(prev),
        }
    }

    /// Runs `f`, adding its time to the operation `name` when recording.
    pub fn profile<R>(&self, name: &str, f: impl FnOnce() -> R) -> R {
        if !self.enabled() {
            return f();
        }
        let start = Instant::now();
        let r = f();
        self.record(name, start.elapsed());
        r
    }

    /// Adds one call taking `time` to the operation `name`.
    pub fn record(&self, name: &str, time: Duration) {
        let mut ops = self.shared.ops.lock().unwrap_or_else(|e| e.into_inner());
        match ops.get_mut(name) {
            Some(s) => {
                s.calls += 1;
                s.total += time;
            }
            None => {
                ops.insert(
                    name.to_string(),
                    OpStats {
                        calls: 1,
                        total: time,
                    },
                );
            }
        }
    }

    /// Forgets every total.
    pub fn clear(&self) {
        self.shared
            .ops
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// The operations and their totals, the longest total first (ties by name).
    pub fn snapshot(&self) -> Vec<(String, OpStats)> {
        let ops = self.shared.ops.lock().unwrap_or_else(|e| e.into_inner());
        let mut v: Vec<(String, OpStats)> = ops.iter().map(|(k, s)| (k.clone(), *s)).collect();
        v.sort_by(|a, b| b.1.total.cmp(&a.1.total).then_with(|| a.0.cmp(&b.0)));
        v
    }

    /// The totals as a table: one line per operation with its calls, total and
    /// mean time in microseconds and share of the total, then a line of sums.
    pub fn report(&self) -> String {
        let ops = self.snapshot();
        let total: Duration = ops.iter().map(|(_, s)| s.total).sum();
        let width = ops.iter().map(|(n, _)| n.len()).max().unwrap_or(0).max(9);
        let mut out = format!(
            "{:<width$} {:>8} {:>14} {:>12} {:>7}\n",
            "operation", "calls", "total µs", "mean µs", "share"
        );
        for (name, s) in &ops {
            let us = s.total.as_secs_f64() * 1e6;
            let share = if total.is_zero() {
                0.0
            } else {
                100.0 * s.total.as_secs_f64() / total.as_secs_f64()
            };
            out.push_str(&format!(
                "{name:<width$} {:>8} {us:>14.1} {:>12.1} {share:>6.1}%\n",
                s.calls,
                us / s.calls.max(1) as f64,
            ));
        }
        let calls: u64 = ops.iter().map(|(_, s)| s.calls).sum();
        out.push_str(&format!(
            "{:<width$} {calls:>8} {:>14.1}\n",
            "(all)",
            total.as_secs_f64() * 1e6
        ));
        out
    }
}

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl Profiler {
    /// The totals as JSON: `{"events": [...], "memory": {}}` with one event
    /// per operation, the longest total first: `name` (the operation's kind,
    /// the first word of its name), `duration` (total microseconds),
    /// `provenance` (the rest of its name: the source location) and
    /// `details` (`{"calls": N}`). Memory is not tracked, so `memory` is empty.
    pub fn report_json(&self) -> String {
        let events: Vec<String> = self
            .snapshot()
            .iter()
            .map(|(name, s)| {
                let (kind, place) = name.split_once(' ').unwrap_or((name.as_str(), ""));
                format!(
                    "{{\"name\":{},\"duration\":{},\"provenance\":{},\"details\":{{\"calls\":{}}}}}",
                    json_string(kind),
                    s.total.as_secs_f64() * 1e6,
                    json_string(place),
                    s.calls
                )
            })
            .collect();
        format!("{{\"events\":[{}],\"memory\":{{}}}}\n", events.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_only_while_enabled() {
        let p = Profiler::new(false);
        assert_eq!(p.profile("a", || 3), 3);
        assert!(p.snapshot().is_empty());
        p.set_enabled(true);
        p.profile("a", || ());
        p.record("b", Duration::from_millis(5));
        p.record("a", Duration::from_millis(1));
        let s = p.snapshot();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].0, "b");
        assert_eq!(s[1].0, "a");
        assert_eq!(s[1].1.calls, 2);
        p.clear();
        assert!(p.snapshot().is_empty());
    }

    #[test]
    fn operations_report_to_the_active_recording_profiler() {
        let off = Profiler::new(false);
        {
            let _a = off.activate();
            op_end("segmap a.fut:1:1", op_start());
        }
        assert!(off.snapshot().is_empty());
        let on = Profiler::new(true);
        {
            let _a = on.activate();
            let t = op_start();
            assert!(t.is_some());
            op_end("segmap a.fut:1:1", t);
            op_end("segred a.fut:2:1", op_start());
            op_end("segred a.fut:2:1", op_start());
        }
        // Inactive again: not recorded.
        op_end("segscan a.fut:3:1", op_start());
        let s = on.snapshot();
        assert_eq!(s.len(), 2, "{s:?}");
        let calls: Vec<(&str, u64)> = s.iter().map(|(n, st)| (n.as_str(), st.calls)).collect();
        assert!(calls.contains(&("segred a.fut:2:1", 2)), "{calls:?}");
        assert!(calls.contains(&("segmap a.fut:1:1", 1)), "{calls:?}");
    }

    #[test]
    fn json_report_has_an_event_per_operation() {
        let p = Profiler::new(true);
        assert_eq!(p.report_json(), "{\"events\":[],\"memory\":{}}\n");
        p.record("segred prog.fut:3:5", Duration::from_micros(300));
        p.record("odd \"name\"\n", Duration::from_micros(2));
        assert_eq!(
            p.report_json(),
            "{\"events\":[\
             {\"name\":\"segred\",\"duration\":300,\"provenance\":\"prog.fut:3:5\",\"details\":{\"calls\":1}},\
             {\"name\":\"odd\",\"duration\":2,\"provenance\":\"\\\"name\\\"\\n\",\"details\":{\"calls\":1}}\
             ],\"memory\":{}}\n"
        );
    }

    #[test]
    fn report_has_a_line_per_operation_and_a_total() {
        let p = Profiler::new(true);
        p.record("segred prog.fut:3:5", Duration::from_micros(300));
        p.record("segmap prog.fut:2:1", Duration::from_micros(100));
        p.record("segmap prog.fut:2:1", Duration::from_micros(100));
        let r = p.report();
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines.len(), 4, "{r}");
        assert!(lines[1].starts_with("segred prog.fut:3:5"), "{r}");
        assert!(
            lines[1].contains("300.0") && lines[1].contains("60.0%"),
            "{r}"
        );
        assert!(
            lines[2].contains(" 2 ") && lines[2].contains("100.0"),
            "{r}"
        );
        assert!(
            lines[3].starts_with("(all)") && lines[3].contains("500.0"),
            "{r}"
        );
    }
}
