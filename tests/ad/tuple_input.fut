-- Gradient of a function of a pair: f (x, y) = x*y + y^2.
-- ==
-- input { 3.0 2.0 } output { 2.0 7.0 2.0 7.0 }

def f (x: f64, y: f64) = x * y + y * y

def main (x: f64) (y: f64) : (f64, f64, f64, f64) =
  let (gx, gy) = vjp f (x, y) 1
  in (gx, gy, jvp f (x, y) (1, 0), jvp f (x, y) (0, 1))
