-- Zipping arrays of different run-time sizes (after coercion) is an error.
-- ==
-- input { [1, 2] [3, 4] } output { [4, 6] }
-- input { [1, 2] [3, 4, 5] } error: Size mismatch|size

def main [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 =
  map2 (+) xs (ys :> [n]i32)
