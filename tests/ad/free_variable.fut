-- Derivative with respect to a variable that is free in a map's function.
-- ==
-- input { 2.0 [1.0, 2.0, 3.0] } output { 6.0 6.0 }

def main (w: f64) (xs: []f64) : (f64, f64) =
  let f (v: f64) = f64.sum (map (\x -> v * x) xs)
  in (jvp f w 1, vjp f w 1)
