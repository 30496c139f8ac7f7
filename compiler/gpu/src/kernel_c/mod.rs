//! The kernel emitter: one writer of C-like kernel code, with the
//! differences between OpenCL C and CUDA confined to [`Target`] and the
//! preludes.

mod group_failures;
pub mod kernel;
pub mod prelude;
pub mod scalar;

/// The kernel language written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// OpenCL C 1.2 and later.
    OpenCl,
    /// CUDA C++ (NVRTC).
    Cuda,
}
