//! `fut bench`: its arguments and the call into the driver's bench runner.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use driver::bench::server::ServerTarget;
use driver::bench::{self, BenchOptions, InterpTarget, IrTarget, Target};
use driver::{Database, OsSystem};

/// Arguments of `fut bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Programs, or directories to search for programs.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// The backend that runs the programs. Cases tagged `no_BACKEND` are skipped.
    #[arg(long, value_enum, default_value_t = BenchBackend::Interp)]
    backend: BenchBackend,
    /// The minimum number of runs per dataset (after one warm-up run).
    #[arg(short, long, default_value_t = 10, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Write every run time to FILE in Futhark's JSON format.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Skip programs and cases with this tag (repeatable). `nobench`, `disable` and
    /// `no_BACKEND` are always skipped.
    #[arg(long, visible_alias = "exclude-case", value_name = "TAG")]
    exclude: Vec<String>,
    /// Only run datasets of this entry point (repeatable).
    #[arg(short, long = "entry-point", value_name = "ENTRY")]
    entry: Vec<String>,
    /// Stop a dataset after this many seconds, all its runs together (negative:
    /// no limit).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    timeout: Option<i64>,
    /// Do not run more than the minimum runs and time, even when the relative
    /// standard error is above 1%.
    #[arg(long)]
    no_convergence_phase: bool,
    /// The longest the convergence phase may take per dataset. On a busy machine,
    /// pre-empted runs keep the error of short runs' mean high, so the phase is
    /// bounded.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    convergence_max_seconds: u64,
    /// Pass this option to the compiled program (repeatable; `--backend=multicore`),
    /// e.g. `--pass-option=--num-threads=4`.
    #[arg(short, long, value_name = "OPTION", allow_hyphen_values = true)]
    pass_option: Vec<String>,
    /// With `--backend=cuda`: the GPU architectures the kernels are compiled for,
    /// as for `fut cuda` (default: FUT_CUDA_ARCH, else sm_90,sm_80).
    #[arg(long, value_name = "LIST", value_parser = crate::multicore::parse_cuda_arch)]
    cuda_arch: Option<crate::multicore::CudaArch>,
}

/// Backends `fut bench` can run programs on.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum BenchBackend {
    /// The reference interpreter (cases tagged `compiled` are skipped).
    Interp,
    /// The core IR interpreter, after internalisation and optimisation.
    Ir,
    /// A native executable built as `fut multicore` builds it (next to the program),
    /// run in server mode.
    Multicore,
    /// A native executable built as `fut opencl` builds it, run in server mode.
    Opencl,
    /// A native executable built as `fut cuda` builds it, run in server mode.
    Cuda,
}

/// Runs `fut bench`; returns the exit status.
pub fn run(args: BenchArgs) -> u8 {
    let db = Database::new(Arc::new(OsSystem));
    let programs = match driver::testrun::collect_programs(db.system().as_ref(), &args.paths) {
        Ok(p) => p,
        Err(m) => {
            eprintln!("error: {m}");
            return 1;
        }
    };
    let programs: Vec<_> = programs
        .into_iter()
        .filter(|p| driver::testrun::is_test_program(db.system().as_ref(), p))
        .collect();
    let target: Box<dyn Target> = match args.backend {
        BenchBackend::Interp => Box::new(InterpTarget),
        BenchBackend::Ir => Box::new(IrTarget),
        BenchBackend::Multicore | BenchBackend::Opencl | BenchBackend::Cuda => {
            let target = match args.backend {
                BenchBackend::Opencl => driver::multicore::Target::OpenCl,
                BenchBackend::Cuda => driver::multicore::Target::Cuda,
                _ => driver::multicore::Target::Multicore,
            };
            let cuda_arch = match args.backend {
                BenchBackend::Cuda => match crate::multicore::cuda_arch(args.cuda_arch.clone()) {
                    Ok(a) => a,
                    Err(code) => return code,
                },
                _ => driver::multicore::cuda::default_archs(),
            };
            let build = move |db: &Database, path: &Path| {
                driver::multicore::build_executable(
                    db,
                    path,
                    &driver::multicore::BuildOptions {
                        target,
                        cuda_arch: cuda_arch.clone(),
                        ..Default::default()
                    },
                )
            };
            let mut t = ServerTarget::new(target.name(), Box::new(build));
            t.extra_args = args.pass_option.clone();
            Box::new(t)
        }
    };
    let opts = BenchOptions {
        runs: args.runs as usize,
        convergence: !args.no_convergence_phase,
        convergence_max: Duration::from_secs(args.convergence_max_seconds),
        timeout: args
            .timeout
            .filter(|t| *t >= 0)
            .map(|t| Duration::from_secs(t as u64)),
        exclude: args.exclude,
        entries: args.entry,
        ..BenchOptions::default()
    };
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr();
    let progress: Option<&mut dyn Write> = if err.is_terminal() {
        Some(&mut err)
    } else {
        None
    };
    let report = bench::run_benchmarks(&db, &programs, target.as_ref(), &opts, &mut out, progress);
    let _ = out.flush();
    let mut status = 0;
    if let Some(path) = &args.json {
        let text = bench::to_json(&report).to_string();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            status = 1;
        }
    }
    let failures = report.failures();
    if failures > 0 {
        eprintln!(
            "{failures} dataset{} failed",
            if failures == 1 { "" } else { "s" }
        );
        status = 1;
    }
    status
}
