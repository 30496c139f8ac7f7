//! The typed API of library crates (`fut multicore --library`).
//!
//! A generated library exposes its entry points as methods on a context
//! of its own; their array parameters and results are [`Array`]s: a
//! primitive element type and a rank fixed in the type (`Array<f64, 2>`),
//! built from a `Vec` and a shape and read back into one. An `Array`
//! shares its buffer with the arrays of generated code, so passing one to
//! an entry point, or getting one back, copies nothing. [`call`] runs an
//! entry's generated function in the context's thread pool and turns its
//! failures into [`Error`]s that name the source location.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::arr::{Arr, Elem, R};
use crate::context::Context;
use crate::entry::Error;

/// The primitive element types of arrays: `i8`…`i64`, `u8`…`u64`, `f16`,
/// `f32`, `f64` and `bool`.
pub trait Element: Elem {}

impl<T: Elem> Element for T {}

/// An array of rank `D` with elements of type `T`: a shape and a row-major
/// buffer. Cloning one shares the buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Array<T: Element, const D: usize> {
    arr: Arr<T>,
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
            Some(n) if n == data.len() => Ok(Array {
                arr: Arr::new(shape.to_vec(), data),
            }),
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
        let mut s = [0; D];
        for (d, n) in s.iter_mut().zip(&self.arr.shape) {
            *d = *n;
        }
        s
    }

    /// The elements in row-major order (a copy).
    pub fn to_vec(&self) -> Vec<T> {
        self.arr.as_slice().to_vec()
    }

    /// The elements in row-major order, without a copy when nothing else
    /// shares the buffer.
    pub fn into_vec(self) -> Vec<T> {
        std::sync::Arc::try_unwrap(self.arr.data).unwrap_or_else(|a| (*a).clone())
    }

    /// The elements in row-major order.
    pub fn as_slice(&self) -> &[T] {
        self.arr.as_slice()
    }

    /// The array of generated code (shares the buffer). For generated
    /// libraries.
    #[doc(hidden)]
    pub fn to_arr(&self) -> Arr<T> {
        self.arr.clone()
    }

    /// The array of generated code, moved out. For generated libraries
    /// (consumed parameters).
    #[doc(hidden)]
    pub fn into_arr(self) -> Arr<T> {
        self.arr
    }

    /// An array of generated code, which must have rank `D`. For generated
    /// libraries.
    #[doc(hidden)]
    pub fn from_arr(arr: Arr<T>) -> Self {
        debug_assert_eq!(arr.shape.len(), D);
        Array { arr }
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
