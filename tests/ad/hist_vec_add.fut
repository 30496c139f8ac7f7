-- Reverse mode of a histogram of rows with `map2 (+)`: the rule of `+`
-- (each row gets its bucket's adjoint row, none out of bounds; the
-- destination gets the result's), with no sorting.
-- ==
-- entry: grad
-- input { [1i64, 0i64, 1i64, 3i64] [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]
--         [[0.5, 1.0], [2.0, -1.0], [10.0, 20.0]] }
-- output { [[4.0, -2.0], [1.0, 2.0], [4.0, -2.0], [0.0, 0.0]]
--          [[0.5, 1.0], [2.0, -1.0], [10.0, 20.0]] }

def f [n] (is: [n]i64) (vs: [n][2]f64, d: [3][2]f64) : [3][2]f64 =
  reduce_by_index (copy d) (map2 (+)) [0, 0] is (map (map (* 2)) vs)

entry grad [n] (is: [n]i64) (vs: [n][2]f64) (s: [3][2]f64) =
  let zero = replicate 3 (replicate 2 0)
  in vjp (f is) (vs, zero) s
