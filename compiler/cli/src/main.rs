//! The `fut` command-line tool: argument parsing with clap; the work is done by the
//! driver crate.
//!
//! Exit status: 0 on success, 1 when the program or its data is at fault (type
//! errors, run-time errors, failed tests, malformed input), 2 for usage errors.

mod bench;
mod commands;
mod fuzz;
mod multicore;
mod pkg;

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// A compiler for Futhark's nested data-parallel array language.
#[derive(Parser, Debug)]
#[command(name = "fut", version, about, propagate_version = true)]
struct Cli {
    /// When to colour diagnostics: `auto` colours only on a terminal and only when
    /// the NO_COLOR environment variable is unset.
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto, value_name = "WHEN")]
    color: Color,

    #[command(subcommand)]
    command: Command,
}

/// `--color` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Color {
    /// Colour on a terminal, unless NO_COLOR is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Type-check a program and report every error and warning.
    ///
    /// Exits with status 1 if the program has errors.
    Check(CheckArgs),
    /// Run an entry point of a program with the interpreter.
    ///
    /// The entry's arguments are read from standard input, in Futhark's text or
    /// binary value format (they may be mixed). Unsuffixed numbers take the type of
    /// the parameter they are read for. Results are written to standard output, one
    /// per line.
    Run(RunArgs),
    /// Run the `-- ==` test blocks of programs.
    ///
    /// Directories are searched recursively for `.fut` files; files without a test
    /// block are not tests and are ignored. The last line of output is
    /// `N passed, M failed`; the exit status is 1 if any program failed.
    #[command(after_help = TEST_AFTER_HELP)]
    Test(TestArgs),
    /// Generate random values, or convert values between the text and binary formats.
    ///
    /// With `-g`, writes one value per `-g` option. Without, reads values from
    /// standard input and writes them in the chosen format.
    Dataset(Box<DatasetArgs>),
    /// Developer access to the compiler's passes.
    ///
    /// `--list-passes` lists them. Given a source program (`.fut`), checks and
    /// internalises it; given a core IR file (`.fut_ir`, the IR's textual form),
    /// parses it. Then runs the passes named by `--passes` in order, or the standard
    /// pipeline up to `--print=PASS`, with the IR verifier after each one, and prints
    /// the resulting IR on standard output.
    Dev(DevArgs),
    /// Time the datasets of programs' `-- ==` blocks.
    ///
    /// Per dataset: one warm-up run, then at least `-r` runs and half a second,
    /// then more (for a bounded time) while the relative standard error of the mean
    /// is above 1% and the run times drift. Prints the mean time in microseconds with
    /// a 95% confidence interval and checks the results against the expected output.
    /// The exit status is 1 if any dataset failed.
    Bench(bench::BenchArgs),
    /// Compile a program to a native executable that runs on all cores.
    ///
    /// The program is compiled to Rust and built with cargo in release mode, in a
    /// cached crate under the user's cache folder (`docs/multicore.md`). The
    /// executable is written next to the program, without `.fut`.
    Multicore(multicore::MulticoreArgs),
    /// Compile a program to a native executable whose parallel loops run as OpenCL
    /// kernels.
    ///
    /// As `fut multicore`, with the outermost parallel loops that the kernel emitter
    /// accepts compiled to OpenCL C and launched on an OpenCL device (a GPU, or the CPU
    /// through PoCL); the rest runs on the host (`docs/gpu.md`). The executable takes
    /// the multicore executables' options plus `-d/--device NAME` and
    /// `--list-devices`.
    Opencl(multicore::MulticoreArgs),
    /// Compile a program to a native executable whose parallel loops run as CUDA
    /// kernels on an NVIDIA GPU.
    ///
    /// As `fut opencl`, with the kernels in CUDA C, compiled by NVRTC when the
    /// program is compiled (a cubin per `--cuda-arch`, and PTX) and embedded in the
    /// executable; the executable needs the CUDA driver, not NVRTC. NVRTC is found
    /// through FUT_NVRTC (the path of libnvrtc.so.12), the library path, a CUDA
    /// toolkit, or the Python package nvidia-cuda-nvrtc-cu12 (`docs/gpu.md`). The
    /// executable takes the multicore executables' options plus `-d/--device NAME`
    /// and `--list-devices`.
    Cuda(multicore::CudaArgs),
    /// Manage the packages a project requires: futhark.pkg and lib/.
    ///
    /// Compatible with `futhark pkg`. futhark.pkg lists the required packages with
    /// their least versions; `fut pkg sync` fetches them (with git; a release is a
    /// tag vX.Y.Z) into lib/PKGPATH/, where programs import them from. The
    /// commands work in the current folder.
    #[command(after_help = PKG_AFTER_HELP)]
    Pkg(pkg::PkgArgs),
}

