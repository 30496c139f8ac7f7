-- unflatten, unflatten_3d and unflatten_4d take their sizes from the
-- argument type; a wrong size coercion fails at run time.
-- ==
-- entry: u2
-- input { 2i64 3i64 [1, 2, 3, 4, 5, 6] } output { [[1, 2, 3], [4, 5, 6]] }
-- input { 3i64 2i64 [1, 2, 3, 4, 5, 6] } output { [[1, 2], [3, 4], [5, 6]] }
-- input { 0i64 4i64 empty([0]i32) } output { empty([0][4]i32) }
-- input { 4i64 2i64 [1, 2, 3, 4, 5, 6] } error: Size mismatch|Invalid reshape

-- ==
-- entry: u3
-- input { [1, 2, 3, 4, 5, 6, 7, 8] } output { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] }

-- ==
-- entry: u4
-- input { [1, 2, 3, 4] } output { [[[[1], [2]]], [[[3], [4]]]] }

-- ==
-- entry: roundtrip
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[1, 2], [3, 4], [5, 6]] }

entry u2 [p] (n: i64) (m: i64) (xs: [p]i32): [n][m]i32 = unflatten (xs :> [n * m]i32)

entry u3 [p] (xs: [p]i32): [2][2][2]i32 = unflatten_3d (xs :> [2 * 2 * 2]i32)

entry u4 [p] (xs: [p]i32): [2][1][2][1]i32 = unflatten_4d (xs :> [2 * 1 * 2 * 1]i32)

entry roundtrip [n] [m] (xss: [n][m]i32): [n][m]i32 = unflatten (flatten xss)
