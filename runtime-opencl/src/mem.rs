//! Memory blocks of generated OpenCL host code: the shared coherent
//! blocks ([`fut_runtime_gpu::mem`]) on the OpenCL context.
//!
//! Generated code imports `fut_runtime_opencl::mem::*` in place of
//! `fut_runtime_multicore::mem::*`: everything that module exports, with
//! [`Mem`] a block on this backend ([`fut_runtime_gpu::backend_mem!`]).

fut_runtime_gpu::backend_mem!(crate::device::Gpu, "OpenCL");
