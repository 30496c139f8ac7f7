//! `fut test --backend=multicore`: the test programs of a run compiled to
//! Rust modules, built into a few executables (`workspace.rs`) that serve
//! calls (`fut_runtime_multicore::batch`), and the calls the test runner
//! makes to them.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::workspace::{self, Member};
use super::{Target, cache_dir, does_not_compile, module_of, spans, write_runtime};
use crate::db::Database;
use crate::program::load_program;

mod bundle;
mod watchdog;

pub use watchdog::{TIMED_OUT, timed_out};

/// How many times a workspace is built: after a failure, the programs whose
/// generated code does not compile are left out and the crates that held
/// them built again.
const ATTEMPTS: usize = 4;

/// The test programs of a run, compiled into executables that serve calls.
pub struct Batch {
    /// Per program: its index among [`Batch::slots`], or why it cannot run.
    programs: Vec<(PathBuf, Result<usize, String>)>,
    /// Per compiled program: its executable (an index into `servers`), its
    /// module's index there, and its table of files ([`spans`]).
    slots: Vec<(usize, usize, Vec<u32>)>,
    /// The executables, running, or why not.
    servers: Vec<Result<Mutex<Server>, String>>,
    /// The time one call may take before its executable is stopped and the
    /// call fails as timed out ([`TIMED_OUT`]); no limit if `None`.
    time_limit: Option<Duration>,
}

/// A running executable of the batch.
struct Server {
    exe: PathBuf,
    /// Shared with the watchdog of a call ([`watchdog`]), which may kill it.
    child: Arc<Mutex<Child>>,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The failure of a call into a batch: the message and the span of the
/// failing statement.
#[derive(Clone, Debug)]
pub struct CallError {
    /// The message.
    pub message: String,
    /// The span, when known.
    pub span: Option<syntax::Span>,
}

/// Where a test run reports what it is doing: a line rewritten in place on
/// a terminal, plain lines otherwise.
struct Progress<'a> {
    out: &'a mut dyn Write,
    live: bool,
}

impl Progress<'_> {
    /// The current step, replacing the previous one on a terminal; plain
    /// output gets it only when `plain` is set (so it stays short).
    fn step(&mut self, text: &str, plain: bool) {
        if self.live {
            let _ = write!(self.out, "\r\x1b[K{text}");
        } else if plain {
            let _ = writeln!(self.out, "{text}");
        }
        let _ = self.out.flush();
    }

    fn clear(&mut self) {
        if self.live {
            let _ = write!(self.out, "\r\x1b[K");
            let _ = self.out.flush();
        }
    }
}

