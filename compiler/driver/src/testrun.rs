//! `fut test`: finding test programs, running their test blocks, and reporting.
//!
//! Programs run in parallel on worker threads, each thread with its own database
//! handle (sharing the checked prelude and any shared imports) and a fresh interpreter
//! per program. A program passes when every case that is not skipped passes. The
//! report ends with the line `N passed, M failed`.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use values::{Tolerance, Value};

use crate::db::Database;
use crate::program::{Program, load_program};
use crate::render;
use crate::run::{find_entry, instantiate, param_types, read_arguments};
use crate::system::System;
use crate::testspec::{
    Expected, ExpectedError, Input, StructureBlock, TestAction, TestCase, ValuesText, parse_spec,
};

/// Where test cases run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The reference interpreter.
    #[default]
    Interp,
    /// The core IR: internalised, optimised with validation after every
    /// pass, run by the IR interpreter and compared with the reference
    /// interpreter.
    Ir,
    /// The multicore backend: every program compiled to Rust, all of them
    /// built into one executable that serves the cases (`multicore.rs`).
    Multicore,
    /// The OpenCL backend: as the multicore backend, with the programs'
    /// parallel loops run as OpenCL kernels on the device chosen by
    /// `FUT_OPENCL_DEVICE` (the first GPU, else the first device).
    OpenCl,
    /// The CUDA backend: as the multicore backend, with the programs'
    /// parallel loops run as CUDA kernels, compiled ahead of time for
    /// [`TestOptions::cuda_arch`].
    Cuda,
}

impl Backend {
    /// The backend's name, as in `--backend=NAME` and `no_NAME` tags.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Interp => "interp",
            Backend::Ir => "ir",
            Backend::Multicore => "multicore",
            Backend::OpenCl => "opencl",
            Backend::Cuda => "cuda",
        }
    }

    /// Whether programs are compiled to Rust crates (the multicore and
    /// GPU backends).
    pub fn compiled(self) -> bool {
        matches!(self, Backend::Multicore | Backend::OpenCl | Backend::Cuda)
    }
}

/// Options of a test run.
#[derive(Clone, Debug)]
pub struct TestOptions {
    /// Where cases run.
    pub backend: Backend,
    /// Programs and cases with any of these tags are skipped (in addition to
    /// `disable`, `notest` and `no_<backend>`).
    pub exclude: Vec<String>,
    /// Run only these entry points (all when empty).
    pub entries: Vec<String>,
    /// Number of programs tested at once.
    pub jobs: usize,
    /// Show a live progress line on standard error.
    pub progress: bool,
    /// On `--backend=ir`: verify the internalised program and the output of every
    /// pass, and compare each case's results with the reference interpreter's.
    /// On by default, so that a pass that breaks an invariant or changes a result is
    /// caught at the pass, not by a wrong expected value later (or never, for cases
    /// without an expected output). `FUT_VALIDATE=0` turns it off for speed (see
    /// [`validation_from_env`]).
    pub validate: bool,
    /// On `--backend=cuda`: the architectures the kernels are compiled for
    /// (`sm_XY`).
    pub cuda_arch: Vec<String>,
    /// On a compiled backend: run the cases with the executables of this
    /// test bundle instead of compiling (`--bundle`; see
    /// `multicore::Batch::from_bundle`).
    pub bundle: Option<PathBuf>,
    /// On a compiled backend: compile and build, write the executables and
    /// the table of programs to this folder, and run no case
    /// (`--write-bundle`).
    pub write_bundle: Option<PathBuf>,
    /// On a compiled backend: the time each call of an entry point may take; a
    /// call that takes longer has its executable stopped and fails with a
    /// message starting [`crate::multicore::TIMED_OUT`]. No limit if `None`.
    pub time_limit: Option<std::time::Duration>,
}

/// The environment variable that turns validation off: `FUT_VALIDATE=0`.
pub const VALIDATE_VAR: &str = "FUT_VALIDATE";

