-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of `replicate`:
-- a scalar replicated (its adjoint is the sum of the copies' adjoints), a
-- row replicated into a matrix that a map then combines with the input,
-- and a replicated array updated in place.
--   y = map2 (*) (replicate n (x[0] * x[1])) x
--       ++ map (\r -> sum (map2 (*) r x)) (replicate 2 x)
--       ++ (replicate n x[1] with [0] = x[2])
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0] }
-- output { [[-1.5, 0.25, 0.0],
--           [2.25, -1.5, 0.0],
--           [-3.0, 1.0, -0.75],
--           [1.0, -3.0, 4.0],
--           [1.0, -3.0, 4.0],
--           [0.0, 0.0, 1.0],
--           [0.0, 1.0, 0.0],
--           [0.0, 1.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0] } output { true }
-- input { [0.5, 2.0, 1.0, -3.0] } output { true }
-- input { [1.0, 2.0, 3.0, -1.0, 0.25] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [2 * n + 2]f64 =
  let s = x[0] * x[1]
  let a = map2 (*) (replicate n s) x
  let b = map (\r -> f64.sum (map2 (*) r x)) (replicate 2 x)
  let c = replicate n x[1]
  let c[0] = x[2]
  in (a ++ b ++ c) :> [2 * n + 2]f64

entry jac [n] (x: [n]f64) : [2 * n + 2][n]f64 = jacobian (2 * n + 2) f x
entry agrees [n] (x: [n]f64) : bool = agree (2 * n + 2) f x
