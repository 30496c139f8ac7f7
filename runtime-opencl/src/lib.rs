//! The runtime of programs that `fut opencl` generates.
//!
//! A generated OpenCL program is the multicore backend's generated Rust
//! (its host code), with `use fut_runtime_opencl::mem::*;` in place of
//! `use fut_runtime_multicore::mem::*;`, plus a static [`KernelProgram`]
//! (the OpenCL C source of its kernels) whose kernels the host code runs
//! with [`launch()`]. Everything else (arrays, scalars, entry points, the
//! server, the profiler) is `fut_runtime_multicore`'s, named directly by
//! the generated code.
//!
//! - [`mem`]: coherent memory blocks. A [`mem::Mem`] is a multicore
//!   block on the host plus a coherence state shared by its clones and
//!   handles: valid on the host, on the device, on both, fresh zeros, or
//!   unspecified. Host accesses bring the host copy back when the
//!   device's is newer (one blocking read of the whole block, taken once
//!   under a lock, the check itself one atomic load) and mark the device
//!   copy stale when they write; kernels get current device buffers
//!   through [`mem::DevArg`], uploaded only when the host copy is newer.
//! - [`freelist`]: device buffers are cached. Freeing never calls the
//!   driver; an allocation takes the smallest free buffer that fits
//!   without wasting more than half of it (any under 4 KiB), and on
//!   failure releases the free buffers and tries once more.
//! - [`device`]: one context per process, on the device chosen by
//!   `--device`, `FUT_OPENCL_DEVICE`, else the first GPU, else the first
//!   device; one in-order queue. No OpenCL runtime, platform or device is
//!   an error message, never a panic.
//! - [`program`]: programs are built once per process on first launch,
//!   and their device binaries kept in a cache directory
//!   (`$FUT_CACHE_DIR/opencl`, `$XDG_CACHE_HOME/fut/opencl` or
//!   `~/.cache/fut/opencl`) keyed by the source, the options, the
//!   platform, the device and the driver.
//! - [`launch`](mod@launch): the kernel ABI (`fut_fail`, `fut_n`, the
//!   sizes, the scalars, the blocks) and the failure protocol: a kernel
//!   whose assertion fails writes its index and arguments into the
//!   failure buffer, which the host reads after kernels that have
//!   assertions and turns into the multicore runtime's failure, message
//!   and span.
//! - [`cli`]: the executable's `main`, the multicore one plus `--device`
//!   and `--list-devices`.

pub mod cli;
pub mod device;
pub mod launch;
pub mod mem;
pub mod program;

pub use cli::main;
pub use device::{ensure_device, list_devices, set_device_choice};
pub use fut_runtime_gpu::freelist;
pub use fut_runtime_gpu::{AssertInfo, Binary, KernelInfo, KernelProgram};
pub use launch::launch;
