//! The library-crate test: `fut multicore --library` writes a crate for
//! `tests/library/entries.fut`, a small Rust program depending on it by
//! path calls every entry point, and its printed results are checked.
//!
//! The crates are written under the fut cache folder (`library-test/`) and
//! built with the target directory generated executables share, in the
//! profile test batches use, so after the first build only what changed is
//! compiled again. cargo runs `--offline` first, as for executables.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{cargo_build, fut, run_with_input, text};

/// Writes `contents` to `path` unless it already holds them (so cargo sees
/// unchanged files as fresh).
fn write(path: &Path, contents: &str) {
    if std::fs::read_to_string(path).is_ok_and(|c| c == contents) {
        return;
    }
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, contents).expect("write");
}

/// The manifest of the program `app` using the library crate `krate`
/// (a folder next to it).
fn app_manifest(app: &str, krate: &str, folder: &str) -> String {
    format!(
        "[package]\nname = \"{app}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{krate} = {{ path = \"../{folder}\" }}\n\n\
         [profile.release]\nopt-level = 1\ndebug = false\nincremental = false\ncodegen-units = 16\n\n[workspace]\n"
    )
}

/// Calls every entry point of the library and prints one line per result;
/// errors are printed, not propagated, so the test sees them.
const APP_MAIN: &str = r#"use entries::{Array, Context, Record0, Sum0, Sum1, Sum2};

fn main() {
    let ctx = Context::with_threads(2).expect("context");
    println!("threads {}", ctx.num_threads());

    let xs = Array::from_vec(vec![1.0, 2.5, -3.0], [3]).unwrap();
    let ys = ctx.scale(2.0, &xs).unwrap();
    println!("scale {:?} {:?}", ys.shape(), ys.to_vec());
    println!("input kept {:?}", xs.to_vec());

    let m = Array::from_vec(vec![1i32, 2, 3, 4, 5, 6], [2, 3]).unwrap();
    let (rows, total) = ctx.row_sums(&m).unwrap();
    println!("row_sums {:?} {total}", rows.to_vec());

    let bs = Array::from_vec(vec![true, false, true], [3]).unwrap();
    let (neg, count) = ctx.negate_count(&bs).unwrap();
    println!("negate_count {:?} {count}", neg.into_vec());

    let m = Array::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [3, 2]).unwrap();
    let t = ctx.transpose_scaled(&m, 10.0).unwrap();
    println!("transpose_scaled {:?} {:?}", t.shape(), t.to_vec());

    let v = Array::from_vec(vec![1.0, 2.0], [2]).unwrap();
    println!("pick {}", ctx.pick(&v, 1).unwrap());
    match ctx.pick(&v, 5) {
        Ok(x) => println!("pick out of bounds gave {x}"),
        Err(e) => println!("pick error {:?}", e.message),
    }

    // A consumed parameter is moved in and updated in place.
    let owned = Array::from_vec(vec![1.0, 2.0], [2]).unwrap();
    println!("set_first {:?}", ctx.set_first(owned, 9.0).unwrap().to_vec());

    println!("move {}", ctx.r#move(3).unwrap());
    println!("new {}", ctx.new_().unwrap());

    let b = Array::from_vec(vec![10i64, 20, 30], [3]).unwrap();
    let (x, n, bs) = ctx.combine(&(1.5, 2), &Record0 { a: 0.25, b }).unwrap();
    println!("combine {x} {n} {:?}", bs.to_vec());

    // Sum types are enums: results come back as a variant, arguments are
    // built from one.
    let s = ctx.square(2.0).unwrap();
    println!("square {s:?} area {}", ctx.area(&s).unwrap());
    println!("square -1 {:?}", ctx.square(-1.0).unwrap());
    println!("area circle {}", ctx.area(&Sum0::Circle(1.0)).unwrap());
    println!("area empty {}", ctx.area(&Sum0::Empty).unwrap());
    let b = ctx.fill(3).unwrap();
    match &b {
        Sum1::Items(xs) => println!("fill items {:?}", xs.to_vec()),
        Sum1::Nothing => println!("fill nothing"),
    }
    println!("bag_sum {}", ctx.bag_sum(&b).unwrap());
    println!("fill 0 {:?}", ctx.fill(0).unwrap());
    let items = Sum1::Items(Array::from_vec(vec![5, 6], [2]).unwrap());
    println!("bag_sum own {}", ctx.bag_sum(&items).unwrap());
    println!("bag_sum nothing {}", ctx.bag_sum(&Sum1::Nothing).unwrap());

    // An array of a sum type is a `Vec` of its enum.
    let ws = Array::from_vec(vec![1.0, -1.0, 2.0], [3]).unwrap();
    let ss = ctx.squares(&ws).unwrap();
    println!("squares {ss:?}");
    println!("total_area {}", ctx.total_area(&ss).unwrap());
    let mixed = [Sum0::Circle(1.0), Sum0::Empty, Sum0::Rect(2.0, 3.0)];
    println!("total_area mixed {}", ctx.total_area(&mixed).unwrap());
    println!("total_area none {}", ctx.total_area(&[]).unwrap());

    // A two-dimensional array of sums is a `Vec` of rows; rows of different
    // lengths are an error.
    let g = ctx.grid(2).unwrap();
    println!("grid {g:?}");
    println!("grid_area {:?}", ctx.grid_area(&g).unwrap().to_vec());
    let ragged = vec![vec![Sum0::Circle(1.0)], vec![Sum0::Empty, Sum0::Empty]];
    match ctx.grid_area(&ragged) {
        Ok(_) => println!("ragged rows accepted"),
        Err(e) => println!("grid_area error {:?}", e.message),
    }
    // A sum holding a sum holds its enum, alone and in arrays.
    let o = ctx.wrap(2.0).unwrap();
    println!("wrap {o:?} area {}", ctx.unwrap_area(&o).unwrap());
    println!("unwrap_area none {}", ctx.unwrap_area(&Sum2::None).unwrap());
    let ws = Array::from_vec(vec![3.0, 0.0], [2]).unwrap();
    println!("wraps {:?}", ctx.wraps(&ws).unwrap());
    let os = [Sum2::Some(Sum0::Circle(1.0)), Sum2::None];
    println!("unwrap_areas {:?}", ctx.unwrap_areas(&os).unwrap().to_vec());

    match Array::<f64, 2>::from_vec(vec![1.0; 5], [2, 3]) {
        Ok(_) => println!("from_vec accepted a bad shape"),
        Err(e) => println!("from_vec error {:?}", e.message),
    }
    match Context::with_threads(0) {
        Ok(_) => println!("zero threads accepted"),
        Err(e) => println!("context error {:?}", e.message),
    }
}
"#;

