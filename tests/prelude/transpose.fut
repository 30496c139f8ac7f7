-- transpose swaps the two outer dimensions.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[1, 4], [2, 5], [3, 6]] }
-- input { [[1]] } output { [[1]] }
-- input { empty([0][3]i32) } output { empty([3][0]i32) }
-- input { empty([2][0]i32) } output { empty([0][2]i32) }

-- ==
-- entry: three_d
-- input { [[[1, 2], [3, 4], [5, 6]]] } output { [[[1, 2]], [[3, 4]], [[5, 6]]] }

-- ==
-- entry: twice
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[1, 2, 3], [4, 5, 6]] }

def main [n] [m] (xss: [n][m]i32): [m][n]i32 = transpose xss

entry three_d [n] [m] [l] (x: [n][m][l]i32): [m][n][l]i32 = transpose x

entry twice [n] [m] (xss: [n][m]i32): [n][m]i32 = transpose (transpose xss)
