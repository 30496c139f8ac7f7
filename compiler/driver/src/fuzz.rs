//! `fut dev --fuzz`: differential testing with random programs.
//!
//! Each program of [`fuzzgen`] runs on the reference interpreter, whose results
//! become the expected output of a `-- ==` test block; the program then runs on
//! every other backend asked for through the `fut test` machinery
//! ([`crate::testrun::outcomes`]; the multicore backend builds its sample of
//! programs into one executable). A program the interpreter rejects or fails
//! on, an AD program whose `jvp`/`vjp` disagree with finite differences, and a
//! backend whose results or errors differ, or that crashes, are problems. Each
//! problem is shrunk greedily: the first smaller variant of the program
//! ([`fuzzgen::Program::shrink`]) that is still valid and still shows the same
//! kind of problem replaces it, until none does or the time for shrinking runs
//! out. Backend problems are written as test programs (`-- ==` block with the
//! interpreter's results) to the regression folder.
//!
//! The interpreter and the IR interpreter run in worker processes
//! ([`pool`], [`worker`]) with a time limit per program and backend: a program
//! that exceeds it is reported as timed out (not shrunk) and the run goes on.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::db::Database;
use crate::program::load_program;
use crate::render;
use crate::run::{find_entry, instantiate, read_arguments};
use crate::system::OsSystem;
use crate::testrun::{self, Backend, Outcome, TestOptions};
use pool::{Pool, Verdict};
use worker::{Answer, Request};

/// A test-only hook: a backend whose program text satisfies it is taken to
/// disagree with the interpreter (to test the shrinker).
pub type Inject = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// Options of a fuzzing run.
#[derive(Clone)]
pub struct FuzzOptions {
    /// Number of programs.
    pub count: usize,
    /// Seed of the first program; program `i` has seed `seed + i`.
    pub seed: u64,
    /// Backends compared with the interpreter (the interpreter itself always runs).
    pub backends: Vec<Backend>,
    /// Programs run on compiled backends (the first ones; the others only on
    /// the interpreted ones).
    pub compiled_sample: usize,
    /// Where the generated programs are written.
    pub work_dir: PathBuf,
    /// Where reproducers of backend problems are written (none if `None`).
    pub regress_dir: Option<PathBuf>,
    /// Threads.
    pub jobs: usize,
    /// Print progress on standard error.
    pub progress: bool,
    /// Generator settings.
    pub config: fuzzgen::Config,
    /// Time allowed for shrinking each problem.
    pub shrink_time: Duration,
    /// See [`Inject`].
    pub inject: Option<Inject>,
    /// The command line of a worker process (`fut dev --fuzz-worker`); `None`
    /// runs the interpreted backends in this process, with no time limit.
    pub worker: Option<Vec<OsString>>,
    /// The time limit per program and backend (with a worker command).
    pub time_limit: Duration,
}

/// What went wrong with a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The program does not type-check: a generator bug (or a checker bug).
    Rejected,
    /// The interpreter failed at run time on a program without undefined
    /// behaviour.
    InterpError,
    /// `jvp` or `vjp` disagree with finite differences in the interpreter.
    AdCheck,
    /// A backend's results or errors differ from the interpreter's.
    Disagreement,
    /// A backend crashed (an internal compiler error).
    Crash,
    /// A backend did not finish within the time limit.
    TimedOut,
}

impl ProblemKind {
    /// A short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            ProblemKind::Rejected => "rejected by the checker",
            ProblemKind::InterpError => "interpreter error",
            ProblemKind::AdCheck => "AD disagrees with finite differences",
            ProblemKind::Disagreement => "disagreement",
            ProblemKind::Crash => "crash",
            ProblemKind::TimedOut => "timed out",
        }
    }
}

