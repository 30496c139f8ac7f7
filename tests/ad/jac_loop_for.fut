-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) through `for`
-- loops: a scalar loop whose carried value depends on every element read by
-- index (a Horner evaluation, y0 = sum_i x[i] t^(n-1-i) with t = x[0]), and
-- an array loop that updates the whole array each iteration
-- (y <- map (\v -> v * v * 0.5 + v) y, three times, then y[i] * x[n-1]).
-- The expected Jacobian agrees with central finite differences (h = 1e-6).
-- ==
-- entry: jac
-- input { [0.5, -1.0, 0.25] }
-- output { [[-0.25, 0.5, 1.0],
--           [1.1092529296875, 0.0, 1.156768798828125],
--           [0.0, 0.0, -0.3046875],
--           [0.0, 0.0, 0.901093602180481]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.0, 0.25] } output { true }
-- input { [1.5] } output { true }
-- input { [0.1, 0.2, -0.3, 0.4, 0.5] } output { true }

import "lib/jacobian"

def f [n] (x: [n]f64) : [n + 1]f64 =
  let t = x[0]
  let horner = loop acc = 0 for i < n do acc * t + x[i]
  let ys = loop y = copy x for _k < 3 do map (\v -> v * v * 0.5 + v) y
  in [horner] ++ map (* x[n - 1]) ys

entry jac [n] (x: [n]f64) : [n + 1][n]f64 = jacobian (n + 1) f x
entry agrees [n] (x: [n]f64) : bool = agree (n + 1) f x
