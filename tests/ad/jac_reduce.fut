-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of `reduce`
-- with each kind of operator the AD has a rule for: sum, product (with and
-- without a zero in the input), min and max (the winner's slot gets the
-- derivative), and a general operator on pairs (the largest of x[i] * x[i]
-- keeping its index's value as a payload).
--   y = [sum x, product x, min x, max x, payload]
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0, 0.75] }
-- output { [[1.0, 1.0, 1.0, 1.0],
--           [-2.25, 0.75, -0.5625, -1.5],
--           [0.0, 1.0, 0.0, 0.0],
--           [0.0, 0.0, 1.0, 0.0],
--           [0.0, 0.0, -0.4161468365471424, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0, 0.75] } output { true }
-- input { [0.5, 0.0, 2.0] } output { true }
-- input { [3.0] } output { true }
-- input { [1.0, -2.0, 0.0, 0.0, 4.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [5]f64 =
  let best (a, pa) (b, pb) = if a >= b then (a, pa) else (b, pb)
  let (_, payload) =
    reduce best (-f64.inf, 0) (map (\v -> (v * v, f64.sin v)) x)
  in [ reduce (+) 0 x, reduce (*) 1 x, reduce f64.min f64.inf x
     , reduce f64.max (-f64.inf) x, payload ]

entry jac [n] (x: [n]f64) : [5][n]f64 = jacobian 5 f x
entry agrees [n] (x: [n]f64) : bool = agree 5 f x
