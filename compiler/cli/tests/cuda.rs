//! End-to-end tests of `fut cuda`: executables with the kernels compiled
//! ahead of time (a cubin per `--cuda-arch`, and PTX), run on the GPU when
//! this machine has one and its driver, and otherwise saying so without a
//! panic; `fut cuda` without NVRTC, and bad options.
//!
//! `fut cuda` needs NVRTC: `FUT_NVRTC`, else the wheel that
//! `tools/cuda/check.py --fetch-tools` unpacks into `target/cuda-tools/`,
//! else wherever `fut` finds it. Without NVRTC the tests that build are
//! skipped with a message, except on CI (`CI=true`), where they fail.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use support::{run_with_input, text};

const PROG: &str = "\
entry axpy (a: f64) (xs: []f64) (ys: []f64) : []f64 = map2 (\\x y -> a * x + y) xs ys
entry gather (xs: []i32) (is: []i64) : []i32 = map (\\i -> xs[i] / 2) is
entry hist (n: i64) (is: []i64) : []i32 = reduce_by_index (replicate n 0) (+) 0 is (map (const 1) is)
entry sum (xs: []f32) : f32 = f32.sum (map (\\x -> x * x) xs)
";

/// The NVRTC `fut` is given: `FUT_NVRTC` as set, else the unpacked wheel
/// of this workspace when it is there.
fn nvrtc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("FUT_NVRTC") {
        return Some(PathBuf::from(p));
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/cuda-tools/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
    p.is_file().then_some(p)
}

/// Runs `fut args` in `dir` with the NVRTC of [`nvrtc`], and `FUT_CUDA_ARCH`
/// set to `arch_var` (unset: `None`).
fn fut_with(dir: &Path, args: &[&str], arch_var: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fut"));
    c.args(args).current_dir(dir);
    if let Some(p) = nvrtc() {
        c.env("FUT_NVRTC", p);
    }
    match arch_var {
        Some(v) => c.env("FUT_CUDA_ARCH", v),
        None => c.env_remove("FUT_CUDA_ARCH"),
    };
    c.output().expect("fut runs")
}

/// Runs `fut args` in `dir` with the NVRTC of [`nvrtc`].
fn fut(dir: &Path, args: &[&str]) -> Output {
    fut_with(dir, args, None)
}

/// Whether `fut cuda`'s output `o` is a success; `false` (the test is
/// skipped, saying why) when it failed for want of NVRTC, which on CI is a
/// failure. Any other failure fails the test.
fn built(o: &Output) -> bool {
    if o.status.success() {
        return true;
    }
    let err = text(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    if err.contains("NVRTC") && err.contains("pip install nvidia-cuda-nvrtc-cu12") {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "NVRTC is needed on CI (tools/cuda/check.py --fetch-tools): {err}"
        );
        eprintln!("skipped: no NVRTC here ({})", err.trim());
        return false;
    }
    panic!("fut cuda failed: {err}");
}

/// The architectures of the CUDA cubins (ELF files for `EM_CUDA`)
/// embedded in `bytes`, from their `e_flags` (`0x5a` for sm_90).
fn cubins(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = 1;
    while let Some(k) = bytes[at..].windows(4).position(|w| w == b"\x7fELF") {
        let i = at + k;
        if let Some(h) = bytes.get(i..i + 64) {
            let machine = u16::from_le_bytes([h[18], h[19]]);
            let flags = u32::from_le_bytes([h[48], h[49], h[50], h[51]]);
            if machine == 190 {
                out.push(flags & 0xff);
            }
        }
        at = i + 4;
    }
    out
}

fn contains(bytes: &[u8], needle: &[u8]) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle)
}

/// Whether the CUDA driver is installed (`ldconfig -p` lists
/// `libcuda.so.1`).
fn have_driver() -> bool {
    Command::new("ldconfig")
        .arg("-p")
        .output()
        .is_ok_and(|o| text(&o.stdout).contains("libcuda.so.1"))
}

