"""ADBench's bundle adjustment (BA): parsing, generation and a NumPy reference.

The inputs of `bench-suite/adbench/ba.fut`, in entry order, are
`cams [n][11], X [m][3], w [p], obs [p][2] (i32), feat [p][2]`: an ADBench file holds
one camera, point, weight and feature, replicated n, m and p times, and observation i
pairs camera i mod n with point i mod m. The objective is the weighted reprojection
errors `[p][2]` and the weight errors `[p]`; the Jacobian is returned in CSR form
(row offsets, column indices, values) with ADBench's row and column order, its values
computed by forward-mode dual numbers (`forward.py`), 15 directions per observation.
"""

import numpy as np

from forward import Dual, cos, sin, sqrt, stack
from textfile import Tokens, format_rows

TEST_FILES = [
    ("ba_test", "ba/test.txt", {"n": 2, "m": 10, "p": 10}),
    ("ba1", "ba/ba1_n49_m7776_p31843.txt", {"n": 49, "m": 7776, "p": 31843}),
]

SELFCHECK_SIZES = {"n": 3, "m": 4, "p": 6}

PARAMS = [0, 1, 2]

CAMERA_PARAMS = 11
BLOCK = CAMERA_PARAMS + 3 + 1

# Observations per dual-number evaluation of the Jacobian (bounds memory use).
_CHUNK = 65536


def parse(path) -> list:
    """The entry's inputs from an ADBench BA file, replicated as its header says."""
    t = Tokens(path)
    n = t.positive("the number of cameras n")
    m = t.positive("the number of points m")
    p = t.positive("the number of observations p")
    cam = t.floats((CAMERA_PARAMS,), "a camera parameter")
    point = t.floats((3,), "a point coordinate")
    weight = t.float("a weight")
    feature = t.floats((2,), "a feature coordinate")
    t.end()
    idx = np.arange(p, dtype=np.int64)
    obs = np.stack([idx % n, idx % m], axis=1).astype(np.int32)
    return [
        np.tile(cam, (n, 1)),
        np.tile(point, (m, 1)),
        np.full(p, weight),
        obs,
        np.tile(feature, (p, 1)),
    ]


def _rotate(r, x):
    """Rodrigues' rotation of the rows of x by the angle-axis rows of r (arrays or
    duals, shape (p, 3)); rows with a zero angle use x + r × x."""
    sq = (r * r).sum(1)
    sq_val = sq.val if isinstance(sq, Dual) else sq
    nonzero = sq_val != 0
    safe_sq = sq + np.where(nonzero, 0.0, 1.0)  # avoids 0/0 in the unused branch
    theta = sqrt(safe_sq)
    axis = r / stack([theta, theta, theta], axis=1)
    c = cos(theta)
    s = sin(theta)
    along = (axis * x).sum(1) * (1.0 - c)
    full = (
        x * stack([c, c, c], axis=1)
        + _cross(axis, x) * stack([s, s, s], axis=1)
        + axis * stack([along, along, along], axis=1)
    )
    small = x + _cross(r, x)
    mask = nonzero[:, None].astype(np.float64)
    return full * mask + small * (1.0 - mask)


def _cross(a, b):
    return stack(
        [
            a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
            a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
            a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0],
        ],
        axis=1,
    )


def _reprojection(cam, x, w, feat):
    """The weighted reprojection errors (p, 2) of observations with camera rows `cam`
    (p, 11), point rows `x` (p, 3), weights `w` (p,) and features `feat` (p, 2)."""
    xcam = _rotate(cam[:, 0:3], x - cam[:, 3:6])
    p0 = xcam[:, 0] / xcam[:, 2]
    p1 = xcam[:, 1] / xcam[:, 2]
    rsq = p0 * p0 + p1 * p1
    distortion = 1.0 + cam[:, 9] * rsq + cam[:, 10] * rsq * rsq
    u = cam[:, 6] * p0 * distortion + cam[:, 7]
    v = cam[:, 6] * p1 * distortion + cam[:, 8]
    return stack([(u - feat[:, 0]) * w, (v - feat[:, 1]) * w], axis=1)


