-- jvp is linear in the tangent.
-- ==
-- input { 2.0 3.0 } output { 36.0 }

def main (x: f64) (dx: f64) = jvp (\y -> y * y * y) x dx
