-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) through `map`
-- and `map2`: element-wise nonlinear functions, a map over a zip of the
-- input with its reverse, and a map whose lambda returns a pair.
--   y[i] = sin(x[i]) * x[n-1-i] + (x[i] * x[i], exp(x[i])).0 + (..).1 / 2
-- Row i has sin' x[i] * x[n-1-i] + 2 x[i] + exp(x[i]) / 2 at column i and
-- sin(x[i]) at column n-1-i (their sum when i = n-1-i).
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.0, 2.0] }
-- output { [[3.5795257591308096, 0.0, 0.479425538604203],
--           [0.0, -3.197833570090315, 0.0],
--           [0.9092974268256817, 0.0, 7.486454631191754]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.0, 2.0] } output { true }
-- input { [0.25] } output { true }
-- input { [1.0, 2.0, 3.0, 4.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [n]f64 =
  let ps = map (\v -> (v * v, f64.exp v)) x
  in map3 (\v w (p, q) -> f64.sin v * w + p + q / 2) x (reverse x) ps

entry jac [n] (x: [n]f64) : [n][n]f64 = jacobian n f x
entry agrees [n] (x: [n]f64) : bool = agree n f x
