//! The OpenCL device and context of the process.
//!
//! One context on one device serves the whole process. It is created on
//! first use ([`context`], [`ensure_device`]), on the device chosen by
//! [`set_device_choice`] (the executable's `--device`), else by the
//! environment variable `FUT_OPENCL_DEVICE`, else the first GPU, else the
//! first device of any kind. A choice is a case-insensitive substring of
//! the device's name or of `PLATFORM: DEVICE`.
//!
//! The context holds one in-order command queue (with profiling
//! enabled), the free list of device buffers ([`crate::freelist`]), the
//! failure buffer of the kernels ([`crate::launch()`]) and the programs
//! built so far ([`crate::program`]). When it cannot be created (no
//! OpenCL runtime, no platform, no device, no device matching the
//! choice) every use returns the same message; nothing panics.

#![allow(unsafe_code)]

use std::collections::HashMap;
use std::ptr;
use std::sync::{Arc, Mutex};

use opencl3::command_queue::{CL_QUEUE_PROFILING_ENABLE, CommandQueue};
use opencl3::context::Context;
use opencl3::device::{
    CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, Device,
};
use opencl3::error_codes::ClError;
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE, ClMem};
use opencl3::platform::get_platforms;
use opencl3::types::{CL_BLOCKING, cl_device_type, cl_mem};

use fut_runtime_gpu::Backend;
use fut_runtime_gpu::freelist::{Allocator, FreeList};
use fut_runtime_gpu::launch::FAIL_WORDS;
use fut_runtime_gpu::program::KernelProgram;
pub use fut_runtime_gpu::select::DeviceDesc;
use fut_runtime_gpu::select::{Choice, ContextCell, select};
use values::PrimValue;

use crate::program::Built;

/// What cl3 returns when `libOpenCL.so.1` cannot be loaded
/// (`DLOPEN_RUNTIME_LOAD_FAILED`): the check of
/// `cl3::is_opencl_runtime_available`, made by the first call.
const RUNTIME_LOAD_FAILED: i32 = -2000;

/// `CL_PLATFORM_NOT_FOUND_KHR`: the ICD loader found no driver.
const PLATFORM_NOT_FOUND: i32 = -1001;

/// The message when no OpenCL runtime can be loaded.
pub const NO_RUNTIME: &str = "no OpenCL runtime found (libOpenCL.so.1): install an OpenCL driver, \
     for example PoCL for the CPU: apt-get install pocl-opencl-icd ocl-icd-libopencl1";

/// The device chosen by [`set_device_choice`], else by `FUT_OPENCL_DEVICE`.
static CHOICE: Choice = Choice::new("FUT_OPENCL_DEVICE");

/// The context, created once.
static CONTEXT: ContextCell<Gpu> = ContextCell::new();

/// Chooses the device by a case-insensitive substring of its name or of
/// `PLATFORM: DEVICE` (`None`: back to the default). Takes precedence
/// over `FUT_OPENCL_DEVICE`; has no effect once the context exists.
pub fn set_device_choice(choice: Option<String>) {
    CHOICE.set(choice);
}

/// Creates the context now if it does not exist yet: its error, if it
/// cannot be created.
pub fn ensure_device() -> Result<(), String> {
    context().map(|_| ())
}

/// Every device of every platform, one line each (`INDEX: PLATFORM:
/// NAME (KIND, OPENCL C VERSION)`), or why there is none.
pub fn list_devices() -> Result<String, String> {
    let found = discover()?;
    if found.is_empty() {
        return Err("no OpenCL device found".into());
    }
    Ok(found
        .iter()
        .enumerate()
        .map(|(i, (d, _))| d.line(i) + "\n")
        .collect())
}

fn kind_of(t: cl_device_type) -> &'static str {
    if t & CL_DEVICE_TYPE_GPU != 0 {
        "GPU"
    } else if t & CL_DEVICE_TYPE_CPU != 0 {
        "CPU"
    } else if t & CL_DEVICE_TYPE_ACCELERATOR != 0 {
        "accelerator"
    } else {
        "other"
    }
}