/// Whether to validate, given the value of [`VALIDATE_VAR`]: off for `0`, `false`,
/// `no` or `off` (any case, surrounding spaces ignored); on when unset or anything
/// else.
pub fn validation_from_env(value: Option<&str>) -> bool {
    match value {
        None => true,
        Some(v) => !matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "0" | "false" | "no" | "off"
        ),
    }
}

impl Default for TestOptions {
    fn default() -> Self {
        TestOptions {
            backend: Backend::Interp,
            exclude: Vec::new(),
            entries: Vec::new(),
            jobs: 1,
            progress: false,
            validate: true,
            cuda_arch: crate::multicore::cuda::default_archs(),
            bundle: None,
            write_bundle: None,
            time_limit: None,
        }
    }
}

impl TestOptions {
    fn excluded_tags(&self) -> BTreeSet<String> {
        let mut tags: BTreeSet<String> = self.exclude.iter().cloned().collect();
        tags.insert("disable".into());
        tags.insert("notest".into());
        tags.insert(format!("no_{}", self.backend.name()));
        // The multicore backend compiles what the IR pipeline produces, so what
        // the IR pipeline cannot run yet it cannot either.
        if self.backend.compiled() {
            tags.insert("no_ir".into());
        }
        // The GPU backends' host code is the multicore backend's.
        if matches!(self.backend, Backend::OpenCl | Backend::Cuda) {
            tags.insert("no_multicore".into());
        }
        tags
    }
}

/// The outcome of testing one program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every case that ran passed; `skipped` cases did not run.
    Passed {
        /// Cases that ran.
        ran: usize,
        /// Cases skipped (tags, `compiled`, `script`).
        skipped: usize,
        /// Remarks for the user (a `structure` block for a pipeline we do
        /// not have was not checked).
        notes: Vec<String>,
    },
    /// The whole program was skipped (a tag, or no case left to run).
    Skipped(String),
    /// Something failed; the messages say what.
    Failed(Vec<String>),
}

/// The totals of a test run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Programs that passed.
    pub passed: usize,
    /// Programs that failed.
    pub failed: usize,
    /// Programs skipped as a whole.
    pub skipped_programs: usize,
    /// Cases skipped inside programs that ran.
    pub skipped_cases: usize,
}

impl Summary {
    /// The closing line, `N passed, M failed`.
    pub fn closing_line(&self) -> String {
        format!("{} passed, {} failed", self.passed, self.failed)
    }
}

