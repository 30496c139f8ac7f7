//! The CUDA device and context of the process.
//!
//! One context on one device serves the whole process. It is created on
//! first use ([`context`], [`ensure_device`]), on the device chosen by
//! [`set_device_choice`] (the executable's `--device`), else by the
//! environment variable `FUT_CUDA_DEVICE`, else device 0. A choice is a
//! case-insensitive substring of the device's name (or of `CUDA: NAME`),
//! or the device's number in the listing ([`list_devices`]).
//!
//! The context is the device's primary context (cudarc's
//! [`CudaContext`]), with cudarc's event tracking turned off: everything
//! runs in order on the legacy default stream, so buffers need no
//! events. Host code touches blocks from rayon's worker threads too, so
//! every call into the driver first makes the context current on the
//! calling thread. Device buffers are raw device pointers ([`DevBuf`])
//! kept by the free list ([`crate::freelist`]), which alone gives them
//! back to the driver; the context also holds the failure buffer of the
//! kernels ([`crate::launch()`]) and the modules loaded so far
//! ([`crate::program`]).
//!
//! cudarc loads `libcuda.so.1` on first use and panics when it cannot,
//! so its presence is checked before anything else: without a driver, no
//! device, or no device matching the choice, every use returns the same
//! message; nothing panics.

#![allow(unsafe_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use cudarc::driver::result::{self, DriverError};
use cudarc::driver::sys::{self, CUdevice_attribute, CUdeviceptr, CUresult};
use cudarc::driver::{CudaContext, CudaStream};

use fut_runtime_gpu::Backend;
use fut_runtime_gpu::freelist::{Allocator, FreeList};
use fut_runtime_gpu::launch::FAIL_WORDS;
use fut_runtime_gpu::program::KernelProgram;
pub use fut_runtime_gpu::select::DeviceDesc;
use fut_runtime_gpu::select::{Choice, ContextCell, select};
use values::PrimValue;

use crate::program::Loaded;

/// The message when the CUDA driver cannot be loaded.
pub const NO_DRIVER: &str = "no CUDA driver found (libcuda.so.1): this program needs an NVIDIA GPU \
     and its driver; see nvidia-smi, or build the program with `fut opencl` or `fut multicore` \
     for machines without one";

/// The device chosen by [`set_device_choice`], else by `FUT_CUDA_DEVICE`.
static CHOICE: Choice = Choice::new("FUT_CUDA_DEVICE");

/// The context, created once.
static CONTEXT: ContextCell<Cuda> = ContextCell::new();

/// Chooses the device by a case-insensitive substring of its name or of
/// `CUDA: NAME`, or by its number (`None`: back to the default). Takes
/// precedence over `FUT_CUDA_DEVICE`; has no effect once the context
/// exists.
pub fn set_device_choice(choice: Option<String>) {
    CHOICE.set(choice);
}

/// Creates the context now if it does not exist yet: its error, if it
/// cannot be created.
pub fn ensure_device() -> Result<(), String> {
    context().map(|_| ())
}

/// Every CUDA device, one line each (`INDEX: CUDA: NAME (GPU, sm_XY)`),
/// or why there is none.
pub fn list_devices() -> Result<String, String> {
    let found = discover()?;
    Ok(found
        .iter()
        .enumerate()
        .map(|(i, d)| d.line(i) + "\n")
        .collect())
}

/// A driver error as its name and description
/// (`CUDA_ERROR_OUT_OF_MEMORY: out of memory`).
pub(crate) fn describe(e: DriverError) -> String {
    let name = e
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| format!("CUresult {}", e.0 as u32));
    match e.error_string() {
        Ok(s) => format!("{name}: {}", s.to_string_lossy()),
        Err(_) => name,
    }
}

/// Loads the driver and initialises it; the error says what is missing.
fn init() -> Result<(), String> {
    // SAFETY: tries to load the driver's library by name and unloads it;
    // no function of it is called.
    if !unsafe { sys::is_culib_present() } {
        return Err(NO_DRIVER.into());
    }
    match result::init() {
        Ok(()) => Ok(()),
        Err(DriverError(CUresult::CUDA_ERROR_NO_DEVICE)) => Err("no CUDA device found".into()),
        Err(e) => Err(format!(
            "CUDA error: cannot initialise the driver: {}",
            describe(e)
        )),
    }
}

