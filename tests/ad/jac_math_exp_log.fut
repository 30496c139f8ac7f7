-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of the
-- exponential and logarithmic functions: exp, log, log2, log10, log1p,
-- sqrt, cbrt, and ** with a constant exponent.  At x = (a, b) = (0.5, 2):
--   exp(a) b   -> [exp(a) b, exp(a)]       log(a b)   -> [1/a, 1/b]
--   log2 b     -> [0, 1/(b ln 2)]          log10 a    -> [1/(a ln 10), 0]
--   log1p(a b) -> [b, a] / (1 + a b)       sqrt(a b)  -> [b, a] / (2 sqrt(a b))
--   cbrt(b)    -> [0, b^(-2/3) / 3]        a ** 3.0   -> [3 a^2, 0]
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, 2.0] }
-- output { [[3.2974425414002564, 1.6487212707001282],
--           [2.0, 0.5],
--           [0.0, 0.7213475204444817],
--           [0.8685889638065035, 0.0],
--           [1.0, 0.25],
--           [1.0, 0.25],
--           [0.0, 0.2099868416491455],
--           [0.75, 0.0]] }

-- ==
-- entry: agrees
-- input { [0.5, 2.0] } output { true }
-- input { [3.0, 0.25] } output { true }
-- input { [1.5, 7.0] } output { true }

import "lib/jacobian"

def f (x: [2]f64) : [8]f64 =
  let (a, b) = (x[0], x[1])
  in [ f64.exp a * b, f64.log (a * b), f64.log2 b, f64.log10 a
     , f64.log1p (a * b), f64.sqrt (a * b), f64.cbrt b, a ** 3.0 ]

entry jac (x: [2]f64) : [8][2]f64 = jacobian 8 f x
entry agrees (x: [2]f64) : bool = agree 8 f x
