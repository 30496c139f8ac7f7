-- The gradient of a sum of squares of gathered elements: the adjoint of the
-- gathered array is an accumulator; an index out of bounds is skipped.
-- ==
-- input { [1.0, 2.0, 3.0] [0i64, 0i64, 2i64, 1i64, 0i64, 7i64] }
-- output { [6.0, 4.0, 6.0] }
-- input { [0.5, -1.0] empty([0]i64) }
-- output { [0.0, 0.0] }

def sum_squares [m] (is: []i64) (xs: [m]f64) : f64 =
  f64.sum (map (\i -> if i >= 0 && i < m then xs[i] * xs[i] else 0) is)

entry main (xs: []f64) (is: []i64) : []f64 =
  vjp (sum_squares is) xs 1.0