/// Writes the library crate of `tests/library/{krate}.fut` under the cache
/// folder (`library-test/{krate}`), checks its files, builds the program
/// `app` (its `src/main.rs` is `main`) that depends on it, runs it and gives
/// its standard output.
fn run_library_app(krate: &str, app: &str, main: &str) -> String {
    run_library_app_on("multicore", krate, app, main)
}

/// [`run_library_app`] with the crate written by `fut BACKEND --library`
/// (under `library-test/BACKEND-{krate}` for a GPU backend).
fn run_library_app_on(backend: &str, krate: &str, app: &str, main: &str) -> String {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let source = repo.join(format!("tests/library/{krate}.fut"));
    let cache = driver::multicore::cache_dir();
    let root: PathBuf = cache.join("library-test");
    std::fs::create_dir_all(&root).expect("mkdir");
    let file = format!("{krate}.fut");
    write(
        &root.join(&file),
        &std::fs::read_to_string(&source).expect("source"),
    );

    let folder = if backend == "multicore" {
        krate.to_string()
    } else {
        format!("{backend}-{krate}")
    };
    let o = fut(&root, &[backend, "--library", &file, "-o", &folder]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let lib = root.join(&folder);
    for f in [
        "Cargo.toml",
        "Cargo.lock",
        "README.md",
        "src/lib.rs",
        "src/program.rs",
        "runtime/fut-runtime-multicore/src/typed.rs",
        "runtime/values/src/lib.rs",
    ] {
        assert!(lib.join(f).is_file(), "the crate lacks {f}");
    }
    let readme = std::fs::read_to_string(lib.join("README.md")).expect("readme");
    assert!(readme.contains("Context::with_threads"), "{readme}");

    let dir = root.join(app);
    write(&dir.join("Cargo.toml"), &app_manifest(app, krate, &folder));
    write(&dir.join("src/main.rs"), main);
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(lib.join("Cargo.lock"), dir.join("Cargo.lock")).expect("lock");
    }
    let target = cache.join("target");
    let manifest = dir.join("Cargo.toml");
    let out = cargo_build(&manifest, &target);
    assert!(
        out.status.success(),
        "the program using the library does not build:\n{}",
        text(&out.stderr)
    );

    let exe = target.join("release").join(app);
    let run = Command::new(&exe).output().expect("the program runs");
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}\n{}", text(&run.stderr));
    stdout
}

