//! The OpenCL programs of generated code, built once per process.
//!
//! Generated code declares its kernels as a static [`KernelProgram`]: the
//! OpenCL C source and, per kernel, its name and its assertions. The
//! program is built on the first launch of one of its kernels (cached by
//! the static's address) with the device's options (`Gpu::build_options`: OpenCL C 1.2,
//! the default), and its kernel objects are created then and kept (each
//! behind a lock: a kernel's arguments are state of the object).
//!
//! Building from source can take a second, so programs are also kept on
//! disk as device binaries: in `$FUT_CACHE_DIR/opencl`, else
//! `$XDG_CACHE_HOME/fut/opencl`, else `~/.cache/fut/opencl`. A file's
//! name is a hash of what the binary depends on (the source, the options,
//! the platform's name and version, the device's name and the driver's
//! version), and the file repeats all of it before the binary, so a hash
//! collision is never mistaken for a hit. Any failure to read or load a
//! cached binary falls back to the source; a binary is written after each
//! build from source, ignoring failures (a read-only cache is no error).

use std::collections::hash_map::Entry;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use opencl3::kernel::Kernel;
use opencl3::program::Program;

use fut_runtime_gpu::program::{KernelProgram, cache_file, load_cached, save_cached};

use crate::device::Gpu;

/// The work-group size of kernels on GPUs and accelerators.
pub const GPU_LOCAL_SIZE: usize = 256;

/// The work-group size of kernels on CPU devices (PoCL): smaller groups
/// share the iterations out more evenly among the CPU's threads, and
/// PoCL compiles a kernel once per work-group size, so it stays fixed.
pub const CPU_LOCAL_SIZE: usize = 64;

/// The work-group size `FUT_OPENCL_GROUP_SIZE` asks for, if it is a
/// positive number (it replaces the defaults above, still capped by the
/// kernel's and the device's limits).
fn group_size() -> Option<usize> {
    std::env::var("FUT_OPENCL_GROUP_SIZE")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
}

/// Programs built from source, and from cached binaries, so far.
static BUILDS: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];

/// How many programs this process built from source, and how many it
/// loaded from cached binaries.
pub fn build_counts() -> (usize, usize) {
    (
        BUILDS[0].load(Ordering::Relaxed),
        BUILDS[1].load(Ordering::Relaxed),
    )
}

/// A built program and its kernel objects.
pub(crate) struct Built {
    _program: Program,
    pub(crate) kernels: Vec<BuiltKernel>,
}

/// A kernel object and the work-group size it is launched with.
pub(crate) struct BuiltKernel {
    pub(crate) kernel: Mutex<Kernel>,
    pub(crate) local: usize,
    /// How many arguments it takes, when the driver says.
    pub(crate) nargs: Option<u32>,
}

/// The program `prog` built for the context, building it on first use.
pub(crate) fn built(gpu: &Gpu, prog: &'static KernelProgram) -> Result<Arc<Built>, String> {
    let key = std::ptr::from_ref(prog) as usize;
    let mut map = gpu.programs.lock().unwrap_or_else(|e| e.into_inner());
    match map.entry(key) {
        Entry::Occupied(e) => Ok(e.get().clone()),
        Entry::Vacant(v) => Ok(v.insert(Arc::new(build(gpu, prog)?)).clone()),
    }
}

fn build(gpu: &Gpu, prog: &KernelProgram) -> Result<Built, String> {
    let check = cache_check(gpu, prog.source);
    let file = cache_file("opencl", check.as_bytes());
    let cached = file
        .as_ref()
        .and_then(|f| load_binary(gpu, f, check.as_bytes()));
    let program = match cached {
        Some(p) => {
            BUILDS[1].fetch_add(1, Ordering::Relaxed);
            p
        }
        None => {
            let p = Program::create_and_build_from_source(&gpu.context, prog.source, &gpu.build_options)
                .map_err(|log| {
                    format!(
                        "internal compiler error (a bug in fut): the OpenCL kernels do not build:\n{log}"
                    )
                })?;
            BUILDS[0].fetch_add(1, Ordering::Relaxed);
            if let Some(f) = &file {
                save_binary(&p, f, check.as_bytes());
            }
            p
        }
    };
    let mut kernels = Vec::with_capacity(prog.kernels.len());
    for k in prog.kernels {
        let kernel = Kernel::create(&program, k.name).map_err(|e| {
            format!(
                "internal compiler error (a bug in fut): the OpenCL program has no kernel {}: {e}",
                k.name
            )
        })?;
        let preferred = fut_runtime_gpu::params::VALUES
            .group_size(k.name)
            .map(|g| usize::try_from(g).unwrap_or(usize::MAX))
            .or_else(group_size)
            .unwrap_or(if gpu.desc.kind == "CPU" {
                CPU_LOCAL_SIZE
            } else {
                GPU_LOCAL_SIZE
            });
        let most = kernel
            .get_work_group_size(gpu.device.id())
            .unwrap_or(preferred)
            .min(gpu.max_work_group);
        let local = if k.group == 0 {
            preferred.min(most).max(1)
        } else if k.group as usize <= most {
            k.group as usize
        } else {
            return Err(format!(
                "the device cannot run kernel {}: it needs work-groups of {} threads, and the \
                 device allows {most}",
                k.name, k.group
            ));
        };
        kernels.push(BuiltKernel {
            nargs: kernel.num_args().ok(),
            kernel: Mutex::new(kernel),
            local,
        });
    }
    Ok(Built {
        _program: program,
        kernels,
    })
}

/// What a binary depends on, as text: the options, the platform, the
/// device, the driver, then the source.
fn cache_check(gpu: &Gpu, source: &str) -> String {
    format!(
        "options: {}\nplatform: {} {}\ndevice: {}\ndriver: {}\n\0{source}",
        gpu.build_options,
        gpu.desc.platform,
        gpu.platform_version,
        gpu.desc.name,
        gpu.driver_version
    )
}

/// The first bytes of a cache file.
const MAGIC: &[u8; 8] = b"FUTCLB01";

/// The program of the binary cached in `file` for `check`, if there is
/// one and it loads.
fn load_binary(gpu: &Gpu, file: &Path, check: &[u8]) -> Option<Program> {
    let binary = load_cached(file, MAGIC, check)?;
    Program::create_and_build_from_binary(&gpu.context, &[&binary], &gpu.build_options).ok()
}

/// Writes the binary of `p` to `file` after `check`; failures are
/// ignored.
fn save_binary(p: &Program, file: &Path, check: &[u8]) {
    if let Ok(binaries) = p.get_binaries()
        && let Some(binary) = binaries.into_iter().next()
    {
        save_cached(file, MAGIC, check, &binary);
    }
}
