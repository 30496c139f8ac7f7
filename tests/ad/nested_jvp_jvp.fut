-- Second derivatives by jvp of jvp (forward over forward): u^T H v as the
-- directional derivative along v of the directional derivative along u,
-- the whole Hessian from one-hot directions, and vjp of jvp (reverse over
-- forward), whose gradient of u . grad f is H u.  Same functions and
-- hand-computed values as nested_jvp_vjp.fut: for f at [1, 2, 3],
-- u = [1, 0, -1], v = [0.5, 1, 2]: H v = [11, 9, 11.5], so u^T H v = -0.5;
-- for g, H v = [5.5, 5, 3.5] and u^T H v = 2.
-- ==
-- entry: uhv_f
-- input { [1.0, 2.0, 3.0] [1.0, 0.0, -1.0] [0.5, 1.0, 2.0] } output { -0.5 }

-- ==
-- entry: uhv_g
-- input { [1.0, 2.0, 3.0] [1.0, 0.0, -1.0] [0.5, 1.0, 2.0] } output { 2.0 }

-- ==
-- entry: hessian_f
-- input { [1.0, 2.0, 3.0] } output { [[2.0, 4.0, 3.0], [4.0, 3.0, 2.0], [3.0, 2.0, 4.0]] }

-- ==
-- entry: hessian_g
-- input { [0.25, -2.0, 3.0] } output { [[3.0, 2.0, 1.0], [2.0, 2.0, 1.0], [1.0, 1.0, 1.0]] }

-- ==
-- entry: hvp_rev_fwd_f
-- input { [1.0, 2.0, 3.0] [0.5, 1.0, 2.0] } output { [11.0, 9.0, 11.5] }

-- ==
-- entry: hvp_rev_fwd_g
-- input { [1.0, 2.0, 3.0] [0.5, 1.0, 2.0] } output { [5.5, 5.0, 3.5] }

import "lib/jacobian"

-- f (x) = sum_i x_i^3 / 6 + (sum_i x_i)^2 / 2 + prod_i x_i, the sum of cubes
-- by map and reduce, the product by a for loop:
--   H_ii = x_i + 1,  H_ij = 1 + P / (x_i x_j)  (i /= j, P = prod x).
-- At x = [1, 2, 3]: H = [[2, 4, 3], [4, 3, 2], [3, 2, 4]].
def f [n] (x: [n]f64) : f64 =
  let cubes = reduce (+) 0 (map (\v -> v * v * v / 6) x)
  let s = f64.sum x
  let p = loop p = 1 for i < n do p * x[i]
  in cubes + s * s / 2 + p

-- g (x) = sum_k c_k^2 / 2 with c = scan (+) 0 x, summed by a while loop:
--   H_ij = n - max i j, whatever x.  For n = 3: [[3, 2, 1], [2, 2, 1], [1, 1, 1]].
def g [n] (x: [n]f64) : f64 =
  let c = scan (+) 0 x
  let (acc, _) = loop (acc, k) = (0, 0) while k < n do (acc + c[k] * c[k] / 2, k + 1)
  in acc

def dir (h: []f64 -> f64) (u: []f64) (x: []f64) : f64 = jvp h x u

def hessian [n] (h: [n]f64 -> f64) (x: [n]f64) : [n][n]f64 =
  tabulate n (\i -> tabulate n (\j -> jvp (\y -> jvp h y (onehot n j)) x (onehot n i)))

entry uhv_f [n] (x: [n]f64) (u: [n]f64) (v: [n]f64) : f64 = jvp (dir f u) x v
entry uhv_g [n] (x: [n]f64) (u: [n]f64) (v: [n]f64) : f64 = jvp (dir g u) x v
entry hessian_f [n] (x: [n]f64) : [n][n]f64 = hessian f x
entry hessian_g [n] (x: [n]f64) : [n][n]f64 = hessian g x
entry hvp_rev_fwd_f [n] (x: [n]f64) (v: [n]f64) : [n]f64 = vjp (dir f v) x 1
entry hvp_rev_fwd_g [n] (x: [n]f64) (v: [n]f64) : [n]f64 = vjp (dir g v) x 1
