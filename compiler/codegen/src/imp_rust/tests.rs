//! The emitted Rust of small programs: its structure (the run-time
//! behaviour is tested end to end by `compiler/cli/tests/imp_emitter.rs`).

use crate::{Emitter, Options, program_module};

const SRC: &str = "fun main(n: i64, xs: [n]f64, m: i64, ys: [m][n]f64) -> (f64, [n]f64, [n][m]f64) {
  let s: f64 = screma(n, xs)
    reduce(\\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      in (y)
    })
  let i: f64 = xs[3i64]
  let zs: [n]f64 = copy(xs)
  let ws: [n]f64 = zs with [0i64] = i
  let t: [n][m]f64 = rearrange((1, 0), ys)
  let u: [n][m]f64 = copy(t)
  in (s, ws, u)
}
entry \"main\" = main(\"i64\": 1, \"[]f64\": 1, \"i64\": 1, \"[][]f64\": 1) -> (\"f64\": 1, \"[]f64\": 1, \"[][]f64\": 1)
";

fn module() -> String {
    let prog = ir::parse::parse_program(SRC).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        emitter: Emitter::Imp,
        standalone: true,
        ..Options::default()
    };
    program_module(&prog, &opts, &|_| "p.fut:1:1-1:2".into()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn functions_adapters_and_glue() {
    let m = module();
    // The imperative function and the entry's adapter with the core
    // emitter's name, called by the shared glue.
    assert!(m.contains("pub fn g0("), "{m}");
    assert!(m.contains("pub fn f0(p0: i64, p1: Arr<f64>"), "{m}");
    assert!(m.contains("arr_mem(p1, false)"), "{m}");
    assert!(m.contains("mem_arr(t_."), "{m}");
    assert!(m.contains("pub fn entry_0("), "{m}");
    assert!(m.contains("pub const BATCH"), "{m}");
    assert!(m.contains("pub static PROGRAM"), "{m}");
    // The reduction's chunks run as a parallel loop named for the
    // profiler, reading the argument through a borrowed handle.
    assert!(m.contains("par_for(\"segred p.fut:1:1-1:2\""), "{m}");
    assert!(m.contains(".handle();"), "{m}");
    // The index is checked by an assertion with its message.
    assert!(
        m.contains("assert_failed(\"Index [{}] out of bounds"),
        "{m}"
    );
    // The transposed array is copied by one strided copy.
    assert!(m.contains("copy_view("), "{m}");
}

#[test]
fn unsafe_code_leaves_out_bounds_checks_only() {
    let prog = ir::parse::parse_program(SRC).unwrap_or_else(|e| panic!("{e}"));
    let opts = Options {
        emitter: Emitter::Imp,
        safe: false,
        ..Options::default()
    };
    let m = program_module(&prog, &opts, &|_| String::new()).unwrap_or_else(|e| panic!("{e}"));
    assert!(!m.contains("out of bounds"), "{m}");
    // The sizes of the copy are still checked.
    assert!(m.contains("copy_view("), "{m}");
}

#[test]
fn programs_are_compiled_with_the_imp_emitter_unless_core_is_named() {
    assert_eq!(Emitter::parse(""), Ok(Emitter::Imp));
    assert_eq!(Emitter::parse("imp"), Ok(Emitter::Imp));
    assert_eq!(Emitter::parse("core"), Ok(Emitter::Core));
    assert!(Emitter::parse("fast").is_err());
    // The options' default stays the core emitter, which its unit tests use.
    assert_eq!(Options::default().emitter, Emitter::Core);
}
