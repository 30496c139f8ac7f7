//! Helpers shared by the `fut` end-to-end tests.

// Each test crate uses only some of them.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `fut args` in `dir`.
pub fn fut(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fut"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("fut runs")
}

/// Output bytes as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs the executable `exe` with `args`, `input` on its standard input.
pub fn run_with_input(exe: &Path, args: &[&str], input: &[u8]) -> Output {
    run_with_input_env(exe, args, input, &[])
}

/// [`run_with_input`] with the environment variables `env` set.
pub fn run_with_input_env(exe: &Path, args: &[&str], input: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = Command::new(exe)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the executable starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write input");
    child.wait_with_output().expect("the executable runs")
}
