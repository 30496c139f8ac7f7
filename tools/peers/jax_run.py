#!/usr/bin/env python3
"""Times the JAX implementations (`jax_*.py`) of one ADBench input with ADBench's
protocol (`protocol.py`) and prints the figures as one JSON line:
`{"objective": SECONDS, "jacobian": SECONDS}`.

    jax_run.py PROBLEM INPUT.in --minimum S --batches N --limit S

`INPUT.in` holds the entry's inputs in Futhark's binary value format, as
`tools/adbench/adbench.py convert` writes them. The thread count is the caller's
business: it sets XLA_FLAGS and pins the process (`peers.py` does both). The
functions are compiled (one call each, not timed) before the protocol starts.
"""

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "adbench"))

import futvalues  # noqa: E402

PROBLEMS = ["gmm", "lstm", "ba", "hand"]


def build(problem: str, inputs: list):
    """The jitted (objective, jacobian) of `problem` for these inputs, and the inputs
    as JAX arrays."""
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    if problem == "gmm":
        import jax_gmm as module

        functions = module.build()
    elif problem == "lstm":
        import jax_lstm as module

        functions = module.build()
    elif problem == "ba":
        import jax_ba as module

        functions = module.build()
    elif problem == "hand":
        import jax_hand as module

        functions = module.build(inputs[0], inputs[6], len(inputs[10]) > 0)
    else:
        raise ValueError(f"unknown problem {problem!r} (one of {', '.join(PROBLEMS)})")
    return functions, [jnp.asarray(v) for v in inputs]


def evaluate(problem: str, inputs: list):
    """The objective's and the Jacobian's values, as NumPy arrays (tuples become
    lists), for checking against the references."""
    import numpy as np

    (objective, jacobian), args = build(problem, inputs)

    def numpy(v):
        if isinstance(v, (tuple, list)):
            return [np.asarray(x) for x in v]
        return [np.asarray(v)]

    return numpy(objective(*args)), numpy(jacobian(*args))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="jax_run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("problem", choices=PROBLEMS)
    parser.add_argument("input", help="binary inputs, as adbench.py convert writes them")
    parser.add_argument("--minimum", type=float, default=0.5, help="minimum batch time (s)")
    parser.add_argument("--batches", type=int, default=10, help="most batches per function")
    parser.add_argument("--limit", type=float, default=10.0, help="time limit per function (s)")
    args = parser.parse_args(argv)

    import jax

    import protocol

    inputs = futvalues.read(args.input)
    (objective, jacobian), values = build(args.problem, inputs)
    figures = {}
    for name, function in (("objective", objective), ("jacobian", jacobian)):
        jax.block_until_ready(function(*values))  # compiles

        def call(function=function):
            jax.block_until_ready(function(*values))

        figures[name] = protocol.shortest_time(call, args.minimum, args.batches, args.limit)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
