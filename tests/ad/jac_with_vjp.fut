-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) of a function
-- with a custom derivative (`with_vjp`): reverse mode (vjp, mjp) uses the
-- hand-written pullback, forward mode (jvp, jmp) differentiates the
-- function itself, so the four agree only if the pullback is right.  The
-- custom block is a softplus-weighted sum inside a map over rows:
--   h (u, w) = log (1 + exp u) * w, pullback dy -> (sigmoid u * w dy, log (1 + exp u) dy)
-- y[i] = h (x[i], x[n-1-i]) + x[i].  A second entry gives a deliberately
-- wrong pullback (twice the right one) and checks that the comparison
-- notices (expected `false`).
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.5, 2.0] }
-- output { [[2.244918662403709, 0.0, 0.9740769841801067],
--           [0.0, 0.9277749922732179, 0.0],
--           [2.1269280110429727, 0.0, 1.440398538988941]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.5, 2.0] } output { true }
-- input { [3.0, 0.25] } output { true }
-- input { [1.0, 2.0, -3.0, 4.0] } output { true }

-- ==
-- entry: wrong_pullback_detected
-- input { [0.5, -1.5, 2.0] } output { false }

import "lib/jacobian"

def softplus (u: f64) = f64.log1p (f64.exp u)
def sigmoid (u: f64) = 1 / (1 + f64.exp (-u))

def h (scale: f64) ((u, w): (f64, f64)) : f64 =
  with_vjp (\(u', w') -> softplus u' * w')
           (\_ dy -> (scale * sigmoid u * w * dy, scale * softplus u * dy))
           (u, w)

def fs [n] (scale: f64) (x: [n]f64) : [n]f64 =
  map2 (\u w -> h scale (u, w) + u) x (reverse x)

def f [n] (x: [n]f64) : [n]f64 = fs 1 x

entry jac [n] (x: [n]f64) : [n][n]f64 = jacobian n f x
entry agrees [n] (x: [n]f64) : bool = agree n f x
entry wrong_pullback_detected [n] (x: [n]f64) : bool = agree n (fs 2) x
