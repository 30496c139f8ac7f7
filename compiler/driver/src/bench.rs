//! `fut bench`: timing the datasets of programs' `-- ==` blocks.
//!
//! For each program with datasets left after selection
//! ([`datasets::select`]: tags, entry points, `compiled` on interpreters),
//! the program is checked and prepared on a [`Target`] (the reference
//! interpreter and the IR interpreter in this process, a compiled backend
//! through its executable's server mode). Then, per dataset:
//!
//! 1. the arguments are loaded (a script input is evaluated then, its own
//!    calls untimed, [`target::ScriptInput`]) and one warm-up run is made
//!    and discarded;
//! 2. the initial phase runs until there are at least `runs` (10) runs and
//!    at least `min_time` (0.5 s) has passed;
//! 3. while the relative standard error of the mean (RSE) is above 1% and
//!    successive runs are positively correlated ([`needs_more_runs`]), the
//!    convergence phase adds batches of runs, for at most
//!    `convergence_max` (10 s);
//! 4. the last run's results are checked against the expected output.
//!
//! A dataset running past `--timeout` is stopped. The report gives the mean
//! time in microseconds and its 95% confidence interval; [`to_json`] writes
//! every run time in Futhark's JSON format.

pub mod datasets;
pub mod progress;
pub mod server;
pub mod stats;
pub mod target;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use values::Tolerance;

use crate::db::Database;
use crate::program::load_program;
use crate::script::source::CaseScript;
use crate::testspec::{Input, parse_spec};
use datasets::{Dataset, Selection};
use progress::Progress;
use stats::Stats;
pub use target::{Instance, InterpTarget, IrTarget, ScriptInput, Target};

/// The RSE below which the convergence phase stops.
pub const RSE_TARGET: f64 = 0.01;

/// Whether the runs so far leave the mean too uncertain: its relative
/// standard error is above [`RSE_TARGET`] and successive runs are positively
/// correlated. When the runs are independent (no correlation), the standard
/// error is an honest account of the noise, which the confidence interval
/// reports; more runs would only narrow it slowly (with the square root of
/// their number). When they are correlated (times drifting as caches,
/// allocators or clocks settle), the standard error understates the
/// uncertainty and more runs are needed.
pub fn needs_more_runs(s: &Stats) -> bool {
    s.rse > RSE_TARGET && s.autocorrelation > 0.0
}

/// Options of a benchmark run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Minimum runs of the initial phase (`-r`).
    pub runs: usize,
    /// Minimum time of the initial phase.
    pub min_time: Duration,
    /// Whether to run the convergence phase.
    pub convergence: bool,
    /// The longest the convergence phase may take.
    pub convergence_max: Duration,
    /// The longest a dataset may take, all runs together (`--timeout`).
    pub timeout: Option<Duration>,
    /// Skip cases (and programs) with these tags.
    pub exclude: Vec<String>,
    /// Only these entry points (all when empty).
    pub entries: Vec<String>,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            runs: 10,
            min_time: Duration::from_millis(500),
            convergence: true,
            convergence_max: Duration::from_secs(10),
            timeout: None,
            exclude: Vec::new(),
            entries: Vec::new(),
        }
    }
}

/// The measurements of one dataset.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// The time of every counted run, in microseconds (the warm-up run is
    /// not among them).
    pub runtimes: Vec<f64>,
    /// Their statistics.
    pub stats: Stats,
}

/// One dataset's outcome: its measurements, or why it failed.
#[derive(Clone, Debug)]
pub struct DatasetResult {
    /// The dataset's name.
    pub name: String,
    /// Measurements, or the error message.
    pub outcome: Result<Measured, String>,
}

/// The datasets of one entry point of one program.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// The program's path, followed by `:ENTRY` unless the entry is `main`
    /// (the key of Futhark's JSON format).
    pub key: String,
    /// Its datasets, in block order.
    pub datasets: Vec<DatasetResult>,
}

/// Everything a benchmark run measured.
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    /// Per program and entry point, in order.
    pub results: Vec<BenchResult>,
    /// Programs that had no dataset to run.
    pub skipped_programs: usize,
}

impl BenchReport {
    /// How many datasets failed.
    pub fn failures(&self) -> usize {
        self.results
            .iter()
            .flat_map(|r| &r.datasets)
            .filter(|d| d.outcome.is_err())
            .count()
    }
}

fn result_key(path: &Path, entry: &str) -> String {
    if entry == "main" {
        path.display().to_string()
    } else {
        format!("{}:{entry}", path.display())
    }
}

