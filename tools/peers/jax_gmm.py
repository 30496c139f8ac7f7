"""ADBench's Gaussian mixture model in JAX, written from the problem definition in the
ADBench data folder's README (float64, vectorised, one `jax.grad`).

The inputs are those of `bench-suite/adbench/gmm.fut`, in entry order:
`alphas [K], means [K][D], icf [K][D(D+1)/2], x [N][D], gamma, m`. `build` returns
jitted functions computing the objective (a scalar) and the gradient with respect to
alphas, means and icf (three arrays, as `tools/adbench/gmm.py` orders them).
"""

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.scipy.special import gammaln, logsumexp


def _lower_indices(d: int):
    """Rows and columns of the strictly-lower entries of a D×D matrix, in icf order
    (column by column)."""
    rows, cols = np.tril_indices(d, -1)
    order = np.lexsort((rows, cols))  # sort by column, then by row
    return rows[order], cols[order]


def _q_matrices(icf, d: int):
    """Q_k for every component: exp(q_k) on the diagonal, l_k below it."""
    k = icf.shape[0]
    rows, cols = _lower_indices(d)
    diag = np.arange(d)
    q = jnp.zeros((k, d, d), dtype=icf.dtype)
    q = q.at[:, rows, cols].set(icf[:, d:])
    return q.at[:, diag, diag].set(jnp.exp(icf[:, :d]))


def objective(alphas, means, icf, x, gamma, m):
    """The log-likelihood of the points under the mixture plus the Wishart prior."""
    n, d = x.shape
    k = alphas.shape[0]
    q = _q_matrices(icf, d)
    sum_qs = jnp.sum(icf[:, :d], axis=1)
    # Q_k (x_i − μ_k) = Q_k x_i − Q_k μ_k: one matrix product for all points.
    qx = jnp.einsum("krc,nc->nkr", q, x)
    qmu = jnp.einsum("krc,kc->kr", q, means)
    z = qx - qmu[None, :, :]
    main = alphas[None, :] + sum_qs[None, :] - 0.5 * jnp.sum(z * z, axis=2)
    points = jnp.sum(logsumexp(main, axis=1))
    frobenius = jnp.sum(jnp.exp(2.0 * icf[:, :d])) + jnp.sum(icf[:, d:] ** 2)
    prior = 0.5 * gamma * gamma * frobenius - m * jnp.sum(sum_qs)
    n_prime = d + m + 1
    j = jnp.arange(1, d + 1)
    log_gamma_d = 0.25 * d * (d - 1) * math.log(math.pi) + jnp.sum(
        gammaln(0.5 * n_prime + (1.0 - j) / 2.0)
    )
    constant = n_prime * d * (jnp.log(gamma) - 0.5 * math.log(2.0)) - log_gamma_d
    return (
        -n * d * 0.5 * math.log(2.0 * math.pi)
        + points
        - n * logsumexp(alphas)
        + prior
        - k * constant
    )


def build():
    """(objective, jacobian), both jitted; they take the entry's inputs."""
    grad = jax.grad(objective, argnums=(0, 1, 2))
    return jax.jit(objective), jax.jit(grad)
