-- Gradient through a prefix sum: d/dx_i sum (scan (+) xs) = n - i.
-- ==
-- input { [5.0, -1.0, 2.0, 7.0] } output { [4.0, 3.0, 2.0, 1.0] }

def main (xs: []f64) = vjp (\ys -> f64.sum (scan (+) 0 ys)) xs 1