/// Every device with its description, or why none can be listed.
fn discover() -> Result<Vec<(DeviceDesc, Device)>, String> {
    let platforms = match get_platforms() {
        Ok(p) => p,
        Err(ClError(RUNTIME_LOAD_FAILED)) => return Err(NO_RUNTIME.into()),
        Err(ClError(PLATFORM_NOT_FOUND)) => return Err(no_platform()),
        Err(e) => return Err(format!("OpenCL error: cannot list the platforms: {e}")),
    };
    if platforms.is_empty() {
        return Err(no_platform());
    }
    let mut out = Vec::new();
    for p in &platforms {
        let pname = p
            .name()
            .unwrap_or_else(|e| format!("(unnamed platform: {e})"));
        // A platform without devices answers CL_DEVICE_NOT_FOUND.
        for id in p.get_devices(CL_DEVICE_TYPE_ALL).unwrap_or_default() {
            let d = Device::new(id);
            let desc = DeviceDesc {
                platform: pname.clone(),
                name: d
                    .name()
                    .unwrap_or_else(|e| format!("(unnamed device: {e})")),
                kind: d.dev_type().map(kind_of).unwrap_or("other"),
                c_version: d.opencl_c_version().unwrap_or_default(),
            };
            out.push((desc, d));
        }
    }
    Ok(out)
}

fn no_platform() -> String {
    "no OpenCL platform found: the OpenCL loader (libOpenCL.so.1) found no driver; install one, \
     for example PoCL for the CPU: apt-get install pocl-opencl-icd"
        .into()
}

/// Device buffers through the driver, for the free list.
pub(crate) struct ClAlloc<'a> {
    context: &'a Context,
    max_alloc: u64,
}

impl Allocator for ClAlloc<'_> {
    type Buf = Buffer<u8>;

    fn allocate(&self, bytes: usize) -> Result<Buffer<u8>, String> {
        if bytes as u64 > self.max_alloc {
            return Err(format!(
                "the device's largest allocation is {} bytes",
                self.max_alloc
            ));
        }
        // SAFETY: no host pointer; the size is not zero (the free list
        // rounds it up).
        unsafe { Buffer::<u8>::create(self.context, CL_MEM_READ_WRITE, bytes, ptr::null_mut()) }
            .map_err(|e| e.to_string())
    }
}

/// The process's OpenCL context: device, queue, free list, failure
/// buffer and built programs.
pub struct Gpu {
    pub(crate) context: Context,
    pub(crate) queue: CommandQueue,
    pub(crate) device: Device,
    /// The device's description.
    pub desc: DeviceDesc,
    /// The platform's version, part of the binary cache's key.
    pub(crate) platform_version: String,
    /// The driver's version, part of the binary cache's key.
    pub(crate) driver_version: String,
    pub(crate) max_work_group: usize,
    /// How many work items the device keeps busy ([`Backend::threads`]).
    threads: usize,
    /// The options programs are built with on this device.
    pub(crate) build_options: String,
    max_alloc: u64,
    free: Mutex<FreeList<Buffer<u8>>>,
    /// The failure buffer ([`FAIL_WORDS`] words, zeros between failures);
    /// held while a kernel with assertions runs and is checked.
    pub(crate) fail: Mutex<Buffer<i64>>,
    /// The failure buffer's handle, for kernels without assertions
    /// (which never write it).
    pub(crate) fail_mem: usize,
    /// Programs built so far, by the address of their static.
    pub(crate) programs: Mutex<HashMap<usize, Arc<Built>>>,
}

/// The context, created on first use.
pub fn context() -> Result<&'static Gpu, String> {
    CONTEXT.get(create)
}

/// The context when it exists (never creates it).
pub(crate) fn existing() -> Option<&'static Gpu> {
    CONTEXT.existing()
}

