//! Benchmarks of `fut check`'s work: loading and checking the prelude alone, and the
//! prelude together with a generated 1,000-line program. The ratio of the two shows
//! what a program of that size adds to the fixed cost of a process.

use criterion::{Criterion, criterion_group, criterion_main};
use driver::db::Database;
use driver::system::MemorySystem;
use std::path::Path;
use std::sync::Arc;

/// A program of about `blocks * 10` lines exercising the common constructs: size
/// parameters, lambdas, SOACs, loops, records, modules and calls between definitions.
fn generated_program(blocks: usize) -> String {
    let mut s = String::new();
    for i in 0..blocks {
        let call = if i == 0 {
            "0".to_string()
        } else {
            format!("f{} xs k", i - 1)
        };
        s.push_str(&format!(
            "-- | Block {i}.\n\
             def f{i} [n] (xs: [n]f64) (k: i64) : f64 =\n\
             \x20 let ys = map (\\x -> x * {i}.0 + f64.i64 k) xs\n\
             \x20 let t = loop acc = reduce (+) 0 ys for j < k do acc * 0.5 + f64.i64 j\n\
             \x20 let r = {{a = t, b = f64.sum ys}}\n\
             \x20 in if r.a > r.b then r.a else r.b + {call}\n\
             type rec{i} = {{x: i32, y: f32}}\n\
             module M{i} = {{ def g (p: rec{i}) : i32 = p.x + {i} + i32.f32 p.y }}\n\
             entry e{i} (xs: []f64) : f64 = f{i} xs 3\n\n"
        ));
    }
    s
}

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
