-- Slices with start, end and both.
-- ==
-- input { [1, 2, 3, 4, 5] } output { [2, 3, 4, 5] [1, 2] [3, 4] [1, 2, 3, 4, 5] }

def main (xs: []i32) : ([]i32, []i32, []i32, []i32) =
  (xs[1:], xs[:2], xs[2:4], xs[:])