/// Benchmarks `programs` on `target`, printing results on `out` and a
/// progress line on `progress` (a terminal) when given.
pub fn run_benchmarks(
    db: &Database,
    programs: &[PathBuf],
    target: &dyn Target,
    opts: &BenchOptions,
    out: &mut dyn Write,
    mut progress: Option<&mut dyn Write>,
) -> BenchReport {
    let sel = Selection::new(
        target.name(),
        &opts.exclude,
        &opts.entries,
        target.skips_compiled(),
    );
    let mut report = BenchReport::default();
    for path in programs {
        let sets = match program_datasets(db, path, &sel) {
            Ok(s) => s,
            Err(m) => {
                let _ = writeln!(out, "{}:\n  {m}", path.display());
                report.results.push(BenchResult {
                    key: path.display().to_string(),
                    datasets: vec![DatasetResult {
                        name: "(test block)".into(),
                        outcome: Err(m),
                    }],
                });
                continue;
            }
        };
        if sets.is_empty() {
            report.skipped_programs += 1;
            continue;
        }
        let p = progress.as_mut().map(|w| &mut **w as &mut dyn Write);
        bench_program(db, path, &sets, target, opts, out, p, &mut report);
    }
    report
}

fn program_datasets(db: &Database, path: &Path, sel: &Selection) -> Result<Vec<Dataset>, String> {
    let src = db
        .system()
        .read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let spec = parse_spec(&src).map_err(|e| format!("malformed test block: {e}"))?;
    Ok(datasets::select(&spec, sel))
}

/// Groups datasets by entry point, keeping the order of first appearance.
fn by_entry(sets: &[Dataset]) -> Vec<(String, Vec<&Dataset>)> {
    let mut groups: Vec<(String, Vec<&Dataset>)> = Vec::new();
    for d in sets {
        match groups.iter_mut().find(|(e, _)| *e == d.entry) {
            Some((_, v)) => v.push(d),
            None => groups.push((d.entry.clone(), vec![d])),
        }
    }
    groups
}

/// Prepares a program, giving the message for the user when it cannot run.
fn prepare(
    db: &Database,
    path: &Path,
    target: &dyn Target,
) -> Result<(crate::Program, Box<dyn Instance>), String> {
    let program = load_program(db, path).map_err(|e| e.to_string())?;
    if !program.is_ok() {
        return Err(format!(
            "the program does not type-check:\n{}",
            crate::render::diagnostics(&program.diagnostics, &db.sources(), false)
        ));
    }
    let instance = target.prepare(db, &program, path)?;
    Ok((program, instance))
}

