//! Running a compiled program in server mode for `fut bench`: the client
//! side of the server protocol (see `docs/executables.md`).
//!
//! A [`ServerTarget`] builds an executable for each program and starts it
//! with `--server`; the [`ServerInstance`] writes a dataset's arguments to a
//! file in the binary value format and `restore`s them into variables, then
//! times each `call` by the `runtime:` line the server prints. Arguments of
//! unique parameters are consumed by a call, so they are restored again
//! (outside the timing) before the next. Replies are read on a separate
//! thread, so a call that overruns its deadline is noticed and the server
//! killed.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use values::Value;

use super::target::{Instance, ScriptInput, Target};
use crate::db::Database;
use crate::program::Program;
use crate::script::eval::entry_args;
use crate::script::server::{Commands, ServerBackend, word};

/// Builds the server executable of a program.
pub type BuildFn = dyn Fn(&Database, &Path) -> Result<PathBuf, String> + Send + Sync;

/// A compiled backend: builds each program with `build` and runs it as a server.
pub struct ServerTarget {
    name: String,
    build: Box<BuildFn>,
    /// Options passed to the executable after `--server`.
    pub extra_args: Vec<String>,
}

impl ServerTarget {
    /// A backend called `name` whose executables `build` makes.
    pub fn new(name: impl Into<String>, build: Box<BuildFn>) -> ServerTarget {
        ServerTarget {
            name: name.into(),
            build,
            extra_args: Vec::new(),
        }
    }
}

impl Target for ServerTarget {
    fn name(&self) -> &str {
        &self.name
    }

    fn skips_compiled(&self) -> bool {
        false
    }

    fn prepare(
        &self,
        db: &Database,
        _program: &Program,
        path: &Path,
    ) -> Result<Box<dyn Instance>, String> {
        let exe = (self.build)(db, path)?;
        Ok(Box::new(ServerInstance::spawn(&exe, &self.extra_args)?))
    }
}

/// How long a server may take to start.
const START_TIMEOUT: Duration = Duration::from_secs(120);

/// The dataset a server holds in its input variables.
struct Loaded {
    entry: String,
    /// Variable, type name and whether the entry consumes it.
    inputs: Vec<(String, String, bool)>,
    outputs: Vec<String>,
    file: PathBuf,
    /// The inputs must be restored before the next call (a call consumed them).
    stale: bool,
    /// The output variables exist.
    have_outputs: bool,
}

/// A running server.
pub struct ServerInstance {
    child: Option<Child>,
    stdin: Box<dyn Write + Send>,
    replies: Receiver<std::io::Result<String>>,
    dir: PathBuf,
    loaded: Option<Loaded>,
    broken: Option<String>,
}

static NEXT_DIR: AtomicUsize = AtomicUsize::new(0);

