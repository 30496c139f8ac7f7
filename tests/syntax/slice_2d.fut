-- Slicing matrices: columns, rows and sub-matrices.
-- ==
-- input { [[1, 2, 3], [4, 5, 6], [7, 8, 9]] }
-- output { [1, 4, 7] [[4, 5, 6], [7, 8, 9]] [[5, 6], [8, 9]] [3, 6, 9] }

def main (m: [][]i32) : ([]i32, [][]i32, [][]i32, []i32) =
  (m[:, 0], m[1:], m[1:, 1:], m[:, 2])