/// The driver's CUDA version (`12090` for 12.9), once the driver is
/// loaded.
fn driver_version() -> Result<i32, String> {
    let mut v = 0;
    // SAFETY: the driver is loaded (checked by `init`); the call writes
    // one int.
    unsafe { sys::cuDriverGetVersion(&mut v) }
        .result()
        .map_err(describe)?;
    Ok(v)
}

/// A CUDA version number (`12090`) as `12.9`.
pub fn version_text(v: i32) -> String {
    format!("{}.{}", v / 1000, (v % 1000) / 10)
}

/// The architecture name of compute capability `(major, minor)`:
/// `sm_90`.
pub fn sm_name((major, minor): (u32, u32)) -> String {
    format!("sm_{major}{minor}")
}

/// Every device with its description, or why none can be listed.
fn discover() -> Result<Vec<DeviceDesc>, String> {
    init()?;
    let what = |e: DriverError| format!("CUDA error: cannot list the devices: {}", describe(e));
    let count = result::device::get_count().map_err(what)?;
    if count <= 0 {
        return Err("no CUDA device found".into());
    }
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count {
        let dev = result::device::get(i).map_err(what)?;
        let name = result::device::get_name(dev)
            .unwrap_or_else(|e| format!("(unnamed device: {})", describe(e)));
        let arch = capability(dev).map_err(what)?;
        out.push(DeviceDesc {
            platform: "CUDA".into(),
            name,
            kind: "GPU",
            c_version: sm_name(arch),
        });
    }
    Ok(out)
}

/// The compute capability of device `dev`.
fn capability(dev: sys::CUdevice) -> Result<(u32, u32), DriverError> {
    let attr = |a| {
        // SAFETY: `dev` is a device handle of the initialised driver.
        unsafe { result::device::get_attribute(dev, a) }
    };
    let major = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
    let minor = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
    Ok((major.max(0) as u32, minor.max(0) as u32))
}

/// A device buffer: a device pointer and its size in bytes. It is owned
/// by one block or by the free list, and given back to the driver only
/// by the free list (dropping it leaks it).
#[derive(Debug)]
pub struct DevBuf {
    ptr: CUdeviceptr,
    bytes: usize,
}

impl DevBuf {
    /// The device pointer.
    pub fn ptr(&self) -> CUdeviceptr {
        self.ptr
    }

    /// Its size in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// Device buffers through the driver, for the free list.
struct CuAlloc<'a>(&'a Cuda);

impl Allocator for CuAlloc<'_> {
    type Buf = DevBuf;

    fn allocate(&self, bytes: usize) -> Result<DevBuf, String> {
        // SAFETY: the context is current on this thread (`Cuda::alloc`
        // makes it so); the memory is only ever handled as bytes.
        unsafe { result::malloc_sync(bytes) }
            .map(|ptr| DevBuf { ptr, bytes })
            .map_err(describe)
    }

    fn release(&self, buf: DevBuf) {
        // Kernels queued before the buffer was freed may still use it.
        let _ = self.0.stream.synchronize();
        // SAFETY: the pointer came from `malloc_sync` in this context and
        // is released once (the free list owned it); nothing queued uses
        // it any more.
        let _ = unsafe { result::free_sync(buf.ptr) };
    }
}

