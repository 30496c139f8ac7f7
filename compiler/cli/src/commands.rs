//! The subcommands: each turns parsed arguments into calls to the driver, prints
//! what the user should see, and returns the exit status.

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use driver::render::{self, ColorChoice};
use driver::testrun::{self, TestOptions};
use driver::{Database, OsSystem, load_program};

use crate::{CheckArgs, Cli, Color, Command, DatasetArgs, DevArgs, RunArgs, TestArgs};

/// Exit status for failures caused by the program, its data or its tests.
const FAILURE: u8 = 1;

/// Reports panics as compiler bugs rather than with the default message.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("internal compiler error (a bug in fut): {info}");
    }));
}

/// Runs a parsed command line.
pub fn dispatch(cli: Cli) -> u8 {
    let color = match cli.color {
        Color::Auto => ColorChoice::Auto,
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
    };
    match cli.command {
        Command::Check(a) => check(a, color),
        Command::Run(a) => run(a, color),
        Command::Test(a) => test(a),
        Command::Dataset(a) => dataset(*a),
        Command::Dev(a) => dev(a, color),
        Command::Bench(a) => crate::bench::run(a),
        Command::Multicore(a) => crate::multicore::run(a, driver::multicore::Target::Multicore),
        Command::Opencl(a) => crate::multicore::run(a, driver::multicore::Target::OpenCl),
        Command::Cuda(a) => crate::multicore::run_cuda(a),
        Command::Pkg(a) => crate::pkg::run(a),
    }
}

fn database() -> Database {
    Database::new(Arc::new(OsSystem))
}

/// Loads and checks a program, printing its diagnostics on standard error. Returns
/// the program when it has no errors.
fn load_checked(
    db: &Database,
    path: &std::path::Path,
    color: ColorChoice,
) -> Option<driver::Program> {
    let program = match load_program(db, path) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return None;
        }
    };
    if !program.diagnostics.is_empty() {
        let use_color = color.enabled(std::io::stderr().is_terminal());
        eprint!(
            "{}",
            render::diagnostics(&program.diagnostics, &db.sources(), use_color)
        );
        if let Some(s) = render::summary(&program.diagnostics) {
            eprintln!("{s}");
        }
    }
    if program.is_ok() { Some(program) } else { None }
}

fn check(args: CheckArgs, color: ColorChoice) -> u8 {
    let db = database();
    match load_checked(&db, &args.program, color) {
        Some(_) => 0,
        None => FAILURE,
    }
}

fn run(args: RunArgs, color: ColorChoice) -> u8 {
    let db = database();
    let Some(program) = load_checked(&db, &args.program, color) else {
        return FAILURE;
    };
    let entry = match driver::run::find_entry(&program, &args.entry) {
        Ok(e) => e,
        Err(m) => {
            eprintln!("Error: {m}");
            return FAILURE;
        }
    };
    let stdin = std::io::stdin().lock();
    let arguments = match driver::run::read_arguments(entry, stdin) {
        Ok(a) => a,
        Err(m) => {
            eprintln!("Error: {m}");
            return FAILURE;
        }
    };
    let sources = db.sources();
    let mut interp = match driver::run::instantiate(&db, &program) {
        Ok(i) => i,
        Err(e) => {
            eprint!("{}", render::runtime_error(&e, &sources));
            return FAILURE;
        }
    };
    match interp.call_entry(program.root.id(&db), &args.entry, arguments) {
        Ok(results) => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            match driver::run::write_results(&results, args.binary, &mut out) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("Error: cannot write the results: {e}");
                    FAILURE
                }
            }
        }
        Err(e) => {
            eprint!("{}", render::runtime_error(&e, &sources));
            FAILURE
        }
    }
}

