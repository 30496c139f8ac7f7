//! The kernel program of a generated module ([`KernelProgram`]), and the
//! on-disk cache of compiled kernels that runtimes share.
//!
//! Generated code declares its kernels as a static [`KernelProgram`]: the
//! kernel source (OpenCL C or CUDA C), per kernel its name, its profile
//! label and its assertions, and any code compiled ahead of time
//! ([`Binary`]: CUDA cubin and PTX). A runtime builds or loads the
//! program on the first launch of one of its kernels.
//!
//! Compiled code is also kept on disk, under [`cache_dir`]: a file's name
//! is a hash of what the code depends on (the source, the options, the
//! device, the driver, the compiler), and the file repeats all of it
//! before the code ([`load_cached`], [`save_cached`]), so a hash
//! collision is never mistaken for a hit. A cache that cannot be read or
//! written is no error: the code is built from source.

use std::path::{Path, PathBuf};

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
    /// The work-group (block) size it must be launched with, or 0 for
    /// the runtime's choice: a group loop's kernel, whose threads
    /// cooperate through local memory and barriers, needs exactly its
    /// groups' size.
    pub group: u32,
    /// Its assertions, numbered from 0 in the failure protocol.
    pub asserts: &'static [AssertInfo],
}

/// Code compiled ahead of time from a program's source.
#[derive(Debug)]
pub struct Binary {
    /// What it is for: `sm_XY` (a CUDA cubin for devices of compute
    /// capability X.Y) or `compute_XY` (PTX text for X.Y and later).
    pub arch: &'static str,
    /// The code.
    pub code: &'static [u8],
}

/// The kernels of a generated module.
#[derive(Debug)]
pub struct KernelProgram {
    /// The source of every kernel, prelude included.
    pub source: &'static str,
    /// The kernels, numbered from 0 in [`crate::launch()`].
    pub kernels: &'static [KernelInfo],
    /// Code compiled from `source` ahead of time (empty for OpenCL).
    pub binaries: &'static [Binary],
    /// The thresholds host code chooses between versions of code by, as
    /// tuning parameters: name and default.
    pub thresholds: &'static [(&'static str, i64)],
}

/// The 64-bit FNV-1a hash of `bytes` (stable across builds, unlike the
/// standard library's hasher).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The directory of cached code of the API `api` (`opencl`, `cuda`):
/// `$FUT_CACHE_DIR/API`, else `$XDG_CACHE_HOME/fut/API`, else
/// `~/.cache/fut/API`; `None` when none can be named.
pub fn cache_dir(api: &str) -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    if let Some(d) = var("FUT_CACHE_DIR") {
        return Some(PathBuf::from(d).join(api));
    }
    if let Some(d) = var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("fut").join(api));
    }
    var("HOME").map(|h| PathBuf::from(h).join(".cache").join("fut").join(api))
}

/// The cache file of the code described by `check` (what it depends on,
/// as bytes) in [`cache_dir`]`(api)`.
pub fn cache_file(api: &str, check: &[u8]) -> Option<PathBuf> {
    cache_dir(api).map(|d| d.join(format!("{:016x}.bin", fnv1a(check))))
}

/// The code cached in `file` for `check` (starting with `magic`), if the
/// file exists, is whole and was written for exactly `check`.
pub fn load_cached(file: &Path, magic: &[u8; 8], check: &[u8]) -> Option<Vec<u8>> {
    let data = std::fs::read(file).ok()?;
    let rest = data.strip_prefix(magic)?;
    let (len, rest) = rest.split_first_chunk::<8>()?;
    let len = usize::try_from(u64::from_le_bytes(*len)).ok()?;
    if rest.len() < len || &rest[..len] != check {
        return None;
    }
    let code = &rest[len..];
    (!code.is_empty()).then(|| code.to_vec())
}

/// Writes `code` to `file` after `magic` and `check` (through a temporary
/// file and a rename, so readers never see half a file); failures are
/// ignored.
pub fn save_cached(file: &Path, magic: &[u8; 8], check: &[u8], code: &[u8]) {
    let Some(dir) = file.parent() else {
        return;
    };
    if code.is_empty() || std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let mut data = Vec::with_capacity(16 + check.len() + code.len());
    data.extend_from_slice(magic);
    data.extend_from_slice(&(check.len() as u64).to_le_bytes());
    data.extend_from_slice(check);
    data.extend_from_slice(code);
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

    #[test]
    fn cached_code_round_trips_and_checks_what_it_was_built_for() {
        let dir = std::env::temp_dir().join(format!("fut-gpu-cache-test-{}", std::process::id()));
        let file = dir.join("x.bin");
        save_cached(&file, b"FUTTEST1", b"check", b"code");
        assert_eq!(
            load_cached(&file, b"FUTTEST1", b"check").as_deref(),
            Some(&b"code"[..])
        );
        assert_eq!(load_cached(&file, b"FUTTEST1", b"other"), None);
        assert_eq!(load_cached(&file, b"FUTTEST2", b"check"), None);
        std::fs::write(&file, b"FUTTEST1\x05").unwrap();
        assert_eq!(load_cached(&file, b"FUTTEST1", b"check"), None);
        assert_eq!(
            load_cached(&dir.join("absent"), b"FUTTEST1", b"check"),
            None
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
