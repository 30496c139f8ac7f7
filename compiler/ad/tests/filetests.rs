//! File tests of the AD pass (forward and reverse mode): every `tests/files/*.ir` file
//! starts with comment lines naming what to do.
//!
//! Headers (comment lines at the top of the file):
//! - `-- passes: NAME NAME …` (required): the passes to run, by the names
//!   of [`opt::pipelines::pass_by_name`] or [`ad::all_passes`]. The input
//!   must verify, and so must the output of every pass; no `jvp` or `vjp`
//!   node may be left.
//! - `-- entry: NAME` (optional, default `main`): the function run.
//! - `-- input: VALUES` and `-- output: VALUES` (may repeat, in pairs):
//!   after the passes, the IR interpreter's results for the input must
//!   equal the output (floats within the default test tolerance).

use std::path::Path;

use ir::pass::{PipelineConfig, run_pipeline};
use ir::{interp, parse, verify};
use values::{Tolerance, compare_several, read_values};

fn run_file(name: &str, src: &str) {
    let mut passes = Vec::new();
    let mut entry = "main".to_string();
    let mut cases: Vec<(String, String)> = Vec::new();
    for line in src.lines() {
        let Some(rest) = line.strip_prefix("-- ") else {
            break;
        };
        if let Some(p) = rest.strip_prefix("passes:") {
            for n in p.split_whitespace() {
                let pass = opt::pipelines::pass_by_name(n)
                    .or_else(|| ad::all_passes().into_iter().find(|p| p.name == n))
                    .unwrap_or_else(|| panic!("{name}: no pass {n}"));
                passes.push(pass);
            }
        } else if let Some(e) = rest.strip_prefix("entry:") {
            entry = e.trim().to_string();
        } else if let Some(i) = rest.strip_prefix("input:") {
            cases.push((i.to_string(), String::new()));
        } else if let Some(o) = rest.strip_prefix("output:") {
            let last = cases
                .last_mut()
                .unwrap_or_else(|| panic!("{name}: output first"));
            last.1 = o.to_string();
        }
    }
    assert!(!passes.is_empty(), "{name}: no `-- passes:` header");
    assert!(!cases.is_empty(), "{name}: no `-- input:` header");
    let prog = parse::parse_program(src).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Err(es) = verify::verify(&prog) {
        panic!("{name}: input does not verify: {es:?}");
    }
    let out = run_pipeline(&passes, prog, PipelineConfig { validate: true })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let counts = opt::structure::count_constructs(&out);
    assert_eq!(counts.get("Jvp"), None, "{name}: a jvp node is left");
    assert_eq!(counts.get("Vjp"), None, "{name}: a vjp node is left");
    for (input, output) in cases {
        let args = read_values(input.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected = read_values(output.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got =
            interp::run_function(&out, &entry, args).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Err(m) = compare_several(&got.values, &expected, Tolerance::DEFAULT) {
            panic!("{name}: input {input}: {m}");
        }
    }
}

#[test]
fn file_tests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/files");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/files exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "missing file tests");
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        run_file(&name, &src);
    }
}
