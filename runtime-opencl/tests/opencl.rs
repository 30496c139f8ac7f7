//! Kernels launched on the OpenCL device (PoCL on the CPU in CI), and the
//! runtime's behaviour without a device, in child processes.
//!
//! Every test that needs a device checks first and, without one, prints
//! why it is skipped and passes. PoCL's kernel cache is kept in the target
//! directory (`POCL_CACHE_DIR`, unless set), as is the runtime's binary
//! cache (`FUT_CACHE_DIR`).

// `std::env::set_var` is unsafe: it is called once, before any test
// reads the environment or starts OpenCL.
#![allow(unsafe_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::Once;

use fut_runtime_multicore::arr::R;
use fut_runtime_opencl::mem::{DevArg, Mem, Residency, copy_view, mem_arr, par_for};
use fut_runtime_opencl::{AssertInfo, KernelInfo, KernelProgram, launch};
use values::{PrimValue, f16};

/// The kernels of the tests, following the ABI of `launch`.
const SOURCE: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void axpy(__global long *fut_fail, long fut_n, long size_0, float a,
                   __global const float *xs, __global float *ys) {
  long i = get_global_id(0);
  if (i >= fut_n) return;
  ys[i] = xs[i] * a + (float)i;
}

__kernel void mixed(__global long *fut_fail, long fut_n, long size_0, long size_1,
                  char c, ushort h, uchar flag, ulong big, double d, int k,
                  __global const uchar *bs_in, __global uchar *bs, __global ushort *hs,
                  __global long *out) {
  long g = get_global_id(0);
  if (g >= fut_n) return;
  long i = g / size_1, j = g % size_1;
  out[g] = i * 1000 + j + c + (flag ? (long)big : 0) + (long)d + k;
  bs[g] = (bs_in[g] != 0) != (g % 2 == 0);
  hs[g] = h;
}

__kernel void check(__global long *fut_fail, long fut_n, long size_0, long bound,
                    __global const long *is, __global long *out) {
  long g = get_global_id(0);
  if (g >= fut_n) return;
  long i = is[g];
  if (i < 0 || i >= bound) {
    if (atomic_cmpxchg((volatile __global int *)fut_fail, 0, 1) == 0) {
      fut_fail[1] = i;
      fut_fail[2] = bound;
    }
    return;
  }
  out[g] = i * 2;
}

