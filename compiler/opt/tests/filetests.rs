//! File tests of the optimisation passes: every `tests/files/*.ir` file
//! starts with comment lines naming what to do, and the output is compared
//! with an insta snapshot in `tests/files/snapshots/`
//! (`INSTA_UPDATE=always` rewrites them).
//!
//! Headers (comment lines at the top of the file):
//! - `-- passes: NAME NAME …` (required): the passes to run, by the names of
//!   [`opt::pipelines::pass_by_name`]. The input must verify, and so must the
//!   output of every pass. The snapshot is the printed result.
//! - `-- input: VALUES` (optional, may repeat): arguments for the function
//!   named by `-- entry: NAME` (default `main`). The IR interpreter runs it
//!   before and after the passes; the results must be equal and no
//!   operation count may grow. Both counts are appended to the snapshot.
//! - `-- counters: scalar_ops: A, reads: B, writes: C` (optional): the
//!   counts after the passes must be exactly these.
//! - `-- structure: NAME N, NAME N` (optional): after the passes, the
//!   program has exactly `N` of each named construct (see
//!   [`opt::structure::count_constructs`]; an absent name counts 0).

use std::path::Path;

use ir::pass::{PipelineConfig, run_pipeline};
use ir::{interp, parse, print, verify};

#[derive(Default)]
struct Header {
    passes: Vec<String>,
    entry: String,
    input: String,
    counters: Option<String>,
    structure: Option<String>,
}

fn header(src: &str) -> Header {
    let mut h = Header {
        entry: "main".into(),
        ..Header::default()
    };
    for line in src.lines() {
        let Some(rest) = line.strip_prefix("-- ") else {
            break;
        };
        if let Some(p) = rest.strip_prefix("passes:") {
            h.passes = p.split_whitespace().map(str::to_string).collect();
        } else if let Some(e) = rest.strip_prefix("entry:") {
            h.entry = e.trim().to_string();
        } else if let Some(i) = rest.strip_prefix("input:") {
            h.input.push_str(i);
            h.input.push('\n');
        } else if let Some(c) = rest.strip_prefix("counters:") {
            h.counters = Some(c.trim().to_string());
        } else if let Some(s) = rest.strip_prefix("structure:") {
            h.structure = Some(s.trim().to_string());
        }
    }
    h
}

fn run_file(name: &str, src: &str) -> String {
    let h = header(src);
    assert!(!h.passes.is_empty(), "{name}: no `-- passes:` header");
    let passes: Vec<_> = h
        .passes
        .iter()
        .map(|p| opt::pipelines::pass_by_name(p).unwrap_or_else(|| panic!("{name}: no pass {p}")))
        .collect();
    let prog = parse::parse_program(src).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Err(es) = verify::verify(&prog) {
        panic!("{name}: input does not verify: {es:?}");
    }
    let out = run_pipeline(&passes, prog.clone(), PipelineConfig { validate: true })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut text = print::print_program(&out);
    let reparsed = parse::parse_program(&text).unwrap_or_else(|e| panic!("{name}: reparse: {e}"));
    assert_eq!(print::print_program(&reparsed), text, "{name}: round trip");
    if let Some(expected) = &h.structure {
        let counts = opt::structure::count_constructs(&out);
        for item in expected.split(',') {
            let mut parts = item.split_whitespace();
            let (Some(k), Some(n)) = (parts.next(), parts.next()) else {
                panic!("{name}: bad structure item `{item}`");
            };
            let n: usize = n
                .parse()
                .unwrap_or_else(|_| panic!("{name}: bad count `{n}`"));
            let got = counts.get(k).copied().unwrap_or(0);
            assert_eq!(got, n, "{name}: number of {k} after the passes");
        }
    }
    if !h.input.trim().is_empty() {
        let args = values::read_values(h.input.as_bytes())
            .unwrap_or_else(|e| panic!("{name}: bad input: {e}"));
        let before = interp::run_function(&prog, &h.entry, args.clone())
            .unwrap_or_else(|e| panic!("{name}: before: {e}"));
        let after = interp::run_function(&out, &h.entry, args)
            .unwrap_or_else(|e| panic!("{name}: after: {e}"));
        assert_eq!(before.values, after.values, "{name}: results differ");
        let (b, a) = (before.counters, after.counters);
        assert!(
            a.scalar_ops <= b.scalar_ops && a.reads <= b.reads && a.writes <= b.writes,
            "{name}: counts grew from {b} to {a}"
        );
        if let Some(c) = &h.counters {
            assert_eq!(&a.to_string(), c, "{name}: counts after the passes");
        }
        let got: Vec<String> = after.values.iter().map(|v| v.to_string()).collect();
        text.push_str(&format!(
            "\n-- results: {}\n-- before: {b}\n-- after:  {a}\n",
            got.join(" ")
        ));
    }
    text
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
    assert!(!files.is_empty(), "no file tests");
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let out = run_file(&name, &src);
        insta::with_settings!({
            snapshot_path => "files/snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
            description => path.file_name().unwrap().to_string_lossy().to_string(),
        }, {
            insta::assert_snapshot!(name, out);
        });
    }
}