/// The environment of `fut pkg`, documented in `fut pkg --help`.
const PKG_AFTER_HELP: &str = "Environment: a package path P is fetched from https://P, \
unless FUT_PKG_URL_MAP maps it elsewhere: entries PREFIX=URL separated by `;` or newlines; \
a path equal to PREFIX is fetched from URL, a path PREFIX/REST from URL/REST (the longest \
prefix wins), e.g. FUT_PKG_URL_MAP='github.com/diku-dk=/srv/git/diku-dk'.";

#[derive(Args, Debug)]
struct DevArgs {
    /// List every pass with a one-line description.
    #[arg(long)]
    list_passes: bool,
    /// Comma-separated passes to run, in order, e.g. `inline,simplify,fusion`.
    #[arg(long, value_name = "PASSES", default_value = "")]
    passes: String,
    /// Run the standard pipeline up to and including the last occurrence of PASS
    /// (`internalise`: no pass at all) and print the IR; `imp`: the whole pipeline,
    /// then the imperative IR it lowers to; `opencl` or `cuda`: the imperative IR
    /// with the loops that become GPU kernels marked, the kernels in that dialect,
    /// and the loops left on the host with the reason.
    #[arg(long, value_name = "PASS", conflicts_with = "passes")]
    print: Option<String>,
    /// A source program (`.fut`) or a core IR file (`.fut_ir`).
    #[arg(
        required_unless_present_any = ["list_passes", "fuzz", "fuzz_worker"],
        value_name = "FILE"
    )]
    file: Option<PathBuf>,
    #[command(flatten)]
    fuzz: FuzzArgs,
}

/// `fut dev --fuzz`: differential testing with random programs (docs/cli.md).
#[derive(Args, Debug)]
struct FuzzArgs {
    /// Generate N random programs, run them on the interpreter and on each of
    /// `--backends`, and shrink and save every disagreement or crash.
    #[arg(long, value_name = "N", conflicts_with_all = ["file", "list_passes", "passes", "print"])]
    fuzz: Option<usize>,
    /// Seed of the first program (program i has seed SEED+i).
    #[arg(long, default_value_t = 1, value_name = "SEED", requires = "fuzz")]
    seed: u64,
    /// Backends compared with the interpreter, comma-separated.
    #[arg(
        long,
        default_value = "ir,multicore",
        value_name = "LIST",
        requires = "fuzz"
    )]
    backends: String,
    /// How many of the programs run on compiled backends (built as one executable).
    #[arg(long, default_value_t = 50, value_name = "K", requires = "fuzz")]
    compiled_sample: usize,
    /// Where the generated programs are written (default: a folder under the
    /// system's temporary folder, per seed).
    #[arg(long, value_name = "DIR", requires = "fuzz")]
    fuzz_dir: Option<PathBuf>,
    /// Where reproducers of backend problems are written.
    #[arg(
        long,
        default_value = "tests/regress",
        value_name = "DIR",
        requires = "fuzz"
    )]
    regress_dir: PathBuf,
    /// Seconds spent shrinking each problem.
    #[arg(long, default_value_t = 120, value_name = "SECS", requires = "fuzz")]
    shrink_time: u64,
    /// Depth of generated expressions.
    #[arg(long, default_value_t = 4, value_name = "D", requires = "fuzz")]
    depth: u32,
    /// Seconds each program may run on each interpreted backend before it is
    /// reported as timed out.
    #[arg(
        long,
        default_value_t = 10.0,
        value_name = "SECS",
        requires = "fuzz",
        allow_negative_numbers = true
    )]
    time_limit: f64,
    /// Serve a fuzzing run as its worker process (one request a line on
    /// standard input; used by `--fuzz` itself).
    #[arg(long, hide = true, conflicts_with_all = ["file", "fuzz"])]
    fuzz_worker: bool,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The program to check.
    program: PathBuf,
}

