//! The runtime without a CUDA driver (an error message, never a panic),
//! and kernels launched on a CUDA device where there is one.
//!
//! Without `libcuda.so.1` (CI's machines), every use of the device must
//! say so, in this process and in child processes. With a driver and a
//! device, the kernels below (CUDA C++, following the ABI of `launch`)
//! are compiled by NVRTC at run time; a test that needs a device or
//! NVRTC checks first and, without it, prints why it is skipped and
//! passes. The runtime's cache is kept in the target directory
//! (`FUT_CACHE_DIR`, unless set).

// `std::env::set_var` is unsafe: it is called once, before any test
// reads the environment or starts CUDA; so is cudarc's check for the
// driver.
#![allow(unsafe_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::Once;

use fut_runtime_cuda::mem::{DevArg, Mem, Residency, copy_view, mem_arr, par_for};
use fut_runtime_cuda::{AssertInfo, Binary, KernelInfo, KernelProgram, launch};
use fut_runtime_multicore::arr::R;
use values::{PrimValue, f16};

/// The kernels of the tests, following the ABI of `launch`.
const SOURCE: &str = r#"
#define GID ((long long)blockIdx.x * blockDim.x + threadIdx.x)

extern "C" __global__ void axpy(long long *fut_fail, long long fut_n, long long size_0,
                                float a, const float *xs, float *ys) {
  long long i = GID;
  if (i >= fut_n) return;
  ys[i] = xs[i] * a + (float)i;
}

extern "C" __global__ void mixed(long long *fut_fail, long long fut_n, long long size_0,
                                 long long size_1, signed char c, unsigned short h,
                                 unsigned char flag, unsigned long long big, double d, int k,
                                 const unsigned char *bs_in, unsigned char *bs,
                                 unsigned short *hs, long long *out) {
  long long g = GID;
  if (g >= fut_n) return;
  long long i = g / size_1, j = g % size_1;
  out[g] = i * 1000 + j + c + (flag ? (long long)big : 0) + (long long)d + k;
  bs[g] = (bs_in[g] != 0) != (g % 2 == 0);
  hs[g] = h;
}

extern "C" __global__ void check(long long *fut_fail, long long fut_n, long long size_0,
                                 long long bound, const long long *is, long long *out) {
  long long g = GID;
  if (g >= fut_n) return;
  long long i = is[g];
  if (i < 0 || i >= bound) {
    if (atomicCAS((unsigned int *)fut_fail, 0u, 1u) == 0u) {
      fut_fail[1] = i;
      fut_fail[2] = bound;
    }
    return;
  }
  out[g] = i * 2;
}

extern "C" __global__ void flags(long long *fut_fail, long long fut_n, long long size_0,
                                 float x, unsigned char b, long long *out) {
  long long g = GID;
  if (g >= fut_n) return;
  if (g == 3) {
    if (atomicCAS((unsigned int *)fut_fail, 0u, 2u) == 0u) {
      fut_fail[1] = (long long)__float_as_uint(x);
      fut_fail[2] = b;
      fut_fail[3] = -5;
    }
    return;
  }
  out[g] = g;
}
"#;

static CHECK_ASSERTS: &[AssertInfo] = &[AssertInfo {
    msg: "Index [{}] out of bounds for array of shape [{}].",
    span: (1, 20, 30),
    args: &["i64", "i64"],
}];

static FLAG_ASSERTS: &[AssertInfo] = &[
    AssertInfo {
        msg: "never",
        span: (0, 0, 0),
        args: &[],
    },
    AssertInfo {
        msg: "x = {}, b = {}, k = {}",
        span: (2, 5, 9),
        args: &["f32", "bool", "i8"],
    },
];

static KERNELS: &[KernelInfo] = &[
    KernelInfo {
        name: "axpy",
        label: "",
        group: 0,
        asserts: &[],
    },
    KernelInfo {
        name: "mixed",
        label: "",
        group: 0,
        asserts: &[],
    },
    KernelInfo {
        name: "check",
        label: "",
        group: 0,
        asserts: CHECK_ASSERTS,
    },
    KernelInfo {
        name: "flags",
        label: "",
        group: 0,
        asserts: FLAG_ASSERTS,
    },
];

static PROG: KernelProgram = KernelProgram {
    source: SOURCE,
    kernels: KERNELS,
    binaries: &[],
    thresholds: &[],
};

