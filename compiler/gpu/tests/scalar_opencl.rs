//! The kernel emitter's scalar expressions (`gpu::kernel_c::scalar`) and
//! prelude, run on an OpenCL device and compared with the IR
//! interpreter's scalar semantics (`ir::interp::scalar`, built on
//! `values::scalar`) on the host.
//!
//! One OpenCL program holds the prelude and one kernel per group of
//! operations (per type: the unary and binary operators, comparisons,
//! integer math functions and the failure conditions; the conversions from
//! each type; the float math functions; the literals). Each kernel
//! evaluates its expressions on arrays of inputs (edge cases — 0, ±1, the
//! least and greatest values, NaN, the infinities, -0.0, subnormals,
//! shift amounts around the width, float values around every integer
//! type's bounds — all pairs of them for the binary operators, and a few
//! hundred values of a small deterministic generator) and stores every
//! result widened to 64 bits (integers through `long`, floats through
//! `double`), so that an expression of a wider C type than its primitive
//! type shows as a wrong value.
//!
//! Results must agree bit for bit, with three exceptions: NaNs agree
//! whatever their payloads and signs; the transcendental math functions
//! and float `Pow` come from the device's math library, not the host's:
//! `f32` results (computed in `double` and rounded) may be one unit in the
//! last place off, `f64` ones as many as the OpenCL specification allows
//! the device's function to be off (`ulp_bound`; PoCL's `tan`, `sinh`,
//! `tanh` and `erfc` are 2 ulps off at places, `tgamma` 5, `lgamma` 11
//! near its zeros); float `Min` and `Max` of two zeros may differ in the
//! zero's sign (the reference's `f64::min` is itself unspecified there, and
//! gives different zeros in debug and optimised builds).
//!
//! The workspace forbids unsafe code, which every OpenCL call in Rust
//! needs, so the kernels are run by a small C program built here with the
//! system C compiler (which linking Rust needs anyway), loading the OpenCL
//! library with `dlopen`. Without an OpenCL library, platform or device
//! the test prints why and passes. `POCL_CACHE_DIR` defaults to
//! `target/pocl-cache`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use gpu::kernel_c::Target;
use gpu::kernel_c::prelude::{build_options, prelude};
use gpu::kernel_c::scalar::{self, c_storage_type, c_type};
use ir::interp::scalar as reference;
use ir::{BinOp, CmpOp, ConvKind, MathFn, UnOp};
use values::{PrimType, PrimValue};

/// The host program: `host OPTIONS SOURCE JOB OUT`. The job is a `u32`
/// kernel count, then per kernel its name (`u32` length and bytes), the
/// number of work-items (`u64`), its input (`u64` length and bytes) and
/// its output's length (`u64`); each kernel is called as
/// `k(in, out, (long)n)`. The outputs are written one after the other.
/// Exit status 77: no OpenCL library, platform or device.
const HOST_C: &str = r#"
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef void *cl_platform_id;
typedef void *cl_device_id;
typedef void *cl_context;
typedef void *cl_command_queue;
typedef void *cl_program;
typedef void *cl_kernel;
typedef void *cl_mem;

typedef cl_int (*clGetPlatformIDs_t)(cl_uint, cl_platform_id *, cl_uint *);
typedef cl_int (*clGetDeviceIDs_t)(cl_platform_id, cl_ulong, cl_uint, cl_device_id *, cl_uint *);
typedef cl_context (*clCreateContext_t)(const intptr_t *, cl_uint, const cl_device_id *, void *, void *, cl_int *);
typedef cl_command_queue (*clCreateCommandQueue_t)(cl_context, cl_device_id, cl_ulong, cl_int *);
typedef cl_program (*clCreateProgramWithSource_t)(cl_context, cl_uint, const char **, const size_t *, cl_int *);
typedef cl_int (*clBuildProgram_t)(cl_program, cl_uint, const cl_device_id *, const char *, void *, void *);
typedef cl_int (*clGetProgramBuildInfo_t)(cl_program, cl_device_id, cl_uint, size_t, void *, size_t *);
typedef cl_kernel (*clCreateKernel_t)(cl_program, const char *, cl_int *);
typedef cl_mem (*clCreateBuffer_t)(cl_context, cl_ulong, size_t, void *, cl_int *);
typedef cl_int (*clSetKernelArg_t)(cl_kernel, cl_uint, size_t, const void *);
typedef cl_int (*clEnqueueNDRangeKernel_t)(cl_command_queue, cl_kernel, cl_uint, const size_t *,
                                           const size_t *, const size_t *, cl_uint, const void *, void *);
typedef cl_int (*clEnqueueReadBuffer_t)(cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *,
                                        cl_uint, const void *, void *);
typedef cl_int (*clFinish_t)(cl_command_queue);

