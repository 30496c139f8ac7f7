-- Reverse mode of `hist` with `f64.max`: the adjoint of each bucket goes to
-- its maximal update, the earliest of equal ones; empty buckets hold the
-- neutral element and pass nothing on.
-- ==
-- entry: agree
-- input { [0i64, 2i64, 0i64, 5i64, 2i64, -1i64, 0i64, 2i64] [2.0, 3.0, 0.0, 7.0, 4.0, 9.0, 5.0, 4.0] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [0i64, 2i64, 0i64, 5i64, 2i64, -1i64, 0i64, 2i64] [2.0, 3.0, 0.0, 7.0, 4.0, 9.0, 5.0, 4.0] }
-- output { [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]] }

def f [n] (is: [n]i64) (x: [n]f64) =
  hist f64.max (-f64.inf) 3 is x

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def close [p] [q] (a: [p][q]f64) (b: [p][q]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-9 * (1 + f64.abs x)) r s)) a b)

-- Row j: the gradient of output j.
entry jac_rev [n] (is: [n]i64) (x: [n]f64) : [3][n]f64 =
  tabulate 3 (\j -> vjp (\y -> f is y :> [3]f64) x (onehot 3 j))

-- Row j: the derivatives of output j along every input.
entry jac_fwd [n] (is: [n]i64) (x: [n]f64) : [3][n]f64 =
  transpose (tabulate n (\i -> jvp (\y -> f is y :> [3]f64) x (onehot n i)))

entry agree [n] (is: [n]i64) (x: [n]f64) : bool =
  close (jac_rev is x) (jac_fwd is x)
