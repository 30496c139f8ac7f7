//! End-to-end tests of `fut opencl` executables, their kernels run by the
//! OpenCL device of this machine (PoCL on the CPU in CI): results, a
//! failure inside a kernel, bad input, the server protocol, device choice,
//! reductions over many chunks, and a machine without OpenCL. Skipped, with a message, when no OpenCL
//! platform is installed.

mod support;

use std::path::Path;
use std::process::Command;

use support::{fut, run_with_input, run_with_input_env, text};

const PROG: &str = "\
entry axpy (a: f64) (xs: []f64) (ys: []f64) : []f64 = map2 (\\x y -> a * x + y) xs ys
entry gather (xs: []i32) (is: []i64) : []i32 = map (\\i -> xs[i] / 2) is
entry hist (n: i64) (is: []i64) : []i32 = reduce_by_index (replicate n 0) (+) 0 is (map (const 1) is)
entry sum (xs: []f32) : f32 = f32.sum (map (\\x -> x * x) xs)
entry hash (xs: []i64) : i64 =
  let (h, _) = reduce (\\(h1, p1) (h2, p2) -> (h1 * p2 + h2, p1 * p2)) (0, 1) (map (\\x -> (x, 31)) xs)
  in h
entry sumsq (xs: []i64) : i64 = i64.sum (map (\\x -> x * x) xs)
entry hash_checked (xs: []i64) : i64 =
  let (h, _) = reduce (\\(h1, p1) (h2, p2) -> (h1 * p2 + h2 * (p2 / p2), p1 * p2)) (0, 1) (map (\\x -> (x, 31)) xs)
  in h
entry row_sums (xss: [][]i64) : []i64 = map (\\row -> i64.sum row) xss
entry row_hashes (xss: [][]i64) : ([]i64, []i64) =
  unzip (map (\\row -> reduce (\\(h1, p1) (h2, p2) -> (h1 * p2 + h2, p1 * p2)) (0, 1) (map (\\x -> (x, 31)) row)) xss)
entry prefixes (xs: []i64) : []i64 =
  map (.0) (scan (\\(h1, p1) (h2, p2) -> (h1 * p2 + h2, p1 * p2)) (0, 1) (map (\\x -> (x, 31)) xs))
entry prefixes_checked (xs: []i64) : []i64 =
  map (.0) (scan (\\(h1, p1) (h2, p2) -> (h1 * p2 + h2 * (p2 / p2), p1 * p2)) (0, 1) (map (\\x -> (x, 31)) xs))
entry tr (xss: [][]i32) : [][]i32 = transpose xss
entry tr_each (xsss: [][][]i32) : [][][]i32 = map transpose xsss
entry prefixes_dividing (xs: []i64) : []i64 =
  map (.0) (scan (\\(h1, p1) (h2, p2) -> (h1 * p2 + h2 * (p2 / p2), p1 * p2)) (0, 1) (map (\\x -> (x, x)) xs))
";

/// Whether this machine has an OpenCL platform (else the test says why it
/// is skipped).
fn have_opencl(exe: &Path) -> bool {
    let o = Command::new(exe)
        .arg("--list-devices")
        .output()
        .expect("runs");
    if !o.status.success() {
        eprintln!(
            "skipped: no OpenCL device here ({})",
            text(&o.stderr).trim()
        );
        return false;
    }
    true
}

