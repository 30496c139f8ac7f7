//! Tests of the differential runner: generated programs are valid, and a
//! disagreement (injected through the test hook) is shrunk.

use super::*;

fn options(name: &str, count: usize, seed: u64) -> FuzzOptions {
    let dir = std::env::temp_dir().join(format!("fut-fuzz-test-{name}-{}", std::process::id()));
    FuzzOptions {
        count,
        seed,
        backends: vec![Backend::Ir],
        compiled_sample: 0,
        work_dir: dir,
        regress_dir: None,
        jobs: 2,
        progress: false,
        config: fuzzgen::Config::default(),
        shrink_time: Duration::from_secs(60),
        inject: None,
        worker: None,
        time_limit: Duration::from_secs(10),
    }
}

#[test]
fn generated_programs_check_run_and_agree() {
    let opts = options("agree", 40, 1000);
    let report = run(&opts, &mut std::io::sink()).expect("the run");
    let _ = std::fs::remove_dir_all(&opts.work_dir);
    let msgs: Vec<String> = report
        .problems
        .iter()
        .map(|p| format!("{}: {}\n{}", p.kind.name(), p.message, p.reproducer))
        .collect();
    assert!(msgs.is_empty(), "{}", msgs.join("\n\n"));
    assert_eq!(report.backends[0], ("interp", 40, 40));
    assert_eq!(report.backends[1], ("ir", 40, 40));
}

#[test]
fn an_injected_disagreement_is_shrunk() {
    let mut opts = options("shrink", 3, 20);
    // A "backend bug": any program that multiplies disagrees.
    opts.inject = Some(Arc::new(|src: &str| src.contains(" * ")));
    let report = run(&opts, &mut std::io::sink()).expect("the run");
    let _ = std::fs::remove_dir_all(&opts.work_dir);
    let injected: Vec<&Problem> = report
        .problems
        .iter()
        .filter(|p| p.message.contains("injected"))
        .collect();
    assert!(!injected.is_empty(), "no program multiplied: {report:?}");
    for p in injected {
        assert!(p.sizes.1 < p.sizes.0, "not shrunk: {p:?}");
        assert!(
            p.sizes.1 <= 12,
            "shrunk only to {} nodes:\n{}",
            p.sizes.1,
            p.reproducer
        );
        assert!(p.reproducer.contains(" * "), "{}", p.reproducer);
        assert!(
            p.reproducer.contains("-- ==\n-- input {"),
            "{}",
            p.reproducer
        );
    }
}

#[test]
fn a_checker_message_has_its_diagnostic_code() {
    assert_eq!(
        diagnostic_code("[S003] Error: Cannot apply \"zip\""),
        Some("S003")
    );
    assert_eq!(
        diagnostic_code("x\n[T001] Error: Unknown name"),
        Some("T001")
    );
    assert_eq!(
        diagnostic_code("value #0: expected [1i32], got [2i32]"),
        None
    );
    assert_eq!(diagnostic_code("no code here"), None);
}

#[test]
fn a_program_that_must_fail_becomes_an_error_test_and_agrees() {
    let cfg = fuzzgen::Config::default();
    let seed = (0..2000)
        .find(|&s| fuzzgen::generate(s, &cfg).expect_error.is_some())
        .expect("a failing program");
    let opts = options("error", 1, seed);
    let report = run(&opts, &mut std::io::sink()).expect("the run");
    let test = std::fs::read_to_string(opts.work_dir.join("p0.fut")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&opts.work_dir);
    assert!(report.problems.is_empty(), "{report:?}");
    assert_eq!(report.backends[1], ("ir", 1, 1));
    assert!(test.contains("-- error: "), "{test}");
    assert!(!test.contains("-- output"), "{test}");
}

#[test]
fn a_compiled_failure_at_the_time_limit_is_a_timeout() {
    let msgs = vec![format!(
        "case 0: {}",
        crate::multicore::timed_out(Duration::from_secs(1))
    )];
    assert_eq!(classify(&msgs), ProblemKind::TimedOut);
    let other = vec!["case 0: expected 1i32, got 2i32".to_string()];
    assert_eq!(classify(&other), ProblemKind::Disagreement);
}

#[test]
fn a_compiled_call_past_the_time_limit_is_stopped_and_the_next_case_runs() {
    let dir = std::env::temp_dir().join(format!("fut-fuzz-test-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // The first case runs for hours; the second, after it, is quick.
    let long = dir.join("long.fut");
    std::fs::write(
        &long,
        "-- ==\n-- input { 4000000000000i64 } output { 0i64 }\n-- input { 3i64 } output { 3i64 }\n\
         entry main (n: i64) : i64 = loop s = 0i64 for i < n do (s + i) % 1000003\n",
    )
    .expect("write");
    let db = database();
    let opts = TestOptions {
        backend: Backend::Multicore,
        time_limit: Some(Duration::from_secs(2)),
        ..TestOptions::default()
    };
    let out = testrun::outcomes(
        &db,
        std::slice::from_ref(&long),
        &opts,
        &mut std::io::sink(),
    );
    let _ = std::fs::remove_dir_all(&dir);
    let Outcome::Failed(msgs) = &out[0] else {
        panic!("not a failure: {:?}", out[0]);
    };
    assert_eq!(msgs.len(), 1, "{msgs:?}");
    assert!(msgs[0].contains(crate::multicore::TIMED_OUT), "{msgs:?}");
    assert_eq!(classify(msgs), ProblemKind::TimedOut);
}
