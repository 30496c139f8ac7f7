-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of the scalar
-- arithmetic operators: + - * / negation, ** with a variable exponent,
-- abs, min and max.  At x = (a, b, c) = (2, 3, -1):
--   y0 = a*b - c        d = [b, a, -1]             = [3, 2, -1]
--   y1 = a / b          d = [1/b, -a/b^2, 0]       = [1/3, -2/9, 0]
--   y2 = -(a + c)       d = [-1, 0, -1]
--   y3 = a ** b         d = [b a^(b-1), a^b ln a, 0] = [12, 8 ln 2, 0]
--   y4 = abs c * a      d = [|c|, 0, a sgn c]      = [1, 0, -2]
--   y5 = f64.max a b + f64.min a c   d = [0, 1, 0] + [0, 0, 1] = [0, 1, 1]
-- (8 ln 2 = 5.545177444479562.)
-- ==
-- entry: jac
-- input { [2.0, 3.0, -1.0] }
-- output { [[3.0, 2.0, -1.0],
--           [0.3333333333333333, -0.2222222222222222, 0.0],
--           [-1.0, 0.0, -1.0],
--           [12.0, 5.545177444479562, 0.0],
--           [1.0, 0.0, -2.0],
--           [0.0, 1.0, 1.0]] }

-- ==
-- entry: agrees
-- input { [2.0, 3.0, -1.0] } output { true }
-- input { [0.5, -1.5, 4.0] } output { true }
-- input { [1.25, 0.75, 0.3] } output { true }

import "lib/jacobian"

def f (x: [3]f64) : [6]f64 =
  let (a, b, c) = (x[0], x[1], x[2])
  in [a * b - c, a / b, -(a + c), a ** b, f64.abs c * a, f64.max a b + f64.min a c]

entry jac (x: [3]f64) : [6][3]f64 = jacobian 6 f x
entry agrees (x: [3]f64) : bool = agree 6 f x
