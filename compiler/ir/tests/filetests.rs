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

use std::path::Path;

use ir::{interp, parse, print, verify};

struct Header {
    test: String,
    entry: String,
    input: String,
    output: Option<String>,
}

fn header(src: &str) -> Header {
    let mut h = Header {
        test: String::new(),
        entry: "main".into(),
        input: String::new(),
        output: None,
    };
    for line in src.lines() {
        let Some(rest) = line.strip_prefix("-- ") else {
            break;
        };
        if let Some(t) = rest.strip_prefix("test:") {
            h.test = t.trim().to_string();
        } else if let Some(e) = rest.strip_prefix("entry:") {
            h.entry = e.trim().to_string();
        } else if let Some(i) = rest.strip_prefix("input:") {
            h.input.push_str(i);
            h.input.push('\n');
        } else if let Some(o) = rest.strip_prefix("output:") {
            h.output.get_or_insert_with(String::new).push_str(o);
        }
    }
    h
}

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

fn verified(name: &str, prog: &ir::Program) {
    if let Err(es) = verify::verify(prog) {
        let msgs: Vec<String> = es.iter().map(|e| e.to_string()).collect();
        panic!("{name}: verification failed:\n{}", msgs.join("\n"));
    }
}

fn run_file(name: &str, src: &str) -> String {
    let h = header(src);
    match h.test.as_str() {
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
            let args = values::read_values(h.input.as_bytes())
                .unwrap_or_else(|e| panic!("{name}: bad input: {e}"));
            let result = interp::run_function(&prog, &h.entry, args);
            match (h.test.as_str(), result) {
                ("run", Ok(out)) => {
                    let got: Vec<String> = out.values.iter().map(|v| v.to_string()).collect();
                    if let Some(expected) = &h.output {
                        let exp = values::read_values(expected.as_bytes())
                            .unwrap_or_else(|e| panic!("{name}: bad output: {e}"));
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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/files");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/files exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ir"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "too few file tests");
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