#[test]
fn a_rust_program_calls_every_entry_point_of_a_generated_library() {
    let stdout = run_library_app("entries", "fut-library-test-app", APP_MAIN);
    let readme = std::fs::read_to_string(
        driver::multicore::cache_dir().join("library-test/entries/README.md"),
    )
    .expect("readme");
    assert!(readme.contains("| `r#move` |"), "{readme}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, APP_EXPECTED, "{stdout}");
}

/// The same program against the crate `fut opencl --library` writes: the
/// same API and results, the entry points' parallel work run as OpenCL
/// kernels (by PoCL on the CPU here), and run-time errors inside kernels
/// reported with their source location as on the host.
#[test]
fn the_opencl_library_has_the_same_api_and_results() {
    let main = format!(
        "{}\n{RESIDENT_MAIN}",
        APP_MAIN.replacen("fn main() {\n", "fn main() {\n    resident();\n", 1)
    );
    let stdout = run_library_app_on("opencl", "entries", "fut-library-opencl-app", &main);
    let root = driver::multicore::cache_dir().join("library-test/opencl-entries");
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).expect("lib.rs");
    assert!(lib.contains("compiled by `fut opencl --library`"), "{lib}");
    assert!(lib.contains("pub fn with_device(name: &str)"), "{lib}");
    let program = std::fs::read_to_string(root.join("src/program.rs")).expect("program.rs");
    assert!(program.contains("fut_runtime_opencl::launch"), "{program}");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("readme");
    assert!(readme.contains("FUT_OPENCL_DEVICE"), "{readme}");
    let lines: Vec<&str> = stdout.lines().collect();
    let (resident, rest) = lines.split_at(RESIDENT_EXPECTED.len().min(lines.len()));
    assert_eq!(resident, RESIDENT_EXPECTED, "{stdout}");
    assert_eq!(rest, APP_EXPECTED, "{stdout}");
}

/// Arrays of a GPU library stay on the device: an entry's result passed to
/// another entry is neither read back nor uploaded again, the host reads
/// it once when asked, a consumed result is updated where it is, and a
/// shared one is copied first.
const RESIDENT_MAIN: &str = r#"fn resident() {
    let ctx = Context::with_threads(2).expect("context");
    let xs = Array::from_vec((0..1000).map(|i| i as f64).collect::<Vec<_>>(), [1000]).unwrap();
    let before = ctx.transfers();
    let ys = ctx.scale(2.0, &xs).unwrap();
    let zs = ctx.scale(0.5, &ys).unwrap();
    let after = ctx.transfers();
    println!("resident uploads {} downloads {}", after.0 - before.0, after.1 - before.1);
    println!("resident values {:?} {:?}", &zs.as_slice()[..3], zs.shape());
    println!("resident read downloads {}", ctx.transfers().1 - after.1);
    let w = ctx.set_first(zs, 9.0).unwrap();
    println!("resident set_first {:?}", &w.as_slice()[..3]);
    let v = ctx.set_first(ys.clone(), 7.0).unwrap();
    println!("resident shared {:?} kept {:?}", &v.as_slice()[..2], &ys.as_slice()[..2]);
    let params = Context::tuning_params();
    println!("tuning {:?}", params.iter().find(|(n, _)| n == "default_threads"));
    println!(
        "tuning set {:?} {:?} {:?}",
        ctx.set_tuning_param("default_threads", 64).is_ok(),
        ctx.set_tuning_param("default_threads", 0).map_err(|e| e.to_string()),
        ctx.set_tuning_param("nope", 1).map_err(|e| e.to_string()),
    );
}
"#;

/// What [`RESIDENT_MAIN`] prints.
const RESIDENT_EXPECTED: &[&str] = &[
    "resident uploads 1 downloads 0",
    "resident values [0.0, 1.0, 2.0] [1000]",
    "resident read downloads 1",
    "resident set_first [9.0, 1.0, 2.0]",
    "resident shared [7.0, 2.0] kept [0.0, 2.0]",
    "tuning Some((\"default_threads\", \"threads\"))",
    "tuning set true Err(\"the value of tuning parameter default_threads must be a positive integer, not \\\"0\\\"\") Err(\"unknown tuning parameter nope (--print-params lists them)\")",
];