impl ServerInstance {
    /// Starts `exe --server ARGS…` and waits for it to be ready.
    pub fn spawn(exe: &Path, args: &[String]) -> Result<ServerInstance, String> {
        // An absolute path, so that `prog` is not looked up in PATH.
        let exe = std::path::absolute(exe)
            .map_err(|e| format!("cannot locate {}: {e}", exe.display()))?;
        let exe = exe.as_path();
        let mut child = Command::new(exe)
            .arg("--server")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(format!("cannot talk to {}", exe.display()));
        };
        let mut s = ServerInstance::over(Box::new(stdin), stdout)?;
        s.child = Some(child);
        s.startup()?;
        Ok(s)
    }

    /// A client over a server's input and output streams (the server must
    /// not have printed its start-up `%%% OK` yet, or it must be read with
    /// [`ServerInstance::startup`]).
    pub fn over(
        stdin: Box<dyn Write + Send>,
        stdout: impl Read + Send + 'static,
    ) -> Result<ServerInstance, String> {
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name("fut-bench-server-reader".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let end = line.is_err();
                    if tx.send(line).is_err() || end {
                        break;
                    }
                }
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let dir = std::env::temp_dir().join(format!(
            "fut-bench-{}-{}",
            std::process::id(),
            NEXT_DIR.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(ServerInstance {
            child: None,
            stdin,
            replies: rx,
            dir,
            loaded: None,
            broken: None,
        })
    }

    /// Waits for the start-up `%%% OK`.
    pub fn startup(&mut self) -> Result<(), String> {
        self.reply(Some(Instant::now() + START_TIMEOUT), "start-up")
            .map(|_| ())
    }

    /// Reads lines up to `%%% OK`: the output lines, or the failure message.
    fn reply(&mut self, deadline: Option<Instant>, what: &str) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        let mut failed = false;
        loop {
            let line = match deadline {
                None => self
                    .replies
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => self
                    .replies
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
            };
            let line = match line {
                Ok(Ok(l)) => l,
                Ok(Err(e)) => return Err(self.break_down(format!("reading from the server: {e}"))),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.break_down(format!("the server ended during {what}")));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.break_down(format!("{what} ran past the time limit")));
                }
            };
            match line.as_str() {
                "%%% OK" => break,
                "%%% FAILURE" => failed = true,
                _ => lines.push(line),
            }
        }
        if failed {
            Err(lines.join("\n"))
        } else {
            Ok(lines)
        }
    }

    /// Marks the server unusable (killing it) and returns the message.
    fn break_down(&mut self, message: String) -> String {
        if let Some(c) = &mut self.child {
            let _ = c.kill();
            let _ = c.wait();
        }
        self.broken = Some(message.clone());
        message
    }

    /// Sends one command and reads its reply.
    fn command(
        &mut self,
        words: &[&str],
        deadline: Option<Instant>,
    ) -> Result<Vec<String>, String> {
        if let Some(m) = &self.broken {
            return Err(m.clone());
        }
        let line: Vec<String> = words
            .iter()
            .map(|w| {
                if w.contains(' ') {
                    format!("\"{w}\"")
                } else {
                    w.to_string()
                }
            })
            .collect();
        let line = line.join(" ");
        if let Err(e) = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()) {
            return Err(self.break_down(format!("cannot send `{}` to the server: {e}", words[0])));
        }
        self.reply(deadline, &format!("`{}`", words[0]))
    }

    fn restore(&mut self) -> Result<(), String> {
        let Some(l) = &self.loaded else {
            return Err("no arguments loaded".into());
        };
        let file = l.file.display().to_string();
        let mut words: Vec<String> = vec!["restore".into(), file];
        for (v, t, _) in &l.inputs {
            words.push(v.clone());
            words.push(t.clone());
        }
        let refs: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
        self.command(&refs, None)?;
        if let Some(l) = &mut self.loaded {
            l.stale = false;
        }
        Ok(())
    }

    fn free_all(&mut self) -> Result<(), String> {
        let Some(l) = self.loaded.take() else {
            return Ok(());
        };
        let mut vars: Vec<&str> = vec!["free"];
        vars.extend(l.inputs.iter().map(|(v, _, _)| v.as_str()));
        if l.have_outputs {
            vars.extend(l.outputs.iter().map(|s| s.as_str()));
        }
        self.command(&vars, None).map(|_| ())
    }
}

impl Commands for ServerInstance {
    fn send(&mut self, line: &str) -> Result<Vec<String>, String> {
        if let Some(m) = &self.broken {
            return Err(m.clone());
        }
        if let Err(e) = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()) {
            return Err(self.break_down(format!("cannot send a command to the server: {e}")));
        }
        self.reply(None, "the script input")
    }
}

/// The dataset of a call of `entry`, whose arguments are in `file`, given
/// the server's `inputs` and `outputs` lines for it.
fn loaded(entry: &str, inputs: &[String], outputs: &[String], file: PathBuf) -> Loaded {
    Loaded {
        entry: entry.to_string(),
        inputs: inputs
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let unique = t.starts_with('*');
                (
                    format!("in{i}"),
                    t.trim_start_matches('*').to_string(),
                    unique,
                )
            })
            .collect(),
        outputs: (0..outputs.len()).map(|i| format!("out{i}")).collect(),
        file,
        stale: true,
        have_outputs: false,
    }
}

impl Instance for ServerInstance {
    fn load(&mut self, entry: &str, args: Vec<Value>) -> Result<(), String> {
        self.free_all()?;
        let inputs = self.command(&["inputs", entry], None)?;
        let outputs = self.command(&["outputs", entry], None)?;
        if inputs.len() != args.len() {
            return Err(format!(
                "entry point `{entry}` takes {} arguments, but the dataset has {}",
                inputs.len(),
                args.len()
            ));
        }
        let file = self.dir.join("input.bin");
        let mut bytes = Vec::new();
        for v in &args {
            values::write_binary(v, &mut bytes).map_err(|e| e.to_string())?;
        }
        std::fs::write(&file, bytes)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        self.loaded = Some(loaded(entry, &inputs, &outputs, file));
        self.restore()
    }

