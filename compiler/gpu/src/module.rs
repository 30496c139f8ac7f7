//! The kernel program of a generated module: the `KERNELS` static that
//! host code launches from (`fut_runtime_opencl::KernelProgram`: the
//! kernels' source with its prelude, and per kernel its name and
//! assertions), and the OpenCL backend's code generation hook.

use std::fmt::Write;

use imp::Program;
use ir::Span;

use crate::extract::{Extracted, extract};
use crate::kernel_c::{Target, kernel::helpers, prelude};

/// The code generation hook of the OpenCL backend.
pub const OPENCL: codegen::Kernels = codegen::Kernels {
    extract: extract_opencl,
    imports: "use fut_runtime_opencl::mem::*;\nuse fut_runtime_opencl::launch;\n",
};

fn extract_opencl(
    prog: &mut Program,
    safe: bool,
    locate: &dyn Fn(Span) -> String,
) -> Result<String, String> {
    let ex = extract(prog, Target::OpenCl, safe);
    Ok(items(&ex, Target::OpenCl, locate))
}

/// The whole kernel source of `ex` for `target`: the prelude, the
/// helpers, then every kernel.
pub fn kernel_source(ex: &Extracted, target: Target) -> String {
    let mut src = prelude::prelude(target);
    src.push_str(helpers(target));
    for k in &ex.kernels {
        src.push('\n');
        src.push_str(&k.source);
    }
    src
}

/// The module items of `ex`: `KERNELS`; `locate` names the kernels'
/// source statements in their profile labels.
fn items(ex: &Extracted, target: Target, locate: &dyn Fn(Span) -> String) -> String {
    let mut kernels = Vec::new();
    for k in &ex.kernels {
        let asserts: Vec<String> = k
            .asserts
            .iter()
            .map(|a| {
                let args: Vec<String> = a.args.iter().map(|t| format!("{:?}", t.name())).collect();
                format!(
                    "fut_runtime_opencl::AssertInfo {{ msg: {:?}, span: ({}, {}, {}), args: &[{}] }}",
                    a.msg,
                    a.span.file,
                    a.span.start,
                    a.span.end,
                    args.join(", ")
                )
            })
            .collect();
        let (op, span) = k.origin;
        let loc = if span.is_none() {
            String::new()
        } else {
            locate(span)
        };
        let label = if loc.is_empty() {
            format!("{op} ({})", k.name)
        } else {
            format!("{op} {loc} ({})", k.name)
        };
        kernels.push(format!(
            "fut_runtime_opencl::KernelInfo {{ name: {:?}, label: {label:?}, asserts: &[{}] }}",
            k.name,
            asserts.join(", ")
        ));
    }
    let mut out = String::new();
    writeln!(
        out,
        "/// The program's kernels ({} of them).\npub static KERNELS: fut_runtime_opencl::KernelProgram = fut_runtime_opencl::KernelProgram {{ source: {:?}, kernels: &[{}] }};\n",
        ex.kernels.len(),
        kernel_source(ex, target),
        kernels.join(", ")
    )
    .ok();
    out
}