/// A problem found, shrunk.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The seed of the program.
    pub seed: u64,
    /// Its number in the run (seed minus the run's first seed).
    pub index: u64,
    /// The backend that showed it (`interp` for the first three kinds).
    pub backend: &'static str,
    /// What kind.
    pub kind: ProblemKind,
    /// The message of the shrunk program's failure.
    pub message: String,
    /// Expression nodes before and after shrinking.
    pub sizes: (usize, usize),
    /// The shrunk program as a test file.
    pub reproducer: String,
    /// Where it was written.
    pub saved: Option<PathBuf>,
}

/// The totals of a run.
#[derive(Clone, Debug, Default)]
pub struct FuzzReport {
    /// Programs generated.
    pub generated: usize,
    /// Per backend (the interpreter first): programs run, and those that
    /// agreed with the interpreter (for the interpreter: ran cleanly).
    pub backends: Vec<(&'static str, usize, usize)>,
    /// Problems found.
    pub problems: Vec<Problem>,
}

/// The interpreter's verdict on a program: its results as text, or a problem.
pub type Reference = Result<String, (ProblemKind, String)>;

fn database() -> Database {
    Database::new(Arc::new(OsSystem))
}

/// Runs `main` of the program at `path` on the interpreter with `inputs`
/// (value text); if `must_be_true`, its first result must be `true`; if
/// `expect_error`, it must fail with a message containing that text (the
/// verdict is then `Ok` with no results).
fn reference_of(
    db: &Database,
    path: &Path,
    inputs: &str,
    must_be_true: bool,
    expect_error: Option<&str>,
) -> Reference {
    let r = run_reference(db, path, inputs, must_be_true);
    let Some(want) = expect_error else { return r };
    match r {
        Err((ProblemKind::InterpError, m)) if m.contains(want) => Ok(String::new()),
        Ok(text) => Err((
            ProblemKind::InterpError,
            format!("expected an error containing `{want}`, but main returned:\n{text}"),
        )),
        Err(e) => Err(e),
    }
}

fn run_reference(db: &Database, path: &Path, inputs: &str, must_be_true: bool) -> Reference {
    let program = load_program(db, path).map_err(|e| (ProblemKind::Rejected, e.to_string()))?;
    let sources = db.sources();
    if !program.is_ok() {
        return Err((
            ProblemKind::Rejected,
            render::diagnostics(&program.diagnostics, &sources, false),
        ));
    }
    let entry = find_entry(&program, "main").map_err(|e| (ProblemKind::Rejected, e))?;
    let args = read_arguments(entry, inputs.as_bytes())
        .map_err(|e| (ProblemKind::Rejected, format!("the inputs: {e}")))?;
    let rt = |e: interp::RuntimeError| {
        (
            ProblemKind::InterpError,
            render::runtime_error(&e, &sources),
        )
    };
    let mut interp = instantiate(db, &program).map_err(rt)?;
    let results = interp
        .call_entry(program.root.id(db), "main", args)
        .map_err(rt)?;
    let mut out = Vec::new();
    crate::run::write_results(&results, false, &mut out)
        .map_err(|e| (ProblemKind::InterpError, e.to_string()))?;
    let text = String::from_utf8_lossy(&out).into_owned();
    if must_be_true && text.lines().next() != Some("true") {
        return Err((
            ProblemKind::AdCheck,
            format!("the derivatives and finite differences differ:\n{text}"),
        ));
    }
    Ok(text)
}

/// The program as a test file: a header, the `-- ==` block, the source.
pub fn test_file(prog: &fuzzgen::Program, header: &[String], expected: &str) -> String {
    let mut s = String::new();
    for h in header {
        for l in h.lines() {
            s.push_str(&format!("-- {l}\n").replace("-- \n", "--\n"));
        }
    }
    s.push_str("-- ==\n-- input {\n");
    for i in &prog.inputs {
        s.push_str(&format!("--   {i}\n"));
    }
    s.push_str("-- }\n");
    if let Some(e) = &prog.expect_error {
        s.push_str(&format!("-- error: {e}\n\n"));
    } else {
        s.push_str("-- output {\n");
        for l in expected.lines() {
            s.push_str(&format!("--   {l}\n"));
        }
        s.push_str("-- }\n\n");
    }
    s.push_str(&prog.render());
    s
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Classifies a backend's failure messages.
fn classify(msgs: &[String]) -> ProblemKind {
    let all = msgs.join("\n");
    if all.contains(crate::multicore::TIMED_OUT) {
        // A compiled program stopped at the time limit.
        ProblemKind::TimedOut
    } else if all.contains("internal compiler error") || all.contains("panicked") {
        ProblemKind::Crash
    } else {
        ProblemKind::Disagreement
    }
}

/// The code of the first diagnostic in a checker's message (`S003` in
/// `[S003] Error: …`), if any.
fn diagnostic_code(message: &str) -> Option<&str> {
    let start = message.find('[')? + 1;
    let len = message[start..].find(']')?;
    let code = &message[start..start + len];
    (code.len() >= 2
        && code.starts_with(|c: char| c.is_ascii_uppercase())
        && code[1..].chars().all(|c| c.is_ascii_digit()))
    .then_some(code)
}

/// The request that runs `prog` (written at `path`) on the interpreter.
fn reference_request(path: &Path, prog: &fuzzgen::Program) -> Request {
    Request::Reference {
        path: path.to_path_buf(),
        inputs: prog.inputs.join(" "),
        must_be_true: prog.must_be_true,
        expect_error: prog.expect_error.clone(),
    }
}

struct Runner<'a> {
    opts: &'a FuzzOptions,
    /// Files written for the shrinker, numbered.
    scratch: usize,
    /// Where the interpreted backends run.
    pool: Pool,
}

impl Runner<'_> {
    fn test_options(&self, backend: Backend) -> TestOptions {
        TestOptions {
            backend,
            jobs: self.opts.jobs,
            progress: false,
            time_limit: Some(self.opts.time_limit),
            ..TestOptions::default()
        }
    }

