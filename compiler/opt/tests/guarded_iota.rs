//! The guarded-iota rule of the simplifier
//! (`opt::simplify::guarded_iota`) on generated programs: every comparison,
//! both ways round, with the summand in either branch, at the extreme bounds (no overflow in the computed range, results
//! equal to the interpreter's before the rewrite), and the neutral elements
//! it accepts and refuses, operator by operator and type by type.

use ir::{interp, print};

/// Runs `simplify` on `src` (which must verify before and after) and
/// returns the result.
fn simplified(name: &str, src: &str) -> ir::Program {
    let prog = irtest::parse(name, src);
    irtest::verified(name, &prog);
    irtest::run_passes(name, &[opt::simplify::PASS], prog)
}

/// How many `if`s the program has.
fn ifs(prog: &ir::Program) -> usize {
    opt::structure::count_constructs(prog)
        .get("If")
        .copied()
        .unwrap_or(0)
}

/// A sum over `iota n` of `i + 1` (as `i64`) for the `i` with `guard`, the
/// comparison `CMP(a, b)` with `a`, `b` among `i` and `x`; `then_first`
/// says whether the summand is the then branch.
fn guarded_sum(cmp: &str, a: &str, b: &str, then_first: bool) -> String {
    let (t, e) = if then_first {
        ("let v: i64 = add(i, 1i64)\n        in (v)", "in (0i64)")
    } else {
        ("in (0i64)", "let v: i64 = add(i, 1i64)\n        in (v)")
    };
    format!(
        "fun main(n: i64, x: i64) -> (i64) {{
  let is: [n]i64 = iota(n, 0i64, 1i64)
  let s: i64 = screma(n, is)
    reduce(\\(p: i64, q: i64) -> (i64) {{
      let r: i64 = add(p, q)
      in (r)
    }}, 0i64)
    map(\\(i: i64) -> (i64) {{
      let g: bool = {cmp}({a}, {b})
      let y: i64 = if g then {{
        {t}
      }} else {{
        {e}
      }}
      in (y)
    }})
  in (s)
}}
"
    )
}

/// A comparison's name in the IR and what it computes.
type Comparison = (&'static str, fn(i64, i64) -> bool);

#[test]
fn every_form_keeps_its_results_at_the_extreme_bounds() {
    let cmps: [Comparison; 4] = [
        ("lt", |a, b| a < b),
        ("le", |a, b| a <= b),
        ("gt", |a, b| a > b),
        ("ge", |a, b| a >= b),
    ];
    for (cmp, holds) in cmps {
        for i_first in [true, false] {
            for then_first in [true, false] {
                let (a, b) = if i_first { ("i", "x") } else { ("x", "i") };
                let name = format!("{cmp}({a}, {b}), summand in the then branch: {then_first}");
                let src = guarded_sum(cmp, a, b, then_first);
                let before = irtest::parse(&name, &src);
                let after = simplified(&name, &src);
                assert_eq!(
                    ifs(&after),
                    0,
                    "{name}: not rewritten:\n{}",
                    print::print_program(&after)
                );
                for n in [0i64, 1, 5] {
                    for x in [i64::MIN, -1, 0, 1, n - 1, n, n + 1, i64::MAX] {
                        let cond = |i: i64| if i_first { holds(i, x) } else { holds(x, i) };
                        let want: i64 = (0..n)
                            .filter(|&i| cond(i) == then_first)
                            .map(|i| i + 1)
                            .sum();
                        let args = irtest::read_values(&name, "input", &format!("{n}i64 {x}i64"));
                        let b = interp::run_function(&before, "main", args.clone()).unwrap();
                        let r = interp::run_function(&after, "main", args).unwrap();
                        assert_eq!(b.values, r.values, "{name}: n = {n}, x = {x}");
                        assert_eq!(
                            r.values[0].to_string(),
                            format!("{want}i64"),
                            "{name}: n = {n}, x = {x}"
                        );
                    }
                }
            }
        }
    }
}

/// A reduction with the operator `op` on `t` and the neutral `ne`, over
/// `iota n` guarded by `i < x`, the dropped branch yielding `dropped`.
fn reduction(t: &str, op: &str, ne: &str, dropped: &str) -> String {
    format!(
        "fun main(n: i64, x: i64, xs: [n]{t}) -> ({t}) {{
  let is: [n]i64 = iota(n, 0i64, 1i64)
  let s: {t} = screma(n, is)
    reduce(\\(p: {t}, q: {t}) -> ({t}) {{
      let r: {t} = {op}(p, q)
      in (r)
    }}, {ne})
    map(\\(i: i64) -> ({t}) {{
      let g: bool = lt(i, x)
      let y: {t} = if g then {{
        let v: {t} = xs[i]
        in (v)
      }} else {{
        in ({dropped})
      }}
      in (y)
    }})
  in (s)
}}
"
    )
}

#[test]
fn only_true_neutral_elements_are_dropped() {
    // (type, operator, neutral): each neutral for its operator.
    let neutral = [
        ("i64", "add", "0i64"),
        ("i32", "mul", "1i32"),
        ("i8", "min", "127i8"),
        ("i16", "max", "-32768i16"),
        ("u8", "min", "255u8"),
        ("u32", "max", "0u32"),
        ("u16", "and", "65535u16"),
        ("i64", "and", "-1i64"),
        ("i32", "or", "0i32"),
        ("u64", "xor", "0u64"),
        ("f64", "add", "0.0f64"),
        ("f32", "add", "-0.0f32"),
        ("f64", "mul", "1.0f64"),
        ("f32", "min", "f32.inf"),
        ("f64", "max", "-f64.inf"),
        ("bool", "and", "true"),
        ("bool", "or", "false"),
        ("bool", "xor", "false"),
    ];
    for (t, op, ne) in neutral {
        let name = format!("{op} on {t} with {ne}");
        let out = simplified(&name, &reduction(t, op, ne, ne));
        assert_eq!(
            ifs(&out),
            0,
            "{name}: not rewritten:\n{}",
            print::print_program(&out)
        );
    }
    // Not neutral for the operator, or the dropped branch is not the
    // reduction's neutral (bit for bit: 0.0 is not -0.0).
    let kept = [
        ("i64", "add", "1i64", "1i64"),
        ("i32", "mul", "0i32", "0i32"),
        ("i8", "min", "0i8", "0i8"),
        ("u8", "max", "255u8", "255u8"),
        ("i64", "and", "0i64", "0i64"),
        ("f64", "max", "f64.inf", "f64.inf"),
        ("f64", "sub", "0.0f64", "0.0f64"),
        ("f64", "add", "-0.0f64", "0.0f64"),
        ("f64", "add", "0.0f64", "-0.0f64"),
        ("bool", "and", "false", "false"),
        ("i64", "add", "0i64", "x"),
    ];
    for (t, op, ne, dropped) in kept {
        let name = format!("{op} on {t} with {ne}, dropping {dropped}");
        let out = simplified(&name, &reduction(t, op, ne, dropped));
        assert_eq!(
            ifs(&out),
            1,
            "{name}: rewritten:\n{}",
            print::print_program(&out)
        );
    }
    // `\_ b -> b` (the last element) has no neutral: dropping the last
    // iterations would change its result.
    let last = reduction("i64", "add", "0i64", "0i64")
        .replace("let r: i64 = add(p, q)\n      in (r)", "in (q)");
    assert!(last.contains("in (q)"));
    let out = simplified("last", &last);
    assert_eq!(
        ifs(&out),
        1,
        "last: rewritten:\n{}",
        print::print_program(&out)
    );
}
