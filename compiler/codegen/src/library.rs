//! Library crates (`fut multicore --library`): the typed Rust API of a
//! program's entry points.
//!
//! An entry point's external parameters and results each cover one or more
//! consecutive values of the entry function: [`components`] finds, in such a
//! group, the values a caller gives or gets (scalars and arrays), leaving
//! out the sizes that precede each array. A group of one component is a
//! scalar or an `Array<T, D>` in the API; a tuple is a Rust tuple of its
//! components (nested tuples flattened); a record of scalars and arrays is
//! a generated struct `RecordN` with one public field per record field, in
//! the order of the field names; a sum type whose payloads are scalars and
//! arrays is a generated enum `SumN` with one variant per constructor (its
//! components are the variant's number and then every variant's payload, the
//! variants not held given blank values), an array of sums nested `Vec`s of
//! it, and a tuple or record holding sums the Rust tuple or struct with the
//! enums (or their `Vec`s) in their places.
//!
//! [`library`] writes the crate's `src/lib.rs` (the `Context`, the record
//! structs, the sum enums, re-exports of the runtime's typed arrays and errors),
//! `src/program.rs` (the program module with, appended, one method of
//! `Context` per entry point calling the entry function directly on the
//! arrays' shared buffers) and a `README.md` with an example.

mod shapes;

use std::fmt::Write;

use ir::{EntryValue, Program, Span, Type};

use shapes::{Ext, Records, Shape};

use crate::sum_enums::{self, SumEnum};
use crate::{Error, Options, scalar, signature};

/// The components of a group of entry-function values with these types:
/// their indices in `types`, or `None` when the group is not a sequence of
/// scalars and arrays each preceded by its sizes.
pub fn components(types: &[&Type]) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let mut j = types.len();
    while j > 0 {
        let t = types[j - 1];
        if t.acc {
            return None;
        }
        let r = t.rank();
        if j < r + 1 {
            return None;
        }
        if !types[j - 1 - r..j - 1]
            .iter()
            .all(|s| s.is_prim(values::PrimType::I64))
        {
            return None;
        }
        out.push(j - 1);
        j -= r + 1;
    }
    out.reverse();
    Some(out)
}

/// The components of each external value in `groups`, as indices into
/// `types` (all of the entry function's parameters or results).
pub fn group_components(groups: &[EntryValue], types: &[&Type]) -> Option<Vec<Vec<usize>>> {
    let mut out = Vec::new();
    let mut at = 0usize;
    for g in groups {
        let n = g.values as usize;
        let part = types.get(at..at + n)?;
        let comps = components(part)?;
        if comps.is_empty() {
            return None;
        }
        out.push(comps.into_iter().map(|c| c + at).collect());
        at += n;
    }
    (at == types.len()).then_some(out)
}

/// The files of a library crate.
#[derive(Clone, Debug)]
pub struct Library {
    /// `src/lib.rs`.
    pub lib_rs: String,
    /// `src/program.rs`.
    pub program_rs: String,
    /// `README.md`.
    pub readme: String,
    /// A GPU backend's kernel source (what `program_rs`'s kernel program
    /// holds; the CUDA backend compiles it ahead of time).
    pub kernels: Option<String>,
}

/// Rust's keywords (strict and reserved) and the names a crate cannot use.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// Names of `Context`'s own functions, which entry methods must not take.
const CONTEXT_NAMES: &[&str] = &["new", "with_threads", "num_threads", "inner"];

/// A Rust identifier for a Futhark name: `'` becomes `_q`, keywords are
/// raw identifiers (`r#match`), and the few that cannot be raw get `_`
/// appended.
pub fn rust_ident(name: &str) -> String {
    let s = name.replace('\'', "_q");
    if ["self", "Self", "super", "crate"].contains(&s.as_str()) {
        format!("{s}_")
    } else if KEYWORDS.contains(&s.as_str()) {
        format!("r#{s}")
    } else {
        s
    }
}

/// A valid package and crate name for a program called `stem`: lower-case
/// letters, digits and `_`, not starting with a digit, not a keyword or
/// the name of a standard crate.
pub fn crate_name(stem: &str) -> String {
    let mut s: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    s = s.trim_matches('_').to_string();
    if s.is_empty() {
        s = "program".into();
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("fut_{s}");
    }
    if KEYWORDS.contains(&s.as_str())
        || [
            "std",
            "core",
            "alloc",
            "proc_macro",
            "test",
            "build",
            "values",
            "rayon",
            "libm",
        ]
        .contains(&s.as_str())
    {
        s.push_str("_fut");
    }
    s
}

/// The API type of one component.
pub(crate) fn api_type(t: &Type) -> String {
    let e = scalar::rust_prim(t.elem);
    if t.is_scalar() {
        e.to_string()
    } else {
        format!("Array<{e}, {}>", t.rank())
    }
}

/// A Rust enum variant name for a Futhark constructor name: `circle` is
/// `Circle`, `big_box` is `BigBox`, a `'` is `Q`.
pub(crate) fn variant_ident(name: &str) -> String {
    let mut out = String::new();
    for part in name
        .replace('\'', "_q")
        .split('_')
        .filter(|p| !p.is_empty())
    {
        let mut cs = part.chars();
        if let Some(c) = cs.next() {
            out.extend(c.to_uppercase());
            out.push_str(cs.as_str());
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) || out == "Self" {
        out.insert(0, 'V');
    }
    out
}

/// The conversion of a method's arguments into the entry function's
/// values: the statements binding `x{k}`, … and the call's arguments (the
/// values, each array preceded by its sizes).
struct Args<'a> {
    /// The method's code so far.
    m: String,
    /// The entry function's arguments.
    flat: Vec<String>,
    /// The number of the next `x{k}`.
    k: usize,
    /// The entry point's name, for errors.
    entry: &'a str,
    /// The types of the entry function's parameters.
    types: &'a [&'a Type],
    /// A GPU runtime crate whose blocks the arrays are passed as
    /// (`fm{k}`: they stay on the device between entry points).
    device: Option<&'a str>,
}

