"""ADBench's hand tracking: parsing, generation and a NumPy reference.

The inputs of `bench-suite/adbench/hand.fut`, in entry order, are
`parents [b] (i32), base_relatives [b][4][4], inverse_base_absolutes [b][4][4],
weights [b][M], base_positions [4][M], triangles [T][3] (i32), is_mirrored (bool),
correspondences [N] (i32), points [3][N], theta [26], us [2N or 0]`. The model (the
first six values) comes from the model folder next to the instance file: `model/` in
the instance's folder for `hand/test.txt` and `hand/hand_complicated.txt`, else
`../model` (`../model_big` for a `*_big` folder). An instance with barycentric
coordinates is a complicated one; `us` holds them point by point (u1, u2, u1, ...).

The objective is the residuals `[N][3]`; the Jacobian is `[cols][3N]`, one row per
column of ADBench's 3N-row Jacobian: in the complicated variant ∂/∂u1 and ∂/∂u2 of
each point's residual first, then the 26 θ columns. It is computed with
forward-mode dual numbers (`forward.py`). Only the vertices the residuals read are
posed.
"""

from pathlib import Path

import numpy as np

from forward import Dual, cos, sin, sqrt, stack, value
from textfile import Tokens, format_rows

TEST_FILES = [
    ("hand_test", "hand/test.txt", {"n": 2, "complicated": 0}),
    ("hand_complicated", "hand/hand_complicated.txt", {"n": 2, "complicated": 1}),
    ("hand1_simple_small", "hand/simple_small/hand1_t26_c100.txt", {"n": 100, "complicated": 0}),
    (
        "hand1_complicated_small",
        "hand/complicated_small/hand1_t26_c100.txt",
        {"n": 100, "complicated": 1},
    ),
]

SELFCHECK_SIZES = {"n": 3, "complicated": 1}

PARAMS = [9, 10]

THETA = 26
BONES = 22
POSE_COLUMNS = 3 + BONES

# The skeleton of ADBench's hand model: each bone's name and parent.
SKELETON = [("wrist", -1)] + [
    (f"{finger}{k}", 0 if k == 1 else 4 * f + k - 1)
    for f, finger in enumerate(["thumb", "index", "middle", "ring", "pinky"])
    for k in range(1, 5)
] + [("forearm", 0)]

# The sizes of the small model (`hand/model/`), which generated inputs index.
MODEL_VERTICES = 544
MODEL_TRIANGLES = 1084


def _model_folder(path: Path) -> Path:
    folder = path.parent
    if folder.name == "hand":
        return folder / "model"
    return folder.parent / ("model_big" if folder.name.endswith("_big") else "model")


def _fields(path: Path, number: int, what: str):
    """An error maker and a number reader for line `number` of `path`."""
    def error(message):
        return ValueError(f"{path}:{number}: {message}")

    def num(text, kind=float):
        try:
            return kind(text)
        except ValueError:
            raise error(f"expected {what}, found {text!r}") from None

    return error, num


def _read_lines(path: Path):
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return [(i, line.strip()) for i, line in enumerate(f, start=1) if line.strip()]
    except OSError as e:
        raise ValueError(f"{path}: cannot read the hand model file ({e.strerror})") from None


def _parse_bones(path: Path):
    parents, relatives, inverses = [], [], []
    for number, line in _read_lines(path):
        error, num = _fields(path, number, "a bone field")
        parts = line.split(":")
        if len(parts) != 34:
            raise error(f"expected name:parent:16 values:16 values, found {len(parts)} fields")
        parent = num(parts[1], int)
        if not -1 <= parent < len(parents):
            raise error(f"the parent {parent} is not an earlier bone")
        parents.append(parent)
        relatives.append([num(v) for v in parts[2:18]])
        inverses.append([num(v) for v in parts[18:34]])
    if len(parents) != BONES:
        raise ValueError(f"{path}: expected {BONES} bones, found {len(parents)}")
    return (
        np.array(parents, dtype=np.int32),
        np.array(relatives).reshape(BONES, 4, 4),
        np.array(inverses).reshape(BONES, 4, 4),
    )


