-- Size expressions in types: flattening gives [n*m].
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] } output { [1, 2, 3, 4, 5, 6] 6i64 }

def flat [n][m] (xss: [n][m]i32) : [n * m]i32 = flatten xss

def main [n][m] (xss: [n][m]i32) : ([]i32, i64) =
  let ys = flat xss
  in (ys, length ys)
