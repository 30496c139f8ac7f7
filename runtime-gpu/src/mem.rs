//! Memory blocks that live on the host and may have a copy on the device.
//!
//! Generated host code of a GPU backend is the multicore backend's, with
//! its runtime's `mem` module in place of `fut_runtime_multicore::mem`:
//! that module exports everything the multicore one does, with this
//! module's [`Mem`] for its [`Backend`] (and [`copy_view`], [`arr_mem`],
//! [`mem_arr`] over it). A [`Mem`] is the multicore block
//! (the host copy, accessed exactly as there) plus a coherence state
//! shared by every clone and handle of the block:
//!
//! | state | host copy | device copy |
//! |---|---|---|
//! | host | valid | stale or absent |
//! | both | valid | valid |
//! | device | stale | valid |
//! | zeros | valid (zeros, fresh from [`Mem::alloc`]) | filled with zeros on first use |
//! | unspecified | whatever it holds ([`Mem::realloc`]) | needs no upload |
//!
//! Host reads ([`Mem::get`], the source of [`copy_view`], [`mem_arr`])
//! first bring the host copy up to date when the device's is newer (one
//! blocking read of the whole block); host writes ([`Mem::set`], the
//! atomics, the destination of [`copy_view`]) do the same and then mark
//! the device copy stale. On the fast path each access costs one atomic
//! load and a branch that is always taken the same way; the transitions
//! take the block's lock and check again, so that host threads of a
//! parallel loop download a block once.
//!
//! Kernels reach blocks through [`DevArg`]: [`DevArg::device_buffer`]
//! makes the device copy current (a buffer from the free list; an upload
//! when the host's copy is newer, a fill for zeros, nothing when the
//! contents are unspecified), and [`DevArg::mark_device_written`] records
//! that a kernel wrote it. On the device, `bool` elements are bytes (0 or
//! 1) and `f16` elements their 16 bits, as on the host.
//!
//! A failure to move a block between host and device on a host access
//! (which returns no `Result`) stops the program with a panic naming the
//! driver's error; kernels' own failures are `Fail`s ([`crate::launch()`]).

#![allow(unsafe_code)]

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use fut_runtime_multicore::arr::{Arr, Elem, Fail, R};
use fut_runtime_multicore::mem as mc;
use values::{PrimType, PrimValue};

use crate::backend::Backend;

pub use fut_runtime_multicore::mem::{
    AtomicElem, AtomicInt, alloc_message, assert_failed, par_for, space, step, stride, unflatten,
    within, zeroed_vec,
};

/// The work, in statements of the lowering's estimate, below which a
/// chunk is not worth a thread of its own: a chunk's partial result costs
/// a write and a combination.
pub const MIN_THREAD_WORK: u64 = 16;

/// The number of chunks a parallel reduction, scan or histogram over `w`
/// iterations of estimated `cost` statements each is split into on
/// backend `B`: each chunk runs as one thread of a kernel, so as many as
/// the device keeps busy ([`Backend::threads`], or the tuning parameter
/// `default_threads`, or the `FUT_GPU_CHUNKS` environment variable), no more than the lowering allows (`most`), and
/// few enough that each does [`MIN_THREAD_WORK`]; at most `w` and at least
/// 1.
pub fn device_chunks<B: Backend>(w: i64, cost: u64, most: i64) -> i64 {
    let threads = crate::params::VALUES
        .get("default_threads")
        .map(|t| usize::try_from(t).unwrap_or(usize::MAX))
        .or_else(chunk_limit)
        .unwrap_or_else(|| B::context().map_or(64, |c| c.threads()));
    let threads = i64::try_from(threads).unwrap_or(i64::MAX);
    let work = u64::try_from(w.max(0))
        .unwrap_or(0)
        .saturating_mul(cost.max(1))
        / MIN_THREAD_WORK;
    let by_work = i64::try_from(work).unwrap_or(i64::MAX).max(1);
    w.min(most).min(threads).min(by_work).max(1)
}

/// The most chunks `FUT_GPU_CHUNKS` asks for (read once), when it is set
/// to a positive number.
fn chunk_limit() -> Option<usize> {
    static LIMIT: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        std::env::var("FUT_GPU_CHUNKS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
    })
}

