-- Hand tracking (ADBench "Hand"): a skinned hand model posed by 26 parameters θ,
-- and the residuals between observed 3D points and the model's surface, with their
-- dense Jacobian.
--
-- The model: a skeleton of b bones (parent index, base-relative and inverse
-- base-absolute 4x4 transforms), M vertices with homogeneous base positions and one
-- skinning weight per bone, and triangles over the vertices. The simple variant
-- (`us` empty) matches each point with a vertex; the complicated variant matches it
-- with a point of a triangle given by barycentric coordinates `us` (2N values: u1
-- and u2 of each point in turn), which are also differentiated. Only the vertices
-- the residuals read are posed (N, or 3N in the complicated variant), which gives
-- the residuals of posing the whole model at a cost that grows with N, not M.
--
-- The Jacobian's real-size inputs (`hand1_*`) are benchmark datasets, tagged
-- `notest`; `fut test` checks the small ones and every objective.
--
-- The `data/` files come from `python3 tools/adbench/adbench.py prepare`; the
-- reference results are computed by `tools/adbench/hand.py` with NumPy.
-- ==
-- entry: calculate_objective
-- input @ data/hand_test.in output @ data/hand_test.objective.out
-- input @ data/hand_complicated.in output @ data/hand_complicated.objective.out
-- input @ data/hand1_simple_small.in output @ data/hand1_simple_small.objective.out
-- input @ data/hand1_complicated_small.in output @ data/hand1_complicated_small.objective.out

-- ==
-- entry: calculate_jacobian
-- input @ data/hand_test.in output @ data/hand_test.jacobian.out
-- input @ data/hand_complicated.in output @ data/hand_complicated.jacobian.out
-- notest input @ data/hand1_simple_small.in output @ data/hand1_simple_small.jacobian.out
-- notest input @ data/hand1_complicated_small.in output @ data/hand1_complicated_small.jacobian.out

def matmul [n] [k] [m] (a: [n][k]f64) (b: [k][m]f64) : *[n][m]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

def matvec [n] [k] (a: [n][k]f64) (v: [k]f64) : [n]f64 =
  map (\row -> f64.sum (map2 (*) row v)) a

-- The pose as 25 columns of 3 values: global rotation, scale, global translation,
-- then one column per bone. Each finger's bones "2", "3" and "4" (columns 5+4f,
-- 6+4f, 7+4f) take four θ values: two for bone "2", one each for "3" and "4".
def pose_columns (theta: [26]f64) : [25][3]f64 =
  tabulate 25 (\c ->
    if c == 0 then [theta[0], theta[1], theta[2]]
    else if c == 1 then [1, 1, 1]
    else if c == 2 then [theta[3], theta[4], theta[5]]
    else if c < 5 then [0, 0, 0]
    else let i = 6 + 4 * ((c - 5) / 4)
         in match (c - 5) % 4
            case 0 -> [theta[i], theta[i + 1], 0]
            case 1 -> [theta[i + 2], 0, 0]
            case 2 -> [theta[i + 3], 0, 0]
            case _ -> [0, 0, 0])

-- The rotation of a bone from its pose column (x, z, y angles): Rz·Ry·Rx.
def euler_rotation (a: [3]f64) : [3][3]f64 =
  let (tx, tz, ty) = (a[0], a[1], a[2])
  let rx = [[1, 0, 0], [0, f64.cos tx, -f64.sin tx], [0, f64.sin tx, f64.cos tx]]
  let ry = [[f64.cos ty, 0, f64.sin ty], [0, 1, 0], [-f64.sin ty, 0, f64.cos ty]]
  let rz = [[f64.cos tz, -f64.sin tz, 0], [f64.sin tz, f64.cos tz, 0], [0, 0, 1]]
  in matmul rz (matmul ry rx)

