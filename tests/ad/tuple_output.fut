-- Functions with tuple results: jvp returns a tuple of tangents; vjp takes a tuple seed.
-- ==
-- input { 2.0 } output { 4.0 3.0 7.0 4.0 }

def f (x: f64) : (f64, f64) = (x * x, 3 * x)

def main (x: f64) : (f64, f64, f64, f64) =
  let (a, b) = jvp f x 1
  in (a, b, vjp f x (1, 1), vjp f x (1, 0))
