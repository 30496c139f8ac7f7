-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) through type
-- conversions and piecewise-constant functions: a round trip through f32
-- (the derivative passes through the conversions), floor, round, trunc and
-- sgn (zero derivative), and f64.bool of a comparison used as
-- a weight.  (A round trip through an integer type is left out: integers
-- carry derivatives, as in Futhark, and reverse mode truncates an adjoint
-- that passes through one, so jvp and vjp may differ there.)
--   y = [f64.f32 (f32.f64 a * f32.f64 b), floor a * b, trunc b * a + sgn a * b,
--        f64.bool (a < b) * a * a + f64.round b * b]
-- The first row is [b, a] rounded to f32 (the inputs are exact in f32);
-- central finite differences are too coarse in f32 to check it.  The other
-- rows agree with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, 2.25] }
-- output { [[2.25, 0.5], [0.0, 0.0], [2.0, 1.0], [1.0, 2.0]] }

-- ==
-- entry: agrees
-- input { [0.5, 2.25] } output { true }
-- input { [-1.5, -2.75] } output { true }
-- input { [3.5, 1.0] } output { true }

import "lib/jacobian"

def f (x: [2]f64) : [4]f64 =
  let (a, b) = (x[0], x[1])
  in [ f64.f32 (f32.f64 a * f32.f64 b), f64.floor a * b, f64.trunc b * a + f64.sgn a * b
     , f64.bool (a < b) * a * a + f64.round b * b ]

entry jac (x: [2]f64) : [4][2]f64 = jacobian 4 f x
entry agrees (x: [2]f64) : bool = agree 4 f x
