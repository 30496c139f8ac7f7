#!/usr/bin/env python3
"""Compile-only check of the CUDA dialect, without a GPU (docs/gpu.md, "Checking the
CUDA dialect without a GPU").

For every program named (files, or folders searched recursively for `.fut` files that
have a `-- ==` test block or lie under `bench-suite/`), runs
`target/debug/fut dev --print=cuda`, takes the kernel source from its output, compiles
it with NVRTC to PTX for compute_90 and compute_80, and assembles each with
`ptxas -v` for sm_90 and sm_80. Fails (exit 1) listing the programs whose kernels do
not compile or assemble, or spill registers beyond `--max-spill` bytes.

NVRTC and ptxas come from NVIDIA's PyPI wheels (nvidia-cuda-nvrtc-cu12 and
nvidia-cuda-nvcc-cu12), downloaded with pip and unpacked into target/cuda-tools/ the
first time (no CUDA toolkit and no GPU needed).

    python3 tools/cuda/check.py tests/ bench-suite/adbench
"""

import argparse
import ctypes
import hashlib
import multiprocessing
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

# The wheels, pinned: NVRTC and ptxas of one toolkit release.
CUDA_VERSION = "12.9.86"
WHEELS = {
    "nvidia-cuda-nvrtc-cu12": [
        "nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
        "nvidia/cuda_nvrtc/lib/libnvrtc-builtins.so.12.9",
    ],
    "nvidia-cuda-nvcc-cu12": ["nvidia/cuda_nvcc/bin/ptxas"],
}
NVRTC = "nvidia/cuda_nvrtc/lib/libnvrtc.so.12"
PTXAS = "nvidia/cuda_nvcc/bin/ptxas"

# The devices to build for. NVRTC compiles for compute_XY and ptxas assembles that
# PTX for sm_XY: what a runtime building a cubin for an sm_XY device does (NVRTC with
# `--gpu-architecture=sm_XY` is the same two steps). Compiling once for compute_80 and
# assembling for both would be cheaper, and gives the same SASS today, but would never
# compile code under `__CUDA_ARCH__ >= 900` (in the prelude or CUDA's own headers).
ARCHS = ["sm_90", "sm_80"]

# NVRTC's options: those `gpu::kernel_c::prelude::build_options(Target::Cuda)` lists,
# read from its source so that the two cannot differ, and `-w` (the log then holds
# errors only).
PRELUDE_RS = ROOT / "compiler" / "gpu" / "src" / "kernel_c" / "prelude.rs"
EXTRA_OPTIONS = ["-w"]

# The bytes of spill stores or loads a kernel may have (`--max-spill`).
MAX_SPILL = 0

LOG_LINES = 12
FUT_TIMEOUT = 300


class ToolError(Exception):
    """An error to report in one line, without a traceback."""


# ---- Programs ------------------------------------------------------------------------


def comment_body(line):
    return line[2:] if line.startswith("--") else None


def test_block(src):
    """The directives of the first test block (comment markers removed, joined by
    newlines), or None when the program has no `-- ==` block."""
    lines = src.split("\n")
    i = 0
    while i < len(lines):
        if comment_body(lines[i]) is None:
            i += 1
            continue
        start = i
        while i < len(lines) and comment_body(lines[i]) is not None:
            i += 1
        block = [comment_body(line) for line in lines[start:i]]
        for k, body in enumerate(block):
            if body.strip() == "==":
                return "\n".join(block[k + 1 :])
    return None


def expects_compile_error(src):
    """Whether the program is a test of a compile-time error: its first test block
    starts (after `tags { … }`) with `error:`."""
    block = test_block(src)
    if block is None:
        return False
    rest = block.lstrip()
    m = re.match(r"tags\s*\{[^}]*\}", rest)
    if m:
        rest = rest[m.end() :].lstrip()
    return rest.startswith("error:")


def collect_programs(paths):
    """The programs named by `paths`: files as given, folders searched recursively for
    `.fut` files with a test block or under `bench-suite/`; sorted, no duplicates."""
    out = []
    for p in paths:
        p = Path(p)
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            for f in sorted(p.rglob("*.fut")):
                if "bench-suite" in f.resolve().parts:
                    out.append(f)
                    continue
                try:
                    src = f.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                if test_block(src) is not None:
                    out.append(f)
        else:
            raise ToolError(f"{p}: no such file or directory")
    seen, unique = set(), []
    for p in out:
        if p.resolve() not in seen:
            seen.add(p.resolve())
            unique.append(p)
    return unique


