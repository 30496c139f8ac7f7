//! The server protocol on sum types beyond single values: entry points whose
//! sum-typed results have no written return type (the type is named by its
//! structure, its values have variants, and they pass to entry points taking
//! that structure), and arrays of sum types (kind `array`, elements taken out
//! with `index`, stored and restored as their components).

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

const ARRAYS: &str = "\
type shape = #circle f64 | #rect f64 f64 | #empty
entry squares (ws: []f64) : []shape = map (\\w -> if w > 0 then #rect w w else #empty) ws
entry areas (ss: []shape) : []f64 =
  map (\\s -> match s case #circle r -> 3.0 * r * r case #rect w h -> w * h case #empty -> 0.0) ss
entry area (s: shape) : f64 = (areas [s])[0]
";

#[test]
fn arrays_of_sums_are_arrays_of_sum_values() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("arrays.fut"), ARRAYS).expect("write");
    let o = fut(d, &["multicore", "arrays.fut", "-o", "arrays"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut input = Vec::new();
    values::write_binary(&Value::vector(vec![2.0f64, -1.0, 3.0]), &mut input).expect("binary");
    std::fs::write(d.join("ws.bin"), input).expect("write");
    // An array of two sums as its components: the variants' numbers (circle,
    // empty), then each variant's payload arrays (circle's radius; rect's
    // width and height).
    let mut comps = Vec::new();
    for v in [
        Value::vector(vec![0i64, 1]),
        Value::vector(vec![1.0f64, 0.0]),
        Value::vector(vec![0.0f64, 0.0]),
        Value::vector(vec![0.0f64, 0.0]),
    ] {
        values::write_binary(&v, &mut comps).expect("binary");
    }
    std::fs::write(d.join("ss.bin"), comps).expect("write");
    let f = |name: &str| format!("\"{}\"", d.join(name).display());
    let commands = format!(
        "outputs squares\nkind []shape\nelemtype []shape\n\
         restore {} ws []f64\ncall squares ss ws\nshape ss\n\
         index s ss 0\nvariant s\nindex e ss 1\nvariant e\ncall area a s\nstore {} a\n\
         call areas as ss\nstore {} as\nstore {} ss\n\
         restore {} mine []shape\ncall areas bs mine\nstore {} bs\n\
         index x ss 3\nzip z []shape ws\n",
        f("ws.bin"),
        f("a.bin"),
        f("as.bin"),
        f("ss_out.bin"),
        f("ss.bin"),
        f("bs.bin"),
    );
    let o = run_with_input(&d.join("arrays"), &["--server"], commands.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("runtime:")).collect();
    let expected = [
        "%%% OK",
        "[]shape",
        "%%% OK",
        "array",
        "%%% OK",
        "shape",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "3",
        "%%% OK",
        "%%% OK",
        "rect",
        "%%% OK",
        "%%% OK",
        "empty",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% OK",
        "%%% FAILURE",
        "index: `3` is not an index of dimension 1 of `ss`, whose shape is [3]",
        "%%% OK",
        "%%% FAILURE",
        "zip: []shape is not an array of records or tuples whose fields are scalars or arrays of primitives",
        "%%% OK",
    ];
    assert_eq!(lines, expected, "{out}");
    assert_eq!(read(d, "a.bin"), vec![Value::scalar(4.0f64)]);
    assert_eq!(
        read(d, "as.bin"),
        vec![Value::vector(vec![4.0f64, 0.0, 9.0])]
    );
    assert_eq!(read(d, "bs.bin"), vec![Value::vector(vec![3.0f64, 0.0])]);
    // The stored array: numbers (rect, empty, rect), then the payloads; the
    // circle's radii are blank, so only the numbers and rectangles are
    // compared.
    let stored = read(d, "ss_out.bin");
    assert_eq!(stored.len(), 4, "{stored:?}");
    assert_eq!(stored[0], Value::vector(vec![2i64, 1, 2]));
    assert_eq!(stored[2].get(&[0]), Some(values::PrimValue::F64(2.0)));
    assert_eq!(stored[3].get(&[2]), Some(values::PrimValue::F64(3.0)));
}

const NESTED: &str = "\
type shape = #circle f64 | #rect f64 f64 | #empty
type opt = #none | #some shape
entry grid (n: i64) : [][]shape =
  tabulate_2d n 2 (\\i j -> if i == j then #circle (f64.i64 i) else if j == 0 then #rect 1 (f64.i64 i) else #empty)
entry areas (g: [][]shape) : [][]f64 =
  map (map (\\s -> match s case #circle r -> r case #rect w h -> w * h case #empty -> 0)) g
entry opts (xs: []f64) : []opt =
  map (\\x -> if x > 0 then #some (#circle x) else if x < 0 then #some (#rect x x) else #none) xs
entry sizes (os: []opt) : []f64 =
  map (\\o -> match o case #some (#circle r) -> r case #some (#rect w h) -> w + h
                      case #some #empty -> 100 case #none -> -1) os
entry size (o: opt) : f64 = (sizes [o])[0]
";

/// `values` written one after another in the binary format.
fn binary(values: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in values {
        values::write_binary(v, &mut out).expect("binary");
    }
    out
}

#[test]
fn arrays_of_sums_of_any_rank_and_sums_of_sums_are_stored_restored_and_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("nested.fut"), NESTED).expect("write");
    let o = fut(d, &["multicore", "nested.fut", "-o", "nested"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let f = |name: &str| format!("\"{}\"", d.join(name).display());
    let put = |name: &str, vs: &[Value]| std::fs::write(d.join(name), binary(vs)).expect("write");
    put("n.bin", &[Value::scalar(3i64)]);
    put("xs.bin", &[Value::vector(vec![2.0f64, -1.0, 0.0])]);
    // A [2][1]shape with a variant number 3 (of 3 variants) at [1][0].
    let grid = |n: Vec<i64>| {
        vec![
            Value::array(vec![2, 1], n).expect("numbers"),
            Value::array(vec![2, 1], vec![1.5f64, 0.0]).expect("radii"),
            Value::array(vec![2, 1], vec![0.0f64, 0.0]).expect("widths"),
            Value::array(vec![2, 1], vec![0.0f64, 0.0]).expect("heights"),
        ]
    };
    put("grid_ok.bin", &grid(vec![0, 1]));
    put("grid_bad.bin", &grid(vec![0, 3]));
    // An opt holding a shape whose number is -1.
    let opt = |inner: i64| {
        vec![
            Value::scalar(1i64),
            Value::scalar(inner),
            Value::scalar(2.0f64),
            Value::scalar(0.0f64),
            Value::scalar(0.0f64),
        ]
    };
    put("opt_ok.bin", &opt(0));
    put("opt_bad.bin", &opt(-1));
    let commands = format!(
        "restore {} n i64\ncall grid g n\nkind [][]shape\nelemtype [][]shape\nshape g\n\
         index e g 2 0\nvariant e\ndestruct e w h\nstore {} w h\n\
         call areas a g\nstore {} a\nstore {} g\n\
         restore {} g2 [][]shape\ncall areas a2 g2\nstore {} a2\n\
         restore {} g3 [][]shape\n\
         restore {} xs []f64\ncall opts os xs\nindex o os 1\nvariant o\ndestruct o s\nvariant s\n\
         store {} os\nrestore {} os2 []opt\ncall sizes z os2\nstore {} z\n\
         restore {} p opt\ncall size q p\nstore {} q\nrestore {} p2 opt\n",
        f("n.bin"),
        f("wh.bin"),
        f("a.bin"),
        f("g.bin"),
        f("grid_ok.bin"),
        f("a2.bin"),
        f("grid_bad.bin"),
        f("xs.bin"),
        f("os.bin"),
        f("os.bin"),
        f("z.bin"),
        f("opt_ok.bin"),
        f("q.bin"),
        f("opt_bad.bin"),
    );
    let o = run_with_input(&d.join("nested"), &["--server"], commands.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("runtime:")).collect();
    let bad_grid = format!(
        "restore {}: variable `g3` of type [][]shape: 3i64 is not a variant number of shape (element [1][0] of the variant numbers): it has 3 variants, numbered from 0",
        d.join("grid_bad.bin").display()
    );
    let bad_opt = format!(
        "restore {}: variable `p2` of type opt: -1i64 is not a variant number of #circle f64 | #empty | #rect f64 f64: it has 3 variants, numbered from 0",
        d.join("opt_bad.bin").display()
    );
    // The greeting, then each command's output and `%%% OK`.
    let mut expected = vec!["%%% OK"; 3];
    expected.extend([
        "array", "%%% OK", "shape", "%%% OK", "3", "2", "%%% OK", "%%% OK",
    ]);
    expected.extend(["rect", "%%% OK"]);
    expected.extend(["%%% OK"; 8]);
    expected.extend(["%%% FAILURE", &bad_grid, "%%% OK"]);
    expected.extend(["%%% OK"; 3]);
    expected.extend(["some", "%%% OK", "%%% OK", "rect", "%%% OK"]);
    expected.extend(["%%% OK"; 7]);
    expected.extend(["%%% FAILURE", &bad_opt, "%%% OK"]);
    assert_eq!(lines, expected, "{out}");
    assert_eq!(
        read(d, "wh.bin"),
        vec![Value::scalar(1.0f64), Value::scalar(2.0f64)]
    );
    let areas = Value::array(vec![3, 2], vec![0.0f64, 0.0, 1.0, 1.0, 2.0, 0.0]).expect("areas");
    assert_eq!(read(d, "a.bin"), vec![areas]);
    // The grid's components: numbers [3][2] (circle 0, rect 2, empty 1),
    // then the radii, widths and heights, each [3][2].
    let g = read(d, "g.bin");
    assert_eq!(g.len(), 4, "{g:?}");
    assert_eq!(
        g[0],
        Value::array(vec![3, 2], vec![0i64, 1, 2, 0, 2, 1]).expect("numbers")
    );
    assert!(g.iter().all(|c| c.shape() == [3, 2]), "{g:?}");
    assert_eq!(
        read(d, "a2.bin"),
        vec![Value::array(vec![2, 1], vec![1.5f64, 0.0]).expect("areas")]
    );
    // An array of opts: the opt numbers, then the shape's numbers and
    // payloads (none holds no payload).
    let os = read(d, "os.bin");
    assert_eq!(os.len(), 5, "{os:?}");
    assert_eq!(os[0], Value::vector(vec![1i64, 1, 0]));
    assert_eq!(os[1].get(&[0]), Some(values::PrimValue::I64(0)));
    assert_eq!(os[1].get(&[1]), Some(values::PrimValue::I64(2)));
    assert_eq!(
        read(d, "z.bin"),
        vec![Value::vector(vec![2.0f64, -2.0, -1.0])]
    );
    assert_eq!(read(d, "q.bin"), vec![Value::scalar(2.0f64)]);
}

/// An array of tuples holding a sum, as an executable's argument: its
/// variant numbers are the variants' in name order, turned into the
/// constructors' tags like those of an array of sums.
#[test]
fn arrays_of_tuples_holding_sums_are_read_by_variant_number() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let program = "\
type shape = #square f64 | #circle f64
def area (s: shape) : f64 = match s
  case #circle r -> 3 * r * r
  case #square a -> a * a
entry weighted (ps: [](shape, f64)) : f64 = f64.sum (map (\\(s, w) -> area s * w) ps)
";
    std::fs::write(d.join("tsum.fut"), program).expect("write");
    let o = fut(d, &["multicore", "tsum.fut", "-o", "tsum"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Variant 0 is #circle, 1 is #square; then each variant's payloads
    // and the weights: circle 1 (area 3) times 2, square 5 (area 25) times 10.
    let input = "[0i64, 1i64] [1.0, 0.0] [0.0, 5.0] [2.0, 10.0]";
    let o = run_with_input(&d.join("tsum"), &["-e", "weighted"], input.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout).trim(), "256.0f64");
}
