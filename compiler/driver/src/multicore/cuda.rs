//! The CUDA backend's kernels, compiled ahead of time.
//!
//! A CUDA module's kernel program (`gpu::CUDA`) names a static of code
//! compiled from its kernel source, which this module appends
//! ([`with_binaries`]): with NVRTC (`fut_runtime_cuda::nvrtc`), a cubin
//! for each architecture of `--cuda-arch` (default [`DEFAULT_ARCHS`]),
//! and PTX for the virtual architecture of the lowest of them, which the
//! driver of a newer device compiles itself. The runtime takes the cubin
//! of the device's architecture, else the PTX.
//!
//! Compiling takes seconds for large programs, so each result is kept in
//! the cache folder, `nvrtc/<hash>.bin`: the hash is that of what the code
//! depends on (the NVRTC release, the architecture, the options, the
//! source), and the file repeats all of it before the code
//! (`fut_runtime_gpu::program::{load_cached, save_cached}`), so a
//! collision is never taken for a hit. A cache that cannot be written is
//! no error. The architectures of one program compile on threads of
//! their own.
//!
//! A program without kernels needs no NVRTC; one with kernels needs it,
//! and without it the build fails with `nvrtc::load`'s message (where it
//! looked, how to install it).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use fut_runtime_cuda::nvrtc;
use fut_runtime_gpu::program::{fnv1a, load_cached, save_cached};

/// The architectures `fut cuda` compiles cubins for by default: the
/// H100/H200 (`sm_90`) and the A100 (`sm_80`).
pub const DEFAULT_ARCHS: &[&str] = &["sm_90", "sm_80"];

/// The first bytes of a cache file.
const MAGIC: &[u8; 8] = b"FUTNVRC1";

/// The environment variable giving the architectures when the command
/// line does not (`fut cuda`, `fut test` and `fut bench` with
/// `--backend=cuda`).
pub const ARCH_VAR: &str = "FUT_CUDA_ARCH";

/// [`DEFAULT_ARCHS`] as owned strings.
pub fn default_archs() -> Vec<String> {
    DEFAULT_ARCHS.iter().map(|a| a.to_string()).collect()
}

/// The architectures to compile for: `given` (by `--cuda-arch`), else
/// those of [`ARCH_VAR`] when it is set and not empty, else
/// [`DEFAULT_ARCHS`].
pub fn archs_or_default(given: Option<Vec<String>>) -> Result<Vec<String>, String> {
    if let Some(a) = given {
        return Ok(a);
    }
    match std::env::var(ARCH_VAR) {
        Ok(v) if !v.trim().is_empty() => parse_archs(&v).map_err(|e| format!("{ARCH_VAR}: {e}")),
        _ => Ok(default_archs()),
    }
}

