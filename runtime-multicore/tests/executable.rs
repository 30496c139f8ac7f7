//! The executable interface and the server protocol, driven as a process on
//! the hand-written program `examples/demo.rs` (which `cargo test` builds).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};

use values::Value;

/// The demo executable: `target/<profile>/examples/demo`, next to this test's
/// `deps` directory.
fn demo() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target directory");
    let path = profile_dir
        .join("examples")
        .join(format!("demo{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing; `cargo test` builds it",
        path.display()
    );
    path
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(demo())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start demo");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("demo output")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn runs_an_entry_on_text_input() {
    let o = run(&["-e", "sum"], b"[1, 2, 3]");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "6i64\n");
    let o = run(&["-e", "swap", "--num-threads=2"], b"7 [1, 2]");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "[1u8, 2u8]\n7i32\n");
}

#[test]
fn entries_run_in_a_pool_of_num_threads() {
    for n in ["1", "3"] {
        let o = run(&["-e", "threads", "--num-threads", n], b"");
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert_eq!(text(&o.stdout), format!("{n}i64\n"));
    }
}

#[test]
fn mixed_binary_input_and_binary_output() {
    let mut input = values::to_binary(&Value::vector(vec![1.0f64, 2.5])).unwrap();
    input.extend_from_slice(b" 2.0");
    let o = run(&["-e", "scale", "-b"], &input);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        values::read_values(&o.stdout).unwrap(),
        vec![Value::vector(vec![2.0f64, 5.0])]
    );
}

#[test]
fn bad_input_names_the_entry_and_parameter() {
    let o = run(&["-e", "index"], b"[1.0, 2.0] true");
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(
        e.contains("entry point `index`, parameter 2 of type i64"),
        "{e}"
    );
    assert!(o.stdout.is_empty());
    let o = run(&["-e", "sum"], b"[1, 2");
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(
        e.contains("parameter 1 of type []i64: invalid input at"),
        "{e}"
    );
    let o = run(&["-e", "sum"], b"[[1]]");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("parameter 1 of type []i64"));
}

#[test]
fn wrong_arity_says_how_many_arguments() {
    let o = run(&["-e", "index"], b"[1.0]");
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(
        e.contains("`index` takes 2 arguments ([]f64, i64), but the input has only 1"),
        "{e}"
    );
    let o = run(&["-e", "sum"], b"[1] [2]");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("more values"));
}

#[test]
fn unknown_entry_lists_the_entries() {
    let o = run(&[], b"");
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(e.contains("entry point `main` not found"), "{e}");
    assert!(e.contains("sum, index, scale, swap, threads, bug"), "{e}");
}

#[test]
fn run_time_errors_name_the_source_location() {
    let o = run(&["-e", "index"], b"[1.0, 2.0] 7");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "Error: Index [7] out of bounds for array of shape [2]. (at demo.fut:2:46-50)\n"
    );
    assert!(o.stdout.is_empty());
    let o = run(&["-e", "bug"], b"");
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(e.contains("internal error in entry point `bug`"), "{e}");
    assert!(e.contains("demo.rs"), "{e}");
}

#[test]
fn runs_and_timing_file() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("times");
    let o = run(
        &["-e", "scale", "-r", "4", "-t", t.to_str().unwrap()],
        b"[1.0, 2.0] 3.0",
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Each run gets the original arguments: scaling happens once per run.
    assert_eq!(text(&o.stdout), "[3.0f64, 6.0f64]\n");
    let times = std::fs::read_to_string(&t).unwrap();
    let lines: Vec<&str> = times.lines().collect();
    assert_eq!(lines.len(), 4, "{times}");
    assert!(lines.iter().all(|l| l.parse::<u64>().is_ok()), "{times}");
    let o = run(&["-e", "sum", "-n"], b"[1]");
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
}

#[test]
fn profile_report_on_stderr() {
    let o = run(&["-e", "sum", "-P", "-r", "2"], b"[1, 2]");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let e = text(&o.stderr);
    let line = e
        .lines()
        .find(|l| l.starts_with("segred demo.fut:1:30"))
        .unwrap_or_else(|| panic!("no line for the reduction in:\n{e}"));
    // Two timed runs; the warm-up run is not profiled.
    assert_eq!(line.split_whitespace().nth(2), Some("2"), "{e}");
}

#[test]
fn command_line_errors_and_help() {
    let o = run(&["--frobnicate"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("unknown option --frobnicate"));
    let o = run(&["-r", "x"], b"");
    assert_eq!(o.status.code(), Some(1));
    let o = run(&["--help"], b"");
    assert!(o.status.success());
    let h = text(&o.stdout);
    for opt in ["--entry-point", "--runs", "--write-runtime-to", "--server"] {
        assert!(h.contains(opt), "{h}");
    }
}

/// A running server and the lines it has answered.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(demo())
            .arg("--server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start server");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Session {
            child,
            stdin,
            stdout,
        };
        assert_eq!(s.reply(), Ok(vec![]), "start-up");
        s
    }

    /// Lines up to `%%% OK`: the output, or the failure message.
    fn reply(&mut self) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        let mut failed = false;
        loop {
            let mut l = String::new();
            assert!(self.stdout.read_line(&mut l).unwrap() > 0, "server ended");
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

    fn cmd(&mut self, line: &str) -> Result<Vec<String>, String> {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        self.reply()
    }

    fn ok(&mut self, line: &str) -> Vec<String> {
        self.cmd(line)
            .unwrap_or_else(|e| panic!("`{line}` failed: {e}"))
    }

    fn fails(&mut self, line: &str) -> String {
        match self.cmd(line) {
            Err(e) => e,
            Ok(out) => panic!("`{line}` succeeded with {out:?}"),
        }
    }
}

