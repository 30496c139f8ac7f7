-- Derivatives through a scatter of rows: `f` writes row `i` of `xss`, scaled
-- by `c`, to row `is[i]` of a copy of `d` (indices out of bounds ignored,
-- repeated ones with equal rows). The vjp scatters the adjoint's rows back
-- and the jvp scatters tangent rows, both in parallel.
-- ==
-- entry: grad
-- input { [2i64, -1i64, 0i64, 5i64] 3.0f64
--         [[1.0f64, 2.0f64], [3.0f64, 4.0f64], [5.0f64, 6.0f64], [7.0f64, 8.0f64]]
--         [[0.5f64, 0.5f64], [0.5f64, 0.5f64], [0.5f64, 0.5f64]] }
-- output { [[18.0f64, 36.0f64], [0.0f64, 0.0f64], [90.0f64, 108.0f64], [0.0f64, 0.0f64]] 396.0f64 }

def f [k][n][m] (is: [k]i64) (d: [n][m]f64) (c: f64) (xss: [k][m]f64) : [n][m]f64 =
  scatter (copy d) is (map (map (* c)) xss)

-- The gradient of the sum of squares of the result with respect to `xss` and `c`.
entry grad [k][n][m] (is: [k]i64) (c: f64) (xss: [k][m]f64) (d: [n][m]f64) : ([k][m]f64, f64) =
  let g (c, xss) = let r = f is d c xss in f64.sum (map (\row -> f64.sum (map (\x -> x * x) row)) r)
  in vjp g (c, xss) 1.0 |> \(dc, dxss) -> (dxss, dc)

-- ==
-- entry: tangent
-- input { [2i64, -1i64, 0i64, 5i64] 3.0f64
--         [[1.0f64, 2.0f64], [3.0f64, 4.0f64], [5.0f64, 6.0f64], [7.0f64, 8.0f64]]
--         [[0.5f64, 0.5f64], [0.5f64, 0.5f64], [0.5f64, 0.5f64]] }
-- output { [[5.5f64, 6.0f64], [0.0f64, 0.0f64], [3.5f64, 4.0f64]] }

-- The tangent of the result for a change of every element of `xss` by 1 and of `c` by 0.5.
entry tangent [k][n][m] (is: [k]i64) (c: f64) (xss: [k][m]f64) (d: [n][m]f64) : [n][m]f64 =
  jvp (\(c, xss) -> f is d c xss) (c, xss) (0.5, map (map (const 1)) xss)

-- The same on 100000 rows of 8 (several chunks): row `i` goes to row
-- `(i * 7919) % (k + 100) - 50` (100 of the 100100 values are out of
-- bounds, none repeats). The sums of the gradient, its `c` component and
-- the sum of the tangent.
-- ==
-- entry: large
-- input { 100000i64 8i64 }
-- output { 5394552.75f64 7492375.875f64 1798194.75f64 }

entry large (k: i64) (m: i64) : (f64, f64, f64) =
  let is = map (\i -> (i * 7919) % (k + 100) - 50) (iota k)
  let xss = map (\i -> map (\j -> f64.i64 ((i + j) % 13) / 4) (iota m)) (iota k)
  let d = replicate k (replicate m 0.25)
  let (dxss, dc) = grad is 1.5 xss d
  let t = tangent is 1.5 xss d
  in (f64.sum (map f64.sum dxss), dc, f64.sum (map f64.sum t))
