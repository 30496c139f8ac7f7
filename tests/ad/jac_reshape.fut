-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of reshapes:
-- `unflatten` of the input into 2 x k rows, a map over the rows (row sums
-- scale each row), `flatten` back, and `unflatten_3d`/`flatten_3d` of a
-- 2 x 1 x k array.  For x of length 2k:
--   y = flatten (map (\r -> map (* sum r) r) (unflatten x)) ++ flatten_3d (unflatten_3d (x * x))
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75] }
-- output { [[-0.5, 0.5, 0.0, 0.0],
--           [-1.5, -2.5, 0.0, 0.0],
--           [0.0, 0.0, 4.75, 2.0],
--           [0.0, 0.0, 0.75, 3.5],
--           [1.0, 0.0, 0.0, 0.0],
--           [0.0, -3.0, 0.0, 0.0],
--           [0.0, 0.0, 4.0, 0.0],
--           [0.0, 0.0, 0.0, 1.5]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75] } output { true }
-- input { [0.5, 2.0] } output { true }
-- input { [1.0, 2.0, 3.0, -1.0, -2.0, 0.5] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [2 * n]f64 =
  let k = n / 2
  let rows : [2][k]f64 = unflatten (x :> [2 * k]f64)
  let scaled = flatten (map (\r -> map (* f64.sum r) r) rows)
  let cube : [2][1][k]f64 = unflatten_3d (map (\v -> v * v) x :> [2 * 1 * k]f64)
  in (scaled ++ flatten_3d cube) :> [2 * n]f64

entry jac [n] (x: [n]f64) : [2 * n][n]f64 = jacobian (2 * n) f x
entry agrees [n] (x: [n]f64) : bool = agree (2 * n) f x
