-- Adjoints that touch one element or one slice of an array: traces of
-- diag(x), the dot product of a column and a row of diag(x), and column
-- slices read inside a map (added element by element where they were read).
-- The vjp is compared with the jvp Jacobian.
-- ==
-- input { [1.0, 2.0, 3.0] }
-- output { [3.0, 3.0, 3.0] [2.0, 0.0, 0.0] [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]] true }

def diag [n] (x: [n]f64) : [n][n]f64 =
  map (\i -> map (\j -> if i == j then x[i] else 0) (iota n)) (iota n)

def trace [n] (a: [n][n]f64) : f64 = f64.sum (map (\i -> a[i, i]) (iota n))

def traces [n] (x: [n]f64) : f64 =
  let a = diag x
  in loop s = 0 for _t < 3 do s + trace a

def col_row [n] (x: [n]f64) : f64 =
  let a = diag x
  in f64.sum (map2 (*) a[:, 0] a[0, :])

-- Column j of diag x, times x[j]: each row reads a whole column.
def columns [n] (x: [n]f64) : [n]f64 =
  let a = diag x
  in map (\j -> f64.sum a[:, j] * x[j] / 2) (iota n)

def onehot (n: i64) (k: i64) : [n]f64 = map (\j -> if j == k then 1 else 0) (iota n)

entry main [n] (x: [n]f64) : ([n]f64, [n]f64, [n][n]f64, bool) =
  let jac = map (\r -> vjp columns x (onehot n r)) (iota n)
  let jac_fwd = transpose (map (\c -> jvp columns x (onehot n c)) (iota n))
  let same = and (map2 (\r s -> and (map2 (\a b -> f64.abs (a - b) < 1e-9) r s)) jac jac_fwd)
  in (vjp traces x 1, vjp col_row x 1, jac, same)