#define LOAD(f) f##_t f = (f##_t)dlsym(lib, #f); \
  if (!f) { fprintf(stderr, "the OpenCL library has no %s\n", #f); return 77; }
#define CHECK(e, what) do { cl_int e_ = (e); \
  if (e_ != 0) { fprintf(stderr, "%s failed: %d\n", what, (int)e_); return 1; } } while (0)

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t)n + 1);
  if (fread(b, 1, (size_t)n, f) != (size_t)n) { fclose(f); return NULL; }
  b[n] = 0;
  fclose(f);
  *len = (size_t)n;
  return b;
}

int main(int argc, char **argv) {
  if (argc != 5) { fprintf(stderr, "usage: host OPTIONS SOURCE JOB OUT\n"); return 1; }
  void *lib = dlopen("libOpenCL.so.1", RTLD_NOW);
  if (!lib) lib = dlopen("libOpenCL.so", RTLD_NOW);
  if (!lib) { fprintf(stderr, "no OpenCL library (libOpenCL.so.1)\n"); return 77; }
  LOAD(clGetPlatformIDs) LOAD(clGetDeviceIDs) LOAD(clCreateContext) LOAD(clCreateCommandQueue)
  LOAD(clCreateProgramWithSource) LOAD(clBuildProgram) LOAD(clGetProgramBuildInfo) LOAD(clCreateKernel)
  LOAD(clCreateBuffer) LOAD(clSetKernelArg) LOAD(clEnqueueNDRangeKernel) LOAD(clEnqueueReadBuffer)
  LOAD(clFinish)
  cl_uint np = 0;
  if (clGetPlatformIDs(0, NULL, &np) != 0 || np == 0) { fprintf(stderr, "no OpenCL platform\n"); return 77; }
  cl_platform_id ps[16];
  if (np > 16) np = 16;
  CHECK(clGetPlatformIDs(np, ps, NULL), "clGetPlatformIDs");
  cl_device_id dev = NULL;
  for (cl_uint p = 0; p < np && !dev; p++) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(ps[p], 0xFFFFFFFFu, 1, &dev, &nd) != 0 || nd == 0) dev = NULL;
  }
  if (!dev) { fprintf(stderr, "no OpenCL device\n"); return 77; }
  cl_int err = 0;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err, "clCreateContext");
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err, "clCreateCommandQueue");
  size_t srclen = 0, joblen = 0;
  unsigned char *src = slurp(argv[2], &srclen);
  unsigned char *job = slurp(argv[3], &joblen);
  if (!src || !job) { fprintf(stderr, "cannot read the source or the job\n"); return 1; }
  const char *srcp = (const char *)src;
  cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &srclen, &err);
  CHECK(err, "clCreateProgramWithSource");
  if (clBuildProgram(prog, 1, &dev, argv[1], NULL, NULL) != 0) {
    size_t loglen = 0;
    clGetProgramBuildInfo(prog, dev, 0x1183, 0, NULL, &loglen);
    char *log = malloc(loglen + 1);
    clGetProgramBuildInfo(prog, dev, 0x1183, loglen, log, NULL);
    log[loglen] = 0;
    fprintf(stderr, "build failed:\n%s\n", log);
    return 2;
  }
  FILE *out = fopen(argv[4], "wb");
  if (!out) { fprintf(stderr, "cannot write the output\n"); return 1; }
  size_t at = 0;
#define TAKE(dst, len) do { if (at + (len) > joblen) { fprintf(stderr, "short job\n"); return 1; } \
  memcpy((dst), job + at, (len)); at += (len); } while (0)
  cl_uint nk = 0;
  TAKE(&nk, 4);
  for (cl_uint k = 0; k < nk; k++) {
    cl_uint namelen = 0;
    uint64_t n = 0, inlen = 0, outlen = 0;
    char name[256];
    TAKE(&namelen, 4);
    if (namelen >= sizeof name) { fprintf(stderr, "long name\n"); return 1; }
    TAKE(name, namelen);
    name[namelen] = 0;
    TAKE(&n, 8);
    TAKE(&inlen, 8);
    unsigned char *in = job + at;
    at += inlen;
    TAKE(&outlen, 8);
    cl_kernel kern = clCreateKernel(prog, name, &err);
    CHECK(err, name);
    cl_mem inb = clCreateBuffer(ctx, (1 << 2) | (1 << 5), inlen, in, &err);
    CHECK(err, "clCreateBuffer (in)");
    cl_mem outb = clCreateBuffer(ctx, 1 << 1, outlen, NULL, &err);
    CHECK(err, "clCreateBuffer (out)");
    int64_t nn = (int64_t)n;
    CHECK(clSetKernelArg(kern, 0, sizeof inb, &inb), "clSetKernelArg");
    CHECK(clSetKernelArg(kern, 1, sizeof outb, &outb), "clSetKernelArg");
    CHECK(clSetKernelArg(kern, 2, sizeof nn, &nn), "clSetKernelArg");
    size_t global = (size_t)n;
    CHECK(clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, NULL, 0, NULL, NULL), name);
    unsigned char *res = malloc(outlen);
    CHECK(clEnqueueReadBuffer(q, outb, 1, 0, outlen, res, 0, NULL, NULL), "clEnqueueReadBuffer");
    CHECK(clFinish(q), "clFinish");
    fwrite(res, 1, outlen, out);
    free(res);
  }
  fclose(out);
  return 0;
}
"#;

