-- Gradient of the sum of squares is 2x.
-- ==
-- input { [1.0, -2.0, 3.0] } output { [2.0, -4.0, 6.0] 4.0 }

def f (xs: []f64) = f64.sum (map (\x -> x * x) xs)

def main [n] (xs: [n]f64) : ([n]f64, f64) =
  (vjp f xs 1, jvp f xs (replicate n 1))
