//! FutharkScript over a compiled program's server: the opaque values a
//! script passes between entry points stay in the server as variables
//! (`driver::script::server`), on `tests/script/records.fut` and
//! `tests/script/sums.fut` compiled with `fut multicore`.

mod support;

use std::io::BufReader;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;

use driver::script::eval::{Env, eval, run_entry};
use driver::script::server::ServerBackend;
use driver::script::{ScriptError, Val, parse};
use support::{fut, text};
use values::Value;

/// Compiles `tests/script/NAME.fut` into `dir`, starts its server and runs
/// `check` with a backend on it and the program's entry points.
fn with_server(name: &str, check: &dyn Fn(&mut ServerBackend, &Env)) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let file = format!("{name}.fut");
    std::fs::copy(repo.join("tests/script").join(&file), d.join(&file)).expect("copy");
    let o = fut(d, &["multicore", &file, "-o", name]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let db = driver::Database::new(Arc::new(driver::OsSystem));
    let program = driver::load_program(&db, &d.join(&file)).expect("program");
    let mut child = Command::new(d.join(name))
        .arg("--server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("server");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    {
        let mut backend = ServerBackend::new(&mut input, &mut output, d.to_path_buf());
        backend.startup().expect("start-up");
        let read_file = |f: &str| std::fs::read(d.join(f)).map_err(|e| e.to_string());
        let env = Env {
            entries: program.entry_points(),
            read_file: &read_file,
        };
        check(&mut backend, &env);
    }
    drop(input);
    assert!(child.wait().expect("server ends").success());
}

/// Runs `script` and then the entry `name` on its value.
fn try_run(
    backend: &mut ServerBackend,
    env: &Env,
    script: &str,
    name: &str,
) -> Result<Vec<Value>, ScriptError> {
    let expr = parse(script).expect("script parses");
    let entry = env
        .entries
        .iter()
        .find(|e| e.name == name)
        .expect("entry point");
    run_entry(env, backend, &expr, entry)
}

fn run(backend: &mut ServerBackend, env: &Env, script: &str, name: &str) -> Vec<Value> {
    try_run(backend, env, script, name).unwrap_or_else(|e| panic!("{script}: {e}"))
}

#[test]
fn records_and_sums_stay_in_the_server() {
    with_server("records", &|backend, env| {
        let f = |x: f64| vec![Value::scalar(x)];
        assert_eq!(run(backend, env, "mk 3.0 4.0", "norm2"), f(25.0));
        assert_eq!(
            run(backend, env, "shift (mk 1.0 2.0) 1.0", "norm2"),
            f(13.0)
        );
        // Records written in the script are built with `new`.
        assert_eq!(run(backend, env, "{y = 3.0, x = 1.0}", "norm2"), f(10.0));
        assert_eq!(
            run(backend, env, "(mk 0.0 0.0, mk 3.0 4.0)", "dist2"),
            f(25.0)
        );
        assert_eq!(run(backend, env, "points [1, 2] [3, 4]", "total"), f(11.0));
        // An opaque result is a server variable.
        let expr = parse("mk 1.0 2.0").expect("parses");
        match eval(env, backend, &expr) {
            Ok(Val::Opaque(var, ty)) => {
                assert!(var.starts_with("script_v"), "{var}");
                assert_eq!(ty, "point = {x: f64, y: f64}");
                let fields = backend
                    .command(&["type".into(), var.clone()])
                    .expect("type");
                assert_eq!(fields, vec!["point"]);
            }
            other => panic!("{other:?}"),
        }
        // A run-time error of an entry is the server's failure message.
        match try_run(backend, env, "points [1.0] [1.0, 2.0]", "total") {
            Err(ScriptError::Runtime(e)) => assert!(!e.message.is_empty()),
            other => panic!("{other:?}"),
        }
    });
    with_server("sums", &|backend, env| {
        let f = |x: f64| vec![Value::scalar(x)];
        assert_eq!(run(backend, env, "square 2.0", "area"), f(4.0));
        // The server tells a named type from its structure: the result of an
        // entry without a written return type does not pass for a `shape`.
        match try_run(backend, env, "circle_untyped 2.0", "area") {
            Err(ScriptError::Runtime(e)) => assert!(
                e.message
                    .starts_with("call area: parameter 1 has type shape, but variable `script_v")
                    && e.message
                        .ends_with("` has type #circle f64 | #empty | #rect f64 f64"),
                "{}",
                e.message
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            run(backend, env, "(square 3.0, 2i32)", "describe"),
            vec![Value::scalar(2i32), Value::scalar(18.0f64)]
        );
    });
}
