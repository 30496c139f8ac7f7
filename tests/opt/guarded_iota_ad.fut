-- Derivatives of reductions over a guarded `iota` (`if c < x then e else 0`,
-- and `c > x` in `grad_rest`),
-- which the optimiser runs over the admitted range only: the primal sums,
-- the adjoint maps of reverse mode (accumulator updates under the same
-- guard) and the tangent sums of forward mode, checked against the
-- interpreter's own AD. `triangle` is the shape of ADBench GMM's `q_times`:
-- for each row `r`, a sum over the columns `c < r`; its value is
-- sum_{c<r} v[c]*v[r] and its gradient at k the sum of v minus v[k].
-- ==
-- entry: grad
-- structure { If 0 }
-- input { [1.0, 2.0, 3.0, 4.0] -1i64 } output { [0.0, 0.0, 0.0, 0.0] }
-- input { [1.0, 2.0, 3.0, 4.0] 0i64 } output { [0.0, 0.0, 0.0, 0.0] }
-- input { [1.0, 2.0, 3.0, 4.0] 2i64 } output { [2.0, 4.0, 0.0, 0.0] }
-- input { [1.0, 2.0, 3.0, 4.0] 4i64 } output { [2.0, 4.0, 6.0, 8.0] }
-- input { [1.0, 2.0, 3.0, 4.0] 7i64 } output { [2.0, 4.0, 6.0, 8.0] }

def guarded_squares [n] (x: i64) (v: [n]f64) : f64 =
  f64.sum (map (\c -> if c < x then v[c] * v[c] else 0) (iota n))

entry grad [n] (xs: [n]f64) (x: i64) : [n]f64 =
  vjp (guarded_squares x) xs 1.0

-- ==
-- entry: grad_rest
-- input { [1.0, 2.0, 3.0, 4.0] -1i64 } output { [2.0, 4.0, 6.0, 8.0] }
-- input { [1.0, 2.0, 3.0, 4.0] 1i64 } output { [0.0, 0.0, 6.0, 8.0] }
-- input { [1.0, 2.0, 3.0, 4.0] 3i64 } output { [0.0, 0.0, 0.0, 0.0] }

entry grad_rest [n] (xs: [n]f64) (x: i64) : [n]f64 =
  vjp (\v -> f64.sum (map (\c -> if c > x then v[c] * v[c] else 0) (iota n))) xs 1.0

-- ==
-- entry: tangent
-- input { [1.0, 2.0, 3.0, 4.0] -3i64 } output { 0.0 }
-- input { [1.0, 2.0, 3.0, 4.0] 2i64 } output { 6.0 }
-- input { [1.0, 2.0, 3.0, 4.0] 4i64 } output { 20.0 }

entry tangent [n] (xs: [n]f64) (x: i64) : f64 =
  jvp (guarded_squares x) xs (replicate n 1.0)

-- ==
-- entry: triangle
-- input { [1.0, 2.0, 3.0, 4.0] } output { 35.0 [9.0, 8.0, 7.0, 6.0] }
-- input { [2.0, -1.0, 0.5] } output { -1.5 [-0.5, 2.5, 1.0] }
-- input { [3.0] } output { 0.0 [0.0] }
-- input { empty([0]f64) } output { 0.0 empty([0]f64) }

def pairs [n] (v: [n]f64) : f64 =
  f64.sum (tabulate n (\r -> f64.sum (map (\c -> if c < r then v[c] * v[r] else 0) (iota n))))

entry triangle [n] (v: [n]f64) : (f64, [n]f64) =
  vjp2 pairs v 1.0