const AXPY: usize = 0;
const MIX: usize = 1;
const CHECK: usize = 2;
const FLAGS: usize = 3;

/// The target directory (of `CARGO_TARGET_DIR`, else of this executable:
/// `target/debug/deps/no_driver-…`).
fn target_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("CARGO_TARGET_DIR") {
        return PathBuf::from(d);
    }
    let exe = std::env::current_exe().expect("the test executable's path");
    exe.ancestors()
        .nth(3)
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
}

static SETUP: Once = Once::new();

/// Keeps the runtime's cache in the target directory.
fn setup() {
    SETUP.call_once(|| {
        // SAFETY: the first thing every test does, before anything reads
        // the environment; `Once` makes the others wait.
        unsafe {
            if std::env::var_os("FUT_CACHE_DIR").is_none() {
                std::env::set_var("FUT_CACHE_DIR", target_dir().join("fut-test-cache"));
            }
        }
    });
}

/// Whether cudarc finds the driver's library.
fn driver_present() -> bool {
    // SAFETY: tries to load the library by name, and unloads it.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// Whether a device is there, and NVRTC to compile the kernels; says why
/// the test is skipped otherwise.
fn device(test: &str) -> bool {
    setup();
    if let Err(e) = fut_runtime_cuda::ensure_device() {
        println!("{test}: skipped, no CUDA device: {e}");
        return false;
    }
    if let Err(e) = fut_runtime_cuda::nvrtc::load() {
        println!("{test}: skipped, no NVRTC to compile the test's kernels: {e}");
        return false;
    }
    true
}

/// The device's compute capability.
fn arch() -> (u32, u32) {
    fut_runtime_cuda::device::context().unwrap().arch
}

fn axpy_in(prog: &'static KernelProgram, a: f32, xs: &Mem<f32>, ys: &Mem<f32>) -> R<()> {
    let n = xs.len() as i64;
    launch(
        prog,
        AXPY,
        &[n],
        &[PrimValue::F32(a)],
        &[xs, ys],
        &[false, true],
    )
}

fn axpy(a: f32, xs: &Mem<f32>, ys: &Mem<f32>) -> R<()> {
    axpy_in(&PROG, a, xs, ys)
}

#[test]
fn without_a_driver_every_use_says_so() {
    setup();
    let ensure = fut_runtime_cuda::ensure_device();
    if driver_present() {
        println!("without_a_driver_every_use_says_so: the driver is here: {ensure:?}");
        return;
    }
    let msg = ensure.unwrap_err();
    assert!(
        msg.starts_with("no CUDA driver found (libcuda.so.1)"),
        "{msg}"
    );
    assert_eq!(fut_runtime_cuda::ensure_device(), Err(msg.clone()));
    assert_eq!(fut_runtime_cuda::list_devices(), Err(msg.clone()));
    // Host blocks work; a launch fails with the reason, at no location.
    let xs = Mem::from_vec(vec![1.0f32; 4]);
    let ys = Mem::<f32>::alloc(4, (0, 0, 0)).unwrap();
    let e = axpy(1.0, &xs, &ys).unwrap_err();
    assert_eq!((e.message.as_str(), e.span), (msg.as_str(), (0, 0, 0)));
    assert_eq!(ys.residency(), Residency::Zeros);
    ys.set(1, 2.0);
    assert_eq!(ys.get(1), 2.0);
    // An empty iteration space launches nothing, so needs no device.
    launch(
        &PROG,
        AXPY,
        &[0],
        &[PrimValue::F32(0.0)],
        &[&xs, &ys],
        &[false, true],
    )
    .unwrap();
}

/// What a child process runs, by `FUT_CUDA_TEST_CHILD`; a no-op
/// otherwise. It prints its findings on standard output.
#[test]
fn child() {
    let Ok(mode) = std::env::var("FUT_CUDA_TEST_CHILD") else {
        return;
    };
    // The harness has printed `test child ... ` on this line.
    println!();
    match mode.as_str() {
        "context" => {
            println!("ENSURE: {:?}", fut_runtime_cuda::ensure_device());
            println!("LIST: {:?}", fut_runtime_cuda::list_devices());
            let xs = Mem::from_vec(vec![1.0f32; 4]);
            let ys = Mem::<f32>::alloc(4, (0, 0, 0)).unwrap();
            match axpy(1.0, &xs, &ys) {
                Ok(()) => println!("LAUNCH: ok {}", ys.get(3)),
                Err(e) => println!("LAUNCH: {:?} at {:?}", e.message, e.span),
            }
            static P: fut_runtime_multicore::Program = fut_runtime_multicore::Program {
                name: "prog",
                entries: &[],
            };
            let status = fut_runtime_gpu::cli::run(
                &fut_runtime_cuda::cli::API,
                &P,
                &PROG,
                vec!["--list-devices".into()],
            );
            println!("STATUS: {status}");
        }
        "cache" => {
            let xs = Mem::from_vec(vec![2.0f32; 4]);
            let ys = Mem::<f32>::alloc(4, (0, 0, 0)).unwrap();
            axpy(3.0, &xs, &ys).unwrap();
            println!("VALUE: {}", ys.get(3));
            println!("BUILDS: {:?}", fut_runtime_cuda::program::build_counts());
        }
        "mismatch" => {
            let gpu = fut_runtime_cuda::device::context().unwrap();
            if gpu.driver_version < 12040 {
                // The driver cannot list a kernel's parameters: a wrong
                // launch would run with garbage.
                println!("SKIP: driver {}", gpu.driver_version);
                return;
            }
            let out = Mem::<i64>::alloc(4, (0, 0, 0)).unwrap();
            let e = launch(&PROG, MIX, &[2, 2], &[PrimValue::I8(1)], &[&out], &[true]);
            println!("MISMATCH: {:?}", e.map_err(|e| e.message));
            let e = launch(
                &PROG,
                AXPY,
                &[4],
                &[PrimValue::F64(1.0)],
                &[&out, &out],
                &[false, true],
            );
            println!("SIZE: {:?}", e.map_err(|e| e.message));
        }
        m => panic!("unknown child mode {m}"),
    }
}

/// Runs the `child` test in a child process with `env`: its standard
/// output and error.
fn run_child(mode: &str, env: &[(&str, &str)]) -> (String, String) {
    setup();
    let exe = std::env::current_exe().unwrap();
    let mut cmd = Command::new(exe);
    cmd.args(["child", "--exact", "--nocapture", "--test-threads=1"])
        .env("FUT_CUDA_TEST_CHILD", mode);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the child process runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "the child failed:\n{stdout}\n{stderr}"
    );
    (stdout, stderr)
}

