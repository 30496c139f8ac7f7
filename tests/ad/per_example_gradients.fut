-- vjp inside map: the gradient of w*x^2 with respect to x for each example.
-- ==
-- input { 3.0 [1.0, 2.0, -1.0] } output { [6.0, 12.0, -6.0] }

def main (w: f64) (xs: []f64) : []f64 = map (\x -> vjp (\y -> w * y * y) x 1) xs
