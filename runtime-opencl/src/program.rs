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
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use opencl3::kernel::Kernel;
use opencl3::program::Program;

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

/// One assertion of a kernel: what its failure reports.
#[derive(Debug)]
pub struct AssertInfo {
    /// The message, with a `{}` for each argument.
    pub msg: &'static str,
    /// The source span: file number, start and end byte.
    pub span: (u32, u32, u32),
    /// The types of the arguments (`i64`, `f32`, `bool`, …), in order.
    pub args: &'static [&'static str],
}

/// One kernel of a program.
#[derive(Debug)]
pub struct KernelInfo {
    /// Its name in the source.
    pub name: &'static str,
    /// What `-P` calls it: the segmented operation and its source
    /// location, as the multicore backend names its parallel loops
    /// (`segmap prog.fut:3:5-3:20`); `kernel NAME` when empty.
    pub label: &'static str,
    /// Its assertions, numbered from 0 in the failure protocol.
    pub asserts: &'static [AssertInfo],
}

/// The OpenCL C program of a generated module.
#[derive(Debug)]
pub struct KernelProgram {
    /// The OpenCL C source of every kernel.
    pub source: &'static str,
    /// The kernels, numbered from 0 in [`crate::launch::launch`].
    pub kernels: &'static [KernelInfo],
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
    let file = cache_dir().map(|d| d.join(format!("{:016x}.bin", fnv1a(check.as_bytes()))));
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
        let preferred = group_size().unwrap_or(if gpu.desc.kind == "CPU" {
            CPU_LOCAL_SIZE
        } else {
            GPU_LOCAL_SIZE
        });
        let local = preferred
            .min(
                kernel
                    .get_work_group_size(gpu.device.id())
                    .unwrap_or(preferred),
            )
            .min(gpu.max_work_group)
            .max(1);
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

/// The 64-bit FNV-1a hash of `bytes` (stable across builds, unlike the
/// standard library's hasher).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The directory of cached binaries, if one can be named.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("FUT_CACHE_DIR") {
        return Some(PathBuf::from(d).join("opencl"));
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("fut").join("opencl"));
    }
    var("HOME").map(|h| PathBuf::from(h).join(".cache").join("fut").join("opencl"))
}

/// The first bytes of a cache file.
const MAGIC: &[u8; 8] = b"FUTCLB01";

/// The program of the binary cached in `file` for `check`, if there is
/// one and it loads.
fn load_binary(gpu: &Gpu, file: &PathBuf, check: &[u8]) -> Option<Program> {
    let data = std::fs::read(file).ok()?;
    let rest = data.strip_prefix(MAGIC)?;
    let (len, rest) = rest.split_first_chunk::<8>()?;
    let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
    if rest.len() < len || &rest[..len] != check {
        return None;
    }
    let binary = &rest[len..];
    if binary.is_empty() {
        return None;
    }
    Program::create_and_build_from_binary(&gpu.context, &[binary], &gpu.build_options).ok()
}

/// Writes the binary of `p` to `file` after `check` (through a temporary
/// file and a rename, so readers never see half a file); failures are
/// ignored.
fn save_binary(p: &Program, file: &PathBuf, check: &[u8]) {
    let Ok(binaries) = p.get_binaries() else {
        return;
    };
    let Some(binary) = binaries.into_iter().next().filter(|b| !b.is_empty()) else {
        return;
    };
    let Some(dir) = file.parent() else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut data = Vec::with_capacity(16 + check.len() + binary.len());
    data.extend_from_slice(MAGIC);
    data.extend_from_slice(&(check.len() as u64).to_le_bytes());
    data.extend_from_slice(check);
    data.extend_from_slice(&binary);
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, &data)
        .and_then(|()| std::fs::rename(&tmp, file))
        .is_err()
    {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_fnv1a() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(fnv1a(b"ab"), fnv1a(b"ba"));
    }
}
