//! A caching free list of device buffers.
//!
//! Allocating and releasing device memory goes through the driver and
//! may synchronise with the device, so blocks that generated code frees
//! keep their buffers here and later blocks take them again:
//!
//! - [`FreeList::free`] never calls the driver: the buffer joins the list.
//! - [`FreeList::alloc`] rounds the request up ([`rounded`]: at least
//!   [`MIN_BYTES`], a multiple of 8) and takes the *smallest* free buffer
//!   that fits and would not waste more than half of itself; any free
//!   buffer under [`SMALL`] bytes that fits is acceptable whatever it
//!   wastes. Only when none fits does it ask the driver.
//! - When the driver fails, every free buffer is released and the
//!   allocation is tried once more; when that fails too, the error is
//!   `out of memory on device NAME: cannot allocate N bytes`.
//!
//! The list is generic over the [`Allocator`] (the driver), so the
//! policy is tested without a device. A buffer taken from the list may
//! still be used by commands queued before it was freed: with one
//! in-order command queue, whatever uses it next runs after them.

/// Free buffers smaller than this are acceptable for any request that
/// fits in them, whatever they waste.
pub const SMALL: usize = 4096;

/// The smallest buffer allocated (OpenCL forbids buffers of 0 bytes).
pub const MIN_BYTES: usize = 16;

/// What creates and releases device buffers.
pub trait Allocator {
    /// A device buffer.
    type Buf;
    /// A new buffer of `bytes` bytes, or the driver's error.
    fn allocate(&self, bytes: usize) -> Result<Self::Buf, String>;
    /// Gives `buf` back to the driver.
    fn release(&self, buf: Self::Buf) {
        drop(buf);
    }
}

/// The size actually allocated for a request of `bytes`: at least
/// [`MIN_BYTES`], rounded up to a multiple of 8 (saturating).
pub fn rounded(bytes: usize) -> usize {
    let b = bytes.max(MIN_BYTES);
    b.checked_next_multiple_of(8).unwrap_or(b)
}

/// Whether a free buffer of `cap` bytes may serve a request of `want`
/// (already [`rounded`]) bytes.
pub fn acceptable(cap: usize, want: usize) -> bool {
    cap >= want && (cap < SMALL || cap - want <= cap / 2)
}

/// Free buffers, each with its size in bytes.
pub struct FreeList<B> {
    free: Vec<(usize, B)>,
    /// The device's name, for the out-of-memory message.
    device: String,
}

impl<B> FreeList<B> {
    /// An empty list for the device called `device`.
    pub fn new(device: impl Into<String>) -> FreeList<B> {
        FreeList {
            free: Vec::new(),
            device: device.into(),
        }
    }

    /// A buffer of at least `bytes` bytes and its size: a free one when
    /// one is acceptable, else a new one from `a` (see the module doc).
    pub fn alloc<A: Allocator<Buf = B>>(
        &mut self,
        a: &A,
        bytes: usize,
    ) -> Result<(usize, B), String> {
        let want = rounded(bytes);
        let best = self
            .free
            .iter()
            .enumerate()
            .filter(|(_, (cap, _))| acceptable(*cap, want))
            .min_by_key(|(_, (cap, _))| *cap)
            .map(|(i, _)| i);
        if let Some(i) = best {
            return Ok(self.free.swap_remove(i));
        }
        match a.allocate(want) {
            Ok(b) => Ok((want, b)),
            Err(_) => {
                self.release_all(a);
                a.allocate(want).map(|b| (want, b)).map_err(|e| {
                    format!(
                        "out of memory on device {}: cannot allocate {bytes} bytes ({e})",
                        self.device
                    )
                })
            }
        }
    }

    /// Keeps `buf`, of `cap` bytes, for later allocations.
    pub fn free(&mut self, cap: usize, buf: B) {
        self.free.push((cap, buf));
    }

    /// Gives every free buffer back to the driver.
    pub fn release_all<A: Allocator<Buf = B>>(&mut self, a: &A) {
        for (_, b) in self.free.drain(..) {
            a.release(b);
        }
    }

    /// How many buffers are free.
    pub fn len(&self) -> usize {
        self.free.len()
    }

    /// Whether no buffer is free.
    pub fn is_empty(&self) -> bool {
        self.free.is_empty()
    }

    /// The bytes held by free buffers.
    pub fn bytes(&self) -> usize {
        self.free.iter().map(|(c, _)| c).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};

    /// A fake driver: buffers are numbered; it fails while the bytes in
    /// use would pass `limit`.
    struct Fake {
        next: Cell<u32>,
        in_use: Cell<usize>,
        limit: usize,
        sizes: RefCell<Vec<usize>>,
        calls: Cell<u32>,
        released: Cell<u32>,
    }

