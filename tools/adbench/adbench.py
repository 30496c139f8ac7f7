#!/usr/bin/env python3
"""The ADBench tool: converts ADBench inputs for `bench-suite/adbench`, generates
synthetic inputs, computes NumPy reference results and prepares the test data.

Run `python3 tools/adbench/adbench.py --help`; `tools/adbench/README.md` describes the
commands and the interface of the problem modules (gmm.py, ba.py, hand.py, lstm.py).
"""

import argparse
import hashlib
import importlib
import os
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np

import futvalues

PROBLEMS = ["gmm", "ba", "hand", "lstm"]
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DEFAULT_OUT = ROOT / "bench-suite" / "adbench" / "data"


class ToolError(Exception):
    """An error to report to the user in one line, without a traceback."""


def load(problem: str):
    """The module of `problem`."""
    if problem not in PROBLEMS:
        raise ToolError(f"unknown problem {problem!r} (one of {', '.join(PROBLEMS)})")
    try:
        return importlib.import_module(problem)
    except ModuleNotFoundError as e:
        if e.name == problem:
            raise ToolError(f"{problem}: tools/adbench/{problem}.py is missing") from None
        raise


def parse_sizes(pairs) -> dict:
    """`NAME=VALUE` pairs as a dict of integers."""
    sizes = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.isidentifier():
            raise ToolError(f"expected a size as NAME=VALUE, found {pair!r}")
        try:
            sizes[name] = int(value)
        except ValueError:
            raise ToolError(f"size {name}: expected an integer, found {value!r}") from None
        if sizes[name] < 0:
            raise ToolError(f"size {name} must not be negative, found {sizes[name]}")
    return sizes


def generated_text(module, problem: str, rng, sizes: dict) -> str:
    """`module.generate(rng, **sizes)`, with a clear message for wrong size names."""
    try:
        return module.generate(rng, **sizes)
    except TypeError as e:
        raise ToolError(f"{problem}: wrong sizes {sizes}: {e}") from None


def write_support(module, rng, folder: Path) -> None:
    """The further files a generated input needs (`generate_support`), under `folder`."""
    if hasattr(module, "generate_support"):
        for rel, text in module.generate_support(rng).items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)


def cmd_convert(args) -> None:
    module = load(args.problem)
    futvalues.write(args.output, module.parse(args.input))


def cmd_generate(args) -> None:
    module = load(args.problem)
    *sizes, output = args.args
    rng = np.random.default_rng(args.seed)
    text = generated_text(module, args.problem, rng, parse_sizes(sizes))
    Path(output).write_text(text)


def reference_values(module, inputs: list, which: str) -> list:
    """The objective's or the Jacobian's values for `inputs`."""
    return module.objective(inputs) if which == "objective" else module.jacobian(inputs)


def cmd_reference(args) -> None:
    module = load(args.problem)
    inputs = futvalues.read(args.input)
    futvalues.write(args.output, reference_values(module, inputs, args.which))


def flat(values) -> np.ndarray:
    """Values concatenated into one flat float64 vector."""
    return np.concatenate([np.ravel(np.asarray(v, dtype=np.float64)) for v in values])


def dense_jacobian(module, inputs: list) -> np.ndarray:
    """The Jacobian as a matrix (objective elements × parameter elements)."""
    if hasattr(module, "dense_jacobian"):
        return np.asarray(module.dense_jacobian(inputs), dtype=np.float64)
    return flat(module.jacobian(inputs))[None, :]


def finite_differences(module, inputs: list) -> np.ndarray:
    """Central differences of the objective for every element of the PARAMS inputs."""
    columns = []
    for p in module.PARAMS:
        base = np.asarray(inputs[p], dtype=np.float64)
        for j in range(base.size):
            h = 1e-6 * max(1.0, abs(base.flat[j]))
            moved = []
            for sign in (1.0, -1.0):
                changed = base.copy()
                changed.flat[j] += sign * h
                trial = list(inputs)
                trial[p] = changed
                moved.append(flat(module.objective(trial)))
            columns.append((moved[0] - moved[1]) / (2 * h))
    return np.stack(columns, axis=1)