/// The line of `out` that starts with `key`, or "".
fn line(out: &str, key: &str) -> String {
    out.lines()
        .find(|l| l.starts_with(key))
        .unwrap_or("")
        .to_string()
}

#[test]
fn the_context_in_a_child_process_without_or_with_a_driver() {
    let (out, err) = run_child("context", &[]);
    if !driver_present() {
        let missing = |s: &str| s.contains("no CUDA driver found (libcuda.so.1)");
        assert!(missing(&line(&out, "ENSURE: Err(")), "{out}");
        assert!(missing(&line(&out, "LIST: Err(")), "{out}");
        let launch = line(&out, "LAUNCH: ");
        assert!(
            missing(&launch) && launch.ends_with("at (0, 0, 0)"),
            "{out}"
        );
        assert_eq!(line(&out, "STATUS: "), "STATUS: 1", "{out}");
        assert!(err.contains("Error: no CUDA driver found"), "{err}");
        return;
    }
    println!("{out}");
    if line(&out, "ENSURE: ") != "ENSURE: Ok(())" {
        // A driver without a device.
        assert!(out.contains("no CUDA device found"), "{out}");
        assert_eq!(line(&out, "STATUS: "), "STATUS: 1", "{out}");
        return;
    }
    assert!(
        line(&out, "LIST: Ok(\"0: CUDA: ").contains("(GPU, sm_"),
        "{out}"
    );
    assert_eq!(line(&out, "STATUS: "), "STATUS: 0", "{out}");
    let launch = line(&out, "LAUNCH: ");
    match fut_runtime_cuda::nvrtc::load() {
        Ok(()) => assert_eq!(launch, "LAUNCH: ok 4", "{out}"),
        Err(_) => assert!(launch.contains("install NVRTC"), "{out}"),
    }
}

/// The elements of a block, read on the host.
fn host<T: fut_runtime_multicore::arr::Elem>(m: &Mem<T>) -> Vec<T> {
    (0..m.len() as i64).map(|i| m.get(i)).collect()
}

