//! `fut multicore` and `fut opencl`: compile a program to a native
//! executable that runs in parallel on all cores (or with its parallel
//! loops as OpenCL kernels), or (`--library`, multicore) to a Rust library
//! crate with a typed API.

use std::path::PathBuf;

use clap::Args;
use driver::library::{LibraryOptions, write_library};
use driver::multicore::{BuildOptions, Target, build_executable};

/// Arguments of `fut multicore`.
#[derive(Args, Debug)]
pub struct MulticoreArgs {
    /// The program to compile.
    program: PathBuf,
    /// Where to write the executable, or with `--library` the crate's folder
    /// (default: the program's path without `.fut`).
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// Keep bounds checks (`--safe=false` removes them; `#[unsafe]` removes
    /// them for one expression).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    safe: bool,
    /// Write a Rust library crate (a typed API with one method per entry
    /// point, `docs/library.md`) instead of building an executable.
    #[arg(long)]
    library: bool,
}

/// Runs `fut multicore` (or `fut opencl`, with `target`); the exit status.
pub fn run(args: MulticoreArgs, target: Target) -> u8 {
    let db = driver::Database::new(std::sync::Arc::new(driver::OsSystem));
    let result = if args.library && target != Target::Multicore {
        Err(format!(
            "error: `fut {} --library` is not available yet; `fut multicore --library` writes a library crate",
            target.name()
        ))
    } else if args.library {
        let opts = LibraryOptions {
            safe: args.safe,
            output: args.output,
        };
        write_library(&db, &args.program, &opts).map(|_| ())
    } else {
        let opts = BuildOptions {
            safe: args.safe,
            output: args.output,
            target,
        };
        build_executable(&db, &args.program, &opts).map(|_| ())
    };
    match result {
        Ok(()) => 0,
        Err(m) => {
            eprintln!("{}", m.trim_end());
            1
        }
    }
}
