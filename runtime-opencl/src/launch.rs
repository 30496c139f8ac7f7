//! Launching a kernel of generated code.
//!
//! # Kernel ABI
//!
//! [`launch`] calls kernel `k` of a [`KernelProgram`] with the sizes of
//! its iteration space (`d` of them), its scalars and its memory blocks.
//! The kernel is declared, in OpenCL C 1.2, as
//!
//! ```c
//! __kernel void NAME(__global long *fut_fail, long fut_n,
//!                    long size_0, ..., long size_{d-1},
//!                    SCALARS..., __global T *MEMS...)
//! ```
//!
//! - `fut_n` is the product of the sizes: the number of work items that
//!   do work. The global size is `fut_n` rounded up to a multiple of the
//!   work-group size, so the kernel starts with
//!   `if (get_global_id(0) >= fut_n) return;`. The work-group size is
//!   fixed per kernel: [`GPU_LOCAL_SIZE`](crate::program::GPU_LOCAL_SIZE)
//!   (256) on GPUs and accelerators,
//!   [`CPU_LOCAL_SIZE`](crate::program::CPU_LOCAL_SIZE) (64) on CPU devices such as PoCL's, capped by the
//!   kernel's and the device's maximum. One dimension only; the kernel
//!   unflattens its index itself.
//! - When a size is zero or negative nothing is launched.
//! - Scalars come in order, as `i8`→`char`, `i16`→`short`, `i32`→`int`,
//!   `i64`→`long`, `u8`→`uchar`, `u16`→`ushort`, `u32`→`uint`,
//!   `u64`→`ulong`, `f16`→`ushort` (its bits), `f32`→`float`,
//!   `f64`→`double`, `bool`→`uchar` (0 or 1). Blocks follow, in order,
//!   as `__global T*` with `T` the same mapping of their element type.
//!
//! # Failures
//!
//! `fut_fail` is the context's failure buffer: [`FAIL_WORDS`] (16) longs,
//! zero between failures. A work item whose check fails claims it with
//! `atomic_cmpxchg((volatile __global int *)fut_fail, 0, A + 1) == 0`
//! (`A`: the index of the assertion in the kernel's [`KernelInfo`];
//! 32-bit atomics exist on every OpenCL device; a kernel may use a 64-bit
//! `atom_cmpxchg` on `fut_fail[0]` instead) and, when it did, stores the
//! assertion's arguments in `fut_fail[1..]` as 64-bit patterns: signed
//! integers sign-extended, unsigned ones zero-extended, `f32` and `f64`
//! their bits in the low 32 or 64 bits, `f16` its bits, `bool` 0 or 1
//! (at most 15 arguments). It then returns; other work items may go on
//! or check `fut_fail[0]` and stop early. A kernel without assertions
//! never touches `fut_fail`.
//!
//! After a kernel whose [`KernelInfo::asserts`] is not empty, the host
//! reads the buffer (waiting for the kernel); when a failure was
//! claimed it clears the buffer and returns the assertion's failure
//! ([`assert_failed`] of its message, arguments and span). Kernels with
//! assertions launch one at a time, so a failure is never attributed to
//! the wrong one. Kernels without assertions are not waited for: later
//! host accesses to their blocks wait through the in-order queue.
//!
//! Any other OpenCL error is a [`Fail`] whose message starts with
//! `OpenCL error`, at span `(0, 0, 0)`; so is a context that cannot be
//! created ([`crate::device`]). With the profiler on (`-P`), each launch
//! is timed, waiting for the kernel, as the operation `kernel NAME`.

#![allow(unsafe_code)]

use fut_runtime_multicore::arr::{Fail, R};
use fut_runtime_multicore::mem::assert_failed;
use fut_runtime_multicore::profile;
use opencl3::types::{CL_BLOCKING, cl_long, cl_mem};
use values::{PrimValue, f16};

use crate::device::{self, FAIL_WORDS};
use crate::mem::DevArg;
use crate::program::{self, AssertInfo, KernelInfo, KernelProgram};

/// A failure without a source location.
fn plain(message: String) -> Fail {
    Fail {
        message,
        span: (0, 0, 0),
    }
}

/// Runs kernel `k` of `prog` over the iteration space `sizes` with the
/// scalar arguments `scalars` and the blocks `mems`, of which those with
/// `written[i]` are written by the kernel (see the module doc for the
/// ABI). Returns the failure of an assertion the kernel reported, or of
/// OpenCL.
pub fn launch(
    prog: &'static KernelProgram,
    k: usize,
    sizes: &[i64],
    scalars: &[PrimValue],
    mems: &[&dyn DevArg],
    written: &[bool],
) -> R<()> {
    let Some(info) = prog.kernels.get(k) else {
        return Err(plain(format!(
            "internal error: launch of kernel {k} of a program of {} kernels",
            prog.kernels.len()
        )));
    };
    if mems.len() != written.len() {
        return Err(plain(format!(
            "internal error: kernel {} launched with {} blocks and {} written flags",
            info.name,
            mems.len(),
            written.len()
        )));
    }
    if sizes.iter().any(|&s| s <= 0) {
        return Ok(());
    }
    let Some(n) = sizes.iter().try_fold(1i64, |a, &s| a.checked_mul(s)) else {
        return Err(plain(format!(
            "OpenCL error in kernel {}: the iteration space {sizes:?} has more than 2^63 points",
            info.name
        )));
    };
    let start = profile::op_start();
    let r = run(
        prog,
        info,
        k,
        n,
        sizes,
        scalars,
        mems,
        written,
        start.is_some(),
    );
    if start.is_some() {
        if info.label.is_empty() {
            profile::op_end(&format!("kernel {}", info.name), start);
        } else {
            profile::op_end(info.label, start);
        }
    }
    r
}

