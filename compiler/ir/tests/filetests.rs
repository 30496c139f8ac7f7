//! File tests: every `tests/files/*.ir` file starts with a header that names
//! what to do with it, and the output is compared with an insta snapshot in
//! `tests/files/snapshots/` (`INSTA_UPDATE=always` rewrites them).
//!
//! Headers (comment lines at the top of the file):
//! - `-- test: roundtrip`: parse, verify (must pass), print; printing the
//!   parse of the printed text must give the same text. The snapshot is the
//!   printed program.
//! - `-- test: verify-error`: parse, verify (must fail); the snapshot lists
//!   the errors.
//! - `-- test: parse-error`: parsing must fail; the snapshot is the error.
//! - `-- test: run`: as `roundtrip`, then run the function named by
//!   `-- entry: NAME` (default `main`) on the values of `-- input: …`; when
//!   `-- output: …` is given the results must equal it. The snapshot holds
//!   the results and the operation counters.
//! - `-- test: run-error`: as `run`, but the run must fail; the snapshot is
//!   the error with its span.

use ir::{interp, parse, print, verify};
use irtest::{Header, verified};

fn roundtrip(name: &str, src: &str) -> (ir::Program, String) {
    let prog = parse::parse_program(src).unwrap_or_else(|e| panic!("{name}: {e}"));
    let text = print::print_program(&prog);
    let again =
        parse::parse_program(&text).unwrap_or_else(|e| panic!("{name}: reparse: {e}\n{text}"));
    assert_eq!(
        print::print_program(&again),
        text,
        "{name}: print-parse-print differs"
    );
    // Compared through `Debug`, since a NaN constant is not `==` itself.
    assert!(
        format!("{again:?}") == format!("{prog:?}"),
        "{name}: parse of the printed program differs from the original"
    );
    (prog, text)
}

fn run_file(name: &str, src: &str) -> String {
    let h = Header::parse(src);
    let test = h.value("test").unwrap_or_default();
    match test {
        "roundtrip" => {
            let (prog, text) = roundtrip(name, src);
            verified(name, &prog);
            text
        }
        "verify-error" => {
            let (prog, _) = roundtrip(name, src);
            match verify::verify(&prog) {
                Ok(()) => panic!("{name}: verification passed"),
                Err(es) => es.iter().map(|e| format!("{e}\n")).collect(),
            }
        }
        "parse-error" => match parse::parse_program(src) {
            Ok(_) => panic!("{name}: parsed"),
            Err(e) => format!("{e}\n"),
        },
        "run" | "run-error" => {
            let (prog, _) = roundtrip(name, src);
            verified(name, &prog);
            let input = h.joined("input").unwrap_or_default();
            let args = irtest::read_values(name, "input", &input);
            let entry = h.value("entry").unwrap_or("main");
            let result = interp::run_function(&prog, entry, args);
            match (test, result) {
                ("run", Ok(out)) => {
                    let got: Vec<String> = out.values.iter().map(|v| v.to_string()).collect();
                    if let Some(expected) = h.joined("output") {
                        let exp = irtest::read_values(name, "output", &expected);
                        assert_eq!(out.values, exp, "{name}: wrong results");
                    }
                    format!("{}\n{}\n", got.join("\n"), out.counters)
                }
                ("run-error", Err(e)) => format!("{e}\n"),
                (_, Ok(out)) => panic!("{name}: expected an error, got {:?}", out.values),
                (_, Err(e)) => panic!("{name}: {e}"),
            }
        }
        other => panic!("{name}: unknown test kind `{other}`"),
    }
}

#[test]
fn file_tests() {
    for t in irtest::files(env!("CARGO_MANIFEST_DIR"), 10) {
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
