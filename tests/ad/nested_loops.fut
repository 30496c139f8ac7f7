-- Hessians through loops by the four nestings of jvp and vjp
-- (tests/ad/lib/hessian.fut), against hand-computed ones:
--   fu: a for loop of in-place updates y[i+1] <- y[i+1] * y[i], then sum y;
--       for n = 3, sum y = x0 + x0 x1 + x0 x1 x2, so
--       H01 = 1 + x2, H02 = x1, H12 = x0; at [1, 2, 3]: [[0,4,2],[4,0,1],[2,1,0]].
--   fm: a for loop whose body is a map (squaring twice), then sum: sum x^4,
--       H = diag (12 x^2); at [1, 2, 3]: diag [12, 48, 108].
--   fw: a while loop over an array (halving until the sum of squares is
--       below 1), then sum y^2; for [1, 2, 3] it halves twice, so
--       y = x / 4 and H = I / 8.
-- ==
-- entry: hess_update
-- input { [1.0, 2.0, 3.0] } output { [[0.0, 4.0, 2.0], [4.0, 0.0, 1.0], [2.0, 1.0, 0.0]] }

-- ==
-- entry: hess_map
-- input { [1.0, 2.0, 3.0] } output { [[12.0, 0.0, 0.0], [0.0, 48.0, 0.0], [0.0, 0.0, 108.0]] }

-- ==
-- entry: hess_while
-- input { [1.0, 2.0, 3.0] } output { [[0.125, 0.0, 0.0], [0.0, 0.125, 0.0], [0.0, 0.0, 0.125]] }

-- ==
-- entry: agree_update agree_map agree_while
-- input { [1.0, 2.0, 3.0] } output { true }
-- input { [0.5, -1.5, 2.0, 0.25] } output { true }

import "lib/hessian"

def fu [n] (x: [n]f64) : f64 =
  let y = loop y = copy x for i < n - 1 do
            let y[i + 1] = y[i + 1] * y[i] in y
  in f64.sum y

def fm [n] (x: [n]f64) : f64 =
  f64.sum (loop y = copy x for _k < 2 do map (\v -> v * v) y)

def fw [n] (x: [n]f64) : f64 =
  let y = loop y = copy x while f64.sum (map (\v -> v * v) y) >= 1 do map (/ 2) y
  in f64.sum (map (\v -> v * v) y)

entry hess_update [n] (x: [n]f64) : [n][n]f64 = hess_vjp_vjp fu x
entry hess_map [n] (x: [n]f64) : [n][n]f64 = hess_jvp_vjp fm x
entry hess_while [n] (x: [n]f64) : [n][n]f64 = hess_vjp_jvp fw x
entry agree_update [n] (x: [n]f64) : bool = hessians_agree fu x
entry agree_map [n] (x: [n]f64) : bool = hessians_agree fm x
entry agree_while [n] (x: [n]f64) : bool = hessians_agree fw x