impl Batch {
    /// Builds `modules` (each program's path and its module or why it has
    /// none) and starts the executables.
    fn build(
        modules: Vec<(PathBuf, Result<TestModule, String>)>,
        progress: &mut Progress,
        target: Target,
    ) -> Batch {
        let (programs, mut sources): (Vec<PathBuf>, Vec<Result<TestModule, String>>) =
            modules.into_iter().unzip();
        let fail_all = |e: String| Batch {
            programs: programs
                .iter()
                .map(|p| (p.clone(), Err(e.clone())))
                .collect(),
            slots: Vec::new(),
            servers: Vec::new(),
            time_limit: None,
        };
        let cache = cache_dir();
        let runtime = match write_runtime(&cache) {
            Ok(r) => r,
            Err(e) => return fail_all(e),
        };
        let ws = workspace::Workspace::new(&cache, &programs).for_target(target);
        let _lock = match ws.lock(&mut |m| progress.step(m, true)) {
            Ok(l) => l,
            Err(e) => return fail_all(e),
        };
        let crate_of: Vec<usize> = programs.iter().map(|p| workspace::crate_of(p)).collect();
        let mut exes: BTreeMap<usize, PathBuf> = BTreeMap::new();
        for attempt in 0..ATTEMPTS {
            let members = members(&sources, &crate_of);
            let started = Instant::now();
            let total = members.len();
            let mut done = 0;
            let mut rebuilt = 0;
            progress.step(
                &format!(
                    "building {total} test crates (cargo, release mode, generated code unoptimised)"
                ),
                attempt == 0,
            );
            let built = ws.build(&runtime, &members, &mut |fresh| {
                done += 1;
                rebuilt += usize::from(!fresh);
                progress.step(&format!("building {total} test crates: {done} done"), false);
            });
            let built = match built {
                Ok(b) => b,
                Err(e) => return fail_all(e),
            };
            progress.step(
                &format!(
                    "built {total} test crates in {:.1} s ({rebuilt} compiled, {} up to date)",
                    started.elapsed().as_secs_f64(),
                    done - rebuilt,
                ),
                true,
            );
            let mut retry = false;
            for m in &members {
                if let Some(exe) = built.executables.get(&m.index) {
                    exes.insert(m.index, exe.clone());
                    continue;
                }
                exes.remove(&m.index);
                let bad = workspace::failing_modules(&built.errors, m.index);
                let whole = does_not_compile(&ws.member_dir(m.index), &built.errors);
                for (k, &p) in m.programs.iter().enumerate() {
                    if bad.is_empty() || attempt + 1 == ATTEMPTS {
                        sources[p] = Err(whole.clone());
                    } else if let Some(excerpt) = bad.get(&k) {
                        sources[p] = Err(format!(
                            "internal compiler error (a bug in fut): the Rust code generated for this program by the multicore backend (pass `codegen`) does not compile:\n{excerpt}"
                        ));
                        retry = true;
                    }
                }
            }
            if !retry {
                break;
            }
        }
        // Every program with a module left belongs to a crate that built.
        let mut servers = Vec::new();
        let mut server_of = BTreeMap::new();
        for (&index, exe) in &exes {
            server_of.insert(index, servers.len());
            servers.push(start(exe).map(Mutex::new));
        }
        let members = members(&sources, &crate_of);
        let mut slots = Vec::new();
        let mut slot_of = BTreeMap::new();
        for m in &members {
            for (k, &p) in m.programs.iter().enumerate() {
                if let (Some(&s), Ok((_, files))) = (server_of.get(&m.index), &sources[p]) {
                    slot_of.insert(p, slots.len());
                    slots.push((s, k, files.clone()));
                }
            }
        }
        let programs = programs
            .into_iter()
            .zip(sources)
            .enumerate()
            .map(|(i, (path, src))| {
                let r = match src {
                    Err(e) => Err(e),
                    Ok(_) => slot_of
                        .get(&i)
                        .copied()
                        .ok_or_else(|| "the program's test executable was not built".to_string()),
                };
                (path, r)
            })
            .collect();
        Batch {
            programs,
            slots,
            servers,
            time_limit: None,
        }
    }

    /// The index of the compiled program `path`, or why it cannot run.
    pub fn program(&self, path: &Path) -> Result<usize, String> {
        let (_, r) = self
            .programs
            .iter()
            .find(|(p, _)| p == path)
            .ok_or("the program was not compiled")?;
        let k = r.clone()?;
        let server = self.slots[k].0;
        match &self.servers[server] {
            Ok(_) => Ok(k),
            Err(e) => Err(e.clone()),
        }
    }

    /// Calls entry `entry` of the compiled program `prog` (from
    /// [`Batch::program`]) on flat arguments.
    pub fn call(
        &self,
        prog: usize,
        entry: &str,
        args: &[values::Value],
    ) -> Result<Vec<values::Value>, CallError> {
        let internal = |m: String| CallError {
            message: m,
            span: None,
        };
        let Some((server, module, files)) = self.slots.get(prog) else {
            return Err(internal(format!("no compiled program {prog}")));
        };
        let Some(Ok(server)) = self.servers.get(*server) else {
            return Err(internal("the test executable is not running".into()));
        };
        let mut s = server
            .lock()
            .map_err(|_| internal("the test executable was lost".into()))?;
        let mut bytes = Vec::new();
        for a in args {
            values::write_binary(a, &mut bytes).map_err(|e| internal(e.to_string()))?;
        }
        let watch = self
            .time_limit
            .and_then(|limit| watchdog::Watchdog::start(Arc::clone(&s.child), limit));
        let reply = s.exchange(*module, files, entry, &bytes);
        if watch.is_some_and(|w| w.stop()) {
            // The limit was reached and the process killed: a reply that came
            // just in time stands; either way the next calls get a new process.
            s.stop();
            if let Ok(fresh) = start(&s.exe) {
                *s = fresh;
            }
            return match reply {
                Ok(r) => r,
                Err(_) => Err(internal(timed_out(self.time_limit.unwrap_or_default()))),
            };
        }
        match reply {
            Ok(reply) => reply,
            Err(e) => {
                // The process died (a panic, a bug): report what it said and
                // start it again for the next calls.
                let msg = s.stop();
                let restarted = start(&s.exe);
                if let Ok(fresh) = restarted {
                    *s = fresh;
                }
                let said = msg.lines().take(5).collect::<Vec<_>>().join("\n");
                Err(internal(format!(
                    "the generated code crashed (a bug in fut): {}",
                    if said.is_empty() { e } else { said }
                )))
            }
        }
    }
}

