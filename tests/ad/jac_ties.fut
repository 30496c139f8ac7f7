-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of min and max
-- at ties, where the function is not differentiable and a convention is
-- needed: the derivative goes to exactly one of the tied elements, the
-- first (lowest index, or the left operand), in every mode.  Covered:
-- reduce with f64.max and f64.min, binary f64.max/f64.min, and hist with
-- max and min (bin i % 2).  With all four inputs equal, each row has a
-- single 1: in column 0, except the min-histogram of bin 1 (column 1).
-- With x = [3, 1, 3, 1], max ties between 0 and 2, min between 1 and 3.
-- ==
-- entry: jac
-- input { [2.0, 2.0, 2.0, 2.0] }
-- output { [[1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0],
--           [1.0, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]] }
-- input { [3.0, 1.0, 3.0, 1.0] }
-- output { [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0],
--           [0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [2.0, 2.0, 2.0, 2.0] } output { true }
-- input { [3.0, 1.0, 3.0, 1.0] } output { true }
-- input { [0.0, -0.0, 5.0, 5.0, 0.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [6]f64 =
  let is = map (% 2) (iota n)
  in [ reduce f64.max (-f64.inf) x, reduce f64.min f64.inf x
     , f64.max x[0] x[1], f64.min x[0] x[1]
     , (hist f64.max (-f64.inf) 2 is x)[0], (hist f64.min f64.inf 2 is x)[1] ]

entry jac [n] (x: [n]f64) : [6][n]f64 = jacobian 6 f x
entry agrees [n] (x: [n]f64) : bool = agree 6 f x
