-- vjp of a matrix-vector product with respect to the vector is A^T y.
-- ==
-- input { [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]] [1.0, 1.0] [1.0, 0.0, 2.0] } output { [11.0, 14.0] [3.0, 7.0, 11.0] }

def matvec [n][m] (a: [n][m]f64) (x: [m]f64) : [n]f64 =
  map (\row -> f64.sum (map2 (*) row x)) a

def main [n][m] (a: [n][m]f64) (x: [m]f64) (y: [n]f64) : ([m]f64, [n]f64) =
  (vjp (matvec a) x y, jvp (matvec a) x (replicate m 1))