/// The process's CUDA context: device, stream, free list, failure
/// buffer and loaded modules.
pub struct Cuda {
    pub(crate) ctx: Arc<CudaContext>,
    /// The legacy default stream, on which everything runs in order.
    pub(crate) stream: Arc<CudaStream>,
    /// The device's description.
    pub desc: DeviceDesc,
    /// The device's compute capability (`(9, 0)` for `sm_90`).
    pub arch: (u32, u32),
    /// The driver's CUDA version (`12090` for 12.9).
    pub driver_version: i32,
    /// How many threads the device keeps resident: multiprocessors times
    /// threads per multiprocessor ([`Backend::threads`]).
    threads: usize,
    /// The largest grid, in blocks.
    pub(crate) max_grid: u64,
    /// The most shared memory a block may use, when it asks for it.
    pub(crate) max_shared_optin: i32,
    free: Mutex<FreeList<DevBuf>>,
    /// The failure buffer ([`FAIL_WORDS`] words, zeros between failures).
    pub(crate) fail: CUdeviceptr,
    /// Modules loaded so far, by the address of their program's static.
    pub(crate) programs: Mutex<HashMap<usize, Arc<Loaded>>>,
}

/// The context, created on first use.
pub fn context() -> Result<&'static Cuda, String> {
    CONTEXT.get(create)
}

/// The context when it exists (never creates it).
pub(crate) fn existing() -> Option<&'static Cuda> {
    CONTEXT.existing()
}

fn create() -> Result<Cuda, String> {
    let choice = CHOICE.get();
    let mut found = discover()?;
    let k = select(&found, choice.as_deref(), "CUDA")?;
    let desc = found.swap_remove(k);
    let what = |e: DriverError, doing: &str| {
        format!(
            "CUDA error on device {}: {} ({doing})",
            desc.name,
            describe(e)
        )
    };
    let ctx = CudaContext::new(k).map_err(|e| what(e, "creating a context"))?;
    // SAFETY: one stream only, on which every buffer is used in order:
    // buffers need no events.
    unsafe { ctx.disable_event_tracking() };
    let stream = ctx.default_stream();
    let arch = capability(ctx.cu_device()).map_err(|e| what(e, "querying the device"))?;
    let driver_version = driver_version().unwrap_or(0);
    let max_grid = ctx
        .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)
        .map(|g| g.max(1) as u64)
        .unwrap_or(i32::MAX as u64);
    let attr = |a| ctx.attribute(a).map_or(1, |n| n.max(1) as usize);
    let threads = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        * attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    let max_shared_optin = ctx
        .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
        .unwrap_or(0);
    let bytes = FAIL_WORDS * 8;
    // SAFETY: the context is current (`CudaContext::new` made it so); the
    // buffer is cleared right after and only ever read as `i64`s.
    let fail = unsafe { result::malloc_sync(bytes) }
        .map_err(|e| what(e, "allocating the failure buffer"))?;
    // SAFETY: `fail` holds `bytes` bytes.
    unsafe { result::memset_d8_sync(fail, 0, bytes) }
        .and_then(|()| stream.synchronize())
        .map_err(|e| what(e, "clearing the failure buffer"))?;
    Ok(Cuda {
        free: Mutex::new(FreeList::new(desc.name.clone())),
        ctx,
        stream,
        desc,
        arch,
        driver_version,
        threads,
        max_grid,
        max_shared_optin,
        fail,
        programs: Mutex::new(HashMap::new()),
    })
}

impl Cuda {
    /// Makes the context current on the calling thread (the error
    /// without the API's name, which the callers of launches add).
    pub(crate) fn bind(&self) -> Result<(), String> {
        self.ctx
            .bind_to_thread()
            .map_err(|e| format!("making the context current: {}", describe(e)))
    }

    /// [`Cuda::bind`], its error starting with the API's name.
    fn bind_named(&self) -> Result<(), String> {
        self.bind().map_err(|e| format!("CUDA error: {e}"))
    }

    /// The free buffers: how many, and their bytes.
    pub fn free_buffers(&self) -> (usize, usize) {
        let f = self.free.lock().unwrap_or_else(|e| e.into_inner());
        (f.len(), f.bytes())
    }
}

impl Backend for Cuda {
    fn threads(&self) -> usize {
        self.threads
    }

    const NAME: &'static str = "CUDA";
    type Buf = DevBuf;

