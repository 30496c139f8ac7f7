-- Reverse mode of a histogram of rows with `map2 (*)` (a vectorised
-- operator, taken by the general rule): each bucket is a column-wise
-- product.
-- ==
-- entry: agree
-- input { [0i64, 2i64, 0i64, 5i64, 2i64, 0i64]
--         [2.0, 3.0, 0.0, 7.0, 4.0, 9.0, -5.0, 0.5, 1.5, 0.0, -2.0, 1.0] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [1i64, 1i64] [2.0, 3.0, 5.0, 7.0] }
-- output { [[0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0],
--           [5.0, 0.0, 2.0, 0.0],
--           [0.0, 7.0, 0.0, 3.0],
--           [0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0]] }

-- Update i is the row (x[2i], x[2i+1]); three buckets of rows of two.
def f [n] [k] (is: [n]i64) (x: [k]f64) =
  let rows = tabulate n (\i -> [x[2 * i], x[2 * i + 1]])
  in flatten (hist (map2 (*)) [1, 1] 3 is rows)

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def close [p] [q] (a: [p][q]f64) (b: [p][q]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-9 * (1 + f64.abs x)) r s)) a b)

-- Row j: the gradient of output j.
entry jac_rev [n] [k] (is: [n]i64) (x: [k]f64) : [6][k]f64 =
  tabulate 6 (\j -> vjp (\y -> f is y :> [6]f64) x (onehot 6 j))

-- Row j: the derivatives of output j along every input.
entry jac_fwd [n] [k] (is: [n]i64) (x: [k]f64) : [6][k]f64 =
  transpose (tabulate k (\i -> jvp (\y -> f is y :> [6]f64) x (onehot k i)))

entry agree [n] [k] (is: [n]i64) (x: [k]f64) : bool =
  close (jac_rev is x) (jac_fwd is x :> [6][k]f64)
