//! Memory blocks of code emitted from the imperative IR.
//!
//! A [`Mem`] names a block of elements: a raw pointer, a length and,
//! unless it is a borrowed handle, a share of the block's owner. Copies of
//! a handle ([`Mem::handle`]) are what the iterations of a parallel loop
//! read and write through: the imperative IR makes them write disjoint
//! elements, so no iteration waits for another. Every element access is
//! checked against the block's length (an access outside stops the
//! program with a message); the source-level bounds checks are the IR's
//! assertions, which fail through [`assert_failed`] with their location.
//!
//! The module also holds what emitted code needs around blocks:
//! allocation ([`Mem::alloc`]), the strided copy of a view
//! ([`copy_view`]), the iteration space of parallel loops ([`par_for`]),
//! and the conversions between the runtime's [`Arr`]ays and blocks at the
//! entry points ([`arr_mem`], [`mem_arr`]).
//!
//! This is the one module of the crate with unsafe code: each unsafe block
//! accesses an element that a check just before it placed inside its block,
//! or (in [`zeroed_vec`]) makes a zeroed vector from a fallible allocation,
//! so that a block too large for the memory fails with a message instead of
//! aborting the process.

#![allow(unsafe_code)]

use std::ptr::NonNull;
use std::sync::Arc;

use values::PrimValue;

use crate::arr::{Arr, Elem, Fail, R, fill_message};
use crate::{par, profile};

/// The parts of a `Vec` that a block owns, rebuilt and dropped once,
/// when the last share of the block goes.
struct RawBuf<T> {
    ptr: *mut T,
    len: usize,
    cap: usize,
}

impl<T> RawBuf<T> {
    /// The `Vec` again, without dropping it.
    fn into_vec(self) -> Vec<T> {
        let me = std::mem::ManuallyDrop::new(self);
        // SAFETY: the parts of a `Vec` taken apart by `Mem::from_vec`,
        // taken back once (`me` is never dropped).
        unsafe { Vec::from_raw_parts(me.ptr, me.len, me.cap) }
    }
}

impl<T> Drop for RawBuf<T> {
    fn drop(&mut self) {
        // SAFETY: as in `into_vec`; this is the only rebuild.
        drop(unsafe { Vec::from_raw_parts(self.ptr, self.len, self.cap) });
    }
}

/// What keeps a block's elements alive.
enum Owner<T> {
    /// A buffer of this crate.
    Raw(RawBuf<T>),
    /// The buffer of an array that others share (read only).
    Shared(Arc<Vec<T>>),
}

// SAFETY: the owner only frees the buffer; its elements are `Send + Sync`.
unsafe impl<T: Send + Sync> Send for Owner<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Sync for Owner<T> {}

/// A memory block handle: where the elements are, how many, and (unless
/// it is a borrowed handle) a share of their owner.
pub struct Mem<T> {
    ptr: *mut T,
    len: usize,
    owner: Option<Arc<Owner<T>>>,
}

// SAFETY: a block is written through shared handles only by iterations
// that the imperative IR makes write disjoint elements.
unsafe impl<T: Send + Sync> Send for Mem<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Sync for Mem<T> {}

impl<T> Clone for Mem<T> {
    #[inline]
    fn clone(&self) -> Self {
        Mem {
            ptr: self.ptr,
            len: self.len,
            owner: self.owner.clone(),
        }
    }
}

