-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of
-- array-rearranging library functions: zip/unzip, reverse, rotate,
-- `filter` and `partition` (a scan and a scatter inside; the kept elements
-- depend on the input only through comparisons, so their derivatives are
-- those of the kept elements), summed so the output size is fixed.
--   y = [sum (filter (> 0) x)^2, sum of the first part of partition (< 1) x times x[0]]
--       ++ map2 (*) (rotate 1 x) (reverse x) ++ (unzip (zip x (map (* 3) x))).1
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75] }
-- output { [[6.5, 0.0, 6.5, 6.5],
--           [0.25, 0.5, 0.0, 0.5],
--           [0.0, 0.75, 0.0, -1.5],
--           [0.0, 0.0, 4.0, 0.0],
--           [0.0, 0.75, 0.0, -1.5],
--           [1.0, 0.0, 0.0, 0.0],
--           [3.0, 0.0, 0.0, 0.0],
--           [0.0, 3.0, 0.0, 0.0],
--           [0.0, 0.0, 3.0, 0.0],
--           [0.0, 0.0, 0.0, 3.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75] } output { true }
-- input { [-0.5, -2.0] } output { true }
-- input { [1.5, 2.0, 3.0, -1.0, 0.25] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [2 + n + n]f64 =
  let pos = f64.sum (filter (> 0) x)
  let (small, _) = partition (< 1) x
  let (_, tripled) = unzip (zip x (map (* 3) x))
  in ([pos * pos, f64.sum small * x[0]] ++ map2 (*) (rotate 1 x) (reverse x) ++ tripled)
     :> [2 + n + n]f64

entry jac [n] (x: [n]f64) : [2 + n + n][n]f64 = jacobian (2 + n + n) f x
entry agrees [n] (x: [n]f64) : bool = agree (2 + n + n) f x