/// How closely a float result must agree.
#[derive(Clone, Copy, PartialEq)]
enum Tol {
    /// Bit for bit (any NaN for a NaN).
    Exact,
    /// Within this many units in the last place.
    Ulps(i128),
    /// Bit for bit, or both zeros.
    ZeroSign,
}

/// One expression of a kernel and its expected results.
struct Out {
    label: String,
    expr: String,
    ty: PrimType,
    want: Vec<PrimValue>,
    tol: Tol,
}

/// One kernel: its arguments `x`, `y`, `z` (of types `args`) take the
/// values of each row in turn.
struct Group {
    name: String,
    args: Vec<PrimType>,
    rows: Vec<Vec<PrimValue>>,
    outs: Vec<Out>,
}

const VARS: [&str; 3] = ["x", "y", "z"];

impl Group {
    fn new(name: &str, args: &[PrimType], rows: Vec<Vec<PrimValue>>) -> Group {
        Group {
            name: name.to_string(),
            args: args.to_vec(),
            rows,
            outs: Vec::new(),
        }
    }

    /// Adds `expr`, expected to give `f` of each row.
    fn out(
        &mut self,
        label: String,
        expr: String,
        tol: Tol,
        f: impl Fn(&[PrimValue]) -> PrimValue,
    ) {
        let want: Vec<PrimValue> = self.rows.iter().map(|r| f(r)).collect();
        let ty = want[0].prim_type();
        self.outs.push(Out {
            label,
            expr,
            ty,
            want,
            tol,
        });
    }

    fn n(&self) -> usize {
        self.rows.len()
    }

    fn source(&self) -> String {
        let mut s = format!(
            "__kernel void {}(__global const uchar *fut_in, __global ulong *fut_out, long n) {{\n  \
             long i = get_global_id(0);\n  if (i >= n) return;\n",
            self.name
        );
        for (k, t) in self.args.iter().enumerate() {
            let place = format!(
                "((__global const {} *)(fut_in + {k} * n * 8))[i]",
                c_storage_type(*t).unwrap()
            );
            let value = if *t == PrimType::Bool {
                format!("({place} != 0)")
            } else {
                place
            };
            writeln!(s, "  {} {} = {value};", c_type(*t).unwrap(), VARS[k]).unwrap();
        }
        for (k, o) in self.outs.iter().enumerate() {
            let stored = if o.ty.is_float() {
                format!("futk_bits_f64((double)({}))", o.expr)
            } else {
                format!("(ulong)(long)({})", o.expr)
            };
            writeln!(s, "  fut_out[{k} * n + i] = {stored};").unwrap();
        }
        s.push_str("}\n");
        s
    }

    fn input(&self) -> Vec<u8> {
        let n = self.n();
        let mut b = vec![0u8; (self.args.len() * n * 8).max(8)];
        for (j, row) in self.rows.iter().enumerate() {
            for (k, v) in row.iter().enumerate() {
                let bytes = le_bytes(*v);
                let at = k * n * 8 + j * bytes.len();
                b[at..at + bytes.len()].copy_from_slice(&bytes);
            }
        }
        b
    }
}

fn le_bytes(v: PrimValue) -> Vec<u8> {
    match v {
        PrimValue::I8(x) => x.to_le_bytes().to_vec(),
        PrimValue::I16(x) => x.to_le_bytes().to_vec(),
        PrimValue::I32(x) => x.to_le_bytes().to_vec(),
        PrimValue::I64(x) => x.to_le_bytes().to_vec(),
        PrimValue::U8(x) => x.to_le_bytes().to_vec(),
        PrimValue::U16(x) => x.to_le_bytes().to_vec(),
        PrimValue::U32(x) => x.to_le_bytes().to_vec(),
        PrimValue::U64(x) => x.to_le_bytes().to_vec(),
        PrimValue::F16(x) => x.to_bits().to_le_bytes().to_vec(),
        PrimValue::F32(x) => x.to_bits().to_le_bytes().to_vec(),
        PrimValue::F64(x) => x.to_bits().to_le_bytes().to_vec(),
        PrimValue::Bool(b) => vec![u8::from(b)],
    }
}

/// How many units in the last place the float result `got` is from
/// `want` (`None` when `got` is not a value of `ty`, or one is NaN).
fn ulps(ty: PrimType, want: PrimValue, got: u64) -> Option<i128> {
    let g = f64::from_bits(got);
    let w = want.as_f64()?;
    if w.is_nan() || g.is_nan() {
        return None;
    }
    if ty == PrimType::F32 {
        if f64::from(g as f32).to_bits() != g.to_bits() {
            return None;
        }
        let o = |x: f64| ordered(u64::from((x as f32).to_bits()), 32);
        Some((o(g) - o(w)).abs())
    } else {
        Some((ordered(g.to_bits(), 64) - ordered(w.to_bits(), 64)).abs())
    }
}

