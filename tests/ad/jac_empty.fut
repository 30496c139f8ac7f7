-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) at the edges
-- of sizes: an empty input (the Jacobian has no columns; every SOAC runs
-- over nothing and loops run zero times) and a one-element input.  The
-- function sums, multiplies, takes the max of, scans and histograms its
-- input, with a loop over its elements:
--   y = [sum x, prod x, max x (or 0 when empty), loop p = 1 for v in x do p * v + v,
--        hist (+) into bin 0 of x * x] ++ scan (+) x
-- For [3]: rows [1], [1], [1], [p + 1 = 2], [6], [1].
-- The empty case of `agrees` needs the row count of
-- `transpose (map (\j -> jvp f x ...) (iota 0))` in jac_jvp to be 5 + n
-- with no iteration to compute it: internalisation takes it from `f`'s
-- declared result size `[5 + n]f64`, computed once before the map (it
-- was 0 on the IR pipeline, which took the row size from the first row).
-- ==
-- entry: jac
-- input { empty([0]f64) } output { empty([5][0]f64) }
-- input { [3.0] } output { [[1.0], [1.0], [1.0], [2.0], [6.0], [1.0]] }

-- ==
-- entry: agrees
-- input { empty([0]f64) } output { true }
-- input { [3.0] } output { true }
-- input { [-0.5, 2.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [5 + n]f64 =
  let mx = if n == 0 then 0 else reduce f64.max (-f64.inf) x
  let p = loop p = 1 for v in x do p * v + v
  let h = hist (+) 0 1 (replicate n 0) (map (\v -> v * v) x)
  in ([f64.sum x, f64.product x, mx, p, h[0]] ++ scan (+) 0 x) :> [5 + n]f64

entry jac [n] (x: [n]f64) : [5 + n][n]f64 = jacobian (5 + n) f x
entry agrees [n] (x: [n]f64) : bool = agree (5 + n) f x
