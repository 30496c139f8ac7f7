-- Newton's method for a 2-by-2 nonlinear system (circle meets exponential) with
-- the Jacobian assembled from `jvp` over tuples, and a scalar Newton solver for
-- Kepler's equation using `jvp2`.
-- ==
-- entry: solve2
-- input { 1.0 -1.0 8 }
-- output { 1.0041687384746592 -1.72963728702587 }
-- input { -1.0 1.0 8 }
-- output { -1.8162640688251506 0.8373677998912478 }
-- input { 2.0 0.0 1 }
-- output { 2.0 -6.38905609893065 }
-- input { 0.5 -2.0 12 }
-- output { 1.0041687384746592 -1.72963728702587 }

-- ==
-- entry: jacobian_at
-- input { 1.0 -1.0 }
-- output { [[2.0, -2.0], [2.718281828459045, 1.0]] }
-- input { -1.0 1.0 }
-- output { [[-2.0, 2.0], [0.36787944117144233, 1.0]] }
-- input { 2.0 0.0 }
-- output { [[4.0, 0.0], [7.38905609893065, 1.0]] }
-- input { 0.5 -2.0 }
-- output { [[1.0, -4.0], [1.6487212707001282, 1.0]] }

-- ==
-- entry: kepler
-- input { 0.1 1.0 }
-- output { 1.0885977523978936 }
-- input { 0.5 2.0 }
-- output { 2.3542427582227807 }
-- input { 0.9 0.3 }
-- output { 1.103517720303087 }
-- input { 0.0 1.25 }
-- output { 1.25 }

-- Newton's method where every derivative comes from forward-mode AD.

def system ((x, y): (f64, f64)) : (f64, f64) =
  (x * x + y * y - 4, f64.exp x + y - 1)

-- Columns of the Jacobian, one `jvp` per input direction.
def jacobian (f: (f64, f64) -> (f64, f64)) (p: (f64, f64)) : [2][2]f64 =
  let (a, c) = jvp f p (1, 0)
  let (b, d) = jvp f p (0, 1)
  in [[a, b], [c, d]]

def newton_step (f: (f64, f64) -> (f64, f64)) (p: (f64, f64)) : (f64, f64) =
  let j = jacobian f p
  let (f0, f1) = f p
  let det = j[0, 0] * j[1, 1] - j[0, 1] * j[1, 0]
  let dx = (j[1, 1] * f0 - j[0, 1] * f1) / det
  let dy = (j[0, 0] * f1 - j[1, 0] * f0) / det
  in (p.0 - dx, p.1 - dy)

-- Scalar Newton iteration with a fixed number of steps.
def newton1d (f: f64 -> f64) (x0: f64) (iters: i32) : f64 =
  loop x = x0 for _i < iters do
    let (fx, dfx) = jvp2 f x 1
    in x - fx / dfx

entry solve2 (x: f64) (y: f64) (iters: i32) : (f64, f64) =
  loop p = (x, y) for _i < iters do newton_step system p

entry jacobian_at (x: f64) (y: f64) : [2][2]f64 = jacobian system (x, y)

-- Eccentric anomaly from mean anomaly: E - e sin E = M.
entry kepler (e: f64) (m: f64) : f64 =
  newton1d (\ea -> ea - e * f64.sin ea - m) m 30
