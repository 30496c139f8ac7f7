-- Adjoints of arrays and scalars free in a map: an array read at computed
-- indices, an array used whole in every iteration (its sum), and a scalar.
-- The Jacobian built row by row with vjp equals the one built column by
-- column with jvp.
-- ==
-- input { [1.0, 2.0, 3.0] [0.5, -1.0] 2.0 }
-- output { [[1.0, -0.5, 0.0, 4.0, 2.0, 0.5], [0.0, -2.0, -0.5, 3.0, 7.0, -2.0], [-0.5, 0.0, 1.0, 7.0, 1.0, 1.5]] true }

def f [n][k] (xs: [n]f64) (ws: [k]f64) (s: f64) : [n]f64 =
  map (\i -> xs[i] * ws[i % k] * s + f64.sum ws * xs[(i + 1) % n]) (iota n)

def onehot (n: i64) (k: i64) : [n]f64 = map (\j -> if j == k then 1 else 0) (iota n)

def close [m][n] (a: [m][n]f64) (b: [m][n]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) < 1e-9) r s)) a b)

entry main [n][k] (xs: [n]f64) (ws: [k]f64) (s: f64) : ([n][]f64, bool) =
  let g (xs, ws, s) = f xs ws s
  let by_vjp =
    map (\r -> let (dx, dw, ds) = vjp g (xs, ws, s) (onehot n r) in dx ++ dw ++ [ds])
        (iota n)
  let cols =
    map (\c -> jvp g (xs, ws, s) (onehot n c, replicate k 0, 0)) (iota n)
    ++ map (\c -> jvp g (xs, ws, s) (replicate n 0, onehot k c, 0)) (iota k)
    ++ [jvp g (xs, ws, s) (replicate n 0, replicate k 0, 1)]
  let by_jvp = transpose cols
  in (by_vjp, close by_vjp (by_jvp :> [n][n + k + 1]f64))
