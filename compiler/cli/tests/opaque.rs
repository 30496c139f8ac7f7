//! Opaque values in compiled executables: the server protocol's `types`,
//! `kind`, `fields`, `new`, `project`, `store` and `restore` on tuples and
//! records, and the plain executable's reading and printing, on
//! `tests/multicore/opaque_entries.fut`; `variants`, `construct`,
//! `destruct` and `variant` on sum types, types named by abbreviations and
//! module types, `zip`, `unzip`, `index` and `shape` on arrays of records
//! and tuples, and unique results, on `tests/multicore/opaque_kinds.fut`;
//! both compiled with `fut multicore`.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use support::{fut, run_with_input, text};
use values::Value;

/// The record type of `summarise`'s result, as the server names it.
const STATS: &str = "{n: i64, range: (f64, f64), sum: f64}";

/// Compiles the test program `tests/multicore/NAME.fut` into `dir` and
/// returns the executable.
fn compile(dir: &Path, name: &str) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = format!("{name}.fut");
    std::fs::copy(repo.join("tests/multicore").join(&file), dir.join(&file)).expect("copy");
    let o = fut(dir, &["multicore", &file, "-o", name]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    dir.join(name)
}

/// A running server.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start(exe: &Path) -> Session {
        let mut child = Command::new(exe)
            .arg("--server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start server");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut s = Session {
            child,
            stdin,
            stdout,
        };
        assert_eq!(s.reply(), Ok(vec![]), "start-up");
        s
    }

    /// The lines up to `%%% OK`: the output, or the failure message.
    fn reply(&mut self) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        let mut failed = false;
        loop {
            let mut l = String::new();
            assert!(
                self.stdout.read_line(&mut l).expect("read") > 0,
                "server ended"
            );
            let l = l.trim_end_matches('\n').to_string();
            match l.as_str() {
                "%%% OK" => break,
                "%%% FAILURE" => failed = true,
                _ => lines.push(l),
            }
        }
        if failed {
            Err(lines.join("\n"))
        } else {
            Ok(lines)
        }
    }

    fn ok(&mut self, line: &str) -> Vec<String> {
        writeln!(self.stdin, "{line}").expect("send");
        self.stdin.flush().expect("flush");
        self.reply()
            .unwrap_or_else(|e| panic!("`{line}` failed: {e}"))
    }

    fn fails(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").expect("send");
        self.stdin.flush().expect("flush");
        match self.reply() {
            Err(e) => e,
            Ok(out) => panic!("`{line}` succeeded with {out:?}"),
        }
    }
}

fn read_file(path: &Path) -> Vec<Value> {
    values::read_values(&std::fs::read(path).expect("read")).expect("values")
}