/// What [`APP_MAIN`] prints, on every backend.
const APP_EXPECTED: &[&str] = &[
    "threads 2",
    "scale [3] [2.0, 5.0, -6.0]",
    "input kept [1.0, 2.5, -3.0]",
    "row_sums [6, 15] 21",
    "negate_count [false, true, false] 2",
    "transpose_scaled [2, 3] [10.0, 30.0, 50.0, 20.0, 40.0, 60.0]",
    "pick 2",
    "pick error \"Index [5] out of bounds for array of shape [2].\\n  at entries.fut:35:41-35:46\"",
    "set_first [9.0, 2.0]",
    "move 4",
    "new 7",
    "combine 1.75 5 [11, 21, 31]",
    "square Rect(2.0, 2.0) area 4",
    "square -1 Empty",
    "area circle 3",
    "area empty 0",
    "fill items [0, 1, 2]",
    "bag_sum 3",
    "fill 0 Nothing",
    "bag_sum own 11",
    "bag_sum nothing 0",
    "squares [Rect(1.0, 1.0), Empty, Rect(2.0, 2.0)]",
    "total_area 5",
    "total_area mixed 9",
    "total_area none 0",
    "grid [[Circle(1.0), Empty], [Rect(1.0, 1.0), Circle(2.0)]]",
    "grid_area [3.0, 0.0, 1.0, 12.0]",
    "grid_area error \"entry point `grid_area`: the rows of argument `a0` differ in their lengths\"",
    "wrap Some(Rect(2.0, 2.0)) area 4",
    "unwrap_area none -1",
    "wraps [Some(Rect(3.0, 3.0)), None]",
    "unwrap_areas [3.0, -1.0]",
    "from_vec error \"an array of shape [2][3] needs 6 elements, but 5 were given\"",
    "context error \"the number of threads must be at least 1\"",
];

/// Calls the entry points of `tests/library/sums.fut`: sums inside records
/// and tuples, and arrays of sums whose variants carry arrays.
const SUMS_MAIN: &str = r#"use sums::{Array, Context, Record0, Sum0, Sum1, Sum2};

fn bag(b: &Sum1) -> String {
    match b {
        Sum1::Items(xs) => format!("Items({:?} {:?})", xs.shape(), xs.to_vec()),
        Sum1::Nothing => "Nothing".to_string(),
    }
}

fn tile(t: &Sum2) -> String {
    match t {
        Sum2::Cells(c) => format!("Cells({:?} {:?})", c.shape(), c.to_vec()),
        Sum2::Blank => "Blank".to_string(),
    }
}

fn bags(bs: &[Sum1]) -> String {
    bs.iter().map(bag).collect::<Vec<_>>().join(" ")
}

