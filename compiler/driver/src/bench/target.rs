//! Where a benchmark runs: a [`Target`] prepares a checked program, giving
//! an [`Instance`] that loads a dataset's arguments, runs the entry point
//! (one timed call at a time) and hands back the last results.
//!
//! A script input's arguments are computed once, when the dataset is
//! loaded: every call the script makes runs then, untimed, and each timed
//! run calls only the entry point on the arguments the script gave.
//!
//! The reference interpreter and the IR interpreter run in this process;
//! compiled backends run an executable in server mode
//! ([`super::server::ServerTarget`]).

use std::path::Path;
use std::time::{Duration, Instant};

use values::Value;

use crate::db::Database;
use crate::program::Program;
use crate::script::backends::{InterpBackend, IrBackend};
use crate::script::eval::{call_entry, entry_args};
use crate::script::{Env, Expr, ScriptError, Val};

/// A backend that `fut bench` can run programs on.
pub trait Target {
    /// The backend's name, as in `--backend=NAME` and `no_NAME` tags.
    fn name(&self) -> &str;
    /// Whether cases tagged `compiled` are skipped (interpreters are too slow
    /// for them).
    fn skips_compiled(&self) -> bool;
    /// Makes a checked program ready to run; `path` is its root file.
    fn prepare(
        &self,
        db: &Database,
        program: &Program,
        path: &Path,
    ) -> Result<Box<dyn Instance>, String>;
}

/// A program ready to run datasets.
pub trait Instance {
    /// Loads the arguments of a call of `entry`, replacing those loaded before.
    fn load(&mut self, entry: &str, args: Vec<Value>) -> Result<(), String>;
    /// Loads the arguments a script input gives its entry point, running
    /// the script's own calls now (they are not timed), replacing the
    /// arguments loaded before.
    fn load_script(&mut self, script: &ScriptInput) -> Result<(), String> {
        let _ = script;
        Err("script inputs are not supported by this backend".into())
    }
    /// Calls the entry on the loaded arguments (each call sees them as
    /// loaded, even when an earlier call consumed them) and returns how long
    /// the call took. A call still running at `deadline` may be stopped; the
    /// instance is then unusable (`Err` from every later call).
    fn run(&mut self, deadline: Option<Instant>) -> Result<Duration, String>;
    /// The results of the last successful call.
    fn results(&mut self) -> Result<Vec<Value>, String>;
}

/// A dataset's script input, parsed, and what evaluating it needs.
pub struct ScriptInput<'a> {
    /// The entry point the dataset runs.
    pub entry: &'a semantic::EntryPoint,
    /// The script.
    pub expr: &'a Expr,
    /// The program's entry points and the reader of data files.
    pub env: &'a Env<'a>,
    /// Where a position of the script is, for messages.
    pub at: &'a dyn Fn(crate::script::Pos) -> String,
}

impl ScriptInput<'_> {
    /// The message of a script's failure; `runtime` renders a run-time error.
    pub fn message(
        &self,
        e: ScriptError,
        runtime: &dyn Fn(&interp::RuntimeError) -> String,
    ) -> String {
        match e {
            ScriptError::Script(p, m) => format!("{}: {m}", (self.at)(p)),
            ScriptError::Runtime(e) => format!("the script input failed: {}", runtime(&e)),
        }
    }
}

/// The reference interpreter.
pub struct InterpTarget;

/// The core IR interpreter, after internalisation and the standard pipeline.
pub struct IrTarget;

impl Target for InterpTarget {
    fn name(&self) -> &str {
        "interp"
    }

    fn skips_compiled(&self) -> bool {
        true
    }

    fn prepare(
        &self,
        db: &Database,
        program: &Program,
        _path: &Path,
    ) -> Result<Box<dyn Instance>, String> {
        let interp = crate::run::instantiate(db, program).map_err(|e| {
            format!(
                "evaluating the program's top-level definitions failed:\n{}",
                crate::render::runtime_error(&e, &db.sources())
            )
        })?;
        Ok(Box::new(InProcess {
            call: Box::new(CallInterp {
                interp,
                root: program.root.id(db),
                sources: db.sources(),
            }),
            loaded: None,
            results: None,
        }))
    }
}

impl Target for IrTarget {
    fn name(&self) -> &str {
        "ir"
    }

    fn skips_compiled(&self) -> bool {
        false
    }

    fn prepare(
        &self,
        db: &Database,
        program: &Program,
        _path: &Path,
    ) -> Result<Box<dyn Instance>, String> {
        let prog = crate::irrun::compile(db, program, false)?;
        Ok(Box::new(InProcess {
            call: Box::new(CallIr {
                prog,
                sources: db.sources(),
            }),
            loaded: None,
            results: None,
        }))
    }
}

/// A script input's arguments, as a backend in this process keeps them.
#[derive(Clone)]
enum ScriptArgs {
    /// The reference interpreter's values.
    Interp(Vec<Val<interp::value::Value>>),
    /// Opaque values as their components (the IR interpreter).
    Components(Vec<Val<Vec<Value>>>),
}

