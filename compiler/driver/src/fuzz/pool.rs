//! Worker processes with a time limit per request: the differential runner's
//! way of running programs that may hang.
//!
//! Each of `jobs` threads keeps one worker process ([`super::worker`]), sends
//! it one request at a time and waits for the answer at most the time limit.
//! A worker that does not answer in time is killed (its request is
//! [`Verdict::TimedOut`]); one that ends without answering (a stack overflow,
//! an abort) gives [`Verdict::Died`]. Either way the next request starts a new
//! worker, so the run goes on. Without a worker command the requests run in
//! this process, with no limit (for tests of the runner itself).

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::Duration;

use super::worker::{ANSWER_PREFIX, Answer, Request};
use crate::testrun;

/// What became of a request.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The worker answered.
    Done(Answer),
    /// The worker did not answer within the time limit and was killed.
    TimedOut,
    /// The worker ended without answering, with this description.
    Died(String),
}

/// How requests are run. Idle workers are kept for the next [`Pool::run`].
pub struct Pool {
    /// The worker's command line (program first); `None`: in this process.
    pub command: Option<Vec<OsString>>,
    /// The time limit of each request.
    pub limit: Duration,
    /// Workers at once.
    pub jobs: usize,
    /// A program loaded by each new worker before its first timed request (so
    /// that checking the prelude does not count against the limit).
    pub warm: Option<PathBuf>,
    /// Workers between runs.
    idle: Mutex<Vec<Worker>>,
}

/// The time a new worker may take to load [`Pool::warm`].
const WARM_LIMIT: Duration = Duration::from_secs(300);

/// A running worker process.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    answers: mpsc::Receiver<String>,
}