/// Copies of whole blocks from the host to the device and back, so far.
static TRANSFERS: [std::sync::atomic::AtomicU64; 2] = [
    std::sync::atomic::AtomicU64::new(0),
    std::sync::atomic::AtomicU64::new(0),
];

/// How many blocks this process copied from the host to the device, and
/// from the device to the host, so far (what keeping arrays on the
/// device saves).
pub fn transfers() -> (u64, u64) {
    (
        TRANSFERS[0].load(Ordering::Relaxed),
        TRANSFERS[1].load(Ordering::Relaxed),
    )
}

/// Host valid; the device copy stale or absent.
const HOST: u8 = 0;
/// Both copies valid.
const BOTH: u8 = 1;
/// The device copy newer; the host copy stale.
const DEVICE: u8 = 2;
/// Host valid and all zeros; the device copy absent or stale.
const ZERO: u8 = 3;
/// Contents unspecified: the host copy may be read as it is, the device
/// copy needs no upload.
const UNSPEC: u8 = 4;

/// Where a block's contents are valid (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Residency {
    /// On the host only.
    Host,
    /// On both.
    Both,
    /// On the device only.
    Device,
    /// Zeros on the host; the device copy is filled when first used.
    Zeros,
    /// Unspecified contents.
    Unspecified,
}

/// A device buffer and its size in bytes.
struct DevBuf<B: Backend> {
    cap: usize,
    buf: B::Buf,
}

/// The coherence state of one block, shared by its clones and handles.
struct DevState<B: Backend> {
    state: AtomicU8,
    buf: Mutex<Option<DevBuf<B>>>,
    /// The elements of the host block as allocated (what the multicore
    /// block's `realloc` may reuse).
    cap: usize,
    /// Whether the multicore block owns its buffer (its `realloc` may
    /// reuse only those).
    raw: bool,
}