/// Calling an entry point in this process.
trait Call {
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String>;
    /// Runs a script's calls, giving the entry's arguments.
    fn script_args(&mut self, script: &ScriptInput) -> Result<ScriptArgs, String>;
    /// Calls `entry` on arguments from [`Call::script_args`].
    fn call_script(
        &mut self,
        entry: &semantic::EntryPoint,
        args: ScriptArgs,
    ) -> Result<Vec<Value>, String>;
}

/// The place given to messages of the entry's own call, which has no
/// position in the script.
const CALL_POS: crate::script::Pos = crate::script::Pos { line: 1, col: 1 };

struct CallInterp {
    interp: interp::Interpreter,
    root: syntax::FileId,
    sources: crate::db::Sources,
}

impl Call for CallInterp {
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String> {
        self.interp
            .call_entry(self.root, entry, args)
            .map_err(|e| crate::render::runtime_error(&e, &self.sources))
    }

    fn script_args(&mut self, script: &ScriptInput) -> Result<ScriptArgs, String> {
        let mut backend = InterpBackend {
            interp: &mut self.interp,
            root: self.root,
        };
        let sources = &self.sources;
        entry_args(script.env, &mut backend, script.expr, script.entry)
            .map(ScriptArgs::Interp)
            .map_err(|e| script.message(e, &|e| crate::render::runtime_error(e, sources)))
    }

    fn call_script(
        &mut self,
        entry: &semantic::EntryPoint,
        args: ScriptArgs,
    ) -> Result<Vec<Value>, String> {
        let ScriptArgs::Interp(args) = args else {
            return Err("arguments of another backend".into());
        };
        let mut backend = InterpBackend {
            interp: &mut self.interp,
            root: self.root,
        };
        call_entry(&mut backend, entry, args, CALL_POS).map_err(|e| match e {
            ScriptError::Runtime(e) => crate::render::runtime_error(&e, &self.sources),
            ScriptError::Script(_, m) => m,
        })
    }
}

struct CallIr {
    prog: ir::Program,
    sources: crate::db::Sources,
}

impl Call for CallIr {
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String> {
        crate::irrun::run_entry(&self.prog, entry, args)
            .map_err(|e| crate::render::runtime_error(&e, &self.sources))
    }

    fn script_args(&mut self, script: &ScriptInput) -> Result<ScriptArgs, String> {
        let mut backend = IrBackend { prog: &self.prog };
        let sources = &self.sources;
        entry_args(script.env, &mut backend, script.expr, script.entry)
            .map(ScriptArgs::Components)
            .map_err(|e| script.message(e, &|e| crate::render::runtime_error(e, sources)))
    }

    fn call_script(
        &mut self,
        entry: &semantic::EntryPoint,
        args: ScriptArgs,
    ) -> Result<Vec<Value>, String> {
        let ScriptArgs::Components(args) = args else {
            return Err("arguments of another backend".into());
        };
        let mut backend = IrBackend { prog: &self.prog };
        call_entry(&mut backend, entry, args, CALL_POS).map_err(|e| match e {
            ScriptError::Runtime(e) => crate::render::runtime_error(&e, &self.sources),
            ScriptError::Script(_, m) => m,
        })
    }
}

/// Arguments loaded into an in-process instance.
enum Loaded {
    /// An entry's name and its arguments.
    Values(String, Vec<Value>),
    /// An entry point and the arguments its script input gave.
    Script(semantic::EntryPoint, ScriptArgs),
}

/// An in-process instance: each run gets a copy of the loaded arguments,
/// made before the clock starts. A run cannot be stopped, so the deadline
/// is only checked between runs.
struct InProcess {
    call: Box<dyn Call>,
    loaded: Option<Loaded>,
    results: Option<Vec<Value>>,
}

impl Instance for InProcess {
    fn load(&mut self, entry: &str, args: Vec<Value>) -> Result<(), String> {
        self.loaded = Some(Loaded::Values(entry.to_string(), args));
        self.results = None;
        Ok(())
    }

    fn load_script(&mut self, script: &ScriptInput) -> Result<(), String> {
        self.loaded = None;
        self.results = None;
        let args = self.call.script_args(script)?;
        self.loaded = Some(Loaded::Script(script.entry.clone(), args));
        Ok(())
    }

    fn run(&mut self, _deadline: Option<Instant>) -> Result<Duration, String> {
        let (out, time) = match &self.loaded {
            None => return Err("no arguments loaded".into()),
            Some(Loaded::Values(entry, args)) => {
                let args = args.clone();
                let start = Instant::now();
                let out = self.call.call(entry, args);
                (out, start.elapsed())
            }
            Some(Loaded::Script(entry, args)) => {
                let args = args.clone();
                let start = Instant::now();
                let out = self.call.call_script(entry, args);
                (out, start.elapsed())
            }
        };
        self.results = Some(out?);
        Ok(time)
    }

    fn results(&mut self) -> Result<Vec<Value>, String> {
        self.results
            .clone()
            .ok_or_else(|| "no successful run yet".to_string())
    }
}
