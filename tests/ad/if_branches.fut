-- Derivatives follow the branch taken.
-- ==
-- input { 3.0 } output { 6.0 6.0 }
-- input { -2.0 } output { -1.0 -1.0 }

def f (x: f64) = if x > 0 then x * x else -x

def main (x: f64) : (f64, f64) = (jvp f x 1, vjp f x 1)
