//! The contract between generated programs and the runtime.

use values::{PrimType, Value};

/// A parameter or result type of an entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeDesc {
    /// The number of array dimensions (0 for a scalar).
    pub rank: usize,
    /// The element type.
    pub elem: PrimType,
    /// Whether the parameter is unique (`*[]f64`): the entry may consume it.
    pub unique: bool,
}

/// One entry point of a generated program.
#[derive(Clone, Copy)]
pub struct EntryPoint {
    /// The entry's name, as `-e NAME` and the server's `call` use it.
    pub name: &'static str,
    /// The types of its parameters, in order.
    pub params: &'static [TypeDesc],
    /// The types of its results, in order (a tuple result is flattened).
    pub results: &'static [TypeDesc],
    /// Runs the entry on arguments of the parameters' types. Arguments are
    /// moved in (their buffers may be reused in place); an `Err` is a
    /// run-time error of the program (failed bounds check, assertion, size
    /// mismatch) whose message names the source location.
    pub run: fn(&Context, Vec<Value>) -> Result<Vec<Value>, Error>,
}

/// A generated program: its entry points.
#[derive(Clone, Copy)]
pub struct Program {
    /// The name of the source program, for messages.
    pub name: &'static str,
    /// The entry points.
    pub entries: &'static [EntryPoint],
}

/// A run-time error of a generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The message, with the source location where there is one.
    pub message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// What an entry point runs with: the thread pool and the profiler.
pub struct Context {
    _private: (),
}

/// The executable's `main`: parses the command line, reads the arguments,
/// runs the chosen entry and writes the results (or serves requests with
/// `--server`), and exits.
pub fn main(program: &'static Program) -> ! {
    let _ = program;
    eprintln!("not built yet");
    std::process::exit(2)
}
