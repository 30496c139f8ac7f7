-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of SOACs and
-- loops nested in each other: a map over rows holding a reduce, a scan and
-- a for loop (segmented operations), a loop whose body is a map over the
-- whole array, and a reduce of vectors (`reduce (map2 (+))`).  The input is
-- a 2 x k matrix a:
--   y = map (\r -> sum r * prod-by-loop r) a ++ flatten (map (scan (*) 1) a)
--       ++ (loop z = a[0] for _ < 2 do map2 (\u v -> u * v + 0.5) z a[1])
--       ++ reduce (map2 (+)) (replicate k 0) (map (map f64.sin) a)
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75, 3.0, -2.0] }
-- output { [[-4.5, -0.5, -2.25, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, -15.0, -7.125, -0.5625],
--           [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [-1.5, 0.5, 0.0, 0.0, 0.0, 0.0],
--           [-3.0, 1.0, -0.75, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 3.0, 0.75, 0.0],
--           [0.0, 0.0, 0.0, -6.0, -1.5, 2.25],
--           [0.5625, 0.0, 0.0, 1.25, 0.0, 0.0],
--           [0.0, 9.0, 0.0, 0.0, -8.5, 0.0],
--           [0.0, 0.0, 4.0, 0.0, 0.0, -7.5],
--           [0.8775825618903728, 0.0, 0.0, 0.7316888688738209, 0.0, 0.0],
--           [0.0, 0.0707372016677029, 0.0, 0.0, -0.9899924966004454, 0.0],
--           [0.0, 0.0, -0.4161468365471424, 0.0, 0.0, -0.4161468365471424]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75, 3.0, -2.0] } output { true }
-- input { [0.5, 2.0] } output { true }
-- input { [1.0, 2.0, 0.0, -1.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [2 + n + n]f64 =
  let k = n / 2
  let a : [2][k]f64 = unflatten (x :> [2 * k]f64)
  let per_row = map (\r -> f64.sum r * (loop p = 1 for v in r do p * v)) a
  let scans = flatten (map (scan (*) 1) a)
  let looped = loop z = copy a[0] for _i < 2 do map2 (\u v -> u * v + 0.5) z a[1]
  let summed = reduce (map2 (+)) (replicate k 0) (map (map f64.sin) a)
  in (per_row ++ scans ++ looped ++ summed) :> [2 + n + n]f64

entry jac [n] (x: [n]f64) : [2 + n + n][n]f64 = jacobian (2 + n + n) f x
entry agrees [n] (x: [n]f64) : bool = agree (2 + n + n) f x
