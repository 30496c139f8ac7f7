//! A differential check of the inliner and the simplifier on the IR crate's
//! own run tests: for every `compiler/ir/tests/files/*.ir` with
//! `-- test: run`, the program after `inline` and `simplify` verifies,
//! gives the same results, and costs no more by any operation counter.

use std::path::Path;

use ir::pass::{PipelineConfig, run_pipeline};
use ir::{interp, parse};

#[test]
fn passes_keep_meaning_and_cost_of_ir_run_tests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ir/tests/files");
    let mut checked = 0;
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the ir crate's test files")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    paths.sort();
    for path in paths {
        let src = std::fs::read_to_string(&path).unwrap();
        if !src.starts_with("-- test: run\n") {
            continue;
        }
        let input: String = src
            .lines()
            .filter_map(|l| l.strip_prefix("-- input:"))
            .collect::<Vec<_>>()
            .join("\n");
        let name = path.display().to_string();
        let prog = parse::parse_program(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let passes = [opt::inline::PASS, opt::simplify::PASS];
        let out = run_pipeline(&passes, prog.clone(), PipelineConfig { validate: true })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let args = values::read_values(input.as_bytes()).unwrap();
        let before = interp::run_function(&prog, "main", args.clone()).unwrap();
        let after = interp::run_function(&out, "main", args).unwrap();
        assert_eq!(before.values, after.values, "{name}: results differ");
        let (b, a) = (before.counters, after.counters);
        assert!(
            a.scalar_ops <= b.scalar_ops && a.reads <= b.reads && a.writes <= b.writes,
            "{name}: counts grew from {b} to {a}"
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} run tests found");
}
