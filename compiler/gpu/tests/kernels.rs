//! Snapshots of emitted kernels in both dialects, and which loops become
//! kernels: core IR programs lowered to the imperative IR, their kernels
//! extracted.

use gpu::extract::{Extracted, extract};
use gpu::kernel_c::Target;

fn lowered(src: &str) -> imp::Program {
    let prog = ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{e}"));
    ir::verify::verify(&prog).unwrap_or_else(|e| panic!("{e:?}"));
    imp::lower_program(&prog).unwrap_or_else(|e| panic!("{e}"))
}

/// The kernels of `src` for `target`, and the loops left on the host.
fn kernels(src: &str, target: Target) -> String {
    let mut imp = lowered(src);
    let ex = extract(&mut imp, target, true);
    let mut out = String::new();
    for k in &ex.kernels {
        out.push_str(&k.source);
        for a in &k.asserts {
            out.push_str(&format!("// assert {:?} {:?}\n", a.msg, a.args));
        }
    }
    for (f, _, why) in &ex.host_loops {
        out.push_str(&format!("// host loop in {f}: {why}\n"));
    }
    out
}

const MAP: &str = r#"fun main(n: i64, xs: [n]f64, a: f64) -> ([n]f64) {
  let ys: [n]f64 = screma(n, xs)
    map(\(x: f64) -> (f64) {
      let y: f64 = mul(x, a)
      let z: f64 = add(y, 1.0f64)
      in (z)
    })
  in (ys)
}
entry "main" = main("[]f64": 2, "f64": 1) -> ("[]f64": 1)
"#;

const INDEXED: &str = r#"fun main(n: i64, m: i64, xs: [n]i32, is: [m]i64) -> ([m]i32) {
  let ys: [m]i32 = screma(m, is)
    map(\(i: i64) -> (i32) {
      let x: i32 = xs[i]
      let y: i32 = div(x, 3i32)
      in (y)
    })
  in (ys)
}
entry "main" = main("[]i32": 2, "[]i64": 2) -> ("[]i32": 1)
"#;

const SUM: &str = r#"fun main(n: i64, xs: [n]f32) -> (f32) {
  let s: f32 = screma(n, xs)
    reduce(\(a: f32, b: f32) -> (f32) {
      let c: f32 = add(a, b)
      in (c)
    }, 0.0f32)
    map(\(x: f32) -> (f32) {
      let y: f32 = mul(x, x)
      in (y)
    })
  in (s)
}
entry "main" = main("[]f32": 2) -> ("f32": 1)
"#;

#[test]
fn map_kernels_in_both_dialects() {
    for (name, src) in [("map", MAP), ("indexed", INDEXED), ("sum", SUM)] {
        for (dialect, t) in [("opencl", Target::OpenCl), ("cuda", Target::Cuda)] {
            insta::assert_snapshot!(format!("{name}_{dialect}"), kernels(src, t));
        }
    }
}

#[test]
fn a_map_becomes_one_kernel_launched_by_the_host() {
    let mut imp = lowered(MAP);
    let ex = extract(&mut imp, Target::OpenCl, true);
    assert_eq!(ex.kernels.len(), 1);
    assert!(ex.host_loops.is_empty(), "{:?}", ex.host_loops);
    let text = imp::print::print_program(&imp);
    assert!(text.contains("par kernel k0 "), "{text}");
}

#[test]
fn an_index_check_and_a_division_report_through_the_failure_buffer() {
    let k = kernels(INDEXED, Target::OpenCl);
    // The bounds check of `xs[i]` and the division's zero check (a
    // constant divisor needs none) each record their failure.
    assert!(k.contains("futk_cas32(fut_fail, 0, 1)"), "{k}");
    assert!(k.contains("out of bounds"), "{k}");
    let unsafe_k = {
        let mut imp = lowered(INDEXED);
        let ex = extract(&mut imp, Target::OpenCl, false);
        ex.kernels[0].source.clone()
    };
    assert!(!unsafe_k.contains("fut_fail[1]"), "{unsafe_k}");
}

#[test]
fn the_backends_hooks_name_their_runtimes() {
    let locate = |_: ir::Span| String::new();
    let mut imp = lowered(MAP);
    let (items, source) = (gpu::OPENCL.extract)(&mut imp, true, &locate).unwrap();
    assert!(
        items.contains("pub static KERNELS: fut_runtime_opencl::KernelProgram"),
        "{items}"
    );
    assert!(
        items.contains("binaries: &[], thresholds: &[] }"),
        "{items}"
    );
    assert!(source.contains("__kernel void k0("), "{source}");
    let mut imp = lowered(MAP);
    let (items, source) = (gpu::CUDA.extract)(&mut imp, true, &locate).unwrap();
    assert!(
        items.contains("pub static KERNELS: fut_runtime_cuda::KernelProgram"),
        "{items}"
    );
    assert!(
        items.contains("fut_runtime_cuda::KernelInfo { name: \"k0\""),
        "{items}"
    );
    assert!(
        items.contains("binaries: KERNEL_BINARIES, thresholds: &[] }"),
        "{items}"
    );
    assert!(!items.contains("fut_runtime_opencl"), "{items}");
    assert!(source.contains("k0("), "{source}");
    assert!(gpu::CUDA.imports.contains("fut_runtime_cuda::launch"));
    // A program without kernels has nothing to compile.
    let mut imp = lowered(
        "fun main(x: i64) -> (i64) {\n  let y: i64 = add(x, 1i64)\n  in (y)\n}\nentry \"main\" = main(\"i64\": 1) -> (\"i64\": 1)\n",
    );
    let (_, source) = (gpu::CUDA.extract)(&mut imp, true, &locate).unwrap();
    assert!(source.is_empty(), "{source}");
}

