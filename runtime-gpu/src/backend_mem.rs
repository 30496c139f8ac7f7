//! The `mem` module of a GPU runtime, written once: [`backend_mem!`].

/// The items of a GPU runtime's `mem` module, which generated host code
/// imports (`use fut_runtime_opencl::mem::*`) in place of
/// `fut_runtime_multicore::mem::*`: everything [`crate::mem`] exports,
/// with `Mem<T>` a block on backend `$backend` and the functions generated
/// code calls with that backend chosen. `$device` names it in the docs.
#[macro_export]
macro_rules! backend_mem {
    ($backend:ty, $device:literal) => {
        use fut_runtime_multicore::arr::{Arr, Elem};
        use fut_runtime_multicore::typed::{Array, Element};

        pub use $crate::mem::*;

        #[doc = concat!("A memory block on the host that may have a copy on the ", $device, " device.")]
        pub type Mem<T> = $crate::mem::Mem<T, $backend>;

        #[doc = concat!(
            "The number of chunks of a parallel reduction, scan or histogram (see\n",
            "[`fut_runtime_gpu::mem::device_chunks`]) on the ", $device, " device."
        )]
        pub fn reduce_chunks(w: i64, cost: u64, most: i64) -> i64 {
            $crate::mem::device_chunks::<$backend>(w, cost, most)
        }

        /// The value of tuning parameter `name` (a threshold between
        /// versions of code; see [`fut_runtime_gpu::params::threshold`]).
        pub fn tuned_param(name: &str, default: i64) -> i64 {
            $crate::params::threshold(name, default)
        }

        /// The block of an array argument and its shape (see
        /// [`fut_runtime_gpu::mem::arr_mem`]).
        pub fn arr_mem<T: Elem>(a: Arr<T>, unique: bool) -> (Mem<T>, Vec<i64>) {
            $crate::mem::arr_mem(a, unique)
        }

        /// The block and shape of an array argument of a library's entry
        /// point, on the device when an entry returned it (see
        /// [`fut_runtime_gpu::resident::array_arg`]).
        pub fn array_arg<T: Element, const D: usize>(
            a: &Array<T, D>,
            unique: bool,
        ) -> (Mem<T>, Vec<i64>) {
            $crate::resident::array_arg(a, unique)
        }

        /// A library entry point's array result, left on the device (see
        /// [`fut_runtime_gpu::resident::array_result`]).
        pub fn array_result<T: Element, const D: usize>(r: (Mem<T>, Vec<i64>)) -> Array<T, D> {
            $crate::resident::array_result(r)
        }
    };
}
