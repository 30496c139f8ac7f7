//! The entry points' adapters: for each entry function, a Rust function
//! with the signature of [`crate::signature`] (`f{k}`: scalars and the runtime's
//! `Arr`ays in, a tuple of them out), so that the batch runner's glue,
//! `PROGRAM` and generated libraries call it unchanged.
//!
//! An array argument's buffer becomes a block without a copy (copied only
//! when others share it and the parameter is unique, since the function
//! may then write into it), seen row-major from offset 0; array results
//! leave their blocks as arrays of the shapes that
//! [`Function::result_shapes`](crate::imp::Function) gives.

use std::fmt::Write;

use ir::Span;

use super::exps::exp;
use super::names::{fun, mem, tuple, var};
use crate::imp::{Passing, Program, Slot};
use crate::signature::{fun_name, rust_type};

type E<T> = Result<T, String>;

/// The adapter of entry function `id` of `core`, calling its imperative
/// function in `imp`.
pub fn adapter(core: &ir::Program, id: ir::FunId, imp: &Program) -> E<String> {
    adapter_with(core, id, imp, false)
}

/// The block-level adapter of entry function `id` (`fm{k}`, for GPU
/// library crates): as [`adapter`], with each array argument and result a
/// block and its shape (`(Mem<T>, Vec<i64>)`, row-major from offset 0)
/// rather than an `Arr`, so that an array stays on the device between
/// entry points. The caller copies a shared argument the function may
/// write into.
pub fn mem_adapter(core: &ir::Program, id: ir::FunId, imp: &Program) -> E<String> {
    adapter_with(core, id, imp, true)
}

fn adapter_with(core: &ir::Program, id: ir::FunId, imp: &Program, blocks: bool) -> E<String> {
    let k = ir::ids::EntityId::index(id);
    let cf = &core.functions[id];
    let f = imp
        .functions
        .get(k)
        .ok_or("an entry point without its imperative function")?;
    let mut out = String::new();
    let mut params = Vec::new();
    for (j, p) in cf.params.iter().enumerate() {
        let t = cf
            .var_type(p.var)
            .ok_or("an entry parameter without a type")?;
        params.push(format!("p{j}: {}", block_type(t, blocks)));
    }
    let rets: Vec<String> = cf.ret.iter().map(|t| block_type(t, blocks)).collect();
    let name = if blocks {
        format!("fm{}", &fun_name(id)[1..])
    } else {
        fun_name(id)
    };
    writeln!(
        out,
        "pub fn {name}({}) -> R<{}> {{",
        params.join(", "),
        tuple(&rets)
    )
    .ok();
    // The slots of each parameter, bound to the imperative function's
    // names (the result shapes mention them).
    let mut slots = f.params.iter();
    let mut next = || slots.next().ok_or("fewer parameter slots than parameters");
    let mut args = Vec::new();
    for (j, (pass, p)) in f.param_passing.iter().zip(&cf.params).enumerate() {
        match pass {
            Passing::Scalar => {
                let Slot::Scalar(v) = next()? else {
                    return Err("a scalar parameter in a block slot".into());
                };
                writeln!(out, "let {} = p{j};", var(*v)).ok();
                args.push(var(*v));
            }
            Passing::Array { rank, dynamic } => {
                let Slot::Mem(m) = next()? else {
                    return Err("an array parameter in a scalar slot".into());
                };
                if blocks {
                    writeln!(out, "let ({}, s{j}) = p{j};", mem(*m)).ok();
                } else {
                    writeln!(
                        out,
                        "let ({}, s{j}) = arr_mem(p{j}, {});",
                        mem(*m),
                        p.unique
                    )
                    .ok();
                }
                args.push(mem(*m));
                let mut scalar = |e: String| -> E<()> {
                    let Slot::Scalar(v) = next()? else {
                        return Err("an array's offset, stride or size in a block slot".into());
                    };
                    writeln!(out, "let {} = {e};", var(*v)).ok();
                    args.push(var(*v));
                    Ok(())
                };
                scalar("0i64".into())?;
                for d in 0..*rank {
                    scalar(format!("stride(&s{j}, {d})"))?;
                }
                for d in dynamic {
                    scalar(format!("s{j}[{d}]"))?;
                }
            }
        }
    }
    writeln!(out, "let t_ = {}({})?;", fun(k), args.join(", ")).ok();
    for (j, r) in f.results.iter().enumerate() {
        if let Slot::Scalar(v) = r {
            writeln!(out, "let {} = t_.{j};", var(*v)).ok();
        }
    }
    let mut pos = 0usize;
    let mut results = Vec::new();
    for (pass, shape) in f.result_passing.iter().zip(&f.result_shapes) {
        match pass {
            Passing::Scalar => results.push(format!("t_.{pos}")),
            Passing::Array { dynamic, .. } => {
                let dims = shape
                    .iter()
                    .map(|d| exp(f, d, Span::NONE))
                    .collect::<E<Vec<_>>>()?;
                results.push(if blocks {
                    format!("(t_.{pos}, vec![{}])", dims.join(", "))
                } else {
                    format!(
                        "at(mem_arr(t_.{pos}, &[{}]), (0u32, 0u32, 0u32))?",
                        dims.join(", ")
                    )
                });
                pos += dynamic.len();
            }
        }
        pos += 1;
    }
    writeln!(out, "Ok({})\n}}\n", tuple(&results)).ok();
    Ok(out)
}

/// The Rust type of a value of type `t`: [`rust_type`], or with `blocks`
/// an array as its block and shape.
fn block_type(t: &ir::Type, blocks: bool) -> String {
    if blocks && !t.is_scalar() {
        format!("(Mem<{}>, Vec<i64>)", crate::scalar::rust_prim(t.elem))
    } else {
        rust_type(t)
    }
}
