-- Reverse mode through values that the differentiated function computes
-- from free variables only (data it gathers or transforms, as ADBench's
-- Hand gathers the skinning weights of its vertices): they do not depend
-- on the parameters, so reverse mode computes no adjoint for them, in a
-- map's rows, a loop's parameters and an `if`'s results. Each Jacobian is
-- built by jvp over one-hot tangents and by vjp over one-hot seeds, and
-- compared with the values worked out by hand.
--
-- weighted: with ws = 2·data[is] (data (1, 2, 3), is (2, 0, 1): ws =
-- (6, 2, 4)), ys[j] = ws[j]·x[j]² + Σ x · c, where c sums ws in a loop and
-- doubles it when the first weight exceeds 5 (c = 24). From x = (1, 2, 3):
-- ys = (6 + 144, 8 + 144, 36 + 144) and ∂ys[j]/∂x[k] = 2 ws[j] x[j] δjk + 24.
-- ==
-- entry: weighted_jacobians
-- input { [1.0, 2.0, 3.0] [2i64, 0i64, 1i64] [1.0, 2.0, 3.0] }
-- output { [150.0, 152.0, 180.0]
--          [[36.0, 24.0, 24.0], [24.0, 32.0, 24.0], [24.0, 24.0, 48.0]]
--          [[36.0, 24.0, 24.0], [24.0, 32.0, 24.0], [24.0, 24.0, 48.0]] }

-- weighted_sum: the gradient of Σ ys by one vjp: the column sums of the
-- Jacobian above.
-- ==
-- entry: weighted_sum_gradient
-- input { [1.0, 2.0, 3.0] [2i64, 0i64, 1i64] [1.0, 2.0, 3.0] }
-- output { [84.0, 80.0, 96.0] }

def weighted [n] (data: [n]f64) (is: [n]i64) (x: [n]f64) : [n]f64 =
  let ws = map (\i -> 2 * data[i]) is
  let total = loop c = 0 for j < n do c + ws[j]
  let c = if ws[0] > 5 then 2 * total else total
  let s = f64.sum x * c
  in map2 (\w xj -> w * xj * xj + s) ws x

def onehot (n: i64) (i: i64) : [n]f64 = tabulate n (\j -> if i == j then 1 else 0)

entry weighted_jacobians [n] (data: [n]f64) (is: [n]i64) (v: [n]f64)
    : ([n]f64, [n][n]f64, [n][n]f64) =
  let f = weighted data is
  let cols = map (\i -> jvp f v (onehot n i)) (iota n)
  let rows = map (\i -> vjp f v (onehot n i)) (iota n)
  in (f v, transpose cols, rows)

entry weighted_sum_gradient [n] (data: [n]f64) (is: [n]i64) (v: [n]f64) : [n]f64 =
  vjp (\x -> f64.sum (weighted data is x)) v 1