/// Whether the stored 64 bits `got` are the result `want` (of type `ty`).
fn agrees(ty: PrimType, want: PrimValue, got: u64, tol: Tol) -> bool {
    if ty == PrimType::Bool {
        return got as i64 == i64::from(want.as_bool().unwrap());
    }
    if ty.is_integer() {
        let g = if ty.is_unsigned_integer() {
            i128::from(got)
        } else {
            i128::from(got as i64)
        };
        return Some(g) == want.as_i128();
    }
    let g = f64::from_bits(got);
    let w = want.as_f64().unwrap();
    if w.is_nan() || g.is_nan() {
        return w.is_nan() && g.is_nan();
    }
    let (gb, wb) = if ty == PrimType::F32 {
        if f64::from(g as f32).to_bits() != g.to_bits() {
            return false;
        }
        (
            ordered(u64::from((g as f32).to_bits()), 32),
            ordered(u64::from((w as f32).to_bits()), 32),
        )
    } else {
        (ordered(g.to_bits(), 64), ordered(w.to_bits(), 64))
    };
    match tol {
        Tol::Exact => gb == wb,
        Tol::Ulps(n) => (gb - wb).abs() <= n,
        Tol::ZeroSign => gb == wb || (g == 0.0 && w == 0.0),
    }
}

/// Float bits as integers in the floats' order (both zeros at 0).
fn ordered(bits: u64, width: u32) -> i128 {
    let sign = 1u64 << (width - 1);
    if bits & sign != 0 {
        -i128::from(bits & !sign)
    } else {
        i128::from(bits)
    }
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A float in `[-r, r)`.
    fn uniform(&mut self, r: f64) -> f64 {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0) * r
    }
}

const INTS: [PrimType; 8] = [
    PrimType::I8,
    PrimType::I16,
    PrimType::I32,
    PrimType::I64,
    PrimType::U8,
    PrimType::U16,
    PrimType::U32,
    PrimType::U64,
];

const FLOATS: [PrimType; 2] = [PrimType::F32, PrimType::F64];

/// The types kernels support.
fn types() -> Vec<PrimType> {
    let mut v = INTS.to_vec();
    v.extend(FLOATS);
    v.push(PrimType::Bool);
    v
}

fn int(t: PrimType, x: i128) -> PrimValue {
    PrimValue::int_of_type(t, values::scalar::wrap(t, x)).unwrap()
}

fn float(t: PrimType, x: f64) -> PrimValue {
    PrimValue::float_of_type(t, x).unwrap()
}

fn dedup(vs: Vec<PrimValue>) -> Vec<PrimValue> {
    let mut seen = std::collections::HashSet::new();
    vs.into_iter()
        .filter(|v| seen.insert(le_bytes(*v)))
        .collect()
}

fn int_edges(t: PrimType) -> Vec<PrimValue> {
    let (lo, hi) = t.integer_range().unwrap();
    let w = i128::from(values::scalar::bits(t));
    let mut xs = vec![
        0,
        1,
        2,
        3,
        5,
        7,
        8,
        10,
        -1,
        -2,
        -3,
        -7,
        -8,
        -10,
        w - 1,
        w,
        w + 1,
        -w,
        2 * w,
        lo,
        lo + 1,
        hi,
        hi - 1,
        hi / 2,
        hi / 2 + 1,
        lo / 2,
        100,
        -100,
        1000,
        65536,
        1 << 31,
        1 << 32,
    ];
    xs.sort();
    dedup(xs.into_iter().map(|x| int(t, x)).collect())
}

fn int_random(t: PrimType, rng: &mut Rng, n: usize) -> Vec<PrimValue> {
    (0..n)
        .map(|j| {
            let r = rng.next();
            if j % 3 == 0 {
                int(t, i128::from(r % 81) - 40)
            } else {
                int(t, i128::from(r))
            }
        })
        .collect()
}

fn float_edges(t: PrimType) -> Vec<PrimValue> {
    let p = |e: i32| 2f64.powi(e);
    let mut xs = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        3.5,
        0.1,
        -0.75,
        0.99,
        -0.99,
        2.0,
        3.0,
        10.0,
        -10.0,
        100.5,
        1e10,
        -1e10,
        1e300,
        1e-300,
        std::f64::consts::PI,
        std::f64::consts::E,
        30.0,
        171.5,
        -170.5,
        1e-8,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        -f64::NAN,
        127.9,
        128.0,
        -128.5,
        -129.0,
        255.9,
        256.0,
        32767.5,
        -32769.0,
        65535.9,
        65536.0,
        p(31),
        -p(31),
        p(31) - 1.0,
        -p(31) - 1.0,
        p(32),
        p(32) - 1.0,
        p(63),
        -p(63),
        p(64),
        -p(64),
        p(53) + 2.0,
        p(24) + 2.0,
    ];
    let (tiny, max, min_normal, max_sub, below_half) = if t == PrimType::F32 {
        (
            f64::from(f32::from_bits(1)),
            f64::from(f32::MAX),
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::from_bits(0x007f_ffff)),
            f64::from(0.5f32.next_down()),
        )
    } else {
        (
            f64::from_bits(1),
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::from_bits(0x000f_ffff_ffff_ffff),
            0.5f64.next_down(),
        )
    };
    xs.extend([
        tiny, -tiny, max, -max, min_normal, max_sub, -max_sub, below_half,
    ]);
    if t == PrimType::F32 {
        xs.extend([
            f64::from(2147483520.0f32),
            f64::from((p(63) as f32).next_down()),
        ]);
    } else {
        xs.extend([p(63).next_down(), p(64).next_down(), 2147483647.5]);
    }
    dedup(xs.into_iter().map(|x| float(t, x)).collect())
}

