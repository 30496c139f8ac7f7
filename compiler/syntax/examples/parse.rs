//! `cargo run -p syntax --example parse -- FILE...`: parses files and prints the
//! diagnostics (and, with `-v`, the tree; with `-p`, the pretty-printed source).
fn main() {
    let mut verbose = false;
    let mut print = false;
    let mut explicit = false;
    for a in std::env::args().skip(1) {
        if a == "-v" {
            verbose = true;
            continue;
        }
        if a == "-e" {
            explicit = true;
            continue;
        }
        if a == "-p" {
            print = true;
            continue;
        }
        let src = std::fs::read_to_string(&a).expect("read");
        let t = std::time::Instant::now();
        let (f, diags) = syntax::parse_file(syntax::FileId(0), &src);
        let el = t.elapsed();
        if verbose {
            println!("{f:#?}");
        }
        if explicit {
            println!("{}", syntax::pretty_explicit(&f));
        }
        if print {
            println!("{}", syntax::pretty(&f));
        }
        let sources = vec![(a.clone(), src.clone())];
        print!("{}", syntax::diag::render(&diags, &sources, false));
        eprintln!("{a}: {} diagnostics, {:?}", diags.len(), el);
    }
}
