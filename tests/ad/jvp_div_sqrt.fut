-- Derivatives through division and sqrt: d/dx sqrt x / x = -1 / (2 x^1.5).
-- ==
-- input { 4.0 } output { -0.0625 -0.0625 }

def f (x: f64) = f64.sqrt x / x

def main (x: f64) : (f64, f64) = (jvp f x 1, vjp f x 1)
