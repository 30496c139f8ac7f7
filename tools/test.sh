#!/usr/bin/env bash
# The project's test command (README.md, "Testing"): the Rust unit, snapshot and
# integration tests of every crate, then the .fut corpus under tests/ on the reference
# interpreter, then the same corpus through the core-IR pipeline (internalise, optimise
# and differentiate with the verifier after every pass, run on the IR interpreter, and
# compare with the reference interpreter), then on the multicore backend, then on the
# OpenCL backend (PoCL), then the CUDA kernels compiled without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's command and, when it ends, its time: the CI log shows where the time goes.
stage_start=$SECONDS
stage() {
  echo "== [${SECONDS}s, last stage $((SECONDS - stage_start))s] $*"
  stage_start=$SECONDS
}
trap 'stage "done"' EXIT
# NVRTC, which `fut cuda` compiles kernels with (docs/gpu.md): the PyPI wheel unpacked
# into target/cuda-tools/ (CI fetches it before this script; a no-op when it is there).
# The CUDA tests of the Rust crates find it through FUT_NVRTC, and fail on CI without it.
stage "python3 tools/cuda/check.py --fetch-tools"
python3 tools/cuda/check.py --fetch-tools
export FUT_NVRTC="${FUT_NVRTC:-$PWD/target/cuda-tools/nvidia/cuda_nvrtc/lib/libnvrtc.so.12}"
stage "cargo test --workspace --locked"
cargo test --workspace --locked
stage "cargo build --locked -p fut"
cargo build --locked -p fut
stage "./target/debug/fut test -i tests/"
./target/debug/fut test -i tests/
stage "./target/debug/fut test --backend=ir tests/"
./target/debug/fut test --backend=ir tests/
# The same corpus on the multicore backend: every program compiled to Rust, all of
# them built into one executable (docs/multicore.md).
stage "./target/debug/fut test --backend=multicore tests/"
./target/debug/fut test --backend=multicore tests/
# Differential testing (docs/testing.md): a fixed-seed batch of random programs on
# the interpreter and the IR interpreter, the first 10 of them on the multicore
# backend too (built as one executable); a disagreement is shrunk and written
# under target/fuzz-regress/, and fails the run.
stage "./target/debug/fut dev --fuzz 300 --seed 1 --backends ir,multicore --compiled-sample 10"
./target/debug/fut dev --fuzz 300 --seed 1 --backends ir,multicore --compiled-sample 10 \
    --shrink-time 60 --fuzz-dir target/fuzz-ci --regress-dir target/fuzz-regress
# The same corpus on the OpenCL backend, its kernels run by PoCL on the CPU
# (docs/gpu.md); PoCL's kernel cache stays under target/.
export POCL_CACHE_DIR="${POCL_CACHE_DIR:-$PWD/target/pocl-cache}"
# Unoptimised kernels build in half the time; the results are the same.
export FUT_OPENCL_BUILD_OPTIONS="${FUT_OPENCL_BUILD_OPTIONS:--cl-opt-disable}"
stage "./target/debug/fut test --backend=opencl tests/"
./target/debug/fut test --backend=opencl tests/
# The CUDA kernels of the corpus and of ADBench compiled by NVRTC and assembled by
# ptxas for sm_90, and those of the GPU tests and ADBench for sm_80 too (the whole
# corpus for sm_80 doubles the stage: `python3 tools/cuda/check.py tests/` checks
# both), without a GPU (docs/gpu.md), then the script's own tests.
stage "python3 tools/cuda/check.py --arch sm_90 tests/ bench-suite/adbench"
python3 tools/cuda/check.py --arch sm_90 tests/ bench-suite/adbench
stage "python3 tools/cuda/check.py --arch sm_80 tests/gpu bench-suite/adbench"
python3 tools/cuda/check.py --arch sm_80 tests/gpu bench-suite/adbench
stage "python3 -m unittest discover -s tools/cuda"
python3 -m unittest discover -s tools/cuda
# Every program of the corpus and of ADBench built with `fut cuda` (host code, and the
# kernels compiled by NVRTC into a cubin for sm_90 and PTX; check.py above assembles
# sm_80 too) into the test bundle a GPU machine runs (tools/gpu-check.sh); no case runs
# here, there is no GPU.
stage "FUT_CUDA_ARCH=sm_90 ./target/debug/fut test --backend=cuda --write-bundle=target/cuda-bundle tests/ bench-suite/adbench"
FUT_CUDA_ARCH=sm_90 ./target/debug/fut test --backend=cuda --write-bundle=target/cuda-bundle tests/ bench-suite/adbench
# The ADBench programs (bench-suite/adbench/README.md) on prepared data.
stage "python3 -m unittest discover -s tools/adbench"
python3 -m unittest discover -s tools/adbench
# The peers' benchmark script (tools/peers): its JAX programs against the NumPy
# references (skipped with a message where JAX is not installed) and its timing protocol.
stage "python3 -m unittest discover -s tools/peers"
python3 -m unittest discover -s tools/peers
stage "python3 tools/adbench/adbench.py selfcheck"
python3 tools/adbench/adbench.py selfcheck
stage "python3 tools/adbench/adbench.py prepare"
python3 tools/adbench/adbench.py prepare
stage "./target/debug/fut test -i bench-suite/adbench"
./target/debug/fut test -i bench-suite/adbench
stage "./target/debug/fut test --backend=ir bench-suite/adbench"
./target/debug/fut test --backend=ir bench-suite/adbench
stage "./target/debug/fut test --backend=opencl bench-suite/adbench"
./target/debug/fut test --backend=opencl bench-suite/adbench
