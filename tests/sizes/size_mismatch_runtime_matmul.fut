-- Matrix multiplication requires matching inner dimensions.
-- ==
-- input { [[1, 2]] [[3], [4]] } output { [[11]] }
-- input { [[1, 2]] [[3], [4], [5]] } error: Size mismatch|size

def matmul [n][k][m] (a: [n][k]i32) (b: [k][m]i32) : [n][m]i32 =
  map (\r -> map (\c -> reduce (+) 0 (map2 (*) r c)) (transpose b)) a

def main [n][k][p][m] (a: [n][k]i32) (b: [p][m]i32) : [n][m]i32 =
  matmul a (b :> [k][m]i32)
