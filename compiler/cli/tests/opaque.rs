//! Opaque values (tuples and records) in compiled executables: the server
//! protocol's `types`, `kind`, `fields`, `new`, `project`, `store` and
//! `restore` on them, and the plain executable's reading and printing, on
//! `tests/multicore/opaque_entries.fut` compiled with `fut multicore`.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use support::{fut, run_with_input, text};
use values::Value;

/// The record type of `summarise`'s result, as the server names it.
const STATS: &str = "{n: i64, range: (f64, f64), sum: f64}";

/// Compiles the test program into `dir` and returns the executable.
fn compile(dir: &Path) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::copy(
        repo.join("tests/multicore/opaque_entries.fut"),
        dir.join("opaque_entries.fut"),
    )
    .expect("copy");
    let o = fut(dir, &["multicore", "opaque_entries.fut", "-o", "oe"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    dir.join("oe")
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
    let exe = compile(dir.path());
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