/// What `axpy(a, xs, _)` leaves in its result.
fn axpy_of(a: f32, xs: &[f32]) -> Vec<f32> {
    xs.iter()
        .enumerate()
        .map(|(i, x)| x * a + i as f32)
        .collect()
}

#[test]
fn blocks_stay_coherent_between_host_and_device() {
    if !device("blocks_stay_coherent_between_host_and_device") {
        return;
    }
    let mut x: Vec<f32> = (0..777).map(|i| (i % 13) as f32 - 6.0).collect();
    let xs = Mem::from_vec(x.clone());
    let ys = Mem::<f32>::alloc(777, (0, 0, 0)).unwrap();
    // Host to device (an upload, and zeros filled on the device), device
    // to host (one download, after which both copies are valid).
    axpy(-1.5, &xs, &ys).unwrap();
    assert_eq!(
        (xs.residency(), ys.residency()),
        (Residency::Both, Residency::Device)
    );
    assert_eq!(host(&ys), axpy_of(-1.5, &x));
    assert_eq!(ys.residency(), Residency::Both);
    // The host's writes reach the next kernel, and the kernel's the host.
    for i in [0, 400, 776] {
        x[i] = 1000.0 + i as f32;
        xs.set(i as i64, x[i]);
    }
    assert_eq!(xs.residency(), Residency::Host);
    axpy(0.5, &xs, &ys).unwrap();
    assert_eq!(host(&ys), axpy_of(0.5, &x));
    // Rayon's worker threads, on which the context is not yet current,
    // download a block once and read it together.
    axpy(2.0, &xs, &ys).unwrap();
    let (h, doubled) = (ys.handle(), Mem::<f64>::alloc(777, (0, 0, 0)).unwrap());
    let dh = doubled.handle();
    par_for("coherence", 777, 10_000, move |lo, hi| {
        (lo..hi).for_each(|i| dh.set(i as i64, 2.0 * f64::from(h.get(i as i64))));
        Ok(())
    })
    .unwrap();
    let want: Vec<f64> = axpy_of(2.0, &x)
        .iter()
        .map(|&y| 2.0 * f64::from(y))
        .collect();
    assert_eq!(host(&doubled), want);
    // A thread of its own launches and reads back.
    let x2 = x.clone();
    let got = std::thread::spawn(move || {
        let (xs, ys) = (
            Mem::from_vec(x2),
            Mem::<f32>::alloc(777, (0, 0, 0)).unwrap(),
        );
        axpy(3.0, &xs, &ys).map(|()| host(&ys))
    })
    .join()
    .unwrap()
    .unwrap();
    assert_eq!(got, axpy_of(3.0, &x));
    // A copy between blocks on the device stays there; an array taken
    // from a block on the device is read back.
    axpy(2.0, &xs, &ys).unwrap();
    let part = Mem::<f32>::alloc(5, (0, 0, 0)).unwrap();
    copy_view(&part, 0, &[5], &[1], &ys, 100, &[5], &[1], (0, 0, 0)).unwrap();
    assert_eq!(part.residency(), Residency::Device);
    assert_eq!(host(&part), axpy_of(2.0, &x)[100..105]);
    axpy(1.0, &xs, &ys).unwrap();
    let arr = mem_arr(ys, &[7, 111]).unwrap();
    assert_eq!(arr.as_slice(), &axpy_of(1.0, &x)[..]);
}