fn float_random(t: PrimType, rng: &mut Rng, n: usize) -> Vec<PrimValue> {
    (0..n)
        .map(|j| {
            let r = rng.next();
            match j % 4 {
                0 if t == PrimType::F32 => PrimValue::F32(f32::from_bits(r as u32)),
                0 => PrimValue::F64(f64::from_bits(r)),
                1 => float(t, rng.uniform(2.0)),
                2 => float(t, rng.uniform(20.0)),
                _ => float(t, rng.uniform(1000.0)),
            }
        })
        .collect()
}

fn edges(t: PrimType) -> Vec<PrimValue> {
    if t == PrimType::Bool {
        vec![PrimValue::Bool(false), PrimValue::Bool(true)]
    } else if t.is_integer() {
        int_edges(t)
    } else {
        float_edges(t)
    }
}

fn random(t: PrimType, rng: &mut Rng, n: usize) -> Vec<PrimValue> {
    if t == PrimType::Bool {
        (0..n)
            .map(|_| PrimValue::Bool(rng.next() & 1 == 1))
            .collect()
    } else if t.is_integer() {
        int_random(t, rng, n)
    } else {
        float_random(t, rng, n)
    }
}

/// All pairs of edge cases, and `n` random pairs.
fn pairs(t: PrimType, rng: &mut Rng, n: usize) -> Vec<Vec<PrimValue>> {
    let e = edges(t);
    let mut rows: Vec<Vec<PrimValue>> = e
        .iter()
        .flat_map(|a| e.iter().map(move |b| vec![*a, *b]))
        .collect();
    let xs = random(t, rng, n);
    let ys = random(t, rng, n);
    rows.extend(xs.into_iter().zip(ys).map(|(a, b)| vec![a, b]));
    rows
}

fn s(x: &str) -> String {
    x.to_string()
}

/// The unary and binary operators, comparisons, integer math functions
/// and failure conditions of type `t`, on pairs.
fn operators(t: PrimType, rng: &mut Rng) -> Group {
    let mut g = Group::new(&format!("ops_{}", t.name()), &[t, t], pairs(t, rng, 400));
    for op in UnOp::ALL {
        let ok = match op {
            UnOp::Not => !t.is_float(),
            _ => t != PrimType::Bool,
        };
        if ok {
            g.out(
                format!("{} x", op.name()),
                scalar::unop(*op, t, "x"),
                Tol::Exact,
                |r| reference::unop(*op, r[0]),
            );
        }
    }
    for op in BinOp::ALL {
        use BinOp::*;
        let ok = match op {
            Add | Sub | Mul | Div | Mod | Rem | Pow | Min | Max => t != PrimType::Bool,
            Quot | Shl | Shr | UShr => t.is_integer(),
            And | Or | Xor => !t.is_float(),
        } || (t == PrimType::Bool && matches!(op, Min | Max));
        if !ok {
            continue;
        }
        let tol = match op {
            // The bound of `pow` (see `ulp_bound`).
            Pow if t.is_float() => Tol::Ulps(if t == PrimType::F32 { 1 } else { 16 }),
            Min | Max if t.is_float() => Tol::ZeroSign,
            _ => Tol::Exact,
        };
        g.out(
            format!("{} x y", op.name()),
            scalar::binop(*op, t, "x", "y"),
            tol,
            |r| reference::binop(*op, r[0], r[1]).unwrap_or_else(|_| reference::zero(t)),
        );
        if let Some((cond, msg)) = scalar::failure(*op, t, "x", "y") {
            g.out(
                format!("{} x y fails ({msg})", op.name()),
                cond,
                Tol::Exact,
                |r| match reference::binop(*op, r[0], r[1]) {
                    Err(e) => {
                        assert_eq!(e, msg, "the reference's message");
                        PrimValue::Bool(true)
                    }
                    Ok(_) => PrimValue::Bool(false),
                },
            );
        }
    }
    for op in CmpOp::ALL {
        g.out(
            format!("{} x y", op.name()),
            scalar::cmp(*op, t, "x", "y"),
            Tol::Exact,
            |r| PrimValue::Bool(reference::cmp(*op, r[0], r[1])),
        );
    }
    if t.is_integer() {
        for f in [MathFn::Popc, MathFn::Clz, MathFn::Ctz] {
            g.out(
                format!("{} x", f.name()),
                scalar::math(f, t, &[s("x")]),
                Tol::Exact,
                |r| reference::math(f, &r[..1]),
            );
        }
        g.out(
            s("mul_hi x y"),
            scalar::math(MathFn::MulHi, t, &[s("x"), s("y")]),
            Tol::Exact,
            |r| reference::math(MathFn::MulHi, r),
        );
    }
    composed(&mut g, t);
    g
}

