#!/usr/bin/env python3
"""fut against its peers on ADBench: times the objective and the Jacobian of the
ADBench inputs of issue 19's table with `fut multicore`, ADBench's hand-written C++
("Manual"), JAX and PyTorch, side by side in one sitting, on 1 and on 2 threads, and
prints a table of the times and of fut ÷ the best peer.

Every figure follows ADBench's protocol (`protocol.py`): after a warm-up (or JIT
compilation), the minimum time per call over batches of back-to-back calls. Each
measurement runs in its own process pinned to the first N cores (as `taskset -c 0`
or `-c 0,1` would), with the framework's thread count set to N. A peer that is not
available (not installed, no ADBench checkout, a failed build or run) is reported
in the table's notes and the run goes on. `tools/peers/README.md` and
`docs/benchmarks.md` say more.
"""

import argparse
import contextlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tools" / "adbench"))

import adbench  # noqa: E402
import futvalues  # noqa: E402
import protocol  # noqa: E402

ADBENCH_URL = "https://github.com/microsoft/ADBench"
CXXFLAGS = ["-O3", "-march=native", "-std=c++17", "-w"]


@dataclass
class Row:
    """One input of the table."""

    key: str
    title: str
    problem: str
    source: str  # relative to the ADBench data folder
    test_type: str  # the ADBench runners' name for the problem

    @property
    def model(self):
        """The hand model folder the input needs, relative to the data folder."""
        return "hand/model" if self.problem == "hand" else None


ROWS = [
    Row("gmm-1k-d64", "GMM 1k points, d=64, K=50", "gmm", "gmm/1k/gmm_d64_K50.txt", "GMM"),
    Row("gmm-10k-d32", "GMM 10k points, d=32, K=200", "gmm", "gmm/10k/gmm_d32_K200.txt", "GMM"),
    Row("lstm-l2-c1024", "LSTM l=2, c=1024", "lstm", "lstm/lstm_l2_c1024.txt", "LSTM"),
    Row("lstm-l4-c4096", "LSTM l=4, c=4096", "lstm", "lstm/lstm_l4_c4096.txt", "LSTM"),
    Row("ba5", "BA ba5", "ba", "ba/ba5_n257_m65132_p225911.txt", "BA"),
    Row(
        "hand-complicated",
        "Hand hand7, complicated, small model",
        "hand",
        "hand/complicated_small/hand7_t26_c3200.txt",
        "HAND-COMPLICATED",
    ),
    Row(
        "hand-simple",
        "Hand hand7, simple, small model",
        "hand",
        "hand/simple_small/hand7_t26_c3200.txt",
        "HAND",
    ),
]

PEER_NAMES = {"fut": "fut", "cpp": "hand-written C++", "jax": "JAX", "torch": "PyTorch"}
PEERS = list(PEER_NAMES)


class Unavailable(Exception):
    """A peer (or one of its measurements) that cannot run, with the reason."""


class TimedOut(Unavailable):
    """A measuring process stopped at the timeout (too slow for this run's limits)."""

    def __init__(self, seconds: float):
        super().__init__(f"stopped after {seconds:g} s (--timeout)")
        self.seconds = seconds


@dataclass
class Figure:
    """One measurement: seconds per call of the objective and of the Jacobian."""

    objective: float
    jacobian: float
    extra: dict = field(default_factory=dict)


@dataclass
class Settings:
    minimum: float  # ADBench's minimum measurable time (one batch), seconds
    batches: int  # most batches per function
    limit: float  # time limit per function, seconds
    timeout: float  # seconds before a measuring process is stopped


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def tail(text: str, lines: int = 3) -> str:
    """The last non-empty lines of `text`, joined into one line."""
    kept = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return " | ".join(kept[-lines:]) or "no message"