    /// The limit as words.
    fn timed_out(&self) -> (ProblemKind, String) {
        (
            ProblemKind::TimedOut,
            format!("timed out after {:?}", self.opts.time_limit),
        )
    }

    /// The interpreter's verdicts on programs: (file, program) pairs.
    fn references(&self, progs: &[(PathBuf, &fuzzgen::Program)]) -> Vec<Reference> {
        let reqs: Vec<Request> = progs
            .iter()
            .map(|(p, prog)| reference_request(p, prog))
            .collect();
        self.pool
            .run(&reqs)
            .into_iter()
            .map(|v| match self.answer(v)? {
                Answer::Reference(r) => r,
                _ => Err(wrong_answer()),
            })
            .collect()
    }

    /// A worker's answer, or the problem its verdict is: a panic, a time
    /// out, a worker that died.
    fn answer(&self, v: Verdict) -> Result<Answer, (ProblemKind, String)> {
        match v {
            Verdict::Done(Answer::Panic(m)) => Err((
                ProblemKind::Crash,
                format!("internal compiler error (a bug in fut): {m}"),
            )),
            Verdict::Done(a) => Ok(a),
            Verdict::TimedOut => Err(self.timed_out()),
            Verdict::Died(m) => Err((ProblemKind::Crash, m)),
        }
    }

