-- Float division by zero is not an error: it gives infinities or NaN.
-- ==
-- input { 1.0 0.0 } output { f64.inf true }
-- input { -1.0 0.0 } output { -f64.inf true }

def main (a: f64) (b: f64) : (f64, bool) = (a / b, f64.isnan (b / b))