/// The `.fut` files named by `paths`: files as given, directories searched
/// recursively, in sorted order without duplicates.
pub fn collect_programs(system: &dyn System, paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    fn walk(system: &dyn System, dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        let mut entries = system
            .read_dir(dir)
            .map_err(|e| format!("cannot read directory {}: {e}", dir.display()))?;
        entries.sort();
        for p in entries {
            if system.is_dir(&p) {
                walk(system, &p, out)?;
            } else if p.extension().is_some_and(|x| x == "fut") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        if system.is_dir(p) {
            walk(system, p, &mut out)?;
        } else if system.is_file(p) {
            out.push(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
        }
    }
    let mut seen = BTreeSet::new();
    out.retain(|p| seen.insert(p.clone()));
    Ok(out)
}

/// Runs the tests of `programs`, writing failures and the summary to `out` and the
/// progress line (when enabled) to `progress`.
pub fn run_tests(
    db: &Database,
    programs: &[PathBuf],
    opts: &TestOptions,
    out: &mut dyn Write,
    progress: &mut dyn Write,
) -> Summary {
    let jobs = opts.jobs.max(1).min(programs.len().max(1));
    let name = opts.backend.name();
    let batch = opts.backend.compiled().then(|| match &opts.bundle {
        Some(dir) => crate::multicore::Batch::from_bundle(dir, programs, db, name),
        None => crate::multicore::prepare_batch(db, programs, opts, progress),
    });
    if let Some(dir) = &opts.write_bundle {
        let mut summary = Summary::default();
        let written = match &batch {
            Some(b) => b.write_bundle(dir, db, name),
            None => Err(format!(
                "--write-bundle needs a compiled backend, not --backend={name}"
            )),
        };
        match written {
            Ok((line, failed)) => {
                for (path, e) in &failed {
                    let _ = writeln!(out, "FAILED {}:", path.display());
                    for l in e.trim_end().lines() {
                        let _ = writeln!(out, "  {l}");
                    }
                }
                summary.failed = failed.len();
                summary.passed = programs.len() - failed.len();
                let _ = writeln!(out, "{line}");
            }
            Err(e) => {
                let _ = writeln!(out, "error: {e}");
                summary.failed = 1;
            }
        }
        return summary;
    }
    let batch = batch.as_ref();
    let mut summary = Summary::default();
    let work = |db: &Database, i: usize| test_program_in(db, &programs[i], opts, batch);
    on_workers(db, programs.len(), jobs, &work, &mut |rx| {
        let total = programs.len();
        let mut done = 0;
        for (i, outcome) in rx {
            let outcome = outcome.unwrap_or_else(|msg| {
                Outcome::Failed(vec![format!(
                    "internal compiler error (a bug in fut): {msg}"
                )])
            });
            done += 1;
            let path = &programs[i];
            if opts.progress {
                let _ = write!(progress, "\r\x1b[K");
            }
            match outcome {
                Outcome::Passed { skipped, notes, .. } => {
                    summary.passed += 1;
                    summary.skipped_cases += skipped;
                    for n in notes {
                        let _ = writeln!(out, "note: {}: {n}", path.display());
                    }
                }
                Outcome::Skipped(_) => summary.skipped_programs += 1,
                Outcome::Failed(msgs) => {
                    summary.failed += 1;
                    let _ = writeln!(out, "FAILED {}:", path.display());
                    for m in msgs {
                        for line in m.trim_end().lines() {
                            let _ = writeln!(out, "  {line}");
                        }
                    }
                    let _ = out.flush();
                }
            }
            if opts.progress {
                let _ = write!(
                    progress,
                    "[{done}/{total}] {} passed, {} failed  {}",
                    summary.passed,
                    summary.failed,
                    path.display()
                );
                let _ = progress.flush();
            }
        }
        if opts.progress {
            let _ = write!(progress, "\r\x1b[K");
            let _ = progress.flush();
        }
    });
    if summary.skipped_programs > 0 || summary.skipped_cases > 0 {
        let _ = writeln!(
            out,
            "skipped: {} program{}, {} case{}",
            summary.skipped_programs,
            if summary.skipped_programs == 1 {
                ""
            } else {
                "s"
            },
            summary.skipped_cases,
            if summary.skipped_cases == 1 { "" } else { "s" },
        );
    }
    let _ = writeln!(out, "{}", summary.closing_line());
    let _ = out.flush();
    summary
}

/// Tests `programs` and returns each one's outcome, in order, printing nothing
/// but the compiled backends' build progress (to `progress`): for callers that
/// judge the outcomes themselves (`fut dev --fuzz`). A panic while testing a
/// program is its failure.
pub fn outcomes(
    db: &Database,
    programs: &[PathBuf],
    opts: &TestOptions,
    progress: &mut dyn Write,
) -> Vec<Outcome> {
    let jobs = opts.jobs.max(1).min(programs.len().max(1));
    let batch = (opts.backend.compiled() && !programs.is_empty())
        .then(|| crate::multicore::prepare_batch(db, programs, opts, progress));
    let batch = batch.as_ref();
    let mut out = vec![Outcome::Skipped(String::new()); programs.len()];
    let work = |db: &Database, i: usize| test_program_in(db, &programs[i], opts, batch);
    on_workers(db, programs.len(), jobs, &work, &mut |rx| {
        for (i, outcome) in rx {
            out[i] = outcome.unwrap_or_else(|msg| {
                Outcome::Failed(vec![format!(
                    "internal compiler error (a bug in fut): {msg}"
                )])
            });
        }
    });
    out
}

/// The result of item `i` of [`on_workers`], or the message of its panic.
pub(crate) type WorkerResult<T> = (usize, Result<T, String>);

/// Runs `work(db, i)` for every `i < count` on `jobs` threads with large
/// stacks, each with its own database handle; `results` receives the
/// results as they come (in any order), on the calling thread. A panic in
/// `work` is caught and becomes `Err` with its message.
pub(crate) fn on_workers<T: Send>(
    db: &Database,
    count: usize,
    jobs: usize,
    work: &(dyn Fn(&Database, usize) -> T + Sync),
    results: &mut dyn FnMut(mpsc::Receiver<WorkerResult<T>>),
) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let run = |db: &Database, tx: &mpsc::Sender<WorkerResult<T>>| {
        loop {
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= count {
                break;
            }
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(db, i))).map_err(
                |p| {
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "unknown panic".into())
                },
            );
            if tx.send((i, r)).is_err() {
                break;
            }
        }
    };
    std::thread::scope(|scope| {
        let mut workers = 0;
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let db = db.clone();
            let run = &run;
            let spawned = std::thread::Builder::new()
                .stack_size(crate::STACK_SIZE)
                .spawn_scoped(scope, move || run(&db, &tx));
            if spawned.is_err() {
                break;
            }
            workers += 1;
        }
        if workers == 0 {
            // No thread could be started: the work is done here.
            run(db, &tx);
        }
        drop(tx);
        results(rx);
    });
}