# ---- fut's output ----------------------------------------------------------------------

KERNELS_LINE = re.compile(r"// (\d+) kernels")


def kernel_source(output):
    """The kernel source in the output of `fut dev --print=cuda` and the number of
    kernels it announces: the lines after `// N kernels` up to the first
    `// host loop in` line."""
    lines = output.split("\n")
    for i, line in enumerate(lines):
        m = KERNELS_LINE.fullmatch(line)
        if m:
            body = lines[i + 1 :]
            for j, rest in enumerate(body):
                if rest.startswith("// host loop in "):
                    body = body[:j]
                    break
            return "\n".join(body).rstrip("\n") + "\n", int(m.group(1))
    raise ValueError("no `// N kernels` line in the output of fut dev --print=cuda")


def kernel_names(src):
    """The names of the `__kernel void` definitions (CUDA's `__launch_bounds__(…)`
    may come before the name)."""
    bounds = r"(?:__launch_bounds__\s*\([^)]*\)\s*)?"
    return re.findall(r"^__kernel\s+void\s+" + bounds + r"(\w+)\s*\(", src, re.M)


# ---- ptxas -v ------------------------------------------------------------------------


def parse_ptxas(text):
    """The functions `ptxas -v` reports, as {name: {"registers", "stack", "spill_stores",
    "spill_loads", "entry"}}."""
    funcs = {}
    entries = set(re.findall(r"Compiling entry function '([^']+)'", text))
    current = None
    for line in text.split("\n"):
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            current = m.group(1)
            funcs.setdefault(
                current,
                {
                    "registers": 0,
                    "stack": 0,
                    "spill_stores": 0,
                    "spill_loads": 0,
                    "entry": current in entries,
                },
            )
            continue
        m = re.search(
            r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
            line,
        )
        if m and current is not None:
            f = funcs[current]
            f["stack"], f["spill_stores"], f["spill_loads"] = map(int, m.groups())
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current is not None:
            funcs[current]["registers"] = int(m.group(1))
    return funcs


def spills(funcs, bound):
    """The functions that spill more than `bound` bytes, as messages."""
    return [
        f"{name}: {f['spill_stores']} bytes spill stores, {f['spill_loads']} bytes spill loads"
        for name, f in sorted(funcs.items())
        if f["spill_stores"] > bound or f["spill_loads"] > bound
    ]


def cuda_build_options(rust_source):
    """The strings of `Target::Cuda => &[ ... ]` in prelude.rs's `build_options`."""
    m = re.search(r"fn build_options\b.*?Target::Cuda\s*=>\s*&\[(.*?)\]", rust_source, re.S)
    if not m:
        raise ToolError(f"cannot find the CUDA options of build_options in {PRELUDE_RS}")
    return re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))


# ---- Tools ---------------------------------------------------------------------------


def ensure_tools(tools):
    """NVRTC and ptxas under `tools`, downloaded and unpacked when missing."""
    stamp = tools / "VERSION"
    if stamp.is_file() and stamp.read_text().strip() == CUDA_VERSION:
        if all((tools / f).is_file() for files in WHEELS.values() for f in files):
            return
    print(f"cuda check: fetching NVRTC and ptxas {CUDA_VERSION} into {tools}", flush=True)
    tools.mkdir(parents=True, exist_ok=True)
    # Results cached by another release's tools are never looked up again.
    shutil.rmtree(tools / "cache", ignore_errors=True)
    with tempfile.TemporaryDirectory(dir=tools) as d:
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        cmd += ["--only-binary=:all:", "-d", d]
        cmd += [f"{w}=={CUDA_VERSION}" for w in WHEELS]
        r = subprocess.run(cmd)
        if r.returncode != 0:
            raise ToolError(f"cannot download the CUDA wheels ({' '.join(cmd)})")
        for wheel, files in WHEELS.items():
            prefix = wheel.replace("-", "_") + "-"
            found = [w for w in Path(d).glob("*.whl") if w.name.startswith(prefix)]
            if not found:
                raise ToolError(f"pip downloaded no wheel of {wheel}")
            with zipfile.ZipFile(found[0]) as z:
                for f in files:
                    z.extract(f, tools)
    ptxas = tools / PTXAS
    ptxas.chmod(0o755)
    stamp.write_text(CUDA_VERSION + "\n")


