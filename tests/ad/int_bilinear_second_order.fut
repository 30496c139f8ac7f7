-- Second-order reverse mode (vjp of vjp) of integer bilinear forms: the
-- gradient of a bilinear form is linear in the inputs, so differentiating
-- it again gives constant results that do not depend on the point.
--
-- f (xs, ys) = sum_i xs[i] * ys[n-1-i]: grad f = (reverse ys, reverse xs),
--   and vjp of grad f with seed (u, v) is (reverse v, reverse u).
-- g (m, w) = sum_i sum_j m[i][j] * w[j]: grad g = (rows equal to w, column
--   sums of m), and vjp of grad g with seed (s, t) is (rows equal to t,
--   column sums of s).
-- ==
-- entry: hvp_f
-- input { [1,2,3] [4,5,6] [1,2,3] [10,20,30] }
-- output { [30,20,10] [3,2,1] }
-- input { [-7,0,9] [2,2,2] [1,2,3] [10,20,30] }
-- output { [30,20,10] [3,2,1] }

-- ==
-- entry: hvp_g
-- input { [[1,2,3],[4,5,6]] [1,1,1] [[1,0,2],[3,1,0]] [5,6,7] }
-- output { [[5,6,7],[5,6,7]] [4,1,2] }

def f [n] (xs: [n]i32, ys: [n]i32) : i32 =
  i32.sum (map2 (*) xs (reverse ys))

entry hvp_f [n] (xs: [n]i32) (ys: [n]i32) (u: [n]i32) (v: [n]i32) =
  vjp (\(a, b) -> vjp f (a, b) 1) (xs, ys) (u, v)

def g [r][c] (m: [r][c]i32, w: [c]i32) : i32 =
  i32.sum (map (\row -> i32.sum (map2 (*) row w)) m)

entry hvp_g [r][c] (m: [r][c]i32) (w: [c]i32) (s: [r][c]i32) (t: [c]i32) =
  vjp (\(a, b) -> vjp g (a, b) 1) (m, w) (s, t)