    /// Runs test files on a backend: per file, `None` if it agreed with the
    /// interpreter, else the kind and message of the problem.
    fn run_backend(
        &self,
        backend: Backend,
        files: &[(PathBuf, String)],
        progress: &mut dyn Write,
    ) -> Vec<Option<(ProblemKind, String)>> {
        let failures: Vec<Option<(ProblemKind, String)>> = if backend.compiled() {
            let db = database();
            let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
            testrun::outcomes(&db, &paths, &self.test_options(backend), progress)
                .into_iter()
                .map(|o| match o {
                    Outcome::Failed(msgs) => Some((classify(&msgs), msgs.join("\n"))),
                    _ => None,
                })
                .collect()
        } else {
            let reqs: Vec<Request> = files
                .iter()
                .map(|(p, _)| Request::Test {
                    path: p.clone(),
                    backend,
                })
                .collect();
            self.pool
                .run(&reqs)
                .into_iter()
                .map(|v| match self.answer(v) {
                    Ok(Answer::Test(Ok(()))) => None,
                    Ok(Answer::Test(Err(msgs))) => Some((classify(&msgs), msgs.join("\n"))),
                    Ok(_) => Some(wrong_answer()),
                    Err(problem) => Some(problem),
                })
                .collect()
        };
        failures
            .into_iter()
            .zip(files)
            .map(|(f, (_, src))| match f {
                Some(f) => Some(f),
                None if self.opts.inject.as_ref().is_some_and(|f| f(src)) => Some((
                    ProblemKind::Disagreement,
                    "injected disagreement (test hook)".into(),
                )),
                None => None,
            })
            .collect()
    }

    /// Whether each candidate is valid and shows a problem of `kind` on
    /// `backend`: the index of the first that does, with its message.
    fn first_failing(
        &mut self,
        cands: &[fuzzgen::Program],
        backend: Backend,
        kind: ProblemKind,
        code: Option<&str>,
    ) -> Option<(usize, String)> {
        let dir = self.opts.work_dir.join("shrink");
        let _ = std::fs::create_dir_all(&dir);
        let mut written = Vec::new();
        for c in cands {
            self.scratch += 1;
            let src_path = dir.join(format!("c{}.fut", self.scratch));
            let source = c.render();
            if write(&src_path, &source).is_err() {
                return None;
            }
            written.push((src_path, self.scratch, source));
        }
        let pairs: Vec<(PathBuf, &fuzzgen::Program)> = written
            .iter()
            .zip(cands)
            .map(|((p, _, _), c)| (p.clone(), c))
            .collect();
        let refs = self.references(&pairs);
        let mut files = Vec::new();
        for (i, (r, (c, (_, n, source)))) in
            refs.into_iter().zip(cands.iter().zip(written)).enumerate()
        {
            if backend == Backend::Interp {
                if let Err((k, m)) = r
                    && k == kind
                    && diagnostic_code(&m) == code
                {
                    return Some((i, m));
                }
                continue;
            }
            let Ok(expected) = r else { continue };
            let test_path = dir.join(format!("t{n}.fut"));
            let text = test_file(c, &[], &expected);
            if write(&test_path, &text).is_err() {
                return None;
            }
            files.push((i, test_path, source));
        }
        if files.is_empty() {
            return None;
        }
        let run: Vec<(PathBuf, String)> = files
            .iter()
            .map(|(_, p, s)| (p.clone(), s.clone()))
            .collect();
        let results = self.run_backend(backend, &run, &mut std::io::sink());
        for ((i, _, _), r) in files.iter().zip(results) {
            if let Some((k, m)) = r
                && k == kind
            {
                return Some((*i, m));
            }
        }
        None
    }

