//! A [`Backend`] over the server protocol of compiled programs
//! (`./prog --server`, `docs/executables.md`): opaque values stay in the
//! server as variables, and scripts name them; only scalars and arrays of
//! primitives travel, through files in the binary value format.
//!
//! Each call `restore`s its transparent arguments, builds tuples and records
//! written in the script with `new` (their fields' types from `fields`),
//! `call`s the entry with fresh output variables, and `store`s its
//! transparent results to read them back; opaque results stay as variables.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use semantic::{EntryPoint, EntryType};
use values::Value;

use super::eval::{Backend, Val};

/// How commands reach a server: one command line in, its output lines (up
/// to `%%% OK`) or its failure message out.
pub trait Commands {
    /// Sends `line` (words already quoted) and reads the reply.
    fn send(&mut self, line: &str) -> Result<Vec<String>, String>;

    /// Reads the server's start-up reply, where it has not been read.
    fn startup(&mut self) -> Result<(), String> {
        Ok(())
    }
}

impl<T: Commands + ?Sized> Commands for &mut T {
    fn send(&mut self, line: &str) -> Result<Vec<String>, String> {
        (**self).send(line)
    }

    fn startup(&mut self) -> Result<(), String> {
        (**self).startup()
    }
}

/// A server's standard input and output.
struct Streams<'a> {
    input: &'a mut dyn Write,
    output: &'a mut dyn BufRead,
}

impl Streams<'_> {
    fn reply(&mut self) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        let mut failed = false;
        loop {
            let mut l = String::new();
            match self.output.read_line(&mut l) {
                Ok(0) => return Err("the server stopped".into()),
                Ok(_) => {}
                Err(e) => return Err(format!("cannot read the server's reply: {e}")),
            }
            match l.trim_end_matches(['\n', '\r']) {
                "%%% OK" => break,
                "%%% FAILURE" => failed = true,
                other => lines.push(other.to_string()),
            }
        }
        if failed {
            Err(lines.join("\n"))
        } else {
            Ok(lines)
        }
    }
}

impl Commands for Streams<'_> {
    fn send(&mut self, line: &str) -> Result<Vec<String>, String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("cannot write to the server: {e}"))?;
        self.reply()
    }

    fn startup(&mut self) -> Result<(), String> {
        self.reply().map(|_| ())
    }
}

/// A running server, reached through its standard input and output.
pub struct ServerBackend<'a> {
    io: Box<dyn Commands + 'a>,
    /// Where data files for `restore` and `store` go.
    dir: PathBuf,
    next: usize,
    /// Each entry's parameter types as the server names them.
    inputs: HashMap<String, Vec<String>>,
    /// The variables made so far (see [`ServerBackend::free_variables`]).
    made: Vec<String>,
}

fn failure(message: String) -> interp::RuntimeError {
    interp::RuntimeError {
        message,
        span: None,
        backtrace: Vec::new(),
    }
}

/// A word of a command: in double quotes when it holds spaces.
pub fn word(w: &str) -> String {
    if w.contains(char::is_whitespace) {
        format!("\"{w}\"")
    } else {
        w.to_string()
    }
}

