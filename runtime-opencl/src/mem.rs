//! Memory blocks of generated OpenCL host code: the shared coherent
//! blocks ([`fut_runtime_gpu::mem`]) on the OpenCL context.
//!
//! Generated code imports `fut_runtime_opencl::mem::*` in place of
//! `fut_runtime_multicore::mem::*`: everything that module exports, with
//! [`Mem`] a block on this backend.

use fut_runtime_multicore::arr::{Arr, Elem};
use fut_runtime_multicore::typed::{Array, Element};

use crate::device::Gpu;

pub use fut_runtime_gpu::mem::*;

/// A memory block on the host that may have a copy on the OpenCL device.
pub type Mem<T> = fut_runtime_gpu::mem::Mem<T, Gpu>;

/// The number of chunks of a parallel reduction, scan or histogram (see
/// [`fut_runtime_gpu::mem::device_chunks`]) on the OpenCL device.
pub fn reduce_chunks(w: i64, cost: u64, most: i64) -> i64 {
    fut_runtime_gpu::mem::device_chunks::<Gpu>(w, cost, most)
}

/// The block of an array argument and its shape (see
/// [`fut_runtime_gpu::mem::arr_mem`]).
pub fn arr_mem<T: Elem>(a: Arr<T>, unique: bool) -> (Mem<T>, Vec<i64>) {
    fut_runtime_gpu::mem::arr_mem(a, unique)
}

/// The block and shape of an array argument of a library's entry point,
/// on the device when an entry returned it (see
/// [`fut_runtime_gpu::resident::array_arg`]).
pub fn array_arg<T: Element, const D: usize>(a: &Array<T, D>, unique: bool) -> (Mem<T>, Vec<i64>) {
    fut_runtime_gpu::resident::array_arg(a, unique)
}

/// [`array_arg`] of a consumed argument.
pub fn array_arg_owned<T: Element, const D: usize>(
    a: Array<T, D>,
    unique: bool,
) -> (Mem<T>, Vec<i64>) {
    fut_runtime_gpu::resident::array_arg_owned(a, unique)
}

/// A library entry point's array result, left on the device (see
/// [`fut_runtime_gpu::resident::array_result`]).
pub fn array_result<T: Element, const D: usize>(r: (Mem<T>, Vec<i64>)) -> Array<T, D> {
    fut_runtime_gpu::resident::array_result(r)
}
