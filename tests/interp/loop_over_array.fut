-- A for-in loop over the rows of a matrix.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [9, 12] }

def main [n][m] (xss: [n][m]i32) : [m]i32 =
  loop acc = replicate m 0 for row in xss do map2 (+) acc row
