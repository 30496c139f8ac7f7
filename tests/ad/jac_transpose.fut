-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of
-- `transpose` and of rearranging a 3D array's dimensions (`map transpose`,
-- `transpose` of the outer two): the input as a 2 x k matrix a, then
--   y = flatten (transpose a) scaled by a[1, 0]
--       ++ flatten_3d (transpose (map transpose c)) where c[i, j, 0] = a[i, j]^2
-- so the output is x permuted, times x[k], followed by x^2 permuted.
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75, 3.0, -2.0] }
-- output { [[0.75, 0.0, 0.0, 0.5, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 1.5, 0.0, 0.0],
--           [0.0, 0.75, 0.0, -1.5, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 3.0, 0.75, 0.0],
--           [0.0, 0.0, 0.75, 2.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, -2.0, 0.0, 0.75],
--           [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, -3.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 4.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 1.5, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 6.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 0.0, -4.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75, 3.0, -2.0] } output { true }
-- input { [0.5, 2.0] } output { true }
-- input { [1.0, 2.0, 3.0, -1.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [2 * n]f64 =
  let k = n / 2
  let a : [2][k]f64 = unflatten (x :> [2 * k]f64)
  let t = map (map (* a[1, 0])) (transpose a)
  let c = map (map (\v -> [v * v])) a
  let r = transpose (map transpose c)
  in (flatten t ++ flatten_3d r) :> [2 * n]f64

entry jac [n] (x: [n]f64) : [2 * n][n]f64 = jacobian (2 * n) f x
entry agrees [n] (x: [n]f64) : bool = agree (2 * n) f x