    impl Fake {
        fn new(limit: usize) -> Fake {
            Fake {
                next: Cell::new(0),
                in_use: Cell::new(0),
                limit,
                sizes: RefCell::new(Vec::new()),
                calls: Cell::new(0),
                released: Cell::new(0),
            }
        }
    }

    impl Allocator for Fake {
        type Buf = (u32, usize);
        fn allocate(&self, bytes: usize) -> Result<(u32, usize), String> {
            self.calls.set(self.calls.get() + 1);
            if self.in_use.get() + bytes > self.limit {
                return Err("CL_MEM_OBJECT_ALLOCATION_FAILURE".into());
            }
            self.in_use.set(self.in_use.get() + bytes);
            self.sizes.borrow_mut().push(bytes);
            let id = self.next.get();
            self.next.set(id + 1);
            Ok((id, bytes))
        }
        fn release(&self, buf: (u32, usize)) {
            self.in_use.set(self.in_use.get() - buf.1);
            self.released.set(self.released.get() + 1);
        }
    }

    #[test]
    fn sizes_are_rounded_and_never_zero() {
        assert_eq!(rounded(0), MIN_BYTES);
        assert_eq!(rounded(1), MIN_BYTES);
        assert_eq!(rounded(17), 24);
        assert_eq!(rounded(4096), 4096);
        assert_eq!(rounded(usize::MAX), usize::MAX);
        let fake = Fake::new(1 << 30);
        let mut fl = FreeList::new("dev");
        let (cap, _) = fl.alloc(&fake, 0).unwrap();
        assert_eq!(cap, MIN_BYTES);
        assert_eq!(*fake.sizes.borrow(), vec![MIN_BYTES]);
    }

    #[test]
    fn freeing_keeps_buffers_and_reuse_takes_the_smallest_that_fits() {
        let fake = Fake::new(1 << 30);
        let mut fl = FreeList::new("dev");
        let (ca, a) = fl.alloc(&fake, 100_000).unwrap();
        let (cb, b) = fl.alloc(&fake, 60_000).unwrap();
        let (cc, c) = fl.alloc(&fake, 1000).unwrap();
        assert_eq!(fake.calls.get(), 3);
        fl.free(ca, a);
        fl.free(cb, b);
        fl.free(cc, c);
        assert_eq!((fl.len(), fl.bytes()), (3, 100_000 + 60_000 + 1000));
        assert_eq!(fake.released.get(), 0, "freeing never calls the driver");
        // 55 000 bytes: both large buffers fit, the smaller (60 000) wins.
        let (cap, buf) = fl.alloc(&fake, 55_000).unwrap();
        assert_eq!((cap, buf), (60_000, (1, 60_000)));
        assert_eq!(fake.calls.get(), 3);
        // 40 000 bytes in 100 000 would waste more than half: a new one.
        let (cap, buf) = fl.alloc(&fake, 40_000).unwrap();
        assert_eq!((cap, buf.0), (40_000, 3));
        assert_eq!(fake.calls.get(), 4);
        // 50 000 in 100 000 wastes exactly half: acceptable.
        let (cap, _) = fl.alloc(&fake, 50_000).unwrap();
        assert_eq!(cap, 100_000);
        // A small buffer serves any request that fits, wasting any amount.
        let (cap, _) = fl.alloc(&fake, 8).unwrap();
        assert_eq!(cap, 1000);
        assert!(fl.is_empty());
        // Too small: never taken.
        fl.free(16, (99, 16));
        let (cap, buf) = fl.alloc(&fake, 17).unwrap();
        assert_eq!((cap, buf.0), (24, 4));
        assert_eq!(fl.len(), 1);
    }

    #[test]
    fn the_policy_on_its_own() {
        assert!(acceptable(4000, 16));
        assert!(!acceptable(4000, 4008));
        assert!(!acceptable(8192, 4000));
        assert!(acceptable(8192, 4096));
        assert!(acceptable(8192, 8192));
    }

    #[test]
    fn out_of_memory_releases_free_buffers_and_retries_once() {
        let fake = Fake::new(1000);
        let mut fl = FreeList::new("Fake GPU");
        let (c1, b1) = fl.alloc(&fake, 600).unwrap();
        fl.free(c1, b1);
        // 800 bytes do not fit beside the free 600, which cannot serve
        // it: the free buffer goes and the retry succeeds.
        let (c2, b2) = fl.alloc(&fake, 800).unwrap();
        assert_eq!((c2, fake.released.get(), fl.len()), (800, 1, 0));
        assert_eq!(fake.calls.get(), 3);
        // 300 more fail twice: an error naming the device and the size.
        let e = fl.alloc(&fake, 300).unwrap_err();
        assert!(
            e.starts_with("out of memory on device Fake GPU: cannot allocate 300 bytes"),
            "{e}"
        );
        assert_eq!(fake.calls.get(), 5);
        fl.free(c2, b2);
        fl.release_all(&fake);
        assert_eq!((fake.in_use.get(), fl.len()), (0, 0));
    }
}
