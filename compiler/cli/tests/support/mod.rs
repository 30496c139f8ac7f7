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

/// Runs `fut args` in `dir` with `stdin` on its standard input (the
/// command may exit before reading it all); `NO_COLOR` set when
/// `no_color`, removed otherwise.
pub fn fut_stdin(dir: &Path, args: &[&str], stdin: &[u8], no_color: bool) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fut"));
    cmd.args(args).current_dir(dir);
    if no_color {
        cmd.env("NO_COLOR", "1");
    } else {
        cmd.env_remove("NO_COLOR");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fut starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    // A broken pipe is fine.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().expect("fut finishes")
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

/// `cargo build --release` of the crate at `manifest` into `target`, with
/// the environment's flags and target folder removed: `--offline` first,
/// as for executables, then online if cargo says it needs the network.
pub fn cargo_build(manifest: &Path, target: &Path) -> Output {
    let build = |offline: bool| {
        let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        c.args(["build", "--release", "--quiet", "--manifest-path"])
            .arg(manifest)
            .arg("--target-dir")
            .arg(target);
        if offline {
            c.arg("--offline");
        }
        c.env_remove("RUSTFLAGS")
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_BUILD_TARGET_DIR");
        c.output().expect("cargo runs")
    };
    let out = build(true);
    let err = text(&out.stderr);
    if !out.status.success() && (err.contains("offline") || err.contains("network")) {
        return build(false);
    }
    out
}
