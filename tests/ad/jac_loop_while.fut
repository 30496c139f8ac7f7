-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) through a
-- `while` loop whose trip count depends on the input: x is scaled by
-- c = 1 + x[0]^2 / 10 until its sum of squares passes 10, and the loop
-- counts its iterations.  The count is piecewise constant, so the Jacobian
-- is that of k scalings: y = c^k x, y[i] = c^k x[i].  The inputs keep away
-- from the points where k jumps.
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [1.0, 0.5, -0.75] }
-- output { [[6.216407549000005, 0.0, 0.0],
--           [1.9292299290000015, 2.357947691000002, 0.0],
--           [-2.8938448935000025, 0.0, 2.357947691000002]] }

-- ==
-- entry: agrees
-- input { [1.0, 0.5, -0.75] } output { true }
-- input { [2.0, 1.5] } output { true }
-- input { [-0.3, 0.2, 0.9, 1.1] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [n]f64 =
  let c = 1 + x[0] * x[0] / 10
  let (y, _) =
    loop (y, k) = (copy x, 0i64) while f64.sum (map (\v -> v * v) y) < 10 && k < 100 do
      (map (* c) y, k + 1)
  in y

entry jac [n] (x: [n]f64) : [n][n]f64 = jacobian n f x
entry agrees [n] (x: [n]f64) : bool = agree n f x
