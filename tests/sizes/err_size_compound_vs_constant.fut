-- A compound size of size parameters is known exactly: `n + m` is not `10`.
-- ==
-- error: S001

def main [n] [m] (xs: [n]i32) (ys: [m]i32) : [10]i32 = xs ++ ys
