-- vjp of a scalar polynomial, with different output seeds.
-- ==
-- input { 2.0 1.0 } output { 12.0 }
-- input { 2.0 2.0 } output { 24.0 }
-- input { 3.0 0.0 } output { 0.0 }

def f (x: f64) = x * x * x

def main (x: f64) (seed: f64) = vjp f x seed
