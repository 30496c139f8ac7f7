"""Tests of the ADBench tool's GMM and LSTM modules: the reference objectives against
the data folder README's formulas written out by hand for tiny inputs, the parsers'
layout and error messages, and generation.

Run with `python3 -m unittest discover -s tools/adbench` from the project root.
"""

import math
import os
import sys
import tempfile
import unittest
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import adbench  # noqa: E402
import futvalues  # noqa: E402
import gmm  # noqa: E402
import lstm  # noqa: E402


def write_temp(text: str) -> str:
    fd, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


class GmmTests(unittest.TestCase):
    def test_one_component_one_dimension_matches_the_formula(self):
        alpha, mu, q, x, gamma, m = 0.3, 0.2, -0.4, 1.1, 1.0, 0
        inputs = [
            np.array([alpha]),
            np.array([[mu]]),
            np.array([[q]]),
            np.array([[x]]),
            np.float64(gamma),
            np.int64(m),
        ]
        # K = N = D = 1: lse over one value is the value itself.
        main = alpha + q - 0.5 * (math.exp(q) * (x - mu)) ** 2
        n_prime = 1 + m + 1
        log_gamma_1 = math.lgamma(0.5 * n_prime)
        c = n_prime * (math.log(gamma) - 0.5 * math.log(2)) - log_gamma_1
        prior = 0.5 * gamma**2 * math.exp(2 * q) - m * q
        want = -0.5 * math.log(2 * math.pi) + main - alpha + prior - c
        (got,) = gmm.objective(inputs)
        self.assertAlmostEqual(float(got), want, places=12)

    def test_lower_entries_are_column_major(self):
        # D = 3: icf = q0 q1 q2, then (1,0) (2,0) (2,1).
        icf = np.array([[0.1, -0.2, 0.3, 0.5, -0.7, 0.9]])
        q = np.array(
            [
                [math.exp(0.1), 0.0, 0.0],
                [0.5, math.exp(-0.2), 0.0],
                [-0.7, 0.9, math.exp(0.3)],
            ]
        )
        x = np.array([[0.4, -1.2, 2.0]])
        mu = np.array([[0.1, 0.2, 0.3]])
        inputs = [np.array([0.0]), mu, icf, x, np.float64(1.0), np.int64(0)]
        z = q @ (x[0] - mu[0])
        main = 0.0 + 0.2 - 0.5 * z @ z
        n_prime = 4
        log_gamma_3 = 0.25 * 3 * 2 * math.log(math.pi) + sum(
            math.lgamma(2 + (1 - j) / 2) for j in (1, 2, 3)
        )
        c = n_prime * 3 * (0 - 0.5 * math.log(2)) - log_gamma_3
        prior = 0.5 * (np.sum(np.exp(2 * icf[0, :3])) + np.sum(icf[0, 3:] ** 2))
        want = -1.5 * math.log(2 * math.pi) + main - 0.0 + prior - c
        self.assertAlmostEqual(float(gmm.objective(inputs)[0]), want, places=12)

    def test_parse_reads_the_layout(self):
        path = write_temp("1 2 1\n0.5\n-0.5\n0.1\n0.2\n0.3\n0.4\n7.0\n1.000000 0\n")
        alphas, means, icf, x, gamma, m = gmm.parse(path)
        np.testing.assert_array_equal(alphas, [0.5, -0.5])
        np.testing.assert_array_equal(means, [[0.1], [0.2]])
        np.testing.assert_array_equal(icf, [[0.3], [0.4]])
        np.testing.assert_array_equal(x, [[7.0]])
        self.assertEqual((float(gamma), int(m)), (1.0, 0))

    def test_parse_errors_name_the_line(self):
        path = write_temp("1 2 1\n0.5\nzero\n")
        with self.assertRaisesRegex(ValueError, r":3: expected an alpha \(a number\), found 'zero'"):
            gmm.parse(path)
        path = write_temp("1 1 1\n0.5\n0.1\n0.2\n")
        with self.assertRaisesRegex(ValueError, r"expected a point coordinate, found the end"):
            gmm.parse(path)

    def test_blocks_of_points_give_the_same_results(self):
        text = gmm.generate(np.random.default_rng(4), d=3, k=2, n=7)
        inputs = gmm.parse(write_temp(text))
        whole = [gmm.objective(inputs)[0], *gmm.jacobian(inputs)]
        saved = gmm.BLOCK_ELEMENTS
        gmm.BLOCK_ELEMENTS = 1  # one point a block
        try:
            blocks = [gmm.objective(inputs)[0], *gmm.jacobian(inputs)]
        finally:
            gmm.BLOCK_ELEMENTS = saved
        for a, b in zip(whole, blocks):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)

    def test_generated_file_parses_to_the_sizes(self):
        text = gmm.generate(np.random.default_rng(3), d=3, k=2, n=5)
        inputs = gmm.parse(write_temp(text))
        self.assertEqual([np.shape(v) for v in inputs], [(2,), (2, 3), (2, 6), (5, 3), (), ()])