/// Nested expressions: operands that are themselves expressions, results
/// used by further operators (C's promotions and precedence must not leak
/// through), and for floats `x*y + x`, which must not be contracted.
fn composed(g: &mut Group, t: PrimType) {
    let bin = |op, a: PrimValue, b: PrimValue| {
        reference::binop(op, a, b).unwrap_or_else(|_| reference::zero(t))
    };
    if t == PrimType::Bool {
        let e = scalar::binop(
            BinOp::Xor,
            t,
            &scalar::unop(UnOp::Not, t, "x"),
            &scalar::cmp(CmpOp::Lt, t, "x", "y"),
        );
        g.out(s("xor (not x) (x < y)"), e, Tol::Exact, |r| {
            let lt = PrimValue::Bool(reference::cmp(CmpOp::Lt, r[0], r[1]));
            bin(BinOp::Xor, reference::unop(UnOp::Not, r[0]), lt)
        });
        return;
    }
    let mul = scalar::binop(BinOp::Mul, t, "x", "y");
    let e = scalar::binop(BinOp::Add, t, &mul, "x");
    let tol = Tol::Exact;
    g.out(s("x*y + x"), e, tol, |r| {
        bin(BinOp::Add, bin(BinOp::Mul, r[0], r[1]), r[0])
    });
    let e = scalar::binop(
        BinOp::Sub,
        t,
        &scalar::unop(UnOp::Neg, t, "x"),
        &scalar::binop(BinOp::Div, t, &mul, "y"),
    );
    g.out(s("-x - (x*y)/y"), e, tol, |r| {
        let m = bin(BinOp::Mul, r[0], r[1]);
        bin(
            BinOp::Sub,
            reference::unop(UnOp::Neg, r[0]),
            bin(BinOp::Div, m, r[1]),
        )
    });
    let e = scalar::cmp(CmpOp::Lt, t, &scalar::binop(BinOp::Add, t, "x", "y"), "x");
    g.out(s("x + y < x"), e, tol, |r| {
        PrimValue::Bool(reference::cmp(CmpOp::Lt, bin(BinOp::Add, r[0], r[1]), r[0]))
    });
    if t.is_integer() {
        let three = int(t, 3);
        let e = scalar::binop(
            BinOp::Shr,
            t,
            &scalar::binop(BinOp::Add, t, "x", "y"),
            &scalar::literal(three),
        );
        g.out(s("(x + y) >> 3"), e, tol, |r| {
            bin(BinOp::Shr, bin(BinOp::Add, r[0], r[1]), three)
        });
        let e = scalar::binop(
            BinOp::UShr,
            t,
            &scalar::unop(UnOp::Not, t, "x"),
            &scalar::literal(int(t, 1)),
        );
        g.out(s("(~x) >>> 1"), e, tol, |r| {
            bin(BinOp::UShr, reference::unop(UnOp::Not, r[0]), int(t, 1))
        });
        let e = scalar::convert(
            ConvKind::Convert,
            t,
            PrimType::I64,
            &scalar::binop(BinOp::Mul, t, "x", "x"),
        );
        g.out(s("i64 (x*x)"), e, tol, |r| {
            reference::convert(
                ConvKind::Convert,
                PrimType::I64,
                bin(BinOp::Mul, r[0], r[0]),
            )
        });
    }
}

/// The conversions from `from` to every type, and its bitcasts.
fn conversions(from: PrimType, rng: &mut Rng) -> Group {
    let mut rows: Vec<Vec<PrimValue>> = edges(from).into_iter().map(|v| vec![v]).collect();
    rows.extend(random(from, rng, 400).into_iter().map(|v| vec![v]));
    if from.is_float() {
        // Around every integer type's bounds.
        for t in INTS {
            let (lo, hi) = t.integer_range().unwrap();
            for b in [lo as f64, hi as f64] {
                for d in [-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5] {
                    rows.push(vec![float(from, b + d)]);
                }
            }
        }
    }
    let mut g = Group::new(&format!("conv_{}", from.name()), &[from], rows);
    for to in types() {
        g.out(
            format!("{} x", to.name()),
            scalar::convert(ConvKind::Convert, from, to, "x"),
            Tol::Exact,
            |r| reference::convert(ConvKind::Convert, to, r[0]),
        );
        if to != PrimType::Bool && from != PrimType::Bool && to.byte_size() == from.byte_size() {
            g.out(
                format!("bits {} x", to.name()),
                scalar::convert(ConvKind::Bitcast, from, to, "x"),
                Tol::Exact,
                |r| reference::convert(ConvKind::Bitcast, to, r[0]),
            );
        }
    }
    g
}

