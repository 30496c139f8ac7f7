//! Launching a kernel on CUDA: the backend's part of the kernel ABI
//! ([`fut_runtime_gpu::launch`](mod@fut_runtime_gpu::launch), which
//! describes it).
//!
//! A kernel is `extern "C" __global__ void NAME(long long *fut_fail,
//! long long fut_n, long long size_0, …, SCALARS…, T *MEMS…)`. It runs
//! on a one-dimensional grid of `ceil(fut_n / block)` blocks (at most the
//! device's largest grid, 2^31-1 blocks on every current device), the
//! block size fixed per kernel ([`crate::program`]: 256, or fewer when
//! the kernel allows fewer). Scalars are passed by value in their C types
//! (`f16` as its 16 bits, `bool` as one byte), blocks as device pointers.
//! When the driver reports the kernel's parameters (CUDA 12.4 and
//! later), arguments that do not match them in number or size are an
//! internal error rather than a launch with garbage.

#![allow(unsafe_code)]

use std::ffi::c_void;

use cudarc::driver::CudaFunction;
use cudarc::driver::result;
use cudarc::driver::sys;
use fut_runtime_gpu::launch::FAIL_WORDS;
use fut_runtime_gpu::mem::DevArg;
use fut_runtime_gpu::program::KernelProgram;
use fut_runtime_multicore::arr::R;
use values::PrimValue;

use crate::device::{Cuda, describe};
use crate::program;

/// Runs kernel `k` of `prog` over the iteration space `sizes` with the
/// scalar arguments `scalars` and the blocks `mems`, of which those with
/// `written[i]` are written by the kernel. Returns the failure of an
/// assertion the kernel reported, or of CUDA.
pub fn launch(
    prog: &'static KernelProgram,
    k: usize,
    sizes: &[i64],
    scalars: &[PrimValue],
    mems: &[&dyn DevArg],
    written: &[bool],
) -> R<()> {
    fut_runtime_gpu::launch::launch::<Cuda>(prog, k, sizes, scalars, mems, written)
}

/// One argument's value in the first `width` bytes of a word, as the
/// driver copies it: the kernel's parameter of that size reads them.
#[derive(Clone, Copy)]
struct Arg {
    word: u64,
    width: usize,
}

impl Arg {
    fn of(bytes: &[u8]) -> Arg {
        let mut b = [0u8; 8];
        b[..bytes.len()].copy_from_slice(bytes);
        Arg {
            word: u64::from_ne_bytes(b),
            width: bytes.len(),
        }
    }
}

