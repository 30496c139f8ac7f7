-- Gradient of a product: d/dx_i prod x = prod_{j != i} x_j.
-- ==
-- input { [1.0, 2.0, 3.0, 4.0] } output { [24.0, 12.0, 8.0, 6.0] }
-- input { [2.0, 0.0, 5.0] } output { [0.0, 10.0, 0.0] }

def main (xs: []f64) = vjp (\ys -> reduce (*) 1 ys) xs 1