#[allow(clippy::too_many_arguments)]
fn bench_program(
    db: &Database,
    path: &Path,
    sets: &[Dataset],
    target: &dyn Target,
    opts: &BenchOptions,
    out: &mut dyn Write,
    progress: Option<&mut dyn Write>,
    report: &mut BenchReport,
) {
    let mut progress = Progress::new(progress);
    let pad = sets
        .iter()
        .map(|d| d.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut prepared = prepare(db, path, target);
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    // A message shared by several datasets (the program does not compile) is
    // printed once.
    let mut shown: Option<String> = None;
    for (entry_name, group) in by_entry(sets) {
        let key = result_key(path, &entry_name);
        let _ = writeln!(out, "{key}:");
        let _ = out.flush();
        let mut results = Vec::new();
        for d in group {
            let outcome = match &mut prepared {
                Err(m) => Err(m.clone()),
                Ok((program, instance)) => {
                    let r =
                        bench_dataset(db, program, &dir, d, instance.as_mut(), opts, &mut progress);
                    progress.clear();
                    r
                }
            };
            // A server stopped at a time limit cannot run more datasets: start
            // a fresh one for the next.
            if outcome.as_ref().is_err_and(|m| m.contains("time limit")) {
                prepared = prepare(db, path, target);
            }
            let _ = match &outcome {
                Ok(m) => writeln!(
                    out,
                    "  {:<pad$}  {:>10}μs (95% CI: [{:.1}, {:.1}]; {} runs)",
                    format!("{}:", d.name),
                    micros(m.stats.mean),
                    m.stats.ci_low,
                    m.stats.ci_high,
                    m.stats.runs,
                    pad = pad + 1
                ),
                Err(msg) if shown.as_ref() == Some(msg) => {
                    writeln!(out, "  {}: FAILED (as above)", d.name)
                }
                Err(msg) => {
                    let mut text = format!("  {}: FAILED\n", d.name);
                    for line in msg.trim_end().lines() {
                        text.push_str(&format!("    {line}\n"));
                    }
                    shown = Some(msg.clone());
                    write!(out, "{text}")
                }
            };
            let _ = out.flush();
            results.push(DatasetResult {
                name: d.name.clone(),
                outcome,
            });
        }
        report.results.push(BenchResult {
            key,
            datasets: results,
        });
    }
}

/// A time in microseconds: whole ones from 100 up, else with one decimal.
fn micros(us: f64) -> String {
    if us >= 100.0 {
        format!("{us:.0}")
    } else {
        format!("{us:.1}")
    }
}

fn bench_dataset(
    db: &Database,
    program: &crate::Program,
    dir: &Path,
    d: &Dataset,
    instance: &mut dyn Instance,
    opts: &BenchOptions,
    progress: &mut Progress<'_>,
) -> Result<Measured, String> {
    let entry = crate::run::find_entry(program, &d.entry)?;
    let system = db.system().as_ref();
    let expected = datasets::expected(system, dir, entry, &d.case)?;
    if let Input::Script(text) = &d.case.input {
        let read = |f: &str| datasets::read_data(system, dir, f);
        let script = CaseScript::load(&d.case, text, &read)?;
        let env = crate::script::Env {
            entries: program.entry_points(),
            read_file: &read,
        };
        instance.load_script(&ScriptInput {
            entry,
            expr: &script.expr,
            env: &env,
            at: &|p| script.place.at(p),
        })?;
    } else {
        instance.load(&d.entry, datasets::inputs(system, dir, entry, &d.case)?)?;
    }
    let runtimes = measure(instance, opts, progress, &d.name)?;
    if let Some(expected) = expected {
        let got = instance.results()?;
        values::compare_several(&got, &expected, Tolerance::DEFAULT)
            .map_err(|m| format!("result differs: {m}"))?;
    }
    let stats = stats::stats(&runtimes).ok_or_else(|| "no runs".to_string())?;
    Ok(Measured { runtimes, stats })
}

/// The warm-up run, the initial phase and the convergence phase; the counted
/// run times in microseconds.
pub fn measure(
    instance: &mut dyn Instance,
    opts: &BenchOptions,
    progress: &mut Progress<'_>,
    name: &str,
) -> Result<Vec<f64>, String> {
    let start = Instant::now();
    let deadline = opts.timeout.map(|t| start + t);
    let past_deadline = || match opts.timeout {
        Some(t) if start.elapsed() >= t => Some(format!(
            "the dataset ran past the time limit of {} s",
            t.as_secs_f64()
        )),
        _ => None,
    };
    let mut run = |times: &mut Vec<f64>| -> Result<(), String> {
        if let Some(m) = past_deadline() {
            return Err(m);
        }
        let t = instance.run(deadline)?;
        times.push(t.as_secs_f64() * 1e6);
        Ok(())
    };
    let mut warmup = Vec::new();
    progress.update(name, 0, 0.0, 0.0, None, true);
    run(&mut warmup)?;
    let mut times = Vec::new();
    let initial = Instant::now();
    let runs = opts.runs.max(1);
    while times.len() < runs || initial.elapsed() < opts.min_time {
        run(&mut times)?;
        let fraction = (times.len() as f64 / runs as f64)
            .min(initial.elapsed().as_secs_f64() / opts.min_time.as_secs_f64().max(1e-9));
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        progress.update(name, times.len(), mean, fraction, None, false);
    }
    if opts.convergence {
        // Batches of half the runs so far (at least the minimum), until the
        // mean is known well enough or the time is up.
        let converging = Instant::now();
        while let Some(s) = stats::stats(&times) {
            if !needs_more_runs(&s) || converging.elapsed() >= opts.convergence_max {
                break;
            }
            let batch = (times.len() / 2).max(runs);
            for _ in 0..batch {
                if converging.elapsed() >= opts.convergence_max {
                    break;
                }
                run(&mut times)?;
                let mean = times.iter().sum::<f64>() / times.len() as f64;
                progress.update(name, times.len(), mean, 1.0, Some(s.rse), false);
            }
        }
    }
    Ok(times)
}

/// The report in Futhark's JSON format: an object with one member per
/// program (and entry point, when it is not `main`), holding `datasets`:
/// per dataset, `runtimes` (microseconds, one per run) and `bytes` (memory
/// use by space, empty), or the error message as a string.
pub fn to_json(report: &BenchReport) -> serde_json::Value {
    let mut top = serde_json::Map::new();
    for r in &report.results {
        let mut sets = serde_json::Map::new();
        for d in &r.datasets {
            let v = match &d.outcome {
                Ok(m) => serde_json::json!({
                    "runtimes": m.runtimes.iter().map(|t| t.round() as u64).collect::<Vec<_>>(),
                    "bytes": {},
                }),
                Err(e) => serde_json::Value::String(e.clone()),
            };
            sets.insert(d.name.clone(), v);
        }
        top.insert(r.key.clone(), serde_json::json!({ "datasets": sets }));
    }
    serde_json::Value::Object(top)
}

#[cfg(test)]
mod tests {
    use super::*;
    use values::Value;

    /// An instance whose runs take the times given, in microseconds.
    struct Scripted {
        times: Vec<u64>,
        next: usize,
    }

    impl Instance for Scripted {
        fn load(&mut self, _: &str, _: Vec<Value>) -> Result<(), String> {
            Ok(())
        }
        fn run(&mut self, _: Option<Instant>) -> Result<Duration, String> {
            let t = self.times[self.next % self.times.len()];
            self.next += 1;
            Ok(Duration::from_micros(t))
        }
        fn results(&mut self) -> Result<Vec<Value>, String> {
            Ok(vec![])
        }
    }

    fn quick(runs: usize, convergence: bool) -> BenchOptions {
        BenchOptions {
            runs,
            min_time: Duration::ZERO,
            convergence,
            convergence_max: Duration::from_secs(5),
            ..BenchOptions::default()
        }
    }

    #[test]
    fn warm_up_then_the_minimum_runs() {
        let mut s = Scripted {
            times: vec![1000, 10, 10, 10],
            next: 0,
        };
        let mut p = Progress::new(None);
        let t = measure(&mut s, &quick(3, true), &mut p, "d").unwrap();
        // The slow warm-up run is not counted; equal runs converge at once.
        assert_eq!(t, vec![10.0, 10.0, 10.0]);
        assert_eq!(s.next, 4);
    }

    #[test]
    fn drifting_runs_continue_until_the_rse_is_small() {
        // Streaks of slow and fast runs: positively correlated.
        let times = vec![10, 10, 10, 30, 30, 30];
        let mut s = Scripted {
            times: times.clone(),
            next: 0,
        };
        let mut p = Progress::new(None);
        let t = measure(&mut s, &quick(6, true), &mut p, "d").unwrap();
        let st = stats::stats(&t).unwrap();
        assert!(t.len() > 100, "{}", t.len());
        assert!(!needs_more_runs(&st), "{st:?}");
        let mut s = Scripted { times, next: 0 };
        let t = measure(&mut s, &quick(6, false), &mut p, "d").unwrap();
        assert_eq!(t.len(), 6);
    }

    #[test]
    fn independent_noise_does_not_need_more_runs() {
        // Alternating times: noisy (RSE above 1%) but not correlated.
        let mut s = Scripted {
            times: vec![10, 30],
            next: 0,
        };
        let mut p = Progress::new(None);
        let t = measure(&mut s, &quick(4, true), &mut p, "d").unwrap();
        assert_eq!(t.len(), 4);
        assert!(stats::stats(&t).unwrap().rse > RSE_TARGET);
    }

    #[test]
    fn minimum_time_adds_runs() {
        let mut s = Scripted {
            times: vec![5],
            next: 0,
        };
        let opts = BenchOptions {
            runs: 2,
            min_time: Duration::from_millis(20),
            ..BenchOptions::default()
        };
        let mut p = Progress::new(None);
        let t = measure(&mut s, &opts, &mut p, "d").unwrap();
        assert!(t.len() > 2, "{}", t.len());
    }

    #[test]
    fn json_follows_futhark_layout() {
        let report = BenchReport {
            results: vec![BenchResult {
                key: "a.fut:f".into(),
                datasets: vec![
                    DatasetResult {
                        name: "#0 (\"1\")".into(),
                        outcome: Ok(Measured {
                            runtimes: vec![10.4, 11.6],
                            stats: stats::stats(&[10.4, 11.6]).unwrap(),
                        }),
                    },
                    DatasetResult {
                        name: "data.in".into(),
                        outcome: Err("boom".into()),
                    },
                ],
            }],
            skipped_programs: 0,
        };
        assert_eq!(report.failures(), 1);
        assert_eq!(
            to_json(&report),
            serde_json::json!({
                "a.fut:f": {"datasets": {
                    "#0 (\"1\")": {"runtimes": [10, 12], "bytes": {}},
                    "data.in": "boom",
                }}
            })
        );
        assert_eq!(result_key(Path::new("a.fut"), "main"), "a.fut");
    }
}
