//! `fut dev`: direct access to the compiler's passes, for developers.
//!
//! A pass is named as in [`crate::pipelines::all_passes`]. `run_passes` reads a program
//! in the core IR's textual form, runs the named passes in order with the IR verifier
//! after each one (so a broken invariant names the pass that broke it), and prints
//! the result in the same textual form.

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

    #[test]
    fn parse_errors_name_the_file() {
        let err = run_passes("bad.fut_ir", "fun (", &[]).unwrap_err();
        assert!(err.starts_with("bad.fut_ir:"), "{err}");
    }
}