#[test]
fn kernels_compute_report_failures_and_serve() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("k.fut"), PROG).expect("write");
    let o = fut(d, &["opencl", "k.fut", "-o", "k"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let exe = d.join("k");
    if !have_opencl(&exe) {
        return;
    }
    // A machine without any OpenCL driver: a message, exit 1, no panic.
    let o = Command::new(&exe)
        .args(["-e", "sum"])
        .env("OCL_ICD_VENDORS", d.join("no-such-vendors"))
        .stdin(
            std::fs::File::open({
                std::fs::write(d.join("in.txt"), "[1f32, 2f32]").expect("write");
                d.join("in.txt")
            })
            .expect("open"),
        )
        .output()
        .expect("runs");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("OpenCL"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let run = |args: &[&str], input: &str| run_with_input(&exe, args, input.as_bytes());
    let o = run(&["-e", "axpy"], "2.0 [1.0, 2.0, 3.0] [0.5, 0.5, 0.5]");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "[2.5f64, 4.5f64, 6.5f64]\n");
    // `-P` names each kernel after its operation and source location (here
    // the prelude's `map2`, as on the multicore backend).
    let o = run(&["-e", "axpy", "-P"], "2.0 [1.0] [0.5]");
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("segmap ") && l.contains(".fut:") && l.contains("(k0)")),
        "{err}"
    );
    let o = run(&["-e", "gather"], "[10, 20, 30] [2i64, 0i64]");
    assert_eq!(text(&o.stdout), "[15i32, 5i32]\n", "{}", text(&o.stderr));
    // Every update of the histogram in one bucket but one: atomic adds.
    let is: Vec<String> = (0..1000)
        .map(|i| format!("{}i64", i64::from(i == 7)))
        .collect();
    let o = run(&["-e", "hist"], &format!("3i64 [{}]", is.join(", ")));
    assert_eq!(
        text(&o.stdout),
        "[999i32, 1i32, 0i32]\n",
        "{}",
        text(&o.stderr)
    );
    let xs: Vec<String> = (0..1000).map(|i| format!("{}f32", i % 3)).collect();
    let o = run(&["-e", "sum"], &format!("[{}]", xs.join(", ")));
    assert_eq!(text(&o.stdout), "1665.0f32\n", "{}", text(&o.stderr));

    // An index out of bounds inside a kernel: the message, where, exit 1.
    let o = run(&["-e", "gather"], "[10, 20, 30] [0i64, 5i64]");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("Index [5] out of bounds"), "{err}");
    assert!(err.contains("k.fut:2:"), "{err}");
    // Bad input data: a message, exit 1.
    let o = run(&["-e", "axpy"], "2.0 [1.0, 2.0] [true]");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    // Sizes that differ: the size check, exit 1.
    let o = run(&["-e", "axpy"], "2.0 [1.0, 2.0] [1.0]");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));

    // The server protocol: arrays made by one call passed to the next
    // (they stay on the device in between), then read back.
    let mut input = Vec::new();
    values::write_binary(&values::Value::scalar(2.0f64), &mut input).expect("binary");
    std::fs::write(d.join("a.bin"), &input).expect("write");
    let mut xs = Vec::new();
    values::write_binary(
        &values::read_values(b"[1.0, 2.0, 3.0]").expect("value")[0],
        &mut xs,
    )
    .expect("binary");
    std::fs::write(d.join("xs.bin"), &xs).expect("write");
    let f = |name: &str| format!("\"{}\"", d.join(name).display());
    let commands = format!(
        "restore {} a f64\nrestore {} xs []f64\ncall axpy ys a xs xs\ncall axpy zs a ys xs\nstore {} zs\n",
        f("a.bin"),
        f("xs.bin"),
        f("zs.bin")
    );
    let o = run_with_input(&exe, &["--server"], commands.as_bytes());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let zs = values::read_values(&std::fs::read(d.join("zs.bin")).expect("stored")).expect("v");
    // ys = 3 xs, zs = 2 ys + xs = 7 xs.
    assert_eq!(zs[0].to_string(), "[7.0f64, 14.0f64, 21.0f64]");

    // Tuning parameters through the server: listed, classed and set
    // (`default_threads` then makes the next reduction take rounds).
    let commands = format!(
        "tuning_params axpy\ntuning_param_class default_threads\ntuning_param_class nope\n\
         set_tuning_param nope 3\nset_tuning_param default_threads x\n\
         set_tuning_param default_threads 4096\nrestore {} a f64\nrestore {} xs []f64\n\
         call axpy ys a xs xs\nstore {} ys\n",
        f("a.bin"),
        f("xs.bin"),
        f("ys.bin")
    );
    let o = run_with_input(&exe, &["--server", "-P"], commands.as_bytes());
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        out.contains("default_group_size\ndefault_threads\nk0.group_size\n"),
        "{out}"
    );
    assert!(out.contains("\nthreads\n%%% OK"), "{out}");
    assert_eq!(out.matches("%%% FAILURE").count(), 3, "{out}");
    assert!(out.contains("unknown tuning parameter `nope`"), "{out}");
    assert!(out.contains("unknown tuning parameter nope"), "{out}");
    assert!(out.contains("must be a positive integer"), "{out}");
    let ys = values::read_values(&std::fs::read(d.join("ys.bin")).expect("stored")).expect("v");
    assert_eq!(ys[0].to_string(), "[3.0f64, 6.0f64, 9.0f64]");

    // Device choice.
    let o = run(&["--device", "no-such-device", "-e", "sum"], "[1f32]");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("no-such-device"), "{err}");

    reductions_over_many_chunks_combine_them_in_rounds_in_order(&exe);
    scans_over_many_chunks_scan_their_totals_on_the_device(&exe);
    long_rows_are_reduced_by_groups(&exe);
    histograms_choose_copies_or_atomics(&exe);
    transposes_go_through_tiles(&exe);
    tuning_parameters_are_listed_and_set(&exe, dir.path());
}

