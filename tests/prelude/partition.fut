-- partition and partition2 keep the relative order within each part.
-- ==
-- entry: part
-- input { [1, 2, 3, 4, 5, 6, 7] } output { [3, 6] [1, 2, 4, 5, 7] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) }
-- input { [3, 9] } output { [3, 9] empty([0]i32) }

-- ==
-- entry: part2
-- input { [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] } output { [3, 6, 9] [2, 4, 8, 10] [1, 5, 7] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) empty([0]i32) }
-- input { [7, 5] } output { empty([0]i32) empty([0]i32) [7, 5] }

entry part (xs: []i32): ([]i32, []i32) = partition (\x -> x % 3 == 0) xs

entry part2 (xs: []i32): ([]i32, []i32, []i32) =
  partition2 (\x -> x % 3 == 0) (\x -> x % 2 == 0) xs