    /// Shrinks `prog` while it shows a problem of `kind` on `backend`.
    fn shrink(
        &mut self,
        mut prog: fuzzgen::Program,
        mut message: String,
        backend: Backend,
        kind: ProblemKind,
    ) -> (fuzzgen::Program, String) {
        let deadline = Instant::now() + self.opts.shrink_time;
        // A rejected program stays rejected for the same reason.
        let code = diagnostic_code(&message).map(str::to_string);
        // Compiled backends build each chunk of candidates as one executable.
        let chunk = if backend.compiled() { 16 } else { 1 };
        'rounds: while Instant::now() < deadline {
            let cands = prog.shrink();
            for part in cands.chunks(chunk) {
                if Instant::now() >= deadline {
                    break 'rounds;
                }
                if let Some((i, m)) = self.first_failing(part, backend, kind, code.as_deref()) {
                    prog = part[i].clone();
                    message = m;
                    continue 'rounds;
                }
            }
            break;
        }
        (prog, message)
    }

    fn problem(
        &mut self,
        prog: &fuzzgen::Program,
        backend: Backend,
        kind: ProblemKind,
        message: String,
    ) -> Problem {
        let before = prog.size();
        // A program that runs too long is not shrunk: each try could take the
        // whole time limit.
        let (small, message) = if kind == ProblemKind::TimedOut {
            (prog.clone(), message)
        } else {
            self.shrink(prog.clone(), message, backend, kind)
        };
        let dir = self.opts.work_dir.join("shrink");
        let _ = std::fs::create_dir_all(&dir);
        self.scratch += 1;
        let path = dir.join(format!("c{}.fut", self.scratch));
        let _ = write(&path, &small.render());
        let expected = if kind == ProblemKind::TimedOut && backend == Backend::Interp {
            String::new()
        } else {
            self.references(&[(path, &small)])
                .pop()
                .and_then(Result::ok)
                .unwrap_or_default()
        };
        let first = message
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
            .to_string();
        let header = vec![
            format!(
                "Found by `fut dev --fuzz` (seed {}) on the {} backend: {}.",
                prog.seed,
                backend.name(),
                kind.name()
            ),
            first,
            String::new(),
        ];
        let reproducer = test_file(&small, &header, &expected);
        let mut saved = None;
        if let Some(dir) = &self.opts.regress_dir
            && !matches!(backend, Backend::Interp)
            && kind != ProblemKind::TimedOut
        {
            let _ = std::fs::create_dir_all(dir);
            let p = dir.join(format!("fuzz_{}_{}.fut", backend.name(), prog.seed));
            if write(&p, &reproducer).is_ok() {
                saved = Some(p);
            }
        } else {
            let dir = self.opts.work_dir.join("found");
            let _ = std::fs::create_dir_all(&dir);
            let p = dir.join(format!("fuzz_{}_{}.fut", backend.name(), prog.seed));
            if write(&p, &reproducer).is_ok() {
                saved = Some(p);
            }
        }
        Problem {
            seed: prog.seed,
            index: prog.seed.wrapping_sub(self.opts.seed),
            backend: backend.name(),
            kind,
            message,
            sizes: (before, small.size()),
            reproducer,
            saved,
        }
    }
}

