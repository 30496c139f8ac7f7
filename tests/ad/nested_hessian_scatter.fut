-- The Hessian of a function using scatter by vjp of vjp (reverse over
-- reverse), against the hand-computed one and the other three nestings
-- (tests/ad/lib/hessian.fut).  fc x = sum of squares of
-- (scatter (copy x) [0] [x1 x2]) = x1^2 x2^2 + x1^2 + x2^2, so
-- H11 = 2 x2^2 + 2, H22 = 2 x1^2 + 2, H12 = 4 x1 x2; at [5, 2, 3]:
-- [[0, 0, 0], [0, 20, 24], [0, 24, 10]].
-- Regression: reversing the inner vjp's return sweep once gave the
-- compiler an internal error, as the adjoint of the scatter's restored
-- destination (an accumulator inside a map) was moved to the destination
-- inside the map's lambda; the smallest program was
--   def f [n] (x: [n]f64) : f64 = (scatter (replicate n 0) [0] [x[1]])[0]
--   def main [n] (x: [n]f64) (v: [n]f64) = vjp (\y -> vjp f y 1) x v
-- ==
-- entry: hess
-- input { [5.0, 2.0, 3.0] } output { [[0.0, 0.0, 0.0], [0.0, 20.0, 24.0], [0.0, 24.0, 10.0]] }

-- ==
-- entry: agrees
-- input { [5.0, 2.0, 3.0] } output { true }
-- input { [0.5, -2.0, 0.0, 1.5, 3.0] } output { true }

import "lib/hessian"

def fc [n] (x: [n]f64) : f64 =
  let y = scatter (copy x) [0] [x[1] * x[2]]
  in f64.sum (map (\v -> v * v) y)

entry hess [n] (x: [n]f64) : [n][n]f64 = hess_vjp_vjp fc x
entry agrees [n] (x: [n]f64) : bool = hessians_agree fc x
