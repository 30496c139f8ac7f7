//! The fuzzing worker: a child process (`fut dev --fuzz-worker`) that runs one
//! generated program at a time for the differential runner, so that a program
//! that runs too long can be stopped by ending the process (see
//! [`super::pool`]).
//!
//! The protocol is one JSON object a line. A request is
//! `{"op":"ref","path":P,"inputs":I,"must_be_true":B}` (run `main` of the
//! program at `P` on the interpreter with the inputs `I`),
//! `{"op":"test","path":P,"backend":NAME}` (test the test program at `P` on a
//! backend) or `{"op":"warm","path":P}` (load the program at `P`, so that the
//! prelude is checked before the first timed request). Each answer is one line
//! starting with [`ANSWER_PREFIX`], followed by `{"ok":TEXT}`,
//! `{"err":KIND,"msg":TEXT}`, `{"failed":[TEXT…]}` or `{"panic":TEXT}`; other
//! lines on standard output are ignored by the runner.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{ProblemKind, Reference, reference_of};
use crate::db::Database;
use crate::testrun::{self, Backend, Outcome, TestOptions};

/// The start of each answer line.
pub const ANSWER_PREFIX: &str = "@fut-fuzz ";

/// A test hook: a worker started with this environment variable set stalls
/// (forever) on every program whose source contains its value, as a hanging
/// backend would.
pub const STALL_VAR: &str = "FUT_FUZZ_STALL";

/// One piece of work for a worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// Load a program (untimed warm-up).
    Warm(PathBuf),
    /// Run `main` on the interpreter: the program, its inputs and whether its
    /// first result must be `true`.
    Reference {
        /// The program.
        path: PathBuf,
        /// Its inputs as value text.
        inputs: String,
        /// Whether its first result must be `true` (AD checks).
        must_be_true: bool,
        /// Text the error it must fail with contains.
        expect_error: Option<String>,
    },
    /// Test a test program on a backend.
    Test {
        /// The test program.
        path: PathBuf,
        /// The backend (interpreted ones only).
        backend: Backend,
    },
}

/// A worker's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The answer to [`Request::Warm`] and [`Request::Reference`].
    Reference(Reference),
    /// The answer to [`Request::Test`]: `Ok` when it passed or was skipped,
    /// else the failure messages.
    Test(Result<(), Vec<String>>),
    /// The work panicked, with this message.
    Panic(String),
}

impl Request {
    /// The request as one JSON line (without the newline).
    pub fn encode(&self) -> String {
        let v = match self {
            Request::Warm(p) => json!({"op": "warm", "path": p.to_string_lossy()}),
            Request::Reference {
                path,
                inputs,
                must_be_true,
                expect_error,
            } => json!({
                "op": "ref",
                "path": path.to_string_lossy(),
                "inputs": inputs,
                "must_be_true": must_be_true,
                "expect_error": expect_error,
            }),
            Request::Test { path, backend } => json!({
                "op": "test",
                "path": path.to_string_lossy(),
                "backend": backend.name(),
            }),
        };
        v.to_string()
    }

    /// Reads a request line.
    pub fn decode(line: &str) -> Result<Request, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("bad request: {e}"))?;
        let path = || -> Result<PathBuf, String> {
            v["path"]
                .as_str()
                .map(PathBuf::from)
                .ok_or_else(|| "bad request: no path".to_string())
        };
        match v["op"].as_str() {
            Some("warm") => Ok(Request::Warm(path()?)),
            Some("ref") => Ok(Request::Reference {
                path: path()?,
                inputs: v["inputs"].as_str().unwrap_or("").to_string(),
                must_be_true: v["must_be_true"].as_bool().unwrap_or(false),
                expect_error: v["expect_error"].as_str().map(str::to_string),
            }),
            Some("test") => {
                let backend = match v["backend"].as_str() {
                    Some("interp") => Backend::Interp,
                    Some("ir") => Backend::Ir,
                    other => return Err(format!("bad request: backend {other:?}")),
                };
                Ok(Request::Test {
                    path: path()?,
                    backend,
                })
            }
            other => Err(format!("bad request: op {other:?}")),
        }
    }

    fn path(&self) -> &Path {
        match self {
            Request::Warm(p)
            | Request::Reference { path: p, .. }
            | Request::Test { path: p, .. } => p,
        }
    }
}

fn kind_code(k: ProblemKind) -> &'static str {
    match k {
        ProblemKind::Rejected => "rejected",
        ProblemKind::InterpError => "interp_error",
        ProblemKind::AdCheck => "ad_check",
        ProblemKind::Disagreement => "disagreement",
        ProblemKind::Crash => "crash",
        ProblemKind::TimedOut => "timed_out",
    }
}

