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
//! - `-- structure: NAME N, NAME N` (optional): after the passes, the
//!   program has exactly `N` of each named construct (see
//!   [`opt::structure::count_constructs`]; an absent name counts 0).

use ir::interp;
use irtest::Header;
use values::{Tolerance, compare_several};

fn run_file(name: &str, src: &str) {
    let h = Header::parse(src);
    let mut passes = Vec::new();
    let mut cases: Vec<(String, String)> = Vec::new();
    for (key, value) in h.entries() {
        match key.as_str() {
            "passes" => {
                for n in value.split_whitespace() {
                    let pass = opt::pipelines::pass_by_name(n)
                        .or_else(|| ad::all_passes().into_iter().find(|p| p.name == n))
                        .unwrap_or_else(|| panic!("{name}: no pass {n}"));
                    passes.push(pass);
                }
            }
            "input" => cases.push((value.clone(), String::new())),
            "output" => {
                let last = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{name}: output first"));
                last.1 = value.clone();
            }
            _ => {}
        }
    }
    let entry = h.value("entry").unwrap_or("main");
    assert!(!passes.is_empty(), "{name}: no `-- passes:` header");
    assert!(!cases.is_empty(), "{name}: no `-- input:` header");
    let prog = irtest::parse(name, src);
    if let Err(es) = ir::verify::verify(&prog) {
        panic!("{name}: input does not verify: {es:?}");
    }
    let out = irtest::run_passes(name, &passes, prog);
    let counts = opt::structure::count_constructs(&out);
    assert_eq!(counts.get("Jvp"), None, "{name}: a jvp node is left");
    assert_eq!(counts.get("Vjp"), None, "{name}: a vjp node is left");
    for item in h.value("structure").unwrap_or_default().split(',') {
        let Some((construct, n)) = item.trim().rsplit_once(' ') else {
            continue;
        };
        let n: usize = n
            .parse()
            .unwrap_or_else(|_| panic!("{name}: bad structure count {n}"));
        let got = counts.get(construct).copied().unwrap_or(0);
        assert_eq!(got, n, "{name}: {construct} occurs {got} times, not {n}");
    }
    for (input, output) in cases {
        let args = irtest::read_values(name, "input", &input);
        let expected = irtest::read_values(name, "output", &output);
        let got = interp::run_function(&out, entry, args).unwrap_or_else(|e| panic!("{name}: {e}"));
        if let Err(m) = compare_several(&got.values, &expected, Tolerance::DEFAULT) {
            panic!("{name}: input {input}: {m}");
        }
    }
}

#[test]
fn file_tests() {
    for t in irtest::files(env!("CARGO_MANIFEST_DIR"), 5) {
        run_file(&t.name, &t.src);
    }
}
