-- The adjoint of indexing is a one-hot update.
-- ==
-- input { [1.0, 2.0, 3.0, 4.0] } output { [0.0, 3.0, 2.0, 0.0] 5.0 }

def f (xs: []f64) = xs[1] * xs[2]

def main [n] (xs: [n]f64) : ([n]f64, f64) = (vjp f xs 1, jvp f xs (replicate n 1))
