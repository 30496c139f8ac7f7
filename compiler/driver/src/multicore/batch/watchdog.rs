//! A time limit on one call into a test executable: a thread that kills the
//! executable when the call has not finished in time, so that a generated
//! program that runs too long is reported as timed out instead of stalling the
//! test run.

use std::process::Child;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The words that start the failure of a call that ran out of time.
pub const TIMED_OUT: &str = "timed out after";

/// The message of a call stopped after `limit`.
pub fn timed_out(limit: Duration) -> String {
    format!("{TIMED_OUT} {limit:?} (the compiled program was stopped)")
}

/// A watch over one call.
pub(super) struct Watchdog {
    done: mpsc::Sender<()>,
    thread: JoinHandle<bool>,
}

impl Watchdog {
    /// Starts watching: `child` is killed if [`Watchdog::stop`] is not called
    /// within `limit`. `None` if no thread could be started (the call then runs
    /// without a limit).
    pub(super) fn start(child: Arc<Mutex<Child>>, limit: Duration) -> Option<Watchdog> {
        let (done, rx) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("fut-test-watchdog".into())
            .spawn(move || match rx.recv_timeout(limit) {
                Err(RecvTimeoutError::Timeout) => {
                    if let Ok(mut c) = child.lock() {
                        let _ = c.kill();
                    }
                    true
                }
                _ => false,
            })
            .ok()?;
        Some(Watchdog { done, thread })
    }

    /// Ends the watch: whether the limit was reached first (and the process
    /// killed).
    pub(super) fn stop(self) -> bool {
        let _ = self.done.send(());
        self.thread.join().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    fn sleeper() -> Arc<Mutex<Child>> {
        let child = Command::new("sleep")
            .arg("30")
            .stdin(Stdio::null())
            .spawn()
            .expect("sleep runs");
        Arc::new(Mutex::new(child))
    }

    #[test]
    fn a_call_past_the_limit_has_its_process_killed() {
        let child = sleeper();
        let started = Instant::now();
        let dog = Watchdog::start(Arc::clone(&child), Duration::from_millis(200)).unwrap();
        // Wait for the process as a blocked call would, without holding the lock.
        loop {
            if let Ok(Some(_)) = child.lock().unwrap().try_wait() {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "not killed");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(dog.stop(), "the watchdog says the limit was not reached");
        assert!(started.elapsed() >= Duration::from_millis(200));
    }

    #[test]
    fn a_call_within_the_limit_leaves_the_process_alone() {
        let child = sleeper();
        let dog = Watchdog::start(Arc::clone(&child), Duration::from_secs(30)).unwrap();
        assert!(!dog.stop());
        let mut c = child.lock().unwrap();
        assert!(matches!(c.try_wait(), Ok(None)), "the process was killed");
        let _ = c.kill();
        let _ = c.wait();
    }

    #[test]
    fn the_message_starts_with_the_words_callers_look_for() {
        assert!(timed_out(Duration::from_millis(1500)).starts_with("timed out after 1.5s"));
    }
}