/// Is this file a test program (does it have a `-- ==` block)?
pub fn is_test_program(system: &dyn System, path: &Path) -> bool {
    system
        .read_to_string(path)
        .map(|s| crate::testspec::has_test_block(&s))
        .unwrap_or(true)
}

/// Tests one program.
pub fn test_program(db: &Database, path: &Path, opts: &TestOptions) -> Outcome {
    test_program_in(db, path, opts, None)
}

/// Tests one program; on the multicore backend its cases run on `batch`.
fn test_program_in(
    db: &Database,
    path: &Path,
    opts: &TestOptions,
    batch: Option<&crate::multicore::Batch>,
) -> Outcome {
    let system = db.system().clone();
    let src = match system.read_to_string(path) {
        Ok(s) => s,
        Err(e) => return Outcome::Failed(vec![format!("cannot read {}: {e}", path.display())]),
    };
    let spec = match parse_spec(&src) {
        Ok(s) => s,
        Err(e) => {
            return Outcome::Failed(vec![format!("malformed test block: {e}")]);
        }
    };
    let excluded = opts.excluded_tags();
    if let Some(t) = spec.tags.iter().find(|t| excluded.contains(*t)) {
        return Outcome::Skipped(format!("tag {t}"));
    }
    let program = match load_program(db, path) {
        Ok(p) => p,
        Err(e) => return Outcome::Failed(vec![e.to_string()]),
    };
    let sources = db.sources();
    let rendered = render::diagnostics(&program.diagnostics, &sources, false);
    let (groups, warnings, structures) = match &spec.action {
        TestAction::CompileError(expected) => {
            return if program.is_ok() {
                Outcome::Failed(vec![format!(
                    "expected a compile-time error{}, but the program type-checked",
                    describe_expected(expected)
                )])
            } else if expected.matches(&rendered) {
                Outcome::Passed {
                    ran: 1,
                    skipped: 0,
                    notes: Vec::new(),
                }
            } else {
                Outcome::Failed(vec![format!(
                    "expected a compile-time error{}, but got:\n{rendered}",
                    describe_expected(expected)
                )])
            };
        }
        TestAction::Run {
            groups,
            warnings,
            structures,
            ..
        } => (groups, warnings, structures),
    };
    if !program.is_ok() {
        return Outcome::Failed(vec![format!(
            "the program does not type-check:\n{rendered}"
        )]);
    }
    let mut failures = Vec::new();
    let warning_text: String = {
        let ws: Vec<_> = program
            .diagnostics
            .iter()
            .filter(|d| !d.is_error())
            .cloned()
            .collect();
        render::diagnostics(&ws, &sources, false)
    };
    for w in warnings {
        if !w.matches(&warning_text) {
            failures.push(format!(
                "expected a warning matching `{}`, but there was none",
                w.text
            ));
        }
    }
    let mut notes = Vec::new();
    if opts.backend == Backend::Ir {
        check_structures(
            db,
            &program,
            structures,
            opts.validate,
            &mut failures,
            &mut notes,
        );
    }
    // The program's top-level definitions are evaluated only when a case runs, so a
    // file whose blocks have no runnable case (only `structure`, or only skipped
    // cases) runs nothing, as with Futhark.
    let mut interp: Option<interp::Interpreter> = None;
    let needs_reference =
        opts.backend == Backend::Interp || (opts.backend == Backend::Ir && opts.validate);
    let mut ir_prog: Option<Result<ir::Program, String>> = None;
    let root_id = program.root.id(db);
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut ran = 0;
    let mut skipped = 0;
    for group in groups {
        for entry_name in &group.entries {
            if !opts.entries.is_empty() && !opts.entries.contains(entry_name) {
                skipped += group.cases.len();
                continue;
            }
            for case in &group.cases {
                if case_skipped(case, &excluded, opts.backend) {
                    skipped += 1;
                    continue;
                }
                ran += 1;
                // The reference interpreter runs the cases on `interp`, and on `ir`
                // when results are compared with it.
                if needs_reference && interp.is_none() {
                    match instantiate(db, &program) {
                        Ok(i) => interp = Some(i),
                        Err(e) => {
                            failures.push(format!(
                                "evaluating the program's top-level definitions failed:\n{}",
                                render::runtime_error(&e, &sources)
                            ));
                            return Outcome::Failed(failures);
                        }
                    }
                }
                // The multicore backend needs the IR of a program with script
                // inputs to split opaque values into their components.
                let needs_ir = opts.backend == Backend::Ir
                    || (opts.backend.compiled() && matches!(case.input, Input::Script(_)));
                if needs_ir && ir_prog.is_none() {
                    ir_prog = Some(crate::irrun::compile(db, &program, opts.validate));
                }
                if let Some(Err(msg)) = &ir_prog {
                    failures.push(msg.clone());
                    return Outcome::Failed(failures);
                }
                let compiled = match batch {
                    Some(b) => match b.program(path) {
                        Ok(k) => Some((b, k)),
                        Err(msg) => {
                            failures.push(msg);
                            return Outcome::Failed(failures);
                        }
                    },
                    None => None,
                };
                let ir = ir_prog.as_ref().and_then(|r| r.as_ref().ok());
                let ctx = CaseContext {
                    system: &*system,
                    program_path: path,
                    dir: &dir,
                    entry_name,
                    case,
                };
                if let Err(msg) =
                    ctx.run(&program, interp.as_mut(), ir, compiled, root_id, &sources)
                {
                    failures.push(format!(
                        "entry {entry_name}, case #{} (line {}): {msg}",
                        case.index, case.line
                    ));
                }
            }
        }
    }
    if !failures.is_empty() {
        Outcome::Failed(failures)
    } else if ran == 0 && skipped > 0 && (structures.is_empty() || opts.backend != Backend::Ir) {
        Outcome::Skipped("every case was skipped".into())
    } else {
        Outcome::Passed {
            ran,
            skipped,
            notes,
        }
    }
}

