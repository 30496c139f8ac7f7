//! Parser tests: snapshot corpora, round trips through the pretty-printer, the
//! project's `.fut` corpus, and a never-panic fuzz test.

use std::path::{Path, PathBuf};
use syntax::{FileId, diag, parse_file, pretty, pretty_explicit};

fn fut_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(fut_files(&p));
        } else if p.extension().is_some_and(|x| x == "fut") {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The Debug rendering of a tree with spans (`0@12..15`) and NodeIds erased.
fn erase(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        // NodeId(123)
        if b[i..].starts_with(b"NodeId(") {
            let mut j = i + 7;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            out.push_str("NodeId(_)");
            i = j + 1;
            continue;
        }
        // digits@digits..digits
        if b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j < b.len() && b[j] == b'@' {
                let mut k = j + 1;
                while k < b.len() && (b[k].is_ascii_digit() || b[k] == b'.') {
                    k += 1;
                }
                out.push('_');
                i = k;
                continue;
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

fn tree_key(f: &syntax::ast::File) -> String {
    erase(&format!("{f:?}"))
}

#[test]
fn parse_ok_snapshots() {
    let files = fut_files(&here("tests/parse_ok"));
    assert!(!files.is_empty());
    for p in files {
        let src = std::fs::read_to_string(&p).unwrap();
        let (f, diags) = parse_file(FileId(0), &src);
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let sources = vec![(name.clone(), src.clone())];
        assert!(
            diags.is_empty(),
            "{name}: {}",
            diag::render(&diags, &sources, false)
        );
        let text = format!(
            "{}\n---- structure ----\n{}",
            pretty(&f),
            pretty_explicit(&f)
        );
        insta::assert_snapshot!(format!("ok_{name}"), text);
    }
}

#[test]
fn parse_err_snapshots() {
    let files = fut_files(&here("tests/parse_err"));
    assert!(!files.is_empty());
    for p in files {
        let src = std::fs::read_to_string(&p).unwrap();
        let (_, diags) = parse_file(FileId(0), &src);
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        assert!(!diags.is_empty(), "{name}: expected errors");
        let sources = vec![(format!("{name}.fut"), src.clone())];
        let text = diag::render(&diags, &sources, false);
        insta::assert_snapshot!(format!("err_{name}"), text);
    }
}

fn check_round_trip(name: &str, src: &str) {
    let (f1, d1) = parse_file(FileId(0), src);
    if !d1.is_empty() {
        return;
    }
    let printed = pretty(&f1);
    let (f2, d2) = parse_file(FileId(0), &printed);
    let sources = vec![(name.to_string(), printed.clone())];
    assert!(
        d2.is_empty(),
        "{name}: printed source does not parse:\n{}\n{printed}",
        diag::render(&d2, &sources, false)
    );
    let (k1, k2) = (tree_key(&f1), tree_key(&f2));
    if k1 != k2 {
        let pos = k1
            .bytes()
            .zip(k2.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(k1.len().min(k2.len()));
        let lo = pos.saturating_sub(300);
        panic!(
            "{name}: round trip changed the tree\n--- original\n{}\n--- reparsed\n{}\n--- printed\n{printed}",
            &k1[lo..(pos + 300).min(k1.len())],
            &k2[lo..(pos + 300).min(k2.len())]
        );
    }
}

#[test]
fn round_trip_parse_ok() {
    for p in fut_files(&here("tests/parse_ok")) {
        let src = std::fs::read_to_string(&p).unwrap();
        check_round_trip(&p.display().to_string(), &src);
    }
}

#[test]
fn round_trip_project_corpus() {
    let mut files = fut_files(&here("../../tests"));
    files.extend(fut_files(&here("../../prelude")));
    // More directories of Futhark programs (colon-separated), for runs by hand.
    if let Ok(extra) = std::env::var("FUT_EXTRA_CORPUS") {
        for d in extra.split(':').filter(|d| !d.is_empty()) {
            files.extend(fut_files(Path::new(d)));
        }
    }
    for p in files {
        let src = std::fs::read_to_string(&p).unwrap();
        check_round_trip(&p.display().to_string(), &src);
    }
}

/// Does the file's test block expect a syntax error (`-- error: P001`/`P002`)?
fn expects_syntax_error(src: &str) -> bool {
    src.lines()
        .any(|l| l.trim_start().starts_with("--") && l.contains("error: P00"))
}

#[test]
fn project_corpus_parses() {
    let mut files = fut_files(&here("../../tests"));
    files.extend(fut_files(&here("../../prelude")));
    let mut failures = Vec::new();
    for p in &files {
        let src = std::fs::read_to_string(p).unwrap();
        let (_, diags) = parse_file(FileId(0), &src);
        let expect = expects_syntax_error(&src);
        if diags.is_empty() == expect {
            let sources = vec![(p.display().to_string(), src.clone())];
            failures.push(if expect {
                format!("{}: expected a syntax error, got none", p.display())
            } else {
                diag::render(&diags, &sources, false)
            });
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A small xorshift generator, so the fuzz test is deterministic without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const FRAGMENTS: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ",", ":", ":>", ".", "..", "...", "..<", "..>", "=", "->", "\\",
    "`", "~", "?", "???", "_", "#[", "'", "'~", "'^", "+", "-", "*", "|>", "<|", "==", "!", "def",
    "entry", "let", "in", "if", "then", "else", "loop", "for", "while", "do", "match", "case",
    "type", "module", "val", "open", "import", "local", "include", "with", "assert", "true", "x",
    "M.x", "M.(", "#c", "1", "1.5", "0x1p3", "'a'", "\"s\"", "--", "-- |", "\n", " ", "xs[",
    "f32.inf", "300u8", "\"\\q\"",
];

#[test]
fn never_panics_on_garbage_and_mutations() {
    // FUT_FUZZ_ROUNDS and FUT_FUZZ_SEED allow longer runs by hand.
    let rounds: usize = std::env::var("FUT_FUZZ_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let seed: u64 = std::env::var("FUT_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9e3779b97f4a7c15);
    let mut rng = Rng(seed | 1);
    // Random byte strings (mostly ASCII, some arbitrary UTF-8).
    for _ in 0..300 {
        let len = rng.below(200);
        let mut s = String::new();
        for _ in 0..len {
            let r = rng.below(100);
            if r < 60 {
                s.push((32 + rng.below(95)) as u8 as char);
            } else if r < 95 {
                s.push_str(FRAGMENTS[rng.below(FRAGMENTS.len())]);
            } else {
                s.push(char::from_u32(rng.below(0x3000) as u32).unwrap_or('é'));
            }
        }
        let _ = parse_file(FileId(0), &s);
    }
    // Token-level mutations of corpus files.
    let mut files = fut_files(&here("tests/parse_ok"));
    files.extend(fut_files(&here("../../tests/syntax")));
    let sources: Vec<String> = files
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    let start = std::time::Instant::now();
    for round in 0..rounds {
        if rounds <= 600 && start.elapsed().as_secs() > 4 {
            break;
        }
        let src = &sources[round % sources.len()];
        let lexed = syntax::lexer::lex(FileId(0), src);
        let mut pieces: Vec<String> = lexed
            .tokens
            .iter()
            .map(|(_, sp)| src[sp.range()].to_string())
            .collect();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(pieces.len() + 1);
            match rng.below(3) {
                0 if i < pieces.len() => {
                    pieces.remove(i);
                }
                1 => pieces.insert(
                    i.min(pieces.len()),
                    FRAGMENTS[rng.below(FRAGMENTS.len())].into(),
                ),
                _ => {
                    if i < pieces.len() {
                        pieces[i] = FRAGMENTS[rng.below(FRAGMENTS.len())].into();
                    }
                }
            }
        }
        let mutated = pieces.join(" ");
        let (f, diags) = parse_file(FileId(0), &mutated);
        // Whatever was recovered can be printed without panicking.
        let _ = pretty(&f);
        let _ = syntax::imports(&f);
        // A mutant that is still valid must round-trip through the printer.
        if diags.is_empty() {
            check_round_trip(&format!("mutant {round}"), &mutated);
        }
    }
}

#[test]
fn imports_are_listed() {
    let src = r#"
import "a"
open import "b"
module m = import "c"
module n = { module o = import "d" local open import "e" }
local import "f"
module p = F (import "g")
"#;
    let (f, d) = parse_file(FileId(0), src);
    assert!(d.is_empty(), "{d:?}");
    let names: Vec<String> = syntax::imports(&f).into_iter().map(|(s, _)| s).collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "f", "g"]);
}

/// The body of the single definition of `src`, which must parse.
fn body_of(src: &str) -> syntax::ast::ExprKind {
    let (f, d) = parse_file(FileId(0), src);
    assert!(d.is_empty(), "{src}: {d:?}");
    match &f.decs[0].kind {
        syntax::ast::DecKind::Val(v) => v.body.kind.clone(),
        k => panic!("{k:?}"),
    }
}

/// The steps of a path as `f` for a field and `[n]` for an index of n dimensions.
fn steps(path: &[syntax::ast::PathStep]) -> String {
    path.iter()
        .map(|s| match s {
            syntax::ast::PathStep::Field(f) => format!(".{}", f.name),
            syntax::ast::PathStep::Index(is, _) => format!("[{}]", is.len()),
        })
        .collect()
}

#[test]
fn update_paths_keep_their_steps() {
    use syntax::ast::ExprKind as K;
    let path = |src: &str| match body_of(src) {
        K::UpdatePath { path, .. } => steps(&path),
        k => panic!("{src}: {k:?}"),
    };
    assert_eq!(path("def x = xs with [0].f = 1"), "[1].f");
    assert_eq!(path("def x = r with f[1] = 2"), ".f[1]");
    assert_eq!(path("def x = r with a.b[i, j].c = v"), ".a.b[2].c");
    assert_eq!(path("def x = xss with [0][1:3] = v"), "[1][1]");
    // After `with`, an index step may be written apart from what precedes it.
    assert_eq!(path("def x = t with 0[1] = 2"), ".0[1]");
    assert_eq!(path("def x = r with f [1] = 2"), ".f[1]");
    // One index step and fields only keep their own forms.
    assert!(matches!(
        body_of("def x = xs with [0, 1] = 1"),
        K::Update { .. }
    ));
    assert!(matches!(
        body_of("def x = r with a.b = 1"),
        K::RecordUpdate { .. }
    ));
    // `let xs[i].f = v` is `let xs = xs with [i].f = v`.
    match body_of("def x = let r.f[0].g = 4 in r") {
        K::Let { value, .. } => match value.kind {
            K::UpdatePath { path, .. } => assert_eq!(steps(&path), ".f[1].g"),
            k => panic!("{k:?}"),
        },
        k => panic!("{k:?}"),
    }
    assert!(matches!(
        body_of("def x = let a[0] = 4 in a"),
        K::LetWith { .. }
    ));
    let section = |src: &str| match body_of(src) {
        K::Parens(e) => e.kind,
        k => k,
    };
    match section("def x = (.[0].f)") {
        K::PathSection(path) => assert_eq!(steps(&path), "[1].f"),
        k => panic!("{k:?}"),
    }
    match section("def x = (.a[1:3])") {
        K::PathSection(path) => assert_eq!(steps(&path), ".a[1]"),
        k => panic!("{k:?}"),
    }
    assert!(matches!(section("def x = (.a.b)"), K::ProjectSection(fs) if fs.len() == 2));
    assert!(matches!(section("def x = (.[0])"), K::IndexSection(_)));
}

#[test]
fn docs_attach_to_declarations() {
    let src = "-- | File.\n\n-- | Thing.\n-- More.\ndef x = 1\n-- | Spec.\nmodule type t = {\n  -- | V.\n  val v : i32\n}\n";
    let (f, d) = parse_file(FileId(0), src);
    assert!(d.is_empty());
    assert_eq!(f.doc.as_deref(), Some("File."));
    match &f.decs[0].kind {
        syntax::ast::DecKind::Val(v) => assert_eq!(v.doc.as_deref(), Some("Thing.\nMore.")),
        k => panic!("{k:?}"),
    }
    match &f.decs[1].kind {
        syntax::ast::DecKind::Sig(s) => {
            assert_eq!(s.doc.as_deref(), Some("Spec."));
            match &s.sig.kind {
                syntax::ast::SigExpKind::Specs(ss) => assert_eq!(ss[0].doc.as_deref(), Some("V.")),
                k => panic!("{k:?}"),
            }
        }
        k => panic!("{k:?}"),
    }
}

#[test]
fn node_ids_are_unique_and_dense() {
    struct Collect(Vec<u32>);
    impl syntax::visit::VisitorMut for Collect {
        fn visit_expr(&mut self, e: &mut syntax::ast::Expr) {
            self.0.push(e.id.0);
            syntax::visit::walk_expr(self, e);
        }
        fn visit_pat(&mut self, p: &mut syntax::ast::Pat) {
            self.0.push(p.id.0);
            syntax::visit::walk_pat(self, p);
        }
    }
    for p in fut_files(&here("tests/parse_ok")) {
        let src = std::fs::read_to_string(&p).unwrap();
        let (mut f, _) = parse_file(FileId(0), &src);
        let mut c = Collect(Vec::new());
        syntax::visit::walk_file(&mut c, &mut f);
        let mut ids = c.0.clone();
        ids.sort();
        let n = ids.len() as u32;
        assert_eq!(ids, (0..n).collect::<Vec<_>>(), "{}", p.display());
    }
}

#[test]
fn parsing_is_fast() {
    // Not a timed assertion (see DESIGN.md §7): just make sure a large input parses
    // without errors; timing is reported by the `parse` example.
    let mut src = String::new();
    for p in fut_files(&here("../../prelude")) {
        src.push_str(&std::fs::read_to_string(&p).unwrap());
        src.push('\n');
    }
    let (_, d) = parse_file(FileId(0), &src);
    assert!(d.is_empty());
}

#[test]
fn pathological_inputs_terminate() {
    // Deep nesting, unclosed delimiters and malformed nested forms must neither blow
    // the stack nor take super-linear time (these took minutes before unclosed
    // delimiters were marked by the lexer).
    let n = 2000;
    let cases = [
        format!("def x = {}1{}", "(".repeat(n), ")".repeat(n)),
        format!("def x = {}", "[".repeat(n)),
        format!("def x = {}", "{a=".repeat(n)),
        format!("def x = {}", "(#a ".repeat(n)),
        format!("type x = {}", "(a: ".repeat(n)),
        "module a = {".repeat(n),
        format!("def x = {} in a", "let a = 1 ".repeat(n)),
        format!("def x = {}", vec!["1"; n].join(" + ")),
        format!("def x = {}", "loop x = 0 for i < n do ".repeat(n)),
    ];
    for src in &cases {
        let (f, _) = parse_file(FileId(0), src);
        let _ = pretty(&f);
    }
}