def _parse_vertices(path: Path):
    positions, weights = [], []
    for number, line in _read_lines(path):
        error, num = _fields(path, number, "a vertex field")
        parts = line.split(":")
        if len(parts) < 9:
            raise error("expected x:y:z, five further fields and a bone count")
        count = num(parts[8], int)
        if len(parts) < 9 + 2 * count:
            raise error(f"expected {count} bone:weight pairs")
        row = np.zeros(BONES)
        for k in range(count):
            bone = num(parts[9 + 2 * k], int)
            if not 0 <= bone < BONES:
                raise error(f"bone {bone} does not exist")
            row[bone] += num(parts[10 + 2 * k])
        positions.append([num(parts[0]), num(parts[1]), num(parts[2]), 1.0])
        weights.append(row)
    if not positions:
        raise ValueError(f"{path}: no vertices")
    return np.array(weights).T.copy(), np.array(positions).T.copy()


def _parse_triangles(path: Path, vertices: int):
    rows = []
    for number, line in _read_lines(path):
        error, num = _fields(path, number, "a vertex index")
        parts = line.split(":")
        if len(parts) != 3:
            raise error("expected a:b:c")
        tri = [num(p, int) for p in parts]
        if min(tri) < 0 or max(tri) >= vertices:
            raise error(f"a vertex index is outside 0..{vertices - 1}")
        rows.append(tri)
    return np.array(rows, dtype=np.int32).reshape(-1, 3)


def parse(path) -> list:
    """The entry's inputs from an ADBench hand instance file and its model folder."""
    path = Path(path)
    text = path.read_text(encoding="ascii", errors="replace")
    t = Tokens(path, text)
    n = t.positive("the number of points N")
    if t.int("the number of parameters (26)") != THETA:
        raise t.error(f"the hand model has {THETA} parameters")
    complicated = len(text.split()) == 2 + 6 * n + THETA
    model = _model_folder(path)
    parents, relatives, inverses = _parse_bones(model / "bones.txt")
    weights, base_positions = _parse_vertices(model / "vertices.txt")
    triangles = _parse_triangles(model / "triangles.txt", base_positions.shape[1])
    limit = len(triangles) if complicated else base_positions.shape[1]
    correspondences = np.empty(n, dtype=np.int32)
    points = np.empty((n, 3))
    for i in range(n):
        c = t.int("a correspondence index")
        if not 0 <= c < limit:
            kind = "triangle" if complicated else "vertex"
            raise ValueError(f"{path}:{i + 2}: {kind} {c} does not exist (the model has {limit})")
        correspondences[i] = c
        points[i] = t.floats((3,), "a point coordinate")
    us = t.floats((2 * n,), "a barycentric coordinate") if complicated else np.zeros(0)
    theta = t.floats((THETA,), "a pose parameter")
    t.end()
    return [
        parents,
        relatives,
        inverses,
        weights,
        base_positions,
        triangles,
        np.bool_(False),
        correspondences,
        points.T.copy(),
        theta,
        us,
    ]


def _pose_map():
    """The linear map from θ to the pose (25 columns of 3), as a matrix and offset."""
    a = np.zeros((POSE_COLUMNS, 3, THETA))
    offset = np.zeros((POSE_COLUMNS, 3))
    for r in range(3):
        a[0, r, r] = 1.0
        a[2, r, 3 + r] = 1.0
    offset[1] = 1.0
    for f in range(5):
        i = 6 + 4 * f
        a[5 + 4 * f, 0, i] = 1.0
        a[5 + 4 * f, 1, i + 1] = 1.0
        a[6 + 4 * f, 0, i + 2] = 1.0
        a[7 + 4 * f, 0, i + 3] = 1.0
    return a.reshape(3 * POSE_COLUMNS, THETA), offset


_POSE_MATRIX, _POSE_OFFSET = _pose_map()


