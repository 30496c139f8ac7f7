-- Gradient through a prefix product: f = sum (scan (*) xs) with xs = [a, b, c]
-- is a + ab + abc, so the gradient is [1 + b + bc, a + ac, ab].
-- ==
-- input { [2.0, 3.0, 4.0] } output { [16.0, 10.0, 6.0] 32.0 }

def f (xs: []f64) = f64.sum (scan (*) 1 xs)

def main [n] (xs: [n]f64) : ([n]f64, f64) = (vjp f xs 1, jvp f xs (replicate n 1))
