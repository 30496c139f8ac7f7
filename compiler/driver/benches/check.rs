//! Benchmarks of `fut check`'s work: loading and checking the prelude alone, and the
//! prelude together with a generated 1,000-line program. The ratio of the two shows
//! what a program of that size adds to the fixed cost of a process.

use criterion::{Criterion, criterion_group, criterion_main};
use driver::db::Database;
use driver::system::MemorySystem;
use std::path::Path;
use std::sync::Arc;

mod common;
use common::generated_program;

fn check_program(src: Option<&str>) -> bool {
    let system = MemorySystem::new();
    let path = Path::new("/bench/prog.fut");
    system.insert(path, src.unwrap_or("def main = 0i32\n").as_bytes().to_vec());
    let db = Database::new(Arc::new(system));
    let program = driver::load_program(&db, path).expect("the program is in memory");
    program.is_ok()
}

fn bench(c: &mut Criterion) {
    let program = generated_program(100);
    assert!(program.lines().count() >= 1000);
    assert!(
        check_program(Some(&program)),
        "the generated program must check"
    );
    let mut group = c.benchmark_group("check");
    group.bench_function("prelude_only", |b| b.iter(|| check_program(None)));
    group.bench_function("prelude_and_1000_lines", |b| {
        b.iter(|| check_program(Some(&program)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