def _euler(angles):
    """Rz(tz)·Ry(ty)·Rx(tx) for rows (tx, tz, ty), multiplied out; shape (b, 3, 3)."""
    cx, sx = cos(angles[:, 0]), sin(angles[:, 0])
    cz, sz = cos(angles[:, 1]), sin(angles[:, 1])
    cy, sy = cos(angles[:, 2]), sin(angles[:, 2])
    zero = np.zeros(value(cx).shape)
    rows = [
        [cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
        [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
        [zero - sy, cy * sx, cy * cx],
    ]
    return stack([stack(row, axis=1) for row in rows], axis=1)


def _angle_axis(r):
    """The rotation matrix cos·I + sin·[k]× + (1 − cos)·k kᵀ of r = angle·k."""
    norm = sqrt((r * r).sum(0))
    if value(norm) < 1e-4:
        return np.eye(3)
    k = r / norm
    c, s = cos(norm), sin(norm)
    t = 1.0 - c
    return stack(
        [
            stack([c + t * k[0] * k[0], t * k[0] * k[1] - s * k[2], t * k[0] * k[2] + s * k[1]]),
            stack([t * k[1] * k[0] + s * k[2], c + t * k[1] * k[1], t * k[1] * k[2] - s * k[0]]),
            stack([t * k[2] * k[0] - s * k[1], t * k[2] * k[1] + s * k[0], c + t * k[2] * k[2]]),
        ]
    )


_EMBED = np.eye(3, 4)  # [I 0]: a 3x3 rotation into the top left of a 4x4 transform
_CORNER = np.diag([0.0, 0.0, 0.0, 1.0])


def _posed_vertices(model, theta, indices):
    """The posed positions (3, len(indices)) of the vertices `indices`."""
    parents, relatives, inverses, weights, base_positions, is_mirrored = model
    pose = (_POSE_MATRIX @ theta).reshape(POSE_COLUMNS, 3) + _POSE_OFFSET
    rotations = _euler(pose[3:])
    local = relatives @ (_EMBED.T @ rotations @ _EMBED + _CORNER)
    absolute = []
    for b in range(len(parents)):
        absolute.append(local[b] if parents[b] < 0 else absolute[parents[b]] @ local[b])
    transforms = stack(absolute) @ inverses
    skinned = (transforms[:, 0:3, :] @ base_positions[:, indices]) * weights[:, None, indices]
    v = skinned.sum(0)
    if is_mirrored:
        v = v * np.array([-1.0, 1.0, 1.0])[:, None]
    rotation = _angle_axis(pose[0]) * pose[1][None, :]
    return rotation @ v + pose[2][:, None]


def _unpack(inputs):
    (parents, relatives, inverses, weights, base_positions, triangles, is_mirrored,
     correspondences, points, theta, us) = inputs
    model = (
        np.asarray(parents, dtype=np.int64),
        np.asarray(relatives, dtype=np.float64),
        np.asarray(inverses, dtype=np.float64),
        np.asarray(weights, dtype=np.float64),
        np.asarray(base_positions, dtype=np.float64),
        bool(is_mirrored),
    )
    triangles = np.asarray(triangles, dtype=np.int64).reshape(-1, 3)
    correspondences = np.asarray(correspondences, dtype=np.int64)
    points = np.asarray(points, dtype=np.float64)
    theta = np.asarray(theta, dtype=np.float64)
    us = np.asarray(us, dtype=np.float64)
    n = len(correspondences)
    if model[0].shape != (BONES,) or theta.shape != (THETA,) or points.shape != (3, n):
        raise ValueError("hand: expected 22 bones, 26 parameters and points [3][N]")
    if us.size not in (0, 2 * n):
        raise ValueError("hand: us must be empty or hold 2N values")
    return model, triangles, correspondences, points, theta, us


def _residuals(model, triangles, correspondences, points, theta, us):
    """The residuals (N, 3) for θ and `us` (arrays or duals)."""
    n = len(correspondences)
    if value(us).size == 0:
        return (points - _posed_vertices(model, theta, correspondences)).swapaxes(0, 1)
    corners = triangles[correspondences]  # (N, 3)
    v = _posed_vertices(model, theta, corners.ravel()).reshape(3, n, 3)
    u = us.reshape(n, 2)
    u1, u2 = u[:, 0], u[:, 1]
    u3 = 1.0 - u1 - u2
    surface = v[:, :, 0] * u1 + v[:, :, 1] * u2 + v[:, :, 2] * u3  # (3, N)
    return (points - surface).swapaxes(0, 1)


def objective(inputs) -> list:
    """The residuals `[N][3]`."""
    return [np.asarray(value(_residuals(*_unpack(inputs))))]


def _columns(inputs):
    """The θ columns (26, 3N) and the u columns (2, 3N, or 0 rows)."""
    model, triangles, correspondences, points, theta, us = _unpack(inputs)
    n = len(correspondences)
    theta_d = Dual(theta, np.eye(THETA))
    d_theta = _residuals(model, triangles, correspondences, points, theta_d, us).tan
    if us.size == 0:
        return d_theta.reshape(THETA, 3 * n), np.zeros((0, 3 * n))
    seeds = np.zeros((2, 2 * n))
    seeds[0, 0::2] = 1.0
    seeds[1, 1::2] = 1.0
    d_us = _residuals(model, triangles, correspondences, points, theta, Dual(us, seeds)).tan
    return d_theta.reshape(THETA, 3 * n), d_us.reshape(2, 3 * n)


def jacobian(inputs) -> list:
    """The Jacobian `[cols][3N]`: the u columns (complicated variant), then θ's."""
    d_theta, d_us = _columns(inputs)
    return [np.concatenate([d_us, d_theta], axis=0)]


def dense_jacobian(inputs) -> np.ndarray:
    """The Jacobian as a 3N x (26 + 2N) matrix: columns θ, then every u value."""
    d_theta, d_us = _columns(inputs)
    rows = d_theta.shape[1]
    dense = np.zeros((rows, THETA + (2 * (rows // 3) if len(d_us) else 0)))
    dense[:, :THETA] = d_theta.T
    for i in range(rows // 3 if len(d_us) else 0):
        for k in range(2):
            dense[3 * i : 3 * i + 3, THETA + 2 * i + k] = d_us[k, 3 * i : 3 * i + 3]
    return dense


def generate(rng, n: int, complicated: int = 0) -> str:
    """A synthetic instance for the small model (544 vertices, 1084 triangles):
    correspondences uniform, points ~ N(0, 1), θ ~ N(0, 0.5²), barycentric
    coordinates uniform over the triangle."""
    lines = [f"{n} {THETA}\n"]
    limit = MODEL_TRIANGLES if complicated else MODEL_VERTICES
    corr = rng.integers(0, limit, n)
    points = rng.standard_normal((n, 3))
    lines += [f"{c} " + format_rows([p], "%.17g") for c, p in zip(corr, points)]
    if complicated:
        u = rng.uniform(0.0, 1.0, (n, 2))
        outside = u.sum(axis=1) > 1.0
        u[outside] = 1.0 - u[outside]
        lines.append(format_rows(u, "%.17g"))
    lines.append(format_rows(rng.normal(0.0, 0.5, (THETA, 1)), "%.17g"))
    return "".join(lines)


def _random_rotation(rng, scale: float) -> np.ndarray:
    return np.asarray(_angle_axis(rng.normal(0.0, scale, 3)))


def generate_support(rng) -> dict:
    """A synthetic small model (`hand/model/`): the real skeleton with random bone
    transforms, 544 random vertices weighted to one to four bones, 1084 random
    triangles."""
    relatives = []
    absolutes = []
    bone_lines = []
    for name, parent in SKELETON:
        rel = np.eye(4)
        rel[:3, :3] = _random_rotation(rng, 0.3)
        rel[:3, 3] = rng.normal(0.0, 0.03, 3)
        absolute = rel if parent < 0 else absolutes[parent] @ rel
        relatives.append(rel)
        absolutes.append(absolute)
        values = np.concatenate([rel.ravel(), np.linalg.inv(absolute).ravel()])
        bone_lines.append(f"{name}:{parent}:" + ":".join("%.17g" % v for v in values) + "\n")
    vertex_lines = []
    for _ in range(MODEL_VERTICES):
        position = rng.normal(0.0, 0.05, 3)
        count = int(rng.integers(1, 5))
        bones = rng.choice(BONES, size=count, replace=False)
        weights = rng.dirichlet(np.ones(count))
        fields = ["%.17g" % v for v in position] + ["0"] * 5 + [str(count)]
        for b, w in zip(bones, weights):
            fields += [str(b), "%.17g" % w]
        vertex_lines.append(":".join(fields) + "\n")
    triangle_lines = [
        ":".join(str(v) for v in rng.choice(MODEL_VERTICES, size=3, replace=False)) + "\n"
        for _ in range(MODEL_TRIANGLES)
    ]
    return {
        "hand/model/bones.txt": "".join(bone_lines),
        "hand/model/vertices.txt": "".join(vertex_lines),
        "hand/model/triangles.txt": "".join(triangle_lines),
    }
