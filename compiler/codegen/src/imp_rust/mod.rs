//! The Rust emitter of the imperative IR: the multicore backend's
//! emitter.
//!
//! Each function of the imperative IR ([`crate::imp`]) becomes one Rust
//! function `g{k}` over scalars and the runtime's memory blocks
//! (`fut_runtime_multicore::mem::Mem`): its statements become Rust
//! statements ([`stms`]), its scalar expressions Rust expressions with the
//! semantics of [`crate::scalar`] ([`exps`]), its parallel loops the runtime's
//! chunked parallel loops ([`par`]), loops versioned with their range
//! checks hoisted ([`ranges`]); short loops around reductions are first
//! unrolled into them ([`interchange`]). Each entry function gets an adapter
//! with the signature of [`crate::signature`] ([`entry`]), which the rest
//! of the generated module (the batch glue, `PROGRAM`, libraries) calls.

pub mod decls;
pub mod entry;
pub mod exps;
pub mod function;
pub mod interchange;
pub mod names;
pub mod par;
pub mod ranges;
pub mod stms;

use ir::Span;

use crate::imp;

/// The lints the emitted functions allow beyond the module's own.
pub const ALLOWS: &str = "#![allow(unused_assignments, unused_braces)]\n";

/// The `use` lines the emitted functions need.
pub const IMPORTS: &str = "use fut_runtime_multicore::mem::*;\n";

/// The Rust functions of `prog` lowered to the imperative IR, and the
/// adapters of its entry points; `safe`: keep the index bounds checks.
/// With `kernels` (a GPU backend), the program is lowered for a device
/// ([`imp::Options::device`]), the loops it extracts become kernel
/// launches, and the kernels' source comes with the functions. Errors
/// name what cannot be lowered or emitted.
pub fn functions(
    prog: &ir::Program,
    safe: bool,
    kernels: Option<&crate::Kernels>,
    locate: &dyn Fn(Span) -> String,
) -> Result<(String, Option<String>), String> {
    let options = imp::Options {
        device: kernels.is_some(),
    };
    let mut lowered = imp::lower_program_with(prog, options).map_err(|e| e.to_string())?;
    interchange::program(&mut lowered);
    let mut out = String::new();
    let mut source = None;
    if let Some(k) = kernels {
        let (items, src) = (k.extract)(&mut lowered, safe, locate)?;
        out.push_str(&items);
        source = Some(src);
    }
    for k in 0..lowered.functions.len() {
        let f = function::function(&lowered, k, safe, locate)
            .map_err(|e| format!("in function `{}`: {e}", lowered.functions[k].name))?;
        out.push_str(&f);
    }
    let mut done = std::collections::HashSet::new();
    for e in &prog.entries {
        if done.insert(e.fun) {
            out.push_str(&entry::adapter(prog, e.fun, &lowered)?);
            // A GPU library passes arrays between entry points as blocks.
            if kernels.is_some() {
                out.push_str(&entry::mem_adapter(prog, e.fun, &lowered)?);
            }
        }
    }
    Ok((out, source))
}

#[cfg(test)]
mod tests;
