//! The [`Backend`]s scripts run on: the reference interpreter, the IR
//! interpreter, and a compiled program of `fut test --backend=multicore`.
//!
//! The interpreter keeps an opaque value as its own value (a record, tuple or
//! sum). The IR interpreter and compiled programs keep it as its *components*,
//! the scalars and arrays of primitives the entry function takes or returns for
//! it, in the binary value format, never as text: a tuple's by position, a
//! record's fields by name, a sum's variant number then every variant's payload.
//! A tuple or record built in a script is the concatenation of its elements'
//! components, checked against the types the entry function expects.

use semantic::{EntryPoint, EntryType};
use values::Value;

use super::eval::{Backend, Val};
use crate::multicore::Batch;

fn plain(message: String) -> interp::RuntimeError {
    interp::RuntimeError {
        message,
        span: None,
        backtrace: Vec::new(),
    }
}

/// The reference interpreter, with the program loaded.
pub struct InterpBackend<'a> {
    /// The interpreter.
    pub interp: &'a mut interp::Interpreter,
    /// The program's root file.
    pub root: syntax::FileId,
}

fn to_internal(v: Val<interp::value::Value>) -> Result<interp::value::Value, String> {
    use interp::value::Value as I;
    Ok(match v {
        Val::Data(d) => interp::convert::to_internal(&d)?,
        Val::Opaque(o, _) => o,
        Val::Tuple(vs) => I::Tuple(interp::value::tup(
            vs.into_iter().map(to_internal).collect::<Result<_, _>>()?,
        )),
        Val::Record(fs) => I::record(
            fs.into_iter()
                .map(|(n, v)| Ok((n.as_str().into(), to_internal(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        // The evaluator types literals before calls; strings are not values.
        Val::Literal(t, _) => match values::parse_value(&t) {
            Ok(d) => interp::convert::to_internal(&d)?,
            Err(_) => I::Tuple(interp::value::tup(Vec::new())),
        },
        Val::Str(_) => I::Tuple(interp::value::tup(Vec::new())),
    })
}

impl Backend for InterpBackend<'_> {
    type Opaque = interp::value::Value;

    fn call(
        &mut self,
        entry: &EntryPoint,
        args: Vec<Val<Self::Opaque>>,
    ) -> Result<Vec<Val<Self::Opaque>>, interp::RuntimeError> {
        let args = args
            .into_iter()
            .map(to_internal)
            .collect::<Result<_, _>>()
            .map_err(plain)?;
        let results = self
            .interp
            .call_entry_internal(self.root, &entry.name, args)?;
        results
            .into_iter()
            .zip(&entry.results)
            .map(|(r, t)| match t.opaque_name() {
                Some(name) => Ok(Val::Opaque(r.value, name.to_string())),
                None => r
                    .data
                    .map(Val::Data)
                    .map_err(|m| plain(format!("cannot return the result of {}: {m}", entry.name))),
            })
            .collect()
    }
}

/// The components of each parameter and result of an IR entry point: their
/// types, as (rank, element type).
struct Layout {
    params: Vec<Vec<(usize, values::PrimType)>>,
    results: Vec<usize>,
}

fn layout<'p>(prog: &'p ir::Program, name: &str) -> Result<(Layout, &'p ir::EntryPoint), String> {
    let entry = prog
        .entries
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| format!("entry point {name} not found"))?;
    let f = &prog.functions[entry.fun];
    let ptypes: Vec<&ir::Type> = f.params.iter().filter_map(|p| f.var_type(p.var)).collect();
    let rtypes: Vec<&ir::Type> = f.ret.iter().collect();
    let unsupported = || {
        format!("entry point {name}: its parameters or results are not made of scalars and arrays")
    };
    let pgroups =
        codegen::library::group_components(&entry.params, &ptypes).ok_or_else(unsupported)?;
    let rgroups =
        codegen::library::group_components(&entry.results, &rtypes).ok_or_else(unsupported)?;
    let params = pgroups
        .iter()
        .map(|g| {
            g.iter()
                .map(|&i| (ptypes[i].rank(), ptypes[i].elem))
                .collect()
        })
        .collect();
    let results = rgroups.iter().map(|g| g.len()).collect();
    Ok((Layout { params, results }, entry))
}

fn components(v: Val<Vec<Value>>, out: &mut Vec<Value>) {
    match v {
        Val::Data(d) => out.push(d),
        Val::Opaque(cs, _) => out.extend(cs),
        Val::Tuple(vs) => vs.into_iter().for_each(|v| components(v, out)),
        Val::Record(fs) => fs.into_iter().for_each(|(_, v)| components(v, out)),
        Val::Literal(t, _) => {
            if let Ok(d) = values::parse_value(&t) {
                out.push(d)
            }
        }
        Val::Str(_) => {}
    }
}

fn type_list(ts: &[(usize, values::PrimType)]) -> String {
    ts.iter()
        .map(|(r, p)| format!("{}{}", "[]".repeat(*r), p.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The flat components of the arguments, checked against the entry function's
/// parameters.
fn flat_args(
    entry: &EntryPoint,
    layout: &Layout,
    args: Vec<Val<Vec<Value>>>,
) -> Result<Vec<Value>, interp::RuntimeError> {
    let mut flat = Vec::new();
    for (i, (a, want)) in args.into_iter().zip(&layout.params).enumerate() {
        let mut comps = Vec::new();
        components(a, &mut comps);
        let got: Vec<(usize, values::PrimType)> =
            comps.iter().map(|c| (c.rank(), c.prim_type())).collect();
        if got != *want {
            return Err(plain(format!(
                "argument {} of entry point `{}` is made of ({}), but its type {} is made of ({})",
                i + 1,
                entry.name,
                type_list(&got),
                entry
                    .params
                    .get(i)
                    .map(crate::run::entry_type_name)
                    .unwrap_or_default(),
                type_list(want)
            )));
        }
        flat.extend(comps);
    }
    Ok(flat)
}

/// The results of an entry from its flat components.
fn group_results(
    entry: &EntryPoint,
    layout: &Layout,
    flat: Vec<Value>,
) -> Result<Vec<Val<Vec<Value>>>, interp::RuntimeError> {
    let mut it = flat.into_iter();
    let mut out = Vec::new();
    for (n, t) in layout.results.iter().zip(&entry.results) {
        let comps: Vec<Value> = it.by_ref().take(*n).collect();
        if comps.len() != *n {
            return Err(plain(format!(
                "entry point `{}` returned fewer values than its type says",
                entry.name
            )));
        }
        out.push(match t {
            EntryType::Opaque(text) => Val::Opaque(comps, text.clone()),
            EntryType::Array { .. } => match <[Value; 1]>::try_from(comps) {
                Ok([v]) => Val::Data(v),
                Err(_) => {
                    return Err(plain(format!(
                        "entry point `{}` returned several values for a scalar or array",
                        entry.name
                    )));
                }
            },
        });
    }
    Ok(out)
}

/// The IR interpreter on an optimised program.
pub struct IrBackend<'a> {
    /// The program.
    pub prog: &'a ir::Program,
}

impl Backend for IrBackend<'_> {
    type Opaque = Vec<Value>;

    fn call(
        &mut self,
        entry: &EntryPoint,
        args: Vec<Val<Self::Opaque>>,
    ) -> Result<Vec<Val<Self::Opaque>>, interp::RuntimeError> {
        let (layout, ir_entry) = layout(self.prog, &entry.name).map_err(plain)?;
        let flat = flat_args(entry, &layout, args)?;
        let raw = crate::irrun::run_function(self.prog, ir_entry, internalise::expand_args(flat))?;
        let f = &self.prog.functions[ir_entry.fun];
        let rtypes: Vec<&ir::Type> = f.ret.iter().collect();
        let groups = codegen::library::group_components(&ir_entry.results, &rtypes)
            .ok_or_else(|| plain(format!("entry point {}: unexpected results", entry.name)))?;
        let mut raw: Vec<Option<Value>> = raw.into_iter().map(Some).collect();
        let flat_results: Vec<Value> = groups
            .concat()
            .into_iter()
            .filter_map(|i| raw.get_mut(i).and_then(Option::take))
            .collect();
        group_results(entry, &layout, flat_results)
    }
}

/// A compiled program of a test batch; `prog` is the IR it was compiled from,
/// which says how its values split into components.
pub struct BatchBackend<'a> {
    /// The batch.
    pub batch: &'a Batch,
    /// The program's index in the batch.
    pub index: usize,
    /// The optimised IR of the program.
    pub prog: &'a ir::Program,
}

impl Backend for BatchBackend<'_> {
    type Opaque = Vec<Value>;

    fn call(
        &mut self,
        entry: &EntryPoint,
        args: Vec<Val<Self::Opaque>>,
    ) -> Result<Vec<Val<Self::Opaque>>, interp::RuntimeError> {
        let (layout, _) = layout(self.prog, &entry.name).map_err(plain)?;
        let flat = flat_args(entry, &layout, args)?;
        let results =
            crate::multicore::run_case(Some((self.batch, self.index)), &entry.name, &flat)?;
        group_results(entry, &layout, results)
    }
}
