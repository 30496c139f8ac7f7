//! Benchmarks of compiling to the core IR: checking the generated 1,000-line
//! program of `check.rs` (with the prelude), against checking it, internalising it
//! and running the standard optimisation pipeline, in the same run. The difference
//! is the cost of internalisation and optimisation. The verifier is off, as in
//! `FUT_VALIDATE=0`: it is a testing aid, not part of compilation.

use criterion::{Criterion, criterion_group, criterion_main};
use driver::db::Database;
use driver::system::MemorySystem;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

mod common;
use common::generated_program;

/// Checks `src` in a fresh database; with `passes`, also internalises it and runs
/// them. Returns the number of IR functions (0 when only checking).
fn compile(src: &str, passes: Option<&[ir::Pass]>) -> usize {
    let system = MemorySystem::new();
    let path = Path::new("/bench/prog.fut");
    system.insert(path, src.as_bytes().to_vec());
    let db = Database::new(Arc::new(system));
    let program = driver::load_program(&db, path).expect("the program is in memory");
    assert!(program.is_ok(), "the generated program must check");
    match passes {
        None => 0,
        Some(passes) => driver::irrun::compile_with(&db, &program, passes, false)
            .expect("the generated program must internalise")
            .functions
            .len(),
    }
}

fn bench(c: &mut Criterion) {
    let program = generated_program(100);
    assert!(program.lines().count() >= 1000);
    let standard = driver::pipelines::standard();
    assert!(compile(&program, Some(&standard)) > 0);
    let mut group = c.benchmark_group("ir");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("check_1000_lines", |b| b.iter(|| compile(&program, None)));
    group.bench_function("check_internalise_1000_lines", |b| {
        b.iter(|| compile(&program, Some(&[])))
    });
    group.bench_function("check_internalise_optimise_1000_lines", |b| {
        b.iter(|| compile(&program, Some(&standard)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