#[allow(clippy::too_many_arguments)]
fn run(
    prog: &'static KernelProgram,
    info: &KernelInfo,
    k: usize,
    n: i64,
    sizes: &[i64],
    scalars: &[PrimValue],
    mems: &[&dyn DevArg],
    written: &[bool],
    wait: bool,
) -> R<()> {
    let name = info.name;
    let cl = |what: &str, e: String| plain(format!("OpenCL error in kernel {name}: {what}: {e}"));
    let gpu = device::context().map_err(plain)?;
    let built = program::built(gpu, prog).map_err(plain)?;
    let bk = &built.kernels[k];
    let want = 2 + sizes.len() + scalars.len() + mems.len();
    if let Some(have) = bk.nargs
        && have as usize != want
    {
        return Err(plain(format!(
            "internal compiler error (a bug in fut): kernel {name} takes {have} arguments, launched with {want}"
        )));
    }
    let mut bufs: Vec<cl_mem> = Vec::with_capacity(mems.len());
    for m in mems {
        bufs.push(m.device_buffer().map_err(plain)?);
    }
    let local = bk.local;
    let global = u64::try_from(n)
        .ok()
        .and_then(|n| n.checked_next_multiple_of(local as u64))
        .and_then(|g| usize::try_from(g).ok())
        .ok_or_else(|| cl("the global size", format!("{n} work items do not fit")))?;
    let fail_guard = if info.asserts.is_empty() {
        None
    } else {
        Some(gpu.fail.lock().unwrap_or_else(|e| e.into_inner()))
    };
    let event = {
        let kernel = bk.kernel.lock().unwrap_or_else(|e| e.into_inner());
        let mut idx = 0u32;
        let mut set = |bytes: &[u8]| -> R<()> {
            // SAFETY: the argument's bytes, of the size the ABI gives its
            // parameter; OpenCL copies them.
            unsafe {
                cl3_set_arg(kernel.get(), idx, bytes)
                    .map_err(|e| cl(&format!("argument {idx}"), e))?;
            }
            idx += 1;
            Ok(())
        };
        set(&gpu.fail_mem.to_ne_bytes())?;
        set(&(n as cl_long).to_ne_bytes())?;
        for s in sizes {
            set(&s.to_ne_bytes())?;
        }
        for v in scalars {
            match *v {
                PrimValue::I8(x) => set(&x.to_ne_bytes())?,
                PrimValue::I16(x) => set(&x.to_ne_bytes())?,
                PrimValue::I32(x) => set(&x.to_ne_bytes())?,
                PrimValue::I64(x) => set(&x.to_ne_bytes())?,
                PrimValue::U8(x) => set(&x.to_ne_bytes())?,
                PrimValue::U16(x) => set(&x.to_ne_bytes())?,
                PrimValue::U32(x) => set(&x.to_ne_bytes())?,
                PrimValue::U64(x) => set(&x.to_ne_bytes())?,
                PrimValue::F16(x) => set(&x.to_bits().to_ne_bytes())?,
                PrimValue::F32(x) => set(&x.to_ne_bytes())?,
                PrimValue::F64(x) => set(&x.to_ne_bytes())?,
                PrimValue::Bool(x) => set(&[u8::from(x)])?,
            }
        }
        for b in &bufs {
            set(&(*b as usize).to_ne_bytes())?;
        }
        // SAFETY: every argument is set (counted above); the sizes are
        // the kernel's work-group size and a multiple of it.
        unsafe {
            gpu.queue.enqueue_nd_range_kernel(
                kernel.get(),
                1,
                std::ptr::null(),
                &global,
                &local,
                &[],
            )
        }
        .map_err(|e| cl("launch", e.to_string()))?
    };
    for (m, &w) in mems.iter().zip(written) {
        if w {
            m.mark_device_written();
        }
    }
    if wait {
        event.wait().map_err(|e| cl("waiting", e.to_string()))?;
    }
    drop(event);
    let Some(mut fail) = fail_guard else {
        return Ok(());
    };
    let mut words = [0i64; FAIL_WORDS];
    // SAFETY: the host array outlives the blocking read.
    unsafe {
        gpu.queue
            .enqueue_read_buffer(&fail, CL_BLOCKING, 0, &mut words, &[])
    }
    .map_err(|e| cl("reading the failure buffer", e.to_string()))?;
    if words[0] == 0 {
        return Ok(());
    }
    // SAFETY: as above, for the write.
    unsafe {
        gpu.queue
            .enqueue_write_buffer(&mut fail, CL_BLOCKING, 0, &[0i64; FAIL_WORDS], &[])
    }
    .map_err(|e| cl("clearing the failure buffer", e.to_string()))?;
    Err(decode(info, &words))
}