#[test]
fn scalars_of_every_type_and_bool_and_f16_blocks() {
    if !device("scalars_of_every_type_and_bool_and_f16_blocks") {
        return;
    }
    let (rows, cols) = (5i64, 3i64);
    let n = rows * cols;
    let flags_in: Vec<bool> = (0..n).map(|g| g % 4 == 1).collect();
    let h = f16::from_f32(0.75);
    let bs_in = Mem::from_vec(flags_in.clone());
    let (bs, hs, out) = (
        Mem::<bool>::alloc(n, (0, 0, 0)).unwrap(),
        Mem::<f16>::alloc(n, (0, 0, 0)).unwrap(),
        Mem::<i64>::alloc(n, (0, 0, 0)).unwrap(),
    );
    let scalars = [
        PrimValue::I8(-128),
        PrimValue::F16(h),
        PrimValue::Bool(false),
        PrimValue::U64(u64::MAX),
        PrimValue::F64(-2.25),
        PrimValue::I32(i32::MIN),
    ];
    let mems: [&dyn DevArg; 4] = [&bs_in, &bs, &hs, &out];
    let written = [false, true, true, true];
    launch(&PROG, MIX, &[rows, cols], &scalars, &mems, &written).unwrap();
    // `flag` is false: `big` does not count; `(long long)-2.25` is -2.
    let sums: Vec<i64> = (0..n)
        .map(|g| (g / cols) * 1000 + g % cols - 128 - 2 + i64::from(i32::MIN))
        .collect();
    assert_eq!(host(&out), sums);
    let flips: Vec<bool> = (0..n)
        .map(|g| flags_in[g as usize] != (g % 2 == 0))
        .collect();
    assert_eq!(host(&bs), flips);
    assert!(host(&hs).iter().all(|&x| x == h));
    // With the flag, `big` wraps around: -1 added.
    let mut flagged = scalars;
    flagged[2] = PrimValue::Bool(true);
    launch(&PROG, MIX, &[rows, cols], &flagged, &mems, &written).unwrap();
    let wrapped: Vec<i64> = sums.iter().map(|s| s - 1).collect();
    assert_eq!(host(&out), wrapped);
    let e = launch(&PROG, KERNELS.len(), &[1], &[], &[], &[]).unwrap_err();
    assert!(e.message.contains("kernel 4"), "{}", e.message);
}

#[test]
fn arguments_that_do_not_match_the_kernel_are_the_compilers_bug() {
    if !device("arguments_that_do_not_match_the_kernel_are_the_compilers_bug") {
        return;
    }
    // In a child process: a driver that cannot check would launch them.
    let (out, _) = run_child("mismatch", &[]);
    if out.contains("SKIP: ") {
        println!("not checked: {out}");
        return;
    }
    assert!(
        out.contains("kernel mixed takes 14 arguments, launched with 6"),
        "{out}"
    );
    assert!(
        out.contains("argument 3 of kernel axpy has 4 bytes, launched with 8"),
        "{out}"
    );
}

#[test]
fn failed_assertions_report_message_arguments_and_span() {
    if !device("failed_assertions_report_message_arguments_and_span") {
        return;
    }
    let out = Mem::<i64>::alloc(6, (0, 0, 0)).unwrap();
    let check = |is: Vec<i64>, bound: i64| {
        let is = Mem::from_vec(is);
        launch(
            &PROG,
            CHECK,
            &[is.len() as i64],
            &[PrimValue::I64(bound)],
            &[&is, &out],
            &[false, true],
        )
        .map_err(|e| (e.message, e.span))
    };
    let cases: [(Vec<i64>, i64, Option<&str>); 4] = [
        (vec![0, 1, 2], 3, None),
        (
            vec![0, 9, 1],
            3,
            Some("Index [9] out of bounds for array of shape [3]."),
        ),
        // The buffer was cleared after the failure.
        (vec![2, 0, 1, 1, 0, 2], 3, None),
        (
            vec![-1; 6],
            0,
            Some("Index [-1] out of bounds for array of shape [0]."),
        ),
    ];
    for (is, bound, want) in cases {
        let got = check(is.clone(), bound);
        match want {
            None => {
                assert_eq!(got, Ok(()), "{is:?}");
                let doubled: Vec<i64> = is.iter().map(|i| 2 * i).collect();
                assert_eq!(host(&out)[..is.len()], doubled[..]);
            }
            Some(m) => assert_eq!(got, Err((m.to_string(), (1, 20, 30))), "{is:?}"),
        }
    }
    // The second assertion of a kernel, with f32, bool and i8 arguments.
    let e = launch(
        &PROG,
        FLAGS,
        &[6],
        &[PrimValue::F32(-0.5), PrimValue::Bool(false)],
        &[&out],
        &[true],
    )
    .unwrap_err();
    assert_eq!(
        (e.message.as_str(), e.span),
        ("x = -0.5f32, b = false, k = -5", (2, 5, 9))
    );
    assert_eq!(check(vec![1], 2), Ok(()));
}

