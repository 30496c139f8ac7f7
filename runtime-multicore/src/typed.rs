//! The typed API of library crates (`fut multicore --library`).
//!
//! A generated library exposes its entry points as methods on a context
//! of its own; their array parameters and results are [`Array`]s: a
//! primitive element type and a rank fixed in the type (`Array<f64, 2>`),
//! built from a `Vec` and a shape and read back into one. An `Array`
//! shares its buffer with the arrays of generated code, so passing one to
//! an entry point, or getting one back, copies nothing. On the GPU
//! backends an entry's array result stays on the device
//! ([`Resident`]) until the host reads it, and passing it to another
//! entry point copies nothing either. [`call`] runs an
//! entry's generated function in the context's thread pool and turns its
//! failures into [`Error`]s that name the source location.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};

use crate::arr::{Arr, Elem, R};
use crate::context::Context;
use crate::entry::Error;

/// The primitive element types of arrays: `i8`…`i64`, `u8`…`u64`, `f16`,
/// `f32`, `f64` and `bool`.
pub trait Element: Elem {}

impl<T: Elem> Element for T {}

/// An array of rank `D` with elements of type `T`: a shape and a row-major
/// buffer, or (an entry's result on a GPU backend) a block on the device
/// whose elements come back to the host when they are first read. Cloning
/// one shares the buffer or the block.
#[derive(Clone)]
pub struct Array<T: Element, const D: usize> {
    store: Store<T>,
}

#[derive(Clone)]
enum Store<T: Elem> {
    Host(Arr<T>),
    Resident {
        dev: Arc<dyn Resident<T>>,
        shape: Vec<usize>,
        /// The elements, once read on the host.
        host: Arc<OnceLock<Arr<T>>>,
    },
}

/// An array's elements kept by a GPU runtime (on its device) until the
/// host reads them. For generated libraries: passed from one entry point
/// to another, the elements stay where they are.
#[doc(hidden)]
pub trait Resident<T>: Send + Sync + 'static {
    /// The elements as an array of generated code (from the device).
    fn download(&self) -> Result<Arr<T>, String>;
    /// The value, for the runtime that made it to take it back.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Element, const D: usize> Array<T, D> {
    /// The array of shape `shape` (outermost dimension first) whose elements,
    /// in row-major order, are `data`. Fails when `data` does not have as many
    /// elements as the shape says.
    pub fn from_vec(data: Vec<T>, shape: [usize; D]) -> Result<Self, Error> {
        let expected = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        // Sizes are `i64` in programs: a larger dimension (possible when
        // another one is zero) cannot be one.
        let too_large = shape.iter().find(|&&d| i64::try_from(d).is_err());
        match expected {
            Some(0) if too_large.is_some() => Err(Error::new(format!(
                "the dimension {} of the shape {} is larger than the largest size, {}",
                too_large.copied().unwrap_or_default(),
                crate::arr::shape_text(&shape),
                i64::MAX
            ))),
            Some(n) if n == data.len() => Ok(Array::from_arr(Arr::new(shape.to_vec(), data))),
            Some(n) => Err(Error::new(format!(
                "an array of shape {} needs {n} elements, but {} were given",
                crate::arr::shape_text(&shape),
                data.len()
            ))),
            None => Err(Error::new(format!(
                "the shape {} has more elements than memory can hold",
                crate::arr::shape_text(&shape)
            ))),
        }
    }

    /// The dimensions, outermost first.
    pub fn shape(&self) -> [usize; D] {
        let shape: &[usize] = match &self.store {
            Store::Host(a) => &a.shape,
            Store::Resident { shape, .. } => shape,
        };
        let mut s = [0; D];
        for (d, n) in s.iter_mut().zip(shape) {
            *d = *n;
        }
        s
    }

    /// The array of generated code holding the elements, brought back from
    /// the device the first time.
    fn host(&self) -> &Arr<T> {
        match &self.store {
            Store::Host(a) => a,
            Store::Resident { dev, host, .. } => host.get_or_init(|| {
                dev.download()
                    .unwrap_or_else(|e| panic!("{e} (while bringing an array back to the host)"))
            }),
        }
    }

    /// The elements in row-major order (a copy).
    pub fn to_vec(&self) -> Vec<T> {
        self.host().as_slice().to_vec()
    }

    /// The elements in row-major order, without a copy when nothing else
    /// shares the buffer.
    pub fn into_vec(self) -> Vec<T> {
        let arr = self.into_arr();
        Arc::try_unwrap(arr.data).unwrap_or_else(|a| (*a).clone())
    }

    /// The elements in row-major order.
    pub fn as_slice(&self) -> &[T] {
        self.host().as_slice()
    }

    /// The array of generated code (shares the buffer). For generated
    /// libraries.
    #[doc(hidden)]
    pub fn to_arr(&self) -> Arr<T> {
        self.host().clone()
    }

    /// The array of generated code, moved out. For generated libraries
    /// (consumed parameters).
    #[doc(hidden)]
    pub fn into_arr(self) -> Arr<T> {
        match self.store {
            Store::Host(a) => a,
            Store::Resident { .. } => self.host().clone(),
        }
    }

    /// An array of generated code, which must have rank `D`. For generated
    /// libraries.
    #[doc(hidden)]
    pub fn from_arr(arr: Arr<T>) -> Self {
        debug_assert_eq!(arr.shape.len(), D);
        Array {
            store: Store::Host(arr),
        }
    }

    /// An array of shape `shape` whose elements `dev` keeps. For GPU
    /// runtimes.
    #[doc(hidden)]
    pub fn from_resident(dev: Arc<dyn Resident<T>>, shape: Vec<usize>) -> Self {
        debug_assert_eq!(shape.len(), D);
        Array {
            store: Store::Resident {
                dev,
                shape,
                host: Arc::new(OnceLock::new()),
            },
        }
    }

    /// What keeps the elements, when a GPU runtime does. For GPU runtimes.
    #[doc(hidden)]
    pub fn resident(&self) -> Option<&Arc<dyn Resident<T>>> {
        match &self.store {
            Store::Host(_) => None,
            Store::Resident { dev, .. } => Some(dev),
        }
    }
}

