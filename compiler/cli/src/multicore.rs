//! `fut multicore`: compile a program to a native executable that runs in
//! parallel on all cores.

use std::path::PathBuf;

use clap::Args;
use driver::multicore::{BuildOptions, build_executable};

/// Arguments of `fut multicore`.
#[derive(Args, Debug)]
pub struct MulticoreArgs {
    /// The program to compile.
    program: PathBuf,
    /// Where to write the executable (default: the program's path without
    /// `.fut`).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Keep bounds checks (`--safe=false` removes them; `#[unsafe]` removes
    /// them for one expression).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    safe: bool,
}

/// Runs `fut multicore`; the exit status.
pub fn run(args: MulticoreArgs) -> u8 {
    let db = driver::Database::new(std::sync::Arc::new(driver::OsSystem));
    let opts = BuildOptions {
        safe: args.safe,
        output: args.output,
    };
    match build_executable(&db, &args.program, &opts) {
        Ok(_) => 0,
        Err(m) => {
            eprintln!("{}", m.trim_end());
            1
        }
    }
}
