//! Launching a kernel of generated code: the kernel ABI and the failure
//! protocol, which every GPU runtime shares.
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
//! and in CUDA as `extern "C" __global__ void NAME(long long *fut_fail,
//! long long fut_n, …)` with the same parameters.
//!
//! - `fut_n` is the product of the sizes: the number of threads that do
//!   work. The grid is `fut_n` rounded up to a multiple of the block
//!   (work-group) size, so the kernel starts by returning from threads
//!   at or past `fut_n`. The block size is the runtime's choice, fixed
//!   per kernel. One dimension only; the kernel unflattens its index
//!   itself.
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
//! 32-bit atomics exist on every device; a kernel may use a 64-bit
//! compare-and-swap on `fut_fail[0]` instead) and, when it did, stores the
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
//! Any other error of the driver is a [`Fail`] whose message starts with
//! `API error` (`OpenCL error`, `CUDA error`: [`Backend::NAME`]), at span
//! `(0, 0, 0)`; so is a context that cannot be created. With the profiler on (`-P`), each launch
//! is timed, waiting for the kernel, as the operation `kernel NAME`.

use std::sync::Mutex;

use fut_runtime_multicore::arr::{Fail, R};
use fut_runtime_multicore::mem::assert_failed;
use fut_runtime_multicore::profile;
use values::{PrimValue, f16};

use crate::backend::Backend;
use crate::mem::DevArg;
use crate::program::{AssertInfo, KernelInfo, KernelProgram};

/// The number of 64-bit words of the failure buffer.
pub const FAIL_WORDS: usize = 16;

/// Held while a kernel with assertions runs and its failure buffer is
/// read: such kernels run one at a time, so that a failure is never
/// attributed to the wrong one.
static FAIL_LOCK: Mutex<()> = Mutex::new(());

/// A failure without a source location.
pub fn plain(message: String) -> Fail {
    Fail {
        message,
        span: (0, 0, 0),
    }
}

/// Runs kernel `k` of `prog` over the iteration space `sizes` with the
/// scalar arguments `scalars` and the blocks `mems`, of which those with
/// `written[i]` are written by the kernel (see the module doc for the
/// ABI), on backend `B`. Returns the failure of an assertion the kernel
/// reported, or of the driver.
pub fn launch<B: Backend>(
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
            "{} error in kernel {}: the iteration space {sizes:?} has more than 2^63 points",
            B::NAME,
            info.name
        )));
    };
    let start = profile::op_start();
    let r = run::<B>(
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
fn run<B: Backend>(
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
    let err =
        |what: &str, e: String| plain(format!("{} error in kernel {name}: {what}: {e}", B::NAME));
    let gpu = B::context().map_err(plain)?;
    let mut bufs: Vec<u64> = Vec::with_capacity(mems.len());
    for m in mems {
        bufs.push(m.device_buffer().map_err(plain)?);
    }
    let fail_guard = if info.asserts.is_empty() {
        None
    } else {
        Some(FAIL_LOCK.lock().unwrap_or_else(|e| e.into_inner()))
    };
    gpu.run_kernel(prog, k, n, sizes, scalars, &bufs, wait)
        .map_err(|e| {
            if e.starts_with("internal") || e.starts_with("the program") {
                plain(e)
            } else {
                err("launch", e)
            }
        })?;
    for (m, &w) in mems.iter().zip(written) {
        if w {
            m.mark_device_written();
        }
    }
    if fail_guard.is_none() {
        return Ok(());
    }
    match gpu.take_failure() {
        Ok(None) => Ok(()),
        Ok(Some(words)) => Err(decode(info, &words)),
        Err(e) => Err(err("reading the failure buffer", e)),
    }
}

/// The failure that the words of the failure buffer report.
pub fn decode(info: &KernelInfo, words: &[i64; FAIL_WORDS]) -> Fail {
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
        group: 0,
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
