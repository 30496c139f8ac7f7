#!/usr/bin/env bash
# The prepared GPU check (docs/gpu.md, "Checking on a GPU machine").
#
#   tools/gpu-check.sh build        here, with Rust and NVRTC: builds into target/gpu-check/
#                                   fut, the test corpus and the ADBench programs compiled
#                                   with `fut cuda` (cubins for sm_90 embedded), and packs
#                                   them into target/gpu-check.tar.xz
#   tools/gpu-check.sh run [DIR]    on the GPU machine (driver only: no Rust, no CUDA
#                                   toolkit, no network): nvidia-smi, the corpus and ADBench
#                                   against their expected results, and ADBench timings;
#                                   reports into DIR (default: $OUT, else target/gpu-check-out)
#
# The GPU machine gets the working tree plus the carried paths that `build` prints
# (the archive and the ADBench data), at most 64 MiB in all; `run` takes at most
# 8 minutes. FUT_GPU_CHECK_ARCH changes the architectures (default sm_90).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
G=target/gpu-check
ARCH=${FUT_GPU_CHECK_ARCH:-sm_90}
LIMIT_MIB=64
PROGRAMS="gmm ba hand lstm"

die() { echo "gpu-check: $*" >&2; exit 1; }

build() {
    command -v cargo >/dev/null || die "cargo is needed to build"
    [ -d bench-suite/adbench/data ] || die "no ADBench data: run python3 tools/adbench/adbench.py prepare"
    # NVRTC: the PyPI wheel unpacked into target/cuda-tools/ unless FUT_NVRTC names one.
    if [ -z "${FUT_NVRTC:-}" ]; then
        python3 tools/cuda/check.py --fetch-tools
        export FUT_NVRTC="$ROOT/target/cuda-tools/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"
    fi
    echo "== building fut (release)"
    cargo build --release --quiet -p fut
    rm -rf "$G" target/gpu-check.tar.xz
    mkdir -p "$G/bin"
    cp target/release/fut "$G/bin/fut"
    export FUT_CUDA_ARCH="$ARCH"
    # Host code for any x86-64 machine since about 2009 (SSE4.2), not only for
    # this one: the bundle runs on another machine (docs/cli.md, --target-cpu).
    export FUT_TARGET_CPU="${FUT_GPU_CHECK_CPU:-x86-64-v2}"
    echo "== compiling the corpus with the CUDA backend ($ARCH)"
    "$G/bin/fut" test --backend=cuda --write-bundle="$G/tests" tests/
    echo "== compiling the ADBench tests with the CUDA backend"
    "$G/bin/fut" test --backend=cuda --write-bundle="$G/adbench" bench-suite/adbench
    echo "== compiling the ADBench programs with fut cuda"
    for p in $PROGRAMS; do
        "$G/bin/fut" cuda --cuda-arch "$ARCH" -o "$G/bin/$p" "bench-suite/adbench/$p.fut"
    done
    strip "$G/bin/"* "$G/tests/"exe* "$G/adbench/"exe* 2>/dev/null || true
    echo "== packing"
    tar -C target -cf - gpu-check | xz -T0 -6 > target/gpu-check.tar.xz
    local archive data total
    archive=$(du -k target/gpu-check.tar.xz | cut -f1)
    data=$(du -sk bench-suite/adbench/data | cut -f1)
    total=$(( (archive + data) / 1024 ))
    echo "archive: $((archive / 1024)) MiB, ADBench data: $((data / 1024)) MiB, in all: $total MiB (limit $LIMIT_MIB)"
    [ "$total" -le "$LIMIT_MIB" ] || die "the carried files are over $LIMIT_MIB MiB"
    echo "carry: target/gpu-check.tar.xz bench-suite/adbench/data"
    echo "there: bash tools/gpu-check.sh run \"\$OUT\""
}

# The minimum and median of the microsecond times in a file, one per line.
stats() {
    sort -n "$1" | awk '{ t[NR] = $1 } END { if (NR == 0) { print "- -"; exit } printf "%.0f %.0f\n", t[1], t[int((NR + 1) / 2)] }'
}

run() {
    local out=${1:-${OUT:-target/gpu-check-out}}
    mkdir -p "$out"
    out=$(cd "$out" && pwd)
    [ -d "$G" ] || tar -C target -xJf target/gpu-check.tar.xz
    local fut="$G/bin/fut" status=0
    {
        echo "== nvidia-smi"
        nvidia-smi || echo "nvidia-smi failed"
        echo "== devices"
        "$G/bin/gmm" --list-devices || status=1
    } 2>&1 | tee "$out/devices.txt"
    echo "== the corpus on CUDA"
    timeout 300 "$fut" test --backend=cuda --bundle="$G/tests" tests/ >"$out/tests.txt" 2>&1 || status=1
    tail -n 30 "$out/tests.txt"
    echo "== ADBench on CUDA against the references"
    timeout 90 "$fut" test --backend=cuda --bundle="$G/adbench" bench-suite/adbench >"$out/adbench.txt" 2>&1 || status=1
    tail -n 20 "$out/adbench.txt"
    echo "== ADBench timings (microseconds: minimum and median of 10 runs after a warm-up)"
    {
        printf "%-6s %-22s %-22s %10s %10s\n" program entry input min median
        for p in $PROGRAMS; do
            local src="bench-suite/adbench/$p.fut"
            # Every `entry:` of the program's test blocks with its inputs.
            awk '/^-- entry:/ { e = $3 } /^-- input @/ { print e, $4 }' "$src" | while read -r entry input; do
                local name
                name=$(basename "$input" .in)
                if timeout 60 "$G/bin/$p" -e "$entry" -r 10 -t "$out/t.txt" <"bench-suite/adbench/$input" >/dev/null 2>"$out/err.txt"; then
                    printf "%-6s %-22s %-22s %10s %10s\n" "$p" "$entry" "$name" $(stats "$out/t.txt")
                else
                    printf "%-6s %-22s %-22s failed: %s\n" "$p" "$entry" "$name" "$(head -c 300 "$out/err.txt")"
                fi
            done
        done
    } 2>&1 | tee "$out/timings.txt"
    return $status
}

case "${1:-}" in
build) build ;;
run) shift; run "$@" ;;
*) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
