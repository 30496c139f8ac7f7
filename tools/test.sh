#!/usr/bin/env bash
# The project's test command (README.md, "Testing"): the Rust unit, snapshot and
# integration tests of every crate, then the .fut corpus under tests/ on the reference
# interpreter, then the folders of the corpus that the core-IR pipeline (internalise,
# optimise with the verifier after every pass, IR interpreter, compared with the
# reference interpreter) already handles completely.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --locked
cargo build --locked -p fut
./target/debug/fut test -i tests/
./target/debug/fut test --backend=ir \
  tests/interp tests/modules tests/sizes tests/structure tests/syntax tests/types \
  tests/uniqueness