fn kind_of_code(s: &str) -> Option<ProblemKind> {
    [
        ProblemKind::Rejected,
        ProblemKind::InterpError,
        ProblemKind::AdCheck,
        ProblemKind::Disagreement,
        ProblemKind::Crash,
        ProblemKind::TimedOut,
    ]
    .into_iter()
    .find(|k| kind_code(*k) == s)
}

impl Answer {
    /// The answer as one JSON line (without the prefix and the newline).
    pub fn encode(&self) -> String {
        let v = match self {
            Answer::Reference(Ok(text)) => json!({"ok": text}),
            Answer::Reference(Err((k, m))) => json!({"err": kind_code(*k), "msg": m}),
            Answer::Test(Ok(())) => json!({"passed": true}),
            Answer::Test(Err(msgs)) => json!({"failed": msgs}),
            Answer::Panic(m) => json!({"panic": m}),
        };
        v.to_string()
    }

    /// Reads an answer line (without the prefix).
    pub fn decode(line: &str) -> Result<Answer, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("bad answer: {e}"))?;
        if let Some(t) = v["ok"].as_str() {
            return Ok(Answer::Reference(Ok(t.to_string())));
        }
        if let Some(k) = v["err"].as_str() {
            let kind = kind_of_code(k).ok_or_else(|| format!("bad answer: kind {k}"))?;
            let msg = v["msg"].as_str().unwrap_or("").to_string();
            return Ok(Answer::Reference(Err((kind, msg))));
        }
        if v["passed"].as_bool() == Some(true) {
            return Ok(Answer::Test(Ok(())));
        }
        if let Some(msgs) = v["failed"].as_array() {
            let msgs = msgs
                .iter()
                .map(|m| m.as_str().unwrap_or("").to_string())
                .collect();
            return Ok(Answer::Test(Err(msgs)));
        }
        if let Some(m) = v["panic"].as_str() {
            return Ok(Answer::Panic(m.to_string()));
        }
        Err(format!("bad answer: {line}"))
    }
}

/// Does one request in this process.
pub fn handle(db: &Database, req: &Request) -> Answer {
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match req {
        Request::Warm(path) => Answer::Reference(
            crate::program::load_program(db, path)
                .map(|_| String::new())
                .map_err(|e| (ProblemKind::Rejected, e.to_string())),
        ),
        Request::Reference {
            path,
            inputs,
            must_be_true,
            expect_error,
        } => Answer::Reference(reference_of(
            db,
            path,
            inputs,
            *must_be_true,
            expect_error.as_deref(),
        )),
        Request::Test { path, backend } => {
            let opts = TestOptions {
                backend: *backend,
                ..TestOptions::default()
            };
            match testrun::test_program(db, path, &opts) {
                Outcome::Failed(msgs) => Answer::Test(Err(msgs)),
                _ => Answer::Test(Ok(())),
            }
        }
    }));
    r.unwrap_or_else(|p| {
        Answer::Panic(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into()),
        )
    })
}

/// Whether the stall hook ([`STALL_VAR`]) applies to this request.
fn stalls(req: &Request, hook: Option<&str>) -> bool {
    let Some(needle) = hook.filter(|n| !n.is_empty()) else {
        return false;
    };
    !matches!(req, Request::Warm(_))
        && std::fs::read_to_string(req.path()).is_ok_and(|s| s.contains(needle))
}

/// Serves requests from `input` until it ends, answering on `output` (on a
/// thread with a large stack, as the compiler needs).
pub fn serve(input: impl BufRead + Send, output: impl Write + Send) -> Result<(), String> {
    let hook = std::env::var(STALL_VAR).ok();
    let work = move || -> Result<(), String> {
        let db = super::database();
        let mut output = output;
        for line in input.lines() {
            let line = line.map_err(|e| format!("cannot read a request: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            let req = Request::decode(&line)?;
            if stalls(&req, hook.as_deref()) {
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(3600));
                }
            }
            let answer = handle(&db, &req);
            writeln!(output, "{ANSWER_PREFIX}{}", answer.encode())
                .and_then(|()| output.flush())
                .map_err(|e| format!("cannot write an answer: {e}"))?;
        }
        Ok(())
    };
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(crate::STACK_SIZE)
            .spawn_scoped(s, work)
            .map_err(|e| format!("cannot start the worker thread: {e}"))?
            .join()
            .map_err(|_| "the worker thread panicked".to_string())?
    })
}
