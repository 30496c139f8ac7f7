//! What the GPU runtimes of fut share (`fut-runtime-opencl`,
//! `fut-runtime-cuda`), none of it tied to a device API.
//!
//! Generated host code of a GPU backend is the multicore backend's Rust,
//! with a GPU runtime's `mem` module in place of
//! `fut_runtime_multicore::mem` and a static [`KernelProgram`] whose
//! kernels the host code runs with the runtime's `launch`. A runtime
//! implements [`Backend`] (its context, buffers and kernel launches) and
//! gets the rest from here:
//!
//! - [`mem`]: coherent memory blocks. A [`mem::Mem`] is a multicore block
//!   on the host plus a coherence state shared by its clones and handles:
//!   valid on the host, on the device, on both, fresh zeros, or
//!   unspecified. Host accesses bring the host copy back when the
//!   device's is newer and mark the device copy stale when they write;
//!   kernels get current device buffers through [`mem::DevArg`].
//! - [`freelist`]: device buffers are cached; freeing never calls the
//!   driver.
//! - [`launch`](mod@launch): the kernel ABI and the failure protocol,
//!   which turns a kernel's failed assertion into the multicore
//!   runtime's failure, message and span.
//! - [`program`]: the kernel program of generated code and the on-disk
//!   cache of compiled kernels.
//! - [`select`]: choosing a device by name.
//! - [`params`]: tuning parameters (`--param`, `--tuning`, `--print-params`).
//! - [`cli`]: the executable's `main`, the multicore one plus `--device`
//!   and `--list-devices`.

pub mod backend;
pub mod backend_mem;
pub mod cli;
#[cfg(test)]
pub(crate) mod fake;
pub mod freelist;
pub mod launch;
pub mod mem;
pub mod params;
pub mod program;
pub mod resident;
pub mod select;

pub use backend::Backend;
pub use program::{AssertInfo, Binary, KernelInfo, KernelProgram};
