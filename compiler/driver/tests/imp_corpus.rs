//! The imperative IR on the test corpus: every program under `tests/` is
//! internalised, optimised and differentiated (the standard pipeline),
//! lowered to the imperative IR with the `flatten` crate's plans, and each
//! of its test cases (inline values or data files) is run on the
//! imperative IR's interpreter and on the core IR's interpreter. Results
//! must agree, and a case that fails on one must fail on the other.
//!
//! Every program in [`MUST_PASS`] must lower and agree; for the whole
//! corpus the test prints how many programs lower and agree, and the
//! lowering errors by construct.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use driver::db::Database;
use driver::system::OsSystem;
use driver::testspec::{Input, TestAction, parse_spec};
use values::Tolerance;

/// Folders (under `tests/`) whose every program lowers and agrees.
const MUST_PASS: &[&str] = &[
    "ad",
    "interp",
    "library",
    "modules",
    "multicore",
    "prelude",
    "programs",
    "regress",
    "sizes",
    "structure",
    "syntax",
    "types",
    "uniqueness",
];

/// What became of one program.
#[derive(Debug)]
enum Result {
    /// Not a program with runnable cases, or not compiled by the core IR
    /// pipeline: not the imperative IR's concern.
    Skipped,
    /// Lowering failed with this message.
    NotLowered(String),
    /// Lowered; these cases agreed (with these counts), and these
    /// messages say where not.
    Ran {
        agreed: usize,
        failures: Vec<String>,
        totals: Totals,
    },
}

/// Counts summed over the cases that agreed.
#[derive(Debug, Default, Clone, Copy)]
struct Totals {
    /// Blocks the imperative IR allocated.
    allocs: u64,
    /// Their bytes.
    alloc_bytes: u64,
    /// Elements its copies moved.
    copied: u64,
    /// Array elements the core IR interpreter wrote.
    ir_writes: u64,
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests")
}

fn read_data(path: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    if path.extension().is_some_and(|x| x == "gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .ok()?;
        Some(out)
    } else {
        Some(bytes)
    }
}

fn test_program(db: &Database, path: &Path) -> Result {
    let Ok(src) = std::fs::read_to_string(path) else {
        return Result::Skipped;
    };
    let Ok(spec) = parse_spec(&src) else {
        return Result::Skipped;
    };
    if spec
        .tags
        .iter()
        .any(|t| t == "disable" || t == "no_ir" || t == "notest")
    {
        return Result::Skipped;
    }
    let TestAction::Run { groups, .. } = &spec.action else {
        return Result::Skipped;
    };
    let Ok(program) = driver::load_program(db, path) else {
        return Result::Skipped;
    };
    if !program.is_ok() {
        return Result::Skipped;
    }
    let Ok(prog) = driver::irrun::compile(db, &program, false) else {
        return Result::Skipped;
    };
    let imp = match codegen::imp::lower_program(&prog) {
        Ok(p) => p,
        Err(e) => return Result::NotLowered(e.message),
    };
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut agreed = 0;
    let mut failures = Vec::new();
    let mut totals = Totals::default();
    for group in groups {
        for entry_name in &group.entries {
            let Ok(entry) = driver::run::find_entry(&program, entry_name) else {
                continue;
            };
            let Some(ir_entry) = prog.entries.iter().find(|e| &e.name == entry_name) else {
                continue;
            };
            let fname = prog.functions[ir_entry.fun].name.clone();
            for case in &group.cases {
                if case.tags.iter().any(|t| t == "no_ir" || t == "disable") {
                    continue;
                }
                let bytes = match &case.input {
                    Input::Values(v) => v.text.clone().into_bytes(),
                    Input::File(f) => match read_data(&dir.join(f)) {
                        Some(b) => b,
                        None => continue,
                    },
                    _ => continue,
                };
                let Ok(args) = driver::run::read_arguments(entry, bytes.as_slice()) else {
                    continue;
                };
                let args = internalise::expand_args(args);
                let want = ir::interp::run_function(&prog, &fname, args.clone());
                let got = codegen::imp::interp::run_function(&imp, &fname, args);
                let verdict = match (&want, &got) {
                    (Ok(a), Ok(b)) => {
                        values::compare_several(&b.values, &a.values, Tolerance::DEFAULT)
                            .map_err(|m| format!("results differ: {m}"))
                    }
                    (Err(_), Err(_)) => Ok(()),
                    (Ok(_), Err(e)) => Err(format!("fails: {}", e.message)),
                    (Err(e), Ok(_)) => {
                        Err(format!("succeeds where the IR fails with: {}", e.message))
                    }
                };
                match verdict {
                    Ok(()) => {
                        agreed += 1;
                        if let (Ok(a), Ok(b)) = (&want, &got) {
                            totals.allocs += b.counters.allocs;
                            totals.alloc_bytes += b.counters.alloc_bytes;
                            totals.copied += b.counters.copied;
                            totals.ir_writes += a.counters.writes;
                        }
                    }
                    Err(m) => failures.push(format!("{entry_name} case {}: {m}", case.index)),
                }
            }
        }
    }
    Result::Ran {
        agreed,
        failures,
        totals,
    }
}

