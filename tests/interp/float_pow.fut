-- Float exponentiation.
-- ==
-- input { 2.0 0.5 } output { 1.4142135623730951 0.25 8.0f32 }

def main (a: f64) (b: f64) : (f64, f64, f32) = (a ** b, b ** a, 2f32 ** 3)
