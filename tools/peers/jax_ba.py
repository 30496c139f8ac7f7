"""ADBench's bundle adjustment in JAX, written from the problem definition in the
ADBench data folder's README (float64, vectorised over observations).

The inputs are those of `bench-suite/adbench/ba.fut`, in entry order:
`cams [n][11], X [m][3], w [p], obs [p][2] (i32), feat [p][2]`. The objective is the
weighted reprojection errors `[p][2]` and the weight errors `[p]`. The Jacobian is
ADBench's sparse one in CSR form (row offsets, column indices, values, as
`tools/adbench/ba.py` gives them): each observation's 2×15 block is `jax.jacfwd` of
its reprojection error with respect to its camera, point and weight, mapped over the
observations with `jax.vmap`.
"""

import jax
import jax.numpy as jnp

CAMERA = 11
BLOCK = CAMERA + 3 + 1


def _cross(a, b):
    return jnp.stack(
        [
            a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
            a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
            a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
        ],
        axis=-1,
    )


def _rotate(r, x):
    """Rodrigues' rotation of x by the angle-axis vector r (x + r × x for r = 0)."""
    sq = jnp.sum(r * r, axis=-1, keepdims=True)
    nonzero = sq != 0.0
    theta = jnp.sqrt(jnp.where(nonzero, sq, 1.0))
    axis = r / theta
    c, s = jnp.cos(theta), jnp.sin(theta)
    full = x * c + _cross(axis, x) * s + axis * jnp.sum(axis * x, axis=-1, keepdims=True) * (1 - c)
    return jnp.where(nonzero, full, x + _cross(r, x))


def reprojection(cam, x, w, feat):
    """The weighted reprojection error(s) [..., 2] of camera(s) `cam` [..., 11] seeing
    point(s) `x` [..., 3] with weight(s) `w` [...] at feature(s) `feat` [..., 2]."""
    xcam = _rotate(cam[..., 0:3], x - cam[..., 3:6])
    p = xcam[..., 0:2] / xcam[..., 2:3]
    rsq = jnp.sum(p * p, axis=-1, keepdims=True)
    distortion = 1.0 + cam[..., 9:10] * rsq + cam[..., 10:11] * rsq * rsq
    proj = cam[..., 6:7] * p * distortion + cam[..., 7:9]
    return (proj - feat) * w[..., None]


def objective(cams, x, w, obs, feat):
    """The reprojection errors [p][2] and the weight errors [p]."""
    reproj = reprojection(cams[obs[:, 0]], x[obs[:, 1]], w, feat)
    return reproj, 1.0 - w * w


def _block(cam, x, w, feat):
    """One observation's 2×15 block: columns camera, point, weight."""
    d_cam, d_x, d_w = jax.jacfwd(reprojection, argnums=(0, 1, 2))(cam, x, w, feat)
    return jnp.concatenate([d_cam, d_x, d_w[:, None]], axis=1)


def jacobian(cams, x, w, obs, feat):
    """The Jacobian in CSR form: row offsets (i32), column indices (i32), values."""
    n, m, p = cams.shape[0], x.shape[0], w.shape[0]
    blocks = jax.vmap(_block)(cams[obs[:, 0]], x[obs[:, 1]], w, feat)  # [p][2][15]
    vals = jnp.concatenate([blocks.ravel(), -2.0 * w])
    i = jnp.arange(p, dtype=jnp.int32)
    weight_cols = CAMERA * n + 3 * m + i
    block_cols = jnp.concatenate(
        [
            CAMERA * obs[:, 0:1] + jnp.arange(CAMERA, dtype=jnp.int32),
            CAMERA * n + 3 * obs[:, 1:2] + jnp.arange(3, dtype=jnp.int32),
            weight_cols[:, None],
        ],
        axis=1,
    )
    cols = jnp.concatenate(
        [jnp.broadcast_to(block_cols[:, None, :], (p, 2, BLOCK)).ravel(), weight_cols]
    )
    rows = jnp.concatenate(
        [
            BLOCK * jnp.arange(2 * p + 1, dtype=jnp.int32),
            2 * p * BLOCK + 1 + jnp.arange(p, dtype=jnp.int32),
        ]
    )
    return rows, cols.astype(jnp.int32), vals


def build():
    """(objective, jacobian), both jitted; they take the entry's inputs."""
    return jax.jit(objective), jax.jit(jacobian)
