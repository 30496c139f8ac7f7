//! Arrays of a GPU library crate's API that stay on the device: an entry
//! point's array result keeps its block ([`DeviceArray`]), and passing it
//! to another entry point passes the block, so nothing moves between
//! host and device until the host reads the elements.

use std::any::Any;
use std::sync::Arc;

use fut_runtime_multicore::arr::{Arr, Elem};
use fut_runtime_multicore::typed::{Array, Element, Resident};

use crate::backend::Backend;
use crate::mem::{Mem, arr_mem, mem_arr};

/// An array held by a block of backend `B`, row-major from offset 0.
pub struct DeviceArray<T, B: Backend> {
    mem: Mem<T, B>,
    shape: Vec<i64>,
}

impl<T: Elem, B: Backend> Resident<T> for DeviceArray<T, B>
where
    Mem<T, B>: Send + Sync,
{
    fn download(&self) -> Result<Arr<T>, String> {
        mem_arr(self.mem.clone(), &self.shape)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The block and shape of an array argument of an entry point: the block
/// of an array an entry of this backend returned (shared, no copy; when
/// `unique` says the entry may write into it and others share it, a copy
/// of its elements), else the array's elements ([`arr_mem`]).
pub fn array_arg<T: Element, B: Backend, const D: usize>(
    a: &Array<T, D>,
    unique: bool,
) -> (Mem<T, B>, Vec<i64>)
where
    Mem<T, B>: Send + Sync,
{
    if let Some(r) = a.resident()
        && let Some(d) = r.as_any().downcast_ref::<DeviceArray<T, B>>()
        && (!unique || Arc::strong_count(r) == 1)
    {
        return (d.mem.clone(), d.shape.clone());
    }
    arr_mem(a.to_arr(), unique)
}

/// The array an entry point returned in `m` with shape `shape`, left on
/// the device.
pub fn array_result<T: Element, B: Backend, const D: usize>(
    (mem, shape): (Mem<T, B>, Vec<i64>),
) -> Array<T, D>
where
    Mem<T, B>: Send + Sync,
{
    let dims = shape.iter().map(|&d| d.max(0) as usize).collect();
    Array::from_resident(Arc::new(DeviceArray { mem, shape }), dims)
}
