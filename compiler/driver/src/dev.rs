//! `fut dev`: direct access to the compiler's passes, for developers.
//!
//! A pass is named as in [`crate::pipelines::all_passes`]. [`run_passes`] reads a
//! program in the core IR's textual form, runs the named passes in order with the IR
//! verifier after each one (so a broken invariant names the pass that broke it), and
//! prints the result in the same textual form. [`compile_source`] does the same for a
//! checked source program, starting from its internalisation. [`print_pipeline`]
//! gives the passes `--print=PASS` denotes: the standard pipeline up to a pass.

use std::fmt::Write as _;

/// One line per pass: its name and what it does.
pub fn list_passes() -> String {
    let passes = crate::pipelines::all_passes();
    let width = passes.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for p in passes {
        let _ = writeln!(out, "{:width$}  {}", p.name, p.description);
    }
    out
}

/// Parses a comma-separated list of pass names (`simplify,fusion`), reporting the
/// first unknown name together with the known ones.
pub fn parse_pass_list(list: &str) -> Result<Vec<ir::Pass>, String> {
    list.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|name| {
            crate::pipelines::pass_by_name(name).ok_or_else(|| {
                let known: Vec<&str> = crate::pipelines::all_passes()
                    .iter()
                    .map(|p| p.name)
                    .collect();
                format!(
                    "unknown pass `{name}`; the passes are: {}",
                    known.join(", ")
                )
            })
        })
        .collect()
}

/// The name `--print` takes for the program straight after internalisation.
pub const INTERNALISE: &str = "internalise";

/// The name `--print` takes for the imperative IR: the program after the whole
/// standard pipeline, lowered (`codegen::imp`).
pub const IMP: &str = "imp";

/// The names `--print` takes for the GPU backends' kernels: the imperative IR
/// with the loops that became kernels marked (`par kernel kN`), the kernel
/// source in the target's dialect, and the loops left on the host with the
/// reason.
pub const KERNELS: [(&str, gpu::kernel_c::Target); 2] = [
    ("opencl", gpu::kernel_c::Target::OpenCl),
    ("cuda", gpu::kernel_c::Target::Cuda),
];

/// The passes `--print=NAME` runs: the standard pipeline up to and including the
/// last occurrence of the pass `NAME`, or none for [`INTERNALISE`]. An unknown name
/// is reported with the valid ones (`internalise` and the passes of the standard
/// pipeline, in pipeline order).
pub fn print_pipeline(name: &str) -> Result<Vec<ir::Pass>, String> {
    let standard = crate::pipelines::standard();
    if name == INTERNALISE {
        return Ok(Vec::new());
    }
    if name == IMP || KERNELS.iter().any(|(k, _)| *k == name) {
        return Ok(standard);
    }
    if let Some(last) = standard.iter().rposition(|p| p.name == name) {
        return Ok(standard[..=last].to_vec());
    }
    let mut valid = vec![INTERNALISE];
    for p in &standard {
        if !valid.contains(&p.name) {
            valid.push(p.name);
        }
    }
    valid.push(IMP);
    valid.extend(KERNELS.iter().map(|(k, _)| *k));
    Err(format!(
        "`{name}` is not a pass of the standard pipeline; `--print` takes one of: {}",
        valid.join(", ")
    ))
}

/// Internalises a checked source program, runs `passes` on it with the verifier on
/// the internalised program and after every pass, and returns the printed IR. The
/// error is a message for the user: an unsupported construct with its location, or
/// a verifier report naming the pass.
pub fn compile_source(
    db: &crate::Database,
    program: &crate::Program,
    passes: &[ir::Pass],
) -> Result<String, String> {
    let prog = crate::irrun::compile_with(db, program, passes, true)?;
    Ok(ir::print::print_program(&prog))
}

/// Like [`compile_source`], then runs the multicore pipeline's layout pass
/// ([`crate::multicore::layout`]), lowers the program to the imperative IR and
/// returns its text; a construct lowering does not support yet is an error naming
/// it.
pub fn imp_source(
    db: &crate::Database,
    program: &crate::Program,
    passes: &[ir::Pass],
) -> Result<String, String> {
    let prog = crate::irrun::compile_with(db, program, passes, true)?;
    let prog = crate::multicore::layout(prog, true)?;
    lower_to_text(&prog)
}

/// Like [`imp_source`], then extracts the kernels of `target` and returns
/// the marked imperative IR, the kernels' source and the loops left on the
/// host.
pub fn kernel_source(
    db: &crate::Database,
    program: &crate::Program,
    passes: &[ir::Pass],
    target: gpu::kernel_c::Target,
) -> Result<String, String> {
    let prog = crate::irrun::compile_with(db, program, passes, true)?;
    let prog = crate::multicore::layout(prog, true)?;
    let options = codegen::imp::Options { device: true };
    let mut imp = codegen::imp::lower_program_with(&prog, options).map_err(|e| e.to_string())?;
    let ex = gpu::extract::extract(&mut imp, target, true);
    let mut out = codegen::imp::print::print_program(&imp);
    out.push_str(&format!("\n// {} kernels\n", ex.kernels.len()));
    out.push_str(&gpu::kernel_source(&ex, target));
    for (f, span, why) in &ex.host_loops {
        let at = if span.is_none() {
            String::new()
        } else {
            let sources = db.sources();
            format!(
                " at {}",
                syntax::diag::location(
                    &sources,
                    syntax::Span::new(syntax::FileId(span.file), span.start, span.end)
                )
            )
        };
        out.push_str(&format!("// host loop in {f}{at}: {why}\n"));
    }
    Ok(out)
}

