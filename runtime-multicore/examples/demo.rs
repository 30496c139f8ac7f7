//! A program written by hand against the runtime's contract, as `fut
//! multicore` would generate it, for the runtime's tests (the executable
//! options and the server protocol are exercised on it as a process).
//!
//! Its entry points, as the source `demo.fut` would declare them:
//!
//! ```text
//! entry sum (xs: []i64) : i64
//! entry index (xs: []f64) (i: i64) : f64        -- fails out of bounds
//! entry scale (xs: *[]f64) (k: f64) : *[]f64    -- in place
//! entry swap (x: i32) (ys: []u8) : ([]u8, i32)
//! entry threads : i64                            -- rayon's thread count
//! entry bug : i32                                -- a panic, as a code-generator bug would
//! ```

use fut_runtime_multicore::{Context, EntryPoint, Error, ExtType, Program, TypeDesc};
use rayon::prelude::*;
use values::{Data, PrimType, Value};

const fn ty(rank: usize, elem: PrimType, unique: bool) -> ExtType {
    ExtType::Value(TypeDesc { rank, elem, unique })
}

fn sum(ctx: &Context, args: Vec<Value>) -> Result<Vec<Value>, Error> {
    let mut args = args.into_iter();
    let Some((_, Data::I64(xs))) = args.next().map(Value::into_parts) else {
        return Err(Error::new("sum: bad arguments"));
    };
    let s: i64 = ctx.install(|| ctx.profile("segred demo.fut:1:30", || xs.par_iter().sum()));
    Ok(vec![Value::scalar(s)])
}

fn index(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, Error> {
    let mut args = args.into_iter();
    let (Some((shape, Data::F64(xs))), Some(i)) = (
        args.next().map(Value::into_parts),
        args.next()
            .and_then(|v| v.as_scalar())
            .and_then(|p| p.as_i128()),
    ) else {
        return Err(Error::new("index: bad arguments"));
    };
    match usize::try_from(i).ok().and_then(|i| xs.get(i)) {
        Some(x) => Ok(vec![Value::scalar(*x)]),
        None => Err(Error::new(format!(
            "Index [{i}] out of bounds for array of shape [{}]. (at demo.fut:2:46-50)",
            shape[0]
        ))),
    }
}

fn scale(ctx: &Context, args: Vec<Value>) -> Result<Vec<Value>, Error> {
    let mut args = args.into_iter();
    let (Some((_, Data::F64(mut xs))), Some(k)) = (
        args.next().map(Value::into_parts),
        args.next()
            .and_then(|v| v.as_scalar())
            .and_then(|p| p.as_f64()),
    ) else {
        return Err(Error::new("scale: bad arguments"));
    };
    ctx.install(|| {
        ctx.profile("segmap demo.fut:3:40", || {
            xs.par_iter_mut().for_each(|x| *x *= k)
        })
    });
    Ok(vec![Value::vector(xs)])
}

fn swap(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, Error> {
    let mut args = args.into_iter();
    match (args.next(), args.next()) {
        (Some(x), Some(ys)) => Ok(vec![ys, x]),
        _ => Err(Error::new("swap: bad arguments")),
    }
}

/// The number of threads rayon sees, without installing the pool itself.
fn threads(_: &Context, _: Vec<Value>) -> Result<Vec<Value>, Error> {
    Ok(vec![Value::scalar(rayon::current_num_threads() as i64)])
}

fn bug(_: &Context, _: Vec<Value>) -> Result<Vec<Value>, Error> {
    let v: Vec<i32> = Vec::new();
    let i = v.len() + 3;
    Ok(vec![Value::scalar(v[i])])
}

static PROGRAM: Program = Program {
    name: "demo",
    entries: &[
        EntryPoint {
            name: "sum",
            params: &[ty(1, PrimType::I64, false)],
            results: &[ty(0, PrimType::I64, false)],
            run: sum,
        },
        EntryPoint {
            name: "index",
            params: &[ty(1, PrimType::F64, false), ty(0, PrimType::I64, false)],
            results: &[ty(0, PrimType::F64, false)],
            run: index,
        },
        EntryPoint {
            name: "scale",
            params: &[ty(1, PrimType::F64, true), ty(0, PrimType::F64, false)],
            results: &[ty(1, PrimType::F64, true)],
            run: scale,
        },
        EntryPoint {
            name: "swap",
            params: &[ty(0, PrimType::I32, false), ty(1, PrimType::U8, false)],
            results: &[ty(1, PrimType::U8, false), ty(0, PrimType::I32, false)],
            run: swap,
        },
        EntryPoint {
            name: "threads",
            params: &[],
            results: &[ty(0, PrimType::I64, false)],
            run: threads,
        },
        EntryPoint {
            name: "bug",
            params: &[],
            results: &[ty(0, PrimType::I32, false)],
            run: bug,
        },
    ],
};

fn main() {
    fut_runtime_multicore::main(&PROGRAM)
}
