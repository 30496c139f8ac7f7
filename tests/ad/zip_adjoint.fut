-- Four-way Jacobian (jvp, vjp, jmp, mjp over one-hot seeds) through maps
-- that only pass rows on: the `zip3` of `map3` (over a small array literal,
-- a mapped array and the argument itself) and a map returning its row
-- twice, unzipped. Their reverse rule passes the results' adjoints to the
-- inputs as they are; the adjoints of the literal and of `b` are then
-- updated in place.
--   a = [x0 x1, x2, x0], b = 2 x, y = a * b + x + x * x (elementwise):
--   y0 = 2 x0² x1 + x0 + x0², y1 = 2 x1 x2 + x1 + x1², y2 = 2 x0 x2 + x2 + x2²
-- At x = [0.5, -1, 2]: dy0 = [4 x0 x1 + 1 + 2 x0, 2 x0², 0] = [0, 0.5, 0],
-- dy1 = [0, 2 x2 + 1 + 2 x1, 2 x1] = [0, 3, -2],
-- dy2 = [2 x2, 0, 2 x0 + 1 + 2 x2] = [4, 0, 6].
-- ==
-- entry: jac
-- input { [0.5, -1.0, 2.0] }
-- output { [[0.0, 0.5, 0.0], [0.0, 3.0, -2.0], [4.0, 0.0, 6.0]] }

-- ==
-- entry: agrees
-- input { [0.5, -1.0, 2.0] } output { true }
-- input { [1.5, 0.25, -3.0] } output { true }

-- ==
-- entry: jac_rows
-- input { [[0.5, -1.0, 2.0], [1.0, 2.0, 3.0]] [1i64, 0i64] }
-- output { [[[11.0, 2.0, 0.0], [0.0, 11.0, 4.0], [6.0, 0.0, 9.0]],
--           [[0.0, 0.5, 0.0], [0.0, 3.0, -2.0], [4.0, 0.0, 6.0]]] }

import "lib/jacobian"

def f (x: [3]f64) : [3]f64 =
  let a = [x[0] * x[1], x[2], x[0]]
  let b = map (* 2) x
  let (u, v) = unzip (map (\p -> (p, p)) x)
  let w = map3 (\p q r -> p * q + r) a b x
  in map3 (\s c d -> s + c * d) w u v

entry jac (x: [3]f64) : [3][3]f64 = jacobian 3 f x
entry agrees (x: [3]f64) : bool = agree 3 f x

-- Rows gathered from a matrix whose rows the program states have 3
-- elements, as in ADBench's bundle adjustment: the Jacobian of `f` at
-- `xs[is[k]]` for each `k`, row by row (`vjp`) against column by column
-- (`jvp`).
entry jac_rows [m] [k] (xs: [m][3]f64) (is: [k]i64) : [k][3][3]f64 =
  map (\i -> let r = jac_vjp 3 f xs[i]
             in if close 1e-12 r (jac_jvp 3 f xs[i]) then r else map (map (const f64.nan)) r)
      is