impl Server {
    /// Kills the process and waits for it: what it wrote on standard error.
    fn stop(&mut self) -> String {
        let mut msg = String::new();
        if let Ok(mut c) = self.child.lock() {
            let _ = c.kill();
            let _ = c.wait();
            if let Some(mut err) = c.stderr.take() {
                let _ = err.read_to_string(&mut msg);
            }
        }
        msg
    }

    /// Sends one call and reads its reply; `Err` when the process does not
    /// answer (it crashed).
    fn exchange(
        &mut self,
        module: usize,
        files: &[u32],
        entry: &str,
        args: &[u8],
    ) -> Result<Result<Vec<values::Value>, CallError>, String> {
        let lost = |e: std::io::Error| format!("the test executable stopped: {e}");
        writeln!(self.stdin, "CALL {module} {entry} {}", args.len()).map_err(lost)?;
        self.stdin.write_all(args).map_err(lost)?;
        self.stdin.flush().map_err(lost)?;
        let mut line = String::new();
        self.stdout.read_line(&mut line).map_err(lost)?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut payload = |n: &str| -> Result<Vec<u8>, String> {
            let mut buf = vec![0u8; n.parse().unwrap_or(0)];
            self.stdout.read_exact(&mut buf).map_err(lost)?;
            Ok(buf)
        };
        match words.as_slice() {
            ["OK", n] => {
                let buf = payload(n)?;
                Ok(values::read_values(&buf).map_err(|e| CallError {
                    message: e.to_string(),
                    span: None,
                }))
            }
            ["ERR", f, st, en, n] => {
                let buf = payload(n)?;
                let num = |x: &str| x.parse::<u32>().unwrap_or(0);
                let (f, st, en) = (num(f), num(st), num(en));
                Ok(Err(CallError {
                    message: String::from_utf8_lossy(&buf).to_string(),
                    span: spans::global(files, f, st, en),
                }))
            }
            _ => Err("the test executable stopped without a reply".into()),
        }
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        for s in self.servers.drain(..).flatten() {
            if let Ok(mut s) = s.into_inner() {
                s.stop();
            }
        }
    }
}

/// The crates of a build: the programs with a module, grouped by crate.
fn members(sources: &[Result<TestModule, String>], crate_of: &[usize]) -> Vec<Member> {
    let mut by_crate: BTreeMap<usize, Member> = BTreeMap::new();
    for (p, src) in sources.iter().enumerate() {
        if let Ok((src, _)) = src {
            let m = by_crate.entry(crate_of[p]).or_insert_with(|| Member {
                index: crate_of[p],
                programs: Vec::new(),
                modules: Vec::new(),
            });
            m.programs.push(p);
            m.modules.push(src.clone());
        }
    }
    by_crate.into_values().collect()
}

