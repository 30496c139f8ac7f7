//! Lowering for a device ([`super::Options::device`]): reductions split
//! into as many chunks as the device keeps busy, their partial results
//! combined on the device in rounds, in order; results through the
//! imperative IR's interpreter, which takes the most chunks allowed.

use values::Value;

use crate::interp::{Chunking, run_function_chunked};
use crate::print::print_program;
use crate::syntax::{Block, ParKind, SExp, Stm};

/// A polynomial hash: `(h1, p1) ⊕ (h2, p2) = (h1·p2 + h2, p1·p2)`,
/// associative and not commutative, so a round that combined its partial
/// results out of order would change the result.
const HASH: &str = r"fun main(n: i64, xs: [n]i64) -> (i64) {
  let (h: i64, p: i64) = screma(n, xs)
    reduce(\(h1: i64, p1: i64, h2: i64, p2: i64) -> (i64, i64) {
      let a: i64 = mul(h1, p2)
      let h3: i64 = add(a, h2)
      let p3: i64 = mul(p1, p2)
      in (h3, p3)
    }, 0i64, 1i64)
    map(\(x: i64) -> (i64, i64) {
      in (x, 31i64)
    })
  in (h)
}
";

fn lower_for_device(src: &str) -> crate::Program {
    let prog = ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{e}"));
    ir::verify::verify(&prog).unwrap_or_else(|e| panic!("{e:?}"));
    let options = super::Options { device: true };
    super::lower_program_with(&prog, options).unwrap_or_else(|e| panic!("{e}"))
}

fn hash(xs: &[i64]) -> i64 {
    xs.iter()
        .fold(0i64, |h, x| h.wrapping_mul(31).wrapping_add(*x))
}

#[test]
fn a_device_reduction_combines_its_chunks_in_rounds_in_order() {
    let p = lower_for_device(HASH);
    let text = print_program(&p);
    assert!(text.contains("at most 16777216"), "{text}");
    assert!(text.contains("while (gt(parts_left, 64i64))"), "{text}");
    // The host's lowering keeps at most 64 chunks and no rounds.
    let host = print_program(&crate::lower_text(HASH));
    assert!(
        host.contains("at most 64") && !host.contains("while"),
        "{host}"
    );
    // Each round is a group loop: a tree in local memory with barriers.
    assert!(text.contains("par groups of 256 ("), "{text}");
    assert!(
        text.contains("local memory {") && text.contains("barrier"),
        "{text}"
    );
    // The interpreter splits n iterations into n chunks: 0 rounds up to
    // 64, one up to 64 groups of 256, two above (65 groups, then 1).
    for n in [
        0usize, 1, 2, 63, 64, 65, 255, 256, 257, 4097, 16_384, 16_385,
    ] {
        let xs: Vec<i64> = (0..n as i64).map(|k| (k * 7919) % 1009 - 500).collect();
        for chunking in [Chunking::Most, Chunking::One] {
            let args = vec![Value::scalar(n as i64), Value::vector(xs.clone())];
            let out =
                run_function_chunked(&p, "main", args, chunking).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(out.values, vec![Value::scalar(hash(&xs))], "n = {n}");
        }
    }
}

const SUM_OF_SQUARES: &str = r"fun main(n: i64, xs: [n]i64) -> (i64) {
  let s: i64 = screma(n, xs)
    reduce(\(a: i64, b: i64) -> (i64) {
      let c: i64 = add(b, a)
      in (c)
    }, 0i64)
    map(\(x: i64) -> (i64) {
      let y: i64 = mul(x, x)
      in (y)
    })
  in (s)
}
";

