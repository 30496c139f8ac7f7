-- Derivatives of elementary functions: d/dx sin x * exp x = (cos x + sin x) exp x.
-- ==
-- input { 0.5 } output { 2.2373281197977843 2.2373281197977843 }

def f (x: f64) = f64.sin x * f64.exp x

def main (x: f64) : (f64, f64) = (jvp f x 1, vjp f x 1)