/// Checks `structure` blocks against the constructs of the program after
/// the block's pipeline (`--backend=ir`); a block for a pipeline we do not
/// have gives a note instead.
fn check_structures(
    db: &Database,
    program: &Program,
    blocks: &[StructureBlock],
    validate: bool,
    failures: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    for b in blocks {
        let Some(passes) = crate::irrun::structure_pipeline(b.pipeline.as_deref()) else {
            notes.push(format!(
                "the structure block at line {} is for the pipeline `{}`, which fut does not have; not checked",
                b.line,
                b.pipeline.as_deref().unwrap_or("")
            ));
            continue;
        };
        let prog = match crate::irrun::compile_with(db, program, &passes, validate) {
            Ok(p) => p,
            Err(msg) => {
                failures.push(msg);
                return;
            }
        };
        let counts = opt::structure::count_constructs(&prog);
        for (name, want) in &b.counts {
            let got = counts.get(name.as_str()).copied().unwrap_or(0);
            if got != *want {
                failures.push(format!(
                    "structure block (line {}): expected {want} {name}, found {got}",
                    b.line
                ));
            }
        }
    }
}

fn describe_expected(e: &ExpectedError) -> String {
    if e.regex.is_some() {
        format!(" matching `{}`", e.text)
    } else {
        String::new()
    }
}