/// Runs a fuzzing session; progress and problems as they are found go to
/// `progress`.
pub fn run(opts: &FuzzOptions, progress: &mut dyn Write) -> Result<FuzzReport, String> {
    std::fs::create_dir_all(opts.work_dir.join("ref"))
        .map_err(|e| format!("cannot create {}: {e}", opts.work_dir.display()))?;
    let warm = opts.work_dir.join("warm.fut");
    write(&warm, "def main (x: i32) : i32 = x + 1\n")?;
    let pool = Pool::new(opts.worker.clone(), opts.time_limit, opts.jobs, Some(warm));
    let mut runner = Runner {
        opts,
        scratch: 0,
        pool,
    };
    let mut report = FuzzReport {
        generated: opts.count,
        ..FuzzReport::default()
    };
    let started = Instant::now();
    let progs: Vec<fuzzgen::Program> = (0..opts.count)
        .map(|i| fuzzgen::generate(opts.seed.wrapping_add(i as u64), &opts.config))
        .collect();
    // The interpreter, in chunks (for progress).
    let mut refs: Vec<Reference> = Vec::with_capacity(progs.len());
    for (c, chunk) in progs.chunks(100).enumerate() {
        let mut pairs = Vec::new();
        for (j, prog) in chunk.iter().enumerate() {
            let path = opts
                .work_dir
                .join("ref")
                .join(format!("p{}.fut", c * 100 + j));
            write(&path, &prog.render())?;
            pairs.push((path, prog));
        }
        refs.extend(runner.references(&pairs));
        if opts.progress {
            let _ = writeln!(progress, "fuzz: interpreter {}/{}", refs.len(), progs.len());
        }
    }
    let mut good = Vec::new();
    let mut failed_ref = Vec::new();
    for (i, r) in refs.into_iter().enumerate() {
        match r {
            Ok(expected) => {
                let path = opts.work_dir.join(format!("p{i}.fut"));
                let text = test_file(&progs[i], &[], &expected);
                write(&path, &text)?;
                good.push((i, path, progs[i].render()));
            }
            Err((kind, msg)) => failed_ref.push((i, kind, msg)),
        }
    }
    report.backends.push(("interp", progs.len(), good.len()));
    for (i, kind, msg) in failed_ref {
        let _ = writeln!(
            progress,
            "fuzz: program {i} (seed {}) on the interpreter: {}{}",
            progs[i].seed,
            kind.name(),
            shrinking(kind)
        );
        let p = runner.problem(&progs[i], Backend::Interp, kind, msg);
        report_problem(&p, progress);
        report.problems.push(p);
    }
    for &backend in &opts.backends {
        if backend == Backend::Interp {
            continue;
        }
        let sample: Vec<&(usize, PathBuf, String)> = if backend.compiled() {
            good.iter().take(opts.compiled_sample).collect()
        } else {
            good.iter().collect()
        };
        if opts.progress {
            let _ = writeln!(
                progress,
                "fuzz: {} programs on the {} backend ({:.0?} so far)",
                sample.len(),
                backend.name(),
                started.elapsed()
            );
        }
        let files: Vec<(PathBuf, String)> = sample
            .iter()
            .map(|(_, p, s)| (p.clone(), s.clone()))
            .collect();
        let chunk = if backend.compiled() {
            files.len().max(1)
        } else {
            100
        };
        let mut results = Vec::with_capacity(files.len());
        for part in files.chunks(chunk) {
            results.extend(runner.run_backend(backend, part, progress));
            if opts.progress && !backend.compiled() {
                let _ = writeln!(
                    progress,
                    "fuzz: {} {}/{}",
                    backend.name(),
                    results.len(),
                    files.len()
                );
            }
        }
        let mut agreed = 0;
        for ((i, _, _), r) in sample.iter().zip(results) {
            match r {
                None => agreed += 1,
                Some((kind, msg)) => {
                    let _ = writeln!(
                        progress,
                        "fuzz: program {i} (seed {}) on the {} backend: {}{}",
                        progs[*i].seed,
                        backend.name(),
                        kind.name(),
                        shrinking(kind)
                    );
                    let p = runner.problem(&progs[*i], backend, kind, msg);
                    report_problem(&p, progress);
                    report.problems.push(p);
                }
            }
        }
        report.backends.push((backend.name(), sample.len(), agreed));
    }
    Ok(report)
}

fn shrinking(kind: ProblemKind) -> &'static str {
    if kind == ProblemKind::TimedOut {
        ""
    } else {
        "; shrinking"
    }
}

fn report_problem(p: &Problem, out: &mut dyn Write) {
    if p.kind == ProblemKind::TimedOut {
        return;
    }
    let _ = writeln!(
        out,
        "fuzz: seed {} shrunk from {} to {} nodes{}",
        p.seed,
        p.sizes.0,
        p.sizes.1,
        match &p.saved {
            Some(path) => format!(", written to {}", path.display()),
            None => String::new(),
        }
    );
}

/// The report's closing lines.
pub fn summary(report: &FuzzReport) -> String {
    let mut s = format!("{} programs generated\n", report.generated);
    for (b, ran, agreed) in &report.backends {
        s.push_str(&format!("{b}: {ran} ran, {agreed} agreed\n"));
    }
    s.push_str(&format!("{} problems\n", report.problems.len()));
    s
}

pub mod pool;

/// The problem of a worker that answered another request than the one it
/// was given.
fn wrong_answer() -> (ProblemKind, String) {
    (
        ProblemKind::Crash,
        "the worker answered the wrong request".into(),
    )
}

#[cfg(test)]
mod tests;
pub mod worker;
