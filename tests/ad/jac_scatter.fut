-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of `scatter`:
-- the destination is a function of the input (its overwritten elements get
-- no derivative), the values are x[i] * x[0], and the indices include an
-- out-of-bounds one (ignored).  y = scatter (map (* 2) x) is vs with
-- is = [n-1, -1, 0, ...] (the first min n 3 of them) and vs[i] = x[i] * x[0].
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75] }
-- output { [[2.0, 0.0, 0.5, 0.0],
--           [0.0, 2.0, 0.0, 0.0],
--           [0.0, 0.0, 2.0, 0.0],
--           [1.0, 0.0, 0.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75] } output { true }
-- input { [0.5, 2.0] } output { true }
-- input { [3.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [n]f64 =
  let k = i64.min n 3
  let is = take k [n - 1, -1, 0]
  let vs = map (\i -> x[i] * x[0]) (iota k)
  in scatter (map (* 2) x) is vs

entry jac [n] (x: [n]f64) : [n][n]f64 = jacobian n f x
entry agrees [n] (x: [n]f64) : bool = agree n f x
