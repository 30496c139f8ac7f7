-- Nested AD inside and around a map over examples: per-example gradients
-- (a vjp inside a map), differentiated again from outside by jvp and vjp,
-- and a Hessian-vector product (jvp of vjp) inside the map.  With the loss
-- g w x = sum_i (w_i x_i)^2 / 2, the per-example gradient is w ⊙ x_k^2 and
-- its derivative with respect to w along v is v ⊙ x_k^2, so for
-- w = [1, 2], xs = [[1, 2], [3, -1]]:
--   per-example gradients  [[1, 8], [9, 2]]
--   jvp of their sum along v = [1, 1]:            [10, 5]
--   vjp of their sum with cotangent u = [2, -1]:  [20, -5]
--   Hessian-vector products per example (v = [1, 1]): [[1, 4], [9, 1]]
-- ==
-- entry: per_example
-- input { [1.0, 2.0] [[1.0, 2.0], [3.0, -1.0]] } output { [[1.0, 8.0], [9.0, 2.0]] }

-- ==
-- entry: jvp_of_sum
-- input { [1.0, 2.0] [[1.0, 2.0], [3.0, -1.0]] [1.0, 1.0] } output { [10.0, 5.0] }

-- ==
-- entry: vjp_of_sum
-- input { [1.0, 2.0] [[1.0, 2.0], [3.0, -1.0]] [2.0, -1.0] } output { [20.0, -5.0] }

-- ==
-- entry: hvp_per_example
-- input { [1.0, 2.0] [[1.0, 2.0], [3.0, -1.0]] [1.0, 1.0] } output { [[1.0, 4.0], [9.0, 1.0]] }

def g [n] (w: [n]f64) (x: [n]f64) : f64 =
  f64.sum (map2 (\a b -> (a * b) * (a * b) / 2) w x)

def per_example_grads [k] [n] (xs: [k][n]f64) (w: [n]f64) : [k][n]f64 =
  map (\x -> vjp (\w' -> g w' x) w 1) xs

def summed [k] [n] (xs: [k][n]f64) (w: [n]f64) : [n]f64 =
  map f64.sum (transpose (per_example_grads xs w))

entry per_example [k] [n] (w: [n]f64) (xs: [k][n]f64) : [k][n]f64 = per_example_grads xs w
entry jvp_of_sum [k] [n] (w: [n]f64) (xs: [k][n]f64) (v: [n]f64) : [n]f64 = jvp (summed xs) w v
entry vjp_of_sum [k] [n] (w: [n]f64) (xs: [k][n]f64) (u: [n]f64) : [n]f64 = vjp (summed xs) w u

entry hvp_per_example [k] [n] (w: [n]f64) (xs: [k][n]f64) (v: [n]f64) : [k][n]f64 =
  map (\x -> jvp (\w' -> vjp (\w'' -> g w'' x) w' 1) w v) xs
