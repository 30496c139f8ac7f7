"""ADBench's Gaussian mixture model: parsing, generation and a NumPy reference.

The inputs of `bench-suite/adbench/gmm.fut`, in entry order, are
`alphas [K], means [K][D], icf [K][D(D+1)/2], x [N][D], gamma (f64), m (i64)`.
The objective is the log-likelihood with a Wishart prior, as the data folder's README
defines it; the Jacobian is its gradient with respect to alphas, means and icf,
computed analytically (below, `jacobian`).
"""

import math

import numpy as np

from textfile import Tokens, format_rows

TEST_FILES = [
    ("gmm_test", "gmm/test.txt", {"d": 2, "k": 3, "n": 1}),
    ("gmm_small", None, {"d": 3, "k": 4, "n": 20}),
    ("gmm_1k_d2_K10", "gmm/1k/gmm_d2_K10.txt", {"d": 2, "k": 10, "n": 1000}),
]

SELFCHECK_SIZES = {"d": 3, "k": 4, "n": 6}

PARAMS = [0, 1, 2]


def parse(path) -> list:
    """The entry's inputs from an ADBench GMM file."""
    t = Tokens(path)
    d = t.positive("the dimension D")
    k = t.positive("the number of components K")
    n = t.positive("the number of points N")
    alphas = t.floats((k,), "an alpha")
    means = t.floats((k, d), "a mean coordinate")
    icf = t.floats((k, d * (d + 1) // 2), "an icf value")
    x = t.floats((n, d), "a point coordinate")
    gamma = t.float("the Wishart gamma")
    m = t.int("the Wishart m")
    t.end()
    return [alphas, means, icf, x, np.float64(gamma), np.int64(m)]


def generate(rng, d: int, k: int, n: int) -> str:
    """A synthetic GMM file: alphas and icf ~ N(0,1), means ~ U(0,1), points ~ N(0,1)."""
    if min(d, k, n) < 1:
        raise ValueError(f"gmm: d, k and n must be at least 1, found {d}, {k}, {n}")
    alphas = rng.standard_normal(k)
    means = rng.uniform(0.0, 1.0, (k, d))
    icf = rng.standard_normal((k, d * (d + 1) // 2))
    x = rng.standard_normal((n, d))
    return (
        f"{d} {k} {n}\n"
        + format_rows(alphas, "%.6f")
        + format_rows(means, "%.6f")
        + format_rows(icf, "%.6f")
        + format_rows(x, "%.6f")
        + "1.000000 0\n"
    )


def _unpack(inputs):
    if len(inputs) != 6:
        raise ValueError(f"gmm: expected 6 input values, found {len(inputs)}")
    alphas, means, icf, x = (np.asarray(v, dtype=np.float64) for v in inputs[:4])
    ranks = [v.ndim for v in (alphas, means, icf, x, *inputs[4:])]
    if ranks != [1, 2, 2, 2, 0, 0]:
        raise ValueError(f"gmm: expected inputs of ranks 1, 2, 2, 2, 0, 0, found {ranks}")
    k, d = means.shape
    if icf.shape != (k, d * (d + 1) // 2) or alphas.shape != (k,) or x.shape[1:] != (d,):
        raise ValueError("gmm: inconsistent input shapes")
    return alphas, means, icf, x, float(inputs[4]), int(inputs[5])


def _lower_pairs(d: int):
    """The (row, column) of each strictly-lower entry, in icf order (column-major)."""
    return [(r, c) for c in range(d) for r in range(c + 1, d)]


def _q_matrices(icf: np.ndarray, d: int) -> np.ndarray:
    """Q_k for every component: diagonal exp(q_k), strictly lower part l_k."""
    k = icf.shape[0]
    q = np.zeros((k, d, d))
    idx = np.arange(d)
    q[:, idx, idx] = np.exp(icf[:, :d])
    for j, (r, c) in enumerate(_lower_pairs(d)):
        q[:, r, c] = icf[:, d + j]
    return q


def _logsumexp(v: np.ndarray, axis: int) -> np.ndarray:
    top = np.max(v, axis=axis, keepdims=True)
    return np.squeeze(top, axis=axis) + np.log(np.sum(np.exp(v - top), axis=axis))


def _log_gamma_d(d: int, a: float) -> float:
    return 0.25 * d * (d - 1) * math.log(math.pi) + sum(
        math.lgamma(a + (1 - j) / 2) for j in range(1, d + 1)
    )


# How many elements the per-point, per-component arrays of one block of points may
# hold (about the number of points × K × D²), so large inputs fit in memory.
BLOCK_ELEMENTS = 4_000_000


def _chunks(x: np.ndarray, k: int):
    """`x` in blocks of points whose per-point arrays stay near BLOCK_ELEMENTS."""
    step = max(1, BLOCK_ELEMENTS // max(1, k * x.shape[1] * x.shape[1]))
    for start in range(0, x.shape[0], step):
        yield x[start : start + step]


def _forward(alphas, means, icf, x, q):
    """Per point and component: x_i − μ_k, Q_k(x_i − μ_k) and main_ik."""
    d = means.shape[1]
    v = x[:, None, :] - means[None, :, :]
    z = np.einsum("krc,nkc->nkr", q, v)
    main = alphas[None, :] + icf[:, :d].sum(axis=1)[None, :] - 0.5 * np.sum(z * z, axis=2)
    return v, z, main


def objective(inputs) -> list:
    """The GMM objective E, as one f64."""
    alphas, means, icf, x, gamma, m = _unpack(inputs)
    k, d = means.shape
    n = x.shape[0]
    q = _q_matrices(icf, d)
    point_terms = sum(
        float(np.sum(_logsumexp(_forward(alphas, means, icf, block, q)[2], axis=1)))
        for block in _chunks(x, k)
    )
    diag = icf[:, :d]
    lower = icf[:, d:]
    prior = np.sum(
        0.5 * gamma * gamma * (np.sum(np.exp(2 * diag), axis=1) + np.sum(lower * lower, axis=1))
        - m * np.sum(diag, axis=1)
    )
    n_prime = d + m + 1
    constant = n_prime * d * (math.log(gamma) - 0.5 * math.log(2)) - _log_gamma_d(d, 0.5 * n_prime)
    total = (
        -n * d * 0.5 * math.log(2 * math.pi)
        + point_terms
        - n * _logsumexp(alphas, axis=0)
        + prior
        - k * constant
    )
    return [np.float64(total)]


def jacobian(inputs) -> list:
    """The gradient of E: ∂alphas [K], ∂means [K][D], ∂icf [K][D(D+1)/2].

    With r_ik the softmax over k of main_ik (the weight of component k for point i),
    ∂E/∂main_ik = r_ik, and main_ik depends on alpha_k with slope 1, on μ_k through
    Q_k^T z_ik, on q_kj through 1 − z_ikj·exp(q_kj)·v_ikj and on the lower entry
    (r, c) through −z_ikr·v_ikc, where v = x_i − μ_k and z = Q_k v.
    """
    alphas, means, icf, x, gamma, m = _unpack(inputs)
    k, d = means.shape
    n = x.shape[0]
    q = _q_matrices(icf, d)
    resp_sum = np.zeros(k)
    d_means = np.zeros((k, d))
    d_q = np.zeros((k, d, d))
    for block in _chunks(x, k):
        v, z, main = _forward(alphas, means, icf, block, q)
        resp = np.exp(main - _logsumexp(main, axis=1)[:, None])
        resp_sum += resp.sum(axis=0)
        d_means += np.einsum("krc,kr->kc", q, np.einsum("nk,nkr->kr", resp, z))
        d_q -= np.einsum("nkr,nkc->krc", resp[:, :, None] * z, v)
    weights = np.exp(alphas - _logsumexp(alphas, axis=0))
    d_alphas = resp_sum - n * weights

    diag = icf[:, :d]
    d_icf = np.zeros_like(icf)
    idx = np.arange(d)
    d_icf[:, :d] = (
        resp_sum[:, None]
        + np.exp(diag) * d_q[:, idx, idx]
        + gamma * gamma * np.exp(2 * diag)
        - m
    )
    for j, (r, c) in enumerate(_lower_pairs(d)):
        d_icf[:, d + j] = d_q[:, r, c] + gamma * gamma * icf[:, d + j]
    return [d_alphas, d_means, d_icf]