/// A map whose function runs a scalar loop of `trips` iterations over a body
/// of `len` multiply-adds.
fn scalar_loop(trips: i64, len: usize) -> String {
    let mut body = String::new();
    let mut last = "a".to_string();
    for j in 0..len {
        body.push_str(&format!(
            "        let t{j}: f64 = mul({last}, x)\n        let u{j}: f64 = add(t{j}, 1.0f64)\n"
        ));
        last = format!("u{j}");
    }
    format!(
        r#"fun main(n: i64, xs: [n]f64) -> ([n]f64) {{
  let ys: [n]f64 = screma(n, xs)
    map(\(x: f64) -> (f64) {{
      let (r: f64) = loop (a: f64 = x) for i: i64 < {trips}i64 {{
{body}        in ({last})
      }}
      in (r)
    }})
  in (ys)
}}
entry "main" = main("[]f64": 2) -> ("[]f64": 1)
"#
    )
}

#[test]
fn long_loops_of_a_constant_trip_count_stay_rolled() {
    // 3 trips of 2 statements: NVRTC may unroll it.
    let short = kernels(&scalar_loop(3, 1), Target::Cuda);
    assert!(short.contains("for ("), "{short}");
    assert!(!short.contains("#pragma unroll"), "{short}");
    // 3 trips of 40 statements: unrolled, they would be 120 statements in a
    // line, so the loop is kept rolled.
    let long = kernels(&scalar_loop(3, 20), Target::Cuda);
    assert!(long.contains("#pragma unroll 1\n"), "{long}");
    let pragma = long.find("#pragma unroll 1").unwrap();
    assert!(
        long[pragma..]
            .lines()
            .nth(1)
            .unwrap()
            .trim_start()
            .starts_with("for (")
    );
    // A run-time trip count is left to NVRTC, whatever the body.
    let unknown = kernels(&scalar_loop(3, 20).replace("< 3i64", "< n"), Target::OpenCl);
    assert!(
        unknown.contains("for (") && !unknown.contains("#pragma unroll"),
        "{unknown}"
    );
}

/// `src` lowered for a device: reductions' partial results combined by
/// group loops.
fn lowered_for_device(src: &str) -> imp::Program {
    let prog = ir::parse::parse_program(src).unwrap_or_else(|e| panic!("{e}"));
    ir::verify::verify(&prog).unwrap_or_else(|e| panic!("{e:?}"));
    imp::lower::lower_program_with(&prog, imp::lower::Options { device: true })
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Both dialects, with the names their snapshots take.
const DIALECTS: [(&str, Target); 2] = [("opencl", Target::OpenCl), ("cuda", Target::Cuda)];

/// The work-group size of each kernel of `ex` (0: the runtime's choice).
fn group_sizes(ex: &Extracted) -> Vec<u32> {
    ex.kernels.iter().map(|k| k.group).collect()
}

#[test]
fn a_reduction_round_is_a_group_kernel_with_local_memory_and_barriers() {
    for (dialect, t) in DIALECTS {
        let mut imp = lowered_for_device(SUM);
        let ex = extract(&mut imp, t, true);
        assert_eq!(group_sizes(&ex), [0, 256], "{:?}", ex.host_loops);
        insta::assert_snapshot!(format!("sum_round_{dialect}"), ex.kernels[1].source);
        let text = imp::print::print_program(&imp);
        assert!(text.contains("par kernel k1 groups of 256"), "{text}");
    }
}

/// Prefix sums of `i32`s, with their count.
const PREFIX_SUMS: &str = r#"fun main(n: i64, xs: [n]i32) -> ([n]i32) {
  let ps: [n]i32 = screma(n, xs)
    scan(\(a: i32, b: i32) -> (i32) {
      let c: i32 = add(a, b)
      in (c)
    }, 0i32)
    map(\(x: i32) -> (i32) {
      in (x)
    })
  in (ps)
}
entry "main" = main("[]i32": 2) -> ("[]i32": 1)
"#;

#[test]
fn a_scan_scans_its_chunks_totals_in_group_kernels() {
    for (dialect, t) in DIALECTS {
        let mut imp = lowered_for_device(PREFIX_SUMS);
        let ex = extract(&mut imp, t, true);
        // The chunks, the groups' scans, the scan of the groups' totals,
        // the chunks' prefixes, the carries.
        assert_eq!(group_sizes(&ex), [0, 256, 256, 0, 0], "{:?}", ex.host_loops);
        insta::assert_snapshot!(format!("scan_groups_{dialect}"), ex.kernels[1].source);
    }
}