/// How far `f`'s result on `t` may be from the reference's. Exact
/// functions must agree bit for bit. The others are the device's math
/// library's (the reference's are the host's): an `f32` result, computed in
/// `double` and rounded, may be one ulp off; an `f64` result as far as the
/// OpenCL specification allows the device's double function to be (16
/// ulps for `lgamma`, for which it sets no bound; for the inverse
/// hyperbolic functions, computed by the reference's formulas, the bound of
/// `log`).
fn ulp_bound(f: MathFn, t: PrimType) -> Tol {
    use MathFn::*;
    let n = match f {
        Sqrt | Fma | Mad | Floor | Ceil | Round | Trunc | IsNan | IsInf | CopySign => {
            return Tol::Exact;
        }
        _ if t == PrimType::F32 => 1,
        Log1p | Cbrt => 2,
        Exp | Expm1 | Log | Log2 | Log10 | Asinh | Acosh | Atanh => 3,
        Sin | Cos | Asin | Acos | Sinh | Cosh | Hypot => 4,
        Tan | Tanh | Atan => 5,
        Atan2 => 6,
        Erf | Erfc | Gamma | Lgamma => 16,
        Popc | Clz | Ctz | MulHi => 0,
    };
    Tol::Ulps(n)
}

/// Every float math function of `t`.
fn math(t: PrimType, rng: &mut Rng) -> Group {
    let e = edges(t);
    let mut rows = Vec::new();
    for (i, a) in e.iter().enumerate() {
        for (j, b) in e.iter().enumerate() {
            rows.push(vec![*a, *b, e[(i * 7 + j * 3) % e.len()]]);
        }
    }
    let (xs, ys, zs) = (
        random(t, rng, 600),
        random(t, rng, 600),
        random(t, rng, 600),
    );
    for ((x, y), z) in xs.into_iter().zip(ys).zip(zs) {
        rows.push(vec![x, y, z]);
    }
    let mut g = Group::new(&format!("math_{}", t.name()), &[t, t, t], rows);
    for f in MathFn::ALL {
        if matches!(f, MathFn::Popc | MathFn::Clz | MathFn::Ctz | MathFn::MulHi) {
            continue;
        }
        let args: Vec<String> = VARS[..f.arity()].iter().map(|v| s(v)).collect();
        let tol = ulp_bound(*f, t);
        g.out(
            format!("{} {}", f.name(), args.join(" ")),
            scalar::math(*f, t, &args),
            tol,
            |r| reference::math(*f, &r[..f.arity()]),
        );
    }
    g
}

/// Every edge value of every type as a literal.
fn literals() -> Group {
    let mut g = Group::new("literals", &[], vec![vec![]]);
    for t in types() {
        for v in edges(t) {
            g.out(format!("{v:?}"), scalar::literal(v), Tol::Exact, |_| v);
        }
    }
    g
}

fn groups() -> Vec<Group> {
    let mut rng = Rng(0x5eed);
    let mut gs = vec![literals()];
    for t in types() {
        gs.push(operators(t, &mut rng));
        gs.push(conversions(t, &mut rng));
    }
    for t in FLOATS {
        gs.push(math(t, &mut rng));
    }
    gs
}