def _unpack(inputs):
    cams, x, w, obs, feat = inputs
    cams = np.asarray(cams, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    obs = np.asarray(obs, dtype=np.int64)
    feat = np.asarray(feat, dtype=np.float64)
    p = w.shape[0]
    if cams.shape[1:] != (CAMERA_PARAMS,) or x.shape[1:] != (3,):
        raise ValueError("ba: cams must be [n][11] and X [m][3]")
    if obs.shape != (p, 2) or feat.shape != (p, 2):
        raise ValueError("ba: obs and feat must be [p][2] with p the number of weights")
    if p and (obs.min() < 0 or obs[:, 0].max() >= len(cams) or obs[:, 1].max() >= len(x)):
        raise ValueError("ba: an observation names a camera or point that does not exist")
    return cams, x, w, obs, feat


def objective(inputs) -> list:
    """The reprojection errors `[p][2]` and the weight errors `[p]`."""
    cams, x, w, obs, feat = _unpack(inputs)
    reproj = _reprojection(cams[obs[:, 0]], x[obs[:, 1]], w, feat)
    return [reproj, 1.0 - w * w]


def _blocks(cam, x, w, feat) -> np.ndarray:
    """The 2x15 Jacobian block of each observation, shape (p, 2, 15): columns are the
    camera parameters, the point coordinates and the weight."""
    p = len(w)
    seeds = np.eye(BLOCK)
    cam_d = Dual(cam, np.broadcast_to(seeds[:, None, :CAMERA_PARAMS], (BLOCK, p, CAMERA_PARAMS)))
    x_d = Dual(x, np.broadcast_to(seeds[:, None, CAMERA_PARAMS : CAMERA_PARAMS + 3], (BLOCK, p, 3)))
    w_d = Dual(w, np.broadcast_to(seeds[:, None, BLOCK - 1], (BLOCK, p)))
    err = _reprojection(cam_d, x_d, w_d, feat)  # tangents (15, p, 2)
    return np.transpose(err.tan, (1, 2, 0))


def jacobian(inputs) -> list:
    """The Jacobian in CSR form: row offsets (i32), column indices (i32), values."""
    cams, x, w, obs, feat = _unpack(inputs)
    n, m, p = len(cams), len(x), len(w)
    blocks = np.empty((p, 2, BLOCK))
    for start in range(0, p, _CHUNK):
        s = slice(start, min(p, start + _CHUNK))
        blocks[s] = _blocks(cams[obs[s, 0]], x[obs[s, 1]], w[s], feat[s])
    vals = np.concatenate([blocks.ravel(), -2.0 * w])

    i = np.arange(p, dtype=np.int64)
    block_cols = np.concatenate(
        [
            CAMERA_PARAMS * obs[:, 0:1] + np.arange(CAMERA_PARAMS),
            CAMERA_PARAMS * n + 3 * obs[:, 1:2] + np.arange(3),
            (CAMERA_PARAMS * n + 3 * m + i)[:, None],
        ],
        axis=1,
    )  # (p, 15), the same for both rows of an observation
    cols = np.concatenate(
        [np.repeat(block_cols[:, None, :], 2, axis=1).ravel(), CAMERA_PARAMS * n + 3 * m + i]
    )
    rows = np.concatenate([BLOCK * np.arange(2 * p + 1), 2 * p * BLOCK + 1 + np.arange(p)])
    return [rows.astype(np.int32), cols.astype(np.int32), vals]


def dense_jacobian(inputs) -> np.ndarray:
    """The CSR Jacobian as a dense (3p) x (11n + 3m + p) matrix."""
    cams, x, w, _, _ = _unpack(inputs)
    rows, cols, vals = jacobian(inputs)
    dense = np.zeros((len(rows) - 1, cams.size + x.size + w.size))
    for r in range(len(rows) - 1):
        dense[r, cols[rows[r] : rows[r + 1]]] = vals[rows[r] : rows[r + 1]]
    return dense


def generate(rng, n: int, m: int, p: int) -> str:
    """A synthetic BA file: one camera, point, weight and feature (the file format
    replicates them). The camera: rotation ~ N(0, 0.3²) per component, centre ~ N(0, 1),
    focal length ~ U(100, 500), principal point ~ N(0, 1), distortion ~ N(0, 0.01²);
    the point is placed in front of the camera (depth ~ U(2, 5)); weight ~ U(0.1, 1);
    feature ~ N(0, 100²)."""
    r = rng.normal(0.0, 0.3, 3)
    centre = rng.standard_normal(3)
    cam = np.concatenate(
        [r, centre, [rng.uniform(100.0, 500.0)], rng.standard_normal(2), rng.normal(0.0, 0.01, 2)]
    )
    in_camera = np.array([rng.standard_normal(), rng.standard_normal(), rng.uniform(2.0, 5.0)])
    # The inverse rotation (by −r) takes camera coordinates back to world coordinates.
    point = centre + _rotate(-r[None, :], in_camera[None, :])[0]
    weight = rng.uniform(0.1, 1.0)
    feature = rng.normal(0.0, 100.0, 2)
    return (
        f"{n} {m} {p}\n"
        + format_rows([cam], "%.17g")
        + format_rows([point], "%.17g")
        + format_rows([[weight]], "%.17g")
        + format_rows([feature], "%.17g")
    )
