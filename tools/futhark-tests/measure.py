#!/usr/bin/env python3
"""Measures how fut fares on the test programs of a Futhark checkout.

Usage: measure.py FUTHARK_CHECKOUT [--fut PATH] [--jobs N] [--timeout S]
                  [--only SUBSTRING] [--list KIND] [--json OUT]

Runs on the programs under FUTHARK_CHECKOUT/tests (read in place, never copied):

* a must-reject program (its first test block is a compile-time `error:`) runs
  through `fut check`; it should be rejected with diagnostics. Futhark's regexes
  match Futhark's messages, so only the rejection itself is measured;
* any other program with a test block runs through `fut test -i` and passes,
  fails (by kind: a false rejection with its diagnostic code, a wrong result, an
  unexpected run-time error, ...), crashes (a panic or an internal compiler
  error), times out, or is skipped (tags, `compiled`-only cases).

Prints counts per class and per failure kind; `--list KIND` prints the programs of
a class or kind. `.actual`/`.expected` files that `fut test` writes next to
failing programs are removed again.
"""

import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys

SEP = re.compile(r"^--\s*==\s*$")


def first_block_directives(src):
    """The directive lines of the first test block, or None without a block."""
    lines = src.splitlines()
    for i, line in enumerate(lines):
        if SEP.match(line):
            out = []
            for line2 in lines[i + 1:]:
                if not line2.startswith("--"):
                    break
                out.append(line2[2:].strip())
            return out
    return None


def is_must_reject(directives):
    for d in directives:
        if not d or d.startswith("tags"):
            continue
        return d.startswith("error:")
    return False


def tags_of(directives):
    for d in directives:
        m = re.match(r"tags\s*\{([^}]*)\}", d)
        if m:
            return m.group(1).split()
    return []


CRASH = re.compile(r"panicked at|internal compiler error|RUST_BACKTRACE|stack overflow", re.I)


def classify_failure(text):
    """The kind of a `fut test -i` failure from its output (the first failure)."""
    if CRASH.search(text):
        return "crash"
    if "does not type-check" in text:
        code = re.search(r"\[([A-Z]\d{3})\] Error", text)
        return "rejected:" + (code.group(1) if code else "?")
    if "result differs" in text:
        return "wrong-result"
    if re.search(r"expected a run-time error.*but got", text):
        return "run-time-error-message-differs"
    if re.search(r"expected a run-time error.*but the run succeeded", text):
        return "missing-run-time-error"
    if "expected a warning" in text:
        return "missing-warning"
    if "malformed test block" in text:
        return "test-block-unsupported"
    if re.search(r"invalid expected output|invalid input at|cannot read|random input", text):
        return "data-not-read"
    if re.search(r"Error: cannot return the result|opaque", text):
        return "entry-point-values"
    if re.search(r"^\s*(entry .*: )?Error:", text, re.M):
        return "run-time-error"
    return "other"


def run(cmd, timeout, cwd=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return None, ""


def clean_outputs(path):
    d = os.path.dirname(path)
    stem = os.path.basename(path)[:-4]
    try:
        names = os.listdir(d)
    except OSError:
        return
    for n in names:
        if n.startswith(stem + ".") and (n.endswith(".actual") or n.endswith(".expected")):
            try:
                os.remove(os.path.join(d, n))
            except OSError:
                pass


def measure(path, fut, timeout):
    try:
        with open(path, encoding="utf-8") as f:
            src = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    directives = first_block_directives(src)
    if directives is None:
        return None
    if is_must_reject(directives):
        rc, out = run([fut, "--color=never", "check", path], timeout)
        if rc is None:
            return ("reject", "timeout", "")
        if CRASH.search(out):
            return ("reject", "crash", out)
        if rc == 0:
            return ("reject", "accepted", out)
        return ("reject", "rejected", out)
    tags = tags_of(directives)
    rc, out = run([fut, "--color=never", "test", "-i", "-j", "1", path], timeout)
    clean_outputs(path)
    if rc is None:
        return ("run", "timeout", "")
    if CRASH.search(out):
        return ("run", "crash", out)
    if rc == 0:
        if re.search(r"^1 passed", out, re.M):
            return ("run", "passed", out)
        return ("run", "skipped", out)
    if "disable" in tags:
        return ("run", "skipped", out)
    return ("run", classify_failure(out), out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--fut", default=os.path.join(here, "..", "..", "target", "debug", "fut"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--only", default=None, help="only programs whose path contains this")
    ap.add_argument("--list", default=None, help="print the programs of this class or kind")
    ap.add_argument("--json", default=None, help="write every program's outcome here")
    args = ap.parse_args()

    root = os.path.join(args.checkout, "tests")
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            if n.endswith(".fut"):
                p = os.path.join(d, n)
                if args.only is None or args.only in p:
                    files.append(p)
    files.sort()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = {ex.submit(measure, p, args.fut, args.timeout): p for p in files}
        for fu in concurrent.futures.as_completed(futs):
            r = fu.result()
            if r is not None:
                results[os.path.relpath(futs[fu], args.checkout)] = r

    reject = collections.Counter(k for c, k, _ in results.values() if c == "reject")
    runs = collections.Counter(k for c, k, _ in results.values() if c == "run")
    nrej = sum(reject.values())
    nrun = sum(runs.values())

    def pct(a, b):
        return f"{100.0 * a / b:.1f}%" if b else "-"

    print(f"must-reject programs: {nrej}")
    for k in ("rejected", "accepted", "crash", "timeout"):
        print(f"  {k:<28}{reject[k]:>5}  {pct(reject[k], nrej)}")
    ran = nrun - runs["skipped"]
    print(f"programs with cases: {nrun} ({runs['skipped']} skipped, {ran} measured)")
    print(f"  {'passed':<28}{runs['passed']:>5}  {pct(runs['passed'], ran)}")
    for k, n in sorted(runs.items(), key=lambda kv: (-kv[1], kv[0])):
        if k not in ("passed", "skipped"):
            print(f"  {k:<28}{n:>5}  {pct(n, ran)}")
    if args.list:
        for p, (c, k, out) in sorted(results.items()):
            if k == args.list or (args.list.endswith(":") and k.startswith(args.list)):
                first = next((l.strip() for l in out.splitlines()
                              if l.strip() and not l.startswith("FAILED")), "")
                print(f"{p}: {first[:200]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({p: [c, k, out[-2000:]] for p, (c, k, out) in results.items()}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