impl Args<'_> {
    /// The scalar or array `part`, component `c`; a consumed array is moved.
    fn value(&mut self, part: &str, c: usize, consume: bool) {
        let (k, t) = (self.k, self.types[c]);
        if t.is_scalar() {
            writeln!(self.m, "        let x{k} = {part};").ok();
        } else if let Some(rt) = self.device {
            let e = scalar::rust_prim(t.elem);
            // A consumed array is moved into the method, so its block is
            // the entry's to update when nothing else shares it.
            writeln!(
                self.m,
                "        let x{k} = {rt}::mem::array_arg::<{e}, {}>(&{part}, {consume});",
                t.rank()
            )
            .ok();
            for d in 0..t.rank() {
                self.flat.push(format!("x{k}.1[{d}]"));
            }
        } else {
            let conv = if consume { "into_arr" } else { "to_arr" };
            writeln!(self.m, "        let x{k} = {part}.{conv}();").ok();
            for d in 0..t.rank() {
                self.flat.push(format!("x{k}.dim({d})"));
            }
        }
        self.flat.push(format!("x{k}"));
        self.k += 1;
    }

    /// The sum of enum `e` (a reference to it when `rank` is 0, else a
    /// slice or `Vec` of rows of that rank) with components `comps`.
    fn sum(&mut self, arg: &str, e: &SumEnum, rank: usize, comps: &[usize]) {
        sum_enums::argument(
            &mut self.m,
            arg,
            self.entry,
            e,
            rank,
            comps,
            self.types,
            self.k,
        );
        for &c in comps {
            let k = self.k;
            for d in 0..self.types[c].rank() {
                self.flat.push(format!("x{k}.dim({d})"));
            }
            self.flat.push(format!("x{k}"));
            self.k += 1;
        }
    }
}

/// An entry point as the API sees it.
struct Api {
    name: String,
    method: String,
    params: Vec<Ext>,
    signature: String,
}