/// A reduction by integer division: its operator can fail.
const QUOTIENTS: &str = r#"fun main(n: i64, xs: [n]i32) -> (i32) {
  let s: i32 = screma(n, xs)
    reduce(\(a: i32, b: i32) -> (i32) {
      let c: i32 = div(a, b)
      in (c)
    }, 1i32)
    map(\(x: i32) -> (i32) {
      in (x)
    })
  in (s)
}
entry "main" = main("[]i32": 2) -> ("i32": 1)
"#;

/// Whether the braces of C text `src` balance.
fn balanced(src: &str) -> bool {
    let mut depth = 0i64;
    for c in src.chars() {
        depth += match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

#[test]
fn a_group_loop_with_checks_is_a_kernel_whose_threads_leave_together() {
    for (dialect, target) in DIALECTS {
        let mut imp = lowered_for_device(QUOTIENTS);
        let ex = extract(&mut imp, target, true);
        assert!(ex.host_loops.is_empty(), "{:?}", ex.host_loops);
        let groups: Vec<_> = ex.kernels.iter().filter(|k| k.group > 0).collect();
        assert!(!groups.is_empty(), "{:?}", group_sizes(&ex));
        for k in &groups {
            // The division's check follows the group protocol: no thread
            // returns early, each barrier is counted and followed by the
            // group's decision.
            assert!(!k.source.contains("return"), "{}", k.source);
            assert!(
                k.source.contains("fut_gfail[0] = fut_epoch;"),
                "{}",
                k.source
            );
            assert_eq!(
                k.source.matches("barrier(").count(),
                k.source.matches("fut_epoch++").count() + 1,
                "{}",
                k.source
            );
            assert!(balanced(&k.source), "{}", k.source);
            assert!(!k.asserts.is_empty());
        }
        insta::assert_snapshot!(format!("checked_group_{dialect}"), groups[0].source);
    }
}

/// Quotients of each row of a matrix (a checked operator).
const ROW_QUOTIENTS: &str = r#"fun main(n: i64, m: i64, xss: [n][m]i32) -> ([n]i32) {
  let qs: [n]i32 = screma(n, xss)
    map(\(row: [m]i32) -> (i32) {
      let q: i32 = screma(m, row)
        reduce(\(a: i32, b: i32) -> (i32) {
          let c: i32 = div(a, b)
          in (c)
        }, 1i32)
        map(\(x: i32) -> (i32) {
          in (x)
        })
      in (q)
    })
  in (qs)
}
entry "main" = main("[][]i32": 3) -> ("[]i32": 1)
"#;

#[test]
fn a_segmented_reduction_with_checks_keeps_both_versions_as_kernels() {
    let mut imp = lowered_for_device(ROW_QUOTIENTS);
    // As lowered: a group loop for long rows, one thread per row otherwise.
    let before = imp::print::print_program(&imp);
    assert!(
        before.contains("if (le(tuned(row_group_threshold, 128), m))"),
        "{before}"
    );
    assert!(before.contains("groups of 256"), "{before}");
    // The operator divides: the group loop's kernel follows the group
    // failure protocol, and both versions stay, chosen at run time.
    let ex = extract(&mut imp, Target::OpenCl, true);
    assert!(ex.host_loops.is_empty(), "{:?}", ex.host_loops);
    assert_eq!(group_sizes(&ex), [256, 0]);
    assert!(ex.kernels[0].source.contains("fut_stop"));
    let text = imp::print::print_program(&imp);
    assert!(
        text.contains("if (le(tuned(row_group_threshold_0, 128), m))"),
        "{text}"
    );
    assert_eq!(ex.thresholds, [("row_group_threshold_0".to_string(), 128)]);
}

/// A batch of matrices transposed, as a map of transpositions.
const TRANSPOSE_EACH: &str = r#"fun main(b: i64, n: i64, m: i64, xsss: [b][n][m]f32) -> ([b][m][n]f32) {
  let t: [b][m][n]f32 = screma(b, xsss)
    map(\(xss: [n][m]f32) -> ([m][n]f32) {
      let tr: [m][n]f32 = rearrange((1, 0), xss)
      let c: [m][n]f32 = copy(tr)
      in (c)
    })
  in (t)
}
entry "main" = main("[][][]f32": 4) -> ("[][][]f32": 1)
"#;

#[test]
fn transpositions_are_tiled_group_kernels_without_checks() {
    for (dialect, target) in DIALECTS {
        let mut imp = lowered(TRANSPOSE_EACH);
        let ex = extract(&mut imp, target, true);
        assert!(ex.host_loops.is_empty(), "{:?}", ex.host_loops);
        // The tiles' group kernel, and one thread per element for narrow
        // matrices.
        assert_eq!(group_sizes(&ex), [256, 0]);
        let tiles = &ex.kernels[0];
        // Its divisors are never zero: no checks, no failure protocol.
        assert!(tiles.asserts.is_empty());
        assert!(!tiles.source.contains("fut_gfail"), "{}", tiles.source);
        insta::assert_snapshot!(format!("transpose_{dialect}"), tiles.source);
    }
}
