//! Runs the checker over the test corpus (`tests/**/*.fut` at the workspace root):
//! programs without a compile-time `error:` block must check cleanly, and programs
//! with one must be rejected with a diagnostic of that code.

use semantic::testing::{check_user_file, load_prelude};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fut_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            fut_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "fut") {
            out.push(p);
        }
    }
}

/// The compile-time error code a test program expects, if any; `None` inside the
/// outer option means the file is not a test.
fn expectation(text: &str) -> Option<Option<String>> {
    let mut is_test = false;
    let mut after_header = false;
    let mut code = None;
    for line in text.lines() {
        let l = line.trim();
        if l == "-- ==" {
            is_test = true;
            after_header = true;
            continue;
        }
        if let Some(rest) = l.strip_prefix("-- error:") {
            if after_header {
                code = Some(rest.trim().to_string());
            }
            continue;
        }
        if l.starts_with("-- input")
            || l.starts_with("-- output")
            || l.starts_with("-- compiled")
            || l.starts_with("-- script")
        {
            after_header = false;
        }
    }
    is_test.then_some(code)
}

#[test]
fn prelude_checks_cleanly() {
    let (env, loader) = load_prelude(&root().join("prelude"));
    let rendered = syntax::diag::render(&loader.diagnostics, &loader.sources, false);
    assert!(env.is_some(), "prelude not found");
    assert!(
        loader.diagnostics.iter().all(|d| !d.is_error()),
        "prelude has errors:\n{rendered}"
    );
}

#[test]
fn corpus_programs_check_as_expected() {
    // As `fut` does, on a thread with a large stack: the corpus holds programs
    // nested up to the nesting limit (tests/regress/hostile_if_chain_1000.fut).
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(check_corpus)
        .expect("the checking thread starts")
        .join()
        .expect("the corpus checks");
}

fn check_corpus() {
    let (env, loader) = load_prelude(&root().join("prelude"));
    let mut files = Vec::new();
    fut_files(&root().join("tests"), &mut files);
    let mut failures = Vec::new();
    let mut count = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let Some(expect) = expectation(&text) else {
            continue;
        };
        count += 1;
        let (out, sources) = check_user_file(f, env.as_deref(), &loader.sources);
        let errors: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        let rendered = syntax::diag::render(&errors, &sources, false);
        match expect {
            None if !errors.is_empty() => {
                failures.push(format!(
                    "{}: expected to check, got:\n{rendered}",
                    f.display()
                ));
            }
            // Syntax and import errors belong to the parser and the driver.
            Some(code) if code.starts_with('P') || code.starts_with('I') => {}
            // Matched like the test runner does: a regular expression against the
            // rendered errors (whose headers carry the codes).
            Some(code)
                if errors.is_empty()
                    || !regex::Regex::new(&code)
                        .map(|r| r.is_match(&rendered))
                        .unwrap_or(false) =>
            {
                failures.push(format!(
                    "{}: expected error {code}, got:\n{rendered}",
                    f.display()
                ));
            }
            _ => {}
        }
    }
    assert!(count > 0, "no test programs found");
    assert!(
        failures.is_empty(),
        "{} of {count} programs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