class Nvrtc:
    """NVRTC through ctypes."""

    def __init__(self, path):
        # RTLD_GLOBAL: NVRTC then finds its builtins library next to itself.
        self.lib = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        self.lib.nvrtcGetErrorString.argtypes = [ctypes.c_int]
        self.lib.nvrtcCreateProgram.argtypes = [
            ctypes.POINTER(ctypes.c_void_p),
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_void_p,
            ctypes.c_void_p,
        ]
        self.lib.nvrtcCompileProgram.argtypes = [
            ctypes.c_void_p,
            ctypes.c_int,
            ctypes.POINTER(ctypes.c_char_p),
        ]
        for f in ["nvrtcGetProgramLogSize", "nvrtcGetPTXSize"]:
            getattr(self.lib, f).argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t)]
        for f in ["nvrtcGetProgramLog", "nvrtcGetPTX"]:
            getattr(self.lib, f).argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        self.lib.nvrtcDestroyProgram.argtypes = [ctypes.POINTER(ctypes.c_void_p)]

    def check(self, r, what):
        if r != 0:
            raise ToolError(f"{what}: {self.lib.nvrtcGetErrorString(r).decode()}")

    def version(self):
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
        return f"{major.value}.{minor.value}"

    def compile(self, src, arch, options):
        """(PTX or None, log) of `src` compiled for the virtual architecture `arch`
        with `options`."""
        prog = ctypes.c_void_p()
        self.check(
            self.lib.nvrtcCreateProgram(
                ctypes.byref(prog), src.encode(), b"kernels.cu", 0, None, None
            ),
            "nvrtcCreateProgram",
        )
        try:
            opts = [f"--gpu-architecture={arch}".encode()]
            opts += [o.encode() for o in options]
            r = self.lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
            n = ctypes.c_size_t()
            self.check(self.lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n)), "log size")
            buf = ctypes.create_string_buffer(n.value + 1)
            self.check(self.lib.nvrtcGetProgramLog(prog, buf), "log")
            log = buf.value.decode(errors="replace")
            if r != 0:
                return None, log or self.lib.nvrtcGetErrorString(r).decode()
            self.check(self.lib.nvrtcGetPTXSize(prog, ctypes.byref(n)), "PTX size")
            buf = ctypes.create_string_buffer(n.value + 1)
            self.check(self.lib.nvrtcGetPTX(prog, buf), "PTX")
            return buf.value, log
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(prog))


# ---- Checking one program ------------------------------------------------------------

_worker = {}


def init_worker(tools, fut, options, archs, max_spill, cache, dump):
    _worker.update(
        options=options,
        nvrtc=Nvrtc(tools / NVRTC),
        ptxas=str(tools / PTXAS),
        fut=fut,
        archs=archs,
        max_spill=max_spill,
        cache=cache,
        dump=dump,
    )


def first_lines(text, n=LOG_LINES):
    lines = text.strip("\n").split("\n")
    more = len(lines) - n
    return "\n".join(lines[:n] + ([f"... ({more} more lines)"] if more > 0 else []))


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def build(cuda, virt, real, times, stem):
    """`ptxas -v`'s report of `cuda` compiled for `virt` and assembled for `real`, or
    raises Failure. Successful reports are cached under the hash of everything that
    determines them."""
    cache = _worker["cache"]
    key = hashlib.sha256(
        "\0".join([CUDA_VERSION, virt, real, *_worker["options"], cuda]).encode()
    ).hexdigest()
    if cache is not None and stem is None:
        try:
            out = (cache / f"{key}.txt").read_text()
            times["cached"] += 1
            return out
        except OSError:
            pass
    t = time.process_time()
    ptx, log = _worker["nvrtc"].compile(cuda, virt, _worker["options"])
    times["nvrtc"] += time.process_time() - t
    if ptx is None:
        raise Failure(f"NVRTC ({virt}):\n{first_lines(log)}")
    if stem is not None:
        Path(f"{stem}.{virt}.ptx").write_bytes(ptx)
    with tempfile.TemporaryDirectory() as d:
        # Relative names, run in `d`: ptxas's messages name the file.
        ptx_name = f"kernels.{virt}.ptx"
        (Path(d) / ptx_name).write_bytes(ptx)
        t = children_cpu()
        a = subprocess.run(
            [_worker["ptxas"], f"-arch={real}", "-v", ptx_name, "-o", f"kernels.{real}.cubin"],
            capture_output=True,
            text=True,
            cwd=d,
        )
        times["ptxas"] += children_cpu() - t
    out = a.stdout + a.stderr
    if a.returncode != 0:
        errors = [line for line in out.split("\n") if line.strip() and "info    :" not in line]
        raise Failure(f"ptxas ({real}):\n{first_lines(chr(10).join(errors) or out)}")
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cache / f"{key}.{os.getpid()}.tmp"
        tmp.write_text(out)
        tmp.replace(cache / f"{key}.txt")
    return out


