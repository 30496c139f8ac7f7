-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) at special
-- points of scalar functions: abs at 0 and at -0 (derivative 0, the sign
-- function's value there), ** with a constant exponent at a zero and at a
-- negative base (finite: the exponent's partial derivative, log of the
-- base, must not leak into the result when the exponent is constant), and
-- max of 0 and -0 (equal, so the left operand gets the derivative).
--   y = [abs a, abs b, a ** 2.0, c ** 3.0, c ** 2.0 * a, max a b]
-- At (a, b, c) = (0, -0, -1.5): rows [0,0,0], [0,0,0], [0,0,0],
-- [0,0,3 c^2 = 6.75], [c^2 = 2.25, 0, 2 c a = 0], [1,0,0].
-- ==
-- entry: jac
-- input { [0.0, -0.0, -1.5] }
-- output { [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 6.75],
--           [2.25, 0.0, 0.0], [1.0, 0.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.0, -0.0, -1.5] } output { true }
-- input { [0.0, 0.0, 0.0] } output { true }
-- input { [-2.0, 3.0, -0.5] } output { true }

import "lib/jacobian"

def f (x: [3]f64) : [6]f64 =
  let (a, b, c) = (x[0], x[1], x[2])
  in [f64.abs a, f64.abs b, a ** 2.0, c ** 3.0, c ** 2.0 * a, f64.max a b]

entry jac (x: [3]f64) : [6][3]f64 = jacobian 6 f x
entry agrees (x: [3]f64) : bool = agree 6 f x