fn case_skipped(case: &TestCase, excluded: &BTreeSet<String>, backend: Backend) -> bool {
    if case.tags.iter().any(|t| excluded.contains(t)) {
        return true;
    }
    backend == Backend::Interp && case.tags.iter().any(|t| t == "compiled")
}

/// The backends a case runs on: a compiled program of the batch, the IR, the
/// reference interpreter with the program's root file.
struct Backends<'a> {
    compiled: Option<(&'a crate::multicore::Batch, usize)>,
    ir: Option<&'a ir::Program>,
    interp: Option<&'a mut interp::Interpreter>,
    root: syntax::FileId,
}

struct CaseContext<'a> {
    system: &'a dyn System,
    program_path: &'a Path,
    dir: &'a Path,
    entry_name: &'a str,
    case: &'a TestCase,
}

impl CaseContext<'_> {
    fn read_data(&self, file: &str) -> Result<Vec<u8>, String> {
        let path = self.dir.join(file);
        let bytes = self
            .system
            .read(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if path.extension().is_some_and(|x| x == "gz") {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(bytes.as_slice())
                .read_to_end(&mut out)
                .map_err(|e| format!("cannot decompress {}: {e}", path.display()))?;
            Ok(out)
        } else {
            Ok(bytes)
        }
    }

    fn inputs(&self, entry: &semantic::EntryPoint) -> Result<Vec<Value>, String> {
        match &self.case.input {
            Input::Values(v) => {
                read_arguments(entry, v.text.as_bytes()).map_err(|m| in_block(m, v))
            }
            Input::File(f) => {
                let bytes = self.read_data(f)?;
                read_arguments(entry, bytes.as_slice()).map_err(|m| format!("{f}: {m}"))
            }
            Input::Random(gens) => {
                let types = param_types(entry)?;
                let mut rng = values::Rng::new(1 + self.case.index as u64);
                let bounds = values::Bounds::default();
                let mut vals = Vec::new();
                for g in gens {
                    let v = match values::parse_type_spec(g) {
                        Ok(t) => values::generate(&t, &bounds, &mut rng)
                            .map_err(|e| format!("random input `{g}`: {e}"))?,
                        Err(_) => values::parse_value(g)
                            .map_err(|e| format!("random input `{g}`: {}", e.message))?,
                    };
                    vals.push(v);
                }
                if vals.len() != types.len() {
                    return Err(format!(
                        "entry point `{}` takes {} arguments, but the random input gives {}",
                        entry.name,
                        types.len(),
                        vals.len()
                    ));
                }
                for (i, (v, t)) in vals.iter().zip(&types).enumerate() {
                    if !t.matches(v) {
                        return Err(format!(
                            "entry point `{}`, parameter {} has type {t}, but the random input gives {}",
                            entry.name,
                            i + 1,
                            v.value_type()
                        ));
                    }
                }
                Ok(vals)
            }
            Input::Script(_) => Err("a script input is not a list of values".into()),
        }
    }

    /// Runs the case's script on the backends at hand and then the entry on its
    /// value; on `--backend=ir` with the reference interpreter, on both, whose
    /// results must agree. `Err` for a script at fault; `Ok(Err(_))` for a
    /// run-time error (which a case may expect).
    fn run_script(
        &self,
        program: &crate::Program,
        text: &str,
        backends: Backends,
    ) -> Result<Result<Vec<Value>, interp::RuntimeError>, String> {
        let read = |f: &str| self.read_data(f);
        let script = crate::script::source::CaseScript::load(self.case, text, &read)?;
        let at = |p: crate::script::Pos| script.place.at(p);
        let expr = &script.expr;
        let entry = find_entry(program, self.entry_name)?;
        let read_file = |f: &str| self.read_data(f);
        let env = crate::script::Env {
            entries: program.entry_points(),
            read_file: &read_file,
        };
        let outcome = |r: Result<Vec<Value>, crate::script::ScriptError>| match r {
            Ok(v) => Ok(Ok(v)),
            Err(crate::script::ScriptError::Runtime(e)) => Ok(Err(e)),
            Err(crate::script::ScriptError::Script(p, m)) => Err(format!("{}: {m}", at(p))),
        };
        let run = |b: &mut dyn FnMut(
            &crate::script::Expr,
        ) -> Result<Vec<Value>, crate::script::ScriptError>| outcome(b(expr));
        use crate::script::backends::{BatchBackend, InterpBackend, IrBackend};
        use crate::script::eval::run_entry;
        match backends {
            Backends {
                compiled: Some((batch, index)),
                ir: Some(prog),
                ..
            } => run(&mut |e| run_entry(&env, &mut BatchBackend { batch, index, prog }, e, entry)),
            Backends {
                compiled: None,
                ir: Some(prog),
                interp,
                root,
            } => {
                let result = run(&mut |e| run_entry(&env, &mut IrBackend { prog }, e, entry))?;
                if let Some(interp) = interp {
                    let reference = run(&mut |e| {
                        run_entry(&env, &mut InterpBackend { interp, root }, e, entry)
                    })?;
                    if let (Ok(a), Ok(b)) = (&result, &reference)
                        && let Err(m) = values::compare_several(a, b, Tolerance::DEFAULT)
                    {
                        return Err(format!(
                            "the IR interpreter and the reference interpreter disagree: {m}"
                        ));
                    }
                }
                Ok(result)
            }
            Backends {
                compiled: None,
                ir: None,
                interp: Some(interp),
                root,
            } => run(&mut |e| run_entry(&env, &mut InterpBackend { interp, root }, e, entry)),
            _ => Err("no backend to run the case on".into()),
        }
    }

    /// The expected results. Unsuffixed literals are read at the entry's result types
    /// (as inputs are read at the parameter types); when the block does not fit those
    /// types, it is read untyped so that the comparison reports the difference.
    fn expected_values(&self, entry: &semantic::EntryPoint) -> Result<Option<Vec<Value>>, String> {
        let read = |bytes: &[u8]| match result_types(entry) {
            Some(types) => {
                values::read_typed_values(bytes, &types).or_else(|_| values::read_values(bytes))
            }
            None => values::read_values(bytes),
        };
        match &self.case.expected {
            Expected::Values(v) => read(v.text.as_bytes())
                .map(Some)
                .map_err(|e| in_block(format!("invalid expected output: {e}"), v)),
            Expected::File(f) => {
                let bytes = self.read_data(f)?;
                read(&bytes)
                    .map(Some)
                    .map_err(|e| format!("{f}: invalid expected output: {e}"))
            }
            _ => Ok(None),
        }
    }

    fn run(
        &self,
        program: &crate::Program,
        interp: Option<&mut interp::Interpreter>,
        ir: Option<&ir::Program>,
        compiled: Option<(&crate::multicore::Batch, usize)>,
        root: syntax::FileId,
        sources: &crate::db::Sources,
    ) -> Result<(), String> {
        let entry = find_entry(program, self.entry_name)?;
        let expected = self.expected_values(entry)?;
        if let Input::Script(text) = &self.case.input {
            let backends = Backends {
                compiled,
                ir,
                interp,
                root,
            };
            let result = self.run_script(program, text, backends)?;
            return self.check(result, expected, sources);
        }
        let args = self.inputs(entry)?;
        let result = match (ir, interp) {
            _ if compiled.is_some() => crate::multicore::run_case(compiled, self.entry_name, &args),
            (None, Some(interp)) => interp.call_entry(root, self.entry_name, args),
            (None, None) => return Err("no backend to run the case on".into()),
            (Some(prog), None) => crate::irrun::run_entry(prog, self.entry_name, args),
            (Some(prog), Some(interp)) => {
                let reference = interp.call_entry(root, self.entry_name, args.clone());
                let result = crate::irrun::run_entry(prog, self.entry_name, args);
                if let (Ok(a), Ok(b)) = (&result, &reference)
                    && let Err(m) = values::compare_several(a, b, Tolerance::DEFAULT)
                {
                    return Err(format!(
                        "the IR interpreter and the reference interpreter disagree: {m}"
                    ));
                }
                result
            }
        };
        self.check(result, expected, sources)
    }

    /// Checks the result of a run against what the case expects.
    fn check(
        &self,
        result: Result<Vec<Value>, interp::RuntimeError>,
        expected: Option<Vec<Value>>,
        sources: &crate::db::Sources,
    ) -> Result<(), String> {
        match (&self.case.expected, result) {
            (Expected::Error(e), Err(err)) => {
                let text = render::runtime_error(&err, sources);
                if e.matches(&text) {
                    Ok(())
                } else {
                    Err(format!(
                        "expected a run-time error{}, but got:\n{text}",
                        describe_expected(e)
                    ))
                }
            }
            (Expected::Error(e), Ok(_)) => Err(format!(
                "expected a run-time error{}, but the run succeeded",
                describe_expected(e)
            )),
            (_, Err(err)) => Err(render::runtime_error(&err, sources)),
            (_, Ok(actual)) => match expected {
                None => Ok(()),
                Some(expected) => self.compare(&actual, &expected),
            },
        }
    }

    fn compare(&self, actual: &[Value], expected: &[Value]) -> Result<(), String> {
        let Err(mismatch) = values::compare_several(actual, expected, Tolerance::DEFAULT) else {
            return Ok(());
        };
        let stem = self.program_path.with_extension("");
        let base = format!("{}.{}.{}", stem.display(), self.entry_name, self.case.index);
        let actual_path = PathBuf::from(format!("{base}.actual"));
        let expected_path = PathBuf::from(format!("{base}.expected"));
        let text = |vs: &[Value]| vs.iter().map(|v| format!("{v}\n")).collect::<String>();
        let wrote = self
            .system
            .write(&actual_path, text(actual).as_bytes())
            .and_then(|_| self.system.write(&expected_path, text(expected).as_bytes()));
        let note = match wrote {
            Ok(()) => format!(
                "\n(wrote {} and {})",
                actual_path.display(),
                expected_path.display()
            ),
            Err(e) => format!("\n(could not write the values out: {e})"),
        };
        Err(format!("result differs: {mismatch}{note}"))
    }
}

/// Turns a position inside a values block into a line of the program.
fn in_block(message: String, block: &ValuesText) -> String {
    format!("in the values block at line {}: {message}", block.line)
}

/// The types of an entry's results as the value reader needs them, if every result is
/// a primitive or an array of primitives.
fn result_types(entry: &semantic::EntryPoint) -> Option<Vec<values::RankedType>> {
    entry
        .results
        .iter()
        .map(|r| match r {
            semantic::EntryType::Array { elem, rank } => {
                Some(values::RankedType::new(*rank, crate::run::prim_type(*elem)))
            }
            semantic::EntryType::Opaque(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_is_on_unless_turned_off() {
        assert!(validation_from_env(None));
        assert!(validation_from_env(Some("1")));
        assert!(validation_from_env(Some("")));
        for off in ["0", "false", "No", " off "] {
            assert!(!validation_from_env(Some(off)), "{off}");
        }
        assert!(TestOptions::default().validate);
    }
}