def selfcheck_one(problem: str, seed: int, tolerance: float) -> bool:
    """Compares one problem's reference Jacobian with finite differences."""
    module = load(problem)
    rng = np.random.default_rng(seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_support(module, rng, folder)
        path = folder / problem / "selfcheck.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(generated_text(module, problem, rng, module.SELFCHECK_SIZES))
        inputs = module.parse(path)
    analytic = dense_jacobian(module, inputs)
    numeric = finite_differences(module, inputs)
    if analytic.shape != numeric.shape:
        raise ToolError(
            f"{problem}: the Jacobian has shape {analytic.shape}, "
            f"finite differences give {numeric.shape}"
        )
    scale = max(1.0, float(np.max(np.abs(numeric))))
    error = float(np.max(np.abs(analytic - numeric))) / scale
    ok = error <= tolerance
    print(
        f"{problem}: Jacobian {analytic.shape[0]}x{analytic.shape[1]}, "
        f"largest difference from central finite differences {error:.2e} "
        f"(relative to {scale:.3g}; tolerance {tolerance:g}): {'ok' if ok else 'FAILED'}"
    )
    return ok


def cmd_selfcheck(args) -> None:
    if args.problem:
        ok = selfcheck_one(args.problem, args.seed, args.tolerance)
    else:
        ok = True
        for problem in PROBLEMS:
            try:
                load(problem)
            except ToolError as e:
                print(f"skipping {e}")
                continue
            ok = selfcheck_one(problem, args.seed, args.tolerance) and ok
    if not ok:
        sys.exit(1)


def data_folder(arg) -> Path:
    """The ADBench data folder: --data, then FUT_ADBENCH_DATA, then ../shared/adbench."""
    if arg:
        return Path(arg)
    if os.environ.get("FUT_ADBENCH_DATA"):
        return Path(os.environ["FUT_ADBENCH_DATA"])
    return ROOT.parent / "shared" / "adbench"


def code_digest(problem: str) -> bytes:
    """A digest of the code that computes a problem's files, so changes redo them."""
    h = hashlib.sha256()
    for path in sorted(HERE.glob("*.py")):
        if path.stem not in PROBLEMS or path.stem == problem:
            h.update(path.name.encode() + path.read_bytes())
    return h.digest()


def prepare_one(module, problem: str, entry, data: Path, out: Path, have_data: bool) -> None:
    name, source, sizes = entry
    real = data / source if source and have_data else None
    if real is not None and real.is_file():
        path = real
        origin = f"from {real}"
    else:
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        rel = source or f"{problem}/{name}.txt"
        path = out / "generated" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        write_support(module, rng, out / "generated")
        path.write_text(generated_text(module, problem, rng, sizes))
        why = "always generated" if not source else f"{source} not in the data folder"
        origin = f"generated ({why}; sizes {sizes})"
    stamp = hashlib.sha256(code_digest(problem) + str(path).encode() + path.read_bytes())
    stamp_path = out / f"{name}.stamp"
    outputs = [out / f"{name}.in", out / f"{name}.objective.out", out / f"{name}.jacobian.out"]
    if (
        stamp_path.is_file()
        and stamp_path.read_text() == stamp.hexdigest()
        and all(p.is_file() for p in outputs)
    ):
        print(f"{name}: up to date")
        return
    inputs = module.parse(path)
    futvalues.write(outputs[0], inputs)
    futvalues.write(outputs[1], module.objective(inputs))
    futvalues.write(outputs[2], module.jacobian(inputs))
    stamp_path.write_text(stamp.hexdigest())
    print(f"{name}: {origin}")


def cmd_prepare(args) -> None:
    data = data_folder(args.data)
    out = Path(args.out) if args.out else DEFAULT_OUT
    out.mkdir(parents=True, exist_ok=True)
    have_data = data.is_dir()
    if not have_data:
        print(
            f"ADBench data folder {data} not found: generating synthetic inputs of the same "
            "sizes (set FUT_ADBENCH_DATA or pass --data to use the real files)"
        )
    for problem in PROBLEMS:
        try:
            module = load(problem)
        except ToolError as e:
            print(f"skipping {e}")
            continue
        for entry in module.TEST_FILES:
            prepare_one(module, problem, entry, data, out, have_data)


def per_call_times(exe: str, entry: str, data: bytes, runs: int, extra: list) -> list:
    """The time of each of `runs` calls of `entry` (after one warm-up), in seconds,
    as the executable reports them with `-t`."""
    with tempfile.TemporaryDirectory() as tmp:
        times = Path(tmp) / "times.txt"
        cmd = [exe, "-e", entry, "-n", "-r", str(runs), "-t", str(times), *extra]
        done = subprocess.run(cmd, input=data, capture_output=True)
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip()
            raise ToolError(f"{' '.join(cmd)} failed: {message}")
        return [float(line) / 1e6 for line in times.read_text().split()]


def minimum_time(exe: str, entry: str, data: bytes, budget: float, extra: list) -> float:
    """ADBench's measure: the minimum time per call over at least ten calls and at
    least half a second of calls (more calls while `budget` seconds allow)."""
    runs = 10
    times = per_call_times(exe, entry, data, runs, extra)
    while sum(times) < 0.5 or (sum(times) < budget / 4 and len(times) < 1000):
        runs = min(1000, runs * 4)
        times = per_call_times(exe, entry, data, runs, extra)
        if runs == 1000:
            break
    return min(times)


def cmd_time(args) -> None:
    data = Path(args.input).read_bytes()
    extra = ["--num-threads", str(args.threads)] if args.threads else []
    objective = minimum_time(args.executable, "calculate_objective", data, args.budget, extra)
    jacobian = minimum_time(args.executable, "calculate_jacobian", data, args.budget, extra)
    print(
        f"{args.input}: objective {objective * 1e3:.3f} ms, Jacobian {jacobian * 1e3:.3f} ms, "
        f"Jacobian / objective {jacobian / objective:.2f}"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(
        prog="adbench.py", description="ADBench inputs and NumPy reference results."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("convert", help="ADBench text file -> binary entry inputs")
    p.add_argument("problem")
    p.add_argument("input")
    p.add_argument("output")
    p.set_defaults(run=cmd_convert)

    p = sub.add_parser("generate", help="synthetic ADBench text file")
    p.add_argument("problem")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("args", nargs="+", metavar="NAME=VALUE ... OUT.txt")
    p.set_defaults(run=cmd_generate)

    p = sub.add_parser("reference", help="NumPy objective or Jacobian of binary inputs")
    p.add_argument("problem")
    p.add_argument("input")
    p.add_argument("which", choices=["objective", "jacobian"])
    p.add_argument("output")
    p.set_defaults(run=cmd_reference)

    p = sub.add_parser("selfcheck", help="reference Jacobian vs finite differences")
    p.add_argument("problem", nargs="?", help="one problem (default: every one)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tolerance", type=float, default=1e-6)
    p.set_defaults(run=cmd_selfcheck)

    p = sub.add_parser("time", help="ADBench's timing of a compiled program's two entries")
    p.add_argument("executable", help="a program compiled with `fut multicore`")
    p.add_argument("input", help="binary inputs, as `convert` writes them")
    p.add_argument("--threads", type=int, help="worker threads (default: the executable's)")
    p.add_argument("--budget", type=float, default=10.0, help="seconds to spend per entry")
    p.set_defaults(run=cmd_time)

    p = sub.add_parser("prepare", help="test data for bench-suite/adbench")
    p.add_argument("--data", help="the ADBench data folder")
    p.add_argument("--out", help="where to write (default bench-suite/adbench/data)")
    p.set_defaults(run=cmd_prepare)

    args, extra = parser.parse_known_args(argv)
    # Sizes and the output file may also follow `--seed N` in `generate`.
    if extra and args.command == "generate" and not any(a.startswith("-") for a in extra):
        args.args += extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        args.run(args)
    except (ToolError, ValueError, OSError) as e:
        print(f"adbench.py {args.command}: error: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
