-- The gradient of the maximum is one at the maximal element.
-- ==
-- input { [1.0, 5.0, 3.0] } output { [0.0, 1.0, 0.0] }

def main (xs: []f64) = vjp (\ys -> reduce f64.max (-f64.inf) ys) xs 1
