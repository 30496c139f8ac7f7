//! Passes and the pipeline runner.
//!
//! A [`Pass`] is a named function from program to program. [`run_pipeline`]
//! runs a list of passes in order; with validation on it runs
//! [`crate::verify::verify`] on the input and after every pass, and a
//! failure names the pass whose output broke an invariant.

use std::fmt;

use crate::syntax::Program;
use crate::verify::{VerifyError, verify};

/// A program transformation with a name (which `fut dev` accepts) and a
/// one-line description.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    /// The name, e.g. `simplify`.
    pub name: &'static str,
    /// What the pass does, in one line.
    pub description: &'static str,
    /// The transformation.
    pub run: fn(Program) -> Program,
}

/// How to run a pipeline.
#[derive(Clone, Copy, Debug, Default)]
pub struct PipelineConfig {
    /// Verify the input and the output of every pass.
    pub validate: bool,
}

/// The output of a pass (or the pipeline's input, `pass` being `None`)
/// failed verification.
#[derive(Clone, Debug, PartialEq)]
pub struct PassError {
    /// The pass that produced the broken program; `None` for the input.
    pub pass: Option<&'static str>,
    /// The violations.
    pub errors: Vec<VerifyError>,
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pass {
            Some(p) => writeln!(f, "the output of pass `{p}` is not a valid program:")?,
            None => writeln!(f, "the input program is not valid:")?,
        }
        for e in &self.errors {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PassError {}

/// Runs `passes` in order on `prog`.
pub fn run_pipeline(
    passes: &[Pass],
    prog: Program,
    config: PipelineConfig,
) -> Result<Program, PassError> {
    if config.validate {
        verify(&prog).map_err(|errors| PassError { pass: None, errors })?;
    }
    let mut prog = prog;
    for p in passes {
        prog = (p.run)(prog);
        if config.validate {
            verify(&prog).map_err(|errors| PassError {
                pass: Some(p.name),
                errors,
            })?;
        }
    }
    Ok(prog)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_program;

    fn identity(p: Program) -> Program {
        p
    }

    fn break_it(mut p: Program) -> Program {
        for f in p
            .functions
            .values()
            .map(|f| f.name.clone())
            .collect::<Vec<_>>()
        {
            if let Some(id) = p.function_by_name(&f) {
                p.functions[id].body.result.clear();
            }
        }
        p
    }

    #[test]
    fn pipeline_names_the_failing_pass() {
        let prog = parse_program("fun f(x: i32) -> (i32) {\n  in (x)\n}\n").unwrap();
        let passes = [
            Pass {
                name: "identity",
                description: "does nothing",
                run: identity,
            },
            Pass {
                name: "breaker",
                description: "drops results",
                run: break_it,
            },
        ];
        let cfg = PipelineConfig { validate: true };
        let ok = run_pipeline(&passes[..1], prog.clone(), cfg).unwrap();
        assert_eq!(ok, prog);
        let err = run_pipeline(&passes, prog.clone(), cfg).unwrap_err();
        assert_eq!(err.pass, Some("breaker"));
        assert!(err.to_string().contains("pass `breaker`"), "{err}");
        // Without validation the broken program comes through.
        let out = run_pipeline(&passes, prog, PipelineConfig::default()).unwrap();
        assert!(out.functions.values().all(|f| f.body.result.is_empty()));
    }
}
