-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) through `if`:
-- a condition on the input chooses between branches that compute different
-- functions, one of them an array.  f (a, b, c) =
--   [if a < b then a*b else a+c, if a < b then b*c else c*c, s, s*a]  where
--   s = sum (if c > 0 then map (*a) [b, c] else [b*b, 1])
-- At (1, 2, 3) (a < b, c > 0): rows [2,1,0], [0,3,2], [5,1,1], [10,1,1].
-- At (3, 2, -1): rows [1,0,1], [0,0,-2], [0,4,0], [5,12,0].
-- ==
-- entry: jac
-- input { [1.0, 2.0, 3.0] }
-- output { [[2.0, 1.0, 0.0], [0.0, 3.0, 2.0], [5.0, 1.0, 1.0], [10.0, 1.0, 1.0]] }
-- input { [3.0, 2.0, -1.0] }
-- output { [[1.0, 0.0, 1.0], [0.0, 0.0, -2.0], [0.0, 4.0, 0.0], [5.0, 12.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [1.0, 2.0, 3.0] } output { true }
-- input { [3.0, 2.0, -1.0] } output { true }
-- input { [0.5, -0.5, 0.25] } output { true }

import "lib/jacobian"

def f (x: [3]f64) : [4]f64 =
  let (a, b, c) = (x[0], x[1], x[2])
  let s = f64.sum (if c > 0 then map (* a) [b, c] else [b * b, 1])
  in [if a < b then a * b else a + c, if a < b then b * c else c * c, s, s * a]

entry jac (x: [3]f64) : [4][3]f64 = jacobian 4 f x
entry agrees (x: [3]f64) : bool = agree 4 f x
