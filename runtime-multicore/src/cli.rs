//! The executable's `main`: options, the context, then the plain mode or
//! the server; the profiling report and the exit status at the end.
//!
//! Exit status: 0 on success; 1 for a bad command line, bad input data, an
//! unknown entry point, a run-time error of the program or a failure to
//! write, each reported on standard error as `Error: MESSAGE`.

use std::io::{BufWriter, Write};

use crate::context::Context;
use crate::entry::Program;
use crate::options::{self, Options};

/// The status for every failure.
const FAILURE: i32 = 1;

/// The executable's `main`: parses the command line, reads the arguments,
/// runs the chosen entry and writes the results (or serves requests with
/// `--server`), and exits.
pub fn main(program: &'static Program) -> ! {
    crate::call::install_panic_hook();
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(run(program, args))
}

/// Everything [`main`] does but exiting: returns the exit status.
pub fn run(program: &Program, args: Vec<String>) -> i32 {
    let opts = match options::parse(args) {
        Ok(o) => o,
        Err(m) => {
            eprintln!("Error: {m}\n(use --help for the options)");
            return FAILURE;
        }
    };
    if opts.help {
        print!("{}", options::help(program.name));
        return 0;
    }
    let ctx = match Context::new(opts.threads, opts.profile) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("Error: {e}");
            return FAILURE;
        }
    };
    let status = if opts.server {
        serve(program, &ctx)
    } else {
        execute(program, &ctx, &opts)
    };
    if opts.profile {
        eprint!("{}", ctx.profiler().report());
    }
    status
}

fn execute(program: &Program, ctx: &Context, opts: &Options) -> i32 {
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let result = crate::execute::execute(program, ctx, opts, stdin, &mut out);
    let flushed = out.flush();
    match (result, flushed) {
        (Err(m), _) => {
            eprintln!("Error: {m}");
            FAILURE
        }
        (Ok(()), Err(e)) => {
            eprintln!("Error: cannot write the results: {e}");
            FAILURE
        }
        (Ok(()), Ok(())) => 0,
    }
}

fn serve(program: &Program, ctx: &Context) -> i32 {
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    match crate::server::Server::new(program, ctx).serve(stdin, &mut out) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("Error: the server's input or output failed: {e}");
            FAILURE
        }
    }
}
