#!/usr/bin/env python3
"""Runs ADBench's own Python runner (from an ADBench checkout) with PyTorch limited to
a number of threads.

    torch_run.py ADBENCH_PYTHON_SRC THREADS RUNNER_ARGUMENTS...

`ADBENCH_PYTHON_SRC` is the checkout's `src/python` folder; the runner's arguments
follow ADBench's order (test type, module path, input file, output folder, minimum
measurable time, objective runs, Jacobian runs, time limit). The runner writes its
times file into the output folder; it reports its own errors on standard error.

ADBench's data classes give arrays and data-class instances as field defaults, which
Python 3.11 and later refuse ("mutable default ... use default_factory"); before
they are imported, `dataclasses.field` is made to turn such a default into a factory
of copies, which is what those classes mean.
"""

import copy
import dataclasses
import sys

_FIELD = dataclasses.field


def _lenient_field(*, default=dataclasses.MISSING, **kwargs):
    """`dataclasses.field`, with an unhashable default made into a default factory."""
    if default is not dataclasses.MISSING and type(default).__hash__ is None:
        return _FIELD(default_factory=lambda: copy.deepcopy(default), **kwargs)
    return _FIELD(default=default, **kwargs)


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    source, threads, runner_args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    import torch

    torch.set_num_threads(threads)
    torch.set_num_interop_threads(threads)
    dataclasses.field = _lenient_field
    sys.path.insert(0, source)
    from runner import main as runner

    return runner.main([source + "/runner/main.py", *runner_args]) or 0


if __name__ == "__main__":
    sys.exit(main())
