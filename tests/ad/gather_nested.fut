-- Reverse mode of a nested gather from one array: every row of an index
-- matrix reads the same free array (its adjoint accumulates over rows and
-- columns, repeated indices included). Jacobians by jvp (columns) and by
-- vjp (rows of the flattened output) must agree.
-- ==
-- entry: agree
-- input { [0.5, -1.0, 2.0, 3.0, 7.0] [[1i64, 4i64, 1i64], [0i64, 0i64, 2i64]] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [0.5, -1.0, 2.0, 3.0] [[1i64, 3i64], [2i64, 2i64]] }
-- output { [[0.0, -0.5, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 3.5],
--           [0.0, 0.0, 2.5, 0.0],
--           [0.0, 0.0, 2.5, 0.0]] }

-- x²/2 + x/2 of the gathered elements (derivative x + 1/2), so that the
-- Jacobian depends on x.
def pick [k] [n] [m] (iss: [n][m]i64) (x: [k]f64) : [n][m]f64 =
  map (\is -> map (\i -> x[i] * x[i] / 2 + x[i] / 2) is) iss

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

entry jac_rev [k] [n] [m] (x: [k]f64) (iss: [n][m]i64) : [][k]f64 =
  flatten (tabulate_2d n m (\i j -> vjp (pick iss) x (tabulate_2d n m (\a b -> if (a, b) == (i, j) then 1 else 0))))

entry jac_fwd [k] [n] [m] (x: [k]f64) (iss: [n][m]i64) : [][k]f64 =
  let cols = tabulate k (\c -> flatten (jvp (pick iss) x (onehot k c)))
  in transpose cols

entry agree [k] [n] [m] (x: [k]f64) (iss: [n][m]i64) : bool =
  let r = jac_rev x iss
  let c = jac_fwd x iss :> [n * m][k]f64
  in and (map2 (\a b -> and (map2 (\p q -> f64.abs (p - q) <= 1e-12) a b)) (r :> [n * m][k]f64) c)