#[test]
fn a_commutative_device_reduction_strides_its_chunks() {
    let p = lower_for_device(SUM_OF_SQUARES);
    let text = print_program(&p);
    // Chunk c takes iterations c, c + k, c + 2k, …: neighbouring threads
    // read neighbouring elements.
    assert!(text.contains(" * chunks)"), "{text}");
    // A non-commutative operator keeps consecutive iterations per chunk.
    let hash = print_program(&lower_for_device(HASH));
    assert!(!hash.contains(" * chunks)"), "{hash}");
    for n in [0usize, 1, 2, 63, 64, 65, 4097, 10_000] {
        let xs: Vec<i64> = (0..n as i64).map(|k| (k * 7919) % 1009 - 500).collect();
        let want: i64 = xs.iter().map(|x| x * x).sum();
        for chunking in [Chunking::Most, Chunking::One] {
            let args = vec![Value::scalar(n as i64), Value::vector(xs.clone())];
            let out =
                run_function_chunked(&p, "main", args, chunking).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(out.values, vec![Value::scalar(want)], "n = {n}");
        }
    }
}

/// Replaces the group loops of `b` (a block of `fun`) by what `f` makes
/// of them, counting them.
fn rewrite(
    b: &mut Block,
    fun: &mut crate::Function,
    f: &impl Fn(&mut crate::Function, Stm) -> Stm,
    count: &mut usize,
) {
    for s in &mut b.stms {
        if matches!(
            s,
            Stm::ParFor {
                kind: ParKind::Groups { .. },
                ..
            }
        ) {
            let taken = std::mem::replace(s, Stm::Barrier);
            *s = f(fun, taken);
            *count += 1;
            continue;
        }
        for inner in s.blocks_mut() {
            rewrite(inner, fun, f, count);
        }
    }
}

/// `p` with its group loops replaced by what `f` makes of them.
fn map_group_loops(p: &mut crate::Program, f: impl Fn(&mut crate::Function, Stm) -> Stm) -> usize {
    let mut count = 0;
    for fun in &mut p.functions {
        let mut body = std::mem::take(&mut fun.body);
        rewrite(&mut body, fun, &f, &mut count);
        fun.body = body;
    }
    count
}

#[test]
fn the_sequential_equivalent_of_a_group_loop_gives_the_same_results() {
    let mut p = lower_for_device(HASH);
    let n = map_group_loops(&mut p, crate::groups::sequential);
    assert_eq!(n, 1);
    let text = print_program(&p);
    assert!(
        !text.contains("groups of") && !text.contains("barrier"),
        "{text}"
    );
    for n in [0usize, 1, 65, 255, 256, 257, 16_385] {
        let xs: Vec<i64> = (0..n as i64).map(|k| (k * 7919) % 1009 - 500).collect();
        let args = vec![Value::scalar(n as i64), Value::vector(xs.clone())];
        let out = run_function_chunked(&p, "main", args, Chunking::Most)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.values, vec![Value::scalar(hash(&xs))], "n = {n}");
    }
}

/// Sets the bound of every `for` loop with a barrier inside to `bound`.
fn set_barrier_loop_bounds(b: &mut Block, bound: &SExp) {
    for s in &mut b.stms {
        if let Stm::For {
            bound: old, body, ..
        } = s
            && crate::groups::block_has_barrier(body)
        {
            *old = bound.clone();
        }
        for inner in s.blocks_mut() {
            set_barrier_loop_bounds(inner, bound);
        }
    }
}

#[test]
fn threads_diverging_at_a_barrier_are_an_error_of_the_interpreter() {
    let mut p = lower_for_device(HASH);
    // The tree's loop runs as many steps as the thread's number: thread 0
    // would wait at no barrier while the others wait at several.
    map_group_loops(&mut p, |_, mut s| {
        if let Stm::ParFor { ids, body, .. } = &mut s {
            set_barrier_loop_bounds(body, &SExp::Var(ids[1]));
        }
        s
    });
    let xs: Vec<i64> = (0..300).collect();
    let args = vec![Value::scalar(300i64), Value::vector(xs)];
    let e = run_function_chunked(&p, "main", args, Chunking::Most).unwrap_err();
    assert!(
        e.message.contains("differs between the threads of a group"),
        "{e}"
    );
}