@contextlib.contextmanager
def pinned(threads: int):
    """Pins this process, and so every process it starts, to the first `threads`
    cores, as `taskset -c 0,...` does; restores the affinity afterwards."""
    before = os.sched_getaffinity(0)
    cores = sorted(before)
    os.sched_setaffinity(0, set(cores[:threads]))
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def thread_env(threads: int, **more) -> dict:
    """The environment of a measuring process: OpenMP and BLAS thread counts set."""
    env = dict(os.environ)
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[name] = str(threads)
    env.update(more)
    return env


def run(cmd: list, settings: Settings, env=None, cwd=None) -> subprocess.CompletedProcess:
    """Runs a measuring or building command; a failure or a timeout is Unavailable."""
    try:
        done = subprocess.run(
            [str(c) for c in cmd],
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
            timeout=settings.timeout,
        )
    except subprocess.TimeoutExpired:
        raise TimedOut(settings.timeout) from None
    except OSError as e:
        raise Unavailable(f"cannot run {cmd[0]}: {e.strerror}") from None
    if done.returncode != 0:
        raise Unavailable(
            f"{Path(str(cmd[0])).name} exited with {done.returncode}: "
            f"{tail(done.stderr or done.stdout)}"
        )
    return done


# --- inputs -----------------------------------------------------------------------


class Inputs:
    """The rows' input files: the ADBench text file, a folder the ADBench runners can
    read it from (hand's model next to it), and the binary inputs of the fut program
    (`adbench.py convert`'s output), converted once per work folder."""

    def __init__(self, data: Path, work: Path):
        self.data = data
        self.work = work / "inputs"

    def text(self, row: Row) -> Path:
        path = self.data / row.source
        if not path.is_file():
            raise Unavailable(f"{path} is missing (is the ADBench data folder complete?)")
        return path

    def staged(self, row: Row) -> Path:
        """The text file in a folder of its own, with `model/` beside it for hand (the
        ADBench runners read the model from the input's folder)."""
        source = self.text(row)
        folder = self.work / row.key
        folder.mkdir(parents=True, exist_ok=True)
        link = folder / source.name
        if not link.exists():
            link.symlink_to(source.resolve())
        if row.model:
            model = folder / "model"
            if not model.exists():
                model.symlink_to((self.data / row.model).resolve())
        return link

    def binary(self, row: Row) -> Path:
        """The fut program's inputs (converted on first use)."""
        source = self.text(row)
        out = self.work / f"{row.key}.in"
        if out.is_file() and out.stat().st_mtime >= source.stat().st_mtime:
            return out
        out.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        try:
            module = adbench.load(row.problem)
            futvalues.write(out.with_suffix(".tmp"), module.parse(source))
        except (adbench.ToolError, ValueError, OSError) as e:
            raise Unavailable(f"converting {source}: {e}") from None
        out.with_suffix(".tmp").replace(out)
        progress(f"  converted {row.source} ({time.monotonic() - started:.1f} s)")
        return out


# --- the peers --------------------------------------------------------------------