#[test]
fn opaque_values_in_the_server_and_the_executable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = compile(dir.path(), "opaque_entries");
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("xs.txt"), "[1.0, 4.0, -2.0, 5.0]").expect("write");

    // The plain executable reads an opaque parameter as its components in
    // order and prints an opaque result as Futhark's executables do.
    let run = |entry: &str, input: &str| run_with_input(&exe, &["-e", entry], input.as_bytes());
    let o = run("norm2", "3.0 4.0");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "25.0f64\n");
    let o = run("summarise", "[1.0, 2.0]");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), format!("#<opaque {STATS}>\n"));
    let o = run("split", "[1, 2, 3]");
    assert_eq!(
        text(&o.stdout),
        "[2i32, 4i32, 6i32]\n#<opaque (i32, []i32)>\n"
    );
    let o = run("widen", "4 -1.0 2.0 [3.0] 1.0");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        format!(
            "Error: entry point `widen`, parameter 1 of type {STATS}, component 4 of type f64: invalid input at 1:12: expected a value of type f64, found a value of type [1]f64\n"
        )
    );
    let o = run("norm2", "3.0");
    assert_eq!(
        text(&o.stderr),
        "Error: entry point `norm2` takes 1 argument ({x: f64, y: f64}), given as 2 values (f64, f64), but the input has only 1\n"
    );

    let mut s = Session::start(&exe);
    let q = |t: &str| format!("\"{t}\"");
    assert_eq!(s.ok("inputs norm2"), vec!["{x: f64, y: f64}"]);
    assert_eq!(s.ok("outputs widen"), vec!["f64", STATS]);
    assert_eq!(s.ok("outputs split"), vec!["[]i32", "(i32, []i32)"]);
    assert_eq!(s.ok("inputs set_at"), vec!["*[]f64", "{i: i64, v: f64}"]);
    let types = s.ok("types");
    for t in [
        STATS,
        "(f64, f64)",
        "(i32, []i32)",
        "{x: f64, y: f64}",
        "[]f64",
        "i64",
    ] {
        assert!(types.iter().any(|l| l == t), "{t} missing from {types:?}");
    }
    assert_eq!(s.ok(&format!("kind {}", q(STATS))), vec!["record"]);
    assert_eq!(s.ok("kind \"(f64, f64)\""), vec!["record"]);
    assert_eq!(s.ok("kind []f64"), vec!["array"]);
    assert_eq!(s.ok("kind f64"), vec!["primitive"]);
    assert_eq!(
        s.ok(&format!("fields {}", q(STATS))),
        vec!["n i64", "range (f64, f64)", "sum f64"]
    );
    assert_eq!(s.ok("fields \"(i32, []i32)\""), vec!["0 i32", "1 []i32"]);
    assert!(s.fails("fields f64").contains("`f64` is not a record type"));
    let e = s.fails("kind \"{a: f64}\"");
    assert!(
        e.contains("unknown type `{a: f64}`") && e.contains("{x: f64, y: f64}"),
        "{e}"
    );

    // An entry's opaque result, projected field by field (nested too).
    s.ok(&format!("restore {} xs []f64", path("xs.txt")));
    s.ok("call summarise st xs");
    assert_eq!(s.ok("type st"), vec![STATS]);
    s.ok("project r st range");
    assert_eq!(s.ok("type r"), vec!["(f64, f64)"]);
    s.ok("project lo r 0");
    s.ok("project hi r 1");
    s.ok("project n st n");
    s.ok(&format!("store {} lo hi n", path("parts.bin")));
    assert_eq!(
        read_file(&dir.path().join("parts.bin")),
        vec![
            Value::scalar(-2.0f64),
            Value::scalar(5.0f64),
            Value::scalar(4i64)
        ]
    );
    let e = s.fails("project z st mean");
    assert!(
        e.contains("has no field `mean`; its fields are: n, range, sum"),
        "{e}"
    );
    assert!(
        s.fails("project z xs n")
            .contains("`xs` has type []f64, which is not a record type")
    );
    assert!(s.fails("project lo st n").contains("`lo` already exists"));
    assert!(s.fails("shape st").contains("not an array type"));

    // `new` builds records and tuples from their fields; round trips.
    s.ok("new p \"{x: f64, y: f64}\" lo hi");
    s.ok("call norm2 nn p");
    s.ok("new r2 \"(f64, f64)\" lo hi");
    s.ok("new st2 \"{n: i64, range: (f64, f64), sum: f64}\" n r2 lo");
    s.ok("project sum2 st2 sum");
    s.ok("project r3 st2 range");
    s.ok("project hi2 r3 1");
    s.ok(&format!("store {} nn sum2 hi2", path("round.bin")));
    assert_eq!(
        read_file(&dir.path().join("round.bin")),
        vec![
            Value::scalar(29.0f64),
            Value::scalar(-2.0f64),
            Value::scalar(5.0f64)
        ]
    );
    let e = s.fails("new bad \"(f64, f64)\" lo");
    assert!(e.contains("has 2 fields, but 1 variable is given"), "{e}");
    let e = s.fails("new bad \"(f64, f64)\" lo xs");
    assert!(
        e.contains("field `1` of (f64, f64) has type f64, but variable `xs` has type []f64"),
        "{e}"
    );
    let e = s.fails(&format!("new bad {} lo hi n", q(STATS)));
    assert!(
        e.contains("field `n` of {n: i64, range: (f64, f64), sum: f64} has type i64, but variable `lo` has type f64"),
        "{e}"
    );
    assert!(
        s.fails("new bad []f64 xs")
            .contains("`[]f64` is not a record type")
    );
    assert!(s.fails("type bad").contains("unknown variable"));

    // Opaque values go into calls, are checked against the parameter type,
    // and are stored as their components, which `restore` reads back.
    let e = s.fails("call widen mean w2 p lo");
    assert!(
        e.contains(&format!(
            "parameter 1 has type {STATS}, but variable `p` has type {{x: f64, y: f64}}"
        )),
        "{e}"
    );
    s.ok("call widen mean w2 st lo");
    s.ok(&format!("store {} mean w2", path("widened.bin")));
    assert_eq!(
        read_file(&dir.path().join("widened.bin")),
        vec![
            Value::scalar(2.0f64),
            Value::scalar(4i64),
            Value::scalar(0.0f64),
            Value::scalar(3.0f64),
            Value::scalar(8.0f64),
        ]
    );
    s.ok(&format!(
        "restore {} m f64 w3 {}",
        path("widened.bin"),
        q(STATS)
    ));
    s.ok("project r4 w3 range");
    s.ok(&format!("store {} r4", path("r4.bin")));
    assert_eq!(
        read_file(&dir.path().join("r4.bin")),
        vec![Value::scalar(0.0f64), Value::scalar(3.0f64)]
    );
    let e = s.fails(&format!("restore {} w4 {}", path("parts.bin"), q(STATS)));
    assert!(e.contains("component 1 of type i64"), "{e}");
    let e = s.fails(&format!("restore {} only f64", path("parts.bin")));
    assert!(
        e.contains("expected the end of the file after 1 value"),
        "{e}"
    );

    // A consumed array beside an opaque parameter.
    s.ok("new at \"{i: i64, v: f64}\" n lo");
    let e = s.fails("call set_at ys xs at");
    assert!(e.contains("Index [4] out of bounds"), "{e}");
    s.ok("free at");
    s.ok("project one r 1");
    std::fs::write(path("one.txt"), "1i64").expect("write");
    s.ok(&format!("restore {} k i64", path("one.txt")));
    s.ok("new at \"{i: i64, v: f64}\" k one");
    s.ok(&format!("restore {} ys0 []f64", path("xs.txt")));
    s.ok("call set_at ys ys0 at");
    assert!(s.fails("shape ys0").contains("consumed"));
    s.ok(&format!("store {} ys", path("ys.bin")));
    assert_eq!(
        read_file(&dir.path().join("ys.bin")),
        vec![Value::vector(vec![1.0f64, 5.0, -2.0, 5.0])]
    );

    // A unique opaque parameter consumes its variable.
    assert_eq!(s.ok("inputs set_first"), vec!["*{v: f64, xs: []f64}"]);
    s.ok(&format!("restore {} zs []f64", path("xs.txt")));
    s.ok("new u \"{v: f64, xs: []f64}\" hi zs");
    s.ok("call set_first first u");
    assert_eq!(s.ok("type u"), vec!["{v: f64, xs: []f64}"]);
    assert!(s.fails("project v u v").contains("consumed"));
    assert!(
        s.fails(&format!("store {} u", path("u.bin")))
            .contains("consumed")
    );
    assert!(s.fails("call set_first again u").contains("consumed"));
    s.ok("free u");
    s.ok(&format!("store {} first zs", path("first.bin")));
    assert_eq!(
        read_file(&dir.path().join("first.bin")),
        vec![
            Value::vector(vec![5.0f64, 4.0, -2.0, 5.0]),
            Value::vector(vec![1.0f64, 4.0, -2.0, 5.0]),
        ]
    );
    drop(s.stdin);
    assert!(s.child.wait().expect("wait").success());
}

