//! The CUDA modules of generated code, loaded once per process.
//!
//! Generated code declares its kernels as a static [`KernelProgram`]: the
//! CUDA C++ source, per kernel its name and its assertions, and the code
//! `fut cuda` compiled ahead of time ([`Binary`]: cubin for `sm_XY`, PTX
//! for `compute_XY`). The module is loaded on the first launch of one of
//! its kernels (cached by the static's address), from the first of these
//! that the driver accepts ([`plan`]):
//!
//! 1. an embedded cubin for exactly the device's architecture (`sm_90`
//!    on an H100);
//! 2. the embedded PTX of the highest `compute_XY` not above the device's
//!    (the driver compiles it for the device; PTX for a newer
//!    architecture cannot run);
//! 3. the source, compiled by NVRTC ([`crate::nvrtc`], loaded only
//!    now) into a cubin for the device, with [`NVRTC_OPTIONS`] (or, when
//!    NVRTC is older than the device, into PTX for the newest
//!    architecture it knows).
//!
//! A module the driver rejects (PTX newer than the driver, say) falls
//! through to the next; when none loads, the error names the driver's
//! version, which may be too old. Without usable embedded code and
//! without NVRTC, the error says how to rebuild the program for the
//! device.
//!
//! Compiling with NVRTC can take seconds, so its cubins are also kept on
//! disk ([`fut_runtime_gpu::program::cache_file`]): in
//! `$FUT_CACHE_DIR/cuda`, else `$XDG_CACHE_HOME/fut/cuda`, else
//! `~/.cache/fut/cuda`, keyed by the source, the options, the device's
//! architecture, NVRTC's version and the driver's. A cached cubin the
//! driver rejects is compiled again; a cache that cannot be written is
//! no error.
//!
//! Each kernel is launched in blocks of 256 threads (`FUT_CUDA_BLOCK_SIZE`
//! replaces that), at most the kernel's
//! `CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK` (a kernel of many registers
//! allows fewer), and may use as much dynamic shared memory as the device
//! allows a block.

use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use cudarc::driver::sys::CUfunction_attribute;
use cudarc::driver::{CudaFunction, CudaModule};
use cudarc::nvrtc::Ptx;

use fut_runtime_gpu::program::{Binary, KernelProgram, cache_file, load_cached, save_cached};

use crate::device::{Cuda, describe, sm_name, version_text};

/// The options NVRTC compiles kernels with, besides the architecture:
/// those the kernel prelude requires (the compiler's
/// `gpu::kernel_c::prelude::build_options(Target::Cuda)`, mirrored here:
/// correctly rounded `f32` division and square root, no flushing of
/// subnormals, no contraction of multiplies and adds into fused
/// multiply-adds, which Futhark's semantics forbid). The runtime adds
/// `-w` (the prelude's unused helpers are no concern of the program's
/// user) and the words of `FUT_CUDA_BUILD_OPTIONS`.
pub const NVRTC_OPTIONS: &[&str] = &[
    "--fmad=false",
    "--prec-div=true",
    "--prec-sqrt=true",
    "--ftz=false",
];

/// The threads of a block, unless `FUT_CUDA_BLOCK_SIZE` says otherwise.
pub const BLOCK_SIZE: u32 = 256;

/// The block size `FUT_CUDA_BLOCK_SIZE` asks for, if it is a positive
/// number (it replaces [`BLOCK_SIZE`], still capped by the kernel's
/// limit).
fn block_size() -> Option<u32> {
    std::env::var("FUT_CUDA_BLOCK_SIZE")
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|&n| n > 0)
}

/// Where a program's module may come from, in the order tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The embedded binary of this index: a cubin or PTX.
    Embedded(usize),
    /// The source, compiled by NVRTC.
    Nvrtc,
}

/// An architecture name: `sm_90`, `compute_86`, `sm_90a` (a suffix
/// marks code for exactly that capability); `None` when not one.
fn parse_arch(arch: &str) -> Option<(&str, (u32, u32), bool)> {
    let (kind, rest) = arch.split_once('_')?;
    let digits = rest.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffixed = digits.len() != rest.len();
    if digits.len() < 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (major, minor) = digits.split_at(digits.len() - 1);
    Some((kind, (major.parse().ok()?, minor.parse().ok()?), suffixed))
}