/// Like [`run_passes`], then lowers the program to the imperative IR and returns
/// its text.
pub fn imp_passes(file: &str, text: &str, passes: &[ir::Pass]) -> Result<String, String> {
    let prog = ir::parse::parse_program(text).map_err(|e| format!("{file}:{e}"))?;
    let config = ir::pass::PipelineConfig { validate: true };
    let prog = ir::run_pipeline(passes, prog, config).map_err(|e| format!("{file}: {e}"))?;
    lower_to_text(&prog).map_err(|e| format!("{file}: {e}"))
}

fn lower_to_text(prog: &ir::Program) -> Result<String, String> {
    let imp = codegen::imp::lower_program(prog).map_err(|e| e.to_string())?;
    Ok(codegen::imp::print::print_program(&imp))
}

/// Runs `passes` on the IR program `text` (named `file` in messages) with validation
/// after every pass, and returns the printed result.
pub fn run_passes(file: &str, text: &str, passes: &[ir::Pass]) -> Result<String, String> {
    let prog = ir::parse::parse_program(text).map_err(|e| format!("{file}:{e}"))?;
    let config = ir::pass::PipelineConfig { validate: true };
    let prog = ir::run_pipeline(passes, prog, config).map_err(|e| format!("{file}: {e}"))?;
    Ok(ir::print::print_program(&prog))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOT: &str = r"fun main(n: i64, xs: [n]f64) -> (f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      in (y)
    })
  let s: f64 = screma(n, ys)
    reduce(\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\(z: f64) -> (f64) {
      in (z)
    })
  in (s)
}
";

    #[test]
    fn lists_every_pass_by_name() {
        let text = list_passes();
        for p in crate::pipelines::all_passes() {
            assert!(text.contains(p.name), "{text}");
        }
    }

    #[test]
    fn unknown_pass_names_the_known_ones() {
        let err = parse_pass_list("simplify,nosuch").unwrap_err();
        assert!(err.contains("unknown pass `nosuch`"), "{err}");
        assert!(err.contains("fusion"), "{err}");
    }

    #[test]
    fn fusion_turns_map_then_reduce_into_one_screma() {
        let passes = parse_pass_list("fusion").unwrap();
        let out = run_passes("dot.fut_ir", DOT, &passes).unwrap();
        assert_eq!(out.matches("screma(").count(), 1, "{out}");
        let again = ir::parse::parse_program(&out).expect("the output parses back");
        assert!(ir::verify::verify(&again).is_ok());
    }

    fn checked(src: &str) -> (crate::Database, crate::Program) {
        let system = crate::MemorySystem::with_files([("p.fut", src)]);
        let db = crate::Database::new(std::sync::Arc::new(system));
        let program = crate::load_program(&db, std::path::Path::new("p.fut")).unwrap();
        assert!(program.is_ok(), "{:?}", program.diagnostics);
        (db, program)
    }

    #[test]
    fn print_pipeline_stops_at_the_last_occurrence() {
        assert!(print_pipeline(INTERNALISE).unwrap().is_empty());
        let standard = crate::pipelines::standard();
        let last = standard.iter().rposition(|p| p.name == "simplify").unwrap();
        let got = print_pipeline("simplify").unwrap();
        assert_eq!(got.len(), last + 1);
        assert_eq!(got.last().map(|p| p.name), Some("simplify"));
        let inline = print_pipeline("inline").unwrap();
        assert_eq!(inline.last().map(|p| p.name), Some("inline"));
        assert!(inline.len() < got.len());
    }

    #[test]
    fn print_pipeline_lists_the_valid_names() {
        let err = print_pipeline("nosuch").unwrap_err();
        assert!(err.contains("`nosuch`"), "{err}");
        assert!(err.contains("internalise, "), "{err}");
        for p in crate::pipelines::standard() {
            assert!(err.contains(p.name), "{err}");
        }
    }

    #[test]
    fn source_programs_are_internalised_and_optimised() {
        let (db, program) = checked(
            "def sq (x: f64) = x * x
             entry main (xs: []f64) : f64 = reduce (+) 0 (map sq xs)
",
        );
        let raw = compile_source(&db, &program, &[]).unwrap();
        assert!(raw.contains("fun "), "{raw}");
        assert_eq!(raw.matches("screma(").count(), 2, "{raw}");
        let fused = compile_source(&db, &program, &crate::pipelines::standard()).unwrap();
        assert_eq!(fused.matches("screma(").count(), 1, "{fused}");
        let again = ir::parse::parse_program(&fused).expect("the output parses back");
        assert!(ir::verify::verify(&again).is_ok());
    }

    #[test]
    fn imp_prints_the_lowered_program() {
        let (db, program) = checked(
            "entry main (xs: []f64) : []f64 = map (\\x -> x * 2) xs
",
        );
        let passes = print_pipeline(IMP).unwrap();
        assert_eq!(passes.len(), crate::pipelines::standard().len());
        let text = imp_source(&db, &program, &passes).unwrap();
        assert!(text.contains(" = alloc f64["), "{text}");
        assert!(text.contains("par ("), "{text}");
        let err = imp_passes("bad.fut_ir", "fun (", &[]).unwrap_err();
        assert!(err.starts_with("bad.fut_ir:"), "{err}");
    }

    #[test]
    fn parse_errors_name_the_file() {
        let err = run_passes("bad.fut_ir", "fun (", &[]).unwrap_err();
        assert!(err.starts_with("bad.fut_ir:"), "{err}");
    }
}
