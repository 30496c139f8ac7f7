-- A loop updating an array: gradient of a repeated scaling.
-- ==
-- input { [1.0, 2.0] 2.0 } output { [4.0, 4.0] 12.0 }

def f [n] (xs: [n]f64, k: f64) : f64 =
  let ys = loop ys = xs for _i < 2 do map (* k) ys
  in f64.sum ys

def main [n] (xs: [n]f64) (k: f64) : ([n]f64, f64) = vjp f (xs, k) 1
