-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of `scan`:
-- a prefix sum (lower-triangular ones), a prefix product (including a
-- zero), and a general operator, the composition of affine maps
-- (a, b) . (c, d) = (a c, b c + d), scanned over (x[i], 1 - x[i]).
--   y = scan (+) x ++ scan (*) x ++ (scan compose x).1
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0] }
-- output { [[1.0, 0.0, 0.0],
--           [1.0, 1.0, 0.0],
--           [1.0, 1.0, 1.0],
--           [1.0, 0.0, 0.0],
--           [-1.5, 0.5, 0.0],
--           [-3.0, 1.0, -0.75],
--           [-1.0, 0.0, 0.0],
--           [1.5, -0.5, 0.0],
--           [3.0, -1.0, 0.75]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0] } output { true }
-- input { [0.5, 0.0, 2.0, -1.0] } output { true }
-- input { [3.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [3 * n]f64 =
  let compose (a, b) (c, d) = (a * c, b * c + d)
  let (_, bs) = unzip (scan compose (1, 0) (map (\v -> (v, 1 - v)) x))
  in (scan (+) 0 x ++ scan (*) 1 x ++ bs) :> [3 * n]f64

entry jac [n] (x: [n]f64) : [3 * n][n]f64 = jacobian (3 * n) f x
entry agrees [n] (x: [n]f64) : bool = agree (3 * n) f x
