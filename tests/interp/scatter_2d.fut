-- scatter_2d writes into a matrix at (row, column) indices.
-- ==
-- input { 2i64 3i64 } output { [[1, 0, 0], [0, 0, 2]] }

def main (n: i64) (m: i64) : [][]i32 =
  scatter_2d (replicate n (replicate m 0)) [(0, 0), (1, 2), (5, 5)] [1, 2, 3]