#[test]
fn executables_embed_cubins_and_run_or_say_why_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("k.fut"), PROG).expect("write");
    let o = fut(d, &["cuda", "k.fut", "-o", "k"]);
    if !built(&o) {
        return;
    }
    let exe = d.join("k");
    let bytes = std::fs::read(&exe).expect("the executable");
    // The default architectures: cubins for sm_90 and sm_80, PTX for
    // compute_80.
    let mut archs = cubins(&bytes);
    archs.sort();
    assert_eq!(archs, [80, 90]);
    assert!(contains(&bytes, b".target sm_80"));
    assert!(!contains(&bytes, b".target sm_90"));

    let run = |args: &[&str], input: &str| run_with_input(&exe, args, input.as_bytes());
    let devices = Command::new(&exe)
        .arg("--list-devices")
        .output()
        .expect("runs");
    if !devices.status.success() {
        // No GPU to run on: every run says so, exit 1, no panic.
        let why = text(&devices.stderr);
        assert_eq!(devices.status.code(), Some(1), "{why}");
        assert!(!why.contains("panicked"), "{why}");
        let o = run(&["-e", "axpy"], "2.0 [1.0, 2.0, 3.0] [0.5, 0.5, 0.5]");
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        if have_driver() {
            eprintln!("skipped the runs: the CUDA driver finds no device ({why})");
        } else {
            assert!(err.contains("no CUDA driver"), "{err}");
            eprintln!("skipped the runs: no CUDA driver here");
        }
        return;
    }
    let o = run(&["-e", "axpy"], "2.0 [1.0, 2.0, 3.0] [0.5, 0.5, 0.5]");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "[2.5f64, 4.5f64, 6.5f64]\n");
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
}

#[test]
fn cuda_arch_chooses_the_cubins_and_the_ptx() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("k.fut"), PROG).expect("write");
    let o = fut(d, &["cuda", "k.fut", "-o", "k", "--cuda-arch", "sm_86"]);
    if !built(&o) {
        return;
    }
    let bytes = std::fs::read(d.join("k")).expect("the executable");
    assert_eq!(cubins(&bytes), [86]);
    assert!(contains(&bytes, b".target sm_86"));
    // FUT_CUDA_ARCH when there is no --cuda-arch.
    let o = fut_with(d, &["cuda", "k.fut", "-o", "k75"], Some("sm_75"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(cubins(&std::fs::read(d.join("k75")).expect("exe")), [75]);
    // A program without kernels needs nothing compiled.
    std::fs::write(d.join("s.fut"), "entry main (x: i64) : i64 = x + 1\n").expect("write");
    let o = fut(d, &["cuda", "s.fut"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(cubins(&std::fs::read(d.join("s")).expect("the executable")).is_empty());
}

#[test]
fn without_nvrtc_fut_cuda_says_how_to_get_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("k.fut"), PROG).expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_fut"))
        .args(["cuda", "k.fut"])
        .current_dir(d)
        .env("FUT_NVRTC", d.join("no-such-libnvrtc.so.12"))
        .env("LD_LIBRARY_PATH", "")
        .output()
        .expect("fut runs");
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("FUT_NVRTC="), "{err}");
    assert!(err.contains("no-such-libnvrtc.so.12"), "{err}");
    assert!(err.contains("pip install nvidia-cuda-nvrtc-cu12"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!d.join("k").exists());
}

#[test]
fn bad_options_are_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join("k.fut"), PROG).expect("write");
    for bad in ["sm9", "sm_9", "compute_80", "sm_90,x", ""] {
        let o = fut(d, &["cuda", "k.fut", "--cuda-arch", bad]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("--cuda-arch"), "{err}");
    }
    let o = fut(
        d,
        &["test", "--backend=cuda", "--cuda-arch", "sm_8", "k.fut"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let o = fut_with(d, &["cuda", "k.fut"], Some("sm9"));
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("FUT_CUDA_ARCH: `sm9` is not a CUDA architecture"),
        "{err}"
    );
    // A library crate is compiled by its user's cargo, for their CPU.
    let o = fut(d, &["cuda", "--library", "--target-cpu", "x86-64", "k.fut"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("--target-cpu applies to executables"), "{err}");
    assert!(!d.join("k").exists());
}

#[test]
fn fut_test_and_bench_run_on_the_cuda_backend() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(
        d.join("t.fut"),
        "-- ==\n-- input { [1.0f32, 2.0f32] } output { 5.0f32 }\nentry main (xs: []f32) : f32 = f32.sum (map (\\x -> x * x) xs)\n",
    )
    .expect("write");
    // Built as `fut cuda` builds, for one architecture: the test passes on
    // a GPU, and elsewhere fails with the runtime's message.
    let o = fut(d, &["cuda", "t.fut", "--cuda-arch", "sm_90"]);
    if !built(&o) {
        return;
    }
    let gpu = Command::new(d.join("t"))
        .arg("--list-devices")
        .output()
        .expect("runs")
        .status
        .success();
    let o = fut(
        d,
        &["test", "--backend=cuda", "--cuda-arch", "sm_90", "t.fut"],
    );
    let out = text(&o.stdout);
    let err = text(&o.stderr);
    assert!(
        !err.contains("panicked") && !out.contains("panicked"),
        "{out}{err}"
    );
    if gpu {
        assert!(o.status.success(), "{out}{err}");
        assert!(out.contains("1 passed, 0 failed"), "{out}");
    } else {
        assert_eq!(o.status.code(), Some(1), "{out}{err}");
        assert!(out.contains("0 passed, 1 failed"), "{out}");
        assert!(out.contains("CUDA"), "{out}");
    }
    let o = fut(
        d,
        &[
            "bench",
            "--backend=cuda",
            "--cuda-arch",
            "sm_90",
            "-r",
            "1",
            "t.fut",
        ],
    );
    let out = text(&o.stdout);
    let err = text(&o.stderr);
    assert!(!err.contains("panicked"), "{out}{err}");
    assert_eq!(o.status.success(), gpu, "{out}{err}");
}

