//! `adbench-ref PROBLEM INPUT.in [--threads N] [--time-limit S] [--check OUT] [--tolerance T]`:
//! times the hand-written objective of an ADBench problem on a binary input file
//! the way ADBench does, prints the minimum time per call in microseconds, and with
//! `--check` compares the objective's results with a binary value file.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use adbench_reference::{Instance, PROBLEMS, timing};
use values::{Tolerance, compare_several};

const USAGE: &str = "usage: adbench-ref PROBLEM INPUT.in [--threads N] [--time-limit SECONDS] \
[--check EXPECTED.out] [--tolerance T] [--no-time]";

struct Options {
    problem: String,
    input: PathBuf,
    threads: Option<usize>,
    time_limit: Duration,
    check: Option<PathBuf>,
    tolerance: f64,
    time: bool,
}

fn parse_number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> Result<T, String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    value
        .parse()
        .map_err(|_| format!("{flag}: `{value}` is not a valid number"))
}

fn parse_args() -> Result<Options, String> {
    let mut positional = Vec::new();
    let mut opts = Options {
        problem: String::new(),
        input: PathBuf::new(),
        threads: None,
        time_limit: Duration::from_secs(20),
        check: None,
        tolerance: 1e-9,
        time: true,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => {
                let n: usize = parse_number("--threads", args.next())?;
                if n == 0 {
                    return Err("--threads: must be at least 1".into());
                }
                opts.threads = Some(n);
            }
            "--time-limit" => {
                let s: f64 = parse_number("--time-limit", args.next())?;
                opts.time_limit = Duration::try_from_secs_f64(s)
                    .map_err(|_| format!("--time-limit: `{s}` is not a duration"))?;
            }
            "--check" => {
                opts.check = Some(args.next().ok_or("--check needs a file")?.into());
            }
            "--tolerance" => opts.tolerance = parse_number("--tolerance", args.next())?,
            "--no-time" => opts.time = false,
            "-h" | "--help" => return Err(USAGE.into()),
            _ if a.starts_with('-') => return Err(format!("unknown option `{a}`\n{USAGE}")),
            _ => positional.push(a),
        }
    }
    let [problem, input] = <[String; 2]>::try_from(positional)
        .map_err(|_| format!("expected a problem and an input file\n{USAGE}"))?;
    if !PROBLEMS.contains(&problem.as_str()) {
        return Err(format!(
            "unknown problem `{problem}` (expected one of {})",
            PROBLEMS.join(", ")
        ));
    }
    opts.problem = problem;
    opts.input = input.into();
    Ok(opts)
}

fn run(opts: &Options) -> Result<(), String> {
    if let Some(n) = opts.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| format!("cannot start {n} threads: {e}"))?;
    }
    let bytes = std::fs::read(&opts.input).map_err(|e| format!("{}: {e}", opts.input.display()))?;
    let instance = Instance::from_bytes(&opts.problem, &bytes)
        .map_err(|e| format!("{}: {e}", opts.input.display()))?;
    if let Some(path) = &opts.check {
        let expected_bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let expected =
            values::read_values(&expected_bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let got = instance.objective_values();
        compare_several(&got, &expected, Tolerance(opts.tolerance))
            .map_err(|e| format!("{}: the objective differs: {e}", path.display()))?;
        eprintln!("{}: the objective matches", path.display());
    }
    if opts.time {
        let t = timing::time_calls(|| instance.run_objective(), opts.time_limit);
        println!(
            "{} {}: {:.3} us per call ({} calls per batch, {} batches, {} threads)",
            opts.problem,
            opts.input.display(),
            t.per_call.as_secs_f64() * 1e6,
            t.calls_per_batch,
            t.batches,
            rayon::current_num_threads()
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match parse_args().and_then(|opts| run(&opts)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("adbench-ref: {e}");
            ExitCode::FAILURE
        }
    }
}
