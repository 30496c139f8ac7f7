//! The kernel program of a generated module: the `KERNELS` static that
//! host code launches from (the runtime's `KernelProgram`: the kernels'
//! source with its prelude, per kernel its name and assertions, and code
//! compiled ahead of time), and the code generation hooks of the OpenCL
//! and CUDA backends.
//!
//! The two backends differ in the runtime crate their modules name
//! (`fut_runtime_opencl`, `fut_runtime_cuda`), the kernel dialect, and
//! where the compiled code comes from: OpenCL programs are built by the
//! runtime (`binaries: &[]`); a CUDA module's `KERNELS` names
//! [`CUDA_BINARIES`], a static the driver appends to the module once it
//! has compiled the kernel source the hook returns ([`binaries_item`]).

use std::fmt::Write;

use imp::Program;
use ir::Span;

use crate::extract::{Extracted, extract};
use crate::kernel_c::{Target, kernel::helpers, prelude};

/// The code generation hook of the OpenCL backend.
pub const OPENCL: codegen::Kernels = codegen::Kernels {
    extract: extract_opencl,
    imports: "use fut_runtime_opencl::mem::*;\nuse fut_runtime_opencl::launch;\n",
    backend: "opencl",
};

/// The code generation hook of the CUDA backend. Its modules need the
/// [`CUDA_BINARIES`] static appended ([`binaries_item`]).
pub const CUDA: codegen::Kernels = codegen::Kernels {
    extract: extract_cuda,
    imports: "use fut_runtime_cuda::mem::*;\nuse fut_runtime_cuda::launch;\n",
    backend: "cuda",
};

/// The static of a CUDA module that holds the code compiled ahead of
/// time, which its `KERNELS` refers to.
pub const CUDA_BINARIES: &str = "KERNEL_BINARIES";

/// A GPU backend as module items see it.
struct Backend {
    target: Target,
    /// The runtime crate the items name.
    runtime: &'static str,
    /// The `binaries` field of `KERNELS`.
    binaries: &'static str,
}

const OPENCL_BACKEND: Backend = Backend {
    target: Target::OpenCl,
    runtime: "fut_runtime_opencl",
    binaries: "&[]",
};

const CUDA_BACKEND: Backend = Backend {
    target: Target::Cuda,
    runtime: "fut_runtime_cuda",
    binaries: CUDA_BINARIES,
};

fn extract_opencl(
    prog: &mut Program,
    safe: bool,
    locate: &dyn Fn(Span) -> String,
) -> Result<(String, String), String> {
    extract_for(&OPENCL_BACKEND, prog, safe, locate)
}

fn extract_cuda(
    prog: &mut Program,
    safe: bool,
    locate: &dyn Fn(Span) -> String,
) -> Result<(String, String), String> {
    extract_for(&CUDA_BACKEND, prog, safe, locate)
}