    fn context() -> Result<&'static Cuda, String> {
        context()
    }

    fn existing() -> Option<&'static Cuda> {
        existing()
    }

    fn alloc(&self, bytes: usize) -> Result<(usize, DevBuf), String> {
        self.bind_named()?;
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .alloc(&CuAlloc(self), bytes)
    }

    fn free(&self, cap: usize, buf: DevBuf) {
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .free(cap, buf);
    }

    fn read(&self, buf: &DevBuf, dst: &mut [u8]) -> Result<(), String> {
        let bytes = dst.len();
        if bytes == 0 {
            return Ok(());
        }
        if bytes > buf.bytes {
            return Err(format!(
                "CUDA error: reading {bytes} bytes from a buffer of {}",
                buf.bytes
            ));
        }
        self.bind_named()?;
        // SAFETY: the buffer is live and holds `bytes` bytes (checked
        // above); the copy is synchronous and follows the work queued
        // before it on the legacy default stream.
        unsafe { result::memcpy_dtoh_sync(dst, buf.ptr) }.map_err(|e| {
            format!(
                "CUDA error: reading {bytes} bytes from the device: {}",
                describe(e)
            )
        })
    }

    fn write(&self, buf: &mut DevBuf, src: &[u8]) -> Result<(), String> {
        let bytes = src.len();
        if bytes == 0 {
            return Ok(());
        }
        if bytes > buf.bytes {
            return Err(format!(
                "CUDA error: writing {bytes} bytes to a buffer of {}",
                buf.bytes
            ));
        }
        self.bind_named()?;
        // SAFETY: as for `read`; the driver has taken the bytes of `src`
        // when a copy from pageable memory returns.
        unsafe { result::memcpy_htod_sync(buf.ptr, src) }.map_err(|e| {
            format!(
                "CUDA error: writing {bytes} bytes to the device: {}",
                describe(e)
            )
        })
    }

    fn zero(&self, buf: &mut DevBuf, bytes: usize) -> Result<(), String> {
        if bytes == 0 {
            return Ok(());
        }
        if bytes > buf.bytes {
            return Err(format!(
                "CUDA error: clearing {bytes} bytes of a buffer of {}",
                buf.bytes
            ));
        }
        self.bind_named()?;
        // SAFETY: the buffer holds `bytes` bytes; the fill is queued on
        // the stream, before whatever uses the buffer next.
        unsafe { result::memset_d8_async(buf.ptr, 0, bytes, self.stream.cu_stream()) }.map_err(
            |e| {
                format!(
                    "CUDA error: clearing {bytes} bytes on the device: {}",
                    describe(e)
                )
            },
        )
    }

    fn copy(
        &self,
        src: u64,
        dst: u64,
        src_off: usize,
        dst_off: usize,
        bytes: usize,
    ) -> Result<(), String> {
        if bytes == 0 {
            return Ok(());
        }
        self.bind()?;
        // SAFETY: both are live buffers of this context (their blocks are
        // borrowed by the caller) holding the ranges copied; the copy is
        // queued on the stream.
        unsafe {
            result::memcpy_dtod_async(
                dst + dst_off as u64,
                src + src_off as u64,
                bytes,
                self.stream.cu_stream(),
            )
        }
        .map_err(describe)
    }

    fn raw(buf: &DevBuf) -> u64 {
        buf.ptr
    }

    fn run_kernel(
        &self,
        prog: &'static KernelProgram,
        k: usize,
        n: i64,
        sizes: &[i64],
        scalars: &[PrimValue],
        bufs: &[u64],
        wait: bool,
    ) -> Result<(), String> {
        crate::launch::run_kernel(self, prog, k, n, sizes, scalars, bufs, wait)
    }

    fn take_failure(&self) -> Result<Option<[i64; FAIL_WORDS]>, String> {
        crate::launch::take_failure(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_versions_and_architectures() {
        assert_eq!(version_text(12090), "12.9");
        assert_eq!(version_text(11040), "11.4");
        assert_eq!(version_text(13000), "13.0");
        assert_eq!(sm_name((9, 0)), "sm_90");
        assert_eq!(sm_name((12, 0)), "sm_120");
    }
}
