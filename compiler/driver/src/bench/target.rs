//! Where a benchmark runs: a [`Target`] prepares a checked program, giving
//! an [`Instance`] that loads a dataset's arguments, runs the entry point
//! (one timed call at a time) and hands back the last results.
//!
//! The reference interpreter and the IR interpreter run in this process;
//! compiled backends run an executable in server mode
//! ([`super::server::ServerTarget`]).

use std::path::Path;
use std::time::{Duration, Instant};

use values::Value;

use crate::db::Database;
use crate::program::Program;

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
    /// Calls the entry on the loaded arguments (each call sees them as
    /// loaded, even when an earlier call consumed them) and returns how long
    /// the call took. A call still running at `deadline` may be stopped; the
    /// instance is then unusable (`Err` from every later call).
    fn run(&mut self, deadline: Option<Instant>) -> Result<Duration, String>;
    /// The results of the last successful call.
    fn results(&mut self) -> Result<Vec<Value>, String>;
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

/// Calling an entry point in this process.
trait Call {
    fn call(&mut self, entry: &str, args: Vec<Value>) -> Result<Vec<Value>, String>;
}

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
}

/// An in-process instance: each run gets a copy of the loaded arguments,
/// made before the clock starts. A run cannot be stopped, so the deadline
/// is only checked between runs.
struct InProcess {
    call: Box<dyn Call>,
    loaded: Option<(String, Vec<Value>)>,
    results: Option<Vec<Value>>,
}

impl Instance for InProcess {
    fn load(&mut self, entry: &str, args: Vec<Value>) -> Result<(), String> {
        self.loaded = Some((entry.to_string(), args));
        self.results = None;
        Ok(())
    }

    fn run(&mut self, _deadline: Option<Instant>) -> Result<Duration, String> {
        let Some((entry, args)) = &self.loaded else {
            return Err("no arguments loaded".into());
        };
        let args = args.clone();
        let start = Instant::now();
        let out = self.call.call(entry, args);
        let time = start.elapsed();
        self.results = Some(out?);
        Ok(time)
    }

    fn results(&mut self) -> Result<Vec<Value>, String> {
        self.results
            .clone()
            .ok_or_else(|| "no successful run yet".to_string())
    }
}
