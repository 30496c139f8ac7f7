-- A size coercion with different sizes fails at run time.
-- ==
-- input { [1, 2, 3] } output { [2, 4, 6] }
-- input { [1, -2, 3] } error: Size mismatch|size

def main [n] (xs: [n]i32) : [n]i32 =
  let ys = filter (> 0) xs
  in map2 (+) xs (ys :> [n]i32)