/// The library crate of `prog`, called `krate`, compiled from the source
/// file `source` (for the documentation). `opts.standalone` is implied.
pub fn library(
    prog: &Program,
    opts: &Options,
    locate: &dyn Fn(Span) -> String,
    krate: &str,
    source: &str,
) -> Result<Library, Error> {
    let opts = Options {
        standalone: true,
        ..opts.clone()
    };
    let (mut program_rs, kernels) = crate::program_module_with_kernels(prog, &opts, locate)?;
    let backend = opts.kernels.map(|k| k.backend);
    let mut records = Records::default();
    let mut apis = Vec::new();
    let mut used = std::collections::HashSet::new();
    for e in &prog.entries {
        let f = &prog.functions[e.fun];
        let ptypes: Vec<&Type> = f
            .params
            .iter()
            .map(|p| f.var_type(p.var).ok_or("an entry parameter without a type"))
            .collect::<Result<_, _>>()?;
        let rtypes: Vec<&Type> = f.ret.iter().collect();
        let unsupported = || {
            format!(
                "entry point `{}`: its parameter or result types cannot be given a typed API",
                e.name
            )
        };
        let pgroups = group_components(&e.params, &ptypes).ok_or_else(unsupported)?;
        let rgroups = group_components(&e.results, &rtypes).ok_or_else(unsupported)?;
        // Sums are enums, alone, in arrays, and in tuples and records (and
        // arrays of those); a sum whose payload holds a tuple, record or
        // array of sums has no typed API (the executable's server handles
        // them).
        let mut ext = |what: &str, vs: &[EntryValue], groups: Vec<Vec<usize>>, types: &[&Type]| {
            vs.iter()
                .zip(groups)
                .map(|(v, comps)| {
                    let shape = records.shape(&v.ty, &comps, types).ok_or_else(|| {
                        let (name, structure) = crate::opaque::name_and_structure(&v.ty);
                        if !structure.contains('#') {
                            return unsupported();
                        }
                        let ty = if name == structure {
                            name
                        } else {
                            format!("{name} ({structure})")
                        };
                        format!(
                            "entry point `{}` has {what} of type {ty}, which holds a sum type that library crates cannot take: they take sums, arrays of sums, and tuples and records of these, scalars and arrays (arrays of such tuples and records only as results), where payloads are scalars, arrays of primitives and such sums, not tuples, records or arrays of sums (the executables' server takes them all: `fut multicore`)",
                            e.name
                        )
                    })?;
                    Ok(Ext {
                        unique: v.unique,
                        shape,
                        comps,
                    })
                })
                .collect::<Result<Vec<_>, Error>>()
        };
        let params = ext("a parameter", &e.params, pgroups, &ptypes)?;
        let results = ext("a result", &e.results, rgroups, &rtypes)?;
        let mut method = rust_ident(&e.name);
        if CONTEXT_NAMES.contains(&method.as_str()) {
            method.push('_');
        }
        while !used.insert(method.clone()) {
            method.push('_');
        }
        let mut sig: Vec<String> = e
            .params
            .iter()
            .map(|p| {
                let name = crate::opaque::name_and_structure(&p.ty).0;
                format!("{}{name}", if p.unique { "*" } else { "" })
            })
            .collect();
        let sig_results: Vec<String> = e
            .results
            .iter()
            .map(|r| crate::opaque::name_and_structure(&r.ty).0)
            .collect();
        sig.push(if sig_results.len() == 1 {
            sig_results[0].clone()
        } else {
            format!("({})", sig_results.join(", "))
        });
        let signature = format!("{}: {}", e.name, sig.join(" -> "));
        // The method: arguments to flat values, the call, results back.
        let mut m = String::new();
        let arg_types: Vec<String> = params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let t = p.api_type(&ptypes);
                match &p.shape {
                    Shape::Single if ptypes[p.comps[0]].is_scalar() || p.unique => {
                        format!("a{i}: {t}")
                    }
                    Shape::SumArray(e, rank) => {
                        format!("a{i}: {}", sum_enums::slice_type(&e.name, *rank))
                    }
                    _ => format!("a{i}: &{t}"),
                }
            })
            .collect();
        let out_types: Vec<String> = results.iter().map(|r| r.api_type(&rtypes)).collect();
        let out_type = if out_types.len() == 1 {
            out_types[0].clone()
        } else {
            format!("({})", out_types.join(", "))
        };
        writeln!(
            m,
            "    /// Runs entry point `{}` of `{source}`:\n    ///\n    /// ```text\n    /// {signature}\n    /// ```\n    ///\n    /// A run-time error of the program (an index out of bounds, a failed\n    /// assertion, sizes that do not match) is an `Err` naming its source\n    /// location.\n    pub fn {method}(&self{}{}) -> Result<{out_type}, Error> {{",
            e.name,
            if arg_types.is_empty() { "" } else { ", " },
            arg_types.join(", ")
        )
        .ok();
        // On a GPU backend, an entry point of scalars and arrays (alone,
        // in tuples and in records) passes its arrays as device blocks.
        let plain = |x: &Ext| matches!(x.shape, Shape::Single | Shape::Tuple | Shape::Record(..));
        let runtime = backend.map(|b| format!("fut_runtime_{b}"));
        let device = runtime
            .as_deref()
            .filter(|_| params.iter().chain(&results).all(plain));
        let mut args = Args {
            m,
            flat: Vec::new(),
            k: 0,
            entry: &e.name,
            types: &ptypes,
            device,
        };
        for (i, p) in params.iter().enumerate() {
            let a = format!("a{i}");
            match &p.shape {
                Shape::Sum(en) => args.sum(&a, en, 0, &p.comps),
                Shape::SumArray(en, rank) => args.sum(&a, en, *rank, &p.comps),
                Shape::WithSums(_, parts) => {
                    for (v, part) in p.parts(&a).iter().zip(parts) {
                        match &part.sum {
                            None => args.value(v, part.comps[0], false),
                            Some((en, 0)) => args.sum(&format!("&{v}"), en, 0, &part.comps),
                            Some((en, rank)) => args.sum(v, en, *rank, &part.comps),
                        }
                    }
                }
                Shape::Single | Shape::Tuple | Shape::Record(..) => {
                    // A consumed array is moved in, so the entry may update it
                    // in place; others share their buffer.
                    let consume = p.unique && matches!(p.shape, Shape::Single);
                    for (part, &c) in p.parts(&a).iter().zip(&p.comps) {
                        args.value(part, c, consume);
                    }
                }
            }
        }
        let Args { mut m, flat, .. } = args;
        let rs: Vec<String> = (0..rtypes.len()).map(|j| format!("r{j}")).collect();
        writeln!(
            m,
            "        let {} = fut_runtime_multicore::typed::call(&self.inner, {:?}, location, move || {}({}))?;",
            if rs.is_empty() {
                "()".to_string()
            } else {
                format!("({},)", rs.join(", "))
            },
            e.name,
            if device.is_some() {
                format!("fm{}", &signature::fun_name(e.fun)[1..])
            } else {
                signature::fun_name(e.fun)
            },
            flat.join(", ")
        )
        .ok();
        let value = |c: usize| {
            if rtypes[c].is_scalar() {
                format!("r{c}")
            } else if let Some(rt) = device {
                format!(
                    "{rt}::mem::array_result::<{}, {}>(r{c})",
                    scalar::rust_prim(rtypes[c].elem),
                    rtypes[c].rank()
                )
            } else {
                format!("Array::from_arr(r{c})")
            }
        };
        let outs: Vec<String> = results
            .iter()
            .map(|r| match &r.shape {
                Shape::Single => value(r.comps[0]),
                Shape::Tuple => format!(
                    "({})",
                    r.comps
                        .iter()
                        .map(|&c| value(c))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Shape::Record(name, fields) => format!(
                    "{name} {{ {} }}",
                    fields
                        .iter()
                        .zip(&r.comps)
                        .map(|(f, &c)| format!("{}: {}", rust_ident(f), value(c)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Shape::SumArray(en, rank) => {
                    sum_enums::result(en, *rank, &r.comps, &rtypes, &e.name)
                }
                Shape::Sum(en) => sum_enums::result(en, 0, &r.comps, &rtypes, &e.name),
                Shape::WithSums(record, parts) => {
                    let values: Vec<String> = parts
                        .iter()
                        .map(|p| match &p.sum {
                            None => value(p.comps[0]),
                            Some((en, rank)) => {
                                sum_enums::result(en, *rank, &p.comps, &rtypes, &e.name)
                            }
                        })
                        .collect();
                    match record {
                        Some((name, fields)) => format!(
                            "{name} {{ {} }}",
                            fields
                                .iter()
                                .zip(&values)
                                .map(|(f, v)| format!("{}: {v}", rust_ident(f)))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        None => format!("({})", values.join(", ")),
                    }
                }
            })
            .collect();
        let out = if outs.len() == 1 {
            outs[0].clone()
        } else {
            format!("({})", outs.join(", "))
        };
        writeln!(m, "        Ok({out})\n    }}\n").ok();
        apis.push((
            Api {
                name: e.name.clone(),
                method,
                params,
                signature,
            },
            m,
        ));
    }
    program_rs.push_str(
        "\n// The typed API: one method of `Context` per entry point.\n#[allow(unused_imports)]\nuse crate::{Array, Error};\n#[allow(unused_imports)]\nuse crate::*;\n\nimpl crate::Context {\n",
    );
    for (_, m) in &apis {
        program_rs.push_str(m);
    }
    program_rs.push_str("}\n");
    if apis
        .iter()
        .any(|(_, m)| m.contains(&format!("{}(", sum_enums::PAYLOAD_ROWS)))
    {
        program_rs.push('\n');
        program_rs.push_str(&sum_enums::payload_rows_fn());
    }
    let decls = format!("{}{}", records.decls, records.sums.decls);
    let lib_rs = lib_rs(krate, source, &apis, &decls, backend);
    let readme = readme(krate, source, &apis, prog, backend);
    Ok(Library {
        kernels,
        lib_rs,
        program_rs,
        readme,
    })
}

fn lib_rs(
    krate: &str,
    source: &str,
    apis: &[(Api, String)],
    records: &str,
    backend: Option<&str>,
) -> String {
    let command = backend.unwrap_or("multicore");
    let what = match backend {
        None => "a pool of worker threads",
        Some(_) => "a pool of worker threads for host code, and the device",
    };
    let mut out = format!(
        "//! `{krate}`: the entry points of `{source}`, compiled by `fut {command} --library`.\n//!\n\
         //! Create a [`Context`] ({what}),\n\
         //! build arrays with [`Array::from_vec`], and call the entry points as\n\
         //! methods of the context. Each returns `Result<_, Error>`.\n//!\n//! Entry points:\n//!\n"
    );
    for (a, _) in apis {
        writeln!(out, "//! - [`Context::{}`]: `{}`", a.method, a.signature).ok();
    }
    out.push_str(
        "\n#[allow(dead_code, clippy::all)]\nmod program;\n\n\
         pub use fut_runtime_multicore::Error;\n\
         pub use fut_runtime_multicore::typed::{Array, Element};\n\
         pub use values::f16;\n\n",
    );
    match backend {
        None => out.push_str(
            "/// What entry points run in: a pool of worker threads.\n\
             pub struct Context {\n    inner: fut_runtime_multicore::Context,\n}\n\n\
             impl Context {\n\
             \x20   /// A context with one worker thread per core.\n\
             \x20   pub fn new() -> Result<Context, Error> {\n\
             \x20       Ok(Context { inner: fut_runtime_multicore::Context::new(None, false)? })\n    }\n\n\
             \x20   /// A context with `n` worker threads (at least 1).\n\
             \x20   pub fn with_threads(n: usize) -> Result<Context, Error> {\n\
             \x20       Ok(Context { inner: fut_runtime_multicore::Context::new(Some(n), false)? })\n    }\n\n",
        ),
        Some(api) => {
            let env = format!("FUT_{}_DEVICE", api.to_uppercase());
            write!(
                out,
                "/// What entry points run in: a pool of worker threads for host code, and\n\
                 /// the device their kernels run on. The device is chosen once per\n\
                 /// process, by the first context: later ones share it.\n\
                 pub struct Context {{\n    inner: fut_runtime_multicore::Context,\n}}\n\n\
                 impl Context {{\n\
                 \x20   /// A context with one worker thread per core, on the device that\n\
                 \x20   /// `{env}` names, else the default one. An `Err` when there is\n\
                 \x20   /// no driver or no device.\n\
                 \x20   pub fn new() -> Result<Context, Error> {{\n\
                 \x20       Context::open(None, None)\n    }}\n\n\
                 \x20   /// A context with `n` worker threads (at least 1) for host code.\n\
                 \x20   pub fn with_threads(n: usize) -> Result<Context, Error> {{\n\
                 \x20       Context::open(Some(n), None)\n    }}\n\n\
                 \x20   /// A context on the device whose name (or `PLATFORM: NAME`)\n\
                 \x20   /// contains `name`, ignoring case, as `--device` chooses it for\n\
                 \x20   /// executables. It has no effect once a context exists.\n\
                 \x20   pub fn with_device(name: &str) -> Result<Context, Error> {{\n\
                 \x20       Context::open(None, Some(name))\n    }}\n\n\
                 \x20   /// The devices there are, one line each, or why there is none.\n\
                 \x20   pub fn list_devices() -> Result<String, Error> {{\n\
                 \x20       fut_runtime_{api}::list_devices().map_err(Error::new)\n    }}\n\n\
                 \x20   /// How many arrays this process copied from the host to the\n\
                 \x20   /// device, and from the device to the host, so far. An entry's\n\
                 \x20   /// array result stays on the device until its elements are read,\n\
                 \x20   /// and passing it to another entry copies nothing.\n\
                 \x20   pub fn transfers(&self) -> (u64, u64) {{\n\
                 \x20       fut_runtime_{api}::mem::transfers()\n    }}\n\n\
                 \x20   /// The program's tuning parameters: name and class each, as\n\
                 \x20   /// `--print-params` lists them for executables.\n\
                 \x20   pub fn tuning_params() -> Vec<(String, &'static str)> {{\n\
                 \x20       fut_runtime_gpu::params::params(&program::KERNELS)\n    }}\n\n\
                 \x20   /// Sets tuning parameter `name` to `value` (a positive integer),\n\
                 \x20   /// as `--param NAME=VALUE` does for executables, for every context\n\
                 \x20   /// of the process. Group sizes take effect only before the first\n\
                 \x20   /// call. An `Err` for an unknown name or a value of 0.\n\
                 \x20   pub fn set_tuning_param(&self, name: &str, value: u64) -> Result<(), Error> {{\n\
                 \x20       fut_runtime_gpu::params::VALUES\n\
                 \x20           .set(&program::KERNELS, name, &value.to_string())\n\
                 \x20           .map_err(Error::new)\n    }}\n\n\
                 \x20   fn open(threads: Option<usize>, device: Option<&str>) -> Result<Context, Error> {{\n\
                 \x20       if let Some(name) = device {{\n\
                 \x20           fut_runtime_{api}::set_device_choice(Some(name.to_string()));\n        }}\n\
                 \x20       fut_runtime_{api}::ensure_device().map_err(Error::new)?;\n\
                 \x20       Ok(Context {{ inner: fut_runtime_multicore::Context::new(threads, false)? }})\n    }}\n\n"
            )
            .ok();
        }
    }
    out.push_str(
        "\x20   /// The number of worker threads.\n\
         \x20   pub fn num_threads(&self) -> usize {\n        self.inner.num_threads()\n    }\n}\n\n",
    );
    out.push_str(records);
    out
}

/// A sample argument of this API type, for the README's example.
fn sample(t: &Type) -> String {
    let one = match t.elem {
        values::PrimType::Bool => "true".to_string(),
        values::PrimType::F16 => "f16::from_f32(1.0)".to_string(),
        p => format!("1{}", scalar::rust_prim(p)),
    };
    if t.is_scalar() {
        one
    } else {
        let shape = vec!["2"; t.rank()].join(", ");
        let n = 1usize << t.rank();
        format!("&Array::from_vec(vec![{one}; {n}], [{shape}])?")
    }
}

/// As [`sample`], but an array is empty (no rows, the other sizes 2).
fn sample_empty(t: &Type) -> String {
    if t.is_scalar() {
        return sample(t);
    }
    let shape: Vec<&str> = (0..t.rank())
        .map(|k| if k == 0 { "0" } else { "2" })
        .collect();
    format!("&Array::from_vec(Vec::new(), [{}])?", shape.join(", "))
}

/// A sample value of enum `e` of crate `krate`, from sample values of its
/// components (after the variant's number): the first variant whose payload
/// holds no sum, or the first variant with its payload elided.
fn sum_sample(krate: &str, e: &SumEnum, parts: &[String]) -> String {
    let mut at = 1;
    for v in &e.variants {
        let n = v.payload.len();
        let values: Vec<String> = parts
            .get(at..at + n)
            .unwrap_or_default()
            .iter()
            .map(|s| s.replace('&', ""))
            .collect();
        if let Some(sample) = v.sample(&format!("{krate}::{}", e.name), &values) {
            return sample;
        }
        at += v
            .payload
            .iter()
            .map(|p| match p {
                sum_enums::Payload::Value => 1,
                sum_enums::Payload::Sum(s) => s.components(),
            })
            .sum::<usize>();
    }
    format!("{krate}::{}::{}(/* … */)", e.name, e.variants[0].rust)
}

fn readme(
    krate: &str,
    source: &str,
    apis: &[(Api, String)],
    prog: &Program,
    backend: Option<&str>,
) -> String {
    let how = match backend {
        None => "`fut multicore --library`. It runs them in parallel on all cores, with the\n\
                 runtime of `fut`'s multicore backend (vendored under `runtime/`, so the crate\n\
                 builds on its own)."
            .to_string(),
        Some(api) => format!(
            "`fut {api} --library`. Their parallel work runs as {} kernels on a\n\
             device, the rest on all cores, with the runtime of `fut`'s {api} backend\n\
             (vendored under `runtime/`, so the crate builds on its own). An entry's\n\
             array result stays on the device until the program reads its elements,\n\
             and passing it to another entry copies nothing.",
            if api == "cuda" { "CUDA" } else { "OpenCL" }
        ),
    };
    let contexts = match backend {
        None => "- `Context::new()` (one worker thread per core) or `Context::with_threads(n)`;\n"
            .to_string(),
        Some(api) => format!(
            "- `Context::new()` (the device `FUT_{}_DEVICE` names, else the default one;\n  \
             one worker thread per core for host code), `Context::with_threads(n)` or\n  \
             `Context::with_device(name)` (the first device whose name contains `name`);\n  \
             an `Err` when there is no driver or no device; `Context::list_devices()`;\n",
            api.to_uppercase()
        ),
    };
    let mut out = format!(
        "# {krate}\n\nThe entry points of `{source}` as a Rust library, generated by\n\
         {how}\n\n\
         Add it to a crate as a path dependency:\n\n```toml\n[dependencies]\n{krate} = {{ path = \"path/to/{krate}\" }}\n```\n\n\
         ## API\n\n\
         {contexts}\
         - `Array<T, D>`: an array of rank `D` of a primitive type `T` (`i8`…`u64`,\n  `f16`, `f32`, `f64`, `bool`): `Array::from_vec(data, shape)` (an `Err` when\n  the number of elements does not match the shape), `.shape()`, `.to_vec()`,\n  `.into_vec()`, `.as_slice()`;\n\
         - one method of `Context` per entry point; scalars and consumed (`*`) arrays\n  are passed by value, other arrays, tuples and records by reference; tuples\n  are Rust tuples and records structs (`RecordN`, fields in the order of their\n  names); sum types are enums (`SumN`, one variant per constructor, holding its\n  payload), arrays of them nested `Vec`s, and tuples and records holding them\n  have the enums in their places; an entry with several results returns a\n  tuple;\n\
         - `Error`: its `message` is the program's run-time error with its source\n  location (`Index [5] out of bounds for array of shape [2].` then\n  `  at prog.fut:3:5-3:9`).\n\n\
         Entry points:\n\n| method | Futhark |\n|---|---|\n"
    );
    for (a, _) in apis {
        writeln!(out, "| `{}` | `{}` |", a.method, a.signature).ok();
    }
    if let Some((a, _)) = apis.first() {
        let f = prog
            .entries
            .iter()
            .find(|e| e.name == a.name)
            .map(|e| &prog.functions[e.fun]);
        let mut args = Vec::new();
        if let Some(f) = f {
            for p in &a.params {
                let ty = |c: usize| f.var_type(f.params[c].var);
                let parts: Vec<String> =
                    p.comps.iter().filter_map(|&c| ty(c)).map(sample).collect();
                args.push(match &p.shape {
                    Shape::Single if p.unique => parts.join("").replace('&', ""),
                    Shape::Single => parts.join(""),
                    Shape::Tuple => format!("&({})", parts.join(", ").replace('&', "")),
                    Shape::SumArray(e, rank) => format!(
                        "&Vec::<{}>::new()[..]",
                        sum_enums::vec_type(&format!("{krate}::{}", e.name), rank - 1)
                    ),
                    Shape::Sum(e) => format!("&{}", sum_sample(krate, e, &parts)),
                    Shape::WithSums(record, ps) => {
                        // Beside an (empty) `Vec` of sums, arrays are empty
                        // too: in an array of tuples or records, every part
                        // has the same number of rows.
                        let empty = ps.iter().any(|p| matches!(p.sum, Some((_, r)) if r > 0));
                        let values: Vec<String> = ps
                            .iter()
                            .map(|part| {
                                let parts: Vec<String> = part
                                    .comps
                                    .iter()
                                    .filter_map(|&c| ty(c))
                                    .map(|t| if empty { sample_empty(t) } else { sample(t) })
                                    .collect();
                                match &part.sum {
                                    None => parts.join("").replace('&', ""),
                                    Some((e, 0)) => sum_sample(krate, e, &parts),
                                    Some(_) => "Vec::new()".to_string(),
                                }
                            })
                            .collect();
                        match record {
                            Some((name, fields)) => format!(
                                "&{krate}::{name} {{ {} }}",
                                fields
                                    .iter()
                                    .zip(&values)
                                    .map(|(f, v)| format!("{}: {v}", rust_ident(f)))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                            None => format!("&({})", values.join(", ")),
                        }
                    }
                    Shape::Record(name, fields) => format!(
                        "&{krate}::{name} {{ {} }}",
                        fields
                            .iter()
                            .zip(&parts)
                            .map(|(f, v)| format!("{}: {}", rust_ident(f), v.replace('&', "")))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            }
        }
        writeln!(
            out,
            "\n## Example\n\n```rust\nuse {krate}::{{Array, Context, Error}};\n\nfn main() -> Result<(), Error> {{\n    let ctx = Context::with_threads(4)?;\n    let out = ctx.{}({})?;\n    println!(\"{{out:?}}\");\n    Ok(())\n}}\n```\n\nAn array result is read back with `.to_vec()` and `.shape()`.",
            a.method,
            args.join(", ")
        )
        .ok();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shapes::record_fields;
    use super::*;

    #[test]
    fn components_skip_the_sizes_of_arrays() {
        let f64s = Type::scalar(values::PrimType::F64);
        let i64s = Type::scalar(values::PrimType::I64);
        let arr = Type {
            elem: values::PrimType::F64,
            shape: vec![ir::Size::Const(2)],
            acc: false,
        };
        // (f64, i64, [n]f64) as f64, i64, n, array.
        let ts = [&f64s, &i64s, &i64s, &arr];
        assert_eq!(components(&ts), Some(vec![0, 1, 3]));
        assert_eq!(components(&[&arr]), None);
        let groups = [
            EntryValue {
                ty: "(f64, i64)".into(),
                unique: false,
                values: 2,
            },
            EntryValue {
                ty: "[]f64".into(),
                unique: false,
                values: 2,
            },
        ];
        assert_eq!(
            group_components(&groups, &ts),
            Some(vec![vec![0, 1], vec![3]])
        );
    }

    #[test]
    fn names_and_record_fields() {
        assert_eq!(rust_ident("match"), "r#match");
        assert_eq!(rust_ident("self"), "self_");
        assert_eq!(rust_ident("f'"), "f_q");
        assert_eq!(crate_name("My Prog"), "my_prog");
        assert_eq!(crate_name("3d"), "fut_3d");
        assert_eq!(crate_name("test"), "test_fut");
        assert_eq!(
            record_fields("{a: f64, b: [n]i64}"),
            Some(vec!["a".to_string(), "b".to_string()])
        );
        assert_eq!(record_fields("{a: (f64, i32), b: i64}"), None);
        assert_eq!(record_fields("(f64, i32)"), None);
    }

    const PROG: &str = "entry \"move\" = entry_move(\"(f64, i32)\": 2, \"{a: f64, b: []i64}\": 3) -> (\"f64\": 1, \"[]i64\": 2)
fun entry_move(x: f64, y: i32, a: f64, n: i64, b: [n]i64) -> (f64, i64, [n]i64) {
  let z: f64 = add(x, a)
  in (z, n, b)
}
entry \"set\" = entry_set(*\"[]f64\": 2) -> (*\"[]f64\": 2)
fun entry_set(n: i64, xs: [n]f64) -> (i64, [n]f64) {
  in (n, xs)
}
";

    #[test]
    fn methods_take_tuples_and_records_and_keyword_names_are_raw() {
        let prog = ir::parse::parse_program(PROG).unwrap();
        let lib = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap();
        let p = &lib.program_rs;
        assert!(
            p.contains("pub fn r#move(&self, a0: &(f64, i32), a1: &Record0) -> Result<(f64, Array<i64, 1>), Error>"),
            "{p}"
        );
        // Sizes come from the arrays' shapes; results leave the sizes out.
        assert!(p.contains("x3.dim(0), x3)"), "{p}");
        assert!(p.contains("Ok((r0, Array::from_arr(r2)))"), "{p}");
        // A consumed array is taken by value and moved in, sizes first.
        assert!(p.contains("pub fn set(&self, a0: Array<f64, 1>)"), "{p}");
        assert!(p.contains("let x0 = a0.into_arr();"), "{p}");
        assert!(p.contains("(x0.dim(0), x0)"), "{p}");
        let l = &lib.lib_rs;
        assert!(l.contains("pub struct Record0 {"), "{l}");
        assert!(l.contains("pub b: Array<i64, 1>,"), "{l}");
        assert!(
            l.contains("move: (f64, i32) -> {a: f64, b: []i64} -> (f64, []i64)"),
            "{l}"
        );
        assert!(lib.readme.contains("ctx.r#move(&(1f64, 1i32), &t::Record0 { a: 1f64, b: Array::from_vec(vec![1i64; 2], [2])? })?"), "{}", lib.readme);
        assert!(
            lib.readme
                .contains("and tuples and records holding them\n  have the enums in their places;"),
            "{}",
            lib.readme
        );
    }

    const NAMED: &str =
        "entry \"norm\" = entry_norm(\"point = {x: f64, y: f64}\": 2) -> (\"f64\": 1)
fun entry_norm(x: f64, y: f64) -> (f64) {
  let z: f64 = add(x, y)
  in (z)
}
";

    const SUM: &str =
        "entry \"area\" = entry_area(\"shape = #circle f64 | #empty\": 2) -> (\"f64\": 1)
fun entry_area(t: i64, r: f64) -> (f64) {
  in (r)
}
entry \"grow\" = entry_grow(\"[]f32\": 2) -> (\"#big_box [n]f32 | #none\": 3)
fun entry_grow(n: i64, a: [n]f32) -> (i64, i64, [n]f32) {
  in (0i64, n, a)
}
";

    const SUM_ARRAY: &str =
        "entry \"total\" = entry_total(\"[]shape = [](#circle f64 | #empty)\": 4) -> (\"f64\": 1)
fun entry_total(n: i64, t: [n]i64, m: i64, r: [m]f64) -> (f64) {
  in (0.0f64)
}
entry \"shapes\" = entry_shapes(\"f64\": 1) -> (\"[]shape = [](#circle f64 | #empty)\": 4)
fun entry_shapes(x: f64) -> (i64, [?]i64, i64, [?]f64) {
  let t: [1]i64 = replicate([1], 0i64)
  let r: [1]f64 = replicate([1], x)
  in (1i64, t, 1i64, r)
}
";

    #[test]
    fn arrays_of_sums_are_slices_and_vecs_of_enums() {
        let prog = ir::parse::parse_program(SUM_ARRAY).unwrap();
        let lib = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap();
        let p = &lib.program_rs;
        assert!(
            p.contains("pub fn total(&self, a0: &[Sum0]) -> Result<f64, Error>"),
            "{p}"
        );
        assert!(
            p.contains("Sum0::Circle(p0_0) => { c0.push(0); c1.push(*p0_0); }"),
            "{p}"
        );
        assert!(
            p.contains("Sum0::Empty => { c0.push(1); c1.push(<f64>::default()); }"),
            "{p}"
        );
        assert!(
            p.contains("pub fn shapes(&self, a0: f64) -> Result<Vec<Sum0>, Error>"),
            "{p}"
        );
        assert!(
            lib.lib_rs
                .contains("pub enum Sum0 {\n    /// `#circle f64`.\n    Circle(f64),"),
            "{}",
            lib.lib_rs
        );
    }

    const NESTED_SUM: &str =
        "entry \"area\" = entry_area(\"(shape, i32) = (#circle f64 | #empty, i32)\": 3) -> (\"f64\": 1)
fun entry_area(t: i64, r: f64, k: i32) -> (f64) {
  in (r)
}
entry \"measure\" = entry_measure(\"f64\": 1) -> (\"{k: i32, s: #circle f64 | #empty}\": 3)
fun entry_measure(x: f64) -> (i32, i64, f64) {
  in (1i32, 0i64, x)
}
";

    const UNSUPPORTED_SUM: &str =
        "entry \"f\" = entry_f(\"u = #p (f64, i32) | #q\": 3) -> (\"f64\": 1)
fun entry_f(t: i64, x: f64, k: i32) -> (f64) {
  in (x)
}
";

    const TUPLE_ARRAY: &str = "entry \"f\" = entry_f(\"i64\": 1) -> (\"[]{k: i32, s: #a | #b}\": 4)
fun entry_f(n: i64) -> (i64, [?]i32, i64, [?]i64) {
  let k: [1]i32 = replicate([1], 0i32)
  let t: [1]i64 = replicate([1], 0i64)
  in (1i64, k, 1i64, t)
}
entry \"g\" = entry_g(\"[n](#a | #b, i32)\": 4) -> (\"f64\": 1)
fun entry_g(n: i64, t: [n]i64, m: i64, k: [m]i32) -> (f64) {
  in (0.0f64)
}
";

    #[test]
    fn arrays_of_tuples_and_records_holding_sums_are_tuples_of_vecs_and_arrays() {
        let mut prog = ir::parse::parse_program(TUPLE_ARRAY).unwrap();
        let g = prog.entries.pop().unwrap();
        let lib = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap();
        let p = &lib.program_rs;
        // As other arrays of tuples and records: a tuple of one array per
        // element or field, the sums' a `Vec` of their enum.
        assert!(
            p.contains("pub fn f(&self, a0: i64) -> Result<(Array<i32, 1>, Vec<Sum0>), Error>"),
            "{p}"
        );
        assert!(
            p.contains("Ok((Array::from_arr(r1), { let a3 = Array::<i64, 1>::from_arr(r3); let s = a3.shape();"),
            "{p}"
        );
        assert!(
            p.contains("0 => Sum0::A, 1 => Sum0::B, n => return Err("),
            "{p}"
        );
        assert!(
            lib.lib_rs.contains(
                "/// The sum type `#a | #b` of the program: one variant per constructor."
            ),
            "{}",
            lib.lib_rs
        );
        assert!(!lib.lib_rs.contains("pub struct Record"), "{}", lib.lib_rs);
        // Passed in, the same tuple: the sums' variants become their
        // numbers; the README's example passes no rows.
        prog.entries = vec![g];
        let lib = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap();
        let p = &lib.program_rs;
        assert!(
            p.contains("pub fn g(&self, a0: &(Vec<Sum0>, Array<i32, 1>)) -> Result<f64, Error>"),
            "{p}"
        );
        assert!(
            p.contains("match e { Sum0::A => { c0.push(0); } Sum0::B => { c0.push(1); } }"),
            "{p}"
        );
        assert!(
            lib.readme
                .contains("ctx.g(&(Vec::new(), Array::from_vec(Vec::new(), [0])?))"),
            "{}",
            lib.readme
        );
    }

    #[test]
    fn sums_inside_tuples_and_records_are_their_enums() {
        let prog = ir::parse::parse_program(NESTED_SUM).unwrap();
        let lib = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap();
        let p = &lib.program_rs;
        assert!(
            p.contains("pub fn area(&self, a0: &(Sum0, i32)) -> Result<f64, Error>"),
            "{p}"
        );
        // The element's components, then the scalar after it.
        assert!(p.contains("let e = &a0.0;"), "{p}");
        assert!(
            p.contains("Sum0::Circle(p0_0) => { c0.push(0); c1.push(*p0_0); }"),
            "{p}"
        );
        assert!(p.contains("let x2 = a0.1;"), "{p}");
        assert!(p.contains("f0(x0, x1, x2)"), "{p}");
        assert!(
            p.contains("pub fn measure(&self, a0: f64) -> Result<Record0, Error>"),
            "{p}"
        );
        assert!(
            p.contains("Ok(Record0 { k: r0, s: match r1 { 0 => Sum0::Circle(r2), 1 => Sum0::Empty, n => return Err("),
            "{p}"
        );
        let l = &lib.lib_rs;
        assert!(
            l.contains("pub struct Record0 {\n    /// Field `k`.\n    pub k: i32,\n    /// Field `s`.\n    pub s: Sum0,\n}"),
            "{l}"
        );
        // One enum for the sum, named by its structure.
        assert_eq!(l.matches("pub enum Sum").count(), 1, "{l}");
        assert!(
            lib.readme
                .contains("ctx.area(&(t::Sum0::Circle(1f64), 1i32))?"),
            "{}",
            lib.readme
        );
    }

    const PAYLOAD_ARRAYS: &str =
        "entry \"sums\" = entry_sums(\"[]bag = [](#items []i32 | #nothing)\": 5) -> (\"[]i32\": 2)
fun entry_sums(n: i64, t: [n]i64, m: i64, k: i64, xs: [m][k]i32) -> (i64, [n]i32) {
  let r: [n]i32 = replicate([n], 0i32)
  in (n, r)
}
entry \"bags\" = entry_bags(\"i64\": 1) -> (\"[][]bag = [][](#items []i32 | #nothing)\": 7)
fun entry_bags(n: i64) -> (i64, i64, [?][?]i64, i64, i64, i64, [?][?][?]i32) {
  let t0: [1]i64 = replicate([1], 0i64)
  let t: [1][1]i64 = replicate([1], t0)
  let x0: [1]i32 = replicate([1], 0i32)
  let x1: [1][1]i32 = replicate([1], x0)
  let xs: [1][1][1]i32 = replicate([1], x1)
  in (1i64, 1i64, t, 1i64, 1i64, 1i64, xs)
}
";

    #[test]
    fn arrays_of_sums_with_array_payloads_hold_arrays_of_one_shape() {
        let prog = ir::parse::parse_program(PAYLOAD_ARRAYS).unwrap();
        let lib = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap();
        assert!(
            lib.lib_rs
                .contains("pub enum Sum0 {\n    /// `#items []i32`.\n    Items(Array<i32, 1>),"),
            "{}",
            lib.lib_rs
        );
        let p = &lib.program_rs;
        assert!(
            p.contains("pub fn sums(&self, a0: &[Sum0]) -> Result<Array<i32, 1>, Error>"),
            "{p}"
        );
        // Each element's payload, or `None` for another variant, joined
        // into rows of one shape.
        assert!(
            p.contains("let mut c1: Vec<Option<&Array<i32, 1>>> = Vec::new();"),
            "{p}"
        );
        assert!(
            p.contains("Sum0::Items(p0_0) => { c0.push(0); c1.push(Some(p0_0)); } Sum0::Nothing => { c0.push(1); c1.push(None); }"),
            "{p}"
        );
        assert!(
            p.contains("let (c1, h1) = fut_payload_rows(c1, \"sums\", \"a0\")?;"),
            "{p}"
        );
        assert!(
            p.contains("let x1 = Array::<_, 2>::from_vec(c1, [s0, h1[0]])?.into_arr();"),
            "{p}"
        );
        assert!(
            p.contains("f0(x0.dim(0), x0, x1.dim(0), x1.dim(1), x1)"),
            "{p}"
        );
        assert!(
            p.contains("fn fut_payload_rows<T: crate::Element, const P: usize>("),
            "{p}"
        );
        // Results: each element's row of the payload array.
        assert!(
            p.contains("pub fn bags(&self, a0: i64) -> Result<Vec<Vec<Sum0>>, Error>"),
            "{p}"
        );
        assert!(
            p.contains(
                "let d6 = a6.shape(); let h6 = [d6[2]]; let z6: usize = h6.iter().product();"
            ),
            "{p}"
        );
        assert!(
            p.contains("0 => Sum0::Items(Array::<i32, 1>::from_vec(v6[i * z6..(i + 1) * z6].to_vec(), h6)?)"),
            "{p}"
        );
    }

    #[test]
    fn named_records_are_structs_and_sums_are_enums() {
        let prog = ir::parse::parse_program(NAMED).unwrap();
        let lib = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap();
        assert!(
            lib.program_rs
                .contains("pub fn norm(&self, a0: &Record0) -> Result<f64, Error>"),
            "{}",
            lib.program_rs
        );
        assert!(
            lib.lib_rs
                .contains("/// The record type `point` of the program."),
            "{}",
            lib.lib_rs
        );
        assert!(lib.lib_rs.contains("norm: point -> f64"), "{}", lib.lib_rs);
        let prog = ir::parse::parse_program(SUM).unwrap();
        let lib = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap();
        assert!(
            lib.lib_rs.contains(
                "/// The sum type `shape` (`#circle f64 | #empty`) of the program: one variant per constructor.\n#[derive(Clone, Debug, PartialEq)]\npub enum Sum0 {\n    /// `#circle f64`.\n    Circle(f64),\n    /// `#empty`.\n    Empty,\n}"
            ),
            "{}",
            lib.lib_rs
        );
        assert!(
            lib.lib_rs.contains("pub enum Sum1 {\n    /// `#big_box []f32`.\n    BigBox(Array<f32, 1>),\n    /// `#none`.\n    None,\n}"),
            "{}",
            lib.lib_rs
        );
        let p = &lib.program_rs;
        assert!(
            p.contains("pub fn area(&self, a0: &Sum0) -> Result<f64, Error>"),
            "{p}"
        );
        // The variant not held gets a blank payload.
        assert!(
            p.contains("Sum0::Circle(p0_0) => { c0.push(0); c1.push(*p0_0); } Sum0::Empty => { c0.push(1); c1.push(<f64>::default()); }"),
            "{p}"
        );
        assert!(
            p.contains("pub fn grow(&self, a0: &Array<f32, 1>) -> Result<Sum1, Error>"),
            "{p}"
        );
        assert!(
            p.contains("match r0 { 0 => Sum1::BigBox(Array::from_arr(r2)), 1 => Sum1::None, n => return Err("),
            "{p}"
        );
        let prog = ir::parse::parse_program(UNSUPPORTED_SUM).unwrap();
        let e = library(&prog, &Options::default(), &|_| String::new(), "t", "t.fut").unwrap_err();
        assert_eq!(
            e,
            "entry point `f` has a parameter of type u (#p (f64, i32) | #q), which holds a sum type that library crates cannot take: they take sums, arrays of sums, and tuples and records of these, scalars and arrays (arrays of such tuples and records only as results), where payloads are scalars, arrays of primitives and such sums, not tuples, records or arrays of sums (the executables' server takes them all: `fut multicore`)"
        );
        assert_eq!(variant_ident("big_box'"), "BigBoxQ");
        assert_eq!(variant_ident("_1"), "V1");
    }
}
