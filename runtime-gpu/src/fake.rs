//! A backend whose device memory is host memory, for testing the shared
//! parts without a device: coherence of blocks, the free list's use, the
//! launch path and the failure protocol.
//!
//! Buffers are byte vectors named by numbers. Its kernels, by name:
//! `double` writes `2 * in[i]` (i32) of block 0 into block 1 for every
//! work item; `check` claims assertion 0 with the element when an `i64`
//! element of block 0 is negative (argument: the element), and adds 1 to
//! the others in place. The transfers of the calling thread are counted
//! ([`counts`]).

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

use values::PrimValue;

use crate::backend::Backend;
use crate::freelist::{Allocator, FreeList};
use crate::launch::FAIL_WORDS;
use crate::program::KernelProgram;

/// The fake device.
pub struct Fake {
    bufs: Mutex<HashMap<u64, Vec<u8>>>,
    next: AtomicU64,
    free: Mutex<FreeList<u64>>,
    fail: Mutex<[i64; FAIL_WORDS]>,
}

/// Transfers made by the calling thread: uploads, downloads, fills and
/// copies on the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub uploads: u32,
    pub downloads: u32,
    pub fills: u32,
    pub copies: u32,
}

thread_local! {
    static COUNTS: Cell<Counts> = const { Cell::new(Counts { uploads: 0, downloads: 0, fills: 0, copies: 0 }) };
}

/// The calling thread's transfers so far.
pub fn counts() -> Counts {
    COUNTS.with(|c| c.get())
}

fn count(f: impl FnOnce(&mut Counts)) {
    COUNTS.with(|c| {
        let mut v = c.get();
        f(&mut v);
        c.set(v);
    });
}

static FAKE: OnceLock<Fake> = OnceLock::new();

impl Fake {
    fn get() -> &'static Fake {
        FAKE.get_or_init(|| Fake {
            bufs: Mutex::new(HashMap::new()),
            next: AtomicU64::new(1),
            free: Mutex::new(FreeList::new("fake")),
            fail: Mutex::new([0; FAIL_WORDS]),
        })
    }

    fn with<R>(&self, id: u64, f: impl FnOnce(&mut Vec<u8>) -> R) -> Result<R, String> {
        let mut bufs = self.bufs.lock().unwrap_or_else(|e| e.into_inner());
        bufs.get_mut(&id)
            .map(f)
            .ok_or_else(|| format!("no buffer {id}"))
    }
}

impl Allocator for Fake {
    type Buf = u64;
    fn allocate(&self, bytes: usize) -> Result<u64, String> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        // Fresh device memory is garbage, not zeros.
        self.bufs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, vec![0xa5; bytes]);
        Ok(id)
    }
}

impl Backend for Fake {
    const NAME: &'static str = "Fake";
    type Buf = u64;

    fn context() -> Result<&'static Fake, String> {
        Ok(Fake::get())
    }

    fn existing() -> Option<&'static Fake> {
        FAKE.get()
    }

    fn threads(&self) -> usize {
        1000
    }

    fn alloc(&self, bytes: usize) -> Result<(usize, u64), String> {
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .alloc(self, bytes)
    }

    fn free(&self, cap: usize, buf: u64) {
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .free(cap, buf)
    }

    fn read(&self, buf: &u64, dst: &mut [u8]) -> Result<(), String> {
        count(|c| c.downloads += 1);
        self.with(*buf, |b| dst.copy_from_slice(&b[..dst.len()]))
    }

    fn write(&self, buf: &mut u64, src: &[u8]) -> Result<(), String> {
        count(|c| c.uploads += 1);
        self.with(*buf, |b| b[..src.len()].copy_from_slice(src))
    }

    fn zero(&self, buf: &mut u64, bytes: usize) -> Result<(), String> {
        count(|c| c.fills += 1);
        self.with(*buf, |b| b[..bytes].fill(0))
    }

    fn copy(&self, src: u64, dst: u64, so: usize, doff: usize, bytes: usize) -> Result<(), String> {
        count(|c| c.copies += 1);
        let data = self.with(src, |b| b[so..so + bytes].to_vec())?;
        self.with(dst, |b| b[doff..doff + bytes].copy_from_slice(&data))
    }

    fn raw(buf: &u64) -> u64 {
        *buf
    }

    fn run_kernel(
        &self,
        prog: &'static KernelProgram,
        k: usize,
        n: i64,
        _sizes: &[i64],
        _scalars: &[PrimValue],
        bufs: &[u64],
        _wait: bool,
    ) -> Result<(), String> {
        let n = n as usize;
        match prog.kernels[k].name {
            "double" => {
                let xs = self.with(bufs[0], |b| b.clone())?;
                self.with(bufs[1], |b| {
                    for i in 0..n {
                        let x =
                            i32::from_ne_bytes(xs[4 * i..4 * i + 4].try_into().unwrap_or_default());
                        b[4 * i..4 * i + 4].copy_from_slice(&(2 * x).to_ne_bytes());
                    }
                })
            }
            "check" => {
                let mut fail = self.fail.lock().unwrap_or_else(|e| e.into_inner());
                self.with(bufs[0], |b| {
                    for i in 0..n {
                        let x =
                            i64::from_ne_bytes(b[8 * i..8 * i + 8].try_into().unwrap_or_default());
                        if x < 0 {
                            if fail[0] == 0 {
                                fail[0] = 1;
                                fail[1] = x;
                            }
                        } else {
                            b[8 * i..8 * i + 8].copy_from_slice(&(x + 1).to_ne_bytes());
                        }
                    }
                })
            }
            other => Err(format!("no kernel {other}")),
        }
    }

    fn take_failure(&self) -> Result<Option<[i64; FAIL_WORDS]>, String> {
        let mut fail = self.fail.lock().unwrap_or_else(|e| e.into_inner());
        if fail[0] == 0 {
            return Ok(None);
        }
        let words = *fail;
        *fail = [0; FAIL_WORDS];
        Ok(Some(words))
    }
}
