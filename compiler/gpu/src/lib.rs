//! The GPU half of the compiler: kernels extracted from the imperative IR
//! and written as C-like kernel code, for OpenCL and CUDA.
//!
//! - [`extract`]: which parallel loops of the imperative IR become kernels
//!   (the others stay host code);
//! - [`kernel_c`]: the one kernel emitter, with the differences between
//!   OpenCL C and CUDA in [`kernel_c::Target`] and the preludes;
//! - [`module`]: the kernel program as items of the generated Rust
//!   module (its source, failure table and, for CUDA, the code compiled
//!   ahead of time), and the code generation hooks ([`codegen::Kernels`])
//!   of the OpenCL and CUDA backends.
//!
//! Host code is the multicore emitter's Rust over a GPU runtime's memory
//! blocks (`runtime-opencl`, `runtime-cuda`): blocks live on the host and on the device,
//! kept coherent by the runtime, and a kernel launch takes the loop's
//! sizes and the scalars and blocks its body uses
//! ([`imp::uses::kernel_uses`]).

pub mod extract;
pub mod kernel_c;
pub mod module;

pub use module::{CUDA, CUDA_BINARIES, OPENCL, binaries_item, kernel_source};
