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
//! from `restore`; `project` takes a field out of one. `store` writes an
//! opaque value as its components in the binary value format, in order,
//! which is what `restore` reads back.
//!
//! Commands: `call ENTRY OUT… IN…` (prints `runtime: MICROSECONDS`),
//! `restore FILE VAR TYPE …`, `store FILE VAR…` (binary values),
//! `free VAR…`, `rename OLD NEW`, `inputs ENTRY`, `outputs ENTRY`,
//! `output ENTRY` (an entry with one result), `entry_points`, `types`,
//! `type VAR`, `kind TYPE`, `rank TYPE`, `elemtype TYPE`, `shape VAR`,
//! `fields TYPE`, `new VAR TYPE FIELD…`, `project TO FROM FIELD`,
//! `clear`, `report` (the profile as JSON), `pause_profiling`, `unpause_profiling`,
//! `tuning_params ENTRY` and `attributes ENTRY` (nothing to print), and
//! `set_tuning_param` (no tuning parameters exist). End of input ends the
//! server.

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
                Ok(format!("{}\n", self.array_type(args[0])?.rank))
            }
            "elemtype" => {
                expect_args(cmd, &args, 1)?;
                let t = self.array_type(args[0])?;
                Ok(format!("{}\n", RankedType::new(t.rank - 1, t.prim)))
            }
            "shape" => {
                expect_args(cmd, &args, 1)?;
                match self.live(args[0])? {
                    ExtValue::Value(v) if !v.shape().is_empty() => {
                        Ok(v.shape().iter().map(|d| format!("{d}\n")).collect())
                    }
                    v => Err(format!(
                        "variable `{}` has type {}, which is not an array type",
                        args[0],
                        v.type_name()
                    )),
                }
            }
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
            "tuning_params" | "attributes" => {
                self.entry_arg(cmd, &args)?;
                Ok(String::new())
            }
            "set_tuning_param" => {
                expect_args(cmd, &args, 2)?;
                Err(format!(
                    "unknown tuning parameter `{}`: the program has none",
                    args[0]
                ))
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

    fn array_type(&self, name: &str) -> Result<RankedType, String> {
        match self.known_type(name)? {
            Known::Value(t) if t.rank > 0 => Ok(t),
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
    };
    static ABS: OpaqueType = OpaqueType {
        name: "m.t",
        components: &[F64],
        fields: None,
    };

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
            "(f64, f64)\n[]i64\nf64\nm.t\n{p: (f64, f64), xs: []i64}\n"
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
                .ends_with("unknown type `(f64,`; the program's opaque types are: {p: (f64, f64), xs: []i64}, (f64, f64), m.t (a type name with spaces is given in double quotes)")
        );
        assert!(fails("project q t x").contains("m.t, which is not a record type"));
        assert!(fails("project q r zz").contains("its fields are: p, xs"));
        assert!(fails("new q \"(f64, f64)\" a xs").contains("field `1`"));
        assert!(fails("call first z z2 p").contains("but variable `p` has type (f64, f64)"));
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
