-- Sizes in lambda parameter annotations.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [3, 7, 11] }

def main [n][m] (xss: [n][m]i32) : [n]i32 =
  map (\(row: [m]i32) -> reduce (+) 0 row) xss
