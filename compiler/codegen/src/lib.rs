//! Code generation: core IR to Rust source for the multicore backend.
//!
//! [`program_module`] turns an optimised, AD-expanded core IR program into
//! the source of one Rust module that uses the runtime crate
//! `fut_runtime_multicore` (arrays, memory blocks, scalar semantics,
//! parallel chunks) and the `values` crate. The module holds:
//!
//! - the program's functions: [`imp`] lowers the program to the
//!   imperative IR and [`imp_rust`] writes one Rust function per
//!   imperative function over memory blocks, plus an adapter per entry
//!   point with the signature of [`signature`];
//! - `BATCH`: each entry point as a function on the entry function's flat
//!   arguments (array sizes expanded), for the test runner's batch
//!   executable (`fut_runtime_multicore::batch`);
//! - with [`Options::standalone`], `PROGRAM`: the runtime's `Program`, whose
//!   entries take the external arguments and report failures with their
//!   source location, for `fut multicore`.
//!
//! Parallelism comes from the `flatten` crate's decisions: a SOAC it makes
//! a segmented operation becomes a parallel loop of the imperative IR,
//! run on chunks of its iteration space; everything nested inside runs as
//! sequential loops.

pub use imp;
pub mod imp_rust;
pub mod library;
pub mod opaque;
pub mod runtime_sources;
pub mod scalar;
pub mod signature;
pub mod sum_enums;

use std::collections::BTreeMap;
use std::fmt::Write;

use ir::{Exp, Program, Span, Type};

/// A code generation error: what cannot be compiled, and where.
pub type Error = String;

/// Code generation options.
#[derive(Clone, Debug)]
pub struct Options {
    /// Keep bounds checks (off: `--safe=false`; `#[unsafe]` statements
    /// turn them off locally).
    pub safe: bool,
    /// Also emit `PROGRAM` for a standalone executable.
    pub standalone: bool,
    /// The program's name, for messages of the executable.
    pub name: String,
    /// A GPU backend's kernels (none: the multicore backend).
    pub kernels: Option<Kernels>,
}

/// The kernel extraction of a GPU backend ([`Kernels::extract`]): the
/// module items it adds, and the whole source of the kernels (what a
/// backend compiling kernels ahead of time compiles).
pub type ExtractFn =
    fn(&mut imp::Program, bool, &dyn Fn(Span) -> String) -> Result<(String, String), String>;

/// A GPU backend's part of code generation, supplied by the crate that
/// knows kernels (`gpu`): the host code is the multicore emitter's Rust
/// over the GPU runtime's memory blocks, and the parallel loops `extract`
/// marks as kernels ([`imp::ParKind::Kernel`]) become launches.
#[derive(Clone, Copy)]
pub struct Kernels {
    /// Marks the parallel loops of the lowered program that run as
    /// kernels and returns the module items they need (the kernel
    /// program's source and its failure table) and the kernel source;
    /// `safe` keeps index bounds checks, `locate` names spans (the
    /// kernels' names in profiles).
    pub extract: ExtractFn,
    /// The `use` lines giving the emitted functions their memory blocks
    /// and the launch function.
    pub imports: &'static str,
    /// The backend's name (`opencl`, `cuda`): its runtime crate is
    /// `fut-runtime-NAME`, its command `fut NAME`.
    pub backend: &'static str,
}

impl std::fmt::Debug for Kernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernels")
            .field("imports", &self.imports)
            .field("backend", &self.backend)
            .finish()
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            safe: true,
            standalone: false,
            name: "program".into(),
            kernels: None,
        }
    }
}

/// The source of the Rust module for `prog`. `locate` turns a span into
/// the text of its location (`prog.fut:3:5-3:9`), used by the standalone
/// executable's messages. Errors name the construct that cannot be
/// compiled.
pub fn program_module(
    prog: &Program,
    opts: &Options,
    locate: &dyn Fn(Span) -> String,
) -> Result<String, Error> {
    program_module_with_kernels(prog, opts, locate).map(|(m, _)| m)
}

