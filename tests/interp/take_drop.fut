-- take, drop, head, last, tail, init.
-- ==
-- input { [1, 2, 3, 4] } output { [1, 2] [3, 4] 1 4 [2, 3, 4] [1, 2, 3] }

def main (xs: []i32) : ([]i32, []i32, i32, i32, []i32, []i32) =
  (take 2 xs, drop 2 xs, head xs, last xs, tail xs, init xs)
