-- Module-qualified reductions: sum, product, maximum, minimum.
-- ==
-- input { [3, -1, 4] [1.5, 2.0] } output { 6 -12 4 -1 3.5 3.0 }

def main (xs: []i32) (ys: []f64) : (i32, i32, i32, i32, f64, f64) =
  (i32.sum xs, i32.product xs, i32.maximum xs, i32.minimum xs, f64.sum ys, f64.product ys)