fn test(args: TestArgs) -> u8 {
    let backend = match args.backend {
        _ if args.interpreted => testrun::Backend::Interp,
        crate::Backend::Interp => testrun::Backend::Interp,
        crate::Backend::Ir => testrun::Backend::Ir,
        crate::Backend::Multicore => testrun::Backend::Multicore,
        crate::Backend::Opencl => testrun::Backend::OpenCl,
        crate::Backend::Cuda => testrun::Backend::Cuda,
    };
    // FUT_CUDA_ARCH matters (and is checked) on the CUDA backend only.
    let cuda_arch = if backend == testrun::Backend::Cuda {
        match crate::multicore::cuda_arch(args.cuda_arch) {
            Ok(a) => a,
            Err(code) => return code,
        }
    } else {
        driver::multicore::cuda::default_archs()
    };
    let db = database();
    let programs = match testrun::collect_programs(db.system().as_ref(), &args.paths) {
        Ok(p) => p,
        Err(m) => {
            eprintln!("error: {m}");
            return FAILURE;
        }
    };
    let programs: Vec<_> = programs
        .into_iter()
        .filter(|p| testrun::is_test_program(db.system().as_ref(), p))
        .collect();
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let opts = TestOptions {
        backend,
        exclude: args.exclude,
        entries: args.entry,
        jobs,
        progress: std::io::stderr().is_terminal(),
        validate: testrun::validation_from_env(
            std::env::var(testrun::VALIDATE_VAR).ok().as_deref(),
        ),
        cuda_arch,
        bundle: args.bundle,
        write_bundle: args.write_bundle,
        time_limit: None,
    };
    if (opts.bundle.is_some() || opts.write_bundle.is_some()) && !backend.compiled() {
        eprintln!(
            "error: --bundle and --write-bundle need a compiled backend (multicore, opencl, cuda), not --backend={}",
            backend.name()
        );
        return 2;
    }
    let mut out = std::io::stdout().lock();
    let mut progress = std::io::stderr();
    let summary = testrun::run_tests(&db, &programs, &opts, &mut out, &mut progress);
    let _ = out.flush();
    if summary.failed > 0 { FAILURE } else { 0 }
}

fn dataset(args: DatasetArgs) -> u8 {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let result = if args.generate.is_empty() {
        driver::dataset::convert(std::io::stdin().lock(), args.binary, &mut out).map(|_| ())
    } else {
        let mut opts = driver::dataset::GenOptions {
            items: args.generate,
            seed: args.seed,
            ..Default::default()
        };
        let mut result = Ok(());
        for (prim, spec) in args.bounds.list() {
            if let Some(spec) = spec
                && let Err(m) = driver::dataset::set_bounds(&mut opts.bounds, prim, spec)
            {
                result = Err(m);
                break;
            }
        }
        result
            .and_then(|()| driver::dataset::generate(&opts))
            .and_then(|vs| driver::dataset::write_values(&vs, args.binary, &mut out))
    };
    let flushed = out.flush();
    match (result, flushed) {
        (Err(m), _) => {
            eprintln!("error: {m}");
            FAILURE
        }
        (Ok(()), Err(e)) => {
            eprintln!("error: cannot write output: {e}");
            FAILURE
        }
        (Ok(()), Ok(())) => 0,
    }
}

fn dev(args: DevArgs, color: ColorChoice) -> u8 {
    if args.fuzz.fuzz_worker {
        return crate::fuzz::serve();
    }
    if let Some(count) = args.fuzz.fuzz {
        return crate::fuzz::run(count, &args.fuzz);
    }
    if args.list_passes {
        print!("{}", driver::dev::list_passes());
        if args.file.is_none() {
            return 0;
        }
    }
    let Some(path) = args.file else { return 0 };
    let imp = args.print.as_deref() == Some(driver::dev::IMP);
    let passes = match &args.print {
        Some(name) => driver::dev::print_pipeline(name),
        None => driver::dev::parse_pass_list(&args.passes),
    };
    let passes = match passes {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return FAILURE;
        }
    };
    let result = if path.extension().is_some_and(|e| e == "fut") {
        let db = database();
        let Some(program) = load_checked(&db, &path, color) else {
            return FAILURE;
        };
        let kernels = driver::dev::KERNELS
            .iter()
            .find(|(k, _)| args.print.as_deref() == Some(*k));
        if let Some((_, target)) = kernels {
            driver::dev::kernel_source(&db, &program, &passes, *target)
        } else if imp {
            driver::dev::imp_source(&db, &program, &passes)
        } else {
            driver::dev::compile_source(&db, &program, &passes)
        }
        .map_err(|e| format!("{}: {e}", path.display()))
    } else {
        match std::fs::read_to_string(&path) {
            Ok(text) if imp => driver::dev::imp_passes(&path.display().to_string(), &text, &passes),
            Ok(text) => driver::dev::run_passes(&path.display().to_string(), &text, &passes),
            Err(e) => Err(format!("cannot read {}: {e}", path.display())),
        }
    };
    match result {
        Ok(out) => {
            print!("{out}");
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            FAILURE
        }
    }
}
