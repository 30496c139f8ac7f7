//! NVRTC, NVIDIA's run-time CUDA compiler: found, loaded, and used to
//! compile kernel source to a cubin or to PTX.
//!
//! `fut cuda` compiles a program's kernels ahead of time with it (one
//! cubin per `--cuda-arch`, and PTX), and a runtime can compile at start
//! up for a device none of those fit. NVRTC is a shared library
//! (`libnvrtc.so.12`) that cudarc opens by name only, and every cudarc
//! call panics when it is absent, so [`load`] finds it first, in this
//! order:
//!
//! 1. `FUT_NVRTC`: the path of `libnvrtc.so.12` (or of the folder holding
//!    it). It is opened by that path, and an error there is final: nothing
//!    else is searched.
//! 2. What cudarc finds by itself: `LD_LIBRARY_PATH`, the ld.so cache.
//! 3. Common locations: `$CUDA_HOME`, `$CUDA_PATH`, `$CUDA_ROOT`
//!    (`lib64`, `lib`), `$CONDA_PREFIX/lib`, `/usr/local/cuda*/lib64`,
//!    `/opt/cuda/lib64`, `/usr/lib/x86_64-linux-gnu`, `/usr/lib64`.
//! 4. The PyPI wheel `nvidia-cuda-nvrtc-cu12` in the Python environment of
//!    `python3` (`nvidia/cuda_nvrtc/lib/libnvrtc.so.12`).
//! 5. The wheel as `tools/cuda/check.py --fetch-tools` unpacks it into a
//!    cargo target folder (`target/cuda-tools/`), next to the folder of
//!    the running executable (`target/debug/fut`).
//!
//! A library found by path is opened with `RTLD_NOW | RTLD_GLOBAL` and
//! kept open for the life of the process; glibc then gives cudarc's
//! `dlopen("libnvrtc.so.12")` the library already loaded, by its soname,
//! and NVRTC finds its builtins library next to itself.
//!
//! [`compile`] takes the architecture as NVRTC names it: `sm_XY` gives
//! the cubin (machine code for devices of compute capability X.Y),
//! `compute_XY` the PTX (text the driver compiles for X.Y and later).
//! NVRTC compiles distinct programs on several threads at once.

#![allow(unsafe_code)]

use std::ffi::{CString, c_char};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use cudarc::nvrtc::{result, sys};
use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};

/// The name of the library.
pub const LIBRARY: &str = "libnvrtc.so.12";

/// How to get NVRTC, for error messages.
pub const HOW_TO_GET: &str = "install it with `pip install nvidia-cuda-nvrtc-cu12` (into the Python environment of `python3`), or a CUDA toolkit, or set FUT_NVRTC=/path/to/libnvrtc.so.12";

/// Whether NVRTC was found: once it has been, [`load`] answers at once.
/// Failures are not remembered, so a library put in place later (or
/// preloaded by a test) is still found.
static LOADED: Mutex<bool> = Mutex::new(false);

/// Finds and loads NVRTC (see the module documentation for where it
/// looks). The error says where it looked and how to get NVRTC.
pub fn load() -> Result<(), String> {
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if *loaded {
        return Ok(());
    }
    search()?;
    *loaded = true;
    Ok(())
}

/// Whether cudarc can open NVRTC by name now.
fn present() -> bool {
    // SAFETY: `is_culib_present` only tries to dlopen NVRTC by its names
    // and closes what it opened; it calls nothing in the library.
    unsafe { sys::is_culib_present() }
}

/// Opens the library at `path` for the rest of the process, so that
/// cudarc finds it by its soname.
fn preload(path: &Path) -> Result<(), String> {
    // SAFETY: loading NVRTC runs its initialisers, which only set up the
    // library itself; it is never unloaded (the handle is leaked), so no
    // code of it can be called after its finalisers.
    let lib = unsafe { Library::open(Some(path), RTLD_NOW | RTLD_GLOBAL) };
    match lib {
        Ok(lib) => {
            std::mem::forget(lib);
            Ok(())
        }
        Err(e) => Err(error_chain(&e)),
    }
}

