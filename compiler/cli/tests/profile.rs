//! End-to-end test of the multicore executables' profiler: `fut multicore`
//! builds a program whose segmented operations are timed, and `-P` lists
//! each of them, named after its kind and source location.

mod support;

use support::{fut, run_with_input, text};

// The scan depends on the reduction's result, so fusion cannot merge them:
// two segmented operations.
const PROG: &str = "\
entry main (xs: []f64) : (f64, []f64) =
  let s = reduce (+) 0 xs
  in (s, scan (+) 0 (map (\\x -> x * s) xs))
";

#[test]
fn dash_p_lists_the_segmented_operations() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("prof.fut"), PROG).expect("write");
    let o = fut(dir.path(), &["multicore", "prof.fut", "-o", "prof"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = run_with_input(
        &dir.path().join("prof"),
        &["-P", "-r", "3"],
        b"[1.0, 2.0, 3.0]",
    );
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(text(&o.stdout), "6.0f64\n[6.0f64, 18.0f64, 36.0f64]\n");
    // One line per segmented operation, each run once per timed run (three),
    // named after its kind and where it is.
    for kind in ["segred", "segscan"] {
        let line = err
            .lines()
            .find(|l| l.starts_with(kind))
            .unwrap_or_else(|| panic!("no {kind} in the profile:\n{err}"));
        assert!(line.contains(".fut:"), "{line}");
        let calls: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(calls.get(2), Some(&"3"), "{line}\n{err}");
    }
    assert!(err.lines().any(|l| l.starts_with("(all)")), "{err}");
}
