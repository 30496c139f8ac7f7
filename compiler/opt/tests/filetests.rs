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

use ir::{interp, parse, print, verify};
use irtest::Header;

fn run_file(name: &str, src: &str) -> String {
    let h = Header::parse(src);
    let names: Vec<&str> = h
        .value("passes")
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert!(!names.is_empty(), "{name}: no `-- passes:` header");
    let passes: Vec<_> = names
        .iter()
        .map(|p| opt::pipelines::pass_by_name(p).unwrap_or_else(|| panic!("{name}: no pass {p}")))
        .collect();
    let prog = irtest::parse(name, src);
    if let Err(es) = verify::verify(&prog) {
        panic!("{name}: input does not verify: {es:?}");
    }
    let out = irtest::run_passes(name, &passes, prog.clone());
    let mut text = print::print_program(&out);
    let reparsed = parse::parse_program(&text).unwrap_or_else(|e| panic!("{name}: reparse: {e}"));
    assert_eq!(print::print_program(&reparsed), text, "{name}: round trip");
    if let Some(expected) = h.value("structure") {
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
    let input = h.joined("input").unwrap_or_default();
    if !input.trim().is_empty() {
        let args = irtest::read_values(name, "input", &input);
        let entry = h.value("entry").unwrap_or("main");
        let before = interp::run_function(&prog, entry, args.clone())
            .unwrap_or_else(|e| panic!("{name}: before: {e}"));
        let after = interp::run_function(&out, entry, args)
            .unwrap_or_else(|e| panic!("{name}: after: {e}"));
        assert_eq!(before.values, after.values, "{name}: results differ");
        let (b, a) = (before.counters, after.counters);
        assert!(
            a.scalar_ops <= b.scalar_ops && a.reads <= b.reads && a.writes <= b.writes,
            "{name}: counts grew from {b} to {a}"
        );
        if let Some(c) = h.value("counters") {
            assert_eq!(a.to_string(), c, "{name}: counts after the passes");
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
    for t in irtest::files(env!("CARGO_MANIFEST_DIR"), 1) {
        let out = run_file(&t.name, &t.src);
        insta::with_settings!({
            snapshot_path => "files/snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
            description => t.path.file_name().unwrap().to_string_lossy().to_string(),
        }, {
            insta::assert_snapshot!(t.name, out);
        });
    }
}
