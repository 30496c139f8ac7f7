//! Benchmarks of the interpreter on benchmark-style programs (`benches/programs/`):
//! a matrix product, n-body steps, a stencil, k-means and Mandelbrot. Each program
//! is checked and loaded once; the measured work is one call of its entry point.

use std::path::Path;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use driver::db::Database;
use driver::system::MemorySystem;
use interp::Interpreter;
use syntax::FileId;

/// The programs with the arguments of their `main`.
const PROGRAMS: [(&str, &str, &[&str]); 5] = [
    ("matmul", include_str!("programs/matmul.fut"), &["120i64"]),
    (
        "nbody",
        include_str!("programs/nbody.fut"),
        &["100i64", "3i32"],
    ),
    (
        "stencil",
        include_str!("programs/stencil.fut"),
        &["60i64", "20i32"],
    ),
    (
        "kmeans",
        include_str!("programs/kmeans.fut"),
        &["500i64", "5i64", "5i32"],
    ),
    (
        "mandelbrot",
        include_str!("programs/mandelbrot.fut"),
        &["40i64", "100i32"],
    ),
];

/// Checks and loads a program; returns the interpreter and the root file's id.
fn load(src: &str) -> (Interpreter, FileId) {
    let system = MemorySystem::new();
    let path = Path::new("/bench/prog.fut");
    system.insert(path, src.as_bytes().to_vec());
    let db = Database::new(Arc::new(system));
    let program = driver::load_program(&db, path).expect("the program is in memory");
    assert!(program.is_ok(), "the benchmark program must check");
    let interp = driver::run::instantiate(&db, &program).expect("the program loads");
    (interp, program.root.id(&db))
}

fn args(texts: &[&str]) -> Vec<values::Value> {
    texts
        .iter()
        .map(|t| values::parse_value(t).expect("a valid argument"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("interp");
    group.sample_size(10);
    for (name, src, argv) in PROGRAMS {
        let (mut interp, root) = load(src);
        let argv = args(argv);
        group.bench_function(name, |b| {
            b.iter(|| {
                interp
                    .call_entry(root, "main", argv.clone())
                    .expect("the program runs")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