/// An error with its sources (libloading's says "dlopen failed" and
/// keeps dlerror's message as its source).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut next = e.source();
    while let Some(c) = next {
        s.push_str(": ");
        s.push_str(&c.to_string());
        next = c.source();
    }
    s
}

fn search() -> Result<(), String> {
    if let Some(v) = std::env::var_os("FUT_NVRTC").filter(|v| !v.is_empty()) {
        let mut path = PathBuf::from(v);
        if path.is_dir() {
            path = path.join(LIBRARY);
        }
        preload(&path).map_err(|e| {
            format!(
                "cannot load NVRTC from FUT_NVRTC={}: {e}\nNVRTC (NVIDIA's CUDA compiler library, {LIBRARY}) compiles CUDA kernels: {HOW_TO_GET}",
                path.display()
            )
        })?;
        if !present() {
            return Err(format!(
                "FUT_NVRTC={} was loaded, but not as {LIBRARY} (cudarc opens NVRTC by that name): {HOW_TO_GET}",
                path.display()
            ));
        }
        return Ok(());
    }
    if present() {
        return Ok(());
    }
    let mut tried = Vec::new();
    for path in candidates() {
        if !path.is_file() {
            continue;
        }
        match preload(&path) {
            Ok(()) if present() => return Ok(()),
            Ok(()) => tried.push(format!("{} (not a CUDA 12 NVRTC)", path.display())),
            Err(e) => tried.push(e),
        }
    }
    let mut msg = format!(
        "NVRTC (NVIDIA's CUDA compiler library, {LIBRARY}) was not found: {HOW_TO_GET}. It was looked for in the library path (LD_LIBRARY_PATH, ld.so's cache), CUDA_HOME, CUDA_PATH, /usr/local/cuda and the Python environment."
    );
    if !tried.is_empty() {
        msg.push_str("\nThese could not be used:");
        for t in tried {
            msg.push_str("\n  ");
            msg.push_str(&t);
        }
    }
    Err(msg)
}

/// The files that may be NVRTC, in the order of the module documentation
/// (steps 3 to 5); they may not exist.
fn candidates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for var in ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"] {
        if let Some(d) = std::env::var_os(var).filter(|v| !v.is_empty()) {
            let d = PathBuf::from(d);
            dirs.push(d.join("lib64"));
            dirs.push(d.join("lib"));
        }
    }
    if let Some(d) = std::env::var_os("CONDA_PREFIX").filter(|v| !v.is_empty()) {
        dirs.push(PathBuf::from(d).join("lib"));
    }
    dirs.push(PathBuf::from("/usr/local/cuda/lib64"));
    if let Ok(entries) = std::fs::read_dir("/usr/local") {
        let mut versions: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("cuda-12"))
            .map(|e| e.path().join("lib64"))
            .collect();
        versions.sort();
        dirs.extend(versions.into_iter().rev());
    }
    dirs.push(PathBuf::from("/opt/cuda/lib64"));
    dirs.push(PathBuf::from("/usr/lib/x86_64-linux-gnu"));
    dirs.push(PathBuf::from("/usr/lib64"));
    dirs.extend(python_wheel_dirs());
    if let Some(d) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().and_then(Path::parent).map(Path::to_path_buf))
    {
        dirs.push(d.join("cuda-tools/nvidia/cuda_nvrtc/lib"));
    }
    dirs.into_iter().map(|d| d.join(LIBRARY)).collect()
}

/// The `lib` folders of the `nvidia.cuda_nvrtc` package of `python3`, if
/// it has one (nothing when there is no `python3` or no such package).
fn python_wheel_dirs() -> Vec<PathBuf> {
    let script = "import sys\ntry:\n    import nvidia.cuda_nvrtc as m\n    for p in m.__path__: print(p)\nexcept Exception:\n    sys.exit(0)\n";
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg(script)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output();
    let Ok(out) = out else {
        return Vec::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| PathBuf::from(l.trim()).join("lib"))
        .collect()
}

/// NVRTC's version (major, minor), loading it first.
pub fn version() -> Result<(i32, i32), String> {
    load()?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: NVRTC is loaded; the two pointers are valid for writes.
    unsafe { sys::nvrtcVersion(&mut major, &mut minor) }
        .result()
        .map_err(|e| format!("NVRTC does not say its version: {e}"))?;
    Ok((major, minor))
}