/// The first words of a lowering error, to group them by construct.
fn construct(message: &str) -> String {
    message.split(':').next().unwrap_or(message).to_string()
}

#[test]
fn the_corpus_lowers_and_agrees_with_the_ir_interpreter() {
    let root = corpus();
    let programs = driver::testrun::collect_programs(&OsSystem, std::slice::from_ref(&root))
        .expect("the corpus is readable");
    let only = std::env::var("FUT_IMP_ONLY").ok();
    let programs: Vec<PathBuf> = programs
        .into_iter()
        .filter(|path| {
            let rel = path.strip_prefix(&root).unwrap_or(path);
            only.as_ref()
                .is_none_or(|o| rel.to_string_lossy().contains(o.as_str()))
        })
        .collect();
    // The programs with large inputs (tests/multicore: tens of seconds on
    // the interpreters) are taken first, so that the workers finish
    // together.
    let mut order: Vec<usize> = (0..programs.len()).collect();
    order.sort_by_key(|&k| {
        !programs[k]
            .strip_prefix(&root)
            .is_ok_and(|r| r.starts_with("multicore"))
    });
    // The programs are shared among as many workers as there are cores,
    // each with its own database, on threads with a large stack as `fut`
    // runs: the corpus holds programs nested up to the nesting limit
    // (tests/regress/hostile_if_chain_1000.fut).
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: std::sync::Mutex<Vec<Option<Result>>> =
        std::sync::Mutex::new((0..programs.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(driver::STACK_SIZE)
                    .spawn_scoped(scope, || {
                        let db = Database::new(Arc::new(OsSystem));
                        loop {
                            let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            let Some(&k) = order.get(n) else { break };
                            let path = &programs[k];
                            let start = std::time::Instant::now();
                            let r = test_program(&db, path);
                            if std::env::var("FUT_IMP_TIMES").is_ok() {
                                println!(
                                    "{:8.2} s {}",
                                    start.elapsed().as_secs_f64(),
                                    path.display()
                                );
                            }
                            results.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(r);
                        }
                    })
                    .expect("a lowering thread starts")
            })
            .collect();
        for h in handles {
            h.join().expect("the corpus lowers");
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut compiled = 0;
    let mut lowered = 0;
    let mut agreeing = 0;
    let mut cases = 0;
    let mut sum = Totals::default();
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    let mut must_fail = Vec::new();
    for (path, r) in programs.iter().zip(results) {
        let rel = path.strip_prefix(&root).unwrap_or(path).to_path_buf();
        let must = MUST_PASS.iter().any(|d| rel.starts_with(d));
        let Some(r) = r else { continue };
        let bad = match &r {
            Result::Skipped => continue,
            Result::NotLowered(m) => {
                compiled += 1;
                *errors.entry(construct(m)).or_default() += 1;
                Some(format!("not lowered: {m}"))
            }
            Result::Ran {
                agreed,
                failures,
                totals,
            } => {
                sum.allocs += totals.allocs;
                sum.alloc_bytes += totals.alloc_bytes;
                sum.copied += totals.copied;
                sum.ir_writes += totals.ir_writes;
                compiled += 1;
                lowered += 1;
                cases += agreed;
                if failures.is_empty() {
                    agreeing += 1;
                    None
                } else {
                    Some(failures.join("; "))
                }
            }
        };
        if let Some(m) = bad {
            if only.is_some() || std::env::var("FUT_IMP_VERBOSE").is_ok() {
                println!("{}: {m}", rel.display());
            }
            if must {
                must_fail.push(format!("{}: {m}", rel.display()));
            }
        }
    }
    println!(
        "imperative IR: {lowered} of {compiled} compiled programs lower, {agreeing} agree with the IR interpreter on every case ({cases} cases)"
    );
    println!(
        "  in the cases that agree: {} blocks allocated ({} bytes), {} elements copied; the core IR interpreter wrote {} array elements",
        sum.allocs, sum.alloc_bytes, sum.copied, sum.ir_writes
    );
    for (c, n) in &errors {
        println!("  not lowered ({n}): {c}");
    }
    assert!(must_fail.is_empty(), "{}", must_fail.join("\n"));
    assert!(compiled > 0);
}