#[derive(Args, Debug)]
struct RunArgs {
    /// The program to run.
    program: PathBuf,
    /// The entry point to run.
    #[arg(short, long, default_value = "main", value_name = "ENTRY")]
    entry: String,
    /// Write results in the binary value format instead of text.
    #[arg(short, long)]
    binary: bool,
}

#[derive(Args, Debug)]
struct TestArgs {
    /// Programs, or directories to search for programs.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Run the cases with the reference interpreter (the default).
    #[arg(short = 'i', long = "interpreted")]
    interpreted: bool,
    /// The backend that runs the cases. Cases tagged `no_BACKEND` are skipped.
    #[arg(long, value_enum, default_value_t = Backend::Interp)]
    backend: Backend,
    /// Skip programs and cases with this tag (repeatable). `disable`, `notest` and
    /// `no_BACKEND` are always skipped.
    #[arg(long, value_name = "TAG")]
    exclude: Vec<String>,
    /// Only run cases of this entry point (repeatable).
    #[arg(short, long = "entry-point", value_name = "ENTRY")]
    entry: Vec<String>,
    /// How many programs to test at once (default: the number of cores).
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    /// With `--backend=cuda`: the GPU architectures the kernels are compiled for,
    /// as for `fut cuda` (default: FUT_CUDA_ARCH, else sm_90,sm_80).
    #[arg(long, value_name = "LIST", value_parser = multicore::parse_cuda_arch)]
    cuda_arch: Option<multicore::CudaArch>,
    /// With a compiled backend: compile and build the programs, write their test
    /// executables and a table of the programs to DIR (a test bundle), and run no
    /// case. For running the tests on another machine with `--bundle`.
    #[arg(long, value_name = "DIR", conflicts_with = "bundle")]
    write_bundle: Option<PathBuf>,
    /// With a compiled backend: run the cases with the executables of the test
    /// bundle in DIR (from `--write-bundle`, same paths, same folder), compiling
    /// nothing: for a GPU machine without Rust or NVRTC (tools/gpu-check.sh).
    #[arg(long, value_name = "DIR")]
    bundle: Option<PathBuf>,
}

/// The environment variable of `fut test --backend=ir`'s validation, documented in
/// `fut test --help`.
const TEST_AFTER_HELP: &str = "Environment: with --backend=ir, the IR verifier runs after every \
pass and each case's results are compared with the reference interpreter's; \
FUT_VALIDATE=0 turns both off for speed.";

/// Backends `fut test` can run cases on.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Backend {
    /// The reference interpreter.
    Interp,
    /// The core IR interpreter, after internalisation and optimisation; also
    /// checks `structure` blocks.
    Ir,
    /// The multicore backend: all programs compiled into one native executable.
    Multicore,
    /// The OpenCL backend: as multicore, with parallel loops run as OpenCL kernels
    /// (device: `FUT_OPENCL_DEVICE`, else the first GPU, else the first device).
    Opencl,
    /// The CUDA backend: as multicore, with parallel loops run as CUDA kernels
    /// (device: `FUT_CUDA_DEVICE`, else device 0), compiled for `--cuda-arch`.
    Cuda,
}

