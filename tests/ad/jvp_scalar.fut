-- jvp of a scalar polynomial: f x = x^3, f' x = 3x^2.
-- ==
-- input { 2.0 } output { 12.0 }
-- input { -1.0 } output { 3.0 }
-- input { 0.0 } output { 0.0 }

def f (x: f64) = x * x * x

def main (x: f64) = jvp f x 1