class LstmTests(unittest.TestCase):
    def test_one_layer_one_bit_matches_the_formula(self):
        w = [0.3, -0.2, 0.5, 0.7]
        u = [0.1, 0.2, -0.3, 0.4]
        win, wout, bout = 0.9, 1.3, -0.2
        h, c = 0.25, -0.5
        seq = [1.0, 1.0]
        inputs = [
            np.array([w, u]),
            np.array([[win], [wout], [bout]]),
            np.array([[h], [c]]),
            np.array([[seq[0]], [seq[1]]]),
        ]

        def sigmoid(v):
            return 1 / (1 + math.exp(-v))

        x = seq[0] * win
        f = sigmoid(x * w[0] + u[0])
        i = sigmoid(h * w[1] + u[1])
        o = sigmoid(x * w[2] + u[2])
        g = math.tanh(h * w[3] + u[3])
        c2 = c * f + i * g
        y = o * math.tanh(c2) * wout + bout
        want = -(seq[1] * (y - math.log(2 + math.exp(y))))
        self.assertAlmostEqual(float(lstm.objective(inputs)[0]), want, places=12)

    def test_gradient_layout_is_main_then_extra(self):
        text = lstm.generate(np.random.default_rng(5), l=2, c=3, b=2)
        inputs = lstm.parse(write_temp(text))
        (grad,) = lstm.jacobian(inputs)
        self.assertEqual(grad.shape, (2 * 2 * 4 * 2 + 3 * 2,))
        # The output bias of bit j moves only the loss through y_j: check one entry.
        h = 1e-6
        moved = [list(inputs), list(inputs)]
        for k, sign in enumerate((1, -1)):
            extra = inputs[1].copy()
            extra[2, 1] += sign * h
            moved[k][1] = extra
        numeric = (lstm.objective(moved[0])[0] - lstm.objective(moved[1])[0]) / (2 * h)
        self.assertAlmostEqual(float(grad[32 + 2 * 2 + 1]), float(numeric), places=7)

    def test_parse_rejects_a_short_file(self):
        path = write_temp("1 2 1\n\n0.1 0.2 0.3 0.4\n")
        with self.assertRaisesRegex(ValueError, r":3: expected a main parameter, found the end"):
            lstm.parse(path)


class ToolTests(unittest.TestCase):
    def test_convert_then_reference_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            txt, inp, out = (str(Path(tmp) / n) for n in ("g.txt", "g.in", "g.out"))
            adbench.main(["generate", "gmm", "--seed", "2", "d=2", "k=3", "n=4", txt])
            adbench.main(["convert", "gmm", txt, inp])
            adbench.main(["reference", "gmm", inp, "jacobian", out])
            inputs = futvalues.read(inp)
            self.assertEqual(inputs[5].dtype, np.int64)
            got = futvalues.read(out)
            for a, b in zip(got, gmm.jacobian(gmm.parse(txt))):
                np.testing.assert_array_equal(a, b)

    def test_time_takes_the_minimum_per_call(self):
        with tempfile.TemporaryDirectory() as tmp:
            exe = Path(tmp) / "fake"
            # Stands in for a compiled program: each call of the objective takes
            # 100 ms except one of 60 ms; the Jacobian's calls take 240 ms.
            exe.write_text(
                "#!/usr/bin/env python3\n"
                "import sys\n"
                "a = sys.argv\n"
                "runs = int(a[a.index('-r') + 1])\n"
                "base = 100000 if a[a.index('-e') + 1] == 'calculate_objective' else 240000\n"
                "times = [base] * runs\n"
                "times[runs // 2] = base * 6 // 10\n"
                "open(a[a.index('-t') + 1], 'w').write(''.join(f'{t}\\n' for t in times))\n"
            )
            exe.chmod(0o755)
            self.assertAlmostEqual(
                adbench.minimum_time(str(exe), "calculate_objective", b"", 0.0, []), 0.06
            )
            self.assertAlmostEqual(
                adbench.minimum_time(str(exe), "calculate_jacobian", b"", 0.0, []), 0.144
            )

    def test_bad_sizes_are_reported(self):
        with self.assertRaises(SystemExit) as e:
            adbench.main(["generate", "gmm", "d=2", "k=x", "n=4", os.devnull])
        self.assertEqual(e.exception.code, 1)


if __name__ == "__main__":
    unittest.main()
