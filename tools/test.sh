#!/usr/bin/env bash
# The project's test command (README.md, "Testing"): the Rust unit, snapshot and
# integration tests of every crate, then the .fut corpus under tests/ on the interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
cargo build --locked -p fut
./target/debug/fut test -i tests/
