-- jvp and vjp of an elementwise function with array output.
-- ==
-- input { [1.0, 2.0, 3.0] [1.0, 0.0, 2.0] } output { [3.0, 0.0, 54.0] [3.0, 0.0, 54.0] }

def f (xs: []f64) : []f64 = map (\x -> x * x * x) xs

def main [n] (xs: [n]f64) (v: [n]f64) : ([n]f64, [n]f64) =
  (jvp f xs v, vjp f xs v)