/// The compute capabilities NVRTC compiles for, as numbers (`90` for
/// 9.0), loading it first.
pub fn supported_archs() -> Result<Vec<i32>, String> {
    load()?;
    let mut n = 0;
    // SAFETY: NVRTC is loaded; `n` is valid for writes.
    unsafe { sys::nvrtcGetNumSupportedArchs(&mut n) }
        .result()
        .map_err(|e| format!("NVRTC does not list its architectures: {e}"))?;
    let mut archs = vec![0; usize::try_from(n).unwrap_or(0)];
    if !archs.is_empty() {
        // SAFETY: `archs` holds the `n` integers NVRTC writes.
        unsafe { sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) }
            .result()
            .map_err(|e| format!("NVRTC does not list its architectures: {e}"))?;
    }
    Ok(archs)
}

/// Whether `arch` is an architecture [`compile`] takes: `sm_` or
/// `compute_` and a number of two or three digits (`sm_90`, `sm_100`,
/// `compute_80`), or the same with an `a` or `f` suffix (`sm_90a`).
pub fn valid_arch(arch: &str) -> bool {
    let Some(num) = arch
        .strip_prefix("sm_")
        .or_else(|| arch.strip_prefix("compute_"))
    else {
        return false;
    };
    let digits = num.strip_suffix(['a', 'f']).unwrap_or(num);
    (2..=3).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Compiles `source` with NVRTC for `arch` with `options` (beyond the
/// architecture): the cubin for `sm_XY`, the PTX (without its final NUL)
/// for `compute_XY`. A source NVRTC rejects gives its log, as an internal
/// compiler error (kernels come from fut).
pub fn compile(source: &str, options: &[String], arch: &str) -> Result<Vec<u8>, String> {
    if !valid_arch(arch) {
        return Err(format!(
            "`{arch}` is not a CUDA architecture (sm_XY for a cubin, compute_XY for PTX)"
        ));
    }
    load()?;
    let src = CString::new(source).map_err(|_| "the CUDA kernel source holds a NUL byte")?;
    let prog = result::create_program(&src, Some(c"fut_kernels.cu"))
        .map_err(|e| format!("NVRTC cannot create a program: {e}"))?;
    let mut opts = Vec::with_capacity(options.len() + 1);
    opts.push(format!("--gpu-architecture={arch}"));
    opts.extend(options.iter().cloned());
    // SAFETY: `prog` was created above and is destroyed only after these
    // calls; the buffers passed are as large as NVRTC says it needs.
    let out = unsafe { compiled(prog, &opts, arch.starts_with("sm_")) };
    // SAFETY: `prog` was created above and is not used after this.
    let _ = unsafe { result::destroy_program(prog) };
    out.map_err(|log| {
        format!("internal compiler error (a bug in fut): the CUDA kernels do not compile for {arch}:\n{log}")
    })
}

/// Compiles `prog` with `opts` and gives its cubin (`cubin`) or its PTX,
/// else the log.
///
/// # Safety
///
/// `prog` must be a live NVRTC program.
unsafe fn compiled(
    prog: sys::nvrtcProgram,
    opts: &[String],
    cubin: bool,
) -> Result<Vec<u8>, String> {
    // SAFETY: the caller's promise; options are copied into C strings.
    if let Err(e) = unsafe { result::compile_program(prog, opts) } {
        // SAFETY: as above.
        let log = unsafe { result::get_program_log(prog) }
            .map(|l| text(&l))
            .unwrap_or_default();
        let log = log.trim_end();
        return Err(if log.is_empty() {
            format!("{e} (NVRTC gave no log; options: {})", opts.join(" "))
        } else {
            log.to_string()
        });
    }
    if cubin {
        let mut size = 0usize;
        // SAFETY: `prog` is compiled; `size` is valid for writes.
        unsafe { sys::nvrtcGetCUBINSize(prog, &mut size) }
            .result()
            .map_err(|e| format!("NVRTC gives no cubin: {e}"))?;
        let mut code = vec![0u8; size];
        // SAFETY: `code` holds the `size` bytes NVRTC writes.
        unsafe { sys::nvrtcGetCUBIN(prog, code.as_mut_ptr().cast::<c_char>()) }
            .result()
            .map_err(|e| format!("NVRTC gives no cubin: {e}"))?;
        if code.is_empty() {
            return Err("NVRTC gave an empty cubin".into());
        }
        Ok(code)
    } else {
        // SAFETY: `prog` is compiled.
        let ptx =
            unsafe { result::get_ptx(prog) }.map_err(|e| format!("NVRTC gives no PTX: {e}"))?;
        Ok(text(&ptx).into_bytes())
    }
}

/// The C string in `buf` (up to its first NUL).
fn text(buf: &[c_char]) -> String {
    let bytes: Vec<u8> = buf
        .iter()
        .map(|&c| c as u8)
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Loads NVRTC for a test: `FUT_NVRTC`, else the wheel unpacked into
    /// this workspace's `target/cuda-tools/` by `tools/cuda/check.py
    /// --fetch-tools`, else wherever [`load`] finds it. `false` (the test
    /// is skipped, saying why) when there is none, unless `CI=true`: CI
    /// unpacks the wheel, so a test there must not pass by skipping.
    fn nvrtc_or_skip(test: &str) -> bool {
        if std::env::var_os("FUT_NVRTC").is_none() {
            let unpacked = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../target/cuda-tools/nvidia/cuda_nvrtc/lib")
                .join(LIBRARY);
            if unpacked.is_file() {
                let _ = preload(&unpacked);
            }
        }
        match load() {
            Ok(()) => true,
            Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => {
                panic!("{test}: NVRTC is needed on CI (tools/cuda/check.py --fetch-tools): {e}")
            }
            Err(e) => {
                eprintln!("{test}: skipped, no NVRTC ({e})");
                false
            }
        }
    }

    const KERNEL: &str = "extern \"C\" __global__ void add(double *x, long n) {\n  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;\n  if (i < n) x[i] += 1.0;\n}\n";

    #[test]
    fn architectures_are_checked() {
        for good in [
            "sm_90",
            "sm_80",
            "sm_100",
            "compute_80",
            "sm_90a",
            "compute_120f",
        ] {
            assert!(valid_arch(good), "{good}");
        }
        for bad in [
            "sm90", "sm_9", "sm_1000", "sm_", "sm_x0", "compute", "90", "",
        ] {
            assert!(!valid_arch(bad), "{bad}");
        }
        let e = compile(KERNEL, &[], "sm90").unwrap_err();
        assert!(e.contains("not a CUDA architecture"), "{e}");
    }

    #[test]
    fn kernels_compile_to_cubin_and_ptx() {
        if !nvrtc_or_skip("kernels_compile_to_cubin_and_ptx") {
            return;
        }
        let (major, _) = version().unwrap();
        assert!(major >= 12, "NVRTC {major}");
        let archs = supported_archs().unwrap();
        assert!(archs.contains(&80) && archs.contains(&90), "{archs:?}");
        let opts = vec!["--fmad=false".to_string(), "-w".to_string()];
        let cubin = compile(KERNEL, &opts, "sm_90").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&cubin[..4], b"\x7fELF");
        let ptx = compile(KERNEL, &opts, "compute_80").unwrap_or_else(|e| panic!("{e}"));
        let ptx = String::from_utf8(ptx).unwrap();
        assert!(ptx.contains(".target sm_80"), "{ptx}");
        assert!(ptx.contains(".entry add"), "{ptx}");
        assert!(!ptx.ends_with('\0'));
    }

    #[test]
    fn a_broken_kernel_gives_the_log() {
        if !nvrtc_or_skip("a_broken_kernel_gives_the_log") {
            return;
        }
        let e = compile(
            "extern \"C\" __global__ void k(int *x) { x[0] = undefined_name; }\n",
            &[],
            "sm_80",
        )
        .unwrap_err();
        assert!(
            e.starts_with(
                "internal compiler error (a bug in fut): the CUDA kernels do not compile for sm_80"
            ),
            "{e}"
        );
        assert!(e.contains("undefined_name"), "{e}");
        assert!(e.contains("fut_kernels.cu"), "{e}");
    }
}
