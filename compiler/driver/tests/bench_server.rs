//! `fut bench`'s server client against the multicore runtime's server, over
//! pipes in this process, on a program written by hand against the
//! runtime's contract.

use std::io::BufReader;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use driver::bench::server::ServerInstance;
use driver::bench::{BenchOptions, Instance, ScriptInput, measure, progress::Progress};
use fut_runtime_multicore::{Context, EntryPoint, Error, ExtType, Program, TypeDesc};
use values::{Data, PrimType, Value};

const fn ty(rank: usize, elem: PrimType, unique: bool) -> ExtType {
    ExtType::Value(TypeDesc { rank, elem, unique })
}

fn sum(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, Error> {
    match args.into_iter().next().map(Value::into_parts) {
        Some((_, Data::I64(xs))) => Ok(vec![Value::scalar(xs.iter().sum::<i64>())]),
        _ => Err(Error::new("sum: bad arguments")),
    }
}

/// Doubles its (consumed) argument in place; the bench client must restore
/// the original before each run for the result to be twice the input.
fn double(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, Error> {
    match args.into_iter().next().map(Value::into_parts) {
        Some((_, Data::F64(mut xs))) => {
            xs.iter_mut().for_each(|x| *x *= 2.0);
            Ok(vec![Value::vector(xs)])
        }
        _ => Err(Error::new("double: bad arguments")),
    }
}

fn fail(_: &Context, _: Vec<Value>) -> Result<Vec<Value>, Error> {
    Err(Error::new("Assertion failed (at t.fut:4:3-10)"))
}

/// How many times `make` has run.
static MADE: AtomicUsize = AtomicUsize::new(0);

/// `iota n`, counting its calls.
fn make(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, Error> {
    MADE.fetch_add(1, Ordering::SeqCst);
    match args.first().and_then(Value::as_scalar) {
        Some(values::PrimValue::I64(n)) => Ok(vec![Value::vector((0..n).collect::<Vec<i64>>())]),
        _ => Err(Error::new("make: bad arguments")),
    }
}

fn slow(_: &Context, _: Vec<Value>) -> Result<Vec<Value>, Error> {
    std::thread::sleep(Duration::from_millis(400));
    Ok(vec![Value::scalar(0i32)])
}

static PROGRAM: Program = Program {
    name: "t",
    entries: &[
        EntryPoint {
            name: "sum",
            params: &[ty(1, PrimType::I64, false)],
            results: &[ty(0, PrimType::I64, false)],
            run: sum,
        },
        EntryPoint {
            name: "double",
            params: &[ty(1, PrimType::F64, true)],
            results: &[ty(1, PrimType::F64, true)],
            run: double,
        },
        EntryPoint {
            name: "fail",
            params: &[],
            results: &[ty(0, PrimType::I32, false)],
            run: fail,
        },
        EntryPoint {
            name: "slow",
            params: &[],
            results: &[ty(0, PrimType::I32, false)],
            run: slow,
        },
        EntryPoint {
            name: "make",
            params: &[ty(0, PrimType::I64, false)],
            results: &[ty(1, PrimType::I64, false)],
            run: make,
        },
    ],
};

/// A client connected to a server serving [`PROGRAM`] on another thread.
fn connect() -> ServerInstance {
    let (from_client, to_server) = std::io::pipe().unwrap();
    let (from_server, to_client) = std::io::pipe().unwrap();
    std::thread::spawn(move || {
        let ctx = Context::new(Some(2), false).unwrap();
        let mut out = to_client;
        let _ = fut_runtime_multicore::server::Server::new(&PROGRAM, &ctx)
            .serve(BufReader::new(from_client), &mut out);
    });
    let mut s = ServerInstance::over(Box::new(to_server), from_server).unwrap();
    s.startup().unwrap();
    s
}

#[test]
fn loads_runs_and_returns_results() {
    let mut s = connect();
    s.load("sum", vec![Value::vector(vec![1i64, 2, 3])])
        .unwrap();
    for _ in 0..3 {
        s.run(None).unwrap();
    }
    assert_eq!(s.results().unwrap(), vec![Value::scalar(6i64)]);
    // Loading another dataset replaces the first.
    s.load("sum", vec![Value::vector(vec![10i64])]).unwrap();
    s.run(None).unwrap();
    assert_eq!(s.results().unwrap(), vec![Value::scalar(10i64)]);
}

/// The entry point `name` taking and returning arrays of `i64` of these
/// ranks, as the checker describes it.
fn entry(name: &str, params: &[usize], results: &[usize]) -> semantic::EntryPoint {
    let t = |&rank: &usize| semantic::EntryType::Array {
        elem: syntax::ast::PrimType::I64,
        rank,
    };
    semantic::EntryPoint {
        name: name.into(),
        params: params.iter().map(t).collect(),
        results: results.iter().map(t).collect(),
    }
}

#[test]
fn a_script_input_runs_once_and_only_its_entry_is_timed() {
    let mut s = connect();
    let entries = [entry("sum", &[1], &[0]), entry("make", &[0], &[1])];
    let read = |f: &str| Err(format!("no file {f}"));
    let env = driver::script::Env {
        entries: &entries,
        read_file: &read,
    };
    let expr = driver::script::parse("make 4i64").unwrap();
    let before = MADE.load(Ordering::SeqCst);
    s.load_script(&ScriptInput {
        entry: &entries[0],
        expr: &expr,
        env: &env,
        at: &|p| format!("line {}", p.line),
    })
    .unwrap();
    for _ in 0..5 {
        s.run(None).unwrap();
    }
    assert_eq!(s.results().unwrap(), vec![Value::scalar(6i64)]);
    // `make` ran once, when the dataset was loaded; the runs call `sum`.
    assert_eq!(MADE.load(Ordering::SeqCst) - before, 1);
    // A failing script names its place.
    let bad = driver::script::parse("make 1i64 2i64").unwrap();
    let err = s
        .load_script(&ScriptInput {
            entry: &entries[0],
            expr: &bad,
            env: &env,
            at: &|p| format!("line {}", p.line),
        })
        .unwrap_err();
    assert!(
        err.starts_with("line 1: entry point `make` takes 1 argument"),
        "{err}"
    );
    // The server is still usable, and the first script's variables were
    // freed: loading it again makes them under the same names.
    s.load("sum", vec![Value::vector(vec![5i64])]).unwrap();
    s.run(None).unwrap();
    assert_eq!(s.results().unwrap(), vec![Value::scalar(5i64)]);
    s.load_script(&ScriptInput {
        entry: &entries[0],
        expr: &expr,
        env: &env,
        at: &|p| format!("line {}", p.line),
    })
    .unwrap();
    s.run(None).unwrap();
    assert_eq!(s.results().unwrap(), vec![Value::scalar(6i64)]);
    assert_eq!(MADE.load(Ordering::SeqCst) - before, 2);
}

#[test]
fn consumed_arguments_are_restored_before_each_run() {
    let mut s = connect();
    s.load("double", vec![Value::vector(vec![1.0f64, 2.0])])
        .unwrap();
    for _ in 0..4 {
        s.run(None).unwrap();
    }
    assert_eq!(s.results().unwrap(), vec![Value::vector(vec![2.0f64, 4.0])]);
}

#[test]
fn measure_counts_the_server_reported_times() {
    let mut s = connect();
    s.load("sum", vec![Value::vector(vec![1i64; 1000])])
        .unwrap();
    let opts = BenchOptions {
        runs: 5,
        min_time: Duration::ZERO,
        convergence: false,
        ..BenchOptions::default()
    };
    let times = measure(&mut s, &opts, &mut Progress::new(None), "d").unwrap();
    assert_eq!(times.len(), 5);
    assert!(times.iter().all(|t| *t >= 0.0 && *t < 1e6), "{times:?}");
}

#[test]
fn errors_come_back_as_messages() {
    let mut s = connect();
    s.load("fail", vec![]).unwrap();
    let e = s.run(None).unwrap_err();
    assert!(e.contains("Assertion failed (at t.fut:4:3-10)"), "{e}");
    assert!(s.results().unwrap_err().contains("no successful run"));
    let e = s.load("nope", vec![]).unwrap_err();
    assert!(e.contains("entry point `nope` not found"), "{e}");
    let e = s.load("sum", vec![]).unwrap_err();
    assert!(
        e.contains("takes 1 arguments, but the dataset has 0"),
        "{e}"
    );
    // The server is still usable.
    s.load("sum", vec![Value::vector(vec![2i64])]).unwrap();
    s.run(None).unwrap();
    assert_eq!(s.results().unwrap(), vec![Value::scalar(2i64)]);
}

#[test]
fn a_run_past_its_deadline_breaks_the_instance() {
    let mut s = connect();
    s.load("slow", vec![]).unwrap();
    let e = s
        .run(Some(Instant::now() + Duration::from_millis(50)))
        .unwrap_err();
    assert!(e.contains("time limit"), "{e}");
    assert!(s.run(None).unwrap_err().contains("time limit"));
}
