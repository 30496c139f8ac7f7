-- Doolittle LU decomposition without pivoting, with in-place updates of both
-- factors, and a determinant computed from U.
-- ==
-- input { [[4.0, 3.0], [6.0, 3.0]] }
-- output { [[1.0, 0.0], [1.5, 1.0]] [[4.0, 3.0], [0.0, -1.5]] -6.0 true }
-- input { [[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]] }
-- output { [[1.0, 0.0, 0.0], [-0.5, 1.0, 0.0], [0.0, -0.6666666666666666, 1.0]] [[2.0, -1.0, 0.0], [0.0, 1.5, -1.0], [0.0, 0.0, 1.3333333333333333]] 4.0 true }

def lu [n] (a: [n][n]f64) : ([n][n]f64, [n][n]f64) =
  let l = tabulate_2d n n (\i j -> if i == j then 1.0 else 0.0)
  let u = replicate n (replicate n 0.0)
  in loop (l, u) for i < n do
       -- row i of U
       let u = loop u for j in i..<n do
                 let s = loop s = 0.0 for k < i do s + l[i, k] * u[k, j]
                 in u with [i, j] = a[i, j] - s
       -- column i of L
       let l = loop l for j in (i + 1)..<n do
                 let s = loop s = 0.0 for k < i do s + l[j, k] * u[k, i]
                 in l with [j, i] = (a[j, i] - s) / u[i, i]
       in (l, u)

def matmul [n] (a: [n][n]f64) (b: [n][n]f64) : [n][n]f64 =
  map (\row -> map (\col -> f64.sum (map2 (*) row col)) (transpose b)) a

def main [n] (a: [n][n]f64) : ([n][n]f64, [n][n]f64, f64, bool) =
  let (l, u) = lu a
  let det = f64.product (map (\i -> u[i, i]) (iota n))
  let lu_prod = matmul l u
  let ok = and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) < 1e-9) r s)) lu_prod a)
  in (l, u, det, ok)
