-- Sections also work with backticked functions.
-- ==
-- input { [1, 5, 9] } output { [4, 5, 9] [1, 4, 4] }

def main (xs: []i32) : ([]i32, []i32) =
  (map (`i32.max` 4) xs, map (4 `i32.min`) xs)
