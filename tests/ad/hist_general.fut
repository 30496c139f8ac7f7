-- Reverse mode of a histogram with a general operator on pairs: affine
-- maps composed in iteration order, (a, b) then (c, d) is (a*c, b*c + d),
-- which is associative but not commutative. The general rule sorts the
-- updates by bucket and takes segmented scans from both ends.
-- ==
-- entry: agree
-- input { [0i64, 2i64, 0i64, 5i64, 2i64, 0i64, -1i64]
--         [2.0, 3.0, 0.5, 7.0, 4.0, 9.0, -5.0, 0.5, 1.5, 2.0, -2.0, 1.0, 0.3, 0.2] }
-- output { true }
-- input { empty([0]i64) empty([0]f64) }
-- output { true }

-- ==
-- entry: jac_rev
-- input { [1i64, 1i64] [2.0, 3.0, 5.0, 7.0] }
-- output { [[0.0, 0.0, 0.0, 0.0],
--           [5.0, 0.0, 2.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0],
--           [0.0, 5.0, 3.0, 1.0],
--           [0.0, 0.0, 0.0, 0.0]] }

-- Update i is the pair (x[2i], x[2i+1]); three buckets.
def f [n] [k] (is: [n]i64) (x: [k]f64) =
  let (as, bs) = unzip (tabulate n (\i -> (x[2 * i], x[2 * i + 1])))
  let (ha, hb) = unzip (hist (\(a, b) (c, d) -> (a * c, b * c + d)) (1, 0) 3 is (zip as bs))
  in ha ++ hb

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