#[test]
fn a_program_that_does_not_compile_is_an_internal_error() {
    if !device("a_program_that_does_not_compile_is_an_internal_error") {
        return;
    }
    static BAD: KernelProgram = KernelProgram {
        source: "extern \"C\" __global__ void bad(long long *fut_fail, long long fut_n) { undeclared = 1; }",
        kernels: &[KernelInfo {
            name: "bad",
            label: "",
            group: 0,
            asserts: &[],
        }],
        binaries: &[],
        thresholds: &[],
    };
    let e = launch(&BAD, 0, &[1], &[], &[], &[]).unwrap_err();
    assert!(
        e.message
            .starts_with("internal compiler error (a bug in fut): the CUDA kernels do not"),
        "{}",
        e.message
    );
    assert!(e.message.contains("undeclared"), "{}", e.message);
    assert_eq!(e.span, (0, 0, 0));
}

/// A program of the test's kernels whose code is compiled now by NVRTC
/// for `archs`, with a source that does not compile: it runs only from
/// the embedded code.
fn embedded(archs: &[String]) -> &'static KernelProgram {
    let options: Vec<String> = fut_runtime_cuda::program::NVRTC_OPTIONS
        .iter()
        .map(|s| s.to_string())
        .collect();
    let binaries: Vec<Binary> = archs
        .iter()
        .map(|a| Binary {
            arch: Box::leak(a.clone().into_boxed_str()),
            code: Box::leak(
                fut_runtime_cuda::nvrtc::compile(SOURCE, &options, a)
                    .unwrap()
                    .into_boxed_slice(),
            ),
        })
        .collect();
    Box::leak(Box::new(KernelProgram {
        source: "#error the embedded code is not used",
        kernels: KERNELS,
        binaries: Box::leak(binaries.into_boxed_slice()),
        thresholds: &[],
    }))
}

#[test]
fn the_test_kernels_compile_without_a_device() {
    setup();
    if let Err(e) = fut_runtime_cuda::nvrtc::load() {
        println!("the_test_kernels_compile_without_a_device: skipped, no NVRTC: {e}");
        return;
    }
    // What the device tests run, checked where NVRTC is and no device.
    let p = embedded(&["sm_90".into(), "compute_80".into()]);
    assert_eq!(&p.binaries[0].code[..4], b"\x7fELF");
    let ptx = std::str::from_utf8(p.binaries[1].code).unwrap();
    for k in KERNELS {
        assert!(ptx.contains(&format!(".entry {}(", k.name)), "{}", k.name);
    }
}

#[test]
fn embedded_cubin_and_ptx_are_loaded_without_the_source() {
    if !device("embedded_cubin_and_ptx_are_loaded_without_the_source") {
        return;
    }
    let (major, minor) = arch();
    let xs = Mem::from_vec(vec![1.0f32, 2.0, 3.0]);
    // The device's cubin (the source would not compile).
    let cubin = embedded(&[format!("sm_{major}{minor}")]);
    let ys = Mem::<f32>::alloc(3, (0, 0, 0)).unwrap();
    axpy_in(cubin, 2.0, &xs, &ys).unwrap();
    assert_eq!((ys.get(0), ys.get(2)), (2.0, 8.0));
    // PTX of the device's architecture and of the oldest NVRTC knows.
    let oldest = fut_runtime_cuda::nvrtc::supported_archs()
        .unwrap()
        .into_iter()
        .min()
        .unwrap();
    for a in [
        format!("compute_{major}{minor}"),
        format!("compute_{oldest}"),
    ] {
        let ptx = embedded(std::slice::from_ref(&a));
        let ys = Mem::<f32>::alloc(3, (0, 0, 0)).unwrap();
        axpy_in(ptx, 3.0, &xs, &ys).unwrap();
        assert_eq!(ys.get(2), 11.0, "{a}");
    }
    // A cubin the driver rejects falls through to the PTX after it.
    let ptx = embedded(&[format!("compute_{major}{minor}")]);
    let both: &'static [Binary] = Box::leak(Box::new([
        Binary {
            arch: Box::leak(format!("sm_{major}{minor}").into_boxed_str()),
            code: b"not a cubin",
        },
        Binary {
            arch: ptx.binaries[0].arch,
            code: ptx.binaries[0].code,
        },
    ]));
    let prog: &'static KernelProgram = Box::leak(Box::new(KernelProgram {
        binaries: both,
        ..*ptx
    }));
    let ys = Mem::<f32>::alloc(3, (0, 0, 0)).unwrap();
    axpy_in(prog, 1.0, &xs, &ys).unwrap();
    assert_eq!(host(&ys), [1.0, 3.0, 5.0]);
}

