-- Reverse mode of a histogram with `*`: each factor's adjoint is the
-- product of the other factors of its bucket (the destination element
-- included), found by counting zeros; out-of-bounds updates get none.
-- The Jacobian by vjp over one-hot seeds must equal the one by jvp.
-- ==
-- entry: agree
-- input { [0i64, 2i64, 0i64, 5i64, 2i64, -1i64, 0i64, 1i64]
--         [2.0, 3.0, 0.0, 7.0, 4.0, 9.0, 5.0, 0.0, 1.5, 0.0, -2.0] }
-- output { true }
-- input { [1i64, 1i64, 1i64] [2.0, -3.0, 0.5, 4.0, 0.5, 0.0] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [0i64, 2i64, 0i64, 5i64, 2i64] [2.0, 3.0, 0.0, 7.0, 4.0, 1.5, 0.0, -2.0] }
-- output { [[0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
--           [0.0, -8.0, 0.0, 0.0, -6.0, 0.0, 0.0, 12.0]] }

-- The updates are the first n elements of x, the destination the rest.
def f [n] [k] (is: [n]i64) (x: [k]f64) =
  reduce_by_index (copy x[n:]) (*) 1 is x[:n]

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def close [p] [q] (a: [p][q]f64) (b: [p][q]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-9 * (1 + f64.abs x)) r s)) a b)

-- Row j: the gradient of output j.
entry jac_rev [n] [k] (is: [n]i64) (x: [k]f64) : [][k]f64 =
  let p = k - n
  in tabulate p (\j -> vjp (\y -> f is y :> [p]f64) x (onehot p j))

-- Row j: the derivatives of output j along every input.
entry jac_fwd [n] [k] (is: [n]i64) (x: [k]f64) : [][k]f64 =
  let p = k - n
  in transpose (tabulate k (\i -> jvp (\y -> f is y :> [p]f64) x (onehot k i)))

entry agree [n] [k] (is: [n]i64) (x: [k]f64) : bool =
  close (jac_rev is x) (jac_fwd is x :> [k - n][k]f64)
