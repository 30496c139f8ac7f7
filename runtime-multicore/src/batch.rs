//! Serving many compiled programs from one executable, for
//! `fut test --backend=multicore`.
//!
//! Compiling every test program as its own crate would cost a cargo and
//! rustc start-up per program, so the test runner compiles all programs of
//! a run into one crate (a module each) whose `main` calls [`serve`]. The
//! runner then sends calls on standard input and reads replies from
//! standard output, one at a time:
//!
//! - request: `CALL <program> <entry> <bytes>\n` followed by `<bytes>` bytes
//!   of arguments in the binary value format (the entry function's flat
//!   arguments: array shapes already expanded into `i64` sizes);
//! - reply: `OK <bytes>\n` and the results in the binary value format, or
//!   `ERR <file> <start> <end> <bytes>\n` and the message, whose span is
//!   the failing statement's.
//!
//! A program's top-level evaluation never fails in generated code, so one
//! process serves a whole test run; a panic (a bug) ends the process, and
//! the runner reports the calls that got no reply.

use std::io::{BufRead, Read, Write};

use values::Value;

use crate::arr::Fail;

/// An entry function of a program in a batch: its name, and the function
/// that runs it on flat arguments.
pub type BatchEntry = (&'static str, fn(Vec<Value>) -> Result<Vec<Value>, Fail>);

/// Serves calls to `programs` (each a list of entries) on standard input
/// and output until the input ends, on a thread with a large stack (generated
/// functions may recurse deeply).
pub fn serve(programs: &'static [&'static [BatchEntry]]) {
    let served = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || serve_here(programs))
        .map(|h| h.join());
    if let Err(e) = served {
        eprintln!("cannot start the serving thread: {e}");
        std::process::exit(2);
    }
}

fn serve_here(programs: &[&[BatchEntry]]) {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.as_slice() {
            ["CALL", prog, entry, bytes] => {
                let n: usize = bytes.parse().unwrap_or(0);
                let mut buf = vec![0u8; n];
                if input.read_exact(&mut buf).is_err() {
                    return;
                }
                call(programs, prog, entry, &buf)
            }
            _ => Err(Fail {
                message: format!("malformed request: {}", line.trim_end()),
                span: (0, 0, 0),
            }),
        };
        let ok = match reply {
            Ok(bytes) => writeln!(out, "OK {}", bytes.len()).and_then(|_| out.write_all(&bytes)),
            Err(f) => write!(
                out,
                "ERR {} {} {} {}\n{}",
                f.span.0,
                f.span.1,
                f.span.2,
                f.message.len(),
                f.message
            ),
        };
        if ok.and_then(|_| out.flush()).is_err() {
            return;
        }
    }
}

fn call(programs: &[&[BatchEntry]], prog: &str, entry: &str, args: &[u8]) -> Result<Vec<u8>, Fail> {
    let fail = |m: String| Fail {
        message: m,
        span: (0, 0, 0),
    };
    let p = prog
        .parse::<usize>()
        .ok()
        .and_then(|p| programs.get(p))
        .ok_or_else(|| fail(format!("no program {prog}")))?;
    let (_, run) = p
        .iter()
        .find(|(name, _)| *name == entry)
        .ok_or_else(|| fail(format!("no entry point {entry}")))?;
    let args = values::read_values(args).map_err(|e| fail(e.to_string()))?;
    let results = run(args)?;
    let mut bytes = Vec::new();
    for r in &results {
        values::write_binary(r, &mut bytes).map_err(|e| fail(e.to_string()))?;
    }
    Ok(bytes)
}