class Failure(Exception):
    """A program whose kernels do not compile or assemble."""


def check_program(path):
    """The outcome of one program: a dict with "status" (ok, nokernels, skipped or
    failed) and what was found."""
    res = {"path": str(path), "kernels": 0, "funcs": {}, "notes": []}
    times = res["times"] = {"fut": 0.0, "nvrtc": 0.0, "ptxas": 0.0, "cached": 0}
    try:
        src = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as e:
        return {**res, "status": "failed", "why": f"cannot read: {e}"}
    t = children_cpu()
    try:
        r = subprocess.run(
            [_worker["fut"], "dev", "--print=cuda", str(path)],
            capture_output=True,
            text=True,
            timeout=FUT_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return {**res, "status": "failed", "why": f"fut dev timed out after {FUT_TIMEOUT} s"}
    times["fut"] = children_cpu() - t
    if r.returncode != 0:
        lines = [line for line in r.stderr.split("\n") if line.strip()] or ["(no message)"]
        if r.returncode == 101 or "panicked" in r.stderr:
            # A crash, not a rejection: `fut test` fails it too.
            return {**res, "status": "failed", "why": "fut dev crashed:\n" + first_lines("\n".join(lines))}
        why = "a compile-error test" if expects_compile_error(src) else "fut cannot compile it"
        detail = next((line for line in lines if "rror" in line), lines[0]).strip()
        return {**res, "status": "skipped", "why": why, "detail": detail}
    try:
        cuda, n = kernel_source(r.stdout)
    except ValueError as e:
        return {**res, "status": "failed", "why": str(e)}
    names = kernel_names(cuda)
    if len(names) != n:
        return {
            **res,
            "status": "failed",
            "why": f"`// {n} kernels` but {len(names)} `__kernel void` definitions",
        }
    res["kernels"] = n
    if n == 0:
        return {**res, "status": "nokernels"}
    stem = None
    if _worker["dump"] is not None:
        stem = _worker["dump"] / str(path).replace("/", "_").removesuffix(".fut")
        Path(f"{stem}.cu").write_text(cuda)
    failures = []
    for real in _worker["archs"]:
        virt = real.replace("sm_", "compute_")
        try:
            out = build(cuda, virt, real, times, stem)
        except (Failure, ToolError) as e:
            failures.append(str(e))
            continue
        res["notes"] += [f"{real}: {w}" for w in out.split("\n") if w.startswith("ptxas warning")]
        funcs = parse_ptxas(out)
        entries = sorted(f for f, v in funcs.items() if v["entry"])
        if entries != sorted(names):
            failures.append(
                f"ptxas ({real}): reported the kernels {', '.join(entries)}, "
                f"not {', '.join(sorted(names))}"
            )
        res["funcs"][real] = funcs
        over = spills(funcs, _worker["max_spill"])
        if over:
            failures.append(
                f"ptxas ({real}): spills over {_worker['max_spill']} bytes:\n"
                + first_lines("\n".join(over))
            )
    if failures:
        return {**res, "status": "failed", "why": "\n".join(failures)}
    return {**res, "status": "ok"}


# ---- Main ----------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Compile the CUDA kernels of Futhark programs with NVRTC and ptxas "
        "(for sm_90 and sm_80), without a GPU."
    )
    ap.add_argument("paths", nargs="*", help=".fut files, or folders to search")
    ap.add_argument("--fetch-tools", action="store_true",
                    help="only download and unpack NVRTC and ptxas (when missing)")
    ap.add_argument("--fut", default=str(ROOT / "target" / "debug" / "fut"),
                    help="the fut binary (default: target/debug/fut)")
    ap.add_argument("--tools", default=str(ROOT / "target" / "cuda-tools"),
                    help="where NVRTC and ptxas are unpacked (default: target/cuda-tools)")
    ap.add_argument("--arch", action="append", choices=ARCHS,
                    help="a real architecture to build for (repeatable; default: all of "
                    + ", ".join(ARCHS) + ")")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--max-spill", type=int, default=MAX_SPILL,
                    help=f"bytes of spill stores or loads a kernel may have (default {MAX_SPILL})")
    ap.add_argument("--no-cache", action="store_true",
                    help="do not reuse or store the results of earlier builds")
    ap.add_argument("--dump", help="write each program's .cu and .ptx files into this folder")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="list the skipped programs, the slowest ones and the CPU time")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    try:
        tools = Path(args.tools)
        ensure_tools(tools)
        if args.fetch_tools:
            version = Nvrtc(tools / NVRTC).version()
            print(f"cuda check: NVRTC {version} and ptxas {CUDA_VERSION} are in {tools}")
            return 0
        if not args.paths:
            ap.error("no programs named")
        if not Path(args.fut).is_file():
            raise ToolError(f"{args.fut} is missing: run `cargo build -p fut` first")
        programs = collect_programs(args.paths)
        try:
            options = cuda_build_options(PRELUDE_RS.read_text()) + EXTRA_OPTIONS
        except OSError as e:
            raise ToolError(f"cannot read {PRELUDE_RS}: {e}") from None
        dump = None
        if args.dump:
            dump = Path(args.dump)
            dump.mkdir(parents=True, exist_ok=True)
    except ToolError as e:
        print(f"cuda check: error: {e}", file=sys.stderr)
        return 2
    archs = [a for a in ARCHS if a in (args.arch or ARCHS)]
    cache = None if args.no_cache else tools / "cache"
    init = (tools, args.fut, options, archs, args.max_spill, cache, dump)
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs, initializer=init_worker, initargs=init) as pool:
            results = pool.map(check_program, programs, chunksize=1)
    else:
        init_worker(*init)
        results = [check_program(p) for p in programs]
    report(results, archs, args.verbose)
    failed = sum(1 for r in results if r["status"] == "failed")
    print(summary(results, archs) + f", {time.monotonic() - t0:.1f} s")
    return 1 if failed else 0


