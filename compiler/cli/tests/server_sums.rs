//! The server protocol on entry points whose sum-typed results have no
//! written return type: the type is named by its structure, its values have
//! variants, and they pass to entry points taking that structure.

mod support;

use std::path::Path;

use support::{fut, run_with_input, text};
use values::Value;

const PROGRAM: &str = "\
type shape = #circle f64 | #rect f64 f64 | #empty
entry circle_untyped (r: f64) = #circle r : shape
entry both (r: f64) = (#rect r r : shape, r)
entry wrap (x: f64) = #only x
entry unwrap (v: #only f64) : f64 = match v case #only x -> x
entry area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
  case #empty -> 0.0
";

const SHAPE: &str = "#circle f64 | #empty | #rect f64 f64";

fn read(dir: &Path, file: &str) -> Vec<Value> {
    values::read_values(&std::fs::read(dir.join(file)).expect("stored file")).expect("values")
}

#[test]
fn untyped_sum_results_are_served_by_their_structure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("sums.fut"), PROGRAM).expect("write");
    let o = fut(d, &["multicore", "sums.fut", "-o", "sums"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut input = Vec::new();
    values::write_binary(&Value::scalar(2.5f64), &mut input).expect("binary");
    std::fs::write(d.join("r.bin"), input).expect("write");

    // The server runs elsewhere: files are named by their full paths.
    let f = |name: &str| format!("\"{}\"", d.join(name).display());
    let commands = format!(
        "outputs circle_untyped\noutputs both\nkind \"{SHAPE}\"\nvariants \"{SHAPE}\"\n\
         restore {} r f64\ncall circle_untyped c r\nvariant c\ndestruct c x\nstore {} x\n\
         call both b k r\nvariant b\nstore {} b\n\
         call wrap w r\ntype w\ncall unwrap u w\nstore {} u\n\
         call area a c\n",
        f("r.bin"),
        f("x.bin"),
        f("b.bin"),
        f("u.bin")
    );
    let o = run_with_input(&d.join("sums"), &["--server"], commands.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    // `runtime:` lines vary; everything else is checked.
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("runtime:")).collect();
    let expected = [
        "%%% OK",
        SHAPE,
        "%%% OK",
        SHAPE,
        "f64",
        "%%% OK",
        "sum",
        "%%% OK",
        "circle",
        "- f64",
        "empty",
        "rect",
        "- f64",
        "- f64",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "circle",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "rect",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "#only f64",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% FAILURE",
        &format!("call area: parameter 1 has type shape, but variable `c` has type {SHAPE}"),
        "%%% OK",
    ];
    assert_eq!(lines, expected, "{out}");
    assert_eq!(read(d, "x.bin"), vec![Value::scalar(2.5f64)]);
    assert_eq!(read(d, "u.bin"), vec![Value::scalar(2.5f64)]);
    // A sum's components: its variant's number, then every variant's
    // payload (blank for those it does not hold).
    assert_eq!(
        read(d, "b.bin"),
        vec![
            Value::scalar(2i64),
            Value::scalar(0.0f64),
            Value::scalar(2.5f64),
            Value::scalar(2.5f64)
        ]
    );
}