/// The compute capability of `sm_XY` as the number `XY`.
fn arch_number(arch: &str) -> Option<u32> {
    let digits = arch.strip_prefix("sm_")?;
    if !(2..=3).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The architectures of a `--cuda-arch` list: `sm_XY` (or `sm_XYZ`)
/// separated by commas, each once, in the order given.
pub fn parse_archs(list: &str) -> Result<Vec<String>, String> {
    let mut archs: Vec<String> = Vec::new();
    for a in list.split(',').map(str::trim).filter(|a| !a.is_empty()) {
        if arch_number(a).is_none() {
            return Err(format!(
                "`{a}` is not a CUDA architecture: write sm_ and the compute capability without its dot, e.g. sm_90 (H100, H200), sm_80 (A100), sm_89, sm_120"
            ));
        }
        if !archs.iter().any(|b| b == a) {
            archs.push(a.to_string());
        }
    }
    if archs.is_empty() {
        return Err("no CUDA architecture given (e.g. --cuda-arch sm_90,sm_80)".into());
    }
    Ok(archs)
}

/// What is compiled for `archs`: a cubin for each, then PTX for the
/// virtual architecture of the lowest (`compute_XY`).
pub fn targets(archs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = archs.to_vec();
    if let Some(low) = archs
        .iter()
        .filter_map(|a| arch_number(a).map(|n| (n, a)))
        .min()
    {
        out.push(low.1.replacen("sm_", "compute_", 1));
    }
    out
}

/// NVRTC's options: those the kernel prelude needs, and no warnings (the
/// log then holds errors only), as `tools/cuda/check.py` compiles.
pub fn options() -> Vec<String> {
    let mut o: Vec<String> = gpu::kernel_c::prelude::build_options(gpu::kernel_c::Target::Cuda)
        .iter()
        .map(|s| s.to_string())
        .collect();
    o.push("-w".into());
    o
}

/// NVRTC, loaded once per process (a failed search, which may run
/// `python3`, is not repeated), and its version.
fn nvrtc_version() -> Result<(i32, i32), String> {
    static VERSION: OnceLock<Result<(i32, i32), String>> = OnceLock::new();
    VERSION.get_or_init(nvrtc::version).clone()
}

/// Checks that NVRTC compiles for each of `archs`.
fn check_supported(archs: &[String], version: (i32, i32)) -> Result<(), String> {
    static SUPPORTED: OnceLock<Result<Vec<i32>, String>> = OnceLock::new();
    let supported = SUPPORTED.get_or_init(nvrtc::supported_archs).clone()?;
    for a in archs {
        let n = arch_number(a).and_then(|n| i32::try_from(n).ok());
        if n.is_some_and(|n| !supported.contains(&n)) {
            let (lo, hi) = (
                supported.iter().min().copied().unwrap_or(0),
                supported.iter().max().copied().unwrap_or(0),
            );
            return Err(format!(
                "NVRTC {}.{} cannot compile for {a}: it compiles for sm_{lo} to sm_{hi}",
                version.0, version.1
            ));
        }
    }
    Ok(())
}

/// The code of `source` compiled for each of [`targets`]`(archs)`, from
/// the cache where it holds it. An empty source (no kernels) compiles to
/// nothing, without NVRTC.
pub fn compile_kernels(source: &str, archs: &[String]) -> Result<Vec<(String, Vec<u8>)>, String> {
    if source.is_empty() {
        return Ok(Vec::new());
    }
    let version = nvrtc_version()?;
    check_supported(archs, version)?;
    let opts = options();
    let targets = targets(archs);
    let dir = super::cache_dir().join("nvrtc");
    let results: Vec<Result<Vec<u8>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = targets
            .iter()
            .map(|t| {
                let (opts, dir) = (&opts, &dir);
                s.spawn(move || {
                    let mut check = format!("nvrtc {}.{}\0{t}\0", version.0, version.1);
                    for o in opts {
                        check.push_str(o);
                        check.push('\0');
                    }
                    check.push_str(source);
                    let file = dir.join(format!("{:016x}.bin", fnv1a(check.as_bytes())));
                    // Test programs compiled at once may have the same kernels:
                    // one compiles and writes the file, the others then read it.
                    let lock = file_lock(&file);
                    let _held = lock.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(code) = load_cached(&file, MAGIC, check.as_bytes()) {
                        return Ok(code);
                    }
                    let code = nvrtc::compile(source, opts, t)?;
                    save_cached(&file, MAGIC, check.as_bytes(), &code);
                    Ok(code)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("NVRTC's compilation thread panicked".into()))
            })
            .collect()
    });
    targets
        .into_iter()
        .zip(results)
        .map(|(t, r)| r.map(|code| (t, code)))
        .collect()
}

/// The lock of the cache file `file` in this process.
fn file_lock(file: &Path) -> Arc<Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = OnceLock::new();
    let mut locks = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    locks.entry(file.to_path_buf()).or_default().clone()
}

/// `module` (a CUDA module whose kernels' source is `source`) with its
/// static of compiled code appended.
pub fn with_binaries(mut module: String, source: &str, archs: &[String]) -> Result<String, String> {
    let binaries = compile_kernels(source, archs)?;
    module.push('\n');
    module.push_str(&gpu::binaries_item(&binaries));
    Ok(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_compiles_with_the_options_the_kernels_need() {
        // An executable compiling its kernels at run time (no embedded code
        // fits the device) must pass what `fut cuda` passes.
        assert_eq!(
            fut_runtime_cuda::program::NVRTC_OPTIONS,
            gpu::kernel_c::prelude::build_options(gpu::kernel_c::Target::Cuda)
        );
    }

    #[test]
    fn architectures_are_parsed_and_checked() {
        assert_eq!(
            parse_archs("sm_90,sm_80").unwrap(),
            vec!["sm_90".to_string(), "sm_80".to_string()]
        );
        assert_eq!(parse_archs(" sm_100 , sm_100,").unwrap(), vec!["sm_100"]);
        for bad in [
            "sm90",
            "sm_9",
            "compute_80",
            "sm_90a",
            "sm_1000",
            "90",
            "",
            ",",
        ] {
            assert!(parse_archs(bad).is_err(), "{bad}");
        }
        assert!(
            parse_archs("sm_x0")
                .unwrap_err()
                .contains("`sm_x0` is not a CUDA architecture")
        );
    }

    #[test]
    fn ptx_is_for_the_lowest_architecture() {
        assert_eq!(targets(&default_archs()), ["sm_90", "sm_80", "compute_80"]);
        let archs = parse_archs("sm_100,sm_90").unwrap();
        assert_eq!(targets(&archs), ["sm_100", "sm_90", "compute_90"]);
        assert!(options().contains(&"--fmad=false".to_string()));
    }

    #[test]
    fn no_kernels_need_no_nvrtc() {
        assert_eq!(compile_kernels("", &default_archs()), Ok(Vec::new()));
    }
}