/// The order in which to try to load a program on a device of compute
/// capability `device`, given the program's embedded `binaries` and
/// whether NVRTC may compile its source (`nvrtc`): the cubins for exactly
/// the device's architecture, then the PTX of the highest architecture
/// not above the device's, then NVRTC. An error when there is nothing to
/// try, naming the device's architecture and the embedded ones, and
/// saying how to fix it.
pub fn plan(device: (u32, u32), binaries: &[Binary], nvrtc: bool) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    let parsed: Vec<_> = binaries.iter().map(|b| parse_arch(b.arch)).collect();
    for (i, p) in parsed.iter().enumerate() {
        if let Some(("sm", arch, _)) = *p
            && arch == device
        {
            steps.push(Step::Embedded(i));
        }
    }
    let ptx = parsed
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match *p {
            Some(("compute", arch, suffixed))
                if arch <= device && (!suffixed || arch == device) =>
            {
                Some((arch, i))
            }
            _ => None,
        })
        // The highest architecture; the first of equals.
        .min_by_key(|&(arch, i)| (std::cmp::Reverse(arch), i));
    if let Some((_, i)) = ptx {
        steps.push(Step::Embedded(i));
    }
    if nvrtc {
        steps.push(Step::Nvrtc);
    }
    if steps.is_empty() {
        let sm = sm_name(device);
        let embedded = if binaries.is_empty() {
            "no compiled code".to_string()
        } else {
            format!(
                "code for {}",
                binaries
                    .iter()
                    .map(|b| b.arch)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Err(format!(
            "the program has no code for this device's architecture, {sm} (it embeds {embedded}), \
             and no NVRTC to compile its kernels: rebuild it with `fut cuda --cuda-arch {sm}`, \
             or install NVRTC"
        ));
    }
    Ok(steps)
}

/// Programs compiled with NVRTC, loaded from NVRTC's disk cache, and
/// loaded from embedded code, so far.
static LOADS: [AtomicUsize; 3] = [
    AtomicUsize::new(0),
    AtomicUsize::new(0),
    AtomicUsize::new(0),
];

/// How many programs this process compiled with NVRTC, how many it
/// loaded from cubins cached on disk, and how many from the code embedded
/// in the program.
pub fn build_counts() -> (usize, usize, usize) {
    (
        LOADS[0].load(Ordering::Relaxed),
        LOADS[1].load(Ordering::Relaxed),
        LOADS[2].load(Ordering::Relaxed),
    )
}

/// A loaded module's kernels.
pub(crate) struct Loaded {
    pub(crate) kernels: Vec<LoadedKernel>,
}

/// A kernel and how it is launched.
pub(crate) struct LoadedKernel {
    /// The function (it keeps its module loaded).
    pub(crate) func: CudaFunction,
    /// The threads of a block.
    pub(crate) block: u32,
    /// The sizes in bytes of its parameters, when the driver says
    /// (`cuFuncGetParamInfo`, CUDA 12.4 and later).
    pub(crate) params: Option<Vec<usize>>,
}

/// The program `prog` loaded in the context, loading it on first use.
pub(crate) fn loaded(gpu: &Cuda, prog: &'static KernelProgram) -> Result<Arc<Loaded>, String> {
    let key = std::ptr::from_ref(prog) as usize;
    let mut map = gpu.programs.lock().unwrap_or_else(|e| e.into_inner());
    match map.entry(key) {
        Entry::Occupied(e) => Ok(e.get().clone()),
        Entry::Vacant(v) => Ok(v.insert(Arc::new(load(gpu, prog)?)).clone()),
    }
}

fn load(gpu: &Cuda, prog: &KernelProgram) -> Result<Loaded, String> {
    let module = load_module(gpu, prog)?;
    let mut kernels = Vec::with_capacity(prog.kernels.len());
    for k in prog.kernels {
        let func = module.load_function(k.name).map_err(|e| {
            format!(
                "internal compiler error (a bug in fut): the CUDA module has no kernel {}: {}",
                k.name,
                describe(e)
            )
        })?;
        let most = func
            .max_threads_per_block()
            .map(|m| m.max(1) as u32)
            .unwrap_or(BLOCK_SIZE);
        let block = if k.group == 0 {
            fut_runtime_gpu::params::VALUES
                .group_size(k.name)
                .map(|g| u32::try_from(g).unwrap_or(u32::MAX))
                .or_else(block_size)
                .unwrap_or(BLOCK_SIZE)
                .min(most)
                .max(1)
        } else if k.group <= most {
            k.group
        } else {
            return Err(format!(
                "the device cannot run kernel {}: it needs blocks of {} threads, and it allows \
                 {most}",
                k.name, k.group
            ));
        };
        // No kernel uses dynamic shared memory yet; allowing what the
        // device offers costs nothing.
        let fixed = func.shared_size_bytes().unwrap_or(0);
        if gpu.max_shared_optin > fixed {
            let _ = func.set_attribute(
                CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                gpu.max_shared_optin - fixed,
            );
        }
        let params = crate::launch::param_sizes(&func);
        kernels.push(LoadedKernel {
            func,
            block,
            params,
        });
    }
    Ok(Loaded { kernels })
}

/// The program's module, from the first step of [`plan`] that works.
fn load_module(gpu: &Cuda, prog: &KernelProgram) -> Result<Arc<CudaModule>, String> {
    let steps = plan(gpu.arch, prog.binaries, true)?;
    let mut failures: Vec<String> = Vec::new();
    for step in steps {
        match step {
            Step::Embedded(i) => {
                let b = &prog.binaries[i];
                match module_of(gpu, b.code, b.arch.starts_with("compute")) {
                    Ok(m) => {
                        LOADS[2].fetch_add(1, Ordering::Relaxed);
                        return Ok(m);
                    }
                    Err(e) => failures.push(format!("the embedded {}: {e}", b.arch)),
                }
            }
            Step::Nvrtc => {
                if let Err(why) = crate::nvrtc::load() {
                    if failures.is_empty() {
                        let e = plan(gpu.arch, prog.binaries, false)
                            .err()
                            .unwrap_or_default();
                        return Err(format!("{e}\n{why}"));
                    }
                    failures.push(format!("NVRTC: {why}"));
                    continue;
                }
                match compiled(gpu, prog.source) {
                    Ok(m) => return Ok(m),
                    Err(Compile::Source(e)) => return Err(e),
                    Err(Compile::Load(e)) => failures.push(e),
                }
            }
        }
    }
    Err(format!(
        "the driver (CUDA {}) loads none of the program's code for {} ({}): \
         the driver may be too old for it; update the NVIDIA driver, or rebuild the program \
         with an NVRTC no newer than the driver",
        version_text(gpu.driver_version),
        sm_name(gpu.arch),
        failures.join("; ")
    ))
}

/// Why NVRTC's way failed: the source does not compile (final), or the
/// driver rejects the cubin (the next step may do).
enum Compile {
    Source(String),
    Load(String),
}

/// The first bytes of a cache file.
const MAGIC: &[u8; 8] = b"FUTCUB01";

/// The module of the source compiled by NVRTC for the device: from the
/// disk cache when it holds a cubin the driver accepts, else compiled
/// (and cached).
fn compiled(gpu: &Cuda, source: &str) -> Result<Arc<CudaModule>, Compile> {
    let sm = sm_name(gpu.arch);
    let mut options: Vec<String> = NVRTC_OPTIONS.iter().map(|s| s.to_string()).collect();
    options.push("-w".into());
    if let Ok(extra) = std::env::var("FUT_CUDA_BUILD_OPTIONS") {
        options.extend(extra.split_whitespace().map(str::to_string));
    }
    let nvrtc = crate::nvrtc::version()
        .map(|(major, minor)| format!("{major}.{minor}"))
        .map_err(|e| Compile::Load(format!("NVRTC: {e}")))?;
    let supported = crate::nvrtc::supported_archs().ok();
    let target = nvrtc_target(gpu.arch, supported.as_deref()).ok_or_else(|| {
        Compile::Load(format!(
            "NVRTC {nvrtc} compiles for no architecture up to {sm} (only {:?})",
            supported.unwrap_or_default()
        ))
    })?;
    let check = format!(
        "options: {}\ndevice: {sm}\ntarget: {target}\nnvrtc: {nvrtc}\ndriver: {}\n\0{source}",
        options.join(" "),
        gpu.driver_version
    );
    let file = cache_file("cuda", check.as_bytes());
    let ptx = target.starts_with("compute");
    if let Some(f) = &file
        && let Some(code) = load_cached(f, MAGIC, check.as_bytes())
        && let Ok(m) = module_of(gpu, &code, ptx)
    {
        LOADS[1].fetch_add(1, Ordering::Relaxed);
        return Ok(m);
    }
    let code = crate::nvrtc::compile(source, &options, &target).map_err(|e| {
        Compile::Source(if e.starts_with("internal") {
            e
        } else {
            format!("NVRTC {nvrtc} cannot compile the kernels for {target}: {e}")
        })
    })?;
    LOADS[0].fetch_add(1, Ordering::Relaxed);
    let m = module_of(gpu, &code, ptx)
        .map_err(|e| Compile::Load(format!("NVRTC {nvrtc}'s code for {target}: {e}")))?;
    if let Some(f) = &file {
        save_cached(f, MAGIC, check.as_bytes(), &code);
    }
    Ok(m)
}

/// What NVRTC compiles for on a device of compute capability `device`,
/// given the architectures it supports (`supported`, as numbers: `90`;
/// `None` when it does not say): the device's cubin (`sm_XY`) when it
/// can, else PTX for the highest architecture it knows not above the
/// device's (an NVRTC older than the device); `None` when it knows none.
fn nvrtc_target(device: (u32, u32), supported: Option<&[i32]>) -> Option<String> {
    let dev = i64::from(device.0) * 10 + i64::from(device.1);
    let Some(archs) = supported.filter(|a| !a.is_empty()) else {
        return Some(sm_name(device));
    };
    if archs.iter().any(|&a| i64::from(a) == dev) {
        return Some(sm_name(device));
    }
    archs
        .iter()
        .filter(|&&a| i64::from(a) <= dev)
        .max()
        .map(|a| format!("compute_{a}"))
}

/// The module of `code`: a cubin, or PTX text when `ptx`.
fn module_of(gpu: &Cuda, code: &[u8], ptx: bool) -> Result<Arc<CudaModule>, String> {
    let mut image = code.to_vec();
    if ptx {
        // The driver reads PTX up to its terminating zero.
        if image.last() != Some(&0) {
            image.push(0);
        }
    } else if !image.starts_with(b"\x7fELF") {
        // The driver would take it for PTX, and read past its end.
        return Err("not a cubin (an ELF file)".into());
    }
    gpu.ctx
        .load_module(Ptx::from_binary(image))
        .map_err(describe)
}

#[cfg(test)]
mod tests {
    use super::*;

    static CODE: &[u8] = b"";

    fn bins(archs: &[&'static str]) -> Vec<Binary> {
        archs
            .iter()
            .map(|&arch| Binary { arch, code: CODE })
            .collect()
    }

    #[test]
    fn architecture_names() {
        assert_eq!(parse_arch("sm_90"), Some(("sm", (9, 0), false)));
        assert_eq!(parse_arch("compute_86"), Some(("compute", (8, 6), false)));
        assert_eq!(parse_arch("sm_120"), Some(("sm", (12, 0), false)));
        assert_eq!(parse_arch("sm_90a"), Some(("sm", (9, 0), true)));
        assert_eq!(parse_arch("sm_9"), None);
        assert_eq!(parse_arch("sm_x0"), None);
        assert_eq!(parse_arch("cubin"), None);
    }

    #[test]
    fn an_exact_cubin_comes_first_then_ptx_then_nvrtc() {
        let b = bins(&["compute_80", "sm_80", "sm_90", "compute_90"]);
        assert_eq!(
            plan((9, 0), &b, true),
            Ok(vec![Step::Embedded(2), Step::Embedded(3), Step::Nvrtc])
        );
        assert_eq!(
            plan((8, 0), &b, false),
            Ok(vec![Step::Embedded(1), Step::Embedded(0)])
        );
    }

    #[test]
    fn a_cubin_is_for_its_architecture_only() {
        // sm_80 code on an sm_86 device: not taken (nor sm_90 code).
        let b = bins(&["sm_80", "sm_90"]);
        assert_eq!(plan((8, 6), &b, true), Ok(vec![Step::Nvrtc]));
        assert!(plan((8, 6), &b, false).is_err());
    }

    #[test]
    fn ptx_for_an_older_architecture_is_accepted_the_highest_first() {
        let b = bins(&["compute_70", "compute_86", "compute_80", "compute_86"]);
        assert_eq!(plan((9, 0), &b, false), Ok(vec![Step::Embedded(1)]));
        assert_eq!(plan((8, 0), &b, false), Ok(vec![Step::Embedded(2)]));
        assert_eq!(
            plan((12, 0), &b, true),
            Ok(vec![Step::Embedded(1), Step::Nvrtc])
        );
    }

    #[test]
    fn ptx_for_a_newer_architecture_is_rejected() {
        let b = bins(&["compute_90", "sm_90"]);
        assert_eq!(plan((8, 9), &b, true), Ok(vec![Step::Nvrtc]));
        let e = plan((8, 0), &b, false).unwrap_err();
        assert!(
            e.contains("sm_80") && e.contains("compute_90, sm_90"),
            "{e}"
        );
    }

    #[test]
    fn architecture_specific_code_runs_on_its_architecture_only() {
        let b = bins(&["compute_90a", "sm_90a", "compute_80"]);
        assert_eq!(
            plan((9, 0), &b, false),
            Ok(vec![Step::Embedded(1), Step::Embedded(0)])
        );
        assert_eq!(plan((10, 0), &b, false), Ok(vec![Step::Embedded(2)]));
    }

    #[test]
    fn nothing_usable_and_no_nvrtc_says_how_to_fix_it() {
        assert_eq!(plan((9, 0), &[], true), Ok(vec![Step::Nvrtc]));
        let e = plan((9, 0), &[], false).unwrap_err();
        assert_eq!(
            e,
            "the program has no code for this device's architecture, sm_90 (it embeds no \
             compiled code), and no NVRTC to compile its kernels: rebuild it with \
             `fut cuda --cuda-arch sm_90`, or install NVRTC"
        );
        let e = plan((7, 5), &bins(&["sm_80", "compute_80"]), false).unwrap_err();
        assert!(
            e.contains("architecture, sm_75 (it embeds code for sm_80, compute_80)"),
            "{e}"
        );
        assert!(e.contains("`fut cuda --cuda-arch sm_75`"), "{e}");
    }

    #[test]
    fn nvrtc_compiles_the_devices_cubin_else_the_newest_ptx_it_can() {
        let archs = [50, 60, 70, 75, 80, 86, 89, 90];
        assert_eq!(nvrtc_target((9, 0), Some(&archs)).as_deref(), Some("sm_90"));
        assert_eq!(nvrtc_target((8, 6), None).as_deref(), Some("sm_86"));
        assert_eq!(
            nvrtc_target((10, 0), Some(&archs)).as_deref(),
            Some("compute_90")
        );
        assert_eq!(
            nvrtc_target((8, 7), Some(&archs)).as_deref(),
            Some("compute_86")
        );
        assert_eq!(nvrtc_target((3, 5), Some(&archs)), None);
        assert_eq!(nvrtc_target((12, 0), Some(&[])).as_deref(), Some("sm_120"));
    }

    #[test]
    fn the_options_are_the_preludes() {
        assert!(NVRTC_OPTIONS.contains(&"--fmad=false"));
        assert!(NVRTC_OPTIONS.iter().all(|o| o.starts_with("--")));
    }
}
