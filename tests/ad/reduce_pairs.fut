-- Reverse mode of a reduction on pairs with a general operator (affine
-- maps composed left to right): exclusive scans from both ends, then the
-- vjp of the operator at each element.
-- ==
-- entry: agree
-- input { [0i64] [2.0, 3.0, 0.5, 7.0, 0.0, 9.0, -5.0, 0.5] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [0i64] [2.0, 3.0, 5.0, 7.0] }
-- output { [[5.0, 0.0, 2.0, 0.0],
--           [0.0, 5.0, 3.0, 1.0]] }

def f [n] [k] (_: [n]i64) (x: [k]f64) =
  let ps = tabulate (k / 2) (\i -> (x[2 * i], x[2 * i + 1]))
  let (a, b) = reduce (\(a, b) (c, d) -> (a * c, b * c + d)) (1, 0) ps
  in [a, b]
def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def close [p] [q] (a: [p][q]f64) (b: [p][q]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-9 * (1 + f64.abs x)) r s)) a b)

-- Row j: the gradient of output j.
entry jac_rev [n] [k] (is: [n]i64) (x: [k]f64) : [2][k]f64 =
  tabulate 2 (\j -> vjp (\y -> f is y :> [2]f64) x (onehot 2 j))

-- Row j: the derivatives of output j along every input.
entry jac_fwd [n] [k] (is: [n]i64) (x: [k]f64) : [2][k]f64 =
  transpose (tabulate k (\i -> jvp (\y -> f is y :> [2]f64) x (onehot k i)))

entry agree [n] [k] (is: [n]i64) (x: [k]f64) : bool =
  close (jac_rev is x) (jac_fwd is x :> [2][k]f64)
