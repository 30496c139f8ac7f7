-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of the less
-- common scalar operations: float remainder %, fma, mad, lerp, ldexp,
-- acosh, atanh, ceil, copysign, and f64.product, f64.maximum and
-- f64.minimum (the prelude's reductions).  At (a, b, c) = (2.5, 0.75, -0.5):
--   a % b -> [1, -floor(a/b) = -3, 0]
--   fma a b c -> [b, a, 1]   mad a c b -> [c, 1, a]   lerp a b c -> [1-c, c, b-a]
--   ldexp a 3 -> [8, 0, 0]
--   acosh a -> [1/sqrt(a^2-1), 0, 0]   atanh c -> [0, 0, 1/(1-c^2)]
--   ceil b * a -> [1, 0, 0]   product, maximum, minimum of [a, b, c]
--   copysign a c -> [-1, 0, 0] (the signs of a and c differ)
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [2.5, 0.75, -0.5] }
-- output { [[1.0, -3.0, 0.0],
--           [0.75, 2.5, 1.0],
--           [-0.5, 1.0, 2.5],
--           [1.5, -0.5, -1.75],
--           [8.0, 0.0, 0.0],
--           [0.4364357804719848, 0.0, 0.0],
--           [0.0, 0.0, 1.3333333333333333],
--           [1.0, 0.0, 0.0],
--           [-0.375, -1.25, 1.875],
--           [1.0, 0.0, 0.0],
--           [0.0, 0.0, 1.0],
--           [-1.0, 0.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [2.5, 0.75, -0.5] } output { true }
-- input { [1.5, -0.4, 0.25] } output { true }
-- input { [3.0, 2.0, 0.9] } output { true }

import "lib/jacobian"

def f (x: [3]f64) : [12]f64 =
  let (a, b, c) = (x[0], x[1], x[2])
  in [ a % b, f64.fma a b c, f64.mad a c b, f64.lerp a b c
     , f64.ldexp a 3, f64.acosh a, f64.atanh c, f64.ceil b * a
     , f64.product x, f64.maximum x, f64.minimum x, f64.copysign a c ]

entry jac (x: [3]f64) : [12][3]f64 = jacobian 12 f x
entry agrees (x: [3]f64) : bool = agree 12 f x