#[test]
fn scalar_expressions_agree_with_the_reference_on_opencl() {
    let groups = groups();
    let mut source = prelude(Target::OpenCl);
    let mut job = Vec::new();
    job.extend((groups.len() as u32).to_le_bytes());
    for g in &groups {
        source.push('\n');
        source.push_str(&g.source());
        job.extend((g.name.len() as u32).to_le_bytes());
        job.extend(g.name.as_bytes());
        job.extend((g.n() as u64).to_le_bytes());
        let input = g.input();
        job.extend((input.len() as u64).to_le_bytes());
        job.extend(input);
        job.extend(((g.outs.len() * g.n() * 8) as u64).to_le_bytes());
    }

    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.join("scalar_opencl");
    std::fs::create_dir_all(&dir).unwrap();
    let (host_c, host) = (dir.join("host.c"), dir.join("host"));
    std::fs::write(&host_c, HOST_C).unwrap();
    std::fs::write(dir.join("program.cl"), &source).unwrap();
    std::fs::write(dir.join("job.bin"), &job).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let built = Command::new(&cc)
        .arg("-O1")
        .arg("-o")
        .arg(&host)
        .arg(&host_c)
        .arg("-ldl")
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler `{cc}`: {e}"));
    assert!(
        built.status.success(),
        "the host program does not build:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );

    let mut options = build_options(Target::OpenCl).join(" ");
    options.push_str(" -cl-std=CL1.2");
    let mut run = Command::new(&host);
    run.arg(&options)
        .arg(dir.join("program.cl"))
        .arg(dir.join("job.bin"))
        .arg(dir.join("out.bin"));
    if std::env::var_os("POCL_CACHE_DIR").is_none() {
        let cache = tmp.parent().unwrap_or(&tmp).join("pocl-cache");
        run.env("POCL_CACHE_DIR", cache);
    }
    let ran = run.output().unwrap();
    let stderr = String::from_utf8_lossy(&ran.stderr);
    match ran.status.code() {
        Some(0) => {}
        Some(77) => {
            eprintln!("skipped: {}", stderr.trim());
            return;
        }
        _ => panic!(
            "the kernels failed ({}), program in {}:\n{stderr}",
            ran.status,
            dir.join("program.cl").display()
        ),
    }

    let out = std::fs::read(dir.join("out.bin")).unwrap();
    let mut at = 0;
    let mut bad = Vec::new();
    let mut checked = 0usize;
    for g in &groups {
        let n = g.n();
        for (k, o) in g.outs.iter().enumerate() {
            for (j, row) in g.rows.iter().enumerate() {
                let p = at + (k * n + j) * 8;
                let got = u64::from_le_bytes(out[p..p + 8].try_into().unwrap());
                checked += 1;
                if !agrees(o.ty, o.want[j], got, o.tol) {
                    let shown = if o.ty.is_float() {
                        format!("{:e} ({got:#x})", f64::from_bits(got))
                    } else {
                        format!("{} ({got:#x})", got as i64)
                    };
                    let key = format!("{}: {}", g.name, o.label);
                    let line = format!(
                        "{key} = {} on {row:?}: want {:?}, got {shown}",
                        o.expr, o.want[j]
                    );
                    bad.push((key, line, ulps(o.ty, o.want[j], got)));
                }
            }
        }
        at += g.outs.len() * n * 8;
    }
    assert_eq!(at, out.len(), "the output's length");
    if !bad.is_empty() {
        // The first disagreement of each expression, and how many it has.
        let mut first: Vec<(String, usize, String, Option<i128>)> = Vec::new();
        for (key, line, u) in &bad {
            match first.iter_mut().find(|f| &f.0 == key) {
                Some(f) => {
                    f.1 += 1;
                    f.3 = f.3.zip(*u).map(|(a, b)| a.max(b));
                }
                None => first.push((key.clone(), 1, line.clone(), *u)),
            }
        }
        let shown: Vec<String> = first
            .iter()
            .map(|(_, count, line, u)| {
                let u = u.map_or(String::new(), |u| format!(", at most {u} ulps"));
                format!("[{count}x{u}] {line}")
            })
            .collect();
        panic!(
            "{} of {checked} results disagree with the reference:\n{}",
            bad.len(),
            shown.join("\n")
        );
    }
    eprintln!("{checked} results agree with the reference");
}

/// Declarations standing in for what NVRTC gives a program without any
/// include: CUDA's attributes, built-in variables, device functions and
/// math functions, from clang's own CUDA headers.
const CLANG_CUDA_HEADER: &str = "\
typedef unsigned long size_t;
#define INT_MAX 2147483647
#define INT_MIN (-INT_MAX - 1)
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define CUDA_VERSION 12000
#include <__clang_cuda_builtin_vars.h>
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
";

/// A kernel in the OpenCL vocabulary the CUDA prelude translates.
const VOCABULARY_KERNEL: &str = "
__kernel void vocabulary(__global float *p, __global long *q, long n) {
  __local float buf[64];
  long g = get_global_id(0);
  buf[get_local_id(0)] = p[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g < n)
    q[g] = get_group_id(0) + get_local_size(0) + get_num_groups(0) + get_global_size(0)
      + as_int(buf[0]) + as_long(1.0) + (long)as_float(as_uint(2.0f)) + (long)as_double(as_ulong(1.0));
}
";

/// The CUDA prelude with the same kernels as the OpenCL test, and one
/// using the OpenCL vocabulary it defines, compiled to PTX by clang's CUDA
/// front end (a stand-in for NVRTC, which is not here: it checks that the
/// text is valid CUDA C++ and that every helper is defined, not what runs).
/// Skipped when no clang that compiles CUDA is found.
#[test]
fn cuda_kernels_compile_with_clang() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scalar_cuda");
    std::fs::create_dir_all(&dir).unwrap();
    let compile = |clang: &str, name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        Command::new(clang)
            .args(["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_70"])
            .args(["-nocudainc", "-nocudalib", "-std=c++17", "-O1", "-S", "-o"])
            .arg(path.with_extension("ptx"))
            .arg(&path)
            .output()
    };
    let probe = format!(
        "{CLANG_CUDA_HEADER}__global__ void probe(float *p) {{ p[threadIdx.x] = sinf(p[0]); }}\n"
    );
    let Some(clang) = ["clang++-15", "clang++", "clang"]
        .into_iter()
        .find(|c| compile(c, "probe.cu", &probe).is_ok_and(|o| o.status.success()))
    else {
        eprintln!("skipped: no clang that compiles CUDA");
        return;
    };
    let mut text = format!("{CLANG_CUDA_HEADER}{}", prelude(Target::Cuda));
    for g in groups() {
        text.push('\n');
        text.push_str(&g.source());
    }
    text.push_str(VOCABULARY_KERNEL);
    let out = compile(clang, "program.cu", &text).unwrap();
    assert!(
        out.status.success(),
        "the CUDA program ({}) does not compile:\n{}",
        dir.join("program.cu").display(),
        String::from_utf8_lossy(&out.stderr)
    );
}
