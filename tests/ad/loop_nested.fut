-- Loops nested in maps and in each other under vjp and jvp: a strip-mined
-- for loop, then a while loop whose body runs another while loop (both
-- without a bound, so each gets an inspector), all inside a map. The
-- Jacobian of the map is diagonal; its entries agree with central finite
-- differences (37.9835123, 16.8815611, 3.33462934 with h = 1e-6).
-- ==
-- input { [1.5, 3.0, 20.0] 5i64 }
-- output { [102.30729979870702, 70.34780815440625, 69.94258686999999]
--          [[37.98351236580469, 0.0, 0.0], [0.0, 16.88156105146875, 0.0], [0.0, 0.0, 3.3346293435]]
--          [[37.98351236580469, 0.0, 0.0], [0.0, 16.88156105146875, 0.0], [0.0, 0.0, 3.3346293435]] }

def g (n: i64) (x: f64) : f64 =
  let y = #[stripmine(2)] loop y = x for i < n do y * 0.9 + f64.i64 i * 0.01 * y
  in loop z = y while z < 50 do
       (loop w = z while w < z * 2 do w * 1.5) + 1

def f [m] (n: i64) (xs: [m]f64) : [m]f64 = map (g n) xs

def onehot (m: i64) (i: i64) : [m]f64 = tabulate m (\j -> f64.bool (i == j))

entry main [m] (xs: [m]f64) (n: i64) : ([m]f64, [m][m]f64, [m][m]f64) =
  let rows = map (\i -> vjp (f n) xs (onehot m i)) (iota m)
  let cols = map (\i -> jvp (f n) xs (onehot m i)) (iota m)
  in (f n xs, rows, transpose cols)