/// The prefixes of the polynomial hash of [`HASH`] (not commutative).
const HASH_PREFIXES: &str = r"fun main(n: i64, xs: [n]i64) -> ([n]i64) {
  let (hs: [n]i64, ps: [n]i64) = screma(n, xs)
    scan(\(h1: i64, p1: i64, h2: i64, p2: i64) -> (i64, i64) {
      let a: i64 = mul(h1, p2)
      let h3: i64 = add(a, h2)
      let p3: i64 = mul(p1, p2)
      in (h3, p3)
    }, 0i64, 1i64)
    map(\(x: i64) -> (i64, i64) {
      in (x, 31i64)
    })
  in (hs)
}
";

fn hash_prefixes(xs: &[i64]) -> Vec<i64> {
    xs.iter()
        .scan(0i64, |h, x| {
            *h = h.wrapping_mul(31).wrapping_add(*x);
            Some(*h)
        })
        .collect()
}

#[test]
fn a_device_scan_computes_its_chunks_prefixes_on_the_device_in_order() {
    let p = lower_for_device(HASH_PREFIXES);
    let text = print_program(&p);
    assert!(text.contains("at most 16777216"), "{text}");
    // Groups scan their chunks' totals, one group the groups' totals.
    assert_eq!(text.matches("par groups of 256 (").count(), 2, "{text}");
    assert!(!text.contains("while"), "{text}");
    // The interpreter splits n iterations into n chunks: one group up to
    // 256, one run of totals per thread of the second loop up to 65536
    // chunks, longer runs above.
    for n in [
        0usize, 1, 2, 255, 256, 257, 511, 513, 65_536, 65_537, 70_000,
    ] {
        let xs: Vec<i64> = (0..n as i64).map(|k| (k * 7919) % 1009 - 500).collect();
        for chunking in [Chunking::Most, Chunking::One] {
            let args = vec![Value::scalar(n as i64), Value::vector(xs.clone())];
            let out =
                run_function_chunked(&p, "main", args, chunking).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                out.values,
                vec![Value::vector(hash_prefixes(&xs))],
                "n = {n}"
            );
        }
    }
    // The group loops' sequential equivalents give the same results.
    let mut seq = p.clone();
    assert_eq!(map_group_loops(&mut seq, crate::groups::sequential), 2);
    for n in [0usize, 1, 257, 70_000] {
        let xs: Vec<i64> = (0..n as i64).map(|k| (k * 7919) % 1009 - 500).collect();
        let args = vec![Value::scalar(n as i64), Value::vector(xs.clone())];
        let out = run_function_chunked(&seq, "main", args, Chunking::Most)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            out.values,
            vec![Value::vector(hash_prefixes(&xs))],
            "n = {n}"
        );
    }
}

#[test]
fn a_scan_that_also_reduces_keeps_its_prefixes_on_the_host() {
    let src = r"fun main(n: i64, xs: [n]i64) -> (i64, [n]i64) {
  let (ps: [n]i64, s: i64) = screma(n, xs)
    scan(\(a: i64, b: i64) -> (i64) {
      let c: i64 = add(a, b)
      in (c)
    }, 0i64)
    reduce(\(a2: i64, b2: i64) -> (i64) {
      let c2: i64 = add(a2, b2)
      in (c2)
    }, 0i64)
    map(\(x: i64) -> (i64, i64) {
      let y: i64 = mul(x, x)
      in (x, y)
    })
  in (s, ps)
}
";
    let p = lower_for_device(src);
    let text = print_program(&p);
    assert!(text.contains("at most 4096"), "{text}");
    assert!(!text.contains("groups of"), "{text}");
    for n in [0usize, 1, 300, 5000] {
        let xs: Vec<i64> = (0..n as i64).map(|k| k % 17 - 8).collect();
        let want_s: i64 = xs.iter().map(|x| x * x).sum();
        let want_ps: Vec<i64> = xs
            .iter()
            .scan(0, |a, x| {
                *a += x;
                Some(*a)
            })
            .collect();
        let args = vec![Value::scalar(n as i64), Value::vector(xs.clone())];
        let out = run_function_chunked(&p, "main", args, Chunking::Most)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            out.values,
            vec![Value::scalar(want_s), Value::vector(want_ps)],
            "n = {n}"
        );
    }
}

