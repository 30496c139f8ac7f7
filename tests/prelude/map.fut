-- map and map1 on scalars, tuples and nested arrays.
-- ==
-- entry: plus_one
-- input { [1, 2, 3] } output { [2, 3, 4] }
-- input { empty([0]i32) } output { empty([0]i32) }
-- input { [-1, 0, 2147483647] } output { [0, 1, -2147483648] }

-- ==
-- entry: row_sums
-- input { [[1, 2], [3, 4], [5, 6]] } output { [3, 7, 11] }
-- input { empty([0][2]i32) } output { empty([0]i32) }

-- ==
-- entry: map1_pairs
-- input { [1i64, 2i64, 3i64] } output { [1i64, 4i64, 9i64] [false, true, false] }

entry plus_one (xs: []i32): []i32 = map (\x -> x + 1) xs

entry row_sums (xss: [][]i32): []i32 = map (\row -> reduce (+) 0 row) xss

entry map1_pairs (xs: []i64): ([]i64, []bool) =
  unzip (map1 (\x -> (x * x, x % 2 == 0)) xs)