fn create() -> Result<Gpu, String> {
    let choice = CHOICE.get();
    let mut found = discover()?;
    let descs: Vec<DeviceDesc> = found.iter().map(|(d, _)| d.clone()).collect();
    let k = select(&descs, choice.as_deref(), "OpenCL")?;
    let (desc, device) = found.swap_remove(k);
    let what = |e: ClError| format!("OpenCL error on device {}: {e}", desc.name);
    let context = Context::from_device(&device).map_err(|e| what(e) + " (creating a context)")?;
    let queue = make_queue(&context).map_err(|e| what(e) + " (creating a command queue)")?;
    let platform_version = opencl3::platform::Platform::new(
        device
            .platform()
            .map_err(|e| what(e) + " (querying the platform)")?,
    )
    .version()
    .unwrap_or_default();
    let driver_version = device.driver_version().unwrap_or_default();
    let max_work_group = device.max_work_group_size().unwrap_or(1).max(1);
    let max_alloc = device.max_mem_alloc_size().unwrap_or(u64::MAX);
    // A GPU's compute unit keeps a few thousand work items in flight; a
    // CPU's (PoCL) runs one at a time and wants only enough to balance.
    let units = device.max_compute_units().unwrap_or(1).max(1) as usize;
    let per_unit = if device.dev_type().unwrap_or(0) & opencl3::device::CL_DEVICE_TYPE_CPU != 0 {
        32
    } else {
        2048
    };
    let threads = units * per_unit;
    // SAFETY: no host pointer, a non-zero size.
    let mut fail =
        unsafe { Buffer::<i64>::create(&context, CL_MEM_READ_WRITE, FAIL_WORDS, ptr::null_mut()) }
            .map_err(|e| what(e) + " (allocating the failure buffer)")?;
    // SAFETY: the host slice outlives the blocking write.
    unsafe { queue.enqueue_write_buffer(&mut fail, CL_BLOCKING, 0, &[0i64; FAIL_WORDS], &[]) }
        .map_err(|e| what(e) + " (clearing the failure buffer)")?;
    let fail_mem = fail.get() as usize;
    // Futhark's f32 division and square root are correctly rounded; ask
    // for that where the device offers it (the kernels never fuse
    // multiply-adds either: their prelude says so).
    let exact = device
        .single_fp_config()
        .is_ok_and(|c| c & opencl3::device::CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT != 0);
    // `-w`: the kernels' warnings (unused helpers of the prelude) are of
    // no use to the program's user, and some drivers print them.
    let mut build_options = if exact {
        "-w -cl-fp32-correctly-rounded-divide-sqrt".to_string()
    } else {
        "-w".to_string()
    };
    // More options from the user (for example `-cl-opt-disable`).
    if let Ok(extra) = std::env::var("FUT_OPENCL_BUILD_OPTIONS") {
        build_options.push(' ');
        build_options.push_str(&extra);
    }
    Ok(Gpu {
        build_options,
        free: Mutex::new(FreeList::new(desc.name.clone())),
        context,
        queue,
        device,
        desc,
        platform_version,
        driver_version,
        max_work_group,
        threads,
        max_alloc,
        fail: Mutex::new(fail),
        fail_mem,
        programs: Mutex::new(HashMap::new()),
    })
}

/// An in-order queue with profiling: through the OpenCL 2.0 call, else
/// the OpenCL 1.2 one.
#[allow(deprecated)]
fn make_queue(context: &Context) -> Result<CommandQueue, ClError> {
    CommandQueue::create_default_with_properties(context, CL_QUEUE_PROFILING_ENABLE, 0)
        .or_else(|_| CommandQueue::create_default(context, CL_QUEUE_PROFILING_ENABLE))
}

impl Gpu {
    /// A device buffer of at least `bytes` bytes and its size, from the
    /// free list.
    fn alloc_buffer(&self, bytes: usize) -> Result<(usize, Buffer<u8>), String> {
        let a = ClAlloc {
            context: &self.context,
            max_alloc: self.max_alloc,
        };
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .alloc(&a, bytes)
    }

    /// Keeps a buffer of `cap` bytes for later allocations.
    fn free_buffer(&self, cap: usize, buf: Buffer<u8>) {
        self.free
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .free(cap, buf);
    }

    /// The free buffers: how many, and their bytes.
    pub fn free_buffers(&self) -> (usize, usize) {
        let f = self.free.lock().unwrap_or_else(|e| e.into_inner());
        (f.len(), f.bytes())
    }

    /// Copies the first `dst.len()` bytes of `buf` to `dst` (blocking).
    fn read_bytes(&self, buf: &Buffer<u8>, dst: &mut [u8]) -> Result<(), String> {
        let bytes = dst.len();
        if bytes == 0 {
            return Ok(());
        }
        if bytes > buf.size().unwrap_or(usize::MAX) {
            return Err(format!(
                "OpenCL error: reading {bytes} bytes from a smaller buffer"
            ));
        }
        // SAFETY: `dst` is valid for the blocking read, and the buffer
        // holds as many bytes (checked above).
        let data = dst;
        unsafe {
            self.queue
                .enqueue_read_buffer(buf, CL_BLOCKING, 0, data, &[])
        }
        .map(|_| ())
        .map_err(|e| format!("OpenCL error: reading {bytes} bytes from the device: {e}"))
    }

