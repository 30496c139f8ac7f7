//! Running a program through the core IR: internalisation, the verifier,
//! the standard optimisation pipeline (verified after every pass), and the
//! IR interpreter. Used by `fut test --backend=ir`, which also checks
//! `structure` blocks against the constructs of the optimised program.

use syntax::diag::{SourceMap, location};

use crate::db::{Database, check};
use crate::program::{Program, import_ids};

/// Internalises and optimises a checked program with the standard pipeline; the
/// error is a message for the user (an unsupported construct with its location, or
/// a verifier report). With `validate`, the verifier checks the internalised
/// program and the output of every pass.
pub fn compile(db: &Database, program: &Program, validate: bool) -> Result<ir::Program, String> {
    compile_with(db, program, &crate::pipelines::standard(), validate)
}

/// The passes a `structure` block's pipeline name denotes: the standard
/// pipeline for no name or `standard`, the standard pipeline up to and
/// including the last occurrence of a pass for a pass name, and `None`
/// for a pipeline we do not have (such as Futhark's `gpu`).
pub fn structure_pipeline(name: Option<&str>) -> Option<Vec<ir::pass::Pass>> {
    let standard = crate::pipelines::standard();
    match name {
        None | Some("standard") => Some(standard),
        Some(n) => {
            let last = standard.iter().rposition(|p| p.name == n)?;
            Some(standard[..=last].to_vec())
        }
    }
}

/// Internalises a checked program and runs `passes` on it; with `validate`, the
/// verifier checks the internalised program and the output of every pass.
pub fn compile_with(
    db: &Database,
    program: &Program,
    passes: &[ir::pass::Pass],
    validate: bool,
) -> Result<ir::Program, String> {
    let sources = db.sources();
    let prelude = db.prelude_root().map(|p| p.id(db));
    let mut checked = Vec::new();
    for &file in &program.files {
        let c = check(db, file);
        let Some(cf) = c.file.clone() else {
            return Err(format!("{} was not checked", file.path(db).display()));
        };
        let is_prelude = crate::prelude::is_prelude_path(file.path(db));
        checked.push((file, cf, is_prelude));
    }
    let inputs: Vec<internalise::InputFile<'_>> = checked
        .iter()
        .map(|(file, cf, is_prelude)| internalise::InputFile {
            id: file.id(db),
            ast: &cf.ast,
            imports: import_ids(db, *file),
            prelude: if *is_prelude { None } else { prelude },
            source: sources.source(file.id(db)).map(|(_, t)| t.into()),
        })
        .collect();
    let root = program.root.id(db);
    let prog =
        internalise::internalise(&inputs, root, program.entry_points()).map_err(|e| {
            match e.span {
                Some(s) => format!("{} (at {})", e.message, location(&sources, s)),
                None => e.message.clone(),
            }
        })?;
    let config = ir::pass::PipelineConfig { validate };
    ir::run_pipeline(passes, prog, config)
        .map_err(|e| format!("internalised program rejected: {e}"))
}

/// Why a program whose `jvp` or `vjp` node the AD pass left unexpanded (a construct
/// it has no rule for yet) cannot run on the IR.
pub const AD_NOT_COMPILED: &str = "this use of automatic differentiation is not yet \
     supported by the compiler's AD pass (`fut dev --print=ad` shows the node it left); \
     use the interpreter (-i)";

/// Runs entry `name` of an IR program on external argument values. A
/// `jvp` or `vjp` node fails with [`AD_NOT_COMPILED`] in its message.
pub fn run_entry(
    prog: &ir::Program,
    name: &str,
    args: Vec<values::Value>,
) -> Result<Vec<values::Value>, interp::RuntimeError> {
    let Some(entry) = prog.entries.iter().find(|e| e.name == name) else {
        return Err(interp::RuntimeError {
            message: format!("entry point {name} not found"),
            span: None,
            backtrace: Vec::new(),
        });
    };
    let out = run_function(prog, entry, internalise::expand_args(args))?;
    Ok(internalise::collect_results(entry, out))
}

/// Runs the function of `entry` on its flat IR arguments (array sizes
/// included) and returns its flat IR results.
pub fn run_function(
    prog: &ir::Program,
    entry: &ir::EntryPoint,
    args: Vec<values::Value>,
) -> Result<Vec<values::Value>, interp::RuntimeError> {
    let fname = prog.functions[entry.fun].name.clone();
    let out = ir::interp::run_function(prog, &fname, args).map_err(|e| interp::RuntimeError {
        message: if e.message.contains("not expanded") {
            let what = e.message.split(':').next().unwrap_or("");
            format!("{what}: {AD_NOT_COMPILED}")
        } else {
            e.message.clone()
        },
        span: if e.span.is_none() {
            None
        } else {
            Some(syntax::Span::new(
                syntax::FileId(e.span.file),
                e.span.start,
                e.span.end,
            ))
        },
        backtrace: Vec::new(),
    })?;
    Ok(out.values)
}