__kernel void flags(__global long *fut_fail, long fut_n, long size_0, float x, uchar b,
                    __global long *out) {
  long g = get_global_id(0);
  if (g >= fut_n) return;
  if (g == 3) {
    if (atomic_cmpxchg((volatile __global int *)fut_fail, 0, 2) == 0) {
      fut_fail[1] = (long)as_uint(x);
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

static PROG: KernelProgram = KernelProgram {
    source: SOURCE,
    kernels: &[
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
    ],
    binaries: &[],
    thresholds: &[],
};

const AXPY: usize = 0;
const MIX: usize = 1;
const CHECK: usize = 2;
const FLAGS: usize = 3;

/// The target directory (of `CARGO_TARGET_DIR`, else of this executable:
/// `target/debug/deps/opencl-…`).
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

/// Keeps PoCL's cache and the runtime's in the target directory.
fn setup() {
    SETUP.call_once(|| {
        let t = target_dir();
        // SAFETY: the first thing every test does, before anything reads
        // the environment; `Once` makes the others wait.
        unsafe {
            if std::env::var_os("POCL_CACHE_DIR").is_none() {
                std::env::set_var("POCL_CACHE_DIR", t.join("pocl-cache"));
            }
            if std::env::var_os("FUT_CACHE_DIR").is_none() {
                std::env::set_var("FUT_CACHE_DIR", t.join("fut-test-cache"));
            }
        }
    });
}

/// Whether a device is there; says why the test is skipped otherwise.
fn device(test: &str) -> bool {
    setup();
    match fut_runtime_opencl::ensure_device() {
        Ok(()) => true,
        Err(e) => {
            println!("{test}: skipped, no OpenCL device: {e}");
            false
        }
    }
}

fn axpy(a: f32, xs: &Mem<f32>, ys: &Mem<f32>) -> R<()> {
    let n = xs.len() as i64;
    launch(
        &PROG,
        AXPY,
        &[n],
        &[PrimValue::F32(a)],
        &[xs, ys],
        &[false, true],
    )
}

#[test]
fn kernels_and_host_see_each_others_writes() {
    if !device("kernels_and_host_see_each_others_writes") {
        return;
    }
    let n = 1000;
    let xs = Mem::from_vec((0..n).map(|i| i as f32 * 0.5).collect());
    let ys = Mem::<f32>::alloc(n, (0, 0, 0)).unwrap();
    assert_eq!(ys.residency(), Residency::Zeros);
    axpy(2.0, &xs, &ys).unwrap();
    assert_eq!(xs.residency(), Residency::Both);
    assert_eq!(ys.residency(), Residency::Device);
    for i in 0..n {
        assert_eq!(ys.get(i), i as f32 * 0.5 * 2.0 + i as f32, "ys[{i}]");
    }
    assert_eq!(ys.residency(), Residency::Both);
    // A host write after a launch is seen by the next launch.
    xs.set(3, 100.0);
    assert_eq!(xs.residency(), Residency::Host);
    axpy(3.0, &xs, &ys).unwrap();
    assert_eq!(ys.get(3), 303.0);
    assert_eq!(ys.get(999), 999.0 * 0.5 * 3.0 + 999.0);
    // A host write to a block a kernel wrote keeps the kernel's values.
    axpy(1.0, &xs, &ys).unwrap();
    ys.set(0, -1.0);
    assert_eq!((ys.get(0), ys.get(1)), (-1.0, 1.5));
    // A handle shares the block's state; host threads read a block that
    // is on the device (it comes back once) in parallel.
    axpy(4.0, &xs, &ys).unwrap();
    let h = ys.handle();
    assert_eq!(h.residency(), Residency::Device);
    let sums = Mem::<f64>::alloc(1000, (0, 0, 0)).unwrap();
    let sh = sums.handle();
    par_for("test", 1000, 100_000, move |lo, hi| {
        for i in lo..hi {
            sh.set(i as i64, f64::from(h.get(i as i64)));
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(sums.get(2), 2.0 * 0.5 * 4.0 + 2.0);
    assert_eq!(sums.get(3), 403.0);
    // Nothing runs over an empty space.
    axpy(9.0, &Mem::from_vec(vec![]), &Mem::from_vec(vec![])).unwrap();
    launch(
        &PROG,
        AXPY,
        &[-1],
        &[PrimValue::F32(0.0)],
        &[&xs, &ys],
        &[false, true],
    )
    .unwrap();
    assert_eq!(ys.residency(), Residency::Both);
    // The array of a block on the device.
    axpy(0.0, &xs, &ys).unwrap();
    let a = mem_arr(ys, &[2, 500]).unwrap();
    assert_eq!(&a.as_slice()[..3], &[0.0, 1.0, 2.0]);
}

#[test]
fn copies_and_reallocations_of_blocks_on_the_device() {
    if !device("copies_and_reallocations_of_blocks_on_the_device") {
        return;
    }
    let xs = Mem::from_vec((0..8).map(|i| i as f32).collect());
    let ys = Mem::<f32>::alloc(8, (0, 0, 0)).unwrap();
    axpy(1.0, &xs, &ys).unwrap();
    // A contiguous copy of a block on the device stays there.
    let zs = Mem::<f32>::alloc(6, (0, 0, 0)).unwrap();
    copy_view(
        &zs,
        1,
        &[2, 2],
        &[2, 1],
        &ys,
        2,
        &[2, 2],
        &[2, 1],
        (0, 0, 0),
    )
    .unwrap();
    assert_eq!(zs.residency(), Residency::Device);
    assert_eq!(ys.residency(), Residency::Device);
    let got: Vec<f32> = (0..6).map(|i| zs.get(i)).collect();
    assert_eq!(got, [0.0, 4.0, 6.0, 8.0, 10.0, 0.0]);
    // A strided copy goes through the host.
    let ws = Mem::<f32>::alloc(4, (0, 0, 0)).unwrap();
    copy_view(&ws, 0, &[4], &[1], &ys, 0, &[4], &[2], (0, 0, 0)).unwrap();
    assert_eq!(ws.residency(), Residency::Host);
    let got: Vec<f32> = (0..4).map(|i| ws.get(i)).collect();
    assert_eq!(got, [0.0, 4.0, 8.0, 12.0]);
    // An overlapping copy within a block on the device: on the host.
    axpy(1.0, &xs, &ys).unwrap();
    copy_view(&ys, 0, &[6], &[1], &ys, 2, &[6], &[1], (0, 0, 0)).unwrap();
    let got: Vec<f32> = (0..8).map(|i| ys.get(i)).collect();
    assert_eq!(got, [4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 12.0, 14.0]);
    // Apart within one block on the device: on the device.
    axpy(1.0, &xs, &ys).unwrap();
    copy_view(&ys, 4, &[2], &[1], &ys, 0, &[2], &[1], (0, 0, 0)).unwrap();
    assert_eq!(ys.residency(), Residency::Device);
    let got: Vec<f32> = (0..8).map(|i| ys.get(i)).collect();
    assert_eq!(got, [0.0, 2.0, 4.0, 6.0, 0.0, 2.0, 12.0, 14.0]);
    // A reused block keeps its device buffer; a kernel fills it again.
    let mut rs = Mem::<f32>::alloc(8, (0, 0, 0)).unwrap();
    axpy(1.0, &xs, &rs).unwrap();
    rs.realloc(4, (0, 0, 0)).unwrap();
    assert_eq!(rs.residency(), Residency::Unspecified);
    let x4 = Mem::from_vec(vec![1.0f32; 4]);
    axpy(2.0, &x4, &rs).unwrap();
    let got: Vec<f32> = (0..4).map(|i| rs.get(i)).collect();
    assert_eq!(got, [2.0, 3.0, 4.0, 5.0]);
    // Growing back within the first size reuses the host block; its
    // device buffer is too small for a grown block whose first use was
    // at 4 elements, and is replaced.
    let mut gs = Mem::<f32>::alloc(8, (0, 0, 0)).unwrap();
    gs.realloc(2, (0, 0, 0)).unwrap();
    axpy(1.0, &Mem::from_vec(vec![5.0f32; 2]), &gs).unwrap();
    gs.realloc(8, (0, 0, 0)).unwrap();
    axpy(1.0, &xs, &gs).unwrap();
    assert_eq!(gs.get(7), 14.0);
    // A block the device alone wrote comes back by `mem_arr`.
    let a = mem_arr(gs, &[8]).unwrap();
    assert_eq!(a.as_slice()[1], 2.0);
}

#[test]
fn scalars_of_every_type_and_bool_and_f16_blocks() {
    if !device("scalars_of_every_type_and_bool_and_f16_blocks") {
        return;
    }
    let (rows, cols) = (3i64, 4i64);
    let n = (rows * cols) as usize;
    let bs_in = Mem::from_vec((0..n).map(|i| i % 3 == 0).collect::<Vec<bool>>());
    let bs = Mem::<bool>::alloc(n as i64, (0, 0, 0)).unwrap();
    let hs = Mem::<f16>::alloc(n as i64, (0, 0, 0)).unwrap();
    let out = Mem::<i64>::alloc(n as i64, (0, 0, 0)).unwrap();
    let h = f16::from_f32(-2.5);
    let scalars = [
        PrimValue::I8(-3),
        PrimValue::F16(h),
        PrimValue::Bool(true),
        PrimValue::U64(1 << 40),
        PrimValue::F64(7.9),
        PrimValue::I32(-100),
    ];
    let mems: [&dyn DevArg; 4] = [&bs_in, &bs, &hs, &out];
    launch(
        &PROG,
        MIX,
        &[rows, cols],
        &scalars,
        &mems,
        &[false, true, true, true],
    )
    .unwrap();
    for g in 0..n as i64 {
        let (i, j) = (g / cols, g % cols);
        assert_eq!(
            out.get(g),
            i * 1000 + j - 3 + (1 << 40) + 7 - 100,
            "out[{g}]"
        );
        assert_eq!(bs.get(g), (g % 3 == 0) != (g % 2 == 0), "bs[{g}]");
        assert_eq!(hs.get(g), h, "hs[{g}]");
    }
    // Arguments that do not match the kernel are the compiler's bug.
    let e = launch(&PROG, MIX, &[rows, cols], &scalars[..5], &mems, &[false; 4]).unwrap_err();
    assert!(
        e.message
            .contains("kernel mixed takes 14 arguments, launched with 13"),
        "{}",
        e.message
    );
    let e = launch(&PROG, 9, &[1], &[], &[], &[]).unwrap_err();
    assert!(e.message.contains("kernel 9"), "{}", e.message);
}

#[test]
fn failed_assertions_report_message_arguments_and_span() {
    if !device("failed_assertions_report_message_arguments_and_span") {
        return;
    }
    let is = Mem::from_vec(vec![0i64, 4, -7, 2, 3]);
    let out = Mem::<i64>::alloc(5, (0, 0, 0)).unwrap();
    let run = |is: &Mem<i64>| {
        launch(
            &PROG,
            CHECK,
            &[5],
            &[PrimValue::I64(5)],
            &[is, &out],
            &[false, true],
        )
    };
    let e = run(&is).unwrap_err();
    assert_eq!(
        e.message,
        "Index [-7] out of bounds for array of shape [5]."
    );
    assert_eq!(e.span, (1, 20, 30));
    // The buffer was cleared: the next launch succeeds.
    is.set(2, 1);
    run(&is).unwrap();
    let got: Vec<i64> = (0..5).map(|i| out.get(i)).collect();
    assert_eq!(got, [0, 8, 2, 4, 6]);
    // The second assertion, with f32, bool and i8 arguments.
    let e = launch(
        &PROG,
        FLAGS,
        &[8],
        &[PrimValue::F32(1.5), PrimValue::Bool(true)],
        &[&out],
        &[true],
    )
    .unwrap_err();
    assert_eq!(e.message, "x = 1.5f32, b = true, k = -5");
    assert_eq!(e.span, (2, 5, 9));
    run(&is).unwrap();
}

#[test]
fn a_program_that_does_not_build_is_an_internal_error() {
    if !device("a_program_that_does_not_build_is_an_internal_error") {
        return;
    }
    static BAD: KernelProgram = KernelProgram {
        source: "__kernel void bad(__global long *fut_fail, long fut_n) { undeclared = 1; }",
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
        e.message.starts_with(
            "internal compiler error (a bug in fut): the OpenCL kernels do not build:\n"
        ),
        "{}",
        e.message
    );
    assert!(e.message.contains("undeclared"), "{}", e.message);
    assert_eq!(e.span, (0, 0, 0));
}

#[test]
fn a_group_kernel_runs_in_work_groups_of_its_size() {
    if !device("a_group_kernel_runs_in_work_groups_of_its_size") {
        return;
    }
    // Each group sums its threads' numbers in local memory, so a launch
    // with another work-group size gives other sums.
    static GROUPS: KernelProgram = KernelProgram {
        source: "__kernel void sums(__global long *fut_fail, long fut_n, long size_0, long size_1,
                                   __global long *out) {
  __local long xs[8];
  long g = get_group_id(0), t = get_local_id(0);
  xs[t] = g * 8 + t;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    long s = 0;
    for (int k = 0; k < 8; k++) s += xs[k];
    out[g] = s * 100 + (long)get_local_size(0);
  }
}
",
        kernels: &[KernelInfo {
            name: "sums",
            label: "",
            group: 8,
            asserts: &[],
        }],
        binaries: &[],
        thresholds: &[],
    };
    let out = Mem::<i64>::alloc(5, (0, 0, 0)).unwrap();
    launch(&GROUPS, 0, &[5, 8], &[], &[&out], &[true]).unwrap();
    for g in 0..5 {
        let want: i64 = (0..8).map(|t| g * 8 + t).sum();
        assert_eq!(out.get(g), want * 100 + 8, "group {g}");
    }
}

#[test]
fn a_group_size_the_device_cannot_run_is_an_error() {
    if !device("a_group_size_the_device_cannot_run_is_an_error") {
        return;
    }
    static HUGE: KernelProgram = KernelProgram {
        source: "__kernel void huge(__global long *fut_fail, long fut_n) {}",
        kernels: &[KernelInfo {
            name: "huge",
            label: "",
            group: 1 << 30,
            asserts: &[],
        }],
        binaries: &[],
        thresholds: &[],
    };
    let e = launch(&HUGE, 0, &[1], &[], &[], &[]).unwrap_err();
    assert!(
        e.message.contains(
            "the device cannot run kernel huge: it needs work-groups of 1073741824 threads"
        ),
        "{}",
        e.message
    );
}

/// What a child process runs, by `FUT_OPENCL_TEST_CHILD`; a no-op
/// otherwise. It prints its findings on standard output.
#[test]
fn child() {
    let Ok(mode) = std::env::var("FUT_OPENCL_TEST_CHILD") else {
        return;
    };
    // The harness has printed `test child ... ` on this line.
    println!();
    match mode.as_str() {
        "context" => {
            println!("ENSURE: {:?}", fut_runtime_opencl::ensure_device());
            println!("LIST: {:?}", fut_runtime_opencl::list_devices());
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
                &fut_runtime_opencl::cli::API,
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
            println!("BUILDS: {:?}", fut_runtime_opencl::program::build_counts());
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
        .env("FUT_OPENCL_TEST_CHILD", mode);
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

#[test]
fn no_platform_is_an_error_message_not_a_panic() {
    let (out, err) = run_child("context", &[("OCL_ICD_VENDORS", "/nonexistent")]);
    let missing =
        |s: &str| s.contains("no OpenCL platform found") || s.contains("no OpenCL runtime found");
    let line = |k: &str| {
        out.lines()
            .find(|l| l.starts_with(k))
            .unwrap_or("")
            .to_string()
    };
    assert!(missing(&line("ENSURE: Err(")), "{out}");
    assert!(missing(&line("LIST: Err(")), "{out}");
    let launch = line("LAUNCH: ");
    assert!(
        missing(&launch) && launch.ends_with("at (0, 0, 0)"),
        "{out}"
    );
    assert_eq!(line("STATUS: "), "STATUS: 1", "{out}");
    assert!(err.contains("Error: no OpenCL"), "{err}");
}

#[test]
fn a_device_that_does_not_exist_is_an_error_listing_the_devices() {
    if !device("a_device_that_does_not_exist_is_an_error_listing_the_devices") {
        return;
    }
    let (out, _) = run_child("context", &[("FUT_OPENCL_DEVICE", "no-such-device")]);
    assert!(
        out.contains("ENSURE: Err(\"no OpenCL device matches \\\"no-such-device\\\"; the devices are:\\n  0: "),
        "{out}"
    );
    assert!(out.contains("LAUNCH: \"no OpenCL device matches"), "{out}");
    // Listing the devices needs no context.
    let list = fut_runtime_opencl::list_devices().unwrap();
    assert!(list.starts_with("0: "), "{list}");
    assert!(out.contains("STATUS: 0"), "{out}");
    // A name that matches the device in use works.
    let name = fut_runtime_opencl::device::context()
        .unwrap()
        .desc
        .name
        .to_uppercase();
    let (out, _) = run_child("context", &[("FUT_OPENCL_DEVICE", &name)]);
    assert!(out.contains("ENSURE: Ok(())"), "{out}");
    assert!(out.contains("LAUNCH: ok 4"), "{out}");
}

#[test]
fn program_binaries_are_cached_on_disk() {
    if !device("program_binaries_are_cached_on_disk") {
        return;
    }
    let dir = target_dir().join(format!("fut-test-binary-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let (first, _) = run_child("cache", &[("FUT_CACHE_DIR", d)]);
    assert!(first.contains("VALUE: 9"), "{first}");
    assert!(first.contains("BUILDS: (1, 0)"), "{first}");
    let files: Vec<_> = std::fs::read_dir(dir.join("opencl")).unwrap().collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let (second, _) = run_child("cache", &[("FUT_CACHE_DIR", d)]);
    assert!(second.contains("VALUE: 9"), "{second}");
    assert!(second.contains("BUILDS: (0, 1)"), "{second}");
    // A damaged file is ignored: a binary the driver rejects, and a file
    // whose record of what it was built from differs.
    let file = files[0].as_ref().unwrap().path();
    let data = std::fs::read(&file).unwrap();
    let check_len = u64::from_le_bytes(data[8..16].try_into().unwrap()) as usize;
    let mut bad = data[..16 + check_len].to_vec();
    bad.extend_from_slice(b"not a binary at all");
    std::fs::write(&file, &bad).unwrap();
    let (third, _) = run_child("cache", &[("FUT_CACHE_DIR", d)]);
    assert!(third.contains("VALUE: 9"), "{third}");
    assert!(third.contains("BUILDS: (1, 0)"), "{third}");
    let mut bad = data.clone();
    bad[20] ^= 0xff;
    std::fs::write(&file, &bad).unwrap();
    let (fourth, _) = run_child("cache", &[("FUT_CACHE_DIR", d)]);
    assert!(fourth.contains("BUILDS: (1, 0)"), "{fourth}");
    assert_eq!(
        std::fs::read(&file).unwrap(),
        data,
        "rewritten after the build"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
