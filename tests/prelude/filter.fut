-- filter keeps the elements satisfying a predicate, in order.
-- ==
-- entry: evens
-- input { [1, 2, 3, 4, 5, 6] } output { [2, 4, 6] }
-- input { [1, 3, 5] } output { empty([0]i32) }
-- input { empty([0]i32) } output { empty([0]i32) }
-- input { [-2, 0, 2] } output { [-2, 0, 2] }

-- ==
-- entry: long_rows
-- input { [[1, 2], [3, 4], [5, 6]] } output { [[3, 4], [5, 6]] }

entry evens (xs: []i32): []i32 = filter (\x -> x % 2 == 0) xs

entry long_rows (xss: [][]i32): [][]i32 = filter (\r -> r[0] > 2) xss