fn main() {
    let ctx = Context::with_threads(2).expect("context");

    // A record holding a sum is a struct with an enum field.
    let r = ctx.measure(3.0).unwrap();
    println!("measure {r:?}");
    println!("record_area {}", ctx.record_area(&r).unwrap());
    println!("measure -2 {:?}", ctx.measure(-2.0).unwrap());
    let own = Record0 { k: -1, s: Sum0::Circle(1.0) };
    println!("record_area own {}", ctx.record_area(&own).unwrap());

    // A tuple holding a sum is a Rust tuple with an enum element.
    let p = (Sum0::Rect(2.0, 3.0), 0.5);
    println!("scaled_area {}", ctx.scaled_area(&p).unwrap());
    let p = (ctx.square(-1.0).unwrap(), 2.0);
    println!("scaled_area empty {}", ctx.scaled_area(&p).unwrap());

    // Arrays of sums whose variants carry arrays: `Vec`s of enums holding
    // `Array`s, all of one shape.
    let bs = ctx.bags(3, 2).unwrap();
    println!("bags {}", bags(&bs));
    println!("bag_sums {:?}", ctx.bag_sums(&bs).unwrap().to_vec());
    let three = Array::from_vec(vec![5, 6, 7], [3]).unwrap();
    let own = [Sum1::Nothing, Sum1::Items(three), Sum1::Nothing];
    println!("bag_sums own {:?}", ctx.bag_sums(&own).unwrap().to_vec());
    let nothing = [Sum1::Nothing, Sum1::Nothing];
    println!("bag_sums nothing {:?}", ctx.bag_sums(&nothing).unwrap().to_vec());
    println!("bag_sums none {:?}", ctx.bag_sums(&[]).unwrap().to_vec());
    let ragged = [
        Sum1::Items(Array::from_vec(vec![1], [1]).unwrap()),
        Sum1::Items(Array::from_vec(vec![1, 2], [2]).unwrap()),
    ];
    match ctx.bag_sums(&ragged) {
        Ok(v) => println!("ragged payloads accepted {:?}", v.to_vec()),
        Err(e) => println!("bag_sums error {:?}", e.message),
    }
    println!("bags 0 {}", ctx.bags(0, 2).unwrap().len());
    println!("bags 2 0 {}", bags(&ctx.bags(2, 0).unwrap()));

    let ts = ctx.tiles(2).unwrap();
    let rows: Vec<String> = ts
        .iter()
        .map(|row| row.iter().map(tile).collect::<Vec<_>>().join(" "))
        .collect();
    println!("tiles {}", rows.join(" | "));
    println!("tile_totals {:?}", ctx.tile_totals(&ts).unwrap().to_vec());
    let cells = Array::from_vec(vec![1.5, 2.5, 3.0], [1, 3]).unwrap();
    let own = vec![vec![Sum2::Blank, Sum2::Cells(cells)]];
    let totals = ctx.tile_totals(&own).unwrap();
    println!("tile_totals own {:?} {:?}", totals.shape(), totals.to_vec());

    // A record result holding an array of such sums.
    let l = ctx.labelled(2).unwrap();
    println!("labelled {} {}", l.n, bags(&l.bs));

    // Record and tuple parameters holding arrays of sums.
    println!("labelled_count {}", ctx.labelled_count(&l).unwrap());
    let bs = ctx.bags(3, 2).unwrap();
    println!("bags_plus {:?}", ctx.bags_plus(&(bs, 100)).unwrap().to_vec());

    // A tuple parameter holding a sum with an array payload.
    let p = (ctx.fill(3).unwrap(), 10);
    println!("bag_plus {} {}", bag(&p.0), ctx.bag_plus(&p).unwrap());
    let p = (Sum1::Items(Array::from_vec(vec![4, 5], [2]).unwrap()), 1);
    println!("bag_plus own {}", ctx.bag_plus(&p).unwrap());
    println!("bag_plus nothing {}", ctx.bag_plus(&(Sum1::Nothing, 7)).unwrap());

    // Arrays of tuples and records holding sums, returned: a tuple of a
    // `Vec` of the enum and an `Array` per other element or field.
    let (ss, ws) = ctx.pairs(3).unwrap();
    println!("pairs {ss:?} {:?}", ws.to_vec());
    let (ks, ss) = ctx.records(2).unwrap();
    println!("records {:?} {ss:?}", ks.to_vec());

    // The same tuple of a `Vec` of the enum and an `Array`, passed in.
    let ps = ctx.pairs(3).unwrap();
    println!("pair_areas {:?}", ctx.pair_areas(&ps).unwrap().to_vec());
    let own = (
        vec![Sum0::Circle(1.0), Sum0::Rect(2.0, 3.0), Sum0::Empty],
        Array::from_vec(vec![2.0, 1.0, 5.0], [3]).unwrap(),
    );
    println!("pair_areas own {:?}", ctx.pair_areas(&own).unwrap().to_vec());
    let uneven = (vec![Sum0::Empty], Array::from_vec(vec![1.0, 2.0], [2]).unwrap());
    match ctx.pair_areas(&uneven) {
        Ok(v) => println!("uneven pairs accepted {:?}", v.to_vec()),
        Err(e) => println!("pair_areas error {:?}", e.message),
    }
}
"#;

