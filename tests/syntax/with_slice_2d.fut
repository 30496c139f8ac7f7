-- Updating a column of a matrix through a slice.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[1, 0, 3], [4, 0, 6]] }

def main [n][m] (xss: [n][m]i32) : [n][m]i32 =
  copy xss with [:, 1] = replicate n 0
