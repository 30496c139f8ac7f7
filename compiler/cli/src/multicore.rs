//! `fut multicore`, `fut opencl` and `fut cuda`: compile a program to a
//! native executable that runs in parallel on all cores (or with its
//! parallel loops as OpenCL or CUDA kernels), or (`--library`) to a Rust
//! library crate with a typed API on the same backend.

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
    /// The CPU the executable's code is compiled for: `native` (this
    /// machine, with its vector instructions) or a name that `rustc --print
    /// target-cpus` lists, such as `x86-64` (any 64-bit x86 machine) or
    /// `x86-64-v3` (one with AVX2), for an executable run elsewhere.
    /// Default: FUT_TARGET_CPU, else native.
    #[arg(long, value_name = "CPU")]
    target_cpu: Option<String>,
}

/// Arguments of `fut cuda`: those of `fut multicore`, and the
/// architectures the kernels are compiled for.
#[derive(Args, Debug)]
pub struct CudaArgs {
    #[command(flatten)]
    common: MulticoreArgs,
    /// The GPU architectures to compile the kernels for ahead of time,
    /// separated by commas: `sm_` and the compute capability without its dot
    /// (sm_90: H100, H200; sm_80: A100). A cubin is embedded for each, and PTX
    /// for the lowest, which newer GPUs compile when they start the program.
    /// Default: FUT_CUDA_ARCH, else sm_90,sm_80.
    #[arg(long, value_name = "LIST", value_parser = parse_cuda_arch)]
    cuda_arch: Option<CudaArch>,
}

/// A parsed `--cuda-arch` list.
#[derive(Clone, Debug)]
pub struct CudaArch(pub Vec<String>);

/// Parses `--cuda-arch` (an error is a usage error, exit 2).
pub fn parse_cuda_arch(list: &str) -> Result<CudaArch, String> {
    driver::multicore::cuda::parse_archs(list).map(CudaArch)
}

/// The architectures of `--cuda-arch` if given, else of `FUT_CUDA_ARCH`,
/// else the default; a bad `FUT_CUDA_ARCH` is reported here (exit 2).
pub fn cuda_arch(given: Option<CudaArch>) -> Result<Vec<String>, u8> {
    driver::multicore::cuda::archs_or_default(given.map(|a| a.0)).map_err(|e| {
        eprintln!("error: {e}");
        2
    })
}

/// Runs `fut cuda`; the exit status.
pub fn run_cuda(args: CudaArgs) -> u8 {
    match cuda_arch(args.cuda_arch) {
        Ok(archs) => build(args.common, Target::Cuda, archs),
        Err(code) => code,
    }
}

/// Runs `fut multicore` (or `fut opencl`, with `target`); the exit status.
pub fn run(args: MulticoreArgs, target: Target) -> u8 {
    build(args, target, driver::multicore::cuda::default_archs())
}

fn build(args: MulticoreArgs, target: Target, cuda_arch: Vec<String>) -> u8 {
    let db = driver::Database::new(std::sync::Arc::new(driver::OsSystem));
    let result = if args.library && args.target_cpu.is_some() {
        Err("error: --target-cpu applies to executables; a library crate is compiled by its user's cargo (give it `-C target-cpu` in RUSTFLAGS there)".to_string())
    } else if args.library {
        let opts = LibraryOptions {
            safe: args.safe,
            output: args.output,
            target,
            cuda_arch,
        };
        write_library(&db, &args.program, &opts).map(|_| ())
    } else {
        let opts = BuildOptions {
            safe: args.safe,
            output: args.output,
            target,
            cuda_arch,
            target_cpu: args
                .target_cpu
                .unwrap_or_else(driver::multicore::cpu::default_cpu),
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
