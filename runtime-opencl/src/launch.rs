//! Launching a kernel on OpenCL: the backend's part of the kernel ABI
//! ([`fut_runtime_gpu::launch`](mod@fut_runtime_gpu::launch), which
//! describes it).
//!
//! The work-group size is fixed per kernel:
//! [`GPU_LOCAL_SIZE`](crate::program::GPU_LOCAL_SIZE) (256) on GPUs and
//! accelerators, [`CPU_LOCAL_SIZE`](crate::program::CPU_LOCAL_SIZE) (64)
//! on CPU devices such as PoCL's, capped by the kernel's and the
//! device's maximum; the global size is the work items rounded up to a
//! multiple of it. Scalars are passed by value in their OpenCL C types
//! (`f16` as its bits, `bool` as a `uchar`), blocks as `cl_mem`.

#![allow(unsafe_code)]

use fut_runtime_gpu::launch::FAIL_WORDS;
use fut_runtime_gpu::mem::DevArg;
use fut_runtime_gpu::program::KernelProgram;
use fut_runtime_multicore::arr::R;
use opencl3::types::{CL_BLOCKING, cl_long};
use values::PrimValue;

use crate::device::Gpu;
use crate::program;

/// Runs kernel `k` of `prog` over the iteration space `sizes` with the
/// scalar arguments `scalars` and the blocks `mems`, of which those with
/// `written[i]` are written by the kernel. Returns the failure of an
/// assertion the kernel reported, or of OpenCL.
pub fn launch(
    prog: &'static KernelProgram,
    k: usize,
    sizes: &[i64],
    scalars: &[PrimValue],
    mems: &[&dyn DevArg],
    written: &[bool],
) -> R<()> {
    fut_runtime_gpu::launch::launch::<Gpu>(prog, k, sizes, scalars, mems, written)
}

/// [`fut_runtime_gpu::Backend::run_kernel`] on OpenCL.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_kernel(
    gpu: &Gpu,
    prog: &'static KernelProgram,
    k: usize,
    n: i64,
    sizes: &[i64],
    scalars: &[PrimValue],
    bufs: &[u64],
    wait: bool,
) -> Result<(), String> {
    let built = program::built(gpu, prog)?;
    let bk = &built.kernels[k];
    let name = prog.kernels[k].name;
    let want = 2 + sizes.len() + scalars.len() + bufs.len();
    if let Some(have) = bk.nargs
        && have as usize != want
    {
        return Err(format!(
            "internal compiler error (a bug in fut): kernel {name} takes {have} arguments, launched with {want}"
        ));
    }
    let local = bk.local;
    let global = u64::try_from(n)
        .ok()
        .and_then(|n| n.checked_next_multiple_of(local as u64))
        .and_then(|g| usize::try_from(g).ok())
        .ok_or_else(|| format!("the global size: {n} work items do not fit"))?;
    let event = {
        let kernel = bk.kernel.lock().unwrap_or_else(|e| e.into_inner());
        let mut idx = 0u32;
        let mut set = |bytes: &[u8]| -> Result<(), String> {
            // SAFETY: the argument's bytes, of the size the ABI gives its
            // parameter; OpenCL copies them.
            unsafe {
                cl3_set_arg(kernel.get(), idx, bytes)
                    .map_err(|e| format!("argument {idx}: {e}"))?;
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
        for &b in bufs {
            set(&(b as usize).to_ne_bytes())?;
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
        .map_err(|e| e.to_string())?
    };
    if wait {
        event.wait().map_err(|e| format!("waiting: {e}"))?;
    }
    Ok(())
}

/// [`fut_runtime_gpu::Backend::take_failure`] on OpenCL.
pub(crate) fn take_failure(gpu: &Gpu) -> Result<Option<[i64; FAIL_WORDS]>, String> {
    let mut fail = gpu.fail.lock().unwrap_or_else(|e| e.into_inner());
    let mut words = [0i64; FAIL_WORDS];
    // SAFETY: the host array outlives the blocking read.
    unsafe {
        gpu.queue
            .enqueue_read_buffer(&fail, CL_BLOCKING, 0, &mut words, &[])
    }
    .map_err(|e| e.to_string())?;
    if words[0] == 0 {
        return Ok(None);
    }
    // SAFETY: as above, for the write.
    unsafe {
        gpu.queue
            .enqueue_write_buffer(&mut fail, CL_BLOCKING, 0, &[0i64; FAIL_WORDS], &[])
    }
    .map_err(|e| format!("clearing it: {e}"))?;
    Ok(Some(words))
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