class Fut:
    """`fut multicore` executables, timed as `adbench.py time` times them: the
    executable's own per-call times (`-r`, `-t`), grouped into ADBench's batches."""

    name = "fut"

    def __init__(self, args, work: Path, inputs: Inputs, settings: Settings, problems):
        self.inputs = inputs
        self.settings = settings
        self.fut = Path(args.fut)
        if not self.fut.is_file():
            raise Unavailable(f"no fut executable at {self.fut} (build it or pass --fut)")
        self.folder = work / "fut"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.programs = {}
        self.failed = {}
        for problem in problems:
            source = ROOT / "bench-suite" / "adbench" / f"{problem}.fut"
            exe = self.folder / problem
            progress(f"  fut multicore {source.relative_to(ROOT)} ...")
            started = time.monotonic()
            try:
                run(
                    [self.fut, "multicore", source, "-o", exe, *args.fut_arg], self.compile_settings
                )
            except Unavailable as e:
                self.failed[problem] = f"compiling {problem}.fut failed: {e}"
                progress(f"    {self.failed[problem]}")
                continue
            self.programs[problem] = exe
            progress(f"    compiled in {time.monotonic() - started:.1f} s")

    @property
    def compile_settings(self) -> Settings:
        return Settings(0, 0, 0, timeout=max(self.settings.timeout, 1800))

    def measure(self, row: Row, threads: int) -> Figure:
        if row.problem in self.failed:
            raise Unavailable(self.failed[row.problem])
        exe = str(self.programs[row.problem])
        data = self.inputs.binary(row).read_bytes()
        extra = ["--num-threads", str(threads)]
        figures, per_call = {}, {}
        for name, entry in (
            ("objective", "calculate_objective"),
            ("jacobian", "calculate_jacobian"),
        ):
            try:
                # One call (after the executable's warm-up run) gives the batch size.
                times = adbench.per_call_times(exe, entry, data, 1, extra)
                repeats = protocol.batch_size(times[0], self.settings.minimum)
                batches = math.ceil(self.settings.limit / (repeats * times[0]))
                batches = max(1, min(self.settings.batches, batches))
                if repeats > 1 or batches > 2:
                    times = adbench.per_call_times(exe, entry, data, repeats * batches, extra)
                elif batches == 2:
                    # Slow calls: the first is a batch; one more run adds a warm-up and one.
                    times += adbench.per_call_times(exe, entry, data, 1, extra)
            except adbench.ToolError as e:
                raise Unavailable(tail(str(e))) from None
            figures[name] = protocol.from_call_times(times, self.settings.minimum)
            per_call[name] = min(times)
        return Figure(figures["objective"], figures["jacobian"], {"per_call_minimum": per_call})


class AdbenchCheckout:
    """An ADBench source tree: the folder given with --adbench, a clone of the git
    repository given there, or a clone of the public repository; only `src/` is
    checked out. Clones go into the work folder."""

    def __init__(self, given, work: Path, settings: Settings):
        self.work = work
        self.settings = settings
        self.given = given
        self._root = None
        self._error = None

    def root(self) -> Path:
        if self._root is None and self._error is None:
            try:
                self._root = self._find()
            except Unavailable as e:
                self._error = str(e)
        if self._error:
            raise Unavailable(self._error)
        return self._root

    def _find(self) -> Path:
        if self.given and (Path(self.given) / "src" / "cpp").is_dir():
            return Path(self.given)
        source = self.given or ADBENCH_URL
        target = self.work / "ADBench"
        if (target / "src" / "cpp").is_dir():
            return target
        if shutil.which("git") is None:
            raise Unavailable("git is not installed (needed to clone ADBench; or pass --adbench)")
        progress(f"  cloning ADBench from {source} (src/ only) ...")
        shutil.rmtree(target, ignore_errors=True)
        remote = "://" in str(source) or str(source).startswith("git@")
        clone = ["git", "clone", "-q", "--no-checkout"]
        if remote:
            clone += ["--depth", "1", "--filter=blob:none"]
        settings = Settings(0, 0, 0, timeout=900)
        try:
            run([*clone, source, target], settings)
            run(
                ["git", "-C", target, "checkout", "-q", "HEAD", "--", "src/cpp", "src/python"],
                settings,
            )
        except Unavailable as e:
            raise Unavailable(f"no ADBench checkout ({e}); pass --adbench PATH") from None
        return target

    def commit(self) -> str:
        done = subprocess.run(
            ["git", "-C", str(self.root()), "rev-parse", "HEAD"], capture_output=True, text=True
        )
        return done.stdout.strip() or "unknown"


