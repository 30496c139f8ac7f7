//! Snapshots of the imperative IR that small source programs lower to
//! (`fut dev --print=imp`): allocations, views, parallel loops, in-place
//! updates and loops' buffers as the memory rules of `docs/imperative.md`
//! describe them.

use std::path::Path;
use std::sync::Arc;

use driver::db::Database;
use driver::system::MemorySystem;

fn imp(src: &str) -> String {
    let system = MemorySystem::new();
    let path = Path::new("/imp/prog.fut");
    system.insert(path, src.as_bytes().to_vec());
    let db = Database::new(Arc::new(system));
    let program = driver::load_program(&db, path).expect("the program is in memory");
    assert!(program.is_ok(), "the program must type-check");
    let passes = driver::dev::print_pipeline(driver::dev::IMP).expect("imp is a print target");
    driver::dev::imp_source(&db, &program, &passes).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn map_writes_into_its_result() {
    insta::assert_snapshot!(imp(
        "entry main [n][m] (xss: [n][m]f64) : [n][m]f64 = map (map (\\x -> x * x + 1)) xss\n"
    ));
}

#[test]
fn loop_updates_in_place() {
    insta::assert_snapshot!(imp(
        "entry main [n] (xs: *[n]i64) : [n]i64 =\n  loop xs for i < n do xs with [i] = xs[i] * 2\n"
    ));
}

#[test]
fn transpose_is_a_view() {
    insta::assert_snapshot!(imp(
        "entry main [n][m] (xss: [n][m]f32) : [m]f32 = map f32.sum (transpose xss)\n"
    ));
}

#[test]
fn reductions_and_scans_combine_partial_results() {
    insta::assert_snapshot!(imp(
        "entry main (xs: []i32) : (i32, []i32) = (reduce (+) 0 xs, scan (+) 0 xs)\n"
    ));
}
