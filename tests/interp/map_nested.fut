-- Nested maps over a matrix.
-- ==
-- input { [[1, 2], [3, 4]] } output { [[2, 3], [4, 5]] [3, 7] }

def main (m: [][]i32) : ([][]i32, []i32) =
  (map (map (+ 1)) m, map (reduce (+) 0) m)
