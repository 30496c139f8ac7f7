fn main() {
    let path = std::env::args().nth(1).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../prelude");
    let (env, loader) = semantic::testing::load_prelude(&root);
    let t = std::time::Instant::now();
    let (out, sources) = semantic::testing::check_user_file(
        std::path::Path::new(&path),
        env.as_deref(),
        &loader.sources,
    );
    eprintln!("checked in {:?}", t.elapsed());
    print!(
        "{}",
        syntax::diag::render(&out.diagnostics, &sources, false)
    );
    if let Some(c) = out.checked {
        println!("{:?}", c.entry_points);
    }
}
