//! `--server`: Futhark's server protocol on standard input and output.
//!
//! Each command is one line of words (separated by spaces; a word in double
//! quotes may contain spaces). The server answers with the command's
//! output, then `%%% OK` on a line of its own; a command that fails prints
//! `%%% FAILURE` and the message before the `%%% OK`. `%%% OK` is also
//! printed once at start-up. The server keeps named variables holding
//! values; `call` moves the arguments of unique (`*`) parameters out of
//! their variables, which are then consumed and may only be freed.
//!
//! Values are transparent (scalars and arrays of primitives) or opaque
//! (tuples, records and other types of the program, named as the program
//! writes them, e.g. `{a: f64, b: []i64}`): opaque values come from entry
//! points, from `new` (records and tuples, built from their fields), and
//! from `restore`; `project` takes a field out of one. Values of sum types
//! are built with `construct` from a variant's payload; `variant` names a
//! value's variant and `destruct` takes its payload out. An array of
//! records or tuples (`[]{x: f64, y: f64}`) is held as one array per
//! field: `zip` builds one from them, `unzip` takes them out, and `index`
//! takes out one element. `store` writes an
//! opaque value as its components in the binary value format, in order,
//! which is what `restore` reads back.
//!
//! Commands: `call ENTRY OUT… IN…` (prints `runtime: MICROSECONDS`),
//! `restore FILE VAR TYPE …`, `store FILE VAR…` (binary values),
//! `free VAR…`, `rename OLD NEW`, `inputs ENTRY`, `outputs ENTRY`,
//! `output ENTRY` (an entry with one result), `entry_points`, `types`,
//! `type VAR`, `kind TYPE`, `rank TYPE`, `elemtype TYPE`, `shape VAR`,
//! `fields TYPE`, `new VAR TYPE FIELD…`, `project TO FROM FIELD`,
//! `variants TYPE`, `construct VAR TYPE VARIANT PAYLOAD…`,
//! `destruct VAR PAYLOAD…`, `variant VAR`, `index TO FROM I…`,
//! `zip TO TYPE ARRAY…`, `unzip FROM ARRAY…`, `new_array TO TYPE SIZE… V…`,
//! `set ARRAY V I…`,
//! `clear`, `report` (the profile as JSON), `pause_profiling`, `unpause_profiling`,
//! `attributes ENTRY` (nothing to print), `tuning_params ENTRY` (the
//! names of the program's tuning parameters, one per line: none on the
//! multicore backend), `tuning_param_class NAME` and
//! `set_tuning_param NAME VALUE` ([`crate::tuning`]). End of input ends
//! the server.

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, Write};

use values::{PrimType, RankedType, Reader, Value};

use crate::call::call;
use crate::context::Context;
use crate::entry::{EntryPoint, ExtType, ExtValue, OpaqueType, Program, TypeDesc};

/// A variable of the server: a value, or the type name of a consumed one.
enum Var {
    Live(ExtValue),
    Consumed(String),
}

impl Var {
    fn type_name(&self) -> String {
        match self {
            Var::Live(v) => v.type_name(),
            Var::Consumed(t) => t.clone(),
        }
    }
}

/// Splits a command line into words; a word in double quotes may hold spaces.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&c) = chars.peek() else {
            return Ok(words);
        };
        let mut w = String::new();
        if c == '"' {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => w.push(c),
                    None => return Err("unterminated quoted word".into()),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                w.push(c);
                chars.next();
            }
        }
        words.push(w);
    }
}

/// A type name as the protocol writes it (`[][]f32`), read back.
pub fn parse_type(name: &str) -> Result<RankedType, String> {
    let mut rest = name;
    let mut rank = 0;
    while let Some(r) = rest.strip_prefix("[]") {
        rank += 1;
        rest = r;
    }
    PrimType::from_name(rest)
        .map(|p| RankedType::new(rank, p))
        .ok_or_else(|| format!("unknown type `{name}`"))
}

fn type_line(t: &ExtType) -> String {
    format!("{}{}\n", if t.unique() { "*" } else { "" }, t.name())
}

/// A type the server knows: transparent, or an opaque type of the program.
#[derive(Clone, Copy)]
enum Known {
    Value(RankedType),
    Opaque(&'static OpaqueType),
}

impl Known {
    fn ext(self) -> ExtType {
        match self {
            Known::Value(t) => ExtType::Value(TypeDesc {
                rank: t.rank,
                elem: t.prim,
                unique: false,
            }),
            Known::Opaque(o) => ExtType::Opaque(o, false),
        }
    }
}

/// The error for an unknown tuning parameter: the program may have none.
fn unknown_param(name: &str) -> String {
    match crate::tuning::installed() {
        Some(_) => format!("unknown tuning parameter `{name}` (`tuning_params ENTRY` lists them)"),
        None => format!("unknown tuning parameter `{name}`: the program has none"),
    }
}

/// The state of a server: the program, its context and the variables.
pub struct Server<'a> {
    program: &'a Program,
    ctx: &'a Context,
    vars: HashMap<String, Var>,
}

