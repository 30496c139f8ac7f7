-- Two size parameters are different sizes.
-- ==
-- error: S001

def f [n] (xs: [n]i32) = \(ys: [n]i32) -> (xs, ys)

def main [n] [m] (xs: [n]i32) (ys: [m]i32) = f xs ys
