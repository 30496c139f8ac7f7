-- Indexing one- and two-dimensional arrays, partially and fully.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 2i64 } output { 6 [4, 5, 6] 3 }

def main (xss: [][]i32) (i: i64) (j: i64) : (i32, []i32, i32) =
  (xss[i, j], xss[i], xss[0][j])