-- The rotation matrix of an angle-axis vector; the identity for tiny angles.
def angle_axis_rotation (r: [3]f64) : [3][3]f64 =
  let n = f64.sqrt (r[0] * r[0] + r[1] * r[1] + r[2] * r[2])
  in if n < 0.0001
     then [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
     else let (x, y, z) = (r[0] / n, r[1] / n, r[2] / n)
          let s = f64.sin n
          let c = f64.cos n
          let t = 1 - c
          in [ [x * x * t + c, x * y * t - z * s, x * z * t + y * s]
             , [x * y * t + z * s, y * y * t + c, y * z * t - x * s]
             , [x * z * t - y * s, y * z * t + x * s, z * z * t + c]
             ]

-- A 3x3 rotation as a 4x4 homogeneous transform.
def homogeneous (r: [3][3]f64) : [4][4]f64 =
  [ [r[0, 0], r[0, 1], r[0, 2], 0]
  , [r[1, 0], r[1, 1], r[1, 2], 0]
  , [r[2, 0], r[2, 1], r[2, 2], 0]
  , [0, 0, 0, 1]
  ]

-- The model vertices the residuals read: the matched vertex of each point (simple
-- variant), or the three corners of its matched triangle (complicated variant).
def matched_vertices [T] [N]
                     (triangles: [T][3]i32)
                     (correspondences: [N]i32)
                     (complicated: bool) : []i64 =
  let per_point = if complicated then 3 else 1
  in tabulate (N * per_point) (\i ->
       if complicated
       then i64.i32 triangles[i64.i32 correspondences[i / 3], i % 3]
       else i64.i32 correspondences[i])

-- The positions under pose `theta` of Q vertices given by their skinning weights
-- (one per bone) and homogeneous base positions, as rows.
def vertex_positions [b] [Q]
                     (parents: [b]i32)
                     (base_relatives: [b][4][4]f64)
                     (inverse_base_absolutes: [b][4][4]f64)
                     (is_mirrored: bool)
                     (vertex_weights: [Q][b]f64)
                     (vertex_bases: [Q][4]f64)
                     (theta: [26]f64) : [Q][3]f64 =
  let pose = pose_columns theta
  let relatives =
    map2 (\br i -> matmul br (homogeneous (euler_rotation pose[3 + i])))
         base_relatives
         (iota b)
  let absolutes =
    loop absolutes = copy relatives for i < b do
      let parent = parents[i]
      in if parent < 0
         then absolutes
         else absolutes with [i] = matmul absolutes[i64.i32 parent] relatives[i]
  let transforms = map2 matmul absolutes inverse_base_absolutes
  -- Blend the bones' transforms per vertex (only the first three rows are needed),
  -- then apply the blend to the vertex's base position.
  let skinned =
    map2 (\ws pos ->
            let blend =
              tabulate_2d 3 4 (\r c -> f64.sum (map2 (\w t -> w * t[r, c]) ws transforms))
            in matvec blend pos)
         vertex_weights
         vertex_bases
  let mirrored =
    if is_mirrored then map (\v -> [-v[0], v[1], v[2]]) skinned else skinned
  let rotation = angle_axis_rotation pose[0]
  let scaled = map (\row -> map2 (*) row pose[1]) rotation
  in map (\v -> map2 (+) (matvec scaled v) pose[2]) mirrored

-- The residual of each point (rows) from the posed matched vertices (N of them, or
-- 3N: a triangle's corners) and the barycentric coordinates `us` (empty, or 2N).
def point_residuals [N] [Q] [U]
                    (points: [3][N]f64)
                    (vertices: [Q][3]f64)
                    (us: [U]f64) : [N][3]f64 =
  let observed = transpose points
  in if U == 0
     then map2 (\p v -> map2 (-) p v) observed (vertices :> [N][3]f64)
     else let corners = unflatten (vertices :> [N * 3][3]f64)
          let uv = unflatten (us :> [N * 2]f64)
          in map3 (\p vs u ->
                     let u3 = 1 - u[0] - u[1]
                     in map4 (\pk a bk ck -> pk - (u[0] * a + u[1] * bk + u3 * ck))
                             p vs[0] vs[1] vs[2])
                  observed
                  corners
                  uv

entry calculate_objective [b] [M] [T] [N] [U]
                          (parents: [b]i32)
                          (base_relatives: [b][4][4]f64)
                          (inverse_base_absolutes: [b][4][4]f64)
                          (weights: [b][M]f64)
                          (base_positions: [4][M]f64)
                          (triangles: [T][3]i32)
                          (is_mirrored: bool)
                          (correspondences: [N]i32)
                          (points: [3][N]f64)
                          (theta: [26]f64)
                          (us: [U]f64) : [N][3]f64 =
  let indices = matched_vertices triangles correspondences (U != 0)
  let vertices =
    vertex_positions parents base_relatives inverse_base_absolutes is_mirrored
                     (map (\j -> weights[:, j]) indices)
                     (map (\j -> base_positions[:, j]) indices)
                     theta
  in point_residuals points vertices us

-- The Jacobian, one row per column of ADBench's 3N-row Jacobian (residuals
-- flattened point by point): in the complicated variant first ∂/∂u1 and ∂/∂u2 of
-- every point's residual, then the 26 θ columns. One `jvp` per column; what does
-- not depend on θ or `us` (the matched vertices' weights and base positions, and
-- their posed positions for the `us` columns) is computed once, outside them.
entry calculate_jacobian [b] [M] [T] [N] [U]
                         (parents: [b]i32)
                         (base_relatives: [b][4][4]f64)
                         (inverse_base_absolutes: [b][4][4]f64)
                         (weights: [b][M]f64)
                         (base_positions: [4][M]f64)
                         (triangles: [T][3]i32)
                         (is_mirrored: bool)
                         (correspondences: [N]i32)
                         (points: [3][N]f64)
                         (theta: [26]f64)
                         (us: [U]f64) : [][N * 3]f64 =
  let indices = matched_vertices triangles correspondences (U != 0)
  let vertex_weights = map (\j -> weights[:, j]) indices
  let vertex_bases = map (\j -> base_positions[:, j]) indices
  let pose th =
    vertex_positions parents base_relatives inverse_base_absolutes is_mirrored
                     vertex_weights vertex_bases th
  let theta_columns =
    tabulate 26 (\j -> jvp (\th -> flatten (point_residuals points (pose th) us)) theta
                           (tabulate 26 (\k -> f64.bool (k == j))))
  in if U == 0
     then theta_columns
     else let vertices = pose theta
          let u_column (which: i64) =
            jvp (\u -> flatten (point_residuals points vertices u)) us
                (tabulate U (\k -> f64.bool (k % 2 == which)))
          in [u_column 0, u_column 1] ++ theta_columns
