-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of programs
-- using `iota` as data: its values (converted to f64) multiply the input,
-- a polynomial is evaluated with the powers built by `map (x[0] **) iota`,
-- and `tabulate` builds a matrix-vector product with a constant matrix.
--   y[i] = x[i] * i + x[i] * x[0] ** i, then sum_i x[i] * x[0] ** i,
--   then z[i] = sum_j (i + j) x[j]
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0] }
-- output { [[1.0, 0.0, 0.0],
--           [-1.5, 1.5, 0.0],
--           [2.0, 0.0, 2.25],
--           [1.5, 0.5, 0.25],
--           [0.0, 1.0, 2.0],
--           [1.0, 2.0, 3.0],
--           [2.0, 3.0, 4.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0] } output { true }
-- input { [1.5, 2.0, 1.0, -3.0] } output { true }
-- input { [3.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [2 * n + 1]f64 =
  let is = map f64.i64 (iota n)
  let pows = map (x[0] **) is
  let y = map3 (\v i p -> v * i + v * p) x is pows
  let poly = f64.sum (map2 (*) x pows)
  let z = tabulate n (\i -> f64.sum (map2 (\j v -> f64.i64 (i + j) * v) (iota n) x))
  in (y ++ [poly] ++ z) :> [2 * n + 1]f64

entry jac [n] (x: [n]f64) : [2 * n + 1][n]f64 = jacobian (2 * n + 1) f x
entry agrees [n] (x: [n]f64) : bool = agree (2 * n + 1) f x
