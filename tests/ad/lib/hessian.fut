-- Whole Hessians of a function `[n]f64 -> f64`, built four ways by nesting
-- the AD operators, and a comparison of the four.  A library for the
-- `tests/ad` programs: it has no test block.

import "jacobian"

-- | The gradient of `f` at `x`, by `vjp`.
def grad [n] (f: [n]f64 -> f64) (x: [n]f64) : [n]f64 = vjp f x 1

-- | Forward over reverse: `jvp` of the gradient along each unit vector
-- gives the Hessian's columns.
def hess_jvp_vjp [n] (f: [n]f64 -> f64) (x: [n]f64) : [n][n]f64 =
  transpose (map (\j -> jvp (grad f) x (onehot n j)) (iota n))

-- | Reverse over reverse: `vjp` of the gradient with each unit cotangent
-- gives the Hessian's rows.
def hess_vjp_vjp [n] (f: [n]f64 -> f64) (x: [n]f64) : [n][n]f64 =
  map (\i -> vjp (grad f) x (onehot n i)) (iota n)

-- | Forward over forward: entry (i, j) is the derivative along unit vector
-- i of the derivative along unit vector j.
def hess_jvp_jvp [n] (f: [n]f64 -> f64) (x: [n]f64) : [n][n]f64 =
  tabulate n (\i -> tabulate n (\j -> jvp (\y -> jvp f y (onehot n j)) x (onehot n i)))

-- | Reverse over forward: the gradient of the derivative along unit
-- vector j is the Hessian's column j.
def hess_vjp_jvp [n] (f: [n]f64 -> f64) (x: [n]f64) : [n][n]f64 =
  transpose (map (\j -> vjp (\y -> jvp f y (onehot n j)) x 1) (iota n))

-- | Whether the four Hessians of `f` at `x` agree within `1e-10`.
def hessians_agree [n] (f: [n]f64 -> f64) (x: [n]f64) : bool =
  let h = hess_jvp_vjp f x
  in close 1e-10 h (hess_vjp_vjp f x)
     && close 1e-10 h (hess_jvp_jvp f x)
     && close 1e-10 h (hess_vjp_jvp f x)
