-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of maps with
-- free variables: a scalar (s = x[0] * x[1]) and a whole array (x itself,
-- indexed inside the lambda) are used by the lambda without being mapped
-- over, so their derivatives sum over every element of the map.
--   y[i] = s * x[i] + x[(i + 1) % n] * x[i] + f64.sum (map (* s) x) / n
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.0, 2.0] }
-- output { [[-2.666666666666667, 0.8333333333333334, -0.16666666666666666],
--           [0.33333333333333337, 1.0833333333333333, -1.1666666666666667],
--           [-0.6666666666666667, 1.0833333333333333, -0.16666666666666663]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.0, 2.0] } output { true }
-- input { [0.25, 3.0] } output { true }
-- input { [1.0, 2.0, 3.0, -4.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [n]f64 =
  let s = x[0] * x[1]
  in map (\i -> s * x[i] + x[(i + 1) % n] * x[i] + f64.sum (map (* s) x) / f64.i64 n) (iota n)

entry jac [n] (x: [n]f64) : [n][n]f64 = jacobian n f x
entry agrees [n] (x: [n]f64) : bool = agree n f x
