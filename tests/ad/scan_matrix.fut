-- Reverse mode of a scan of rows whose length is known only at run time,
-- with an operator on whole rows that is not elementwise: affine maps
-- [a, b] then [c, d] is [a*c, b*c + d]. The Jacobians of the operator are
-- [d][d] arrays composed by matrix products.
-- ==
-- entry: agree
-- input { [0i64, 0i64] [2.0, 3.0, 0.5, 7.0, 0.0, 9.0, -5.0, 0.5] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [0i64, 0i64] [2.0, 3.0, 5.0, 7.0] }
-- output { [[1.0, 0.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0, 0.0],
--           [5.0, 0.0, 2.0, 0.0],
--           [0.0, 5.0, 3.0, 1.0]] }

-- Rows of length n (the length of the first argument).
def f [n] [k] (_: [n]i64) (x: [k]f64) =
  let rows = tabulate (k / n) (\i -> x[i * n:(i + 1) * n] :> [n]f64)
  let ne = tabulate n (\j -> if j == 0 then 1 else 0)
  in flatten (scan (\p q -> [p[0] * q[0], p[1] * q[0] + q[1]] :> [n]f64) ne rows) :> [k]f64
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
