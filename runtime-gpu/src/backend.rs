//! What a GPU runtime provides to the shared parts: its device context,
//! device buffers and kernel launches ([`Backend`]).
//!
//! One process uses one backend and one device. The shared parts
//! ([`crate::mem`], [`crate::launch()`]) are generic over the backend and
//! reach its context through [`Backend::context`]; a device buffer
//! crosses into a launch as a 64-bit handle ([`Backend::raw`]: a
//! `cl_mem` pointer, a `CUdeviceptr`).

use values::PrimValue;

use crate::launch::FAIL_WORDS;
use crate::program::KernelProgram;

/// A GPU runtime's device context.
pub trait Backend: Sync + Sized + 'static {
    /// The API's name, starting error messages (`OpenCL error: …`).
    const NAME: &'static str;

    /// A device buffer.
    type Buf: Send + 'static;

    /// The context, created on first use; why it cannot be.
    fn context() -> Result<&'static Self, String>;

    /// The context if it was created (for freeing buffers at exit
    /// without creating one).
    fn existing() -> Option<&'static Self>;

    /// How many threads the device keeps busy at once (all its compute
    /// units full): the most chunks worth splitting a reduction into
    /// ([`crate::mem::device_chunks`]).
    fn threads(&self) -> usize;

    /// A buffer of at least `bytes` bytes from the free list (or the
    /// driver) and its size in bytes; out of memory is an error naming
    /// the size.
    fn alloc(&self, bytes: usize) -> Result<(usize, Self::Buf), String>;

    /// Gives a buffer of `cap` bytes back to the free list.
    fn free(&self, cap: usize, buf: Self::Buf);

    /// Copies the first `dst.len()` bytes of `buf` into `dst`, after the
    /// commands queued before (blocking).
    fn read(&self, buf: &Self::Buf, dst: &mut [u8]) -> Result<(), String>;

    /// Copies `src` into the first `src.len()` bytes of `buf` (the bytes
    /// are copied before this returns).
    fn write(&self, buf: &mut Self::Buf, src: &[u8]) -> Result<(), String>;

    /// Fills the first `bytes` bytes of `buf` with zeros.
    fn zero(&self, buf: &mut Self::Buf, bytes: usize) -> Result<(), String>;

    /// Copies `bytes` bytes from offset `src_off` of the buffer whose
    /// handle is `src` to offset `dst_off` of `dst`, on the device.
    fn copy(
        &self,
        src: u64,
        dst: u64,
        src_off: usize,
        dst_off: usize,
        bytes: usize,
    ) -> Result<(), String>;

    /// The handle of `buf` that kernels take ([`crate::mem::DevArg`]).
    fn raw(buf: &Self::Buf) -> u64;

    /// Queues kernel `k` of `prog` over `n` work items with the
    /// arguments of the kernel ABI ([`crate::launch`](mod@crate::launch)):
    /// the failure buffer, `n`, `sizes`, `scalars`, then the buffers
    /// `bufs` (handles from [`Backend::raw`], 0 for none). Waits for it
    /// when `wait`. An error is the driver's, without the kernel's name
    /// (the caller adds it), unless it is a whole sentence about the
    /// program (`internal …`, `the program …`: no code for this device, a
    /// compiler bug), which reaches the user as it is.
    #[allow(clippy::too_many_arguments)]
    fn run_kernel(
        &self,
        prog: &'static KernelProgram,
        k: usize,
        n: i64,
        sizes: &[i64],
        scalars: &[PrimValue],
        bufs: &[u64],
        wait: bool,
    ) -> Result<(), String>;

    /// The failure buffer's words after the kernels queued so far
    /// (waiting for them), cleared when a failure was claimed; `None`
    /// when none was.
    fn take_failure(&self) -> Result<Option<[i64; FAIL_WORDS]>, String>;
}