/// `--print-params`, `--param` and `--tuning`: `default_threads` sets the
/// chunks of a reduction (over 64 of them need a round on the device),
/// group sizes change nothing but speed, and bad names, values and files
/// are errors.
fn tuning_parameters_are_listed_and_set(exe: &Path, dir: &Path) {
    let o = run_with_input(exe, &["--print-params"], b"");
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listing = text(&o.stdout);
    assert!(
        listing.starts_with("default_group_size (group_size)\ndefault_threads (threads)\nk0.group_size (group_size)\n"),
        "{listing}"
    );
    let xs: Vec<String> = (0..20_000)
        .map(|k| format!("{}i64", (k * 7919) % 1009 - 500))
        .collect();
    let input = format!("[{}]", xs.join(", "));
    let want: i64 = (0..20_000i64)
        .map(|k| (k * 7919) % 1009 - 500)
        .fold(0i64, |h, x| h.wrapping_mul(31).wrapping_add(x));
    let rounds = |args: &[&str]| {
        let mut all = vec!["-e", "hash", "-P"];
        all.extend_from_slice(args);
        let o = run_with_input(exe, &all, input.as_bytes());
        let err = text(&o.stderr);
        assert!(o.status.success(), "{args:?}: {err}");
        assert_eq!(text(&o.stdout), format!("{want}i64\n"), "{args:?}");
        err.lines().any(|l| l.starts_with("segred-round "))
    };
    assert!(rounds(&["--param", "default_threads=4096"]));
    assert!(rounds(&[
        "--param=default_threads=4096",
        "--param",
        "default_group_size=8"
    ]));
    let file = dir.join("prog.tuning");
    std::fs::write(&file, "# chunks\ndefault_threads=4096\n").expect("write");
    let file = file.to_str().expect("a UTF-8 path");
    assert!(rounds(&["--tuning", file]));
    // `--param` overrides the file: 16 chunks need no round.
    assert!(!rounds(&[
        "--tuning",
        file,
        "--param",
        "default_threads=16"
    ]));
    for (args, message) in [
        (
            &["--param", "nope=3"][..],
            "unknown tuning parameter nope (--print-params lists them)",
        ),
        (
            &["--param", "default_threads=-1"],
            "must be a positive integer",
        ),
        (&["--param", "default_threads"], "NAME=VALUE"),
        (
            &["--tuning", "/nonexistent.tuning"],
            "cannot read the tuning file /nonexistent.tuning",
        ),
    ] {
        let o = run_with_input(exe, args, b"");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            text(&o.stderr).contains(message),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

/// `hash` (a polynomial hash: a non-commutative reduction) and `sumsq` (a
/// commutative one) of [`PROG`] over many chunks, combined in rounds.
fn reductions_over_many_chunks_combine_them_in_rounds_in_order(exe: &Path) {
    for n in [0usize, 1, 100, 20_000, 70_000] {
        let xs: Vec<i64> = (0..n as i64).map(|k| (k * 7919) % 1009 - 500).collect();
        let input = format!(
            "[{}]",
            xs.iter()
                .map(|x| format!("{x}i64"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let input = if n == 0 {
            "empty([0]i64)".to_string()
        } else {
            input
        };
        let hash = xs
            .iter()
            .fold(0i64, |h, x| h.wrapping_mul(31).wrapping_add(*x));
        let sumsq: i64 = xs.iter().map(|x| x * x).sum();
        // As many chunks as the device's default (on PoCL 32 per core), and
        // at most 4096 (20000 elements: between 65 and 4096 chunks,
        // combined in one round into at most 64, then on the host).
        // 70000 elements in 65536 chunks or so: over 64 groups of 256 in
        // the first round, so two rounds.
        for env in [
            &[][..],
            &[("FUT_GPU_CHUNKS", "4096")][..],
            &[("FUT_GPU_CHUNKS", "65536")][..],
        ] {
            if (n == 70_000) != (env == [("FUT_GPU_CHUNKS", "65536")]) {
                continue;
            }
            // `hash_checked`'s operator divides: its rounds' group kernels
            // follow the group failure protocol, on the device too.
            for (entry, want) in [("hash", hash), ("sumsq", sumsq), ("hash_checked", hash)] {
                let o = run_with_input_env(exe, &["-e", entry, "-P"], input.as_bytes(), env);
                let err = text(&o.stderr);
                assert!(o.status.success(), "{err}");
                assert_eq!(
                    text(&o.stdout),
                    format!("{want}i64\n"),
                    "{entry}, n = {n}, {env:?}"
                );
                let rounds = err.lines().find(|l| l.starts_with("segred-round "));
                if let Some(l) = rounds {
                    assert!(l.contains("(k"), "{entry}: {err}");
                }
                let calls = rounds.and_then(|l| l.split_whitespace().nth(3));
                if n == 70_000 {
                    assert_eq!(calls, Some("2"), "{entry}: {err}");
                } else if n == 20_000 && !env.is_empty() {
                    assert_eq!(calls, Some("1"), "{entry}: {err}");
                } else if n <= 1 {
                    assert_eq!(calls, None, "{entry}, n = {n}: {err}");
                }
            }
        }
    }
}

/// `prefixes` (the prefixes of a polynomial hash: a non-commutative scan
/// with a tuple operator) of [`PROG`] over up to 65536 chunks, whose
/// totals are scanned on the device by two group loops; `prefixes_checked`'s
/// operator divides, so its group kernels follow the failure protocol.
fn scans_over_many_chunks_scan_their_totals_on_the_device(exe: &Path) {
    for n in [0usize, 1, 300, 70_000] {
        let xs: Vec<i64> = (0..n as i64).map(|k| (k * 7919) % 1009 - 500).collect();
        let input = if n == 0 {
            "empty([0]i64)".to_string()
        } else {
            let xs: Vec<String> = xs.iter().map(|x| format!("{x}i64")).collect();
            format!("[{}]", xs.join(", "))
        };
        let want: Vec<String> = xs
            .iter()
            .scan(0i64, |h, x| {
                *h = h.wrapping_mul(31).wrapping_add(*x);
                Some(format!("{h}i64"))
            })
            .collect();
        let want = if n == 0 {
            "empty([0]i64)\n".to_string()
        } else {
            format!("[{}]\n", want.join(", "))
        };
        // 300 elements in 300 chunks: two groups of totals; 70000 in 65536:
        // 256 groups, one per thread of the second loop.
        let chunks = n.clamp(1, 65_536).to_string();
        let env = [("FUT_GPU_CHUNKS", chunks.as_str())];
        for entry in ["prefixes", "prefixes_checked"] {
            let o = run_with_input_env(exe, &["-e", entry, "-P"], input.as_bytes(), &env);
            let err = text(&o.stderr);
            assert!(o.status.success(), "{entry}, n = {n}: {err}");
            assert!(text(&o.stdout) == want, "{entry}, n = {n}: wrong prefixes");
            for label in ["segscan-groups ", "segscan-totals "] {
                let line = err.lines().find(|l| l.starts_with(label));
                let line = line.unwrap_or_else(|| panic!("{entry}, n = {n}: {err}"));
                // Host loops have no kernel name in their profile line.
                assert!(line.contains("(k"), "{line}");
            }
        }
        // Odd elements keep every product odd, so the operator never
        // divides by zero; one zero makes the totals after it zero, and the
        // scans of the chunks' totals divide by them.
        if n == 70_000 {
            let odd: Vec<i64> = xs.iter().map(|x| 2 * x + 1).collect();
            let mut with_zero = odd.clone();
            with_zero[40_000] = 0;
            for (xs, fails) in [(odd, false), (with_zero, true)] {
                let xs: Vec<String> = xs.iter().map(|x| format!("{x}i64")).collect();
                let input = format!("[{}]", xs.join(", "));
                let o =
                    run_with_input_env(exe, &["-e", "prefixes_dividing"], input.as_bytes(), &env);
                let err = text(&o.stderr);
                assert_eq!(o.status.success(), !fails, "{err}");
                if fails {
                    assert!(err.contains("Division by zero"), "{err}");
                }
            }
        }
    }
}

/// `row_sums` and `row_hashes` (a non-commutative tuple operator) of
/// [`PROG`]: rows of at least 128 elements reduced by a group of threads
/// each (`segred-group` in the profile), shorter ones by one thread.
fn long_rows_are_reduced_by_groups(exe: &Path) {
    for (n, m) in [
        (0usize, 300usize),
        (3, 0),
        (2, 127),
        (3, 128),
        (2, 1000),
        (500, 3),
    ] {
        let xs: Vec<i64> = (0..(n * m) as i64)
            .map(|k| (k * 7919) % 1009 - 500)
            .collect();
        let rows: Vec<String> = xs
            .chunks(m.max(1))
            .map(|r| {
                let r: Vec<String> = r.iter().map(|x| format!("{x}i64")).collect();
                format!("[{}]", r.join(", "))
            })
            .collect();
        let input = if n == 0 || m == 0 {
            format!("empty([{n}][{m}]i64)")
        } else {
            format!("[{}]", rows.join(", "))
        };
        let show = |v: Vec<i64>| {
            if v.is_empty() {
                "empty([0]i64)".to_string()
            } else {
                let v: Vec<String> = v.iter().map(|x| format!("{x}i64")).collect();
                format!("[{}]", v.join(", "))
            }
        };
        let row = |k: usize| &xs[k * m..(k + 1) * m];
        let sums: Vec<i64> = (0..n).map(|k| row(k).iter().sum()).collect();
        let hashes: Vec<i64> = (0..n)
            .map(|k| {
                row(k)
                    .iter()
                    .fold(0i64, |h, x| h.wrapping_mul(31).wrapping_add(*x))
            })
            .collect();
        let powers = vec![31i64.wrapping_pow(m as u32); n];
        for (entry, want) in [
            ("row_sums", format!("{}\n", show(sums))),
            (
                "row_hashes",
                format!("{}\n{}\n", show(hashes), show(powers)),
            ),
        ] {
            let o = run_with_input(exe, &["-e", entry, "-P"], input.as_bytes());
            let err = text(&o.stderr);
            assert!(o.status.success(), "{entry}, {n}x{m}: {err}");
            assert_eq!(text(&o.stdout), want, "{entry}, {n}x{m}");
            let groups = err.lines().any(|l| l.starts_with("segred-group "));
            assert_eq!(groups, m >= 128 && n > 0, "{entry}, {n}x{m}: {err}");
        }
    }
}

/// `tr` and `tr_each` of [`PROG`]: transposed copies of matrices of at
/// least 32 rows and columns move through tiles in local memory
/// (`transpose` in the profile), narrower ones one element per thread
/// (`copy`); a map of transpositions is one batched copy.
fn transposes_go_through_tiles(exe: &Path) {
    for (b, n, m) in [
        (1usize, 40usize, 70usize),
        (1, 3, 50),
        (3, 33, 64),
        (2, 31, 40),
    ] {
        let xs: Vec<i32> = (0..(b * n * m) as i32).collect();
        let show = |v: &[i32], rows: usize, cols: usize| {
            let rows: Vec<String> = v
                .chunks(cols)
                .take(rows)
                .map(|r| {
                    let r: Vec<String> = r.iter().map(|x| format!("{x}i32")).collect();
                    format!("[{}]", r.join(", "))
                })
                .collect();
            format!("[{}]", rows.join(", "))
        };
        let mut ts = vec![0i32; b * n * m];
        for k in 0..b {
            for i in 0..n {
                for j in 0..m {
                    ts[k * n * m + j * n + i] = xs[k * n * m + i * m + j];
                }
            }
        }
        let (entry, input, want) = if b == 1 {
            ("tr", show(&xs, n, m), show(&ts, m, n))
        } else {
            let batch = |v: &[i32], rows, cols| {
                let ms: Vec<String> = v.chunks(n * m).map(|c| show(c, rows, cols)).collect();
                format!("[{}]", ms.join(", "))
            };
            ("tr_each", batch(&xs, n, m), batch(&ts, m, n))
        };
        let o = run_with_input(exe, &["-e", entry, "-P"], input.as_bytes());
        let err = text(&o.stderr);
        assert!(o.status.success(), "{entry} {b}x{n}x{m}: {err}");
        assert_eq!(text(&o.stdout), format!("{want}\n"), "{entry} {b}x{n}x{m}");
        let tiled = err.lines().any(|l| l.starts_with("transpose "));
        assert_eq!(tiled, n >= 32 && m >= 32, "{entry} {b}x{n}x{m}: {err}");
        // The least side for tiles is a tuning parameter: at 2, every
        // matrix here goes through tiles, with the same result.
        let o = run_with_input(exe, &["--print-params"], b"");
        let listing = text(&o.stdout);
        let mut args = vec!["-e".to_string(), entry.to_string(), "-P".to_string()];
        for l in listing.lines() {
            if let Some(name) = l.strip_suffix(" (threshold)")
                && name.starts_with("transpose_threshold_")
            {
                args.push("--param".into());
                args.push(format!("{name}=2"));
            }
        }
        assert!(args.len() > 3, "{listing}");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run_with_input(exe, &args, input.as_bytes());
        let err = text(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert_eq!(text(&o.stdout), format!("{want}\n"), "{entry} {b}x{n}x{m}");
        assert!(err.lines().any(|l| l.starts_with("transpose ")), "{err}");
    }
}

/// `hist` of [`PROG`] (counts): with many updates per bucket each chunk
/// fills its own copy (`seghist`), with few they go to the destination
/// atomically (`seghist-atomic`); out-of-range buckets are ignored.
fn histograms_choose_copies_or_atomics(exe: &Path) {
    for (m, n, atomic) in [(4usize, 50_000usize, false), (2000, 30_000, true)] {
        let is: Vec<i64> = (0..n as i64)
            .map(|k| (k * 7919) % (m as i64 + 6) - 3)
            .collect();
        let mut want = vec![0i32; m];
        for &i in &is {
            if (0..m as i64).contains(&i) {
                want[i as usize] += 1;
            }
        }
        let is: Vec<String> = is.iter().map(|x| format!("{x}i64")).collect();
        let input = format!("{m}i64 [{}]", is.join(", "));
        let want: Vec<String> = want.iter().map(|x| format!("{x}i32")).collect();
        let o = run_with_input(exe, &["-e", "hist", "-P"], input.as_bytes());
        let err = text(&o.stderr);
        assert!(o.status.success(), "{m}, {n}: {err}");
        assert_eq!(text(&o.stdout), format!("[{}]\n", want.join(", ")));
        let used = err.lines().any(|l| l.starts_with("seghist-atomic "));
        assert_eq!(used, atomic, "{m}, {n}: {err}");
    }
}

/// A row reduction reading through a checked index: rows of at least 128
/// elements run as a group kernel with checks, shorter ones one thread per
/// row; either reports an index out of bounds at its source line and
/// exits with failure, and computes the sums when every index is in range.
#[test]
fn row_reductions_with_checks_report_failures_from_group_kernels() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let src = "entry checked (k: i64) (xs: []f64) : []f64 =
  map (\\i -> f64.sum (map (\\j -> xs[i * 7 + j]) (iota k))) (iota 100)
";
    std::fs::write(d.join("r.fut"), src).expect("write");
    let o = fut(d, &["dev", "--print=opencl", "r.fut"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(!out.contains("// host loop"), "{out}");
    assert!(out.contains("par kernel k0 groups of 256"), "{out}");
    assert!(out.contains("// 2 kernels"), "{out}");
    let o = fut(d, &["opencl", "r.fut", "-o", "r"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let exe = d.join("r");
    if !have_opencl(&exe) {
        return;
    }
    for k in [200i64, 50] {
        for len in [100 * 7 + k, 600 + k] {
            let xs: Vec<String> = (0..len).map(|j| format!("{j}.0f64")).collect();
            let input = format!("{k}i64 [{}]", xs.join(", "));
            let o = run_with_input(&exe, &["-e", "checked", "-P"], input.as_bytes());
            let err = text(&o.stderr);
            let groups = err.lines().any(|l| l.starts_with("segred-group "));
            assert_eq!(groups, k >= 128, "{k}, {len}: {err}");
            if len == 100 * 7 + k {
                assert!(o.status.success(), "{k}, {len}: {err}");
                let sums: Vec<String> = (0..100)
                    .map(|i| format!("{}.0f64", (0..k).map(|j| i * 7 + j).sum::<i64>()))
                    .collect();
                assert_eq!(text(&o.stdout), format!("[{}]\n", sums.join(", ")));
            } else {
                assert!(!o.status.success(), "{k}, {len}: {err}");
                assert!(
                    err.contains(&format!("out of bounds for array of shape [{len}]")),
                    "{err}"
                );
                assert!(err.contains("at r.fut:2:"), "{err}");
            }
        }
    }
    // The row width from which a group takes a row is a tuning parameter:
    // raised above 200, rows of 200 go one per thread, with the same sums.
    let o = run_with_input(&exe, &["--print-params"], b"");
    assert!(text(&o.stdout).contains("row_group_threshold_0 (threshold)\n"));
    let xs: Vec<String> = (0..900).map(|j| format!("{j}.0f64")).collect();
    let input = format!("200i64 [{}]", xs.join(", "));
    let mut outs = Vec::new();
    for params in [&[][..], &["--param", "row_group_threshold_0=201"]] {
        let mut args = vec!["-e", "checked", "-P"];
        args.extend_from_slice(params);
        let o = run_with_input(&exe, &args, input.as_bytes());
        let err = text(&o.stderr);
        assert!(o.status.success(), "{params:?}: {err}");
        let groups = err.lines().any(|l| l.starts_with("segred-group "));
        assert_eq!(groups, params.is_empty(), "{params:?}: {err}");
        outs.push(text(&o.stdout));
    }
    assert_eq!(outs[0], outs[1]);
}

#[test]
fn dev_print_opencl_shows_kernels_and_host_loops() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("k.fut"), PROG).expect("write");
    let o = fut(dir.path(), &["dev", "--print=opencl", "k.fut"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("par kernel k0"), "{out}");
    assert!(out.contains("__kernel void k0("), "{out}");
    let o = fut(dir.path(), &["dev", "--print=cuda", "k.fut"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("__kernel void k0("));
    // The adjoint of a gather adds into an accumulator: one atomic
    // addition per update (the hardware's on CUDA), not a compare-and-swap
    // loop in the kernel.
    std::fs::write(
        dir.path().join("g.fut"),
        "entry grad (is: []i64) (xs: []f64) : []f64 =
  vjp (\\xs -> map (\\i -> xs[i] * xs[i]) is) xs (map (const 1) is)\n",
    )
    .expect("write");
    for dialect in ["opencl", "cuda"] {
        let o = fut(dir.path(), &["dev", &format!("--print={dialect}"), "g.fut"]);
        let out = text(&o.stdout);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let kernels = out.split("__kernel void k0(").nth(1).expect("kernels");
        assert!(kernels.contains("futk_addf64(fut_p"), "{out}");
        assert!(!kernels.contains("futk_cas64(fut_p"), "{out}");
    }
}
