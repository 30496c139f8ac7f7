//! The executable's plain mode: read the arguments of one entry point,
//! run it (`-r` times after a warm-up run), write the results and timings.

use std::io::{Read, Write};

use values::Reader;

use crate::call::call;
use crate::context::Context;
use crate::entry::{EntryPoint, ExtType, ExtValue, Program};
use crate::options::Options;

fn signature(types: impl Iterator<Item = String>) -> String {
    let ps: Vec<String> = types.collect();
    format!("({})", ps.join(", "))
}

fn arguments_phrase(entry: &EntryPoint) -> String {
    let n = entry.params.len();
    let mut s = format!(
        "entry point `{}` takes {n} argument{} {}",
        entry.name,
        if n == 1 { "" } else { "s" },
        signature(entry.params.iter().map(ExtType::name))
    );
    let comps = entry.param_components();
    if comps.len() != n {
        s.push_str(&format!(
            ", given as {} values {}",
            comps.len(),
            signature(comps.iter().map(|t| t.to_string()))
        ));
    }
    s
}

/// Reads an entry's arguments (text and binary values mixed), each at its
/// parameter's type; an opaque parameter (a tuple, record, sum or array of
/// records) is read as its components, in order, and checked as `restore`
/// checks it. Errors name the entry, the parameter (and the component) and
/// the place.
pub fn read_arguments<R: Read>(entry: &EntryPoint, input: R) -> Result<Vec<ExtValue>, String> {
    let mut reader = Reader::new(input);
    let mut args = Vec::with_capacity(entry.params.len());
    let mut read = 0;
    for (i, t) in entry.params.iter().enumerate() {
        let comps = t.components();
        let mut values = Vec::with_capacity(comps.len());
        for (j, c) in comps.iter().enumerate() {
            let what = match t {
                ExtType::Value(_) => format!("parameter {} of type {c}", i + 1),
                ExtType::Opaque(o, _) => format!(
                    "parameter {} of type {}, component {} of type {c}",
                    i + 1,
                    o.name,
                    j + 1
                ),
            };
            let bad = |e: values::ReadError| {
                format!(
                    "entry point `{}`, {what}: invalid input at {}: {}",
                    entry.name, e.position, e.message
                )
            };
            match reader.at_end() {
                Ok(true) => {
                    return Err(format!(
                        "{}, but the input has only {read}",
                        arguments_phrase(entry)
                    ));
                }
                Ok(false) => {}
                Err(e) => return Err(bad(e)),
            }
            values.push(reader.read_value(&c.ranked()).map_err(bad)?);
            read += 1;
        }
        if let ExtType::Opaque(o, _) = t {
            o.check(&values).map_err(|e| {
                format!(
                    "entry point `{}`, parameter {} of type {}: {e}",
                    entry.name,
                    i + 1,
                    o.name
                )
            })?;
        }
        let mut it = values.into_iter();
        args.push(ExtValue::from_components(t, &mut it));
    }
    match reader.at_end() {
        Ok(true) => Ok(args),
        Ok(false) => Err(format!(
            "{}, but the input has more values",
            arguments_phrase(entry)
        )),
        Err(e) => Err(format!(
            "entry point `{}`: invalid input after the last argument at {}: {}",
            entry.name, e.position, e.message
        )),
    }
}

/// Writes results, one per line: text, or the binary value format. A value
/// of an opaque type is written as `#<opaque NAME>` in either format.
pub fn write_results(
    results: &[ExtValue],
    binary: bool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for v in results {
        match v {
            ExtValue::Opaque(o, _) => writeln!(out, "#<opaque {}>", o.name)?,
            ExtValue::Value(v) if binary => values::write_binary(v, out)?,
            ExtValue::Value(v) => writeln!(out, "{v}")?,
        }
    }
    out.flush()
}

/// Runs the entry that `opts` names on arguments read from `input`, writing
/// results to `output`. Returns the message for the user on failure.
pub fn execute(
    program: &Program,
    ctx: &Context,
    opts: &Options,
    input: impl Read,
    output: &mut dyn Write,
) -> Result<(), String> {
    let entry = program
        .entry(&opts.entry)
        .ok_or_else(|| program.no_such_entry(&opts.entry))?;
    let mut args = read_arguments(entry, input)?;
    // With -r, one uncounted warm-up run comes first; each run gets its own
    // copy of the arguments (made before the clock starts), the last the
    // originals.
    let (warmup, runs) = match opts.runs {
        Some(n) => (1, n),
        None => (0, 1),
    };
    let total = warmup + runs;
    let mut times = Vec::with_capacity(runs);
    let mut last = Vec::new();
    for i in 0..total {
        let this = if i + 1 == total {
            std::mem::take(&mut args)
        } else {
            args.clone()
        };
        // The warm-up run is left out of the profile as well as the timings.
        let profiling = ctx.profiler().enabled();
        if i < warmup {
            ctx.profiler().set_enabled(false);
        }
        let outcome = call(ctx, entry, this);
        ctx.profiler().set_enabled(profiling);
        let (results, time) = outcome?;
        if i >= warmup {
            times.push(time);
        }
        last = results;
    }
    if let Some(path) = &opts.timing_file {
        let text: String = times
            .iter()
            .map(|t| format!("{}\n", t.as_micros()))
            .collect();
        std::fs::write(path, text)
            .map_err(|e| format!("cannot write the run times to {}: {e}", path.display()))?;
    }
    if !opts.no_print {
        write_results(&last, opts.binary, output)
            .map_err(|e| format!("cannot write the results: {e}"))?;
    }
    Ok(())
}