/// The arguments of a launch, in the order of the ABI.
fn arguments(fail: u64, n: i64, sizes: &[i64], scalars: &[PrimValue], bufs: &[u64]) -> Vec<Arg> {
    let mut args = Vec::with_capacity(2 + sizes.len() + scalars.len() + bufs.len());
    args.push(Arg::of(&fail.to_ne_bytes()));
    args.push(Arg::of(&n.to_ne_bytes()));
    args.extend(sizes.iter().map(|s| Arg::of(&s.to_ne_bytes())));
    args.extend(scalars.iter().map(|v| match *v {
        PrimValue::I8(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::I16(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::I32(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::I64(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::U8(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::U16(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::U32(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::U64(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::F16(x) => Arg::of(&x.to_bits().to_ne_bytes()),
        PrimValue::F32(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::F64(x) => Arg::of(&x.to_ne_bytes()),
        PrimValue::Bool(x) => Arg::of(&[u8::from(x)]),
    }));
    args.extend(bufs.iter().map(|b| Arg::of(&b.to_ne_bytes())));
    args
}

/// Why `args` do not fit the kernel `name` whose parameters have the
/// sizes `params`, if they do not.
fn mismatch(name: &str, params: &[usize], args: &[Arg]) -> Option<String> {
    if params.len() != args.len() {
        return Some(format!(
            "internal compiler error (a bug in fut): kernel {name} takes {} arguments, launched with {}",
            params.len(),
            args.len()
        ));
    }
    let (i, (p, a)) = params
        .iter()
        .zip(args)
        .enumerate()
        .find(|(_, (p, a))| **p != a.width)?;
    Some(format!(
        "internal compiler error (a bug in fut): argument {i} of kernel {name} has {p} bytes, launched with {}",
        a.width
    ))
}

/// The number of blocks of `block` threads for `n` threads, if the grid
/// allows that many (`max` blocks).
fn grid(n: i64, block: u32, max: u64) -> Result<u32, String> {
    let blocks = u64::try_from(n)
        .map_err(|_| format!("the grid: {n} threads"))?
        .div_ceil(u64::from(block.max(1)));
    if blocks > max || blocks > u64::from(u32::MAX) {
        return Err(format!(
            "the grid: {n} threads in blocks of {block} need {blocks} blocks, more than the \
             device's {max}"
        ));
    }
    Ok(blocks as u32)
}

/// The sizes of the parameters of `f`, when the driver has
/// `cuFuncGetParamInfo` (CUDA 12.4 and later) and answers it.
pub(crate) fn param_sizes(f: &CudaFunction) -> Option<Vec<usize>> {
    // cudarc panics when a driver function it calls is missing: look
    // for this one first.
    // SAFETY: the driver library is loaded (a context exists); the
    // symbol is only looked up.
    let present = unsafe {
        sys::culib()
            .get::<unsafe extern "C" fn()>(b"cuFuncGetParamInfo\0")
            .is_ok()
    };
    if !present {
        return None;
    }
    let mut sizes = Vec::new();
    loop {
        let (mut offset, mut size) = (0usize, 0usize);
        // SAFETY: a function of a loaded module; the call writes two
        // `size_t`s, and answers an index past the last parameter with
        // an error.
        let r = unsafe {
            sys::cuFuncGetParamInfo(f.cu_function(), sizes.len(), &mut offset, &mut size)
        };
        if r != sys::CUresult::CUDA_SUCCESS {
            break;
        }
        sizes.push(size);
        if sizes.len() > 4096 {
            return None;
        }
    }
    // Every kernel takes at least `fut_fail` and `fut_n`: no answer for
    // the first means the driver cannot tell.
    (!sizes.is_empty()).then_some(sizes)
}

/// [`fut_runtime_gpu::Backend::run_kernel`] on CUDA.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_kernel(
    gpu: &Cuda,
    prog: &'static KernelProgram,
    k: usize,
    n: i64,
    sizes: &[i64],
    scalars: &[PrimValue],
    bufs: &[u64],
    wait: bool,
) -> Result<(), String> {
    let loaded = program::loaded(gpu, prog)?;
    let lk = &loaded.kernels[k];
    let name = prog.kernels[k].name;
    let mut args = arguments(gpu.fail, n, sizes, scalars, bufs);
    if let Some(params) = &lk.params
        && let Some(e) = mismatch(name, params, &args)
    {
        return Err(e);
    }
    let blocks = grid(n, lk.block, gpu.max_grid)?;
    let mut ptrs: Vec<*mut c_void> = args
        .iter_mut()
        .map(|a| std::ptr::from_mut(&mut a.word).cast())
        .collect();
    gpu.bind()?;
    // SAFETY: a function of a module loaded in this context, launched
    // with one pointer per parameter (checked against the kernel when the
    // driver says), each to a word holding the argument's bytes first;
    // `args` outlives the call, which copies them. The device pointers
    // are live buffers of this context held by the launch's blocks.
    unsafe {
        result::launch_kernel(
            lk.func.cu_function(),
            (blocks, 1, 1),
            (lk.block, 1, 1),
            0,
            gpu.stream.cu_stream(),
            &mut ptrs,
        )
    }
    .map_err(describe)?;
    if wait {
        gpu.stream
            .synchronize()
            .map_err(|e| format!("waiting: {}", describe(e)))?;
    }
    Ok(())
}

/// [`fut_runtime_gpu::Backend::take_failure`] on CUDA (the shared launch
/// holds its failure lock meanwhile).
pub(crate) fn take_failure(gpu: &Cuda) -> Result<Option<[i64; FAIL_WORDS]>, String> {
    gpu.bind()?;
    let mut words = [0i64; FAIL_WORDS];
    // SAFETY: the failure buffer holds FAIL_WORDS words; the copy is
    // synchronous and follows the kernels queued before it.
    unsafe { result::memcpy_dtoh_sync(&mut words, gpu.fail) }.map_err(describe)?;
    if words[0] == 0 {
        return Ok(None);
    }
    // SAFETY: as above; the fill is queued before any later kernel.
    unsafe { result::memset_d8_async(gpu.fail, 0, FAIL_WORDS * 8, gpu.stream.cu_stream()) }
        .map_err(|e| format!("clearing it: {}", describe(e)))?;
    Ok(Some(words))
}

#[cfg(test)]
mod tests {
    use super::*;
    use values::f16;

    #[test]
    fn arguments_in_abi_order_and_c_sizes() {
        let scalars = [
            PrimValue::I8(-3),
            PrimValue::F16(f16::from_f32(1.0)),
            PrimValue::Bool(true),
            PrimValue::F32(1.5),
            PrimValue::U64(7),
        ];
        let args = arguments(0xfa11, 6, &[2, 3], &scalars, &[0xb0f, 0]);
        let widths: Vec<usize> = args.iter().map(|a| a.width).collect();
        assert_eq!(widths, [8, 8, 8, 8, 1, 2, 1, 4, 8, 8, 8]);
        let bytes = |a: &Arg| a.word.to_ne_bytes();
        assert_eq!(args[0].word, 0xfa11);
        assert_eq!(args[1].word, 6);
        assert_eq!(bytes(&args[4])[0], (-3i8) as u8);
        assert_eq!(
            bytes(&args[5])[..2],
            f16::from_f32(1.0).to_bits().to_ne_bytes()
        );
        assert_eq!(bytes(&args[6])[0], 1);
        assert_eq!(bytes(&args[7])[..4], 1.5f32.to_ne_bytes());
        assert_eq!(args[9].word, 0xb0f);
    }

    #[test]
    fn arguments_must_match_the_parameters() {
        let args = arguments(1, 1, &[1], &[PrimValue::I32(1)], &[2]);
        assert_eq!(mismatch("k0", &[8, 8, 8, 4, 8], &args), None);
        let e = mismatch("k0", &[8, 8, 8, 8], &args).unwrap();
        assert!(
            e.ends_with("kernel k0 takes 4 arguments, launched with 5"),
            "{e}"
        );
        let e = mismatch("k0", &[8, 8, 8, 8, 8], &args).unwrap();
        assert!(
            e.ends_with("argument 3 of kernel k0 has 8 bytes, launched with 4"),
            "{e}"
        );
    }

    #[test]
    fn grids_round_up_and_have_a_limit() {
        assert_eq!(grid(1, 256, 1 << 31), Ok(1));
        assert_eq!(grid(256, 256, 1 << 31), Ok(1));
        assert_eq!(grid(257, 256, 1 << 31), Ok(2));
        assert_eq!(grid(1000, 1, 1000), Ok(1000));
        let e = grid(1001, 1, 1000).unwrap_err();
        assert!(
            e.contains("need 1001 blocks, more than the device's 1000"),
            "{e}"
        );
        assert!(grid(i64::MAX, 256, (1 << 31) - 1).is_err());
    }
}
