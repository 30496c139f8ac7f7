"""ADBench's hand tracking in JAX, written from the problem definition in the ADBench
data folder's README (float64; the whole model posed in a few batched products).

The inputs are those of `bench-suite/adbench/hand.fut`, in entry order: the model
(`parents [22] (i32), base_relatives [22][4][4], inverse_base_absolutes [22][4][4],
weights [22][M], base_positions [4][M], triangles [T][3] (i32), is_mirrored`), then
`correspondences [N] (i32), points [3][N], theta [26], us [2N or 0]` (`us` empty: the
simple variant). The objective is the residuals [N][3]; the Jacobian is [cols][3N],
as `tools/adbench/hand.py` lays it out: in the complicated variant ∂/∂u1 and ∂/∂u2
of every residual first (one `jax.jvp` each: a residual depends only on its own
point's u), then the 26 θ columns (`jax.jacfwd`: 26 inputs, 3N outputs).
"""

import jax
import jax.numpy as jnp
import numpy as np

THETA = 26


def _pose(theta):
    """The 25 pose columns (global rotation, scale, translation, one per bone)."""
    zero = jnp.zeros(3, dtype=theta.dtype)
    columns = [theta[0:3], jnp.ones(3, dtype=theta.dtype), theta[3:6], zero]
    for finger in range(5):
        i = 6 + 4 * finger
        columns += [
            zero,
            jnp.stack([theta[i], theta[i + 1], 0.0]),
            jnp.stack([theta[i + 2], 0.0, 0.0]),
            jnp.stack([theta[i + 3], 0.0, 0.0]),
        ]
    columns.append(zero)
    return jnp.stack(columns)


def _euler(angles):
    """Rz(tz)·Ry(ty)·Rx(tx) for each row (tx, tz, ty) of `angles` [B][3]."""
    cx, sx = jnp.cos(angles[:, 0]), jnp.sin(angles[:, 0])
    cz, sz = jnp.cos(angles[:, 1]), jnp.sin(angles[:, 1])
    cy, sy = jnp.cos(angles[:, 2]), jnp.sin(angles[:, 2])
    one, zero = jnp.ones_like(cx), jnp.zeros_like(cx)
    rx = jnp.stack([one, zero, zero, zero, cx, -sx, zero, sx, cx], 1).reshape(-1, 3, 3)
    ry = jnp.stack([cy, zero, sy, zero, one, zero, -sy, zero, cy], 1).reshape(-1, 3, 3)
    rz = jnp.stack([cz, -sz, zero, sz, cz, zero, zero, zero, one], 1).reshape(-1, 3, 3)
    return rz @ ry @ rx


def _angle_axis(r):
    """The rotation matrix of the angle-axis vector r (identity when ‖r‖ < 1e−4)."""
    norm = jnp.sqrt(jnp.sum(r * r))
    small = norm < 1e-4
    angle = jnp.where(small, 1.0, norm)
    k = r / angle
    c, s = jnp.cos(angle), jnp.sin(angle)
    zero = jnp.zeros_like(angle)
    skew = jnp.stack(
        [
            jnp.stack([zero, -k[2], k[1]]),
            jnp.stack([k[2], zero, -k[0]]),
            jnp.stack([-k[1], k[0], zero]),
        ]
    )
    rotation = c * jnp.eye(3) + s * skew + (1.0 - c) * jnp.outer(k, k)
    return jnp.where(small, jnp.eye(3), rotation)


def posed_vertices(parents, relatives, inverses, weights, base_positions, mirrored, theta):
    """Every vertex of the model posed by θ, [3][M]. `parents` and `mirrored` are
    static (NumPy / Python values): the skeleton is unrolled."""
    pose = _pose(theta)
    rotations = _euler(pose[3:])
    bones = len(parents)
    local = jnp.zeros((bones, 4, 4), dtype=theta.dtype).at[:, :3, :3].set(rotations)
    local = relatives @ local.at[:, 3, 3].set(1.0)
    absolute = []
    for b in range(bones):
        parent = int(parents[b])
        absolute.append(local[b] if parent < 0 else absolute[parent] @ local[b])
    transforms = jnp.stack(absolute) @ inverses  # [B][4][4]
    skinned = jnp.einsum("brc,cm,bm->rm", transforms[:, :3, :], base_positions, weights)
    if mirrored:
        skinned = skinned * jnp.array([-1.0, 1.0, 1.0])[:, None]
    rotation = _angle_axis(pose[0]) * pose[1][None, :]
    return rotation @ skinned + pose[2][:, None]


def build(parents, mirrored, complicated: bool):
    """(objective, jacobian) for a model with these (static) parents and mirroring,
    both jitted; they take the entry's inputs (the static ones are ignored)."""
    parents = np.asarray(parents)
    mirrored = bool(mirrored)

    def residuals(model, triangles, correspondences, points, theta, us):
        relatives, inverses, weights, base_positions = model
        vertices = posed_vertices(
            parents, relatives, inverses, weights, base_positions, mirrored, theta
        )
        if not complicated:
            return (points - vertices[:, correspondences]).T
        corners = triangles[correspondences]  # [N][3]
        u1, u2 = us[0::2], us[1::2]
        surface = (
            vertices[:, corners[:, 0]] * u1
            + vertices[:, corners[:, 1]] * u2
            + vertices[:, corners[:, 2]] * (1.0 - u1 - u2)
        )
        return (points - surface).T

    def split(inputs):
        (
            _,
            relatives,
            inverses,
            weights,
            base_positions,
            triangles,
            _,
            correspondences,
            points,
            theta,
            us,
        ) = inputs
        return (
            (relatives, inverses, weights, base_positions),
            triangles,
            correspondences,
            points,
            theta,
            us,
        )

    def objective(*inputs):
        return residuals(*split(inputs))

    def jacobian(*inputs):
        model, triangles, correspondences, points, theta, us = split(inputs)
        n = correspondences.shape[0]

        def of_theta(t):
            return residuals(model, triangles, correspondences, points, t, us).ravel()

        d_theta = jax.jacfwd(of_theta)(theta).T  # [26][3N]
        if not complicated:
            return d_theta

        def of_us(u):
            return residuals(model, triangles, correspondences, points, theta, u).ravel()

        # Tangent 1 on every u1 (then every u2): each residual's own derivative.
        seeds = jnp.tile(jnp.eye(2, dtype=us.dtype), (1, n))  # [2][2N]
        d_us = jax.vmap(lambda seed: jax.jvp(of_us, (us,), (seed,))[1])(seeds)
        return jnp.concatenate([d_us, d_theta], axis=0)

    return jax.jit(objective), jax.jit(jacobian)
