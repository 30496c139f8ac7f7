-- vjp through reduce with a general (non-special) operator: f = sum of x_i*y_i via a tuple reduce.
-- ==
-- input { [1.0, 2.0] [3.0, 4.0] } output { [3.0, 4.0] [1.0, 2.0] }

def f (xs: []f64, ys: []f64) : f64 =
  let (s, _) = reduce (\(a, b) (c, d) -> (a + c, b + d)) (0, 0)
                      (map2 (\x y -> (x * y, x)) xs ys)
  in s

def main [n] (xs: [n]f64) (ys: [n]f64) : ([n]f64, [n]f64) = vjp f (xs, ys) 1
