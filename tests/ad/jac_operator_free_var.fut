-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of reduce,
-- scan and reduce_by_index whose operator closes over an input value
-- c = x[0]: a ⊕ b = a + b + c a b (associative and commutative, neutral 0;
-- 1 + c (a ⊕ b) = (1 + c a)(1 + c b)).  The derivative with respect to x[0]
-- includes the operator's dependence on c.
--   y = [reduce (⊕) 0 x] ++ scan (⊕) 0 x ++ reduce_by_index into 2 bins (i % 2)
-- Regression: vjp and mjp once gave the free variable of a general
-- operator no adjoint, so column 0 missed the operator's part; the
-- smallest program was
--   def main (c: f64) (xs: []f64) =
--     vjp (\c -> reduce (\a b -> a + b + c * a * b) 0 xs) c 1
-- on 0.5 [1, 2], which gave 0 instead of 2.
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0] }
-- output { [[-3.75, 2.5, 0.3125],
--           [1.0, 0.0, 0.0],
--           [-0.5, 1.25, 0.0],
--           [-3.75, 2.5, 0.3125],
--           [3.0, 0.0, 1.25],
--           [0.0, 1.0, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0] } output { true }
-- input { [1.5] } output { true }
-- input { [1.0, 2.0, 3.0, -1.0] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [1 + n + 2]f64 =
  let c = x[0]
  let op a b = a + b + c * a * b
  let r = reduce op 0 x
  let s = scan op 0 x
  let h = reduce_by_index (replicate 2 0) op 0 (map (% 2) (iota n)) x
  in ([r] ++ s ++ h) :> [1 + n + 2]f64

entry jac [n] (x: [n]f64) : [1 + n + 2][n]f64 = jacobian (1 + n + 2) f x
entry agrees [n] (x: [n]f64) : bool = agree (1 + n + 2) f x
