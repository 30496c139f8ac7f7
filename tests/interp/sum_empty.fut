-- Reductions of empty arrays give neutral elements.
-- ==
-- input { empty([0]f64) } output { 0.0 1.0 -f64.inf f64.inf }

def main (xs: []f64) : (f64, f64, f64, f64) =
  (f64.sum xs, f64.product xs, f64.maximum xs, f64.minimum xs)