def summary(results, archs):
    """The closing line, without the time."""
    count = {s: 0 for s in ["ok", "nokernels", "skipped", "failed"]}
    for r in results:
        count[r["status"]] += 1
    kernels = sum(r["kernels"] for r in results if r["status"] == "ok")
    errors = sum(1 for r in results if r.get("why") == "a compile-error test")
    cached = sum(r["times"]["cached"] for r in results)
    return (
        f"cuda check: {len(results)} programs, {kernels} kernels compiled for "
        f"{' and '.join(archs)} ({count['ok']} programs, {count['nokernels']} without "
        f"kernels{f'; {cached} builds from the cache' if cached else ''}), {count['skipped']} skipped ({errors} compile-error tests, "
        f"{count['skipped'] - errors} that fut cannot compile), {count['failed']} failed"
    )


def report(results, archs, verbose):
    """Notes, the largest register and stack use, and the failures."""
    ok = [r for r in results if r["status"] == "ok"]
    for r in results:
        for note in r["notes"]:
            print(f"note: {r['path']}: {note}")
    for r in results:
        # Tests of compile-time errors are expected to be rejected; anything else fut
        # rejects is worth seeing.
        if r["status"] == "skipped" and (verbose or r["why"] != "a compile-error test"):
            detail = f" ({r['detail']})" if r.get("detail") else ""
            print(f"skipped: {r['path']}: {r['why']}{detail}")
    if verbose:
        parts = [("fut", "fut"), ("nvrtc", "NVRTC"), ("ptxas", "ptxas")]
        print("cuda check: CPU time: " + ", ".join(
            f"{name} {sum(r['times'][k] for r in results):.1f} s" for k, name in parts))
        for r in sorted(ok, key=lambda r: -sum(r["times"][k] for k, _ in parts))[:5]:
            t = r["times"]
            print(f"slow: {r['path']}: {r['kernels']} kernels, CPU time: fut {t['fut']:.2f} s, "
                  f"NVRTC {t['nvrtc']:.2f} s, ptxas {t['ptxas']:.2f} s")
    for real in archs:
        entries = [(f, r["path"], name) for r in ok
                   for name, f in r["funcs"].get(real, {}).items() if f["entry"]]
        if entries:
            regs = max(entries, key=lambda e: e[0]["registers"])
            stack = max(entries, key=lambda e: e[0]["stack"])
            print(f"cuda check: {real}: at most {regs[0]['registers']} registers "
                  f"({regs[1]}: {regs[2]}), at most {stack[0]['stack']} bytes of stack "
                  f"({stack[1]}: {stack[2]})")
    for r in results:
        if r["status"] == "failed":
            print(f"FAILED: {r['path']}\n  " + r["why"].replace("\n", "\n  "))


if __name__ == "__main__":
    sys.exit(main())
