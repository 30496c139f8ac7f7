-- jvp2 and vjp2 also return the primal result.
-- ==
-- input { 2.0 } output { 8.0 12.0 8.0 12.0 }

def f (x: f64) = x * x * x

def main (x: f64) : (f64, f64, f64, f64) =
  let (a, b) = jvp2 f x 1
  let (c, d) = vjp2 f x 1
  in (a, b, c, d)