#[test]
fn server_session() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.bin");
    let mut bytes = values::to_binary(&Value::vector(vec![1.0f64, 2.0, 3.0])).unwrap();
    bytes.extend(values::to_binary(&Value::scalar(2i64)).unwrap());
    std::fs::write(&input, bytes).unwrap();
    let input = input.to_str().unwrap();
    let out = dir.path().join("out.bin");
    let out = out.to_str().unwrap();

    let mut s = Session::start();
    assert_eq!(s.ok("inputs index"), vec!["[]f64", "i64"]);
    assert_eq!(s.ok("inputs scale"), vec!["*[]f64", "f64"]);
    assert_eq!(s.ok("outputs swap"), vec!["[]u8", "i32"]);
    assert_eq!(s.ok("outputs scale"), vec!["*[]f64"]);
    assert_eq!(
        s.ok("entry_points"),
        vec!["sum", "index", "scale", "swap", "threads", "bug"]
    );
    assert!(
        s.fails("inputs nope")
            .contains("entry point `nope` not found")
    );

    s.ok(&format!("restore {input} xs []f64 i i64"));
    assert_eq!(s.ok("type xs"), vec!["[]f64"]);
    assert_eq!(s.ok("shape xs"), vec!["3"]);
    let r = s.ok("call index y xs i");
    assert_eq!(r.len(), 1, "{r:?}");
    let us = r[0].strip_prefix("runtime: ").expect("runtime line");
    assert!(us.parse::<u64>().is_ok(), "{r:?}");
    s.ok(&format!("store {out} y xs"));
    assert_eq!(
        values::read_values(&std::fs::read(out).unwrap()).unwrap(),
        vec![Value::scalar(3.0f64), Value::vector(vec![1.0f64, 2.0, 3.0])]
    );

    // Failures leave the server running and the variables as they were.
    assert!(s.fails("call index y xs i").contains("`y` already exists"));
    assert!(
        s.fails("call index z xs")
            .contains("needs 3 variable names")
    );
    assert!(
        s.fails("call index z i xs")
            .contains("parameter 1 has type []f64, but variable `i` has type i64")
    );
    assert!(
        s.fails("call index z xs nope")
            .contains("unknown variable `nope`")
    );
    assert!(s.fails("frobnicate").contains("unknown command"));
    assert!(
        s.fails(&format!("restore {input} a f32"))
            .contains("variable `a` of type f32")
    );
    assert!(
        s.fails("restore /nonexistent/file a f32")
            .contains("cannot open")
    );

    // A run-time error: the message with its location.
    s.ok(&format!("restore {input} ys []f64 j i64"));
    s.ok("free j");
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "9").unwrap();
    s.ok(&format!("restore {} j i64", bad.display()));
    let e = s.fails("call index z ys j");
    assert!(
        e.contains("Index [9] out of bounds") && e.contains("demo.fut:2:46"),
        "{e}"
    );
    assert!(s.fails("type z").contains("unknown variable"));

    // A unique parameter consumes its variable, which may then only be freed.
    s.ok("call scale zs xs y");
    assert!(s.fails("shape xs").contains("consumed"));
    assert!(s.fails(&format!("store {out} xs")).contains("consumed"));
    s.ok("free xs");
    s.ok("rename zs scaled");
    s.ok(&format!("store {out} scaled"));
    assert_eq!(
        values::read_values(&std::fs::read(out).unwrap()).unwrap(),
        vec![Value::vector(vec![3.0f64, 6.0, 9.0])]
    );
    assert!(s.fails("free zs").contains("unknown variable `zs`"));

    // Profiling is off unless asked for; `report` prints the totals.
    s.ok("unpause_profiling");
    s.ok(&format!("restore {input} v []f64 w i64"));
    s.ok("call scale v2 v y");
    s.ok("pause_profiling");
    let report = s.ok("report").join("\n");
    assert!(
        report.starts_with("{\"events\":[{\"name\":\"segmap\",\"duration\":"),
        "{report}"
    );
    assert!(
        report.contains("\"provenance\":\"demo.fut:3:40\",\"details\":{\"calls\":1}}"),
        "{report}"
    );
    s.ok("clear");
    assert_eq!(s.ok("report"), vec!["{\"events\":[],\"memory\":{}}"]);

    let e = s.fails("call bug b");
    assert!(e.contains("internal error in entry point `bug`"), "{e}");
    drop(s.stdin);
    let status = s.child.wait().unwrap();
    assert!(status.success());
}