/// [`program_module`], and with [`Options::kernels`] the whole source of
/// the kernels that the module's kernel program holds (`None` for the
/// multicore backend).
pub fn program_module_with_kernels(
    prog: &Program,
    opts: &Options,
    locate: &dyn Fn(Span) -> String,
) -> Result<(String, Option<String>), Error> {
    let mut out = String::from(
        "#![allow(unused_imports, unused_mut, unused_variables, unused_parens, non_snake_case, clippy::all)]\n\
         use fut_runtime_multicore::arr::*;\n\
         use fut_runtime_multicore::scalar::*;\n\
         use fut_runtime_multicore::par;\n\
         use values::{Value, f16};\n\n",
    );
    out.insert_str(0, imp_rust::ALLOWS);
    out.push_str(opts.kernels.map_or(imp_rust::IMPORTS, |k| k.imports));
    let (functions, kernel_source) =
        imp_rust::functions(prog, opts.safe, opts.kernels.as_ref(), locate)?;
    out.push_str(&functions);
    let mut batch = Vec::new();
    for (k, e) in prog.entries.iter().enumerate() {
        let f = &prog.functions[e.fun];
        let name = format!("entry_{k}");
        writeln!(
            out,
            "pub fn {name}(args: Vec<Value>) -> R<Vec<Value>> {{\nlet mut it = args.into_iter();"
        )
        .ok();
        let mut args = Vec::new();
        for (j, p) in f.params.iter().enumerate() {
            let t = f
                .var_type(p.var)
                .ok_or("an entry parameter without a type")?;
            let conv = arg_conversion(t);
            writeln!(
                out,
                "let a{j} = at({conv}(next_arg(&mut it)?), (0, 0, 0))?;"
            )
            .ok();
            args.push(format!("a{j}"));
        }
        let rs: Vec<String> = (0..f.ret.len()).map(|j| format!("r{j}")).collect();
        let results: Vec<String> = f
            .ret
            .iter()
            .zip(&rs)
            .map(|(t, r)| {
                if t.is_scalar() {
                    format!("scalar_value({r})")
                } else {
                    format!("{r}.to_value()")
                }
            })
            .collect();
        writeln!(
            out,
            "let ({},) = {}({})?;\nOk(vec![{}])\n}}\n",
            rs.join(", "),
            signature::fun_name(e.fun),
            args.join(", "),
            results.join(", ")
        )
        .ok();
        // The results the caller gets: every component of each external
        // result (scalars and arrays, not the sizes before arrays).
        let rtypes: Vec<&Type> = f.ret.iter().collect();
        let keep: Vec<String> = match library::group_components(&e.results, &rtypes) {
            Some(groups) => groups.concat().iter().map(|c| c.to_string()).collect(),
            None => {
                let mut ri = 0usize;
                let mut keep = Vec::new();
                for ev in &e.results {
                    ri += ev.values as usize;
                    keep.push((ri.max(1) - 1).to_string());
                }
                keep
            }
        };
        writeln!(
            out,
            "pub fn ext_{k}(args: Vec<Value>) -> R<Vec<Value>> {{\nlet mut flat = Vec::new();\nfor a in args {{\nfor d in a.shape() {{ flat.push(Value::scalar(*d as i64)); }}\nflat.push(a);\n}}\nlet mut out = {name}(flat)?;\nlet keep: &[usize] = &[{}];\nlet mut res = Vec::new();\nfor &i in keep {{ if i < out.len() {{ res.push(std::mem::replace(&mut out[i], Value::scalar(false))); }} }}\nOk(res)\n}}\n",
            keep.join(", ")
        )
        .ok();
        batch.push(format!("({:?}, ext_{k})", e.name));
    }
    writeln!(
        out,
        "pub const BATCH: &[fut_runtime_multicore::batch::BatchEntry] = &[{}];\n",
        batch.join(", ")
    )
    .ok();
    if opts.standalone {
        standalone(prog, opts, locate, &mut out)?;
    }
    Ok((out, kernel_source))
}

fn arg_conversion(t: &Type) -> String {
    let e = scalar::rust_prim(t.elem);
    if t.is_scalar() {
        format!("scalar_arg::<{e}>")
    } else {
        format!("(|v| Arr::<{e}>::from_value(v, {}))", t.rank())
    }
}

