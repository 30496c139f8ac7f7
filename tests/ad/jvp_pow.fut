-- Derivatives of ** in the base and in the exponent.
-- ==
-- input { 3.0 } output { 27.0 5.545177444479562 }

def main (x: f64) : (f64, f64) =
  (jvp (\b -> b ** 3) x 1, jvp (\e -> 2 ** e) x 1)
