#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (docs/testing.md, "Fuzzing").
#
#   tools/fuzz.sh TARGET [LIBFUZZER-OPTION...]   e.g. tools/fuzz.sh parse_check -max_total_time=300
#   tools/fuzz.sh --list                         the targets
#
# Builds fuzz/fuzz_targets/TARGET.rs with the nightly toolchain and the
# coverage instrumentation cargo-fuzz uses (`cargo +nightly fuzz run TARGET`
# does the same where cargo-fuzz is installed), seeds fuzz/corpus/TARGET from
# the repository's files of that kind, and runs it. Crashing inputs are saved in
# fuzz/artifacts/TARGET/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"
targets=$(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' Cargo.toml | grep -v '^fut-fuzz$' || true)
if [[ $# -lt 1 || "$1" == "--list" ]]; then
    echo "$targets"
    exit 0
fi
target=$1
shift
if ! grep -qx "$target" <<<"$targets"; then
    echo "error: no fuzz target \`$target\` (targets: $(echo $targets))" >&2
    exit 2
fi
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# With an explicit --target (as cargo-fuzz does) the flags instrument the
# target's code only, not build scripts and procedural macros.
triple=$(rustc +nightly -vV | sed -n 's/^host: //p')
cargo +nightly build --release --target "$triple" --bin "$target"
corpus="corpus/$target"
mkdir -p "$corpus" "artifacts/$target"
# Seeds: files of the kind the target reads, copied under their checksum.
seed() { for f in "$@"; do cp "$f" "$corpus/$(cksum <"$f" | cut -d' ' -f1)"; done; }
case "$target" in
    parse_check) seed $(find "$root/tests" -name '*.fut' -size -16k) ;;
    ir_parse) seed $(find "$root/compiler" -path '*/tests/files/*' \( -name '*.ir' -o -name '*.fut_ir' \)) ;;
    values_text)
        # The values of the test blocks' `input { ... }` and `output { ... }`.
        for f in $(find "$root/tests" -name '*.fut' | head -400); do
            sed -n 's/^-- *\(input\|output\) *{\(.*\)}.*$/\2/p' "$f"
        done | sort -u | split -a 5 -l 1 - "$corpus/block-"
        ;;
    values_binary)
        # After `b` and the version: rank, element type, shape, elements.
        printf '\x00 i32\x07\x00\x00\x00' >"$corpus/scalar"
        printf '\x01 f64\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf0\x3f\x00\x00\x00\x00\x00\x00\x00\x40' \
            >"$corpus/vector"
        printf '\x02  u8\x02\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x05\x06' >"$corpus/matrix"
        printf '\x00bool\x01' >"$corpus/bool"
        ;;
    server_commands)
        printf 'entry_points\ninputs main\noutputs main\ntypes\ncall main r0 r1 x y\nfree x\nrename a b\n' >"$corpus/session"
        printf 'new v main x\nproject p q 0\nkind i64\ntype_info f64\npause_profiling\nreport\nclear\n' >"$corpus/other"
        ;;
esac
exec "./target/$triple/release/$target" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="artifacts/$target/" "$@" "$corpus"