impl<B: Backend> DevState<B> {
    fn new(state: u8, cap: usize, raw: bool) -> Arc<DevState<B>> {
        Arc::new(DevState {
            state: AtomicU8::new(state),
            buf: Mutex::new(None),
            cap,
            raw,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Option<DevBuf<B>>> {
        self.buf.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<B: Backend> Drop for DevState<B> {
    fn drop(&mut self) {
        let b = self.buf.get_mut().unwrap_or_else(|e| e.into_inner()).take();
        if let (Some(b), Some(g)) = (b, B::existing()) {
            g.free(b.cap, b.buf);
        }
    }
}

/// A memory block handle: the multicore block on the host, and the
/// coherence state of the block with its device copy on backend `B`.
pub struct Mem<T, B: Backend> {
    host: mc::Mem<T>,
    /// `None` for [`Mem::empty`], which names no block (no allocation).
    dev: Option<Arc<DevState<B>>>,
    /// A share of the block, held by owning handles only: mirrors the
    /// multicore block's owner, so that [`Mem::realloc`] knows when that
    /// block's `realloc` reuses it.
    own: Option<Arc<()>>,
}

impl<T, B: Backend> Clone for Mem<T, B> {
    #[inline]
    fn clone(&self) -> Self {
        Mem {
            host: self.host.clone(),
            dev: self.dev.clone(),
            own: self.own.clone(),
        }
    }
}

/// A failure to move a block between host and device during a host
/// access, which cannot return it.
#[cold]
#[inline(never)]
fn transfer_failed(e: String) -> ! {
    panic!("{e} (while bringing a block back to the host)")
}

impl<T: Elem, B: Backend> Mem<T, B> {
    fn wrap(host: mc::Mem<T>, state: u8, raw: bool) -> Mem<T, B> {
        let cap = host.len();
        Mem {
            host,
            dev: Some(DevState::new(state, cap, raw)),
            own: Some(Arc::new(())),
        }
    }

    /// A handle that names no block yet (an empty one).
    pub fn empty() -> Mem<T, B> {
        Mem {
            host: mc::Mem::empty(),
            dev: None,
            own: None,
        }
    }

    /// A block holding `v`.
    pub fn from_vec(v: Vec<T>) -> Mem<T, B> {
        Mem::wrap(mc::Mem::from_vec(v), HOST, true)
    }

    /// A fresh block of `n` elements (zeros), failing at `span` when `n`
    /// is negative. The device copy is made by a fill, not an upload.
    pub fn alloc(n: i64, span: (u32, u32, u32)) -> R<Mem<T, B>> {
        Ok(Mem::wrap(mc::Mem::alloc(n, span)?, ZERO, true))
    }

    /// Points the handle at a block of `n` elements whose contents are
    /// unspecified, as [`Mem::alloc`] does, failing at `span` when `n` is
    /// negative; the block the handle names is reused when nothing else
    /// shares it and it is large enough, with its device buffer when that
    /// is large enough too.
    pub fn realloc(&mut self, n: i64, span: (u32, u32, u32)) -> R<()> {
        if let Ok(k) = usize::try_from(n)
            && let Some(dev) = &self.dev
            && dev.raw
            && k <= dev.cap
            && self.own.as_mut().is_some_and(|o| Arc::get_mut(o).is_some())
        {
            let dev = dev.clone();
            // The multicore block's `realloc` reuses its buffer under the
            // same conditions (one owner, its own buffer, large enough).
            self.host.realloc(n, span)?;
            let mut g = dev.lock();
            if g.as_ref()
                .is_some_and(|b| b.cap < k * std::mem::size_of::<T>())
                && let (Some(b), Some(gpu)) = (g.take(), B::existing())
            {
                gpu.free(b.cap, b.buf);
            }
            dev.state.store(UNSPEC, Ordering::Release);
            return Ok(());
        }
        *self = Mem::alloc(n, span)?;
        Ok(())
    }

    /// A borrowed copy of the handle, for the iterations of a parallel
    /// loop (the block outlives them); it shares the block's coherence
    /// state.
    #[inline]
    pub fn handle(&self) -> Mem<T, B> {
        Mem {
            host: self.host.handle(),
            dev: self.dev.clone(),
            own: None,
        }
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.host.len()
    }

    /// Whether the block has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.host.is_empty()
    }

    /// Where the block's contents are valid now.
    pub fn residency(&self) -> Residency {
        match self.state() {
            HOST => Residency::Host,
            BOTH => Residency::Both,
            DEVICE => Residency::Device,
            ZERO => Residency::Zeros,
            _ => Residency::Unspecified,
        }
    }

    /// The coherence state (an empty handle's is `host`).
    #[inline(always)]
    fn state(&self) -> u8 {
        match &self.dev {
            Some(d) => d.state.load(Ordering::Acquire),
            None => HOST,
        }
    }

    /// Makes the host copy current before a host read.
    #[inline(always)]
    fn for_read(&self) {
        if let Some(d) = &self.dev
            && d.state.load(Ordering::Acquire) == DEVICE
        {
            self.read_slow(d);
        }
    }

    /// Makes the host copy current and the device copy stale before a
    /// host write.
    #[inline(always)]
    fn for_write(&self) {
        if let Some(d) = &self.dev
            && d.state.load(Ordering::Acquire) != HOST
        {
            self.write_slow(d);
        }
    }

    #[cold]
    #[inline(never)]
    fn read_slow(&self, d: &DevState<B>) {
        let g = d.lock();
        if d.state.load(Ordering::Acquire) == DEVICE {
            if let Err(e) = self.download(g.as_ref()) {
                transfer_failed(e);
            }
            d.state.store(BOTH, Ordering::Release);
        }
    }

    #[cold]
    #[inline(never)]
    fn write_slow(&self, d: &DevState<B>) {
        let g = d.lock();
        let s = d.state.load(Ordering::Acquire);
        if s == DEVICE
            && let Err(e) = self.download(g.as_ref())
        {
            transfer_failed(e);
        }
        if s != HOST {
            d.state.store(HOST, Ordering::Release);
        }
    }

    /// Copies the device copy into the host copy (the caller holds the
    /// block's lock and has seen the state `device`).
    fn download(&self, b: Option<&DevBuf<B>>) -> Result<(), String> {
        let Some(b) = b else {
            return Err(
                "internal error: a block marked as on the device has no device buffer".into(),
            );
        };
        let gpu = B::context()?;
        TRANSFERS[1].fetch_add(1, Ordering::Relaxed);
        let size = std::mem::size_of::<T>();
        let n = self.host.len().min(b.cap / size.max(1));
        if T::PRIM == PrimType::Bool {
            let mut v = vec![0u8; n];
            gpu.read(&b.buf, &mut v)?;
            for (i, &x) in v.iter().enumerate() {
                let x = T::from_prim(PrimValue::Bool(x != 0)).unwrap_or_default();
                self.host.set_unchecked(i as i64, x);
            }
        } else {
            let mut v = vec![T::default(); n];
            // SAFETY: `v` holds `n * size` bytes of plain data, and every
            // bit pattern is a value of the element types other than
            // bool (integers, floats, f16 bits).
            let bytes =
                unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), n * size) };
            gpu.read(&b.buf, bytes)?;
            for (i, &x) in v.iter().enumerate() {
                self.host.set_unchecked(i as i64, x);
            }
        }
        Ok(())
    }

    /// Copies the host copy into the device buffer `b` (blocking).
    fn upload(&self, gpu: &B, b: &mut DevBuf<B>) -> Result<(), String> {
        TRANSFERS[0].fetch_add(1, Ordering::Relaxed);
        let n = self.host.len();
        let v: Vec<T> = (0..n as i64).map(|i| self.host.get_unchecked(i)).collect();
        // SAFETY: `v` holds `n` elements of plain data whose bytes are the
        // device's representation (bool as 0 or 1, f16 as its bits); the
        // buffer holds at least as many (checked by the caller).
        let bytes = unsafe {
            std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(&v[..]))
        };
        gpu.write(&mut b.buf, bytes)
    }

