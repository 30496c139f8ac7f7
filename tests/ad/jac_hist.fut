-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of
-- `reduce_by_index` (`hist`) with +, *, min and max into 3 bins, the bins
-- chosen by i % 3 and one index out of bounds (ignored), the destination
-- itself depending on the input (dest[b] = x[0] * b).
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75, -0.25] }
-- output { [[2.0, 0.0, 0.0, 2.5, 0.0],
--           [1.0, 0.0, 0.0, 0.0, 0.5],
--           [2.0, 0.0, 5.0, 0.0, 0.0],
--           [0.75, 0.0, 0.0, 0.5, 0.0],
--           [-0.25, 0.0, 0.0, 0.0, 1.5],
--           [4.0, 0.0, 2.0, 0.0, 0.0],
--           [2.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 0.5],
--           [0.0, 0.0, 5.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 1.0, 0.0],
--           [1.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 1.0, 0.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75, -0.25] } output { true }
-- input { [0.5, 0.0, 2.0, 3.0, -1.0, 1.25, 0.3] } output { true }
-- input { [3.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [12]f64 =
  let is = map (\i -> if i == 1 then 7 else i % 3) (iota n)
  let dest = map (\b -> x[0] * f64.i64 b) (iota 3)
  let vs = map (\v -> v * v + v) x
  in reduce_by_index (copy dest) (+) 0 is vs
     ++ reduce_by_index (map (+ 1) dest) (*) 1 is x
     ++ hist f64.min f64.inf 3 is vs
     ++ reduce_by_index (copy dest) f64.max (-f64.inf) is x

entry jac [n] (x: [n]f64) : [12][n]f64 = jacobian 12 f x
entry agrees [n] (x: [n]f64) : bool = agree 12 f x