    /// Copies `src` to the start of `buf` (blocking).
    fn write_bytes(&self, buf: &mut Buffer<u8>, src: &[u8]) -> Result<(), String> {
        let bytes = src.len();
        if bytes == 0 {
            return Ok(());
        }
        if bytes > buf.size().unwrap_or(usize::MAX) {
            return Err(format!(
                "OpenCL error: writing {bytes} bytes to a smaller buffer"
            ));
        }
        // SAFETY: `src` is valid for the blocking write, and the buffer
        // holds as many bytes (checked above).
        let data = src;
        unsafe {
            self.queue
                .enqueue_write_buffer(buf, CL_BLOCKING, 0, data, &[])
        }
        .map(|_| ())
        .map_err(|e| format!("OpenCL error: writing {bytes} bytes to the device: {e}"))
    }

    /// Sets the first `bytes` bytes of `buf` to zero (queued, not waited
    /// for: later commands of the in-order queue run after it).
    fn zero_bytes(&self, buf: &mut Buffer<u8>, bytes: usize) -> Result<(), String> {
        if bytes == 0 {
            return Ok(());
        }
        // Fill by words where the size allows (drivers fill faster).
        let r = if bytes.is_multiple_of(4) {
            // SAFETY: a 4-byte pattern over a whole number of patterns
            // inside the buffer.
            unsafe {
                self.queue
                    .enqueue_fill_buffer(buf, &[0u8; 4], 0, bytes, &[])
            }
        } else {
            // SAFETY: as above, with a 1-byte pattern.
            unsafe { self.queue.enqueue_fill_buffer(buf, &[0u8], 0, bytes, &[]) }
        };
        r.map(|_| ())
            .map_err(|e| format!("OpenCL error: clearing {bytes} bytes on the device: {e}"))
    }

    /// Copies `bytes` bytes from offset `soff` of `src` to offset `doff`
    /// of `dst` on the device (queued, not waited for).
    fn copy_bytes(
        &self,
        src: cl_mem,
        dst: cl_mem,
        soff: usize,
        doff: usize,
        bytes: usize,
    ) -> Result<(), String> {
        // SAFETY: both handles are live buffers of this context (their
        // blocks are borrowed by the caller) holding the ranges copied.
        let ev = unsafe {
            opencl3::command_queue::enqueue_copy_buffer(
                self.queue.get(),
                src,
                dst,
                soff,
                doff,
                bytes,
                0,
                ptr::null(),
            )
        }
        .map_err(|e| ClError(e).to_string())?;
        // Releases the event.
        drop(opencl3::event::Event::new(ev));
        Ok(())
    }
}

impl Backend for Gpu {
    fn threads(&self) -> usize {
        self.threads
    }

    const NAME: &'static str = "OpenCL";
    type Buf = Buffer<u8>;

    fn context() -> Result<&'static Gpu, String> {
        context()
    }

    fn existing() -> Option<&'static Gpu> {
        existing()
    }

    fn alloc(&self, bytes: usize) -> Result<(usize, Buffer<u8>), String> {
        self.alloc_buffer(bytes)
    }

    fn free(&self, cap: usize, buf: Buffer<u8>) {
        self.free_buffer(cap, buf)
    }

    fn read(&self, buf: &Buffer<u8>, dst: &mut [u8]) -> Result<(), String> {
        self.read_bytes(buf, dst)
    }

    fn write(&self, buf: &mut Buffer<u8>, src: &[u8]) -> Result<(), String> {
        self.write_bytes(buf, src)
    }

    fn zero(&self, buf: &mut Buffer<u8>, bytes: usize) -> Result<(), String> {
        self.zero_bytes(buf, bytes)
    }

    fn copy(
        &self,
        src: u64,
        dst: u64,
        src_off: usize,
        dst_off: usize,
        bytes: usize,
    ) -> Result<(), String> {
        self.copy_bytes(
            src as usize as cl_mem,
            dst as usize as cl_mem,
            src_off,
            dst_off,
            bytes,
        )
    }

    fn raw(buf: &Buffer<u8>) -> u64 {
        buf.get() as usize as u64
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
