-- Nested AD: second derivatives by forward-over-forward and
-- forward-over-reverse.
-- ==
-- input { 2.0 } output { 12.0 12.0 12.0 }
-- input { 0.5 } output { 3.0 3.0 3.0 }

def cube (x: f64): f64 = x * x * x

def main (x: f64): (f64, f64, f64) =
  (jvp (\y -> jvp cube y 1.0) x 1.0,
   jvp (\y -> vjp cube y 1.0) x 1.0,
   vjp (\y -> jvp cube y 1.0) x 1.0)
