//! Tests of the generator: determinism, and the shrinker's guarantees.

use super::*;

#[test]
fn same_seed_same_program() {
    let cfg = Config::default();
    for seed in 0..50 {
        assert_eq!(generate(seed, &cfg), generate(seed, &cfg));
    }
    assert_ne!(
        generate(1, &cfg).render(),
        generate(2, &cfg).render(),
        "different seeds should give different programs"
    );
}

#[test]
fn every_input_per_parameter() {
    let cfg = Config::default();
    for seed in 0..200 {
        let p = generate(seed, &cfg);
        assert_eq!(
            p.head.matches(": ").count() - 1,
            p.inputs.len(),
            "{}",
            p.render()
        );
    }
}

#[test]
fn shrink_candidates_are_smaller_and_keep_types() {
    let cfg = Config::default();
    for seed in 0..30 {
        let p = generate(seed, &cfg);
        let cands = p.shrink();
        for c in &cands {
            assert!(c.size() <= p.size(), "seed {seed}: a candidate grew");
            assert!(c.size() < p.size() || c.helpers.len() < p.helpers.len());
            assert_eq!(c.body.ty, p.body.ty);
        }
    }
}

#[test]
fn shrinking_an_expression_to_a_zero() {
    let t = Ty::Prim(Prim::I32);
    let e = Builder::new(t.clone())
        .p(Expr::var("a", t.clone()))
        .t(" + ")
        .p(Expr::lit("-3i32".into(), t.clone()))
        .done();
    assert_eq!(e.render(), "a + (-3i32)");
    let cands: Vec<String> = e.shrink().iter().map(|c| c.render()).collect();
    assert_eq!(cands[0], "0i32");
    assert!(cands.contains(&"a".to_string()));
    assert!(cands.contains(&"-3i32".to_string()));
}

#[test]
fn a_bound_variable_does_not_escape() {
    let t = Ty::Prim(Prim::I32);
    let e = Builder::new(t.clone())
        .t("let x = ")
        .e(Expr::lit("1i32".into(), t.clone()))
        .t(" in ")
        .under(&["x".into()], Expr::var("x", t.clone()))
        .done();
    let cands: Vec<String> = e.shrink().iter().map(|c| c.render()).collect();
    assert!(!cands.contains(&"x".to_string()), "{cands:?}");
    assert!(cands.contains(&"1i32".to_string()));
}

/// The condition of a bounded `while` loop is parenthesised (or atomic), so
/// that a `||` in it cannot escape the bound: seeds 1286 and 1345 once gave
/// `while i < n && c || d`, which never ends when `d` holds.
#[test]
fn a_while_condition_cannot_escape_its_bound() {
    let cfg = Config::default();
    let mut loops = 0;
    for seed in (0..1500).chain([1286, 1345]) {
        let src = generate(seed, &cfg).render();
        let mut rest = src.as_str();
        while let Some(at) = rest.find(") while ") {
            rest = &rest[at + 8..];
            let and = rest.find(" && ").expect("a bounded while");
            let cond = &rest[and + 4..];
            let end = cond.find(" do ").expect("a do");
            let atomic = !cond[..end].contains(' ');
            assert!(
                cond.starts_with('(') || atomic,
                "seed {seed}: unparenthesised condition `{}`",
                &cond[..end]
            );
            loops += 1;
        }
    }
    assert!(loops > 50, "only {loops} while loops");
}

/// `concat`, `take`, `drop`, slices and `flatten` are among the forms drawn.
#[test]
fn concat_take_drop_slices_and_flatten_appear() {
    let cfg = Config::default();
    let srcs: Vec<String> = (0..300).map(|s| generate(s, &cfg).render()).collect();
    for form in [
        "take ",
        "(concat ",
        " ++ ",
        "drop ",
        ":] :> [",
        "flatten (map (",
    ] {
        assert!(
            srcs.iter().any(|s| s.contains(form)),
            "no program of 300 has `{form}`"
        );
    }
}

/// The inputs of AD programs lie in `[-2, 2]`, where finite differences of
/// products of them stay accurate.
#[test]
fn ad_inputs_are_small() {
    let cfg = Config::default();
    let mut seen = 0;
    for seed in 0..500 {
        let p = generate(seed, &cfg);
        if !p.must_be_true {
            continue;
        }
        for v in p.inputs.join(" ").split([' ', '[', ']', ',']) {
            let Some(num) = v.strip_suffix("f64") else {
                continue;
            };
            let x: f64 = num.parse().expect("a number");
            assert!(x.abs() <= 2.0, "seed {seed}: input {x}");
            seen += 1;
        }
    }
    assert!(seen > 20, "only {seen} AD inputs");
}

/// Some programs must fail at run time, with each of the three errors.
#[test]
fn programs_that_must_fail_appear() {
    let cfg = Config::default();
    let mut msgs: Vec<String> = (0..600)
        .filter_map(|s| generate(s, &cfg).expect_error)
        .collect();
    msgs.sort();
    msgs.dedup();
    assert_eq!(
        msgs,
        ["Assertion is false", "Division by zero", "out of bounds"],
        "{msgs:?}"
    );
}