#[test]
fn without_nvrtc_or_fitting_code_the_error_says_how_to_rebuild() {
    if !device("without_nvrtc_or_fitting_code_the_error_says_how_to_rebuild") {
        return;
    }
    // NVRTC at a path that does not exist is not searched for elsewhere.
    let (out, _) = run_child("context", &[("FUT_NVRTC", "/nonexistent/libnvrtc.so.12")]);
    let (major, minor) = arch();
    let launch = line(&out, "LAUNCH: ");
    assert!(
        launch.contains(&format!(
            "rebuild it with `fut cuda --cuda-arch sm_{major}{minor}`"
        )),
        "{out}"
    );
}

#[test]
fn nvrtcs_cubins_are_cached_on_disk() {
    if !device("nvrtcs_cubins_are_cached_on_disk") {
        return;
    }
    let dir = target_dir().join(format!("fut-test-cubin-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (first, _) = run_child("cache", &[("FUT_CACHE_DIR", d)]);
    assert!(first.contains("VALUE: 9"), "{first}");
    assert!(first.contains("BUILDS: (1, 0, 0)"), "{first}");
    let files: Vec<_> = std::fs::read_dir(dir.join("cuda")).unwrap().collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let (second, _) = run_child("cache", &[("FUT_CACHE_DIR", d)]);
    assert!(second.contains("VALUE: 9"), "{second}");
    assert!(second.contains("BUILDS: (0, 1, 0)"), "{second}");
    // A cubin the driver rejects is compiled again, and replaced.
    let file = files[0].as_ref().unwrap().path();
    let data = std::fs::read(&file).unwrap();
    let check_len = u64::from_le_bytes(data[8..16].try_into().unwrap()) as usize;
    let mut bad = data[..16 + check_len].to_vec();
    bad.extend_from_slice(b"not a cubin at all");
    std::fs::write(&file, &bad).unwrap();
    let (third, _) = run_child("cache", &[("FUT_CACHE_DIR", d)]);
    assert!(third.contains("VALUE: 9"), "{third}");
    assert!(third.contains("BUILDS: (1, 0, 0)"), "{third}");
    assert_eq!(std::fs::read(&file).unwrap(), data);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_device_that_does_not_exist_is_an_error_listing_the_devices() {
    if !device("a_device_that_does_not_exist_is_an_error_listing_the_devices") {
        return;
    }
    let (out, _) = run_child("context", &[("FUT_CUDA_DEVICE", "no-such-device")]);
    assert!(
        out.contains(
            "ENSURE: Err(\"no CUDA device matches \\\"no-such-device\\\"; the devices are:\\n  0: CUDA: "
        ),
        "{out}"
    );
    assert!(out.contains("LAUNCH: \"no CUDA device matches"), "{out}");
    assert!(out.contains("STATUS: 0"), "{out}");
    // By name, in another case, and by number.
    let name = fut_runtime_cuda::device::context()
        .unwrap()
        .desc
        .name
        .to_uppercase();
    for choice in [name.as_str(), "0"] {
        let (out, _) = run_child("context", &[("FUT_CUDA_DEVICE", choice)]);
        assert!(out.contains("ENSURE: Ok(())"), "{out}");
        assert!(out.contains("LAUNCH: ok 4"), "{out}");
    }
}

/// Generated code glob-imports the multicore runtime's arrays and
/// scalars beside this crate's `mem`: the names must resolve without
/// clashes, and host blocks need no device.
mod generated_imports {
    #![allow(unused_imports)]

    use fut_runtime_cuda::mem::*;
    use fut_runtime_multicore::arr::*;
    use fut_runtime_multicore::scalar::*;

    #[test]
    fn the_names_of_generated_code_resolve() {
        let m: Mem<i64> = Mem::alloc(6, (0, 0, 0)).unwrap();
        let h = m.handle();
        par_for("t", 6, 1, move |lo, hi| {
            for i in lo..hi {
                h.atomic_add(i as i64, true, 2 * i as i64);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(m.get(5), 10);
        assert!(reduce_chunks(10, 1, 4) >= 1);
        let (b, shape) = arr_mem(mem_arr(m, &[2, 3]).unwrap(), true);
        assert_eq!((b.get(4), shape), (8, vec![2, 3]));
        let f: Fail = assert_failed("{}", &[values::PrimValue::I64(1)], (0, 0, 0));
        assert_eq!(f.message, "1");
    }
}