impl Worker {
    fn start(command: &[OsString]) -> Result<Worker, String> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| "an empty worker command".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.to_string_lossy()))?;
        let stdin = child.stdin.take().ok_or("no worker stdin")?;
        let stdout = child.stdout.take().ok_or("no worker stdout")?;
        let (tx, answers) = mpsc::channel();
        // The reader ends when the worker's output does (it exits or is killed).
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(a) = line.strip_prefix(ANSWER_PREFIX)
                    && tx.send(a.to_string()).is_err()
                {
                    break;
                }
            }
        });
        Ok(Worker {
            child,
            stdin,
            answers,
        })
    }

    /// Sends a request and waits at most `limit` for the answer.
    fn call(&mut self, req: &Request, limit: Duration) -> Verdict {
        if writeln!(self.stdin, "{}", req.encode())
            .and_then(|()| self.stdin.flush())
            .is_err()
        {
            return Verdict::Died(self.end());
        }
        match self.answers.recv_timeout(limit) {
            Ok(line) => match Answer::decode(&line) {
                Ok(a) => Verdict::Done(a),
                Err(e) => Verdict::Died(e),
            },
            Err(mpsc::RecvTimeoutError::Timeout) => Verdict::TimedOut,
            Err(mpsc::RecvTimeoutError::Disconnected) => Verdict::Died(self.end()),
        }
    }

    /// Ends the process; how it ended.
    fn end(&mut self) -> String {
        let _ = self.child.kill();
        match self.child.wait() {
            Ok(status) => format!("the worker process ended ({status})"),
            Err(e) => format!("the worker process ended: {e}"),
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Pool {
    /// A pool of workers started with `command` (see the fields).
    pub fn new(
        command: Option<Vec<OsString>>,
        limit: Duration,
        jobs: usize,
        warm: Option<PathBuf>,
    ) -> Pool {
        Pool {
            command,
            limit,
            jobs,
            warm,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// Runs the requests; the verdicts in order.
    pub fn run(&self, reqs: &[Request]) -> Vec<Verdict> {
        match &self.command {
            None => self.run_here(reqs),
            Some(cmd) => self.run_in_workers(cmd, reqs),
        }
    }

    fn run_here(&self, reqs: &[Request]) -> Vec<Verdict> {
        let db = super::database();
        let mut out = vec![Verdict::Died(String::new()); reqs.len()];
        let work = |db: &crate::db::Database, i: usize| super::worker::handle(db, &reqs[i]);
        testrun::on_workers(&db, reqs.len(), self.jobs, &work, &mut |rx| {
            for (i, r) in rx {
                out[i] = match r {
                    Ok(a) => Verdict::Done(a),
                    Err(m) => Verdict::Done(Answer::Panic(m)),
                };
            }
        });
        out
    }

    fn run_in_workers(&self, cmd: &[OsString], reqs: &[Request]) -> Vec<Verdict> {
        let next = AtomicUsize::new(0);
        let out = Mutex::new(vec![Verdict::Died(String::new()); reqs.len()]);
        let jobs = self.jobs.max(1).min(reqs.len().max(1));
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(|| {
                    let mut worker: Option<Worker> =
                        self.idle.lock().ok().and_then(|mut v| v.pop());
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= reqs.len() {
                            break;
                        }
                        let v = self.call(cmd, &mut worker, &reqs[i]);
                        if !matches!(v, Verdict::Done(_)) {
                            // Killed or dead: the next request starts afresh.
                            worker = None;
                        }
                        if let Ok(mut o) = out.lock() {
                            o[i] = v;
                        }
                    }
                    if let (Some(w), Ok(mut idle)) = (worker, self.idle.lock()) {
                        idle.push(w);
                    }
                });
            }
        });
        out.into_inner().unwrap_or_default()
    }

    /// Runs one request on `worker`, starting (and warming) one if needed.
    fn call(&self, cmd: &[OsString], worker: &mut Option<Worker>, req: &Request) -> Verdict {
        if worker.is_none() {
            let mut w = match Worker::start(cmd) {
                Ok(w) => w,
                Err(e) => return Verdict::Died(e),
            };
            if let Some(p) = &self.warm {
                match w.call(&Request::Warm(p.clone()), WARM_LIMIT) {
                    Verdict::Done(_) => {}
                    Verdict::TimedOut => {
                        return Verdict::Died("the worker did not start in time".into());
                    }
                    d @ Verdict::Died(_) => return d,
                }
            }
            *worker = Some(w);
        }
        let Some(w) = worker.as_mut() else {
            return Verdict::Died("no worker".into());
        };
        w.call(req, self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake worker: answers `ok` to every request, except that it spins on
    /// one whose path contains `hang` and exits on one containing `die`.
    fn fake() -> Vec<OsString> {
        let script = r#"while read line; do
  case "$line" in
    *hang*) while :; do :; done ;;
    *die*) exit 3 ;;
    *) echo 'noise'; echo '@fut-fuzz {"ok":"fine"}' ;;
  esac
done"#;
        vec!["sh".into(), "-c".into(), script.into()]
    }

    fn reference(path: &str) -> Request {
        Request::Reference {
            path: path.into(),
            inputs: String::new(),
            must_be_true: false,
            expect_error: None,
        }
    }

    #[test]
    fn a_hanging_request_times_out_and_the_run_goes_on() {
        let pool = Pool::new(
            Some(fake()),
            Duration::from_millis(500),
            1,
            Some("warm.fut".into()),
        );
        let reqs = [
            reference("a.fut"),
            reference("hang.fut"),
            reference("b.fut"),
            reference("die.fut"),
            reference("c.fut"),
        ];
        let started = std::time::Instant::now();
        let v = pool.run(&reqs);
        assert!(started.elapsed() < Duration::from_secs(20), "{v:?}");
        // The worker is kept for the next run.
        assert_eq!(pool.run(&reqs[..1]), vec![v[0].clone()]);
        assert_eq!(pool.idle.lock().map(|v| v.len()).unwrap_or(0), 1);
        let ok = Verdict::Done(Answer::Reference(Ok("fine".into())));
        assert_eq!(v[0], ok);
        assert_eq!(v[1], Verdict::TimedOut);
        assert_eq!(v[2], ok);
        assert!(
            matches!(&v[3], Verdict::Died(m) if m.contains("ended")),
            "{:?}",
            v[3]
        );
        assert_eq!(v[4], ok);
    }

    #[test]
    fn a_missing_worker_program_is_a_clear_failure() {
        let pool = Pool::new(
            Some(vec!["/nonexistent/fut-worker".into()]),
            Duration::from_secs(1),
            2,
            None,
        );
        let v = pool.run(&[reference("a.fut")]);
        assert!(
            matches!(&v[0], Verdict::Died(m) if m.contains("cannot start")),
            "{v:?}"
        );
    }

    #[test]
    fn requests_and_answers_survive_encoding() {
        let reqs = [
            Request::Warm("w.fut".into()),
            Request::Reference {
                path: "p.fut".into(),
                inputs: "[1, 2]\n3i32".into(),
                must_be_true: true,
                expect_error: Some("Division by zero".into()),
            },
            Request::Test {
                path: "t.fut".into(),
                backend: crate::testrun::Backend::Ir,
            },
        ];
        for r in reqs {
            assert_eq!(Request::decode(&r.encode()), Ok(r));
        }
        let answers = [
            Answer::Reference(Ok("1i32\n[2]\n".into())),
            Answer::Reference(Err((super::super::ProblemKind::AdCheck, "x\ny".into()))),
            Answer::Test(Ok(())),
            Answer::Test(Err(vec!["a\nb".into(), "c".into()])),
            Answer::Panic("boom".into()),
        ];
        for a in answers {
            assert_eq!(Answer::decode(&a.encode()), Ok(a));
        }
    }
}