/// `fut cuda --library`: a crate with the typed API over the CUDA runtime,
/// its kernels compiled ahead of time. A program using it builds; it runs
/// on the GPU where there is one, and elsewhere `Context::new()` is an
/// `Err` saying why (no panic).
#[test]
fn cuda_library_crates_embed_their_kernels_and_build() {
    let root = driver::multicore::cache_dir().join("library-test");
    std::fs::create_dir_all(&root).expect("mkdir");
    std::fs::write(root.join("kcuda.fut"), PROG).expect("write");
    let o = fut(
        &root,
        &["cuda", "--library", "kcuda.fut", "-o", "cuda-kcuda"],
    );
    if !built(&o) {
        return;
    }
    let lib = root.join("cuda-kcuda");
    let manifest = std::fs::read_to_string(lib.join("Cargo.toml")).expect("manifest");
    assert!(
        manifest.contains("fut-runtime-cuda = { path = \"runtime/fut-runtime-cuda\" }"),
        "{manifest}"
    );
    let program = std::fs::read_to_string(lib.join("src/program.rs")).expect("program.rs");
    assert!(program.contains("KERNEL_BINARIES"), "{program}");
    assert!(program.contains("fut_runtime_cuda::launch"), "{program}");

    let app = root.join("fut-library-cuda-app");
    std::fs::create_dir_all(app.join("src")).expect("mkdir");
    std::fs::write(
        app.join("Cargo.toml"),
        "[package]\nname = \"fut-library-cuda-app\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nkcuda = { path = \"../cuda-kcuda\" }\n\n\
         [profile.release]\nopt-level = 1\ndebug = false\nincremental = false\ncodegen-units = 16\n\n[workspace]\n",
    )
    .expect("write");
    std::fs::write(
        app.join("src/main.rs"),
        r#"fn main() {
    match kcuda::Context::new() {
        Err(e) => println!("no device: {}", e.message),
        Ok(ctx) => {
            let xs = kcuda::Array::from_vec(vec![1.0, 2.0, 3.0], [3]).unwrap();
            let ys = kcuda::Array::from_vec(vec![0.5; 3], [3]).unwrap();
            println!("axpy {:?}", ctx.axpy(2.0, &xs, &ys).unwrap().to_vec());
            let e = ctx.gather(&kcuda::Array::from_vec(vec![10, 20], [2]).unwrap(),
                               &kcuda::Array::from_vec(vec![0i64, 5], [2]).unwrap());
            println!("gather {:?}", e.map(|a| a.to_vec()).map_err(|e| e.message));
        }
    }
}
"#,
    )
    .expect("write");
    if !app.join("Cargo.lock").exists() {
        std::fs::copy(lib.join("Cargo.lock"), app.join("Cargo.lock")).expect("lock");
    }
    let target = driver::multicore::cache_dir().join("target");
    let out = support::cargo_build(&app.join("Cargo.toml"), &target);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run = Command::new(target.join("release/fut-library-cuda-app"))
        .output()
        .expect("runs");
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", text(&run.stderr));
    if let Some(why) = stdout.strip_prefix("no device: ") {
        assert!(have_driver() || why.contains("no CUDA driver"), "{stdout}");
        eprintln!("skipped the calls: {}", why.trim());
        return;
    }
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "axpy [2.5, 4.5, 6.5]", "{stdout}");
    assert!(
        lines[1].contains("Index [5] out of bounds") && lines[1].contains("kcuda.fut:2:"),
        "{stdout}"
    );
}
