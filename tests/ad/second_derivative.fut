-- Nested jvp gives the second derivative: (sin x)'' = -sin x; (x^4)'' = 12x^2.
-- ==
-- input { 1.0 } output { -0.8414709848078965 12.0 }

def main (x: f64) : (f64, f64) =
  (jvp (\a -> jvp f64.sin a 1) x 1, jvp (\a -> vjp (\b -> b ** 4) a 1) x 1)