    /// Element `i`.
    #[inline(always)]
    pub fn get(&self, i: i64) -> T {
        self.for_read();
        self.host.get(i)
    }

    /// Sets element `i` to `x`.
    #[inline(always)]
    pub fn set(&self, i: i64, x: T) {
        self.for_write();
        self.host.set(i, x)
    }

    /// Whether the positions `base + k*step` for every `k` in `lo..hi` are
    /// all inside the block (see the multicore block's `covers`).
    #[inline]
    pub fn covers(&self, base: i64, step: i64, lo: i64, hi: i64) -> bool {
        self.host.covers(base, step, lo, hi)
    }

    /// Element `i`, unchecked: only for a position that a [`Mem::covers`]
    /// check before the loop placed inside this block.
    #[inline(always)]
    pub fn get_unchecked(&self, i: i64) -> T {
        self.for_read();
        self.host.get_unchecked(i)
    }

    /// Sets element `i` to `x`, unchecked: as [`Mem::get_unchecked`].
    #[inline(always)]
    pub fn set_unchecked(&self, i: i64, x: T) {
        self.for_write();
        self.host.set_unchecked(i, x)
    }
}

impl<T: AtomicElem, B: Backend> Mem<T, B> {
    /// Replaces element `i` by `f` of it, atomically when `shared` (see
    /// the multicore block's `atomic_update`).
    #[inline]
    pub fn atomic_update<F: FnMut(T) -> R<T>>(&self, i: i64, shared: bool, f: F) -> R<()> {
        self.for_write();
        self.host.atomic_update(i, shared, f)
    }

    /// Writes `x` to element `i`, a relaxed atomic store when `shared`.
    #[inline]
    pub fn atomic_store(&self, i: i64, shared: bool, x: T) {
        self.for_write();
        self.host.atomic_store(i, shared, x)
    }
}

impl<T: AtomicInt, B: Backend> Mem<T, B> {
    /// Adds `x` to element `i`, atomically when `shared`.
    #[inline]
    pub fn atomic_add(&self, i: i64, shared: bool, x: T) {
        self.for_write();
        self.host.atomic_add(i, shared, x)
    }
}

/// A block as a kernel argument (object safe, for every element type).
pub trait DevArg: Sync {
    /// The block's device buffer, its contents made current first: taken
    /// from the free list when the block has none, then an upload when
    /// the host copy is newer, a fill when the block is fresh zeros,
    /// nothing when the device copy is current or the contents are
    /// unspecified. Creates the context if needed. The buffer is named by
    /// its handle ([`Backend::raw`]); a handle from [`Mem::empty`] (no
    /// block) gives 0, a null buffer.
    fn device_buffer(&self) -> Result<u64, String>;

