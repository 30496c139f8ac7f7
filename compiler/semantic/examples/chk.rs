//! Checks one file with the workspace prelude and prints its diagnostics, entry points
//! and how long checking took: `cargo run -p semantic --example chk FILE.fut`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: chk FILE.fut");
        std::process::exit(2);
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prelude");
    let t = std::time::Instant::now();
    let (env, loader) = semantic::testing::load_prelude(&root);
    eprintln!("prelude parsed and checked in {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let (out, sources) = semantic::testing::check_user_file(
        std::path::Path::new(&path),
        env.as_deref(),
        &loader.sources,
    );
    eprintln!("file parsed and checked in {:?}", t.elapsed());
    print!(
        "{}",
        syntax::diag::render(&out.diagnostics, &sources, false)
    );
    if let Some(c) = out.checked {
        println!("{:?}", c.entry_points);
    }
}