/// The module items of `prog`'s kernels, and their source (empty when
/// there are no kernels: nothing to compile).
fn extract_for(
    backend: &Backend,
    prog: &mut Program,
    safe: bool,
    locate: &dyn Fn(Span) -> String,
) -> Result<(String, String), String> {
    let ex = extract(prog, backend.target, safe);
    let source = if ex.kernels.is_empty() {
        String::new()
    } else {
        kernel_source(&ex, backend.target)
    };
    Ok((items(&ex, backend, locate), source))
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
fn items(ex: &Extracted, backend: &Backend, locate: &dyn Fn(Span) -> String) -> String {
    let rt = backend.runtime;
    let mut kernels = Vec::new();
    for k in &ex.kernels {
        let asserts: Vec<String> = k
            .asserts
            .iter()
            .map(|a| {
                let args: Vec<String> = a.args.iter().map(|t| format!("{:?}", t.name())).collect();
                format!(
                    "{rt}::AssertInfo {{ msg: {:?}, span: ({}, {}, {}), args: &[{}] }}",
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
            "{rt}::KernelInfo {{ name: {:?}, label: {label:?}, group: {}, asserts: &[{}] }}",
            k.name,
            k.group,
            asserts.join(", ")
        ));
    }
    let mut out = String::new();
    writeln!(
        out,
        "/// The program's kernels ({} of them).\npub static KERNELS: {rt}::KernelProgram = {rt}::KernelProgram {{ source: {:?}, kernels: &[{}], binaries: {}, thresholds: &[{}] }};\n",
        ex.kernels.len(),
        kernel_source(ex, backend.target),
        kernels.join(", "),
        backend.binaries,
        ex.thresholds
            .iter()
            .map(|(n, d)| format!("({n:?}, {d})"))
            .collect::<Vec<_>>()
            .join(", "),
    )
    .ok();
    out
}

/// The [`CUDA_BINARIES`] static of a CUDA module: per compiled
/// architecture (`sm_XY`: a cubin, `compute_XY`: PTX) its code, as a byte
/// string literal (so the module's text, and with it the hash of its
/// crate, changes with the code).
pub fn binaries_item(binaries: &[(String, Vec<u8>)]) -> String {
    let mut out = format!(
        "/// The kernels compiled ahead of time ({}).\nstatic {CUDA_BINARIES}: &[fut_runtime_cuda::Binary] = &[",
        if binaries.is_empty() {
            "none".to_string()
        } else {
            binaries
                .iter()
                .map(|(a, c)| format!("{a}: {} bytes", c.len()))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    for (arch, code) in binaries {
        write!(
            out,
            "\nfut_runtime_cuda::Binary {{ arch: {arch:?}, code: {} }},",
            byte_string(code)
        )
        .ok();
    }
    out.push_str("\n];\n");
    out
}

/// `bytes` as a Rust byte string literal: printable ASCII as itself, the
/// rest escaped.
pub fn byte_string(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() + bytes.len() / 2 + 3);
    s.push_str("b\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            0 => s.push_str("\\0"),
            0x20..=0x7e => s.push(char::from(b)),
            _ => {
                write!(s, "\\x{b:02x}").ok();
            }
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes of a byte string literal `lit` (the escapes
    /// [`byte_string`] writes).
    fn unescape(lit: &str) -> Vec<u8> {
        let body = lit.strip_prefix("b\"").and_then(|l| l.strip_suffix('"'));
        let body = body.expect("a byte string literal").as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < body.len() {
            if body[i] != b'\\' {
                out.push(body[i]);
                i += 1;
                continue;
            }
            let (b, n) = match body[i + 1] {
                b'n' => (b'\n', 2),
                b't' => (b'\t', 2),
                b'r' => (b'\r', 2),
                b'0' => (0, 2),
                b'x' => {
                    let hex = std::str::from_utf8(&body[i + 2..i + 4]).unwrap();
                    (u8::from_str_radix(hex, 16).unwrap(), 4)
                }
                c => (c, 2),
            };
            out.push(b);
            i += n;
        }
        out
    }

    #[test]
    fn byte_strings_round_trip() {
        let all: Vec<u8> = (0..=255u8).chain(*b"\x7fELF\"\\ .target sm_80\n").collect();
        let lit = byte_string(&all);
        assert!(lit.is_ascii() && !lit.contains('\n'), "{lit}");
        assert_eq!(unescape(&lit), all);
        assert_eq!(byte_string(b"a\"b"), r#"b"a\"b""#);
    }

    #[test]
    fn the_binaries_static_lists_each_architecture() {
        let item = binaries_item(&[
            ("sm_90".into(), b"\x7fELF\x02".to_vec()),
            ("compute_80".into(), b".target sm_80\n".to_vec()),
        ]);
        assert!(
            item.contains("static KERNEL_BINARIES: &[fut_runtime_cuda::Binary] = &["),
            "{item}"
        );
        assert!(
            item.contains(r#"fut_runtime_cuda::Binary { arch: "sm_90", code: b"\x7fELF\x02" },"#),
            "{item}"
        );
        assert!(
            item.contains(r#"arch: "compute_80", code: b".target sm_80\n" }"#),
            "{item}"
        );
        assert!(binaries_item(&[]).contains("= &[\n];"));
    }
}
