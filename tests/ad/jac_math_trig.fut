-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of the
-- trigonometric and hyperbolic functions: sin, cos, tan, asin, acos, atan,
-- atan2, hypot, sinh, cosh, tanh, asinh.  At x = (a, b) = (0.3, 0.8):
--   sin(a) cos(b) -> [cos a cos b, -sin a sin b]   tan a -> [1 + tan^2 a, 0]
--   asin a -> [1/sqrt(1-a^2), 0]    acos b -> [0, -1/sqrt(1-b^2)]
--   atan(a b) -> [b, a]/(1 + a^2 b^2)
--   atan2 a b -> [b, -a]/(a^2 + b^2)   hypot a b -> [a, b]/hypot a b
--   sinh a + cosh b -> [cosh a, sinh b]  tanh(a - b) -> [1, -1](1 - tanh^2(a-b))
--   asinh b -> [0, 1/sqrt(1 + b^2)]
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.3, 0.8] }
-- output { [[0.665589341657975, -0.21199322023239764],
--           [1.095688915322547, 0.0],
--           [1.0482848367219182, 0.0],
--           [0.0, -1.666666666666667],
--           [0.75642965204236, 0.28366111951588496],
--           [1.095890410958904, -0.41095890410958896],
--           [0.3511234415883917, 0.9363291775690445],
--           [1.0453385141288605, 0.888105982187623],
--           [0.7864477329659274, -0.7864477329659274],
--           [0.0, 0.7808688094430303]] }

-- ==
-- entry: agrees
-- input { [0.3, 0.8] } output { true }
-- input { [-0.6, 0.1] } output { true }
-- input { [0.9, -0.45] } output { true }

import "lib/jacobian"

def f (x: [2]f64) : [10]f64 =
  let (a, b) = (x[0], x[1])
  in [ f64.sin a * f64.cos b, f64.tan a, f64.asin a, f64.acos b, f64.atan (a * b)
     , f64.atan2 a b, f64.hypot a b, f64.sinh a + f64.cosh b, f64.tanh (a - b), f64.asinh b ]

entry jac (x: [2]f64) : [10][2]f64 = jacobian 10 f x
entry agrees (x: [2]f64) : bool = agree 10 f x
