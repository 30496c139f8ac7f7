-- Hessian-vector products as jvp of vjp (forward over reverse), of
-- functions built from map, reduce, scan and for and while loops, and the
-- whole Hessian by jmp of the gradient.  Expected values by hand:
-- f at [1, 2, 3], v = [1, 0, -1]: H v = [-1, 2, -1]; v = [0.5, 1, 2]: [11, 9, 11.5].
-- g (any x of length 3), v = [1, 0, -1]: [2, 1, 0]; v = [0.5, 1, 2]: [5.5, 5, 3.5].
-- ==
-- entry: hvp_f
-- input { [1.0, 2.0, 3.0] [1.0, 0.0, -1.0] } output { [-1.0, 2.0, -1.0] }
-- input { [1.0, 2.0, 3.0] [0.5, 1.0, 2.0] } output { [11.0, 9.0, 11.5] }

-- ==
-- entry: hvp_g
-- input { [1.0, 2.0, 3.0] [1.0, 0.0, -1.0] } output { [2.0, 1.0, 0.0] }
-- input { [-4.0, 0.5, 7.0] [0.5, 1.0, 2.0] } output { [5.5, 5.0, 3.5] }

-- ==
-- entry: hessian_f
-- input { [1.0, 2.0, 3.0] } output { [[2.0, 4.0, 3.0], [4.0, 3.0, 2.0], [3.0, 2.0, 4.0]] }

-- ==
-- entry: hessian_g
-- input { [0.25, -2.0, 3.0] } output { [[3.0, 2.0, 1.0], [2.0, 2.0, 1.0], [1.0, 1.0, 1.0]] }

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

def grad (h: []f64 -> f64) (x: []f64) : []f64 = vjp h x 1

entry hvp_f [n] (x: [n]f64) (v: [n]f64) : [n]f64 = jvp (grad f) x v
entry hvp_g [n] (x: [n]f64) (v: [n]f64) : [n]f64 = jvp (grad g) x v
entry hessian_f [n] (x: [n]f64) : [n][n]f64 = jmp (grad f) x (eye n)
entry hessian_g [n] (x: [n]f64) : [n][n]f64 = jmp (grad g) x (eye n)