/// `PROGRAM` and its entry wrappers: external arguments expanded into the
/// entry function's flat arguments, results collected, failures given
/// their location.
fn standalone(
    prog: &Program,
    opts: &Options,
    locate: &dyn Fn(Span) -> String,
    out: &mut String,
) -> Result<(), Error> {
    let mut spans = BTreeMap::new();
    for f in prog.functions.values() {
        collect_spans(&f.body, &mut spans, locate);
    }
    out.push_str("pub fn location(s: (u32, u32, u32)) -> &'static str {\nmatch s {\n");
    for ((f, s, e), text) in &spans {
        writeln!(out, "({f}, {s}, {e}) => {text:?},").ok();
    }
    out.push_str("_ => \"\",\n}\n}\n\n");
    let mut entries = Vec::new();
    let mut opaques = opaque::Opaques::default();
    for (k, e) in prog.entries.iter().enumerate() {
        let f = &prog.functions[e.fun];
        // Scalars and arrays are transparent; tuples, records and other
        // types are opaque values made of their components (`opaque`).
        let ptypes: Vec<&Type> = f.params.iter().filter_map(|p| f.var_type(p.var)).collect();
        let rtypes: Vec<&Type> = f.ret.iter().collect();
        let mut descs = |groups: &[ir::EntryValue], types: &[&Type]| {
            library::group_components(groups, types).map(|gs| {
                gs.iter()
                    .zip(groups)
                    .map(|(cs, g)| {
                        let comps: Vec<&Type> = cs.iter().map(|&c| types[c]).collect();
                        opaques.ext_type(&g.ty, g.unique, &comps)
                    })
                    .collect::<Vec<_>>()
            })
        };
        let supported_params = (ptypes.len() == f.params.len())
            .then(|| descs(&e.params, &ptypes))
            .flatten();
        let supported_results = descs(&e.results, &rtypes);
        let supported = supported_params.is_some() && supported_results.is_some();
        let params = supported_params.unwrap_or_default();
        let results = supported_results.unwrap_or_default();
        let body = if supported {
            format!(
                "ext_{k}(args).map_err(|f| {{ let l = location(f.span); fut_runtime_multicore::Error::new(if l.is_empty() {{ f.message }} else {{ format!(\"{{}}\\n  at {{}}\", f.message, l) }}) }})"
            )
        } else {
            "let _ = args;\nErr(fut_runtime_multicore::Error::new(\"this entry point's parameter or result types are not supported by multicore executables\"))".to_string()
        };
        writeln!(
            out,
            "fn run_{k}(_ctx: &fut_runtime_multicore::Context, args: Vec<Value>) -> Result<Vec<Value>, fut_runtime_multicore::Error> {{\nlet _profiling = _ctx.profiler().activate();\n{body}\n}}\n"
        )
        .ok();
        entries.push(format!(
            "fut_runtime_multicore::EntryPoint {{ name: {:?}, params: &[{}], results: &[{}], run: run_{k} }}",
            e.name,
            params.join(", "),
            results.join(", ")
        ));
    }
    out.push_str(&opaques.decls);
    writeln!(
        out,
        "pub static PROGRAM: fut_runtime_multicore::Program = fut_runtime_multicore::Program {{ name: {:?}, entries: &[{}] }};",
        opts.name,
        entries.join(", ")
    )
    .ok();
    Ok(())
}

fn collect_spans(
    b: &ir::Body,
    out: &mut BTreeMap<(u32, u32, u32), String>,
    locate: &dyn Fn(Span) -> String,
) {
    for s in &b.stms {
        if !s.span.is_none() {
            out.entry((s.span.file, s.span.start, s.span.end))
                .or_insert_with(|| locate(s.span));
        }
        for (_, nb) in ir::uses::nested_bodies(&s.exp) {
            collect_spans(nb, out, locate);
        }
        if let Exp::Screma(sc) = &s.exp {
            for op in sc.scans.iter().chain(&sc.reduces) {
                collect_spans(&op.op.body, out, locate);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "fun main(n: i64, xs: [n]f64) -> (f64, i64, [n]f64) {
  let s: f64 = screma(n, xs)
    reduce(\\(a: f64, b: f64) -> (f64) {
      let c: f64 = add(a, b)
      in (c)
    }, 0.0f64)
    map(\\(x: f64) -> (f64) {
      let y: f64 = mul(x, x)
      in (y)
    })
  let i: f64 = xs[3i64]
  let ys: [n]f64 = copy(xs)
  let zs: [n]f64 = ys with [0i64] = i
  in (s, n, zs)
}
entry \"main\" = main(\"[]f64\": 2) -> (\"f64\": 1, \"[]f64\": 2)
";

    #[test]
    fn batch_glue_and_standalone_program() {
        let prog = ir::parse::parse_program(SRC).unwrap_or_else(|e| panic!("{e}"));
        let m = program_module(&prog, &Options::default(), &|_| String::new())
            .unwrap_or_else(|e| panic!("{e}"));
        // The entry function is called by its batch glue, which the
        // batch table names.
        assert!(m.contains("pub fn f0("), "{m}");
        assert!(m.contains("pub fn entry_0(args: Vec<Value>)"), "{m}");
        assert!(m.contains("f0(a0, a1)?"), "{m}");
        assert!(m.contains("(\"main\", ext_0)"), "{m}");
        // The external results are the scalar and the array, not the size.
        assert!(m.contains("let keep: &[usize] = &[0, 2];"), "{m}");
        assert!(!m.contains("PROGRAM"), "{m}");
        let standalone = Options {
            standalone: true,
            name: "p".into(),
            ..Options::default()
        };
        let m = program_module(&prog, &standalone, &|_| "p.fut:1:1-1:2".into())
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(m.contains("pub static PROGRAM"), "{m}");
        // Its entry takes an array and gives a scalar and an array, and
        // reports failures with their location.
        let desc = |rank: usize| {
            format!(
                "fut_runtime_multicore::ExtType::Value(fut_runtime_multicore::TypeDesc {{ rank: {rank}, elem: values::PrimType::F64, unique: false }})"
            )
        };
        assert!(m.contains(&format!("params: &[{}]", desc(1))), "{m}");
        let results = format!("results: &[{}, {}]", desc(0), desc(1));
        assert!(m.contains(&results), "{m}");
        assert!(m.contains("ext_0(args).map_err("), "{m}");
        assert!(m.contains("pub fn location("), "{m}");
    }
}
