-- Reverse mode of a scan on pairs with a general operator: affine maps
-- composed left to right, (a, b) then (c, d) is (a*c, b*c + d). The
-- adjoint of each result flows back through a scan of composed 2x2
-- Jacobians of the operator.
-- ==
-- entry: agree
-- input { [0i64] [2.0, 3.0, 0.5, 7.0, 4.0, 9.0, -5.0, 0.5, 1.5, 2.0] }
-- output { true }
-- input { [0i64] [0.0, 1.0, 2.0, -1.0, 0.0, 0.5, 3.0, 2.0, 1.0, 1.0] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [0i64] [2.0, 3.0, 5.0, 7.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0] }
-- output { [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [5.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [5.0, 0.0, 2.0, 0.0, 10.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [5.0, 0.0, 2.0, 0.0, 10.0, 0.0, 10.0, 0.0, 0.0, 0.0],
--           [5.0, 0.0, 2.0, 0.0, 10.0, 0.0, 10.0, 0.0, 10.0, 0.0],
--           [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 5.0, 3.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 5.0, 3.0, 1.0, 22.0, 1.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 5.0, 3.0, 1.0, 22.0, 1.0, 23.0, 1.0, 0.0, 0.0],
--           [0.0, 5.0, 3.0, 1.0, 22.0, 1.0, 23.0, 1.0, 24.0, 1.0]] }

-- Element i is the pair (x[2i], x[2i+1]); the result is both scanned
-- components, one after the other.
def f [n] [k] (_: [n]i64) (x: [k]f64) =
  let m = k / 2
  let (as, bs) = unzip (tabulate m (\i -> (x[2 * i], x[2 * i + 1])))
  let (sa, sb) = unzip (scan (\(a, b) (c, d) -> (a * c, b * c + d)) (1, 0) (zip as bs))
  in sa ++ sb
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