impl<'a> ServerBackend<'a> {
    /// A backend talking to a server that has printed its start-up `%%% OK`
    /// (see [`ServerBackend::startup`]), writing data files into `dir`.
    pub fn new(
        input: &'a mut dyn Write,
        output: &'a mut dyn BufRead,
        dir: PathBuf,
    ) -> ServerBackend<'a> {
        ServerBackend::over(Box::new(Streams { input, output }), dir)
    }

    /// A backend sending its commands through `io`, writing data files into
    /// `dir`.
    pub fn over(io: Box<dyn Commands + 'a>, dir: PathBuf) -> ServerBackend<'a> {
        ServerBackend {
            io,
            dir,
            next: 0,
            inputs: HashMap::new(),
            made: Vec::new(),
        }
    }

    /// Reads the server's start-up reply (of a backend made by
    /// [`ServerBackend::new`]).
    pub fn startup(&mut self) -> Result<(), String> {
        self.io.startup()
    }

    /// Sends one command and returns its output, or the failure's message.
    pub fn command(&mut self, words: &[String]) -> Result<Vec<String>, String> {
        self.io.send(&words.join(" "))
    }

    /// The variables holding `args`, the checked arguments of `entry` (from
    /// [`super::eval::entry_args`]): those already in the server, or new
    /// ones restored or built from the values.
    pub fn arguments(
        &mut self,
        entry: &EntryPoint,
        args: Vec<Val<String>>,
    ) -> Result<Vec<String>, String> {
        let types = self.entry_inputs(&entry.name)?;
        let mut ins = Vec::new();
        for (a, t) in args.into_iter().zip(&types) {
            ins.push(self.variable(a, t)?);
        }
        Ok(ins)
    }

    /// Frees every variable this backend has made and not freed. Where
    /// that fails (a call that failed made no results), each is freed on
    /// its own, and those the server does not hold are passed over.
    pub fn free_variables(&mut self) {
        let made = std::mem::take(&mut self.made);
        if made.is_empty() {
            return;
        }
        let mut cmd = vec!["free".to_string()];
        cmd.extend(made.iter().cloned());
        if self.command(&cmd).is_err() {
            for v in made {
                let _ = self.command(&["free".to_string(), v]);
            }
        }
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        let v = format!("script_v{}", self.next);
        self.made.push(v.clone());
        v
    }

    fn file(&mut self) -> PathBuf {
        self.next += 1;
        self.dir.join(format!("script_{}.bin", self.next))
    }

    /// The variable holding `v`, a value of the server's type `ty`.
    fn variable(&mut self, v: Val<String>, ty: &str) -> Result<String, String> {
        match v {
            Val::Opaque(var, _) => Ok(var),
            Val::Data(d) => self.restore(&d, ty),
            Val::Literal(t, _) => {
                let d = values::parse_value(&t).map_err(|e| e.message)?;
                self.restore(&d, ty)
            }
            Val::Tuple(vs) => self.build(vs, ty),
            Val::Record(fs) => self.build(fs.into_iter().map(|(_, v)| v).collect(), ty),
            Val::Str(_) => Err("a string is not a value of the program".into()),
        }
    }

    fn restore(&mut self, d: &Value, ty: &str) -> Result<String, String> {
        let path = self.file();
        let mut bytes = Vec::new();
        values::write_binary(d, &mut bytes).map_err(|e| e.to_string())?;
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let var = self.fresh();
        self.command(&[
            "restore".into(),
            word(&path.display().to_string()),
            var.clone(),
            word(ty),
        ])?;
        let _ = std::fs::remove_file(&path);
        Ok(var)
    }

    /// A tuple or record of type `ty` built with `new` from its fields, in
    /// the order `fields` lists them (a record's by name, as the script's).
    fn build(&mut self, vs: Vec<Val<String>>, ty: &str) -> Result<String, String> {
        let fields = self.command(&["fields".into(), word(ty)])?;
        if fields.len() != vs.len() {
            return Err(format!(
                "the type {ty} has {} fields, but the script gives {}",
                fields.len(),
                vs.len()
            ));
        }
        let mut vars = Vec::new();
        for (v, line) in vs.into_iter().zip(&fields) {
            let fty = line.split_once(' ').map_or("", |(_, t)| t);
            vars.push(self.variable(v, fty)?);
        }
        let var = self.fresh();
        let mut cmd = vec!["new".to_string(), var.clone(), word(ty)];
        cmd.extend(vars);
        self.command(&cmd)?;
        Ok(var)
    }

    fn entry_inputs(&mut self, entry: &str) -> Result<Vec<String>, String> {
        if let Some(ts) = self.inputs.get(entry) {
            return Ok(ts.clone());
        }
        let ts: Vec<String> = self
            .command(&["inputs".into(), word(entry)])?
            .into_iter()
            .map(|t| t.trim_start_matches('*').to_string())
            .collect();
        self.inputs.insert(entry.to_string(), ts.clone());
        Ok(ts)
    }
}

impl Backend for ServerBackend<'_> {
    type Opaque = String;

    fn call(
        &mut self,
        entry: &EntryPoint,
        args: Vec<Val<String>>,
    ) -> Result<Vec<Val<String>>, interp::RuntimeError> {
        let ins = self.arguments(entry, args).map_err(failure)?;
        let outs: Vec<String> = entry.results.iter().map(|_| self.fresh()).collect();
        let mut cmd = vec!["call".to_string(), word(&entry.name)];
        cmd.extend(outs.iter().cloned());
        cmd.extend(ins);
        self.command(&cmd).map_err(failure)?;
        let mut results = Vec::new();
        for (var, t) in outs.into_iter().zip(&entry.results) {
            match t {
                EntryType::Opaque(text) => results.push(Val::Opaque(var, text.clone())),
                EntryType::Array { .. } => {
                    let path = self.file();
                    self.command(&[
                        "store".into(),
                        word(&path.display().to_string()),
                        var.clone(),
                    ])
                    .map_err(failure)?;
                    let bytes = std::fs::read(&path)
                        .map_err(|e| failure(format!("cannot read {}: {e}", path.display())))?;
                    let _ = std::fs::remove_file(&path);
                    let mut vs = values::read_values(&bytes).map_err(|e| failure(e.to_string()))?;
                    self.command(&["free".into(), var.clone()])
                        .map_err(failure)?;
                    self.made.retain(|v| *v != var);
                    if vs.len() != 1 {
                        return Err(failure(format!(
                            "the server stored {} values for one result",
                            vs.len()
                        )));
                    }
                    results.push(Val::Data(vs.remove(0)));
                }
            }
        }
        Ok(results)
    }
}
