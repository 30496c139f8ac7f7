//! `fut dev --fuzz N`: the differential runner's command line.

use std::ffi::OsString;
use std::time::Duration;

use driver::fuzz::{FuzzOptions, run as run_fuzz, summary};
use driver::testrun::Backend;

use crate::FuzzArgs;

/// The command line of a worker: this executable, `dev --fuzz-worker`.
fn worker_command() -> Vec<OsString> {
    let exe = std::env::current_exe().unwrap_or_else(|_| "fut".into());
    vec![exe.into(), "dev".into(), "--fuzz-worker".into()]
}

/// Serves a runner as its worker process (`fut dev --fuzz-worker`).
pub fn serve() -> u8 {
    let stdin = std::io::BufReader::new(std::io::stdin());
    let stdout = std::io::stdout();
    match driver::fuzz::worker::serve(stdin, stdout) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// Runs the fuzzer; exit status 1 if a problem was found, 2 for a bad option.
pub fn run(count: usize, args: &FuzzArgs) -> u8 {
    if !(args.time_limit.is_finite() && args.time_limit > 0.0) {
        eprintln!(
            "error: --time-limit: expected a positive number of seconds, got {}",
            args.time_limit
        );
        return 2;
    }
    let mut backends = Vec::new();
    for name in args
        .backends
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let b = match name {
            "interp" => Backend::Interp,
            "ir" => Backend::Ir,
            "multicore" => Backend::Multicore,
            "opencl" => Backend::OpenCl,
            "cuda" => Backend::Cuda,
            other => {
                eprintln!(
                    "error: --backends: unknown backend `{other}` (interp, ir, multicore, opencl, cuda)"
                );
                return 2;
            }
        };
        backends.push(b);
    }
    let jobs = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let work_dir = args.fuzz_dir.clone().unwrap_or_else(|| {
        std::env::temp_dir()
            .join("fut-fuzz")
            .join(format!("seed-{}", args.seed))
    });
    let opts = FuzzOptions {
        count,
        seed: args.seed,
        backends,
        compiled_sample: args.compiled_sample,
        work_dir,
        regress_dir: Some(args.regress_dir.clone()),
        jobs,
        progress: true,
        config: fuzzgen::Config {
            depth: args.depth,
            ..fuzzgen::Config::default()
        },
        shrink_time: Duration::from_secs(args.shrink_time),
        inject: None,
        worker: Some(worker_command()),
        time_limit: Duration::from_secs_f64(args.time_limit),
    };
    let mut err = std::io::stderr();
    match run_fuzz(&opts, &mut err) {
        Ok(report) => {
            print!("{}", summary(&report));
            for p in &report.problems {
                println!(
                    "program {} (seed {}, {} backend): {}{}",
                    p.index,
                    p.seed,
                    p.backend,
                    p.kind.name(),
                    p.saved
                        .as_ref()
                        .map(|s| format!(": {}", s.display()))
                        .unwrap_or_default()
                );
            }
            if report.problems.is_empty() { 0 } else { 1 }
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
