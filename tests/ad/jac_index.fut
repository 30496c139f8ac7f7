-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of indexing and
-- slicing: a constant index, an index computed from the input (piecewise
-- constant), a strided slice, a reversed slice and a 2D index.
--   y = [x[1] * x[n-1], x[j] with j = if x[0] > 0 then 2 else 0]
--       ++ x[0::2] ++ x[n-1:0:-1] ++ [m[1, 0]] with m = unflatten of x[0:4] times x[0]
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75, 3.0] }
-- output { [[0.0, 3.0, 0.0, 0.0, -1.5],
--           [0.0, 0.0, 1.0, 0.0, 0.0],
--           [1.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 1.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 1.0],
--           [0.0, 0.0, 0.0, 0.0, 1.0],
--           [0.0, 0.0, 0.0, 1.0, 0.0],
--           [0.0, 0.0, 1.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0, 0.0, 0.0],
--           [2.0, 0.0, 0.5, 0.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75, 3.0] } output { true }
-- input { [-0.5, 1.5, 2.0, 0.75] } output { true }
-- input { [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [3 + (n + 1) / 2 + (n - 1)]f64 =
  let j = if x[0] > 0 then 2 else 0
  let m : [2][2]f64 = unflatten (map (* x[0]) x[0:4] :> [2 * 2]f64)
  in ([x[1] * x[n - 1], x[j]] ++ x[0::2] ++ x[n - 1:0:-1] ++ [m[1, 0]])
     :> [3 + (n + 1) / 2 + (n - 1)]f64

entry jac [n] (x: [n]f64) : [3 + (n + 1) / 2 + (n - 1)][n]f64 = jacobian (3 + (n + 1) / 2 + (n - 1)) f x
entry agrees [n] (x: [n]f64) : bool = agree (3 + (n + 1) / 2 + (n - 1)) f x
