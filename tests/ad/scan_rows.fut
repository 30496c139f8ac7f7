-- Reverse mode of a scan of rows whose operator works on whole rows
-- without being elementwise: the first component adds, the second
-- multiplies and adds the first. Each row becomes a tuple of its scalars
-- and the scan of composed Jacobians applies.
-- ==
-- entry: agree
-- input { [0i64] [2.0, 3.0, 0.5, 7.0, 0.0, 9.0, -5.0, 0.5] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [0i64] [1.0, 2.0, 3.0, 4.0] }
-- output { [[1.0, 0.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0, 0.0],
--           [1.0, 0.0, 1.0, 0.0],
--           [1.0, 4.0, 0.0, 2.0]] }

-- Row i is [x[2i], x[2i+1]]; [a, b] then [c, d] is [a + c, b*d + a].
def f [n] [k] (_: [n]i64) (x: [k]f64) =
  let rows = tabulate (k / 2) (\i -> [x[2 * i], x[2 * i + 1]])
  in flatten (scan (\p q -> [p[0] + q[0], p[1] * q[1] + p[0]]) [0, 1] rows) :> [k]f64
def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def close [p] [q] (a: [p][q]f64) (b: [p][q]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-9 * (1 + f64.abs x)) r s)) a b)

-- Row j: the gradient of output j.
entry jac_rev [n] [k] (is: [n]i64) (x: [k]f64) : [k][k]f64 =
  tabulate k (\j -> vjp (\y -> f is y :> [k]f64) x (onehot k j))

-- Row j: the derivatives of output j along every input.
entry jac_fwd [n] [k] (is: [n]i64) (x: [k]f64) : [k][k]f64 =
  transpose (tabulate k (\i -> jvp (\y -> f is y :> [k]f64) x (onehot k i)))

entry agree [n] [k] (is: [n]i64) (x: [k]f64) : bool =
  close (jac_rev is x) (jac_fwd is x :> [k][k]f64)
