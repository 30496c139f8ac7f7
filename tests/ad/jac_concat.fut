-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of `concat`
-- (`++`) at the top level and inside a map (each row built by `++`, then
-- flattened), with the input used on both sides.
--   y = (x ++ map (* x[0]) x) ++ flatten (map2 (\a b -> [a] ++ [a * b, b]) x (reverse x))
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0] }
-- output { [[1.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0],
--           [0.0, 0.0, 1.0],
--           [1.0, 0.0, 0.0],
--           [-1.5, 0.5, 0.0],
--           [2.0, 0.0, 0.5],
--           [1.0, 0.0, 0.0],
--           [2.0, 0.0, 0.5],
--           [0.0, 0.0, 1.0],
--           [0.0, 1.0, 0.0],
--           [0.0, -3.0, 0.0],
--           [0.0, 1.0, 0.0],
--           [0.0, 0.0, 1.0],
--           [2.0, 0.0, 0.5],
--           [1.0, 0.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0] } output { true }
-- input { [0.5, 2.0] } output { true }
-- input { [3.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [5 * n]f64 =
  let a = x ++ map (* x[0]) x
  let rows = map2 (\p q -> [p] ++ [p * q, q]) x (reverse x)
  in (a ++ flatten rows) :> [5 * n]f64

entry jac [n] (x: [n]f64) : [5 * n][n]f64 = jacobian (5 * n) f x
entry agrees [n] (x: [n]f64) : bool = agree (5 * n) f x
