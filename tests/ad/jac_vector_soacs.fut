-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of SOACs over
-- rows (vector operators): the input as a k x 2 matrix a, then
--   reduce_by_index of the rows into 2 bins (i % 2) with map2 (*),
--   scan (map2 (+)) over the rows, scatter of two rows (squared) into a
--   copy of a, and reduce with an operator on pairs of rows.
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75, 3.0, -2.0] }
-- output { [[3.0, 0.0, 0.0, 0.0, 0.5, 0.0],
--           [0.0, -2.0, 0.0, 0.0, 0.0, -1.5],
--           [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
--           [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
--           [1.0, 0.0, 1.0, 0.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0, 1.0, 0.0, 0.0],
--           [1.0, 0.0, 1.0, 0.0, 1.0, 0.0],
--           [0.0, 1.0, 0.0, 1.0, 0.0, 1.0],
--           [0.0, 0.0, 0.0, 0.0, 6.0, 0.0],
--           [0.0, 0.0, 0.0, 0.0, 0.0, -4.0],
--           [0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
--           [0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
--           [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
--           [0.0, -3.0, 0.0, 0.0, 0.0, 0.0],
--           [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
--           [36.0, -6.75, 9.0, 13.5, 6.0, -5.0625]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75, 3.0, -2.0] } output { true }
-- input { [0.5, 2.0] } output { true }
-- input { [1.0, 2.0, 0.0, -1.0, 0.25, 1.5, -0.5, 3.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [4 + n + n + 2]f64 =
  let k = n / 2
  let a : [k][2]f64 = unflatten (x :> [k * 2]f64)
  let h = reduce_by_index (replicate 2 (replicate 2 1)) (map2 (*)) (replicate 2 1)
                          (map (% 2) (iota k)) a
  let s = scan (map2 (+)) (replicate 2 0) a
  let sq = map (map (\v -> v * v)) a
  let sc = scatter (copy a) [k - 1, 0] [sq[0], sq[k - 1]]
  let (r0, r1) = reduce (\(p, q) (u, w) -> (map2 (+) p u, map2 (*) q w))
                        (replicate 2 0, replicate 2 1) (zip a sq)
  in (flatten h ++ flatten s ++ flatten sc ++ [f64.sum r0, f64.sum r1]) :> [4 + n + n + 2]f64

entry jac [n] (x: [n]f64) : [4 + n + n + 2][n]f64 = jacobian (4 + n + n + 2) f x
entry agrees [n] (x: [n]f64) : bool = agree (4 + n + n + 2) f x