/// The sum type of `opaque_kinds.fut`'s `nonempty` and `count`.
const OPTION: &str = "#none | #some []i32";

#[test]
fn sums_named_types_arrays_of_records_and_unique_results() {
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = compile(dir.path(), "opaque_kinds");
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("in.txt"), "2.0 0.5 [3, 1, 2] [1.5, 2.5] 7").expect("write");

    // The plain executable reads a sum as its variant's number and every
    // variant's payload, and prints one as an opaque value.
    let run = |entry: &str, input: &str| run_with_input(&exe, &["-e", entry], input.as_bytes());
    let o = run("area", "2 0.0 3.0 2.0");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "6.0f64\n");
    let o = run("square", "2.0");
    assert_eq!(text(&o.stdout), "#<opaque shape>\n");
    // Components that are no value of the type are refused.
    let o = run("area", "5i64 3.0 0.0 0.0");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "Error: entry point `area`, parameter 1 of type shape: 5i64 is not a variant number of shape: it has 3 variants, numbered from 0\n"
    );
    let o = run("dot", "[1.0, 2.0] [1.0]");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "Error: entry point `dot`, parameter 1 of type []{x: f64, y: f64}: the arrays of a value of []{x: f64, y: f64} differ in their outer sizes ([2] and [1])\n"
    );
    let o = run("dot", "[1.0, 2.0] [3.0, 4.0]");
    assert_eq!(text(&o.stdout), "11.0f64\n");

    let mut s = Session::start(&exe);
    // Types are named as the entry points write them.
    assert_eq!(s.ok("inputs area"), vec!["shape"]);
    assert_eq!(s.ok("outputs grow"), vec!["shape", "bool"]);
    assert_eq!(s.ok("inputs shift"), vec!["point", "f64"]);
    assert_eq!(s.ok("outputs mk_t"), vec!["M.t"]);
    assert_eq!(s.ok("inputs count"), vec![OPTION]);
    // `*` marks a unique result.
    assert_eq!(s.ok("outputs ones"), vec!["*[]f64"]);
    let types = s.ok("types");
    for t in ["shape", "point", "M.t", OPTION, "[]i32", "f64"] {
        assert!(types.iter().any(|l| l == t), "{t} missing from {types:?}");
    }
    assert_eq!(s.ok("kind shape"), vec!["sum"]);
    assert_eq!(s.ok("kind point"), vec!["record"]);
    assert_eq!(s.ok("kind M.t"), vec!["record"]);
    assert_eq!(s.ok("fields point"), vec!["x f64", "y f64"]);
    assert_eq!(s.ok("fields M.t"), vec!["a i32", "b []f64"]);
    assert_eq!(
        s.ok("variants shape"),
        vec!["circle", "- f64", "empty", "rect", "- f64", "- f64"]
    );
    assert_eq!(
        s.ok(&format!("variants \"{OPTION}\"")),
        vec!["none", "some", "- []i32"]
    );
    assert!(
        s.fails("variants point")
            .contains("`point` is not a sum type")
    );
    assert!(
        s.fails("fields shape")
            .contains("`shape` is not a record type")
    );

    // Sums from entry points, and built with `construct`, go into calls;
    // `variant` and `destruct` look inside.
    s.ok(&format!(
        "restore {} w f64 d f64 xs []i32 b []f64 a i32",
        path("in.txt")
    ));
    s.ok("call square sq w");
    assert_eq!(s.ok("variant sq"), vec!["rect"]);
    s.ok("destruct sq sw sh");
    s.ok("call area a1 sq");
    s.ok("construct c shape circle d");
    s.ok("call grow c2 grew c d");
    assert_eq!(s.ok("variant c2"), vec!["circle"]);
    s.ok("destruct c2 r2");
    s.ok("construct e shape empty");
    s.ok("call grow e2 grew2 e d");
    assert_eq!(s.ok("variant e2"), vec!["circle"]);
    s.ok("call area a2 e");
    s.ok(&format!("store {} sw a1 r2 grew grew2 a2", path("out.bin")));
    assert_eq!(
        read_file(&dir.path().join("out.bin")),
        vec![
            Value::scalar(2.0f64),
            Value::scalar(4.0f64),
            Value::scalar(1.0f64),
            Value::scalar(true),
            Value::scalar(false),
            Value::scalar(0.0f64),
        ]
    );
    let e = s.fails("construct bad shape circle xs");
    assert!(
        e.contains("value 1 of variant `circle` has type f64, but variable `xs` has type []i32"),
        "{e}"
    );
    let e = s.fails("construct bad shape square w");
    assert!(e.contains("its variants are: circle, empty, rect"), "{e}");
    let e = s.fails("destruct sq only");
    assert!(e.contains("holds variant `rect` with 2 values"), "{e}");
    let e = s.fails("call area bad w");
    assert!(
        e.contains("parameter 1 has type shape, but variable `w` has type f64"),
        "{e}"
    );

    // A sum with an array payload, both ways.
    s.ok("call nonempty o xs");
    assert_eq!(s.ok("variant o"), vec!["some"]);
    s.ok("call count n o");
    s.ok(&format!("construct none \"{OPTION}\" none"));
    s.ok("call count n0 none");
    s.ok("destruct o ys");
    s.ok(&format!("store {} n n0 ys", path("counts.bin")));
    assert_eq!(
        read_file(&dir.path().join("counts.bin")),
        vec![
            Value::scalar(3i64),
            Value::scalar(0i64),
            Value::vector(vec![3i32, 1, 2]),
        ]
    );
    // A stored sum restores as itself; a bad variant number is refused.
    s.ok(&format!("store {} o", path("o.bin")));
    s.ok(&format!("restore {} o2 \"{OPTION}\"", path("o.bin")));
    assert_eq!(s.ok("variant o2"), vec!["some"]);
    std::fs::write(path("bad.txt"), "5i64 [1, 2]").expect("write");
    let e = s.fails(&format!("restore {} o3 \"{OPTION}\"", path("bad.txt")));
    assert!(
        e.contains("5i64 is not a variant number of #none | #some []i32"),
        "{e}"
    );

    // Records named by an abbreviation and by a module's type.
    s.ok("new p point w d");
    s.ok("call shift p2 p d");
    assert_eq!(s.ok("type p2"), vec!["point"]);
    s.ok("project px p2 x");
    s.ok("call mk_t t a b");
    assert_eq!(s.ok("type t"), vec!["M.t"]);
    s.ok("call t_sum ts t");
    s.ok("new t2 M.t a b");
    s.ok("call t_sum ts2 t2");
    s.ok(&format!("store {} px ts ts2", path("named.bin")));
    assert_eq!(
        read_file(&dir.path().join("named.bin")),
        vec![
            Value::scalar(2.5f64),
            Value::scalar(11.0f64),
            Value::scalar(11.0f64),
        ]
    );

    // Arrays of records and tuples: one array per field.
    const POINTS: &str = "[]{x: f64, y: f64}";
    assert_eq!(s.ok("inputs dot"), vec![POINTS]);
    assert_eq!(s.ok("outputs pair_rows"), vec!["[](i32, bool)"]);
    // An array of a named record is named after it, and so are its elements.
    assert_eq!(s.ok("inputs dots"), vec!["[]point", "point"]);
    assert_eq!(s.ok("elemtype []point"), vec!["point"]);
    assert_eq!(s.ok("kind []point"), vec!["array"]);
    assert_eq!(s.ok("inputs pair_rows"), vec!["[][](i32, bool)"]);
    let types = s.ok("types");
    for t in [POINTS, "{x: f64, y: f64}", "(i32, bool)", "[][](i32, bool)"] {
        assert!(types.iter().any(|l| l == t), "{t} missing from {types:?}");
    }
    assert_eq!(s.ok(&format!("kind \"{POINTS}\"")), vec!["array"]);
    assert_eq!(s.ok(&format!("rank \"{POINTS}\"")), vec!["1"]);
    assert_eq!(s.ok("rank \"[][](i32, bool)\""), vec!["2"]);
    assert_eq!(
        s.ok(&format!("elemtype \"{POINTS}\"")),
        vec!["{x: f64, y: f64}"]
    );
    std::fs::write(path("xy.txt"), "[1.0, 2.0, 3.0] [4.0, 5.0, 6.0] [1.0] 3i64").expect("write");
    s.ok(&format!(
        "restore {} ax []f64 ay []f64 short []f64 k i64",
        path("xy.txt")
    ));
    s.ok(&format!("zip ps \"{POINTS}\" ax ay"));
    assert_eq!(s.ok("shape ps"), vec!["3"]);
    s.ok("call dot dt ps");
    s.ok("index p1 ps 1");
    assert_eq!(s.ok("type p1"), vec!["{x: f64, y: f64}"]);
    s.ok("project p1y p1 y");
    s.ok("call points qs k");
    s.ok("unzip qs qx qy");
    s.ok(&format!("store {} dt p1y qx qy qs", path("arrays.bin")));
    let stored = read_file(&dir.path().join("arrays.bin"));
    assert_eq!(
        stored,
        vec![
            Value::scalar(32.0f64),
            Value::scalar(5.0f64),
            Value::vector(vec![0.0f64, 1.0, 2.0]),
            Value::vector(vec![2.0f64, 2.0, 2.0]),
            Value::vector(vec![0.0f64, 1.0, 2.0]),
            Value::vector(vec![2.0f64, 2.0, 2.0]),
        ]
    );
    // An array of records restores from its fields' arrays.
    s.ok(&format!(
        "restore {} dt2 f64 y2 f64 qx2 []f64 qy2 []f64 qs2 \"{POINTS}\"",
        path("arrays.bin")
    ));
    s.ok("call dot dt3 qs2");
    s.ok(&format!("store {} dt3", path("d3.bin")));
    assert_eq!(
        read_file(&dir.path().join("d3.bin")),
        vec![Value::scalar(6.0f64)]
    );
    s.ok("zip pts []point ax ay");
    s.ok("index pt pts 2");
    assert_eq!(s.ok("type pt"), vec!["point"]);
    s.ok("call dots ds pts pt");
    s.ok(&format!("store {} ds", path("ds.bin")));
    assert_eq!(
        read_file(&dir.path().join("ds.bin")),
        vec![Value::vector(vec![27.0f64, 36.0, 45.0])]
    );
    let e = s.fails("call dots bad ps pt");
    assert!(
        e.contains("parameter 1 has type []point, but variable `ps` has type []{x: f64, y: f64}"),
        "{e}"
    );
    let e = s.fails(&format!("zip bad \"{POINTS}\" ax short"));
    assert!(
        e.contains("the arrays differ in their outer sizes: [3] and [1]"),
        "{e}"
    );
    let e = s.fails(&format!("zip bad \"{POINTS}\" ax"));
    assert!(e.contains("have 2 fields, but 1 array is given"), "{e}");
    let e = s.fails("index bad ps 3");
    assert!(
        e.contains("`3` is not an index of dimension 1 of `ps`"),
        "{e}"
    );
    let e = s.fails("index bad ps 0 0");
    assert!(
        e.contains("array of rank 1, but 2 indices are given"),
        "{e}"
    );
    std::fs::write(path("ragged.txt"), "[1.0, 2.0] [1.0]").expect("write");
    let e = s.fails(&format!("restore {} bad \"{POINTS}\"", path("ragged.txt")));
    assert!(
        e.contains("differ in their outer sizes ([2] and [1])"),
        "{e}"
    );
    // A 2-D array of tuples from its arrays, through an entry and back.
    std::fs::write(
        path("rows.txt"),
        "[[1, 2], [3, 4], [5, 6]] [[true, true], [true, false], [false, false]]",
    )
    .expect("write");
    s.ok(&format!(
        "restore {} ia2 [][]i32 b2 [][]bool",
        path("rows.txt")
    ));
    s.ok("zip rows \"[][](i32, bool)\" ia2 b2");
    assert_eq!(s.ok("shape rows"), vec!["3", "2"]);
    s.ok("index r12 rows 1 1");
    assert_eq!(s.ok("type r12"), vec!["(i32, bool)"]);
    s.ok("call pair_rows sums rows");
    s.ok("unzip sums ss bs");
    s.ok(&format!("store {} ss bs", path("rows.bin")));
    assert_eq!(
        read_file(&dir.path().join("rows.bin")),
        vec![
            Value::vector(vec![3i32, 7, 11]),
            Value::vector(vec![true, false, false]),
        ]
    );
    drop(s.stdin);
    assert!(s.child.wait().expect("wait").success());
}
