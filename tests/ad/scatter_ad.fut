-- Differentiating through scatter.
-- ==
-- input { [1.0, 1.0] } output { [2.0, 3.0] [2.0, 0.0, 0.0] }

def f (xs: [2]f64) : [3]f64 =
  scatter (replicate 3 0) [0, 2] (map2 (*) xs [2, 3])

def main (xs: [2]f64) : ([2]f64, [3]f64) = (vjp f xs [1, 1, 1], jvp f xs [1, 0])
