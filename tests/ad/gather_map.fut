-- Gathers inside maps: the adjoint of an array read at computed indices
-- inside a map (the reverse pass adds each row's adjoint at the index it
-- read, through an accumulator). The Jacobian built row by row with vjp
-- equals the one built column by column with jvp.
-- ==
-- input { [2i64, 0i64, 2i64, 1i64] [1.0, 2.0, 3.0] }
-- output { [[3.0, 0.0, 7.0], [4.0, 1.0, 0.0], [3.0, 0.0, 7.0], [0.0, 7.0, 2.0]] [10.0, 8.0, 16.0] true }
-- input { [0i64] [5.0] }
-- output { [[20.0]] [20.0] true }

def f [n][m] (is: [m]i64) (xs: [n]f64) : [m]f64 =
  map (\i -> xs[i] * xs[(i + 1) % n] + xs[i] * xs[i]) is

def onehot (n: i64) (k: i64) : [n]f64 = map (\j -> if j == k then 1 else 0) (iota n)

def close [m][n] (a: [m][n]f64) (b: [m][n]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) < 1e-9) r s)) a b)

entry main [n][m] (is: [m]i64) (xs: [n]f64) : ([m][n]f64, [n]f64, bool) =
  let by_vjp = map (\k -> vjp (f is) xs (onehot m k)) (iota m)
  let by_jvp = transpose (map (\k -> jvp (f is) xs (onehot n k)) (iota n))
  let same = close by_vjp by_jvp
  in (by_vjp, vjp (f is) xs (replicate m 1), same)
