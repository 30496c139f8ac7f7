-- flatten, flatten_3d and flatten_4d.
-- ==
-- entry: f2
-- input { [[1, 2, 3], [4, 5, 6]] } output { [1, 2, 3, 4, 5, 6] }
-- input { empty([0][3]i32) } output { empty([0]i32) }
-- input { empty([2][0]i32) } output { empty([0]i32) }

-- ==
-- entry: f3
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] } output { [1, 2, 3, 4, 5, 6, 7, 8] }

-- ==
-- entry: f4
-- input { [[[[1], [2]]], [[[3], [4]]]] } output { [1, 2, 3, 4] }

-- ==
-- entry: keep_inner
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] } output { [[1, 2], [3, 4], [5, 6], [7, 8]] }

entry f2 (xss: [][]i32): []i32 = flatten xss

entry f3 (x: [][][]i32): []i32 = flatten_3d x

entry f4 (x: [][][][]i32): []i32 = flatten_4d x

entry keep_inner [n] [m] [l] (x: [n][m][l]i32): [][l]i32 = flatten x
