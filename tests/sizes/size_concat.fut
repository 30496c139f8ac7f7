-- Concatenation has size n + m.
-- ==
-- input { [1, 2] [3, 4, 5] } output { [1, 2, 3, 4, 5] 5i64 }

def main [n][m] (xs: [n]i32) (ys: [m]i32) : ([n + m]i32, i64) =
  let zs = xs ++ ys
  in (zs, length zs)
