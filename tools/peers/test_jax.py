"""Checks the JAX implementations (`jax_*.py`) against the NumPy references in
`tools/adbench`: on small generated inputs, the objective and the Jacobian must equal
the reference's to 1e-9 relative to the reference's largest value. Also checks the
timing protocol's batching. Skips the JAX checks with a message when JAX is missing.

Run with `python3 -m unittest discover -s tools/peers` from the project root.
"""

import importlib.util
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "adbench"))

import adbench  # noqa: E402
import futvalues  # noqa: E402
import protocol  # noqa: E402

HAVE_JAX = importlib.util.find_spec("jax") is not None

# Inputs of each problem to check, as sizes for the reference module's `generate`.
CASES = {
    "gmm": [{"d": 3, "k": 4, "n": 20}, {"d": 5, "k": 3, "n": 7}],
    "lstm": [{"l": 2, "c": 6, "b": 5}, {"l": 1, "c": 3, "b": 4}],
    "ba": [{"n": 3, "m": 5, "p": 12}],
    "hand": [{"n": 7, "complicated": 0}, {"n": 7, "complicated": 1}],
}


def generated_inputs(problem: str, sizes: dict, seed: int) -> list:
    """The entry inputs of a generated ADBench file (written and parsed as the tool
    does it), after a round trip through the binary value format."""
    module = adbench.load(problem)
    rng = np.random.default_rng(seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        adbench.write_support(module, rng, folder)
        path = folder / problem / "check.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(module.generate(rng, **sizes))
        futvalues.write(folder / "check.in", module.parse(path))
        return futvalues.read(folder / "check.in")


def assert_close(test, got: list, want: list, what: str) -> None:
    test.assertEqual(len(got), len(want), f"{what}: number of results")
    for i, (g, w) in enumerate(zip(got, want)):
        g = np.asarray(g)
        w = np.asarray(w)
        test.assertEqual(g.shape, w.shape, f"{what}: shape of result {i}")
        if np.issubdtype(w.dtype, np.integer):
            np.testing.assert_array_equal(g, w, err_msg=f"{what}: result {i}")
            continue
        scale = max(1.0, float(np.max(np.abs(w)))) if w.size else 1.0
        error = float(np.max(np.abs(g - w))) / scale if w.size else 0.0
        test.assertLessEqual(error, 1e-9, f"{what}: result {i} differs by {error:.3g}")


@unittest.skipUnless(HAVE_JAX, "JAX is not installed (pip install jax): JAX peers not checked")
class JaxMatchesReferences(unittest.TestCase):
    def check(self, problem: str) -> None:
        import jax_run

        module = adbench.load(problem)
        for seed, sizes in enumerate(CASES[problem]):
            with self.subTest(sizes=sizes):
                inputs = generated_inputs(problem, sizes, seed)
                objective, jacobian = jax_run.evaluate(problem, inputs)
                assert_close(self, objective, module.objective(inputs), f"{problem} objective")
                assert_close(self, jacobian, module.jacobian(inputs), f"{problem} Jacobian")

    def test_gmm(self):
        self.check("gmm")

    def test_lstm(self):
        self.check("lstm")

    def test_ba(self):
        self.check("ba")

    def test_hand(self):
        self.check("hand")

    def test_a_wrong_answer_is_caught(self):
        inputs = generated_inputs("gmm", CASES["gmm"][0], 0)
        module = adbench.load("gmm")
        want = module.objective(inputs)
        with self.assertRaises(AssertionError):
            assert_close(self, [want[0] * (1 + 1e-6)], want, "perturbed")


class ProtocolTests(unittest.TestCase):
    def test_batch_size_is_the_smallest_power_of_two_over_the_minimum(self):
        self.assertEqual(protocol.batch_size(0.6, 0.5), 1)
        self.assertEqual(protocol.batch_size(0.5, 0.5), 2)
        self.assertEqual(protocol.batch_size(0.1, 0.5), 8)

    def test_call_times_give_the_least_batch_mean(self):
        # Batches of 2 (0.3 s calls): means 0.35, 0.25, 0.4; the odd call is dropped.
        times = [0.3, 0.4, 0.2, 0.3, 0.4, 0.4, 0.1]
        self.assertAlmostEqual(protocol.from_call_times(times, 0.5), 0.25)

    def test_too_few_calls_give_their_mean(self):
        self.assertAlmostEqual(protocol.from_call_times([0.1, 0.2], 0.5), 0.15)

    def test_shortest_time_counts_calls(self):
        calls = []
        figure = protocol.shortest_time(lambda: calls.append(1), 0.0, 3, 100.0)
        # Every batch of one call takes longer than 0 s: three batches, three calls.
        self.assertEqual(len(calls), 3)
        self.assertGreaterEqual(figure, 0.0)


if __name__ == "__main__":
    unittest.main()