/// The polynomial hash of [`HASH`] of each row of a matrix.
const ROW_HASHES: &str = r"fun main(n: i64, m: i64, xss: [n][m]i64) -> ([n]i64, [n]i64) {
  let (hs: [n]i64, ps: [n]i64) = screma(n, xss)
    map(\(row: [m]i64) -> (i64, i64) {
      let (h: i64, p: i64) = screma(m, row)
        reduce(\(h1: i64, p1: i64, h2: i64, p2: i64) -> (i64, i64) {
          let a: i64 = mul(h1, p2)
          let h3: i64 = add(a, h2)
          let p3: i64 = mul(p1, p2)
          in (h3, p3)
        }, 0i64, 1i64)
        map(\(x: i64) -> (i64, i64) {
          in (x, 31i64)
        })
      in (h, p)
    })
  in (hs, ps)
}
";

#[test]
fn long_rows_of_a_segmented_reduction_are_reduced_by_groups_in_order() {
    let sum_rows = ROW_HASHES
        .replace("(h1: i64, p1: i64, h2: i64, p2: i64) -> (i64, i64)", "(h1: i64, h2: i64) -> (i64)")
        .replace(
            "let a: i64 = mul(h1, p2)\n          let h3: i64 = add(a, h2)\n          let p3: i64 = mul(p1, p2)\n          in (h3, p3)",
            "let h3: i64 = add(h1, h2)\n          in (h3)",
        )
        .replace("}, 0i64, 1i64)", "}, 0i64)")
        .replace("-> (i64, i64) {\n          in (x, 31i64)", "-> (i64) {\n          in (x)")
        .replace("let (h: i64, p: i64)", "let h: i64")
        .replace("in (h, p)", "in (h)")
        .replace("-> ([n]i64, [n]i64)", "-> ([n]i64)")
        .replace("let (hs: [n]i64, ps: [n]i64)", "let hs: [n]i64")
        .replace("-> (i64, i64) {\n      let h", "-> (i64) {\n      let h")
        .replace("in (hs, ps)", "in (hs)");
    for (src, commutative) in [(ROW_HASHES, false), (sum_rows.as_str(), true)] {
        let p = lower_for_device(src);
        let text = print_program(&p);
        assert!(
            text.contains("if (le(tuned(row_group_threshold, 128), m))"),
            "{text}"
        );
        assert_eq!(text.matches("par groups of 256 (").count(), 1, "{text}");
        // A commutative operator: thread t reduces iterations t, t + 256, …
        assert_eq!(text.contains(" * 256i64)"), commutative, "{text}");
        for (n, m) in [
            (0usize, 200usize),
            (1, 0),
            (3, 1),
            (2, 127),
            (3, 128),
            (2, 129),
            (2, 300),
            (1, 1000),
        ] {
            let xs: Vec<i64> = (0..(n * m) as i64)
                .map(|k| (k * 7919) % 1009 - 500)
                .collect();
            let want: Vec<i64> = xs
                .chunks(m.max(1))
                .take(n)
                .map(|row| {
                    if commutative {
                        row.iter().sum()
                    } else {
                        hash(row)
                    }
                })
                .chain(std::iter::repeat(0))
                .take(n)
                .collect();
            let rows = Value::array(vec![n, m], xs.clone()).expect("a shape");
            let args = vec![Value::scalar(n as i64), Value::scalar(m as i64), rows];
            let out = run_function_chunked(&p, "main", args, Chunking::Most)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(out.values[0], Value::vector(want), "n = {n}, m = {m}");
            if !commutative {
                let powers = vec![31i64.wrapping_pow(m as u32); n];
                assert_eq!(out.values[1], Value::vector(powers), "n = {n}, m = {m}");
            }
        }
    }
}
