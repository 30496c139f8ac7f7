-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of the special
-- functions erf, erfc, lgamma and gamma.  At x = (a, b) = (0.5, 2.5):
--   erf a  -> [2 exp(-a^2)/sqrt pi, 0]     erfc b -> [0, -2 exp(-b^2)/sqrt pi]
--   lgamma(a + b) -> digamma(a + b) [1, 1]   gamma b -> [0, gamma b digamma b]
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, 2.5] }
-- output { [[0.8787825789354448, 0.0],
--           [0.0, -0.00217828423035271],
--           [0.9227843350984672, 0.9227843350984672],
--           [0.0, 0.9347345216260864]] }

-- ==
-- entry: agrees
-- input { [0.5, 2.5] } output { true }
-- input { [-0.3, 1.2] } output { true }
-- input { [1.7, 4.0] } output { true }

import "lib/jacobian"

def f (x: [2]f64) : [4]f64 =
  let (a, b) = (x[0], x[1])
  in [f64.erf a, f64.erfc b, f64.lgamma (a + b), f64.gamma b]

entry jac (x: [2]f64) : [4][2]f64 = jacobian 4 f x
entry agrees (x: [2]f64) : bool = agree 4 f x