/// A vector of `n` zeros (the default value of every element type), or
/// `None` when the allocator cannot give the memory.
pub fn zeroed_vec<T: Elem>(n: usize) -> Option<Vec<T>> {
    let layout = std::alloc::Layout::array::<T>(n).ok()?;
    if layout.size() == 0 {
        return Some(vec![T::default(); n]);
    }
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` was allocated by the global allocator with the layout
    // of `n` elements of `T`, all initialised: `Elem` is sealed to the
    // primitive types, whose all-zero bit pattern is a valid value.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// The message of a failed allocation of `n` elements of `T`.
#[cold]
pub fn alloc_message<T: Elem>(n: usize) -> String {
    let bytes = (n as u128) * (std::mem::size_of::<T>() as u128);
    format!(
        "Out of memory: cannot allocate {n} elements of {} ({bytes} bytes).",
        T::PRIM.name()
    )
}

/// An access outside a block: a bug of the compiler, never of the program.
#[cold]
#[inline(never)]
fn outside(i: i64, len: usize) -> ! {
    panic!("internal error: access at {i} outside a block of {len} elements")
}

impl<T: Elem> Mem<T> {
    /// A handle that names no block yet (an empty one).
    pub fn empty() -> Mem<T> {
        Mem {
            ptr: NonNull::dangling().as_ptr(),
            len: 0,
            owner: None,
        }
    }

    /// A block holding `v`.
    pub fn from_vec(v: Vec<T>) -> Mem<T> {
        let mut v = std::mem::ManuallyDrop::new(v);
        let (ptr, len, cap) = (v.as_mut_ptr(), v.len(), v.capacity());
        Mem {
            ptr,
            len,
            owner: Some(Arc::new(Owner::Raw(RawBuf { ptr, len, cap }))),
        }
    }

    /// A fresh block of `n` elements (zeros), failing at `span` when `n`
    /// is negative.
    /// A block the allocator cannot give fails at `span` with a message
    /// naming its size.
    pub fn alloc(n: i64, span: (u32, u32, u32)) -> R<Mem<T>> {
        match usize::try_from(n) {
            Ok(k) => match zeroed_vec::<T>(k) {
                Some(v) => Ok(Mem::from_vec(v)),
                None => Err(Fail {
                    message: alloc_message::<T>(k),
                    span,
                }),
            },
            Err(_) => Err(Fail {
                message: format!("Invalid range: negative size {n}"),
                span,
            }),
        }
    }

    /// Points the handle at a block of `n` elements whose contents are
    /// unspecified, as [`Mem::alloc`] does, failing at `span` when `n` is
    /// negative; the block the handle names is reused when nothing else
    /// shares it and it is large enough (an allocation in a loop then
    /// allocates once).
    #[inline]
    pub fn realloc(&mut self, n: i64, span: (u32, u32, u32)) -> R<()> {
        if let (Ok(k), Some(owner)) = (usize::try_from(n), self.owner.as_mut())
            && let Some(Owner::Raw(raw)) = Arc::get_mut(owner)
            && k <= raw.len
        {
            self.ptr = raw.ptr;
            self.len = k;
            return Ok(());
        }
        *self = Mem::alloc(n, span)?;
        Ok(())
    }

    /// A borrowed copy of the handle, for the iterations of a parallel
    /// loop (the block outlives them).
    #[inline]
    pub fn handle(&self) -> Mem<T> {
        Mem {
            ptr: self.ptr,
            len: self.len,
            owner: None,
        }
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the block has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Element `i`.
    #[inline(always)]
    pub fn get(&self, i: i64) -> T {
        if (i as u64) < self.len as u64 {
            // SAFETY: in bounds, just checked.
            unsafe { *self.ptr.add(i as usize) }
        } else {
            outside(i, self.len)
        }
    }

    /// Sets element `i` to `x`.
    #[inline(always)]
    pub fn set(&self, i: i64, x: T) {
        if (i as u64) < self.len as u64 {
            // SAFETY: in bounds; iterations write disjoint elements.
            unsafe { *self.ptr.add(i as usize) = x }
        } else {
            outside(i, self.len)
        }
    }

    /// Whether the positions `base + k*step` for every `k` in `lo..hi` are
    /// all inside the block (true when the range is empty). The positions
    /// are those emitted code computes with wrapping `i64` arithmetic:
    /// they are taken exactly here ([`within`]), so a range whose exact
    /// ends are inside the block has every wrapped position equal to its
    /// exact one, between the ends.
    #[inline]
    pub fn covers(&self, base: i64, step: i64, lo: i64, hi: i64) -> bool {
        within(base, step, lo, hi, 0, self.len as i64)
    }

    /// Element `i`, unchecked: only for a position that a [`Mem::covers`]
    /// check before the loop placed inside this block, the handle and its
    /// block unchanged since (emitted code hoists the check of an access
    /// made at every iteration of a loop whose position is affine in the
    /// loop's counter, and runs the checked loop when the check fails).
    #[inline(always)]
    pub fn get_unchecked(&self, i: i64) -> T {
        debug_assert!((i as u64) < self.len as u64, "unchecked access outside");
        // SAFETY: `i` is inside the block: the `covers` check of the loop
        // around this access passed for this handle, which the loop does
        // not point at another block.
        unsafe { *self.ptr.add(i as usize) }
    }

    /// Sets element `i` to `x`, unchecked: as [`Mem::get_unchecked`].
    #[inline(always)]
    pub fn set_unchecked(&self, i: i64, x: T) {
        debug_assert!((i as u64) < self.len as u64, "unchecked access outside");
        // SAFETY: inside the block, as in `get_unchecked`; iterations
        // write disjoint elements.
        unsafe { *self.ptr.add(i as usize) = x }
    }

    /// The first `count` elements as a buffer, taken without a copy when
    /// this handle holds the only share of a buffer of this crate.
    fn into_vec(self, count: usize) -> Result<Vec<T>, String> {
        if count > self.len {
            return Err(format!(
                "internal error: a result of {count} elements in a block of {}",
                self.len
            ));
        }
        if let Some(owner) = self.owner {
            match Arc::try_unwrap(owner) {
                Ok(Owner::Raw(raw)) if raw.ptr == self.ptr => {
                    let mut v = raw.into_vec();
                    v.truncate(count);
                    return Ok(v);
                }
                Ok(Owner::Shared(v)) if std::ptr::eq(v.as_ptr(), self.ptr) => {
                    let mut v = Arc::try_unwrap(v).unwrap_or_else(|a| (*a).clone());
                    v.truncate(count);
                    return Ok(v);
                }
                Ok(other) => {
                    // SAFETY: in bounds (checked above); `other` keeps the
                    // elements alive until the copy is made.
                    let v = unsafe { std::slice::from_raw_parts(self.ptr, count) }.to_vec();
                    drop(other);
                    return Ok(v);
                }
                Err(owner) => {
                    // SAFETY: as above, `owner` is alive.
                    let v = unsafe { std::slice::from_raw_parts(self.ptr, count) }.to_vec();
                    drop(owner);
                    return Ok(v);
                }
            }
        }
        // SAFETY: a borrowed handle of a block that is alive.
        Ok(unsafe { std::slice::from_raw_parts(self.ptr, count) }.to_vec())
    }
}

/// Whether `base + k*step` lies in `min..end` for every `k` in `lo..hi`
/// (true when the range is empty), the values taken exactly (an overflow
/// of `i64` fails the check): a range whose exact ends lie there has
/// every value that emitted code computes with wrapping `i64` arithmetic
/// equal to its exact one. What loops check before running with their
/// index bounds assertions left out ([`Mem::covers`] for their element
/// accesses).
#[inline]
pub fn within(base: i64, step: i64, lo: i64, hi: i64, min: i64, end: i64) -> bool {
    if hi <= lo {
        return true;
    }
    let ends = lo
        .checked_mul(step)
        .and_then(|a| a.checked_add(base))
        .zip((hi - 1).checked_mul(step).and_then(|b| b.checked_add(base)));
    match ends {
        Some((first, last)) => first.min(last) >= min && first.max(last) < end,
        None => false,
    }
}

/// The failure of an assertion: `msg` with each `{}` replaced by the next
/// of `args`, at `span`.
#[cold]
#[inline(never)]
pub fn assert_failed(msg: &str, args: &[PrimValue], span: (u32, u32, u32)) -> Fail {
    Fail {
        message: fill_message(msg, args),
        span,
    }
}

/// The lowest and highest positions a view reaches (`None` when it has no
/// elements).
fn extent(off: i64, shape: &[i64], strides: &[i64]) -> Option<(i64, i64)> {
    let (mut lo, mut hi) = (off, off);
    for (&n, &s) in shape.iter().zip(strides) {
        if n <= 0 {
            return None;
        }
        let d = (n - 1).wrapping_mul(s);
        if d < 0 {
            lo = lo.wrapping_add(d);
        } else {
            hi = hi.wrapping_add(d);
        }
    }
    Some((lo, hi))
}

/// Whether `strides` are the row-major strides of `shape`.
fn row_major(shape: &[i64], strides: &[i64]) -> bool {
    let mut want = 1i64;
    for (&n, &s) in shape.iter().zip(strides).rev() {
        if n > 1 && s != want {
            return false;
        }
        want = want.wrapping_mul(n);
    }
    true
}

/// Every position of a view, in row-major order of its indices.
fn positions(off: i64, shape: &[i64], strides: &[i64], out: &mut Vec<usize>) {
    match shape.len() {
        0 => out.push(off as usize),
        _ => {
            for i in 0..shape[0] {
                positions(off + i * strides[0], &shape[1..], &strides[1..], out);
            }
        }
    }
}

/// Copies each element of the view `(soff, shape, sstrides)` of `src` to
/// the same index of the view `(doff, shape, dstrides)` of `dst`.
///
/// # Safety
///
/// Every position of both views must be inside its block, and no element
/// of one view may be an element of the other.
unsafe fn copy_apart<T: Copy>(
    dst: *mut T,
    doff: i64,
    dstrides: &[i64],
    src: *const T,
    soff: i64,
    sstrides: &[i64],
    shape: &[i64],
) {
    match shape {
        [] => unsafe { *dst.add(doff as usize) = *src.add(soff as usize) },
        [n] => {
            let (ds, ss) = (dstrides[0], sstrides[0]);
            for i in 0..*n {
                unsafe { *dst.add((doff + i * ds) as usize) = *src.add((soff + i * ss) as usize) };
            }
        }
        [n, rest @ ..] => {
            for i in 0..*n {
                unsafe {
                    copy_apart(
                        dst,
                        doff + i * dstrides[0],
                        &dstrides[1..],
                        src,
                        soff + i * sstrides[0],
                        &sstrides[1..],
                        rest,
                    )
                };
            }
        }
    }
}

/// Copies every element of the view `(soff, shape, sstrides)` of `src` to
/// the same index of the view `(doff, dshape, dstrides)` of `dst`. The
/// shapes must agree (a failure at `span` otherwise); the views may
/// overlap.
#[allow(clippy::too_many_arguments)]
pub fn copy_view<T: Elem>(
    dst: &Mem<T>,
    doff: i64,
    dshape: &[i64],
    dstrides: &[i64],
    src: &Mem<T>,
    soff: i64,
    sshape: &[i64],
    sstrides: &[i64],
    span: (u32, u32, u32),
) -> R<()> {
    if dshape != sshape {
        return Err(Fail {
            message: format!(
                "Size mismatch: copying an array of shape {sshape:?} into one of shape {dshape:?}"
            ),
            span,
        });
    }
    let (Some((dlo, dhi)), Some((slo, shi))) = (
        extent(doff, dshape, dstrides),
        extent(soff, sshape, sstrides),
    ) else {
        return Ok(());
    };
    if dlo < 0 || slo < 0 || dhi as u64 >= dst.len as u64 || shi as u64 >= src.len as u64 {
        outside(
            if dlo < 0 || dhi as u64 >= dst.len as u64 {
                dhi
            } else {
                shi
            },
            dst.len,
        );
    }
    if row_major(dshape, dstrides) && row_major(sshape, sstrides) {
        let n = (dhi - dlo + 1) as usize;
        // SAFETY: both ranges are inside their blocks (checked above);
        // `copy` allows them to overlap.
        unsafe { std::ptr::copy(src.ptr.add(slo as usize), dst.ptr.add(dlo as usize), n) };
        return Ok(());
    }
    // Views whose elements lie apart (other blocks, or apart in one): each
    // element copied in place, without the buffers of overlapping views.
    // SAFETY: both ranges are inside their blocks (checked above).
    let (d_first, d_last) = unsafe { (dst.ptr.add(dlo as usize), dst.ptr.add(dhi as usize)) };
    let (s_first, s_last) = unsafe { (src.ptr.add(slo as usize), src.ptr.add(shi as usize)) };
    if d_last < s_first || s_last < d_first {
        // SAFETY: every position is inside its block (the extents are),
        // and no element is both read and written.
        unsafe { copy_apart(dst.ptr, doff, dstrides, src.ptr, soff, sstrides, dshape) };
        return Ok(());
    }
    let (mut from, mut to) = (Vec::new(), Vec::new());
    positions(soff, sshape, sstrides, &mut from);
    positions(doff, dshape, dstrides, &mut to);
    // SAFETY: every position is inside its block (the extents are); the
    // elements are read before any is written, so overlap is harmless.
    let vals: Vec<T> = from.iter().map(|&p| unsafe { *src.ptr.add(p) }).collect();
    for (&p, x) in to.iter().zip(vals) {
        unsafe { *dst.ptr.add(p) = x };
    }
    Ok(())
}

/// The number of iterations of a parallel loop over `sizes` (0 when a
/// size is negative).
#[inline]
pub fn space(sizes: &[i64]) -> usize {
    let mut n = 1usize;
    for &s in sizes {
        match usize::try_from(s) {
            Ok(s) => n = n.saturating_mul(s),
            Err(_) => return 0,
        }
    }
    n
}

/// The index of flat iteration `k` of the space `sizes`, into `idx`.
#[inline]
pub fn unflatten(mut k: usize, sizes: &[i64], idx: &mut [i64]) {
    for (i, &n) in idx.iter_mut().zip(sizes).rev() {
        let n = n.max(1) as usize;
        *i = (k % n) as i64;
        k /= n;
    }
}

/// Steps `idx` to the next index of the space `sizes` (row-major order).
#[inline(always)]
pub fn step(idx: &mut [i64], sizes: &[i64]) {
    for (i, &n) in idx.iter_mut().zip(sizes).rev() {
        *i += 1;
        if *i < n {
            return;
        }
        *i = 0;
    }
}

/// The value of tuning parameter `name` (a threshold choosing between
/// versions of code that compute the same thing): `default`, since the
/// multicore backend has none to set.
pub fn tuned_param(_name: &str, default: i64) -> i64 {
    default
}

/// The number of chunks a parallel reduction, scan or histogram over `w`
/// iterations, each estimated to cost `cost` units, is split into: the
/// runtime's [`par::chunk_count_cost`] (one chunk when the threads are
/// already busy with an enclosing parallel loop, or only one runs), at
/// most `most`.
pub fn reduce_chunks(w: i64, cost: u64, most: i64) -> i64 {
    let w = usize::try_from(w).unwrap_or(0);
    i64::try_from(par::chunk_count_cost(w, cost))
        .unwrap_or(i64::MAX)
        .min(most)
        .max(1)
}

/// Runs `f(lo, hi)` on the chunks of `0..w`, in parallel when the work
/// (`w` iterations of estimated `cost` each) is worth splitting, reusing
/// the chunking of [`par`]; the first failure in chunk order wins. The
/// operation is timed by the profiler under `name`.
pub fn par_for<F>(name: &str, w: usize, cost: u64, f: F) -> R<()>
where
    F: Fn(usize, usize) -> R<()> + Sync + Send,
{
    if w == 0 {
        return Ok(());
    }
    let t = profile::op_start();
    let (n, mark) = par::chunk_plan(w, cost);
    let r = if mark {
        par::run_saturated(|| f(0, w))
    } else if n <= 1 {
        f(0, w)
    } else {
        par::par_chunks_n(w, n, f).map(|_| ())
    };
    profile::op_end(name, t);
    r
}

/// The block of an array argument and its shape: the array's buffer
/// without a copy (a copy when others share it and `unique` says the
/// callee may write into it).
pub fn arr_mem<T: Elem>(a: Arr<T>, unique: bool) -> (Mem<T>, Vec<i64>) {
    let shape: Vec<i64> = a.shape.iter().map(|&d| d as i64).collect();
    let mem = match Arc::try_unwrap(a.data) {
        Ok(v) => Mem::from_vec(v),
        Err(shared) if unique => Mem::from_vec((*shared).clone()),
        Err(shared) => {
            let ptr = shared.as_ptr() as *mut T;
            Mem {
                ptr,
                len: shared.len(),
                owner: Some(Arc::new(Owner::Shared(shared))),
            }
        }
    };
    (mem, shape)
}

/// The row-major stride of dimension `k` of `shape`.
pub fn stride(shape: &[i64], k: usize) -> i64 {
    shape[k + 1..].iter().product()
}

/// The array of shape `dims` held row-major from offset 0 by `m`.
pub fn mem_arr<T: Elem>(m: Mem<T>, dims: &[i64]) -> Result<Arr<T>, String> {
    let mut shape = Vec::with_capacity(dims.len());
    for &d in dims {
        shape.push(usize::try_from(d).map_err(|_| format!("Invalid range: negative size {d}"))?);
    }
    let count = shape.iter().product();
    Ok(Arr::new(
        crate::shape::Shape::from_slice(&shape),
        m.into_vec(count)?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_read_write_and_convert() {
        let m = Mem::<f64>::alloc(6, (0, 0, 0)).unwrap();
        for i in 0..6 {
            m.set(i, i as f64);
        }
        let h = m.handle();
        assert_eq!(h.get(4), 4.0);
        // A block nothing else shares is reused when large enough; a
        // shared one is not.
        let mut r = Mem::<f64>::alloc(4, (0, 0, 0)).unwrap();
        r.set(0, 9.0);
        r.realloc(3, (0, 0, 0)).unwrap();
        assert_eq!((r.len(), r.get(0)), (3, 9.0));
        let keep = r.clone();
        r.realloc(2, (0, 0, 0)).unwrap();
        assert_eq!((r.len(), r.get(0), keep.get(0)), (2, 0.0, 9.0));
        r.realloc(8, (0, 0, 0)).unwrap();
        assert_eq!(r.len(), 8);
        assert!(r.realloc(-1, (0, 0, 0)).is_err());
        assert!(Mem::<f64>::alloc(-1, (1, 2, 3)).is_err());
        // The transpose of a 2x3 array into a 3x2 block.
        let t = Mem::<f64>::alloc(6, (0, 0, 0)).unwrap();
        copy_view(&t, 0, &[3, 2], &[2, 1], &m, 0, &[3, 2], &[1, 3], (0, 0, 0)).unwrap();
        let a = mem_arr(t, &[3, 2]).unwrap();
        assert_eq!(a.as_slice(), &[0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
        // A strided column into a row of another block, and a strided
        // view into a part of its own block that it does not overlap.
        let c = Mem::<f64>::alloc(2, (0, 0, 0)).unwrap();
        copy_view(&c, 0, &[2], &[1], &m, 1, &[2], &[3], (0, 0, 0)).unwrap();
        assert_eq!((c.get(0), c.get(1)), (1.0, 4.0));
        let w = Mem::<f64>::alloc(8, (0, 0, 0)).unwrap();
        for k in 0..8 {
            w.set(k, k as f64);
        }
        copy_view(&w, 5, &[2, 1], &[1, 1], &w, 0, &[2, 1], &[2, 1], (0, 0, 0)).unwrap();
        assert_eq!((w.get(5), w.get(6), w.get(2)), (0.0, 2.0, 2.0));
        // Overlapping contiguous copy: a shift by one.
        copy_view(&m, 0, &[5], &[1], &m, 1, &[5], &[1], (0, 0, 0)).unwrap();
        assert_eq!(m.get(0), 1.0);
        assert_eq!(m.get(4), 5.0);
        let e = copy_view(&m, 0, &[2], &[1], &m, 0, &[3], &[1], (1, 2, 3)).unwrap_err();
        assert_eq!(e.span, (1, 2, 3));
        // A shared argument is not copied and reads the same elements.
        let arr = Arr::new(crate::shape::Shape::from_slice(&[2]), vec![7i32, 8]);
        let keep = arr.clone();
        let (m, shape) = arr_mem(arr, false);
        assert_eq!((m.get(1), shape), (8, vec![2]));
        assert_eq!(mem_arr(m, &[2]).unwrap().as_slice(), keep.as_slice());
        assert_eq!(stride(&[4, 5, 6], 0), 30);
    }

    #[test]
    fn ranges_of_affine_positions() {
        let m = Mem::<f64>::alloc(10, (0, 0, 0)).unwrap();
        // 2 + 3k for k in 0..3: 2, 5, 8.
        assert!(m.covers(2, 3, 0, 3));
        // k = 3 reaches 11.
        assert!(!m.covers(2, 3, 0, 4));
        // Downwards: 9 - k for k in 2..10 reaches 0, one more reaches -1.
        assert!(m.covers(9, -1, 2, 10));
        assert!(!m.covers(9, -1, 2, 11));
        // A constant position, and an empty range anywhere.
        assert!(m.covers(9, 0, 0, 1000));
        assert!(!m.covers(10, 0, 0, 1));
        assert!(m.covers(-5, 1, 4, 4));
        // Positions whose wrapped i64 values would be inside are not.
        assert!(!m.covers(i64::MAX, 1, 1, 3));
        assert!(!m.covers(0, i64::MIN, 0, 3));
        // Index bounds: 0 <= 2k - 1 < 7 for k in 1..4, not for k = 0.
        assert!(within(-1, 2, 1, 4, 0, 7));
        assert!(!within(-1, 2, 0, 4, 0, 7));
        assert!(within(-1, 2, 0, 4, i64::MIN, 7));
        m.set_unchecked(9, 1.5);
        assert_eq!(m.get_unchecked(9), 1.5);
    }

    #[test]
    fn spaces_and_parallel_loops() {
        assert_eq!(space(&[3, 4]), 12);
        assert_eq!(space(&[3, -1]), 0);
        let mut idx = [0i64; 2];
        unflatten(7, &[3, 4], &mut idx);
        assert_eq!(idx, [1, 3]);
        step(&mut idx, &[3, 4]);
        assert_eq!(idx, [2, 0]);
        let m = Mem::<i64>::alloc(1000, (0, 0, 0)).unwrap();
        let h = m.handle();
        par_for("test", 1000, 100, move |lo, hi| {
            for i in lo..hi {
                h.set(i as i64, 2 * i as i64);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(m.get(999), 1998);
        let r = par_for("test", 1000, 100, |lo, _| {
            if lo > 0 {
                Err(assert_failed("bad {}", &[PrimValue::I64(3)], (0, 1, 2)))
            } else {
                Ok(())
            }
        });
        assert_eq!(r.unwrap_err().message, "bad 3");
        assert_eq!(assert_failed("x", &[], (0, 0, 0)).message, "x");
    }
}

// Atomic updates of shared accumulators.
//
// The iterations of a parallel loop that update an accumulator they share
// (the adjoint of an array that reverse-mode AD reads inside a map) update
// its elements atomically: a compare-and-swap loop on the element's bit
// pattern running the accumulator's operator, or one `fetch_add` for a sum
// of integers. Within such a loop every access to those elements is one of
// these updates; before and after it, plain accesses are ordered by the
// loop's start and its join. A loop that runs as one chunk (too little work
// to split) shares the accumulator with no other chunk: its updates are a
// plain read and write.

/// An element type that can be updated atomically: the atomic integer of
/// its bit pattern does the compare-and-swap.
pub trait AtomicElem: Elem {
    /// Replaces the element at `ptr` by `f` of it, running `f` again on the
    /// changed element when another thread changed it meanwhile; a failure
    /// of `f` leaves the element as it is.
    ///
    /// # Safety
    /// `ptr` points at an element of a live block, aligned for its type,
    /// that nothing accesses other than through these updates meanwhile.
    unsafe fn update_at<F: FnMut(Self) -> R<Self>>(ptr: *mut Self, f: F) -> R<()>;

    /// Stores `x` at `ptr` (a relaxed atomic store: a plain store on
    /// common hardware, and no data race when another thread stores to
    /// the same element meanwhile).
    ///
    /// # Safety
    /// `ptr` points at an element of a live block, aligned for its type,
    /// that other threads access only through these stores meanwhile.
    unsafe fn store_at(ptr: *mut Self, x: Self);
}

macro_rules! atomic_elem {
    ($($t:ty => $a:ty, $to:expr, $from:expr);* $(;)?) => {
        $(impl AtomicElem for $t {
            #[inline]
            unsafe fn update_at<F: FnMut(Self) -> R<Self>>(ptr: *mut Self, mut f: F) -> R<()> {
                use std::sync::atomic::Ordering::Relaxed;
                // SAFETY: the caller's promise; the atomic type has the
                // size and alignment of the element type.
                let a = unsafe { <$a>::from_ptr(ptr.cast()) };
                let mut cur = a.load(Relaxed);
                loop {
                    let new = f($from(cur))?;
                    match a.compare_exchange_weak(cur, $to(new), Relaxed, Relaxed) {
                        Ok(_) => return Ok(()),
                        Err(now) => cur = now,
                    }
                }
            }

            #[inline]
            unsafe fn store_at(ptr: *mut Self, x: Self) {
                // SAFETY: the caller's promise, as in `update_at`.
                let a = unsafe { <$a>::from_ptr(ptr.cast()) };
                a.store($to(x), std::sync::atomic::Ordering::Relaxed);
            }
        })*
    };
}

atomic_elem! {
    i8 => std::sync::atomic::AtomicI8, |x| x, |x| x;
    i16 => std::sync::atomic::AtomicI16, |x| x, |x| x;
    i32 => std::sync::atomic::AtomicI32, |x| x, |x| x;
    i64 => std::sync::atomic::AtomicI64, |x| x, |x| x;
    u8 => std::sync::atomic::AtomicU8, |x| x, |x| x;
    u16 => std::sync::atomic::AtomicU16, |x| x, |x| x;
    u32 => std::sync::atomic::AtomicU32, |x| x, |x| x;
    u64 => std::sync::atomic::AtomicU64, |x| x, |x| x;
    bool => std::sync::atomic::AtomicBool, |x| x, |x| x;
    values::f16 => std::sync::atomic::AtomicU16, values::f16::to_bits, values::f16::from_bits;
    f32 => std::sync::atomic::AtomicU32, f32::to_bits, f32::from_bits;
    f64 => std::sync::atomic::AtomicU64, f64::to_bits, f64::from_bits;
}

/// An integer element type whose sums are one atomic `fetch_add`
/// (wrapping, as the language's integer addition).
pub trait AtomicInt: AtomicElem {
    /// Adds `x` to the element at `ptr`.
    ///
    /// # Safety
    /// As [`AtomicElem::update_at`].
    unsafe fn add_at(ptr: *mut Self, x: Self);

    /// `self + x`, wrapping.
    fn wrapping_sum(self, x: Self) -> Self;
}

macro_rules! atomic_int {
    ($($t:ty => $a:ty),* $(,)?) => {
        $(impl AtomicInt for $t {
            #[inline]
            unsafe fn add_at(ptr: *mut Self, x: Self) {
                // SAFETY: the caller's promise, as in `update_at`.
                let a = unsafe { <$a>::from_ptr(ptr) };
                a.fetch_add(x, std::sync::atomic::Ordering::Relaxed);
            }

            #[inline]
            fn wrapping_sum(self, x: Self) -> Self {
                self.wrapping_add(x)
            }
        })*
    };
}

atomic_int! {
    i8 => std::sync::atomic::AtomicI8,
    i16 => std::sync::atomic::AtomicI16,
    i32 => std::sync::atomic::AtomicI32,
    i64 => std::sync::atomic::AtomicI64,
    u8 => std::sync::atomic::AtomicU8,
    u16 => std::sync::atomic::AtomicU16,
    u32 => std::sync::atomic::AtomicU32,
    u64 => std::sync::atomic::AtomicU64,
}

impl<T: AtomicElem> Mem<T> {
    /// Replaces element `i` by `f` of it: the update of an accumulator by
    /// its operator, atomic when `shared` says that other chunks of the
    /// loop may update the block meanwhile (see [`AtomicElem::update_at`]),
    /// a read and a write otherwise.
    #[inline]
    pub fn atomic_update<F: FnMut(T) -> R<T>>(&self, i: i64, shared: bool, mut f: F) -> R<()> {
        if !shared {
            self.set(i, f(self.get(i))?);
            return Ok(());
        }
        if (i as u64) < self.len as u64 {
            // SAFETY: in bounds, just checked; within a parallel loop the
            // imperative IR accesses a shared accumulator's elements only
            // through atomic updates.
            unsafe { T::update_at(self.ptr.add(i as usize), f) }
        } else {
            outside(i, self.len)
        }
    }
}

impl<T: AtomicElem> Mem<T> {
    /// Writes `x` to element `i`: a scatter's write from a parallel loop,
    /// where two chunks may write the same element (Futhark allows that
    /// only when they write the same value). A relaxed atomic store when
    /// `shared`, a plain write otherwise.
    #[inline]
    pub fn atomic_store(&self, i: i64, shared: bool, x: T) {
        if !shared {
            self.set(i, x);
            return;
        }
        if (i as u64) < self.len as u64 {
            // SAFETY: in bounds, just checked; within the parallel loop the
            // imperative IR writes these elements only through such stores.
            unsafe { T::store_at(self.ptr.add(i as usize), x) }
        } else {
            outside(i, self.len)
        }
    }
}

impl<T: AtomicInt> Mem<T> {
    /// Adds `x` to element `i` (an integer accumulator whose operator is
    /// `+`), atomically when `shared`, as in [`Mem::atomic_update`].
    #[inline]
    pub fn atomic_add(&self, i: i64, shared: bool, x: T) {
        if !shared {
            self.set(i, self.get(i).wrapping_sum(x));
            return;
        }
        if (i as u64) < self.len as u64 {
            // SAFETY: as in `atomic_update`.
            unsafe { T::add_at(self.ptr.add(i as usize), x) }
        } else {
            outside(i, self.len)
        }
    }
}

#[cfg(test)]
mod atomic_tests {
    use super::*;
    use values::f16;

    #[test]
    fn parallel_atomic_updates_lose_nothing() {
        // 4000 iterations adding to 3 shared elements, in parallel chunks.
        let f = Mem::<f64>::alloc(3, (0, 0, 0)).unwrap();
        let n = Mem::<i32>::alloc(3, (0, 0, 0)).unwrap();
        let h = f.handle();
        let g = n.handle();
        par_for("test", 4000, 10_000, move |lo, hi| {
            for k in lo..hi {
                h.atomic_update((k % 3) as i64, true, |old| Ok(old + 0.5))?;
                g.atomic_add((k % 3) as i64, true, 2);
            }
            Ok(())
        })
        .unwrap();
        let want = [1334.0 * 0.5, 1333.0 * 0.5, 1333.0 * 0.5];
        assert_eq!([f.get(0), f.get(1), f.get(2)], want);
        assert_eq!([n.get(0), n.get(1), n.get(2)], [2668, 2666, 2666]);
        // Parallel stores of the same value per element.
        let st = Mem::<f64>::alloc(5, (0, 0, 0)).unwrap();
        let sh = st.handle();
        par_for("test", 4000, 10_000, move |lo, hi| {
            for k in lo..hi {
                sh.atomic_store((k % 5) as i64, true, (k % 5) as f64 * 1.5);
            }
            Ok(())
        })
        .unwrap();
        assert_eq!(
            (0..5).map(|i| st.get(i)).collect::<Vec<_>>(),
            [0.0, 1.5, 3.0, 4.5, 6.0]
        );
        st.atomic_store(2, false, -1.0);
        assert_eq!(st.get(2), -1.0);
        // A general operator (max), and a failing one leaves the element.
        let m = Mem::<f32>::alloc(1, (0, 0, 0)).unwrap();
        m.set(0, -1.0);
        m.atomic_update(0, true, |old| Ok(old.max(3.5))).unwrap();
        assert_eq!(m.get(0), 3.5);
        let e = m
            .atomic_update(0, true, |_| Err(assert_failed("no", &[], (1, 2, 3))))
            .unwrap_err();
        assert_eq!((e.span, m.get(0)), ((1, 2, 3), 3.5));
        let b = Mem::<f16>::alloc(1, (0, 0, 0)).unwrap();
        b.atomic_update(0, true, |old| Ok(old + f16::from_f32(1.5)))
            .unwrap();
        assert_eq!(b.get(0), f16::from_f32(1.5));
        // Unshared (a loop of one chunk): a read and a write, the same
        // results; integer sums wrap.
        b.atomic_update(0, false, |old| Ok(old + f16::from_f32(1.5)))
            .unwrap();
        assert_eq!(b.get(0), f16::from_f32(3.0));
        let e = m
            .atomic_update(0, false, |_| Err(assert_failed("no", &[], (1, 2, 3))))
            .unwrap_err();
        assert_eq!((e.span, m.get(0)), ((1, 2, 3), 3.5));
        let w = Mem::<i8>::alloc(1, (0, 0, 0)).unwrap();
        w.set(0, 127);
        w.atomic_add(0, false, 2);
        assert_eq!(w.get(0), -127);
        w.atomic_add(0, true, -2);
        assert_eq!(w.get(0), 127);
    }
}
