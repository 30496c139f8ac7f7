-- flatten and unflatten between a matrix and a vector.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [1, 2, 3, 4, 5, 6] [[1, 2], [3, 4], [5, 6]] }

def main [n][k] (xss: [n][k]i32) : ([]i32, [][]i32) =
  let flat = flatten xss
  let m: [3][2]i32 = unflatten (flat :> [3 * 2]i32)
  in (flat, m)