    /// Records that a kernel wrote the block: the host copy is stale.
    fn mark_device_written(&self);
}

impl<T: Elem, B: Backend> DevArg for Mem<T, B> {
    fn device_buffer(&self) -> Result<u64, String> {
        let gpu = B::context()?;
        let Some(dev) = &self.dev else {
            // An empty handle: no elements to reach.
            return Ok(0);
        };
        let bytes = self.host.len() * std::mem::size_of::<T>();
        let mut g = dev.lock();
        if let Some(b) = g.as_ref()
            && b.cap < bytes
        {
            // A buffer smaller than the block (not made by this runtime's
            // transitions): the host copy is brought back first.
            if dev.state.load(Ordering::Acquire) == DEVICE {
                self.download(Some(b))?;
                dev.state.store(HOST, Ordering::Release);
            }
            if let Some(b) = g.take() {
                gpu.free(b.cap, b.buf);
            }
        }
        let b = match g.as_mut() {
            Some(b) => b,
            None => {
                let (cap, buf) = gpu.alloc(bytes)?;
                g.insert(DevBuf { cap, buf })
            }
        };
        match dev.state.load(Ordering::Acquire) {
            HOST => {
                self.upload(gpu, b)?;
                dev.state.store(BOTH, Ordering::Release);
            }
            ZERO => {
                gpu.zero(&mut b.buf, bytes)?;
                dev.state.store(BOTH, Ordering::Release);
            }
            _ => {}
        }
        Ok(B::raw(&b.buf))
    }