impl<T: Element + std::fmt::Debug, const D: usize> std::fmt::Debug for Array<T, D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Array")
            .field("shape", &self.shape())
            .field("data", &self.as_slice())
            .finish()
    }
}

impl<T: Element + PartialEq, const D: usize> PartialEq for Array<T, D> {
    fn eq(&self, other: &Self) -> bool {
        self.shape() == other.shape() && self.as_slice() == other.as_slice()
    }
}

/// Runs the generated function of entry point `entry` in the context's
/// thread pool. A run-time failure of the program becomes an [`Error`]
/// whose message is followed by the source location (`location` maps the
/// failing statement's span to its text); a panic, which would be a bug of
/// the code generator or runtime, becomes an error too.
pub fn call<T: Send>(
    ctx: &Context,
    entry: &str,
    location: fn((u32, u32, u32)) -> &'static str,
    f: impl FnOnce() -> R<T> + Send,
) -> Result<T, Error> {
    match catch_unwind(AssertUnwindSafe(|| ctx.install(f))) {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(fail)) => {
            let at = location(fail.span);
            Err(Error::new(if at.is_empty() {
                fail.message
            } else {
                format!("{}\n  at {at}", fail.message)
            }))
        }
        Err(payload) => {
            let text = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(Error::new(format!(
                "internal error in entry point `{entry}` (a bug in fut's code generator or runtime): {text}"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arr::Fail;

    #[test]
    fn arrays_from_vecs_with_shapes() {
        let a = Array::<f64, 2>::from_vec(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]).unwrap();
        assert_eq!(a.shape(), [2, 3]);
        assert_eq!(a.to_vec(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let e = Array::<i32, 2>::from_vec(vec![1, 2, 3], [2, 2]).unwrap_err();
        assert_eq!(
            e.message,
            "an array of shape [2][2] needs 4 elements, but 3 were given"
        );
        let e = Array::<bool, 2>::from_vec(vec![], [usize::MAX, 2]).unwrap_err();
        assert!(e.message.contains("more elements"), "{e}");
        let e = Array::<bool, 2>::from_vec(vec![], [usize::MAX, 0]).unwrap_err();
        assert!(e.message.contains("larger than the largest size"), "{e}");
        let empty = Array::<bool, 1>::from_vec(vec![], [0]).unwrap();
        assert_eq!(empty.shape(), [0]);
        let shared = Array::<i64, 1>::from_arr(Arr::new(vec![3], vec![1, 2, 3]));
        let alias = shared.clone();
        assert_eq!(shared.into_vec(), vec![1, 2, 3]);
        assert_eq!(alias.as_slice(), &[1, 2, 3]);
    }

    #[test]
    fn contexts_and_arrays_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Context>();
        shared::<Array<f64, 2>>();
    }

    fn locate(s: (u32, u32, u32)) -> &'static str {
        if s == (1, 2, 3) { "p.fut:1:3-1:4" } else { "" }
    }

    #[test]
    fn calls_run_in_the_pool_and_failures_name_the_location() {
        let ctx = Context::new(Some(2), false).unwrap();
        let n = call(&ctx, "t", locate, || Ok(rayon::current_num_threads())).unwrap();
        assert_eq!(n, 2);
        let e = call(&ctx, "t", locate, || -> R<()> {
            Err(Fail {
                message: "Index [3] out of bounds for array of shape [1].".into(),
                span: (1, 2, 3),
            })
        })
        .unwrap_err();
        assert_eq!(
            e.message,
            "Index [3] out of bounds for array of shape [1].\n  at p.fut:1:3-1:4"
        );
        let e = call(&ctx, "t", locate, || -> R<()> { panic!("boom") }).unwrap_err();
        assert!(
            e.message.contains("internal error in entry point `t`"),
            "{e}"
        );
        assert!(e.message.contains("boom"), "{e}");
    }
}
