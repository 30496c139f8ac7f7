//! The hand-written objectives against the NumPy reference outputs that
//! `python3 tools/adbench/adbench.py prepare` writes into `bench-suite/adbench/data/`,
//! and their messages on malformed inputs.

use std::path::{Path, PathBuf};

use adbench_reference::Instance;
use values::{Tolerance, Value, compare_several};

/// Every prepared case: its problem and its file name stem.
const CASES: [(&str, &str); 11] = [
    ("gmm", "gmm_test"),
    ("gmm", "gmm_small"),
    ("gmm", "gmm_1k_d2_K10"),
    ("lstm", "lstm_small"),
    ("lstm", "lstm_l2_c1024"),
    ("ba", "ba_test"),
    ("ba", "ba1"),
    ("hand", "hand_test"),
    ("hand", "hand_complicated"),
    ("hand", "hand1_simple_small"),
    ("hand", "hand1_complicated_small"),
];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

#[test]
fn objectives_match_the_numpy_reference() {
    let dir = data_dir();
    if !dir.is_dir() {
        eprintln!(
            "{} is missing: run `python3 tools/adbench/adbench.py prepare` to check the \
             objectives against the NumPy reference",
            dir.display()
        );
        return;
    }
    let mut checked = 0;
    for (problem, stem) in CASES {
        let input = dir.join(format!("{stem}.in"));
        let expected = dir.join(format!("{stem}.objective.out"));
        if !input.is_file() || !expected.is_file() {
            continue;
        }
        let bytes = std::fs::read(&input).unwrap();
        let instance = Instance::from_bytes(problem, &bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", input.display()));
        let want = values::read_values(&std::fs::read(&expected).unwrap()).unwrap();
        let got = instance.objective_values();
        if let Err(e) = compare_several(&got, &want, Tolerance(1e-9)) {
            panic!("{stem}: {e}");
        }
        checked += 1;
    }
    assert!(checked > 0, "no prepared case found in {}", dir.display());
}

#[test]
fn a_changed_input_changes_the_objective() {
    let input = data_dir().join("gmm_small.in");
    let expected = data_dir().join("gmm_small.objective.out");
    if !input.is_file() || !expected.is_file() {
        return;
    }
    let mut args = values::read_values(&std::fs::read(&input).unwrap()).unwrap();
    // A different Wishart parameter m changes the prior.
    args[5] = Value::scalar(1i64);
    let instance = Instance::from_values("gmm", &args).unwrap();
    let want = values::read_values(&std::fs::read(&expected).unwrap()).unwrap();
    assert!(compare_several(&instance.objective_values(), &want, Tolerance(1e-9)).is_err());
}

/// A tiny LSTM: one layer, b = 1, two characters, all parameters zero. Every gate is
/// σ(0) = ½ and the change is tanh(0) = 0, so the output is the output bias 0 and the
/// loss is −(1 · (0 − log 3)) = log 3.
#[test]
fn lstm_with_zero_parameters_loses_log_3() {
    let args = vec![
        Value::array(vec![2, 4], vec![0.0f64; 8]).unwrap(),
        Value::array(vec![3, 1], vec![0.0f64; 3]).unwrap(),
        Value::array(vec![2, 1], vec![0.0f64; 2]).unwrap(),
        Value::array(vec![2, 1], vec![1.0f64, 1.0]).unwrap(),
    ];
    let Instance::Lstm(lstm) = Instance::from_values("lstm", &args).unwrap() else {
        panic!("not an LSTM instance");
    };
    assert!((lstm.objective() - 3f64.ln()).abs() < 1e-15);
}

#[test]
fn bad_inputs_are_reported() {
    let ba = |obs: Vec<i32>| {
        vec![
            Value::array(vec![1, 11], vec![0.0f64; 11]).unwrap(),
            Value::array(vec![1, 3], vec![0.0f64; 3]).unwrap(),
            Value::vector(vec![1.0f64]),
            Value::array(vec![1, 2], obs).unwrap(),
            Value::array(vec![1, 2], vec![0.0f64; 2]).unwrap(),
        ]
    };
    assert!(Instance::from_values("ba", &ba(vec![0, 0])).is_ok());
    let err = Instance::from_values("ba", &ba(vec![0, 3])).err().unwrap();
    assert_eq!(err, "argument `obs`: element 1 is 3, outside 0..1");
    let err = Instance::from_values("ba", &ba(vec![0, 0])[..4])
        .err()
        .unwrap();
    assert!(err.starts_with("expected 5 arguments"), "{err}");
    let err = Instance::from_values("gmm", &ba(vec![0, 0])).err().unwrap();
    assert!(err.starts_with("expected 6 arguments"), "{err}");
    let err = Instance::from_values("nope", &[]).err().unwrap();
    assert!(err.starts_with("unknown problem `nope`"), "{err}");
    let err = Instance::from_bytes("lstm", b"not values").err().unwrap();
    assert!(!err.is_empty());
}