impl<'a> Server<'a> {
    /// A server with no variables.
    pub fn new(program: &'a Program, ctx: &'a Context) -> Server<'a> {
        Server {
            program,
            ctx,
            vars: HashMap::new(),
        }
    }

    /// Serves commands from `input` until it ends, answering on `output`.
    pub fn serve(&mut self, input: impl BufRead, output: &mut dyn Write) -> std::io::Result<()> {
        writeln!(output, "%%% OK")?;
        output.flush()?;
        let mut input = input;
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            if input.read_until(b'\n', &mut bytes)? == 0 {
                break;
            }
            let reply = match std::str::from_utf8(&bytes) {
                Ok(line) => self.command(line),
                Err(_) => Err("the command is not valid UTF-8".to_string()),
            };
            match reply {
                Ok(text) => output.write_all(text.as_bytes())?,
                Err(msg) => {
                    writeln!(output, "%%% FAILURE")?;
                    writeln!(output, "{}", msg.trim_end())?;
                }
            }
            writeln!(output, "%%% OK")?;
            output.flush()?;
        }
        Ok(())
    }

    /// Runs one command line; its output (each line ending in a newline), or
    /// the failure message.
    pub fn command(&mut self, line: &str) -> Result<String, String> {
        let words = split_words(line)?;
        let Some((cmd, args)) = words.split_first() else {
            return Err("empty command".into());
        };
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        match cmd.as_str() {
            "call" => self.call(&args),
            "restore" => self.restore(&args),
            "store" => self.store(&args),
            "free" => self.free(&args),
            "rename" => self.rename(&args),
            "new" => self.new_record(&args),
            "project" => self.project(&args),
            "construct" => self.construct(&args),
            "destruct" => self.destruct(&args),
            "variant" => {
                expect_args(cmd, &args, 1)?;
                let (o, comps) = self.sum_value("variant", args[0])?;
                let ranges = o.variant_ranges();
                let i = o.variant_of(comps).unwrap_or(0);
                Ok(format!("{}\n", ranges[i].0.name))
            }
            "variants" => {
                expect_args(cmd, &args, 1)?;
                let o = self.sum_type(args[0])?;
                let mut out = String::new();
                for v in o.variants.unwrap_or_default() {
                    out.push_str(v.name);
                    out.push('\n');
                    for t in v.payload {
                        out.push_str(&format!("- {}\n", t.name()));
                    }
                }
                Ok(out)
            }
            "inputs" => {
                let e = self.entry_arg(cmd, &args)?;
                Ok(e.params.iter().map(type_line).collect())
            }
            "outputs" => {
                let e = self.entry_arg(cmd, &args)?;
                Ok(e.results.iter().map(type_line).collect())
            }
            "output" => {
                let e = self.entry_arg(cmd, &args)?;
                match e.results {
                    [t] => Ok(type_line(t)),
                    rs => Err(format!(
                        "entry point `{}` has {} results; use `outputs`",
                        e.name,
                        rs.len()
                    )),
                }
            }
            "entry_points" => {
                expect_args(cmd, &args, 0)?;
                Ok(self
                    .program
                    .entries
                    .iter()
                    .map(|e| format!("{}\n", e.name))
                    .collect())
            }
            "types" => {
                expect_args(cmd, &args, 0)?;
                let mut types: BTreeSet<String> = self
                    .program
                    .entries
                    .iter()
                    .flat_map(|e| e.params.iter().chain(e.results))
                    .map(ExtType::name)
                    .collect();
                for o in self.program.opaque_types() {
                    types.insert(o.name.to_string());
                    for f in o.fields.unwrap_or_default() {
                        types.insert(f.ty.name());
                    }
                    for v in o.variants.unwrap_or_default() {
                        types.extend(v.payload.iter().map(ExtType::name));
                    }
                }
                Ok(types.into_iter().map(|t| t + "\n").collect())
            }
            "type" => {
                expect_args(cmd, &args, 1)?;
                Ok(format!("{}\n", self.var(args[0])?.type_name()))
            }
            "kind" => {
                expect_args(cmd, &args, 1)?;
                Ok(match self.known_type(args[0])? {
                    Known::Value(t) if t.rank == 0 => "primitive\n".into(),
                    Known::Value(_) => "array\n".into(),
                    Known::Opaque(o) => format!("{}\n", o.kind()),
                })
            }
            "rank" => {
                expect_args(cmd, &args, 1)?;
                Ok(format!("{}\n", self.array_type(args[0])?.0))
            }
            "elemtype" => {
                expect_args(cmd, &args, 1)?;
                Ok(format!("{}\n", self.array_type(args[0])?.1))
            }
            "shape" => {
                expect_args(cmd, &args, 1)?;
                let shape = match self.live(args[0])? {
                    ExtValue::Value(v) if !v.shape().is_empty() => v.shape(),
                    ExtValue::Opaque(o, cs) if o.array.is_some() => o.outer_shape(cs),
                    v => {
                        return Err(format!(
                            "variable `{}` has type {}, which is not an array type",
                            args[0],
                            v.type_name()
                        ));
                    }
                };
                Ok(shape.iter().map(|d| format!("{d}\n")).collect())
            }
            "index" => self.index(&args),
            "new_array" => self.new_array(&args),
            "set" => self.set(&args),
            "zip" => self.zip(&args),
            "unzip" => self.unzip(&args),
            "fields" => {
                expect_args(cmd, &args, 1)?;
                let (_, fields) = self.record_type(args[0])?;
                Ok(fields
                    .iter()
                    .map(|f| format!("{} {}\n", f.name, f.ty.name()))
                    .collect())
            }
            "clear" => {
                expect_args(cmd, &args, 0)?;
                self.ctx.profiler().clear();
                Ok(String::new())
            }
            "report" => {
                expect_args(cmd, &args, 0)?;
                Ok(self.ctx.profiler().report_json())
            }
            "pause_profiling" => {
                expect_args(cmd, &args, 0)?;
                self.ctx.profiler().set_enabled(false);
                Ok(String::new())
            }
            "unpause_profiling" => {
                expect_args(cmd, &args, 0)?;
                self.ctx.profiler().set_enabled(true);
                Ok(String::new())
            }
            "attributes" => {
                self.entry_arg(cmd, &args)?;
                Ok(String::new())
            }
            "tuning_params" => {
                self.entry_arg(cmd, &args)?;
                let params = crate::tuning::installed().map(|t| t.params());
                Ok(params
                    .unwrap_or_default()
                    .iter()
                    .map(|(name, _)| format!("{name}\n"))
                    .collect())
            }
            "tuning_param_class" => {
                expect_args(cmd, &args, 1)?;
                let params = crate::tuning::installed().map(|t| t.params());
                match params
                    .unwrap_or_default()
                    .iter()
                    .find(|(n, _)| n == args[0])
                {
                    Some((_, class)) => Ok(format!("{class}\n")),
                    None => Err(unknown_param(args[0])),
                }
            }
            "set_tuning_param" => {
                expect_args(cmd, &args, 2)?;
                match crate::tuning::installed() {
                    Some(t) => t.set(args[0], args[1]).map(|()| String::new()),
                    None => Err(unknown_param(args[0])),
                }
            }
            other => Err(format!("unknown command `{other}`")),
        }
    }

    /// The type called `name`: an array or primitive type, or an opaque
    /// type of the program's entry points.
    fn known_type(&self, name: &str) -> Result<Known, String> {
        if let Some(o) = self.program.opaque_type(name) {
            return Ok(Known::Opaque(o));
        }
        parse_type(name).map(Known::Value).map_err(|_| {
            let opaque: Vec<String> = self
                .program
                .opaque_types()
                .iter()
                .map(|o| o.name.to_string())
                .collect();
            let mut msg = format!("unknown type `{name}`");
            if !opaque.is_empty() {
                msg.push_str(&format!(
                    "; the program's opaque types are: {}",
                    opaque.join(", ")
                ));
            }
            let opens = name.matches(['(', '{']).count();
            if opens > name.matches([')', '}']).count() {
                msg.push_str(" (a type name with spaces is given in double quotes)");
            }
            msg
        })
    }

    /// The rank and element type of the array type called `name`.
    fn array_type(&self, name: &str) -> Result<(usize, String), String> {
        match self.known_type(name)? {
            Known::Value(t) if t.rank > 0 => {
                Ok((t.rank, RankedType::new(t.rank - 1, t.prim).to_string()))
            }
            Known::Opaque(o) if o.array.is_some() => {
                let a = o.array.expect("an array type");
                Ok((a.rank, a.elem.name.to_string()))
            }
            _ => Err(format!("`{name}` is not an array type")),
        }
    }

    fn record_type(
        &self,
        name: &str,
    ) -> Result<(&'static OpaqueType, &'static [crate::entry::Field]), String> {
        match self.known_type(name)? {
            Known::Opaque(o) => match o.fields {
                Some(fs) => Ok((o, fs)),
                None => Err(format!("`{name}` is not a record type")),
            },
            Known::Value(_) => Err(format!("`{name}` is not a record type")),
        }
    }

    fn sum_type(&self, name: &str) -> Result<&'static OpaqueType, String> {
        match self.known_type(name)? {
            Known::Opaque(o) if o.variants.is_some() => Ok(o),
            _ => Err(format!("`{name}` is not a sum type")),
        }
    }

    /// The type and components of the sum-typed variable `name`.
    fn sum_value(&self, cmd: &str, name: &str) -> Result<(&'static OpaqueType, &[Value]), String> {
        match self.live(name)? {
            ExtValue::Opaque(o, comps) if o.variants.is_some() => Ok((o, comps)),
            v => Err(format!(
                "{cmd}: variable `{name}` has type {}, which is not a sum type",
                v.type_name()
            )),
        }
    }

    fn entry_arg(&self, cmd: &str, args: &[&str]) -> Result<&'static EntryPoint, String> {
        expect_args(cmd, args, 1)?;
        self.program
            .entry(args[0])
            .ok_or_else(|| self.program.no_such_entry(args[0]))
    }

    fn var(&self, name: &str) -> Result<&Var, String> {
        self.vars
            .get(name)
            .ok_or_else(|| format!("unknown variable `{name}`"))
    }

    fn live(&self, name: &str) -> Result<&ExtValue, String> {
        match self.var(name)? {
            Var::Live(v) => Ok(v),
            Var::Consumed(_) => Err(format!(
                "variable `{name}` was consumed by an entry point; it may only be freed"
            )),
        }
    }

    fn fresh(&self, names: &[&str]) -> Result<(), String> {
        for (i, n) in names.iter().enumerate() {
            if self.vars.contains_key(*n) || names[..i].contains(n) {
                return Err(format!("variable `{n}` already exists"));
            }
        }
        Ok(())
    }

    fn call(&mut self, args: &[&str]) -> Result<String, String> {
        let Some((name, rest)) = args.split_first() else {
            return Err("call: expected an entry point, output and input variables".into());
        };
        let entry = self
            .program
            .entry(name)
            .ok_or_else(|| self.program.no_such_entry(name))?;
        let (nout, nin) = (entry.results.len(), entry.params.len());
        if rest.len() != nout + nin {
            return Err(format!(
                "call {name}: the entry point has {nout} result{} and {nin} parameter{}, so the command needs {} variable names, but has {}",
                if nout == 1 { "" } else { "s" },
                if nin == 1 { "" } else { "s" },
                nout + nin,
                rest.len()
            ));
        }
        let (outs, ins) = rest.split_at(nout);
        self.fresh(outs)?;
        for (i, (v, t)) in ins.iter().zip(entry.params).enumerate() {
            let val = self.live(v)?;
            if !val.has_type(t) {
                return Err(format!(
                    "call {name}: parameter {} has type {}, but variable `{v}` has type {}",
                    i + 1,
                    t.name(),
                    val.type_name()
                ));
            }
            if t.unique() && ins[..i].contains(v) {
                return Err(format!(
                    "call {name}: variable `{v}` is passed more than once and consumed"
                ));
            }
        }
        // Arguments for parameters that do not consume are copies; those
        // for unique parameters are moved out, leaving the variable consumed.
        let mut values: Vec<Option<ExtValue>> = ins
            .iter()
            .zip(entry.params)
            .map(|(v, t)| match self.vars.get(*v) {
                Some(Var::Live(x)) if !t.unique() => Some(x.clone()),
                _ => None,
            })
            .collect();
        for (i, (v, t)) in ins.iter().zip(entry.params).enumerate() {
            if t.unique()
                && let Some(var) = self.vars.get_mut(*v)
            {
                let taken = std::mem::replace(var, Var::Consumed(t.name()));
                if let Var::Live(x) = taken {
                    values[i] = Some(x);
                }
            }
        }
        let values: Vec<ExtValue> = values.into_iter().flatten().collect();
        let (results, time) = call(self.ctx, entry, values)?;
        for (o, v) in outs.iter().zip(results) {
            self.vars.insert(o.to_string(), Var::Live(v));
        }
        Ok(format!("runtime: {}\n", time.as_micros()))
    }

    fn restore(&mut self, args: &[&str]) -> Result<String, String> {
        let Some((file, pairs)) = args.split_first() else {
            return Err("restore: expected a file name, then variables and types".into());
        };
        if pairs.len() % 2 != 0 {
            return Err("restore: expected a type after each variable name".into());
        }
        let names: Vec<&str> = pairs.iter().step_by(2).copied().collect();
        self.fresh(&names)?;
        let types = pairs
            .iter()
            .skip(1)
            .step_by(2)
            .map(|t| self.known_type(t).map(Known::ext))
            .collect::<Result<Vec<_>, _>>()?;
        let f = std::fs::File::open(file).map_err(|e| format!("cannot open {file}: {e}"))?;
        let mut reader = Reader::new(f);
        let mut got = Vec::with_capacity(names.len());
        for (n, t) in names.iter().zip(&types) {
            let mut comps = Vec::new();
            for (j, c) in t.components().iter().enumerate() {
                let v = reader.read_value(&c.ranked()).map_err(|e| {
                    let part = match t {
                        ExtType::Value(_) => String::new(),
                        ExtType::Opaque(..) => format!(", component {} of type {c}", j + 1),
                    };
                    format!(
                        "restore {file}: variable `{n}` of type {}{part}: invalid input at {}: {}",
                        t.name(),
                        e.position,
                        e.message
                    )
                })?;
                comps.push(v);
            }
            if let ExtType::Opaque(o, _) = t {
                o.check(&comps).map_err(|e| {
                    format!("restore {file}: variable `{n}` of type {}: {e}", o.name)
                })?;
            }
            got.push(ExtValue::from_components(t, &mut comps.into_iter()));
        }
        match reader.at_end() {
            Ok(true) => {}
            Ok(false) => {
                return Err(format!(
                    "restore {file}: expected the end of the file after {} value{}",
                    names.len(),
                    if names.len() == 1 { "" } else { "s" }
                ));
            }
            Err(e) => {
                return Err(format!(
                    "restore {file}: invalid input after the last value at {}: {}",
                    e.position, e.message
                ));
            }
        }
        for (n, v) in names.iter().zip(got) {
            self.vars.insert(n.to_string(), Var::Live(v));
        }
        Ok(String::new())
    }

    fn store(&mut self, args: &[&str]) -> Result<String, String> {
        let Some((file, names)) = args.split_first() else {
            return Err("store: expected a file name and variables".into());
        };
        let mut bytes = Vec::new();
        for n in names {
            let comps: Vec<&Value> = match self.live(n)? {
                ExtValue::Value(v) => vec![v],
                ExtValue::Opaque(_, cs) => cs.iter().collect(),
            };
            for v in comps {
                values::write_binary(v, &mut bytes)
                    .map_err(|e| format!("store: cannot encode `{n}`: {e}"))?;
            }
        }
        std::fs::write(file, bytes).map_err(|e| format!("cannot write {file}: {e}"))?;
        Ok(String::new())
    }

    /// `new VAR TYPE FIELD…`: a record (or tuple) from its fields' values,
    /// given in the order `fields` lists them.
    fn new_record(&mut self, args: &[&str]) -> Result<String, String> {
        let [to, type_name, values @ ..] = args else {
            return Err("new: expected a variable, a record type and its fields' variables".into());
        };
        self.fresh(&[to])?;
        let (o, fields) = self.record_type(type_name)?;
        if values.len() != fields.len() {
            return Err(format!(
                "new: type {type_name} has {} field{}, but {} variable{} given",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" },
                values.len(),
                if values.len() == 1 { " is" } else { "s are" }
            ));
        }
        let mut comps = Vec::with_capacity(o.components.len());
        for (f, v) in fields.iter().zip(values) {
            let val = self.live(v)?;
            if !val.has_type(&f.ty) {
                return Err(format!(
                    "new: field `{}` of {type_name} has type {}, but variable `{v}` has type {}",
                    f.name,
                    f.ty.name(),
                    val.type_name()
                ));
            }
            comps.extend(val.clone().into_components());
        }
        self.vars
            .insert(to.to_string(), Var::Live(ExtValue::Opaque(o, comps)));
        Ok(String::new())
    }

    /// `project TO FROM FIELD`: a field of a record (or tuple) variable.
    fn project(&mut self, args: &[&str]) -> Result<String, String> {
        expect_args("project", args, 3)?;
        let (to, from, field) = (args[0], args[1], args[2]);
        self.fresh(&[to])?;
        let ExtValue::Opaque(o, comps) = self.live(from)? else {
            return Err(format!(
                "project: variable `{from}` has type {}, which is not a record type",
                self.live(from)?.type_name()
            ));
        };
        let Some(fields) = o.fields else {
            return Err(format!(
                "project: variable `{from}` has type {}, which is not a record type",
                o.name
            ));
        };
        let Some((f, range)) = o.field(field) else {
            let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
            return Err(format!(
                "project: type {} has no field `{field}`; its fields are: {}",
                o.name,
                names.join(", ")
            ));
        };
        let mut it = comps[range].iter().cloned();
        let v = ExtValue::from_components(&f.ty, &mut it);
        self.vars.insert(to.to_string(), Var::Live(v));
        Ok(String::new())
    }

    /// `construct VAR TYPE VARIANT PAYLOAD…`: a value of a sum type from
    /// its variant's name and one variable per payload value.
    fn construct(&mut self, args: &[&str]) -> Result<String, String> {
        let [to, type_name, variant, values @ ..] = args else {
            return Err(
                "construct: expected a variable, a sum type, a variant and its payload's variables"
                    .into(),
            );
        };
        self.fresh(&[to])?;
        let o = self.sum_type(type_name)?;
        let Some((number, v, _)) = o.variant(variant) else {
            let names: Vec<&str> = o
                .variants
                .unwrap_or_default()
                .iter()
                .map(|v| v.name)
                .collect();
            return Err(format!(
                "construct: type {type_name} has no variant `{variant}`; its variants are: {}",
                names.join(", ")
            ));
        };
        if values.len() != v.payload.len() {
            return Err(format!(
                "construct: variant `{variant}` of {type_name} holds {} value{}, but {} variable{} given",
                v.payload.len(),
                if v.payload.len() == 1 { "" } else { "s" },
                values.len(),
                if values.len() == 1 { " is" } else { "s are" }
            ));
        }
        let mut comps = vec![Value::scalar(number as i64)];
        for (w, (vr, _)) in o.variant_ranges().into_iter().enumerate() {
            if w != number {
                for t in vr.payload {
                    comps.extend(t.components().iter().map(crate::entry::blank));
                }
                continue;
            }
            for (i, (t, x)) in vr.payload.iter().zip(values).enumerate() {
                let val = self.live(x)?;
                if !val.has_type(t) {
                    return Err(format!(
                        "construct: value {} of variant `{variant}` has type {}, but variable `{x}` has type {}",
                        i + 1,
                        t.name(),
                        val.type_name()
                    ));
                }
                comps.extend(val.clone().into_components());
            }
        }
        self.vars
            .insert(to.to_string(), Var::Live(ExtValue::Opaque(o, comps)));
        Ok(String::new())
    }

    /// `destruct FROM VAR…`: the payload of a sum-typed variable's variant,
    /// into new variables.
    fn destruct(&mut self, args: &[&str]) -> Result<String, String> {
        let Some((from, outs)) = args.split_first() else {
            return Err(
                "destruct: expected a sum-typed variable and variables for its payload".into(),
            );
        };
        let (o, comps) = self.sum_value("destruct", from)?;
        let ranges = o.variant_ranges();
        let (v, range) = &ranges[o.variant_of(comps).unwrap_or(0)];
        if outs.len() != v.payload.len() {
            return Err(format!(
                "destruct: variable `{from}` holds variant `{}` with {} value{}, but {} variable{} given",
                v.name,
                v.payload.len(),
                if v.payload.len() == 1 { "" } else { "s" },
                outs.len(),
                if outs.len() == 1 { " is" } else { "s are" }
            ));
        }
        self.fresh(outs)?;
        let mut it = comps[range.clone()].iter().cloned();
        let got: Vec<ExtValue> = v
            .payload
            .iter()
            .map(|t| ExtValue::from_components(t, &mut it))
            .collect();
        for (n, x) in outs.iter().zip(got) {
            self.vars.insert(n.to_string(), Var::Live(x));
        }
        Ok(String::new())
    }

    /// `index TO FROM I…`: an element of an array of records or tuples
    /// (one index per dimension), or an element or row of an array of
    /// primitives.
    fn index(&mut self, args: &[&str]) -> Result<String, String> {
        let [to, from, idx @ ..] = args else {
            return Err("index: expected a new variable, an array variable and indices".into());
        };
        self.fresh(&[to])?;
        let v = self.live(from)?;
        let (shape, rank) = match v {
            ExtValue::Value(x) if x.rank() > 0 => (x.shape().to_vec(), x.rank()),
            ExtValue::Opaque(o, cs) if o.array.is_some() => {
                (o.outer_shape(cs).to_vec(), o.array.map_or(0, |a| a.rank))
            }
            v => {
                return Err(format!(
                    "index: variable `{from}` has type {}, which is not an array type",
                    v.type_name()
                ));
            }
        };
        if idx.is_empty()
            || idx.len() > rank
            || (matches!(v, ExtValue::Opaque(..)) && idx.len() != rank)
        {
            return Err(format!(
                "index: variable `{from}` is an array of rank {rank}, but {} ind{} given",
                idx.len(),
                if idx.len() == 1 { "ex is" } else { "ices are" }
            ));
        }
        let mut at = Vec::new();
        for (d, (i, n)) in idx.iter().zip(&shape).enumerate() {
            match i.parse::<usize>() {
                Ok(k) if k < *n => at.push(k),
                _ => {
                    return Err(format!(
                        "index: `{i}` is not an index of dimension {} of `{from}`, whose shape is {}",
                        d + 1,
                        crate::arr::shape_text(&shape)
                    ));
                }
            }
        }
        let pick = |x: &Value| at.iter().try_fold(x.clone(), |x, &k| x.row(k));
        let got = match v {
            ExtValue::Value(x) => ExtValue::Value(pick(x).ok_or("index: out of bounds")?),
            ExtValue::Opaque(o, cs) => {
                let elem = o.array.expect("an array type").elem;
                let comps = cs.iter().map(pick).collect::<Option<Vec<_>>>();
                ExtValue::Opaque(elem, comps.ok_or("index: out of bounds")?)
            }
        };
        self.vars.insert(to.to_string(), Var::Live(got));
        Ok(String::new())
    }

    /// The rank of an array type and the types of its elements' components
    /// (one scalar for an array of primitives), with the element type when
    /// it is opaque.
    fn element_parts(
        &self,
        cmd: &str,
        name: &str,
    ) -> Result<(usize, Vec<TypeDesc>, Option<&'static OpaqueType>), String> {
        match self.known_type(name)? {
            Known::Value(t) if t.rank > 0 => Ok((
                t.rank,
                vec![TypeDesc {
                    rank: 0,
                    elem: t.prim,
                    unique: false,
                }],
                None,
            )),
            Known::Opaque(o) if o.array.is_some() => {
                let a = o.array.expect("an array type");
                Ok((a.rank, a.elem.components.to_vec(), Some(a.elem)))
            }
            _ => Err(format!("{cmd}: `{name}` is not an array type")),
        }
    }

    /// The components of the variable `v`, which must hold an element of
    /// an array whose elements have components `parts` (and type `elem`
    /// when opaque).
    fn element_value(
        &self,
        cmd: &str,
        v: &str,
        parts: &[TypeDesc],
        elem: Option<&'static OpaqueType>,
    ) -> Result<Vec<Value>, String> {
        let x = self.live(v)?;
        let fits = match (x, elem) {
            (ExtValue::Value(x), None) => parts[0].matches(x),
            (ExtValue::Opaque(o, _), Some(e)) => o.name == e.name,
            _ => false,
        };
        if !fits {
            let want = elem.map_or(parts[0].to_string(), |e| e.name.to_string());
            return Err(format!(
                "{cmd}: the elements have type {want}, but variable `{v}` has type {}",
                x.type_name()
            ));
        }
        Ok(x.clone().into_components())
    }

    /// `new_array TO TYPE S… V…`: an array of type `TYPE` (rank `N`) with
    /// the `N` sizes `S…` and the elements `V…` in row-major order.
    fn new_array(&mut self, args: &[&str]) -> Result<String, String> {
        let [to, type_name, rest @ ..] = args else {
            return Err(
                "new_array: expected a new variable, an array type, its sizes and its elements"
                    .into(),
            );
        };
        self.fresh(&[to])?;
        let (rank, parts, elem) = self.element_parts("new_array", type_name)?;
        if rest.len() < rank {
            return Err(format!(
                "new_array: {type_name} has rank {rank}, but {} size{} given",
                rest.len(),
                if rest.len() == 1 { " is" } else { "s are" }
            ));
        }
        let (sizes, elems) = rest.split_at(rank);
        let sizes = sizes
            .iter()
            .map(|d| {
                d.parse::<usize>()
                    .map_err(|_| format!("new_array: `{d}` is not a size"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let count = sizes.iter().try_fold(1usize, |n, d| n.checked_mul(*d));
        if count != Some(elems.len()) {
            return Err(format!(
                "new_array: an array of shape {} has {} elements, but {} variable{} given",
                crate::arr::shape_text(&sizes),
                count.map_or("too many".to_string(), |c| c.to_string()),
                elems.len(),
                if elems.len() == 1 { " is" } else { "s are" }
            ));
        }
        let values = elems
            .iter()
            .map(|v| self.element_value("new_array", v, &parts, elem))
            .collect::<Result<Vec<_>, _>>()?;
        let mut comps = Vec::with_capacity(parts.len());
        for (c, t) in parts.iter().enumerate() {
            let inner: Vec<usize> = match values.first() {
                Some(v) => v[c].shape().to_vec(),
                None => vec![0; t.rank],
            };
            let mut shape = sizes.clone();
            shape.extend(&inner);
            let mut data = values::Data::with_capacity(t.elem, values.len());
            for (v, name) in values.iter().zip(elems) {
                if v[c].shape() != inner.as_slice() {
                    return Err(format!(
                        "new_array: the elements differ in their shapes: `{name}` has an array of shape {} where the first has {}",
                        crate::arr::shape_text(v[c].shape()),
                        crate::arr::shape_text(&inner)
                    ));
                }
                for x in v[c].data().iter() {
                    data.push(x);
                }
            }
            comps.push(Value::new(shape, data).map_err(|e| format!("new_array: {e}"))?);
        }
        let value = match self.known_type(type_name)? {
            Known::Opaque(o) => ExtValue::Opaque(o, comps),
            Known::Value(_) => ExtValue::Value(comps.remove(0)),
        };
        self.vars.insert(to.to_string(), Var::Live(value));
        Ok(String::new())
    }

    /// `set ARRAY V I…`: replaces the element of the array variable at the
    /// given indices (one per dimension) with the value of `V`.
    fn set(&mut self, args: &[&str]) -> Result<String, String> {
        let [arr, val, idx @ ..] = args else {
            return Err("set: expected an array variable, a value variable and indices".into());
        };
        let target = self.live(arr)?.clone();
        let type_name = target.type_name();
        let (rank, parts, elem) = self.element_parts("set", &type_name)?;
        let comps = target.into_components();
        let outer: Vec<usize> = comps[0].shape()[..rank].to_vec();
        if idx.len() != rank {
            return Err(format!(
                "set: variable `{arr}` is an array of rank {rank}, but {} ind{} given",
                idx.len(),
                if idx.len() == 1 { "ex is" } else { "ices are" }
            ));
        }
        let mut at = 0usize;
        for (d, (i, n)) in idx.iter().zip(&outer).enumerate() {
            match i.parse::<usize>() {
                Ok(k) if k < *n => at = at * n + k,
                _ => {
                    return Err(format!(
                        "set: `{i}` is not an index of dimension {} of `{arr}`, whose shape is {}",
                        d + 1,
                        crate::arr::shape_text(&outer)
                    ));
                }
            }
        }
        let new = self.element_value("set", val, &parts, elem)?;
        let mut out = Vec::with_capacity(comps.len());
        for (c, x) in comps.iter().zip(&new) {
            let inner = &c.shape()[rank..];
            if x.shape() != inner {
                return Err(format!(
                    "set: variable `{val}` holds an array of shape {} where the elements of `{arr}` have {}",
                    crate::arr::shape_text(x.shape()),
                    crate::arr::shape_text(inner)
                ));
            }
            let len = x.num_elements();
            let mut data = values::Data::with_capacity(c.prim_type(), c.num_elements());
            for (k, e) in c.data().iter().enumerate() {
                let j = k.wrapping_sub(at * len);
                data.push(if j < len {
                    x.data().get(j).unwrap_or(e)
                } else {
                    e
                });
            }
            out.push(Value::new(c.shape().to_vec(), data).map_err(|e| format!("set: {e}"))?);
        }
        let value = match self.live(arr)? {
            ExtValue::Opaque(o, _) => ExtValue::Opaque(o, out),
            ExtValue::Value(_) => ExtValue::Value(out.remove(0)),
        };
        self.vars.insert(arr.to_string(), Var::Live(value));
        Ok(String::new())
    }

    /// The array type `name` of records or tuples whose fields are all
    /// scalars or arrays of primitives, for `zip` and `unzip`.
    fn zippable(
        &self,
        cmd: &str,
        ty: &'static OpaqueType,
    ) -> Result<(usize, &'static [crate::entry::Field]), String> {
        let not = || {
            format!(
                "{cmd}: {} is not an array of records or tuples whose fields are scalars or arrays of primitives",
                ty.name
            )
        };
        let a = ty.array.ok_or_else(not)?;
        let fields = a.elem.fields.ok_or_else(not)?;
        if fields.iter().any(|f| f.ty.opaque().is_some()) {
            return Err(not());
        }
        Ok((a.rank, fields))
    }

    /// `zip TO TYPE V…`: an array of records or tuples from one array per
    /// field, in the order `fields` lists the element type's fields.
    fn zip(&mut self, args: &[&str]) -> Result<String, String> {
        let [to, type_name, values @ ..] = args else {
            return Err(
                "zip: expected a new variable, an array type and one array per field".into(),
            );
        };
        self.fresh(&[to])?;
        let o = match self.known_type(type_name)? {
            Known::Opaque(o) => o,
            Known::Value(_) => {
                return Err(format!(
                    "zip: {type_name} is not an array of records or tuples"
                ));
            }
        };
        let (rank, fields) = self.zippable("zip", o)?;
        if values.len() != fields.len() {
            return Err(format!(
                "zip: the elements of {type_name} have {} field{}, but {} array{} given",
                fields.len(),
                if fields.len() == 1 { "" } else { "s" },
                values.len(),
                if values.len() == 1 { " is" } else { "s are" }
            ));
        }
        let mut comps: Vec<Value> = Vec::new();
        for (f, v) in fields.iter().zip(values) {
            let ExtType::Value(t) = f.ty else {
                return Err(format!("zip: field `{}` is opaque", f.name));
            };
            let want = RankedType::new(t.rank + rank, t.elem);
            let x = match self.live(v)? {
                ExtValue::Value(x) if want.matches(x) => x,
                x => {
                    return Err(format!(
                        "zip: field `{}` needs an array of type {want}, but variable `{v}` has type {}",
                        f.name,
                        x.type_name()
                    ));
                }
            };
            if let Some(first) = comps.first()
                && first.shape()[..rank] != x.shape()[..rank]
            {
                return Err(format!(
                    "zip: the arrays differ in their outer sizes: {} and {} (`{v}`)",
                    crate::arr::shape_text(&first.shape()[..rank]),
                    crate::arr::shape_text(&x.shape()[..rank])
                ));
            }
            comps.push(x.clone());
        }
        self.vars
            .insert(to.to_string(), Var::Live(ExtValue::Opaque(o, comps)));
        Ok(String::new())
    }

    /// `unzip FROM V…`: the arrays of an array of records or tuples, one
    /// per field, into new variables.
    fn unzip(&mut self, args: &[&str]) -> Result<String, String> {
        let Some((from, outs)) = args.split_first() else {
            return Err("unzip: expected an array variable and one new variable per field".into());
        };
        let (o, comps) = match self.live(from)? {
            ExtValue::Opaque(o, cs) => (*o, cs.clone()),
            v => {
                return Err(format!(
                    "unzip: variable `{from}` has type {}, which is not an array of records or tuples",
                    v.type_name()
                ));
            }
        };
        let (_, fields) = self.zippable("unzip", o)?;
        if outs.len() != fields.len() {
            return Err(format!(
                "unzip: the elements of {} have {} field{}, but {} variable{} given",
                o.name,
                fields.len(),
                if fields.len() == 1 { "" } else { "s" },
                outs.len(),
                if outs.len() == 1 { " is" } else { "s are" }
            ));
        }
        self.fresh(outs)?;
        for (n, x) in outs.iter().zip(comps) {
            self.vars
                .insert(n.to_string(), Var::Live(ExtValue::Value(x)));
        }
        Ok(String::new())
    }

    fn free(&mut self, names: &[&str]) -> Result<String, String> {
        for n in names {
            self.var(n)?;
        }
        for n in names {
            self.vars.remove(*n);
        }
        Ok(String::new())
    }

    fn rename(&mut self, args: &[&str]) -> Result<String, String> {
        expect_args("rename", args, 2)?;
        let (old, new) = (args[0], args[1]);
        self.var(old)?;
        if old == new {
            return Ok(String::new());
        }
        self.fresh(&[new])?;
        if let Some(v) = self.vars.remove(old) {
            self.vars.insert(new.to_string(), v);
        }
        Ok(String::new())
    }
}

fn expect_args(cmd: &str, args: &[&str], n: usize) -> Result<(), String> {
    if args.len() == n {
        Ok(())
    } else {
        Err(format!(
            "{cmd}: expected {n} argument{}, got {}",
            if n == 1 { "" } else { "s" },
            args.len()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serves_until_the_input_ends() {
        let program = Program {
            name: "t",
            entries: &[],
        };
        let ctx = Context::new(Some(1), false).unwrap();
        let mut out = Vec::new();
        let input: &[u8] = b"entry_points\r\n\xff\nnope\n\ntypes";
        Server::new(&program, &ctx).serve(input, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "%%% OK\n%%% OK\n\
             %%% FAILURE\nthe command is not valid UTF-8\n%%% OK\n\
             %%% FAILURE\nunknown command `nope`\n%%% OK\n\
             %%% FAILURE\nempty command\n%%% OK\n\
             %%% OK\n"
        );
    }

    const F64: TypeDesc = TypeDesc {
        rank: 0,
        elem: PrimType::F64,
        unique: false,
    };
    const VEC: TypeDesc = TypeDesc {
        rank: 1,
        elem: PrimType::I64,
        unique: false,
    };
    static PAIR: OpaqueType = OpaqueType {
        name: "(f64, f64)",
        components: &[F64, F64],
        fields: Some(&[
            crate::entry::Field {
                name: "0",
                ty: ExtType::Value(F64),
            },
            crate::entry::Field {
                name: "1",
                ty: ExtType::Value(F64),
            },
        ]),
        variants: None,
        array: None,
    };
    static REC: OpaqueType = OpaqueType {
        name: "{p: (f64, f64), xs: []i64}",
        components: &[F64, F64, VEC],
        fields: Some(&[
            crate::entry::Field {
                name: "p",
                ty: ExtType::Opaque(&PAIR, false),
            },
            crate::entry::Field {
                name: "xs",
                ty: ExtType::Value(VEC),
            },
        ]),
        variants: None,
        array: None,
    };
    static ABS: OpaqueType = OpaqueType {
        name: "m.t",
        components: &[F64],
        fields: None,
        variants: None,
        array: None,
    };

    const I64: TypeDesc = TypeDesc {
        rank: 0,
        elem: PrimType::I64,
        unique: false,
    };
    static SHAPE: OpaqueType = OpaqueType {
        name: "#circle f64 | #empty | #poly []i64 (f64, f64)",
        components: &[I64, F64, VEC, F64, F64],
        fields: None,
        variants: Some(&[
            crate::entry::Variant {
                name: "circle",
                payload: &[ExtType::Value(F64)],
            },
            crate::entry::Variant {
                name: "empty",
                payload: &[],
            },
            crate::entry::Variant {
                name: "poly",
                payload: &[ExtType::Value(VEC), ExtType::Opaque(&PAIR, false)],
            },
        ]),
        array: None,
    };

    const F64S: TypeDesc = TypeDesc {
        rank: 1,
        elem: PrimType::F64,
        unique: false,
    };
    static PAIRS: OpaqueType = OpaqueType {
        name: "[](f64, f64)",
        components: &[F64S, F64S],
        fields: None,
        variants: None,
        array: Some(crate::entry::ArrayOf {
            rank: 1,
            elem: &PAIR,
        }),
    };

    /// `swap ps`: the array of pairs with each pair's halves swapped.
    fn swap(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, crate::entry::Error> {
        Ok(vec![args[1].clone(), args[0].clone()])
    }

    /// `size s`: the sum of the floating-point scalars among the
    /// components, and `s` again.
    fn size(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, crate::entry::Error> {
        let total: f64 = args
            .iter()
            .flat_map(|v| v.data().iter().filter_map(|p| p.as_f64()))
            .sum();
        let mut out = vec![Value::scalar(total)];
        out.extend(args);
        Ok(out)
    }

    /// `first r`: the first element of `r.xs` plus `r.p.1`, and `r` again.
    fn first(_: &Context, args: Vec<Value>) -> Result<Vec<Value>, crate::entry::Error> {
        let y = args[1].as_scalar().and_then(|p| p.as_f64()).unwrap_or(0.0);
        let x = args[2].data().get(0).and_then(|p| p.as_i128()).unwrap_or(0) as f64;
        let mut out = vec![Value::scalar(x + y)];
        out.extend(args);
        Ok(out)
    }

    fn unit(_: &Context, _: Vec<Value>) -> Result<Vec<Value>, crate::entry::Error> {
        Ok(vec![Value::scalar(1.5f64)])
    }

    static PROGRAM: Program = Program {
        name: "t",
        entries: &[
            EntryPoint {
                name: "first",
                params: &[ExtType::Opaque(&REC, false)],
                results: &[ExtType::Value(F64), ExtType::Opaque(&REC, false)],
                run: first,
            },
            EntryPoint {
                name: "size",
                params: &[ExtType::Opaque(&SHAPE, false)],
                results: &[ExtType::Value(F64), ExtType::Opaque(&SHAPE, true)],
                run: size,
            },
            EntryPoint {
                name: "swap",
                params: &[ExtType::Opaque(&PAIRS, false)],
                results: &[ExtType::Opaque(&PAIRS, false)],
                run: swap,
            },
            EntryPoint {
                name: "abs",
                params: &[],
                results: &[ExtType::Opaque(&ABS, false)],
                run: unit,
            },
        ],
    };

    #[test]
    fn records_are_built_projected_and_passed_whole() {
        let ctx = Context::new(Some(1), false).unwrap();
        let mut s = Server::new(&PROGRAM, &ctx);
        let dir = std::env::temp_dir().join(format!("fut-server-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("in.txt");
        std::fs::write(&file, "1.0 2.0 [7i64, 8i64]").unwrap();
        let file = file.display().to_string();
        let mut ok = |line: &str| s.command(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(ok("inputs first"), "{p: (f64, f64), xs: []i64}\n");
        assert_eq!(ok("kind m.t"), "opaque\n");
        assert_eq!(ok("kind \"(f64, f64)\""), "record\n");
        assert_eq!(
            ok("fields \"{p: (f64, f64), xs: []i64}\""),
            "p (f64, f64)\nxs []i64\n"
        );
        assert_eq!(
            ok("types"),
            "#circle f64 | #empty | #poly []i64 (f64, f64)\n(f64, f64)\n[](f64, f64)\n[]i64\nf64\nm.t\n{p: (f64, f64), xs: []i64}\n"
        );
        ok(&format!("restore {file} a f64 b f64 xs []i64"));
        ok("new p \"(f64, f64)\" a b");
        ok("new r \"{p: (f64, f64), xs: []i64}\" p xs");
        assert!(ok("call first y r2 r").starts_with("runtime: "));
        ok("project p2 r2 p");
        ok("project b2 p2 1");
        assert_eq!(ok("type p2"), "(f64, f64)\n");
        let out = dir.join("out.bin");
        ok(&format!("store {} y b2 r2", out.display()));
        let vs = values::read_values(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(
            vs,
            vec![
                Value::scalar(9.0f64),
                Value::scalar(2.0f64),
                Value::scalar(1.0f64),
                Value::scalar(2.0f64),
                Value::vector(vec![7i64, 8]),
            ]
        );
        ok("call abs t");
        assert_eq!(ok("type t"), "m.t\n");
        let mut fails = |line: &str| s.command(line).unwrap_err();
        assert!(fails("fields m.t").contains("`m.t` is not a record type"));
        assert!(
            fails("new q (f64, f64) a b")
                .ends_with("unknown type `(f64,`; the program's opaque types are: {p: (f64, f64), xs: []i64}, (f64, f64), #circle f64 | #empty | #poly []i64 (f64, f64), [](f64, f64), m.t (a type name with spaces is given in double quotes)")
        );
        assert!(fails("project q t x").contains("m.t, which is not a record type"));
        assert!(fails("project q r zz").contains("its fields are: p, xs"));
        assert!(fails("new q \"(f64, f64)\" a xs").contains("field `1`"));
        assert!(fails("call first z z2 p").contains("but variable `p` has type (f64, f64)"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn sums_are_constructed_destructed_and_passed_whole() {
        let ctx = Context::new(Some(1), false).unwrap();
        let mut s = Server::new(&PROGRAM, &ctx);
        let dir = std::env::temp_dir().join(format!("fut-server-sums-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("in.txt");
        std::fs::write(&file, "1.5 [3i64, 4i64] 0.25").unwrap();
        let file = file.display().to_string();
        const T: &str = "\"#circle f64 | #empty | #poly []i64 (f64, f64)\"";
        let mut ok = |line: &str| s.command(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(ok(&format!("kind {T}")), "sum\n");
        assert_eq!(
            ok(&format!("variants {T}")),
            "circle\n- f64\nempty\npoly\n- []i64\n- (f64, f64)\n"
        );
        assert_eq!(
            ok("outputs size"),
            "f64\n*#circle f64 | #empty | #poly []i64 (f64, f64)\n"
        );
        assert!(ok("types").contains("#circle f64 | #empty | #poly []i64 (f64, f64)\n"));
        ok(&format!("restore {file} r f64 xs []i64 q f64"));
        ok("new p \"(f64, f64)\" q q");
        ok(&format!("construct c {T} circle r"));
        ok(&format!("construct e {T} empty"));
        ok(&format!("construct g {T} poly xs p"));
        assert_eq!(ok("variant c"), "circle\n");
        assert_eq!(ok("variant e"), "empty\n");
        assert!(ok("call size n g2 g").starts_with("runtime: "));
        assert_eq!(ok("variant g2"), "poly\n");
        ok("destruct g2 ys pair");
        assert_eq!(ok("type pair"), "(f64, f64)\n");
        ok("destruct e");
        let out = dir.join("out.bin");
        ok(&format!("store {} n ys c", out.display()));
        let vs = values::read_values(&std::fs::read(&out).unwrap()).unwrap();
        // The blank radius of `poly` and 0.25 + 0.25; then the circle: its
        // number, its radius, and the blank payload of `poly`.
        assert_eq!(
            vs,
            vec![
                Value::scalar(0.5f64),
                Value::vector(vec![3i64, 4]),
                Value::scalar(0i64),
                Value::scalar(1.5f64),
                Value::empty(PrimType::I64, vec![0]).unwrap(),
                Value::scalar(0.0f64),
                Value::scalar(0.0f64),
            ]
        );
        // A stored sum restores as the same value.
        ok(&format!(
            "restore {} n2 f64 ys2 []i64 c2 {T}",
            out.display()
        ));
        assert_eq!(ok("variant c2"), "circle\n");
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "3i64 1.0 empty([0]i64) 0.0 0.0").unwrap();
        let mut fails = |line: &str| s.command(line).unwrap_err();
        assert!(
            fails(&format!("restore {} b {T}", bad.display()))
                .contains("3i64 is not a variant number of #circle f64 | #empty | #poly []i64 (f64, f64): it has 3 variants"),
        );
        assert!(
            fails(&format!("construct z {T} square r"))
                .contains("its variants are: circle, empty, poly")
        );
        assert!(fails(&format!("construct z {T} circle xs")).contains(
            "value 1 of variant `circle` has type f64, but variable `xs` has type []i64"
        ));
        assert!(
            fails(&format!("construct z {T} circle"))
                .contains("holds 1 value, but 0 variables are given")
        );
        assert!(
            fails("destruct c a b")
                .contains("holds variant `circle` with 1 value, but 2 variables are given")
        );
        assert!(fails("destruct p a b").contains("(f64, f64), which is not a sum type"));
        assert!(fails("variants \"(f64, f64)\"").contains("is not a sum type"));
        assert!(fails("destruct c r").contains("variable `r` already exists"));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn arrays_of_tuples_are_zipped_indexed_and_unzipped() {
        let ctx = Context::new(Some(1), false).unwrap();
        let mut s = Server::new(&PROGRAM, &ctx);
        let dir = std::env::temp_dir().join(format!("fut-server-arrays-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("in.txt");
        std::fs::write(&file, "[1.0, 2.0] [3.0, 4.0] [5.0]").unwrap();
        let file = file.display().to_string();
        let mut ok = |line: &str| s.command(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(ok("kind \"[](f64, f64)\""), "array\n");
        assert_eq!(ok("rank \"[](f64, f64)\""), "1\n");
        assert_eq!(ok("elemtype \"[](f64, f64)\""), "(f64, f64)\n");
        assert_eq!(ok("elemtype [][]f64"), "[]f64\n");
        ok(&format!("restore {file} a []f64 b []f64 c []f64"));
        ok("zip ps \"[](f64, f64)\" a b");
        assert_eq!(ok("shape ps"), "2\n");
        assert!(ok("call swap qs ps").starts_with("runtime: "));
        ok("index q qs 1");
        assert_eq!(ok("type q"), "(f64, f64)\n");
        ok("project q0 q 0");
        ok("unzip qs l r");
        ok("index a1 a 1");
        // Arrays from their elements, and elements replaced.
        ok("new_array m \"[](f64, f64)\" 3 q q q");
        ok("index q5 ps 0");
        ok("set m q5 1");
        ok("unzip m ml mr");
        ok("new_array g [][]f64 2 2 a1 q0 a1 a1");
        ok("set g q0 1 1");
        let grid = dir.join("grid.bin");
        ok(&format!("store {} ml mr g", grid.display()));
        assert_eq!(
            values::read_values(&std::fs::read(&grid).unwrap()).unwrap(),
            vec![
                Value::vector(vec![4.0f64, 1.0, 4.0]),
                Value::vector(vec![2.0f64, 3.0, 2.0]),
                Value::array(vec![2, 2], vec![2.0f64, 4.0, 2.0, 4.0]).unwrap(),
            ]
        );
        ok("new_array e \"[](f64, f64)\" 0");
        assert_eq!(ok("shape e"), "0\n");
        let out = dir.join("out.bin");
        ok(&format!("store {} q0 l r a1 qs", out.display()));
        let vs = values::read_values(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(
            vs,
            vec![
                Value::scalar(4.0f64),
                Value::vector(vec![3.0f64, 4.0]),
                Value::vector(vec![1.0f64, 2.0]),
                Value::scalar(2.0f64),
                Value::vector(vec![3.0f64, 4.0]),
                Value::vector(vec![1.0f64, 2.0]),
            ]
        );
        ok(&format!(
            "restore {} x f64 y []f64 z []f64 w f64 rs \"[](f64, f64)\"",
            out.display()
        ));
        assert_eq!(ok("shape rs"), "2\n");
        let mut fails = |line: &str| s.command(line).unwrap_err();
        assert!(
            fails("zip bad \"[](f64, f64)\" a c")
                .contains("differ in their outer sizes: [2] and [1]")
        );
        assert!(
            fails("zip bad \"[](f64, f64)\" a x")
                .contains("field `1` needs an array of type []f64, but variable `x` has type f64")
        );
        assert!(
            fails("zip bad \"(f64, f64)\" a b").contains("is not an array of records or tuples")
        );
        assert!(fails("index bad qs 2").contains("`2` is not an index of dimension 1"));
        assert!(fails("index bad qs").contains("array of rank 1, but 0 indices are given"));
        assert!(fails("unzip q l2 r2").contains("(f64, f64) is not an array of records or tuples"));
        assert!(fails("unzip qs l2").contains("have 2 fields, but 1 variable is given"));
        assert!(fails("index bad x 0").contains("`x` has type f64, which is not an array type"));
        assert!(
            fails("new_array bad \"[](f64, f64)\" 2 q")
                .contains("an array of shape [2] has 2 elements, but 1 variable is given")
        );
        assert!(
            fails("new_array bad \"[](f64, f64)\" 1 x")
                .contains("the elements have type (f64, f64), but variable `x` has type f64")
        );
        assert!(
            fails("new_array bad []f64 2 y y")
                .contains("the elements have type f64, but variable `y` has type []f64")
        );
        assert!(fails("set qs q 2").contains("`2` is not an index of dimension 1"));
        assert!(fails("set qs x 0").contains("the elements have type (f64, f64)"));
        assert!(fails("set x x 0").contains("`f64` is not an array type"));
        std::fs::write(dir.join("ragged.txt"), "[1.0, 2.0] [3.0]").unwrap();
        assert!(
            fails(&format!(
                "restore {} bad \"[](f64, f64)\"",
                dir.join("ragged.txt").display()
            ))
            .contains("differ in their outer sizes ([2] and [1])")
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn words_and_quotes() {
        assert_eq!(
            split_words("  call  main \"o 1\" x ").unwrap(),
            vec!["call", "main", "o 1", "x"]
        );
        assert!(split_words("store \"a").is_err());
        assert!(split_words("   ").unwrap().is_empty());
    }

    #[test]
    fn type_names() {
        assert_eq!(
            parse_type("[][]f32").unwrap(),
            RankedType::new(2, PrimType::F32)
        );
        assert_eq!(
            parse_type("bool").unwrap(),
            RankedType::new(0, PrimType::Bool)
        );
        assert!(parse_type("[]state").unwrap_err().contains("unknown type"));
    }
}
