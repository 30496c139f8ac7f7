-- Bundle adjustment (ADBench "BA"): the weighted reprojection errors of observed
-- points seen by pinhole cameras with radial distortion, and their Jacobian in
-- compressed sparse row (CSR) form, with ADBench's row and column order.
--
-- Inputs: `cams` (n cameras of 11 parameters: angle-axis rotation, centre, focal
-- length, principal point, two distortion coefficients), `X` (m points), `w` (one
-- weight per observation), `obs` (camera and point index of each observation) and
-- `feat` (the observed 2D feature of each observation).
--
-- The `data/` files come from `python3 tools/adbench/adbench.py prepare`; the
-- reference results are computed by `tools/adbench/ba.py` with NumPy. The
-- Jacobian's real-size input (`ba1`) is a benchmark dataset, tagged `notest`;
-- `fut test` checks the small one and every objective.
-- ==
-- entry: calculate_objective
-- input @ data/ba_test.in output @ data/ba_test.objective.out
-- input @ data/ba1.in output @ data/ba1.objective.out

-- ==
-- entry: calculate_jacobian
-- input @ data/ba_test.in output @ data/ba_test.jacobian.out
-- notest input @ data/ba1.in output @ data/ba1.jacobian.out

def dot (a: [3]f64) (b: [3]f64) : f64 =
  a[0] * b[0] + a[1] * b[1] + a[2] * b[2]

def cross (a: [3]f64) (b: [3]f64) : [3]f64 =
  [ a[1] * b[2] - a[2] * b[1]
  , a[2] * b[0] - a[0] * b[2]
  , a[0] * b[1] - a[1] * b[0]
  ]

-- Rotates `x` by the angle-axis vector `r` (Rodrigues' formula); a zero rotation
-- uses the first-order form so that derivatives at zero are defined.
def rotate (r: [3]f64) (x: [3]f64) : [3]f64 =
  let sqtheta = dot r r
  in if sqtheta != 0
     then let theta = f64.sqrt sqtheta
          let c = f64.cos theta
          let s = f64.sin theta
          let axis = map (/ theta) r
          let axis_x = cross axis x
          let along = dot axis x * (1 - c)
          in map3 (\xi ai wi -> xi * c + ai * s + wi * along) x axis_x axis
     else map2 (+) x (cross r x)

-- The image coordinates of point `x` seen by camera `cam`.
def project (cam: [11]f64) (x: [3]f64) : [2]f64 =
  let r = [cam[0], cam[1], cam[2]]
  let centre = [cam[3], cam[4], cam[5]]
  let xcam = rotate r (map2 (-) x centre)
  let p0 = xcam[0] / xcam[2]
  let p1 = xcam[1] / xcam[2]
  let rsq = p0 * p0 + p1 * p1
  let distortion = 1 + cam[9] * rsq + cam[10] * rsq * rsq
  in [cam[6] * p0 * distortion + cam[7], cam[6] * p1 * distortion + cam[8]]

-- The weighted reprojection error of one observation.
def reprojection_error (cam: [11]f64) (x: [3]f64) (w: f64) (feat: [2]f64) : [2]f64 =
  map2 (\p q -> w * (p - q)) (project cam x) feat

-- The error of one weight.
def weight_error (w: f64) : f64 =
  1 - w * w

-- The 2x15 Jacobian block of one observation: columns are the 11 camera
-- parameters, the 3 point coordinates and the weight. One `vjp` per row.
def reprojection_block (cam: [11]f64) (x: [3]f64) (w: f64) (feat: [2]f64) : [2][15]f64 =
  let err (c, p, v) = reprojection_error c p v feat
  let row (i: i64) : [15]f64 =
    let (dcam, dx, dw) = vjp err (cam, x, w) (tabulate 2 (\k -> f64.bool (k == i)))
    in dcam ++ dx ++ [dw] :> [15]f64
  in tabulate 2 row

def camera_of [n] (cams: [n][11]f64) (o: [2]i32) : [11]f64 =
  cams[i64.i32 o[0]]

def point_of [m] (xs: [m][3]f64) (o: [2]i32) : [3]f64 =
  xs[i64.i32 o[1]]

entry calculate_objective [n] [m] [p]
                          (cams: [n][11]f64)
                          (X: [m][3]f64)
                          (w: [p]f64)
                          (obs: [p][2]i32)
                          (feat: [p][2]f64) : ([p][2]f64, [p]f64) =
  let reproj =
    map3 (\wi o fi -> reprojection_error (camera_of cams o) (point_of X o) wi fi)
         w
         obs
         feat
  in (reproj, map weight_error w)

-- The Jacobian of (reprojection errors, weight errors) as CSR arrays: row offsets
-- (3p+1), column indices and values. Rows 2i and 2i+1 hold observation i's block
-- (15 entries each); row 2p+i holds the derivative of weight error i.
entry calculate_jacobian [n] [m] [p]
                         (cams: [n][11]f64)
                         (X: [m][3]f64)
                         (w: [p]f64)
                         (obs: [p][2]i32)
                         (feat: [p][2]f64) : ([]i32, []i32, []f64) =
  let blocks =
    map3 (\wi o fi -> reprojection_block (camera_of cams o) (point_of X o) wi fi)
         w
         obs
         feat
  let weight_derivs = map (\wi -> jvp weight_error wi 1) w
  let vals = flatten (flatten blocks) ++ weight_derivs
  let point_base = 11 * n
  let weight_base = 11 * n + 3 * m
  let block_col (i: i64) (j: i64) : i64 =
    let o = obs[i]
    in if j < 11
       then 11 * i64.i32 o[0] + j
       else if j < 14
       then point_base + 3 * i64.i32 o[1] + (j - 11)
       else weight_base + i
  let cols =
    tabulate (31 * p) (\k -> if k < 30 * p
                             then block_col (k / 30) (k % 15)
                             else weight_base + (k - 30 * p))
  let rows =
    tabulate (3 * p + 1) (\r -> if r <= 2 * p then 15 * r else 30 * p + (r - 2 * p))
  in (map i32.i64 rows, map i32.i64 cols, vals)