#[derive(Args, Debug)]
struct DatasetArgs {
    /// A type with sizes, such as `[100][3]f32`, or a value, such as `[1,2,3]`, to
    /// write (repeatable; one value each, in order).
    /// A value may be negative (`-g -129i16`).
    #[arg(
        short = 'g',
        long = "generate",
        value_name = "TYPE|VALUE",
        allow_hyphen_values = true
    )]
    generate: Vec<String>,
    /// Write the binary value format.
    #[arg(short, long, conflicts_with = "text")]
    binary: bool,
    /// Write the text value format (the default).
    #[arg(short, long)]
    text: bool,
    /// Seed of the random generator; the i-th `-g` value (from 0) uses SEED+i.
    #[arg(short, long, default_value_t = 1, value_name = "SEED")]
    seed: u64,
    #[command(flatten)]
    bounds: BoundsArgs,
}

/// `--T-bounds=MIN:MAX` options, one per element type.
#[derive(Args, Debug)]
struct BoundsArgs {
    /// Inclusive bounds of generated i8 values.
    #[arg(long = "i8-bounds", value_name = "MIN:MAX", allow_hyphen_values = true)]
    i8: Option<String>,
    /// Inclusive bounds of generated i16 values.
    #[arg(
        long = "i16-bounds",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    i16: Option<String>,
    /// Inclusive bounds of generated i32 values.
    #[arg(
        long = "i32-bounds",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    i32: Option<String>,
    /// Inclusive bounds of generated i64 values.
    #[arg(
        long = "i64-bounds",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    i64: Option<String>,
    /// Inclusive bounds of generated u8 values.
    #[arg(long = "u8-bounds", value_name = "MIN:MAX")]
    u8: Option<String>,
    /// Inclusive bounds of generated u16 values.
    #[arg(long = "u16-bounds", value_name = "MIN:MAX")]
    u16: Option<String>,
    /// Inclusive bounds of generated u32 values.
    #[arg(long = "u32-bounds", value_name = "MIN:MAX")]
    u32: Option<String>,
    /// Inclusive bounds of generated u64 values.
    #[arg(long = "u64-bounds", value_name = "MIN:MAX")]
    u64: Option<String>,
    /// Inclusive bounds of generated f16 values (default 0:1).
    #[arg(
        long = "f16-bounds",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    f16: Option<String>,
    /// Inclusive bounds of generated f32 values (default 0:1).
    #[arg(
        long = "f32-bounds",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    f32: Option<String>,
    /// Inclusive bounds of generated f64 values (default 0:1).
    #[arg(
        long = "f64-bounds",
        value_name = "MIN:MAX",
        allow_hyphen_values = true
    )]
    f64: Option<String>,
}

impl BoundsArgs {
    fn list(&self) -> [(values::PrimType, &Option<String>); 11] {
        use values::PrimType as P;
        [
            (P::I8, &self.i8),
            (P::I16, &self.i16),
            (P::I32, &self.i32),
            (P::I64, &self.i64),
            (P::U8, &self.u8),
            (P::U16, &self.u16),
            (P::U32, &self.u32),
            (P::U64, &self.u64),
            (P::F16, &self.f16),
            (P::F32, &self.f32),
            (P::F64, &self.f64),
        ]
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    commands::install_panic_hook();
    // The checker and the interpreter recurse over the program, so the work runs on
    // a thread with a large stack.
    let worker = std::thread::Builder::new()
        .stack_size(driver::STACK_SIZE)
        .spawn(move || commands::dispatch(cli));
    match worker {
        Ok(handle) => match handle.join() {
            Ok(code) => ExitCode::from(code),
            Err(_) => ExitCode::from(101),
        },
        Err(e) => {
            eprintln!("error: cannot start the worker thread: {e}");
            ExitCode::from(101)
        }
    }
}
