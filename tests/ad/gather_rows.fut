-- Reverse mode of gathers: rows of a matrix each indexed by an index
-- array (a map returning rows whose size the internaliser leaves
-- existential), then reversed and rotated by prelude functions. Indices
-- repeat, so adjoints add up.
-- ==
-- entry: agree
-- input { [1i64, 0i64, 1i64, 1i64] [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [1i64, 0i64, 1i64, 1i64] [1.0, 2.0, 3.0, 4.0, 5.0, 6.0] }
-- output { [[0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
--           [0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
--           [5.0, 0.0, 0.0, 0.0, 1.0, 0.0],
--           [0.0, 5.0, 0.0, 0.0, 2.0, 0.0],
--           [0.0, 4.0, 0.0, 2.0, 0.0, 0.0],
--           [0.0, 5.0, 0.0, 0.0, 2.0, 0.0]] }

def pick (xs: []f64) (is: []i64) = map (\i -> xs[i]) is

-- x is a 2x3 matrix; row r of the result picks from row r.
def f [n] [k] (is: [n]i64) (x: [k]f64) =
  let rows = tabulate 2 (\r -> pick x[r * 3:r * 3 + 3] is)
  let back = reverse rows[1]
  let rot = rotate 1 rows[0]
  in (back ++ map2 (*) rot back) :> [8]f64
def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

def close [p] [q] (a: [p][q]f64) (b: [p][q]f64) : bool =
  and (map2 (\r s -> and (map2 (\x y -> f64.abs (x - y) <= 1e-9 * (1 + f64.abs x)) r s)) a b)

-- Row j: the gradient of output j.
entry jac_rev [n] [k] (is: [n]i64) (x: [k]f64) : [8][k]f64 =
  tabulate 8 (\j -> vjp (\y -> f is y :> [8]f64) x (onehot 8 j))

-- Row j: the derivatives of output j along every input.
entry jac_fwd [n] [k] (is: [n]i64) (x: [k]f64) : [8][k]f64 =
  transpose (tabulate k (\i -> jvp (\y -> f is y :> [8]f64) x (onehot k i)))

entry agree [n] [k] (is: [n]i64) (x: [k]f64) : bool =
  close (jac_rev is x) (jac_fwd is x :> [8][k]f64)
