//! The runtime of programs that `fut cuda` generates.
//!
//! A generated CUDA program is the multicore backend's generated Rust
//! (its host code), with `use fut_runtime_cuda::mem::*;` in place of
//! `use fut_runtime_multicore::mem::*;`, plus a static [`KernelProgram`]
//! (the CUDA C++ source of its kernels, and the cubin and PTX `fut cuda`
//! compiled from it) whose kernels the host code runs with [`launch()`].
//! Everything else (arrays, scalars, entry points, the server, the
//! profiler) is `fut_runtime_multicore`'s, named directly by the
//! generated code. What does not depend on CUDA is `fut_runtime_gpu`'s,
//! shared with the OpenCL runtime; this crate is its
//! [`Backend`](fut_runtime_gpu::Backend).
//!
//! - [`mem`]: coherent memory blocks. A [`mem::Mem`] is a multicore
//!   block on the host plus a coherence state shared by its clones and
//!   handles: valid on the host, on the device, on both, fresh zeros, or
//!   unspecified. Host accesses bring the host copy back when the
//!   device's is newer and mark the device copy stale when they write;
//!   kernels get current device buffers through [`mem::DevArg`],
//!   uploaded only when the host copy is newer.
//! - [`freelist`]: device buffers are cached. Freeing never calls the
//!   driver; an allocation takes the smallest free buffer that fits
//!   without wasting more than half of it (any under 4 KiB), and on
//!   failure releases the free buffers and tries once more.
//! - [`device`]: one context per process (the device's primary context),
//!   on the device chosen by `--device`, `FUT_CUDA_DEVICE`, else device
//!   0; everything in order on one stream. No CUDA driver, no device, or
//!   no device matching the choice is an error message, never a panic.
//! - [`program`]: modules are loaded once per process on first launch:
//!   the embedded cubin for the device's architecture, else the embedded
//!   PTX for the highest architecture not above it, else the source
//!   compiled by NVRTC ([`nvrtc`]) into a cubin, kept in a cache
//!   directory (`$FUT_CACHE_DIR/cuda`, `$XDG_CACHE_HOME/fut/cuda` or
//!   `~/.cache/fut/cuda`) keyed by the source, the options, the
//!   architecture, NVRTC's version and the driver's.
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
pub mod nvrtc;
pub mod program;

pub use cli::main;
pub use device::{ensure_device, list_devices, set_device_choice};
pub use fut_runtime_gpu::freelist;
pub use fut_runtime_gpu::{AssertInfo, Binary, KernelInfo, KernelProgram};
pub use launch::launch;