/// Compiles the test programs among `programs` (those with cases to run
/// that type-check) to modules, on `opts.jobs` threads, and builds them into
/// a few executables (the workspace of `workspace.rs`), saying what it does
/// on `progress`.
pub fn prepare_batch(
    db: &Database,
    programs: &[PathBuf],
    opts: &crate::testrun::TestOptions,
    progress: &mut dyn Write,
) -> Batch {
    let mut progress = Progress {
        out: progress,
        live: opts.progress,
    };
    let target = match opts.backend {
        crate::testrun::Backend::OpenCl => Target::OpenCl,
        crate::testrun::Backend::Cuda => Target::Cuda,
        _ => Target::Multicore,
    };
    let started = Instant::now();
    let jobs = opts.jobs.max(1).min(programs.len().max(1));
    progress.step(
        &format!(
            "compiling {} programs to Rust for the {} backend",
            programs.len(),
            target.name()
        ),
        true,
    );
    let mut results: Vec<(usize, Result<TestModule, String>)> = Vec::new();
    let work = |db: &Database, i: usize| test_module(db, &programs[i], target, &opts.cuda_arch);
    crate::testrun::on_workers(db, programs.len(), jobs, &work, &mut |rx| {
        for (i, r) in rx {
            let r = r.unwrap_or_else(|msg| {
                Err(format!(
                    "internal compiler error (a bug in fut): the multicore backend panicked: {msg}"
                ))
            });
            results.push((i, r));
            progress.step(
                &format!(
                    "compiling programs to Rust for the {} backend: {} of {}",
                    target.name(),
                    results.len(),
                    programs.len()
                ),
                false,
            );
        }
    });
    results.sort_by_key(|(i, _)| *i);
    let compiled = results.iter().filter(|(_, r)| r.is_ok()).count();
    progress.step(
        &format!(
            "compiled {compiled} test programs to Rust in {:.1} s",
            started.elapsed().as_secs_f64()
        ),
        true,
    );
    let modules: Vec<(PathBuf, Result<TestModule, String>)> = results
        .into_iter()
        .map(|(i, r)| (programs[i].clone(), r))
        .collect();
    let mut b = Batch::build(modules, &mut progress, target);
    b.time_limit = opts.time_limit;
    progress.clear();
    b
}

/// A test program's module, and the table from its spans' file numbers to
/// the database's ([`spans`]).
type TestModule = (String, Vec<u32>);

/// Why a test program has no module: none is needed.
const NOT_A_TEST: &str = "not a test program";
const COMPILE_ERROR_TEST: &str = "a compile-error test";
const ILL_TYPED: &str = "the program does not type-check";

/// The module of one test program, or why there is none.
fn test_module(
    db: &Database,
    path: &Path,
    target: Target,
    cuda_arch: &[String],
) -> Result<TestModule, String> {
    let src = db
        .system()
        .read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !crate::testspec::has_test_block(&src) {
        return Err(NOT_A_TEST.into());
    }
    if let Ok(spec) = crate::testspec::parse_spec(&src)
        && matches!(spec.action, crate::testspec::TestAction::CompileError(_))
    {
        return Err(COMPILE_ERROR_TEST.into());
    }
    let program = load_program(db, path).map_err(|e| e.to_string())?;
    if !program.is_ok() {
        return Err(ILL_TYPED.into());
    }
    let mut ir = crate::irrun::compile(db, &program, false)?;
    let files = spans::localise(&mut ir);
    let module = module_of(db, &ir, true, false, "test", &files, target, cuda_arch)?;
    Ok((module, files))
}

/// Runs one case of a compiled test program: `compiled` is the batch and
/// the program's index in it.
pub fn run_case(
    compiled: Option<(&Batch, usize)>,
    entry: &str,
    args: &[values::Value],
) -> Result<Vec<values::Value>, interp::RuntimeError> {
    let Some((batch, k)) = compiled else {
        return Err(interp::RuntimeError {
            message: "the program was not compiled".into(),
            span: None,
            backtrace: Vec::new(),
        });
    };
    batch
        .call(k, entry, args)
        .map_err(|e| interp::RuntimeError {
            message: e.message,
            span: e.span,
            backtrace: Vec::new(),
        })
}

/// Starts a test executable.
fn start(exe: &Path) -> Result<Server, String> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    Ok(Server {
        exe: exe.to_path_buf(),
        child: Arc::new(Mutex::new(child)),
        stdin,
        stdout,
    })
}