class Cpp:
    """ADBench's hand-written C++ ("Manual") module and its C++ runner, built with g++
    (no cmake) into the work folder."""

    name = "cpp"

    def __init__(self, args, work: Path, inputs: Inputs, settings: Settings, checkout):
        self.inputs = inputs
        self.settings = settings
        self.folder = work / "cpp"
        cxx = args.cxx
        if shutil.which(cxx) is None:
            raise Unavailable(f"no C++ compiler {cxx!r} (pass --cxx)")
        eigen = self._eigen(args.eigen)
        src = checkout.root() / "src" / "cpp"
        self.runner = self.folder / "CppRunner"
        self.module = self.folder / "Manual.so"
        stamp = self.folder / "stamp"
        key = json.dumps([checkout.commit(), cxx, CXXFLAGS, str(eigen)])
        if (
            stamp.is_file()
            and stamp.read_text() == key
            and self.runner.is_file()
            and self.module.is_file()
        ):
            progress("  hand-written C++ already built")
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        flags = [*CXXFLAGS, f"-I{eigen}"]
        utils = src / "shared" / "utils.cpp"
        builds = {
            "Manual module": [
                cxx,
                *flags,
                "-shared",
                "-fPIC",
                "-o",
                self.module,
                *sorted((src / "modules" / "manual").glob("*.cpp")),
                utils,
            ],
            "C++ runner": [
                cxx,
                *flags,
                "-o",
                self.runner,
                *sorted((src / "runner").glob("*.cpp")),
                utils,
                "-ldl",
            ],
        }
        progress(
            f"  building ADBench's Manual module and C++ runner with {cxx} {' '.join(CXXFLAGS)} ..."
        )
        started = time.monotonic()
        running = {
            what: subprocess.Popen([str(c) for c in cmd], stderr=subprocess.PIPE, text=True)
            for what, cmd in builds.items()
        }
        errors = []
        for what, process in running.items():
            _, err = process.communicate()
            if process.returncode != 0:
                errors.append(f"building the {what} failed: {tail(err)}")
        if errors:
            raise Unavailable("; ".join(errors))
        stamp.write_text(key)
        progress(f"    built in {time.monotonic() - started:.1f} s")

    @staticmethod
    def _eigen(given) -> Path:
        candidates = [given] if given else ["/usr/include/eigen3", "/usr/local/include/eigen3"]
        for folder in candidates:
            if folder and (Path(folder) / "Eigen" / "Dense").is_file():
                return Path(folder)
        raise Unavailable(
            "Eigen's headers not found (ADBench's C++ needs them: apt-get install "
            "libeigen3-dev, or pass --eigen DIR)"
        )

    def measure(self, row: Row, threads: int) -> Figure:
        staged = self.inputs.staged(row)
        out = self.folder / "out" / f"{row.key}-{threads}"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        s = self.settings
        cmd = [
            self.runner,
            row.test_type,
            self.module,
            staged,
            f"{out}/",
            s.minimum,
            s.batches,
            s.batches,
            s.limit,
        ]
        done = run(cmd, s, env=thread_env(threads))
        return read_times(out / f"{staged.stem}_times_Manual.txt", done)


def read_times(path: Path, done) -> Figure:
    """An ADBench runner's times file: the objective's and the Jacobian's seconds."""
    if not path.is_file():
        raise Unavailable(f"the runner wrote no times: {tail(done.stderr + done.stdout)}")
    try:
        objective, jacobian = (float(v) for v in path.read_text().split()[:2])
    except ValueError:
        raise Unavailable(f"unreadable times file {path}") from None
    return Figure(objective, jacobian)


def importable(module: str) -> None:
    """Raises Unavailable when this Python cannot import `module`."""
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise Unavailable(
            f"{module} is not installed for {sys.executable} ({tail(done.stderr, 1)})"
        )


