-- Dense matrix product with map2/reduce.
def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64): [n][p]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

entry main (n: i64): f64 =
  let a = tabulate_2d n n (\i j -> f64.i64 ((i + j) % 7) / 7.0)
  let b = tabulate_2d n n (\i j -> f64.i64 ((i * j) % 5) / 5.0)
  in f64.sum (flatten (matmul a b))
