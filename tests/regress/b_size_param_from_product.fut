-- Size parameters that only occur inside a compound size expression
-- (here `n*m`) are instantiated by unifying with the argument's size
-- (`k*l`), so both must be bound when the body runs.
-- ==
-- input { 2i64 3i64 } output { 2i64 3i64 [[0i32, 1i32, 2i32], [3i32, 4i32, 5i32]] }

def split_dims [n][m] (xs: [n*m]i32) : (i64, i64, [n][m]i32) =
  (n, m, unflatten xs)

def main (k: i64) (l: i64) =
  let xs = sized (k*l) (map i32.i64 (iota (k*l)))
  in split_dims xs