    fn mark_device_written(&self) {
        if let Some(d) = &self.dev {
            d.state.store(DEVICE, Ordering::Release);
        }
    }
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

/// The contiguous range `off..off+count` of a row-major view inside a
/// block of `len` elements, or `None` when the view is not one (or not
/// inside).
fn contiguous(off: i64, shape: &[i64], strides: &[i64], len: usize) -> Option<(usize, usize)> {
    if !row_major(shape, strides) {
        return None;
    }
    let mut count = 1usize;
    for &n in shape {
        count = count.checked_mul(usize::try_from(n).ok()?)?;
    }
    let off = usize::try_from(off).ok()?;
    (off.checked_add(count)? <= len).then_some((off, count))
}

/// The copy of [`copy_view`] on the device: a contiguous view into a
/// contiguous view when either block's device copy is the newer one;
/// `None` when it does not apply.
#[allow(clippy::too_many_arguments)]
fn copy_on_device<T: Elem, B: Backend>(
    dst: &Mem<T, B>,
    doff: i64,
    dshape: &[i64],
    dstrides: &[i64],
    src: &Mem<T, B>,
    soff: i64,
    sstrides: &[i64],
    span: (u32, u32, u32),
) -> Option<R<()>> {
    let on_device = |m: &Mem<T, B>| m.state() == DEVICE;
    if !(on_device(src) || on_device(dst)) {
        return None;
    }
    let (d0, n) = contiguous(doff, dshape, dstrides, dst.len())?;
    let (s0, _) = contiguous(soff, dshape, sstrides, src.len())?;
    if n == 0 {
        return Some(Ok(()));
    }
    let same = matches!((&dst.dev, &src.dev), (Some(a), Some(b)) if Arc::ptr_eq(a, b));
    if same && d0 < s0 + n && s0 < d0 + n {
        return None;
    }
    let fail = |e: String| Fail {
        message: format!("{} error: copying an array on the device: {e}", B::NAME),
        span,
    };
    let run = || -> Result<(), String> {
        let gpu = B::context()?;
        let s = src.device_buffer()?;
        let d = dst.device_buffer()?;
        let size = std::mem::size_of::<T>();
        gpu.copy(s, d, s0 * size, d0 * size, n * size)?;
        dst.mark_device_written();
        Ok(())
    };
    Some(run().map_err(fail))
}

/// Copies every element of the view `(soff, shape, sstrides)` of `src` to
/// the same index of the view `(doff, dshape, dstrides)` of `dst`. The
/// shapes must agree (a failure at `span` otherwise); the views may
/// overlap. Contiguous views of blocks whose device copy is the newer
/// one are copied on the device; others on the host.
#[allow(clippy::too_many_arguments)]
pub fn copy_view<T: Elem, B: Backend>(
    dst: &Mem<T, B>,
    doff: i64,
    dshape: &[i64],
    dstrides: &[i64],
    src: &Mem<T, B>,
    soff: i64,
    sshape: &[i64],
    sstrides: &[i64],
    span: (u32, u32, u32),
) -> R<()> {
    if dshape == sshape
        && let Some(r) = copy_on_device(dst, doff, dshape, dstrides, src, soff, sstrides, span)
    {
        return r;
    }
    src.for_read();
    dst.for_write();
    mc::copy_view(
        &dst.host, doff, dshape, dstrides, &src.host, soff, sshape, sstrides, span,
    )
}

/// The block of an array argument and its shape: the array's buffer
/// without a copy (a copy when others share it and `unique` says the
/// callee may write into it).
pub fn arr_mem<T: Elem, B: Backend>(a: Arr<T>, unique: bool) -> (Mem<T, B>, Vec<i64>) {
    // The multicore block owns the buffer when it takes it from the array
    // or copies it: then its `realloc` may reuse it.
    let raw = unique || (Arc::strong_count(&a.data) == 1 && Arc::weak_count(&a.data) == 0);
    let (host, shape) = mc::arr_mem(a, unique);
    (Mem::wrap(host, HOST, raw), shape)
}

/// The array of shape `dims` held row-major from offset 0 by `m`,
/// brought back from the device first when needed.
pub fn mem_arr<T: Elem, B: Backend>(m: Mem<T, B>, dims: &[i64]) -> Result<Arr<T>, String> {
    m.for_read();
    let Mem { host, dev, own } = m;
    drop(own);
    let r = mc::mem_arr(host, dims);
    drop(dev);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake::{Counts, Fake, counts};
    use crate::launch::launch;
    use crate::program::{AssertInfo, KernelInfo, KernelProgram};

    type Mem<T> = super::Mem<T, Fake>;

    static PROG: KernelProgram = KernelProgram {
        source: "",
        kernels: &[
            KernelInfo {
                name: "double",
                label: "",
                group: 0,
                asserts: &[],
            },
            KernelInfo {
                name: "check",
                label: "",
                group: 0,
                asserts: &[AssertInfo {
                    msg: "negative: {}",
                    span: (1, 2, 3),
                    args: &["i64"],
                }],
            },
        ],
        binaries: &[],
        thresholds: &[],
    };

    #[test]
    fn device_chunks_fill_the_device_without_starving_threads() {
        let chunks = device_chunks::<Fake>;
        // The fake device keeps 1000 threads busy.
        assert_eq!(chunks(1_000_000, 1, 1 << 24), 1000);
        // The lowering's limit wins when lower.
        assert_eq!(chunks(1_000_000, 1, 64), 64);
        // Cheap iterations: each chunk gets at least MIN_THREAD_WORK.
        assert_eq!(chunks(160, 1, 1 << 24), 10);
        assert_eq!(chunks(160, 4, 1 << 24), 40);
        // Expensive ones: one iteration per chunk, never more than `w`.
        assert_eq!(chunks(7, 1000, 1 << 24), 7);
        assert_eq!(chunks(0, 1, 1 << 24), 1);
        assert_eq!(chunks(-3, 1, 1 << 24), 1);
    }

    fn delta(before: Counts) -> Counts {
        let now = counts();
        Counts {
            uploads: now.uploads - before.uploads,
            downloads: now.downloads - before.downloads,
            fills: now.fills - before.fills,
            copies: now.copies - before.copies,
        }
    }

    #[test]
    fn blocks_move_between_host_and_device_only_when_needed() {
        let c0 = counts();
        let xs = Mem::<i32>::from_vec(vec![1, 2, 3, 4]);
        let ys = Mem::<i32>::alloc(4, (0, 0, 0)).unwrap();
        launch::<Fake>(&PROG, 0, &[4], &[], &[&xs, &ys], &[false, true]).unwrap();
        // xs uploaded once, ys filled (fresh zeros), nothing downloaded.
        assert_eq!(
            delta(c0),
            Counts {
                uploads: 1,
                downloads: 0,
                fills: 1,
                copies: 0
            }
        );
        assert_eq!(
            (xs.residency(), ys.residency()),
            (Residency::Both, Residency::Device)
        );
        // A second launch moves nothing.
        launch::<Fake>(&PROG, 0, &[4], &[], &[&xs, &ys], &[false, true]).unwrap();
        assert_eq!(delta(c0).uploads + delta(c0).fills, 2);
        // A host read downloads the block once, for all its handles.
        let h = ys.handle();
        assert_eq!((ys.get(3), h.get(0)), (8, 2));
        assert_eq!(delta(c0).downloads, 1);
        assert_eq!(ys.residency(), Residency::Both);
        // A host write makes the device copy stale: the next launch
        // uploads it again.
        xs.set(0, 10);
        assert_eq!(xs.residency(), Residency::Host);
        launch::<Fake>(&PROG, 0, &[4], &[], &[&xs, &ys], &[false, true]).unwrap();
        assert_eq!(delta(c0).uploads, 2);
        assert_eq!(
            mem_arr(ys.clone(), &[4]).unwrap().as_slice(),
            &[20, 4, 6, 8]
        );
        // A contiguous copy between blocks on the device stays there.
        let zs = Mem::<i32>::alloc(2, (0, 0, 0)).unwrap();
        launch::<Fake>(&PROG, 0, &[4], &[], &[&xs, &ys], &[false, true]).unwrap();
        let before = delta(c0);
        copy_view(&zs, 0, &[2], &[1], &ys, 2, &[2], &[1], (0, 0, 0)).unwrap();
        let after = delta(c0);
        assert_eq!(
            (
                after.copies - before.copies,
                after.downloads - before.downloads
            ),
            (1, 0)
        );
        assert_eq!(zs.residency(), Residency::Device);
        assert_eq!((zs.get(0), zs.get(1)), (6, 8));
        // An empty handle is a null buffer.
        assert_eq!(Mem::<f32>::empty().device_buffer(), Ok(0));
    }

    #[test]
    fn a_kernel_failure_is_the_assertion_at_its_span_and_is_cleared() {
        let xs = Mem::<i64>::from_vec(vec![1, -7, 3]);
        let e = launch::<Fake>(&PROG, 1, &[3], &[], &[&xs], &[true]).unwrap_err();
        assert_eq!((e.message.as_str(), e.span), ("negative: -7", (1, 2, 3)));
        let ok = Mem::<i64>::from_vec(vec![1, 2]);
        launch::<Fake>(&PROG, 1, &[2], &[], &[&ok], &[true]).unwrap();
        assert_eq!((ok.get(0), ok.get(1)), (2, 3));
        // Nothing runs over an empty space; a wrong kernel number or flag
        // count is an internal error.
        launch::<Fake>(&PROG, 1, &[0], &[], &[&xs], &[true]).unwrap();
        assert!(
            launch::<Fake>(&PROG, 5, &[1], &[], &[], &[])
                .unwrap_err()
                .message
                .contains("internal error")
        );
        assert!(
            launch::<Fake>(&PROG, 1, &[1], &[], &[&ok], &[])
                .unwrap_err()
                .message
                .contains("internal error")
        );
        let e = launch::<Fake>(&PROG, 0, &[i64::MAX, 3], &[], &[], &[]).unwrap_err();
        assert!(
            e.message.starts_with("Fake error in kernel double"),
            "{}",
            e.message
        );
    }

    #[test]
    fn freed_buffers_are_reused() {
        let a = Mem::<f64>::alloc(1000, (0, 0, 0)).unwrap();
        let raw = a.device_buffer().unwrap();
        drop(a);
        let b = Mem::<f64>::alloc(900, (0, 0, 0)).unwrap();
        assert_eq!(b.device_buffer().unwrap(), raw);
        // Fresh zeros are filled on the device, not uploaded.
        assert_eq!(b.residency(), Residency::Both);
        assert_eq!(mem_arr(b, &[900]).unwrap().as_slice()[899], 0.0);
    }

    #[test]
    fn host_only_blocks_behave_as_multicore_ones() {
        let m = Mem::<f64>::alloc(6, (0, 0, 0)).unwrap();
        assert_eq!(m.residency(), Residency::Zeros);
        assert_eq!(m.get(3), 0.0);
        assert_eq!(m.residency(), Residency::Zeros);
        for i in 0..6 {
            m.set(i, i as f64);
        }
        assert_eq!(m.residency(), Residency::Host);
        let h = m.handle();
        assert_eq!(h.get(4), 4.0);
        let mut r = Mem::<f64>::alloc(4, (0, 0, 0)).unwrap();
        r.set(0, 9.0);
        r.realloc(3, (0, 0, 0)).unwrap();
        assert_eq!((r.len(), r.get(0)), (3, 9.0));
        assert_eq!(r.residency(), Residency::Unspecified);
        let keep = r.clone();
        r.realloc(2, (0, 0, 0)).unwrap();
        assert_eq!((r.len(), r.get(0), keep.get(0)), (2, 0.0, 9.0));
        assert_eq!(r.residency(), Residency::Zeros);
        r.realloc(8, (0, 0, 0)).unwrap();
        assert_eq!(r.len(), 8);
        assert!(r.realloc(-1, (0, 0, 0)).is_err());
        // A reused block grows back to its first size, no further.
        let mut g = Mem::<i32>::from_vec(vec![1, 2, 3, 4]);
        g.realloc(2, (0, 0, 0)).unwrap();
        g.realloc(4, (0, 0, 0)).unwrap();
        assert_eq!((g.get(3), g.residency()), (4, Residency::Unspecified));
        g.realloc(5, (0, 0, 0)).unwrap();
        assert_eq!((g.get(4), g.residency()), (0, Residency::Zeros));
        let t = Mem::<f64>::alloc(6, (0, 0, 0)).unwrap();
        copy_view(&t, 0, &[3, 2], &[2, 1], &m, 0, &[3, 2], &[1, 3], (0, 0, 0)).unwrap();
        let a = mem_arr(t, &[3, 2]).unwrap();
        assert_eq!(a.as_slice(), &[0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
        let e = copy_view(&m, 0, &[2], &[1], &m, 0, &[3], &[1], (1, 2, 3)).unwrap_err();
        assert_eq!(e.span, (1, 2, 3));
        // A shared argument is not copied, and its block is not reused.
        let arr = Arr::new(
            fut_runtime_multicore::shape::Shape::from_slice(&[2]),
            vec![7i32, 8],
        );
        let keep = arr.clone();
        let (mut m, shape) = arr_mem::<_, Fake>(arr, false);
        assert_eq!((m.get(1), shape), (8, vec![2]));
        m.realloc(1, (0, 0, 0)).unwrap();
        assert_eq!((m.get(0), m.residency()), (0, Residency::Zeros));
        assert_eq!(keep.as_slice(), &[7, 8]);
        let (m, _) = arr_mem::<_, Fake>(keep, false);
        assert_eq!(mem_arr(m, &[2]).unwrap().as_slice(), &[7, 8]);
        let e = Mem::<bool>::empty();
        assert!(e.is_empty());
        let w = Mem::<i8>::alloc(1, (0, 0, 0)).unwrap();
        w.atomic_add(0, true, 5);
        w.atomic_update(0, true, |x| Ok(x * 2)).unwrap();
        assert_eq!(w.get(0), 10);
        w.atomic_store(0, false, 3);
        assert_eq!(w.get_unchecked(0), 3);
        assert!(w.covers(0, 1, 0, 1) && !w.covers(0, 1, 0, 2));
    }

    #[test]
    fn contiguous_views() {
        assert_eq!(contiguous(2, &[2, 3], &[3, 1], 8), Some((2, 6)));
        assert_eq!(contiguous(3, &[2, 3], &[3, 1], 8), None);
        assert_eq!(contiguous(0, &[3, 2], &[1, 3], 8), None);
        assert_eq!(contiguous(0, &[1, 3], &[7, 1], 8), Some((0, 3)));
        assert_eq!(contiguous(-1, &[1], &[1], 8), None);
        assert_eq!(contiguous(0, &[0, 5], &[5, 1], 0), Some((0, 0)));
    }
}