/// Sets a kernel argument from its bytes.
///
/// # Safety
/// `kernel` must be a live kernel, and `bytes` the value of argument
/// `idx` as the kernel declares it.
unsafe fn cl3_set_arg(
    kernel: opencl3::types::cl_kernel,
    idx: u32,
    bytes: &[u8],
) -> Result<(), String> {
    // SAFETY: the caller's promise; OpenCL copies the bytes.
    unsafe {
        opencl3::kernel::set_kernel_arg(kernel, idx, bytes.len(), bytes.as_ptr().cast())
            .map_err(|e| opencl3::error_codes::ClError(e).to_string())
    }
}

/// The failure that the words of the failure buffer report.
fn decode(info: &KernelInfo, words: &[i64; FAIL_WORDS]) -> Fail {
    let code = words[0] as u64;
    // The index claimed with a 32-bit atomic lies in the low half of the
    // word on little-endian devices, in the high half on big-endian ones.
    let code = if code & 0xffff_ffff != 0 {
        code & 0xffff_ffff
    } else {
        code >> 32
    };
    let Some(a) = usize::try_from(code - 1)
        .ok()
        .and_then(|i| info.asserts.get(i))
    else {
        return plain(format!(
            "internal error: kernel {} reported failure {code}, which it does not have",
            info.name
        ));
    };
    let args = decode_args(a, &words[1..]);
    assert_failed(a.msg, &args, a.span)
}

/// The arguments of assertion `a` from their 64-bit patterns.
fn decode_args(a: &AssertInfo, bits: &[i64]) -> Vec<PrimValue> {
    a.args
        .iter()
        .zip(bits)
        .map(|(&ty, &b)| prim_of_bits(ty, b as u64))
        .collect()
}

/// The value of type `ty` (a Futhark type name) whose pattern is `b`;
/// an unknown type name gives the pattern as an `i64`.
pub fn prim_of_bits(ty: &str, b: u64) -> PrimValue {
    match ty {
        "i8" => PrimValue::I8(b as i8),
        "i16" => PrimValue::I16(b as i16),
        "i32" => PrimValue::I32(b as i32),
        "u8" => PrimValue::U8(b as u8),
        "u16" => PrimValue::U16(b as u16),
        "u32" => PrimValue::U32(b as u32),
        "u64" => PrimValue::U64(b),
        "f16" => PrimValue::F16(f16::from_bits(b as u16)),
        "f32" => PrimValue::F32(f32::from_bits(b as u32)),
        "f64" => PrimValue::F64(f64::from_bits(b)),
        "bool" => PrimValue::Bool(b != 0),
        _ => PrimValue::I64(b as i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static ASSERTS: &[AssertInfo] = &[
        AssertInfo {
            msg: "Assertion is false: x",
            span: (0, 1, 2),
            args: &[],
        },
        AssertInfo {
            msg: "Index [{}] out of bounds for array of shape [{}] ({}, {}).",
            span: (1, 20, 30),
            args: &["i64", "i32", "f32", "bool"],
        },
    ];
    static INFO: KernelInfo = KernelInfo {
        name: "k0",
        label: "",
        asserts: ASSERTS,
    };

    #[test]
    fn failure_words_decode_to_the_assertion() {
        let mut w = [0i64; FAIL_WORDS];
        w[0] = 2;
        w[1] = -3;
        w[2] = 10;
        w[3] = 1.5f32.to_bits() as i64;
        w[4] = 1;
        let f = decode(&INFO, &w);
        assert_eq!(
            f.message,
            "Index [-3] out of bounds for array of shape [10] (1.5f32, true)."
        );
        assert_eq!(f.span, (1, 20, 30));
        // A big-endian 32-bit claim.
        w[0] = 1 << 32;
        assert_eq!(decode(&INFO, &w).message, "Assertion is false: x");
        w[0] = 7;
        assert!(decode(&INFO, &w).message.contains("failure 7"));
    }

    #[test]
    fn patterns_to_values() {
        assert_eq!(prim_of_bits("i8", 0xff), PrimValue::I8(-1));
        assert_eq!(prim_of_bits("u8", 0xff), PrimValue::U8(255));
        assert_eq!(prim_of_bits("i64", u64::MAX), PrimValue::I64(-1));
        assert_eq!(prim_of_bits("f64", 2.5f64.to_bits()), PrimValue::F64(2.5));
        assert_eq!(
            prim_of_bits("f16", f16::from_f32(0.5).to_bits() as u64),
            PrimValue::F16(f16::from_f32(0.5))
        );
        assert_eq!(prim_of_bits("bool", 0), PrimValue::Bool(false));
    }
}