/// A record result and a tuple parameter holding sums, and arrays of sums
/// with array payloads passed in and returned, through a generated library.
#[test]
fn library_sums_inside_records_and_tuples_and_sums_with_array_payloads_in_arrays() {
    let stdout = run_library_app("sums", "fut-library-sums-app", SUMS_MAIN);
    let lib = driver::multicore::cache_dir().join("library-test/sums/src/lib.rs");
    let lib = std::fs::read_to_string(lib).expect("lib.rs");
    assert!(lib.contains("    pub s: Sum0,\n"), "{lib}");
    assert!(lib.contains("    pub bs: Vec<Sum1>,\n"), "{lib}");
    assert!(lib.contains("    Cells(Array<f64, 2>),\n"), "{lib}");
    let expected = [
        "measure Record0 { k: 3, s: Rect(3.0, 3.0) }",
        "record_area 12",
        "measure -2 Record0 { k: -2, s: Empty }",
        "record_area own 2",
        "scaled_area 3",
        "scaled_area empty 0",
        "bags Items([2] [0, 1]) Nothing Items([2] [40, 41])",
        "bag_sums [1, -1, 81]",
        "bag_sums own [-1, 18, -1]",
        "bag_sums nothing [-1, -1]",
        "bag_sums none []",
        "bag_sums error \"entry point `bag_sums`: the array payloads of argument `a0` differ in their shapes ([1] and [2])\"",
        "bags 0 0",
        "bags 2 0 Items([0] []) Nothing",
        "tiles Cells([2, 2] [1.0, 1.0, 1.0, 1.0]) Blank | Blank Cells([2, 2] [2.0, 2.0, 2.0, 2.0])",
        "tile_totals [4.0, -1.0, -1.0, 8.0]",
        "tile_totals own [1, 2] [-1.0, 7.0]",
        "labelled 2 Items([3] [0, 1, 2]) Nothing",
        "labelled_count 3",
        "bags_plus [101, 99, 181]",
        "bag_plus Items([3] [0, 1, 2]) 13",
        "bag_plus own 10",
        "bag_plus nothing 7",
        "pairs [Empty, Rect(1.0, 1.0), Rect(2.0, 2.0)] [0.0, 1.0, 2.0]",
        "records [0, 1] [Empty, Rect(1.0, 1.0)]",
        "pair_areas [0.0, 1.0, 8.0]",
        "pair_areas own [6.0, 6.0, 0.0]",
        "pair_areas error \"Assertion is false: Size mismatch: the arrays of parameter 1 of entry point `pair_areas`, an array of records or tuples, differ in their outer sizes.\"",
    ];
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines, expected, "{stdout}");
}

/// Standalone executables read a tuple or record parameter as its
/// components (records in field-name order) and write each component of a
/// tuple result on a line of its own; the server lists the opaque types.
#[test]
fn executables_take_tuple_and_record_parameters_as_their_components() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::copy(
        repo.join("tests/library/entries.fut"),
        dir.path().join("entries.fut"),
    )
    .expect("copy");
    let o = fut(dir.path(), &["multicore", "entries.fut", "-o", "entries"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let exe = dir.path().join("entries");
    let run = |args: &[&str], input: &str| run_with_input(&exe, args, input.as_bytes());
    // (p.0, p.1), then the record's fields a and b.
    let o = run(&["-e", "combine"], "1.5 2 0.25 [10i64, 20i64, 30i64]");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "1.75f64\n5i32\n[11i64, 21i64, 31i64]\n");
    let o = run(&["-e", "combine"], "1.5 2 0.25");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "Error: entry point `combine` takes 2 arguments ((f64, i32), {a: f64, b: []i64}), given as 4 values (f64, i32, f64, []i64), but the input has only 3\n"
    );
    let o = run(&["--server"], "inputs combine\noutputs row_sums\n");
    assert_eq!(
        text(&o.stdout),
        "%%% OK\n(f64, i32)\n{a: f64, b: []i64}\n%%% OK\n[]i32\ni32\n%%% OK\n"
    );
}

/// Programs that cannot become a library, and a folder that cannot be
/// written, fail with a message and status 1, leaving nothing behind.
#[test]
fn library_errors_name_the_problem() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("bad.fut"), "entry f (x: i32) : i32 = x + true\n").expect("write");
    let o = fut(d, &["multicore", "--library", "bad.fut"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("bad.fut:1:"),
        "{}",
        text(&o.stderr)
    );
    assert!(!d.join("bad").exists());

    // A sum whose payload is a tuple has no typed API (a sum inside a
    // tuple does).
    std::fs::write(
        d.join("sum.fut"),
        "type u = #p (f64, i32) | #q\nentry f (x: u) : f64 = match x case #p (a, _) -> a case #q -> 0\n",
    )
    .expect("write");
    let o = fut(d, &["multicore", "--library", "sum.fut"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains(
            "entry point `f` has a parameter of type u (#p (f64, i32) | #q), which holds a sum type that library crates cannot take"
        ),
        "{}",
        text(&o.stderr)
    );
    assert!(!d.join("sum").exists());

    std::fs::write(d.join("ok.fut"), "entry f (x: i32) : i32 = x + 1\n").expect("write");
    std::fs::write(d.join("taken"), "").expect("write");
    let o = fut(d, &["multicore", "--library", "ok.fut", "-o", "taken"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("is a file, not a folder"),
        "{}",
        text(&o.stderr)
    );
}
