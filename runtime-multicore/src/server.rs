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
//! Commands: `call ENTRY OUT… IN…` (prints `runtime: MICROSECONDS`),
//! `restore FILE VAR TYPE …`, `store FILE VAR…` (binary values),
//! `free VAR…`, `rename OLD NEW`, `inputs ENTRY`, `outputs ENTRY`,
//! `output ENTRY` (an entry with one result), `entry_points`, `types`,
//! `type VAR`, `kind TYPE`, `rank TYPE`, `elemtype TYPE`, `shape VAR`,
//! `clear`, `report` (the profile as JSON), `pause_profiling`, `unpause_profiling`,
//! `tuning_params ENTRY` and `attributes ENTRY` (nothing to print), and
//! `set_tuning_param` (no tuning parameters exist). End of input ends the
//! server.

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, Write};

use values::{PrimType, RankedType, Reader, Value};

use crate::call::call;
use crate::context::Context;
use crate::entry::{EntryPoint, Program, TypeDesc};

/// A variable of the server: a value, or the type of a consumed one.
enum Var {
    Live(Value),
    Consumed(RankedType),
}

impl Var {
    fn ranked(&self) -> RankedType {
        match self {
            Var::Live(v) => v.value_type().ranked(),
            Var::Consumed(t) => *t,
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

fn type_line(t: &TypeDesc) -> String {
    format!("{}{t}", if t.unique { "*" } else { "" })
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
            "inputs" => {
                let e = self.entry_arg(cmd, &args)?;
                Ok(e.params.iter().map(|t| type_line(t) + "\n").collect())
            }
            "outputs" => {
                let e = self.entry_arg(cmd, &args)?;
                Ok(e.results.iter().map(|t| type_line(t) + "\n").collect())
            }
            "output" => {
                let e = self.entry_arg(cmd, &args)?;
                match e.results {
                    [t] => Ok(type_line(t) + "\n"),
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
                let types: BTreeSet<String> = self
                    .program
                    .entries
                    .iter()
                    .flat_map(|e| e.params.iter().chain(e.results))
                    .map(|t| t.to_string())
                    .collect();
                Ok(types.into_iter().map(|t| t + "\n").collect())
            }
            "type" => {
                expect_args(cmd, &args, 1)?;
                Ok(format!("{}\n", self.var(args[0])?.ranked()))
            }
            "kind" => {
                expect_args(cmd, &args, 1)?;
                let t = parse_type(args[0])?;
                Ok(if t.rank == 0 {
                    "primitive\n"
                } else {
                    "array\n"
                }
                .into())
            }
            "rank" => {
                expect_args(cmd, &args, 1)?;
                Ok(format!("{}\n", parse_type(args[0])?.rank))
            }
            "elemtype" => {
                expect_args(cmd, &args, 1)?;
                let t = parse_type(args[0])?;
                if t.rank == 0 {
                    return Err(format!("`{}` is not an array type", args[0]));
                }
                Ok(format!("{}\n", RankedType::new(t.rank - 1, t.prim)))
            }
            "shape" => {
                expect_args(cmd, &args, 1)?;
                let v = self.live(args[0])?;
                Ok(v.shape().iter().map(|d| format!("{d}\n")).collect())
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

    fn live(&self, name: &str) -> Result<&Value, String> {
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
            let vt = self.live(v)?.value_type().ranked();
            if vt != t.ranked() {
                return Err(format!(
                    "call {name}: parameter {} has type {t}, but variable `{v}` has type {vt}",
                    i + 1
                ));
            }
            if t.unique && ins[..i].contains(v) {
                return Err(format!(
                    "call {name}: variable `{v}` is passed more than once and consumed"
                ));
            }
        }
        // Arguments for parameters that do not consume are copies; those
        // for unique parameters are moved out, leaving the variable consumed.
        let mut values: Vec<Option<Value>> = ins
            .iter()
            .zip(entry.params)
            .map(|(v, t)| match self.vars.get(*v) {
                Some(Var::Live(x)) if !t.unique => Some(x.clone()),
                _ => None,
            })
            .collect();
        for (i, (v, t)) in ins.iter().zip(entry.params).enumerate() {
            if t.unique
                && let Some(var) = self.vars.get_mut(*v)
            {
                let taken = std::mem::replace(var, Var::Consumed(t.ranked()));
                if let Var::Live(x) = taken {
                    values[i] = Some(x);
                }
            }
        }
        let values: Vec<Value> = values.into_iter().flatten().collect();
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
            .map(|t| parse_type(t))
            .collect::<Result<Vec<_>, _>>()?;
        let f = std::fs::File::open(file).map_err(|e| format!("cannot open {file}: {e}"))?;
        let mut reader = Reader::new(f);
        let mut got = Vec::with_capacity(names.len());
        for (n, t) in names.iter().zip(&types) {
            let v = reader.read_value(t).map_err(|e| {
                format!(
                    "restore {file}: variable `{n}` of type {t}: invalid input at {}: {}",
                    e.position, e.message
                )
            })?;
            got.push(v);
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
            values::write_binary(self.live(n)?, &mut bytes)
                .map_err(|e| format!("store: cannot encode `{n}`: {e}"))?;
        }
        std::fs::write(file, bytes).map_err(|e| format!("cannot write {file}: {e}"))?;
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