class Jax:
    """Our JAX implementations (`jax_*.py`), timed by `jax_run.py`."""

    name = "jax"

    def __init__(self, inputs: Inputs, settings: Settings):
        importable("jax")
        self.inputs = inputs
        self.settings = settings

    def measure(self, row: Row, threads: int) -> Figure:
        env = thread_env(threads)
        if threads == 1:
            env["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        s = self.settings
        cmd = [
            sys.executable,
            HERE / "jax_run.py",
            row.problem,
            self.inputs.binary(row),
            "--minimum",
            s.minimum,
            "--batches",
            s.batches,
            "--limit",
            s.limit,
        ]
        done = run(cmd, s, env=env)
        try:
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            return Figure(float(figures["objective"]), float(figures["jacobian"]))
        except (ValueError, KeyError, IndexError):
            raise Unavailable(
                f"jax_run.py printed no figures: {tail(done.stdout + done.stderr)}"
            ) from None


class Torch:
    """ADBench's PyTorch modules, run by ADBench's Python runner (`torch_run.py` sets
    PyTorch's thread count first)."""

    name = "torch"
    MODULES = {"gmm": "GMM", "lstm": "LSTM", "ba": "BA", "hand": "Hand"}

    def __init__(self, inputs: Inputs, settings: Settings, checkout):
        importable("torch")
        self.inputs = inputs
        self.settings = settings
        self.source = checkout.root() / "src" / "python"
        self.folder = checkout.work / "torch"

    def measure(self, row: Row, threads: int) -> Figure:
        staged = self.inputs.staged(row)
        out = self.folder / f"{row.key}-{threads}"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        module = self.source / "modules" / "PyTorch" / f"PyTorch{self.MODULES[row.problem]}.py"
        s = self.settings
        cmd = [
            sys.executable,
            HERE / "torch_run.py",
            self.source,
            threads,
            row.test_type,
            module,
            staged,
            out,
            s.minimum,
            s.batches,
            s.batches,
            s.limit,
        ]
        done = run(cmd, s, env=thread_env(threads))
        return read_times(out / f"{staged.stem}_times_PyTorch.txt", done)


# --- the table --------------------------------------------------------------------


def seconds(t) -> str:
    """A time with a unit that keeps three significant digits."""
    if t is None:
        return "—"
    if t < 1e-3:
        return f"{t * 1e6:.3g} µs"
    if t < 1:
        return f"{t * 1e3:.3g} ms"
    return f"{t:.3g} s"


def table(rows, threads: int, peers, results: dict) -> str:
    """The Markdown table of one thread count: each peer's objective / Jacobian times,
    then fut ÷ the best other peer for each."""
    names = [PEER_NAMES[p] for p in peers]
    lines = [
        f"| input ({threads} thread{'s' if threads > 1 else ''}) | "
        + " | ".join(names)
        + " | fut ÷ best: objective | Jacobian | best peer |",
        "|---" * (len(peers) + 4) + "|",
    ]
    for row in rows:
        cells = [row.title]
        for peer in peers:
            r = results.get((row.key, threads, peer))
            if isinstance(r, Figure):
                cells.append(f"{seconds(r.objective)} / {seconds(r.jacobian)}")
            elif isinstance(r, TimedOut):
                cells.append(f"over {r.seconds:g} s")
            else:
                cells.append("—")
        fut = results.get((row.key, threads, "fut"))
        others = [
            (p, results[(row.key, threads, p)])
            for p in peers
            if p != "fut" and isinstance(results.get((row.key, threads, p)), Figure)
        ]
        ratios, best = [], []
        for which in ("objective", "jacobian"):
            if not others:
                ratios.append("—")
                continue
            peer, figure = min(others, key=lambda o: getattr(o[1], which))
            best.append(PEER_NAMES[peer])
            if isinstance(fut, Figure):
                ratios.append(f"{getattr(fut, which) / getattr(figure, which):.2f}×")
            else:
                ratios.append("—")
        best_text = best[0] if len(set(best)) == 1 else " / ".join(best) if best else "—"
        cells += [*ratios, best_text]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def notes(rows, thread_counts, peers, results: dict, unavailable: dict) -> list:
    """Why cells are empty: whole peers first, then single measurements."""
    lines = [f"- {PEER_NAMES[p]}: {why}" for p, why in unavailable.items()]
    for row in rows:
        for threads in thread_counts:
            for peer in peers:
                r = results.get((row.key, threads, peer))
                if isinstance(r, Unavailable) and peer not in unavailable:
                    lines.append(f"- {PEER_NAMES[peer]}, {row.title}, {threads} thread(s): {r}")
    return lines


# --- command line -----------------------------------------------------------------


def select_rows(only) -> list:
    """The rows named by --only: row keys or problem names, comma-separated."""
    if not only:
        return list(ROWS)
    wanted = [w.strip() for w in only.split(",") if w.strip()]
    chosen = []
    for w in wanted:
        matches = [r for r in ROWS if w in (r.key, r.problem)]
        if not matches:
            keys = ", ".join(r.key for r in ROWS)
            raise SystemExit(
                f"peers.py: error: --only: no row {w!r} "
                f"(problems: gmm, lstm, ba, hand; rows: {keys})"
            )
        chosen += [r for r in matches if r not in chosen]
    return [r for r in ROWS if r in chosen]


def parse_list(text: str, what: str, allowed=None, convert=str) -> list:
    items = []
    for word in text.split(","):
        word = word.strip()
        try:
            value = convert(word)
        except ValueError:
            raise SystemExit(f"peers.py: error: {what}: {word!r} is not valid") from None
        if allowed is not None and value not in allowed:
            raise SystemExit(
                f"peers.py: error: {what}: {word!r} is not one of {', '.join(map(str, allowed))}"
            )
        items.append(value)
    return items


def arguments(argv=None):
    rows = "\n".join(f"  {r.key:18} {r.title} ({r.source})" for r in ROWS)
    parser = argparse.ArgumentParser(
        prog="peers.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n")[0],
        epilog=f"rows:\n{rows}\n\n"
        "peers: fut, cpp (ADBench's hand-written C++), jax, torch (PyTorch)\n\n"
        "The default budget spreads 5 minutes of timing over the measurements. Calls slower\n"
        "than the time limit still run once or twice, and compilation, JIT, input parsing\n"
        "and the --timeout of slow peers come on top: a full run took 19 minutes on a\n"
        "2-core machine at load 7-12 (docs/benchmarks.md); --only, --peers and --threads\n"
        "shorten it. First builds of the fut programs and of the C++ add a few minutes.",
    )
    parser.add_argument("--only", help="rows to run: row keys or problems, comma-separated")
    parser.add_argument("--peers", default="fut,cpp,jax,torch", help="peers to run (default: all)")
    parser.add_argument("--threads", default="1,2", help="thread counts (default: 1,2)")
    parser.add_argument(
        "--budget",
        type=float,
        default=300,
        help="seconds of timing to spread over all measurements (default 300)",
    )
    parser.add_argument(
        "--minimum",
        type=float,
        default=0.5,
        help="ADBench's minimum measurable time: the shortest batch, seconds (default 0.5)",
    )
    parser.add_argument(
        "--batches", type=int, default=10, help="most batches per function (default 10)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60,
        help="seconds before a measuring process is stopped (default 60; a peer stopped "
        "with fewer threads is not run with more)",
    )
    parser.add_argument(
        "--data", help="the ADBench data folder (default: FUT_ADBENCH_DATA, else ../shared/adbench)"
    )
    parser.add_argument(
        "--fut", default=str(ROOT / "target" / "release" / "fut"), help="the fut executable"
    )
    parser.add_argument(
        "--fut-arg",
        action="append",
        default=[],
        help="an extra argument for `fut multicore` (repeatable)",
    )
    parser.add_argument(
        "--adbench", help=f"an ADBench checkout or git repository (default: clone {ADBENCH_URL})"
    )
    parser.add_argument("--eigen", help="Eigen's include folder (default /usr/include/eigen3)")
    parser.add_argument("--cxx", default="g++", help="the C++ compiler (default g++)")
    parser.add_argument(
        "--work", help="a folder to build in and keep (default: a temporary folder, removed)"
    )
    parser.add_argument("--json", help="also write every figure to this JSON file")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = arguments(argv)
    rows = select_rows(args.only)
    chosen = parse_list(args.peers, "--peers", PEERS)
    peers = [p for p in PEERS if p in chosen]
    thread_counts = parse_list(args.threads, "--threads", convert=int)
    cores = len(os.sched_getaffinity(0))
    if any(t < 1 or t > cores for t in thread_counts):
        raise SystemExit(
            f"peers.py: error: --threads: each count must be 1..{cores} (the cores available)"
        )
    if args.budget <= 0 or args.minimum < 0 or args.batches < 1:
        raise SystemExit("peers.py: error: --budget must be positive, --minimum ≥ 0, --batches ≥ 1")
    data = adbench.data_folder(args.data)
    if not data.is_dir():
        raise SystemExit(
            f"peers.py: error: ADBench data folder {data} not found "
            "(pass --data or set FUT_ADBENCH_DATA)"
        )
    if "fut" not in peers:
        progress("note: fut is not among --peers: no ratios")

    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        if args.work:
            work = Path(args.work).resolve()
            work.mkdir(parents=True, exist_ok=True)
        else:
            work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fut-peers-")))
        settings = Settings(args.minimum, args.batches, 0.0, args.timeout)
        inputs = Inputs(data, work)
        checkout = AdbenchCheckout(args.adbench, work, settings)

        progress(f"setting up {', '.join(PEER_NAMES[p] for p in peers)} in {work}")
        tools, unavailable = {}, {}
        makers = {
            "fut": lambda: Fut(args, work, inputs, settings, sorted({r.problem for r in rows})),
            "cpp": lambda: Cpp(args, work, inputs, settings, checkout),
            "jax": lambda: Jax(inputs, settings),
            "torch": lambda: Torch(inputs, settings, checkout),
        }
        for peer in peers:
            try:
                tools[peer] = makers[peer]()
            except Unavailable as e:
                unavailable[peer] = str(e)
                progress(f"  {PEER_NAMES[peer]}: not available: {e}")

        functions = 2 * len(rows) * len(thread_counts) * max(1, len(tools))
        settings.limit = max(1.0, args.budget / functions)
        progress(
            f"measuring: time limit {settings.limit:.1f} s per function, "
            f"batches of ≥ {args.minimum:g} s"
        )
        results = {}
        steps = len(rows) * len(thread_counts) * len(tools)
        step = 0
        for row in rows:
            for threads in thread_counts:
                for peer, tool in tools.items():
                    step += 1
                    label = f"[{step}/{steps}] {row.key}, {threads} thread(s), {PEER_NAMES[peer]}"
                    t0 = time.monotonic()
                    slow = [
                        t
                        for t in thread_counts
                        if t < threads and isinstance(results.get((row.key, t, peer)), TimedOut)
                    ]
                    try:
                        if slow:
                            raise Unavailable(f"not run: timed out with {slow[0]} thread(s)")
                        with pinned(threads):
                            figure = tool.measure(row, threads)
                    except Unavailable as e:
                        results[(row.key, threads, peer)] = e
                        progress(f"{label}: not measured: {e}")
                        continue
                    results[(row.key, threads, peer)] = figure
                    progress(
                        f"{label}: objective {seconds(figure.objective)}, "
                        f"Jacobian {seconds(figure.jacobian)} ({time.monotonic() - t0:.0f} s)"
                    )
        wall = time.monotonic() - started

    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(
        f"ADBench, {stamp}, {cores} cores, minimum time per call (ADBench's protocol); "
        "each cell: objective / Jacobian\n"
    )
    for threads in thread_counts:
        print(table(rows, threads, peers, results))
        print()
    lines = notes(rows, thread_counts, peers, results, unavailable)
    if lines:
        print("Not measured:")
        print("\n".join(lines))
        print()
    print(f"Total time {wall / 60:.1f} min.")
    if args.json:
        dump = {
            "date": stamp,
            "cores": cores,
            "settings": vars(settings),
            "unavailable": {PEER_NAMES[p]: why for p, why in unavailable.items()},
            "results": [
                {
                    "row": key,
                    "threads": threads,
                    "peer": PEER_NAMES[peer],
                    **(
                        {"objective": r.objective, "jacobian": r.jacobian, **r.extra}
                        if isinstance(r, Figure)
                        else {"error": str(r)}
                    ),
                }
                for (key, threads, peer), r in results.items()
            ],
        }
        Path(args.json).write_text(json.dumps(dump, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