    /// Runs the script against the server, `store`s the arguments it gives
    /// (opaque ones as their components) into the dataset's file and frees
    /// every variable the script made; the arguments are then restored from
    /// the file as those of any other dataset.
    fn load_script(&mut self, script: &ScriptInput) -> Result<(), String> {
        self.free_all()?;
        let entry = script.entry.name.as_str();
        let inputs = self.command(&["inputs", entry], None)?;
        let outputs = self.command(&["outputs", entry], None)?;
        let file = self.dir.join("input.bin");
        let dir = self.dir.clone();
        let mut backend = ServerBackend::over(Box::new(&mut *self), dir);
        let stored = entry_args(script.env, &mut backend, script.expr, script.entry)
            .map_err(|e| script.message(e, &|e| e.message.clone()))
            .and_then(|args| {
                let vars = backend.arguments(script.entry, args)?;
                let mut words = vec!["store".to_string(), word(&file.display().to_string())];
                words.extend(vars);
                backend.command(&words).map(|_| ())
            });
        backend.free_variables();
        drop(backend);
        stored?;
        self.loaded = Some(loaded(entry, &inputs, &outputs, file));
        self.restore()
    }

    fn run(&mut self, deadline: Option<Instant>) -> Result<Duration, String> {
        let Some(l) = &self.loaded else {
            return Err("no arguments loaded".into());
        };
        let (stale, have_outputs) = (l.stale, l.have_outputs);
        let outputs = l.outputs.clone();
        let inputs: Vec<String> = l.inputs.iter().map(|(v, _, _)| v.clone()).collect();
        let entry = l.entry.clone();
        let consumes = l.inputs.iter().any(|(_, _, u)| *u);
        if have_outputs {
            let mut words = vec!["free"];
            words.extend(outputs.iter().map(|s| s.as_str()));
            self.command(&words, None)?;
        }
        if stale {
            let mut words = vec!["free"];
            words.extend(inputs.iter().map(|s| s.as_str()));
            self.command(&words, None)?;
            self.restore()?;
        }
        let mut words = vec!["call", entry.as_str()];
        words.extend(outputs.iter().map(|s| s.as_str()));
        words.extend(inputs.iter().map(|s| s.as_str()));
        let result = self.command(&words, deadline);
        if let Some(l) = &mut self.loaded {
            l.have_outputs = result.is_ok();
            l.stale = consumes;
        }
        let lines = result?;
        let times: Vec<u64> = lines
            .iter()
            .filter_map(|l| l.strip_prefix("runtime: "))
            .filter_map(|t| t.trim().parse().ok())
            .collect();
        match times.as_slice() {
            [us] => Ok(Duration::from_micros(*us)),
            [] => Err(format!(
                "the server printed no `runtime:` line for `call {entry}`"
            )),
            _ => Err(format!(
                "the server printed several `runtime:` lines for `call {entry}`"
            )),
        }
    }

    fn results(&mut self) -> Result<Vec<Value>, String> {
        let Some(l) = &self.loaded else {
            return Err("no arguments loaded".into());
        };
        if !l.have_outputs {
            return Err("no successful run yet".into());
        }
        let outputs = l.outputs.clone();
        let file = self.dir.join("output.bin");
        let file_name = file.display().to_string();
        let mut words = vec!["store", file_name.as_str()];
        words.extend(outputs.iter().map(|s| s.as_str()));
        self.command(&words, None)?;
        let bytes = std::fs::read(&file).map_err(|e| format!("cannot read {file_name}: {e}"))?;
        values::read_values(&bytes).map_err(|e| format!("the server's results: {e}"))
    }
}

impl Drop for ServerInstance {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            // Closing standard input ends a server; kill one that is stuck.
            self.stdin = Box::new(std::io::sink());
            let deadline = Instant::now() + Duration::from_secs(2);
            loop {
                match c.try_wait() {
                    Ok(Some(_)) | Err(_) => break,
                    Ok(None) if Instant::now() >= deadline => {
                        let _ = c.kill();
                        let _ = c.wait();
                        break;
                    }
                    Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
