-- Gathers in nested maps, under a condition and in a loop: the inner
-- maps' reverse passes update the accumulators of the outer one. The
-- Jacobian built row by row with vjp equals the one built column by
-- column with jvp.
-- ==
-- input { [1.0, 2.0, 3.0] [0.5, -1.0] }
-- output { [[1.0, 0.0, 0.0, 2.0, 0.0], [0.5, 0.5, 0.0, 3.0, 0.0], [0.5, 0.5, 1.0, 9.0, 0.0], [-1.0, 0.0, 0.0, 0.0, 1.0], [-1.0, -1.0, -1.0, 0.0, 6.0], [-1.0, -1.0, -1.0, 0.0, 6.0]] true }

def f [n][k] (xs: [n]f64) (ys: [k]f64) : [k][n]f64 =
  map (\i ->
         map (\j ->
                let a = if (i + j) % 2 == 0 then xs[(i + j) % n] else 0
                let b = loop s = 0 for t < j + 1 do s + xs[t] * ys[i]
                in a * ys[i] + b)
             (iota n))
      (iota k)

def onehot (n: i64) (k: i64) : [n]f64 = map (\j -> if j == k then 1 else 0) (iota n)

def close [m][n] (a: [m][n]f64) (b: [m][n]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) < 1e-9) r s)) a b)

entry main [n][k] (xs: [n]f64) (ys: [k]f64) : ([][]f64, bool) =
  let g (v: []f64) = flatten (f (take n v :> [n]f64) (drop n v :> [k]f64))
  let v = concat xs ys
  let by_vjp = map (\r -> vjp g v (onehot (k * n) r)) (iota (k * n))
  let by_jvp = transpose (map (\c -> jvp g v (onehot (n + k) c)) (iota (n + k)))
  let same = close by_vjp by_jvp
  in (by_vjp, same)
