-- take and drop, at and beyond the bounds.
-- ==
-- input { 2i64 [1, 2, 3, 4] } output { [1, 2] [3, 4] }
-- input { 0i64 [1, 2] } output { empty([0]i32) [1, 2] }
-- input { 2i64 [1, 2] } output { [1, 2] empty([0]i32) }
-- input { 0i64 empty([0]i32) } output { empty([0]i32) empty([0]i32) }
-- input { 3i64 [1, 2] } error: Invalid slice
-- input { -1i64 [1, 2] } error: Invalid slice

def main (i: i64) (xs: []i32): ([]i32, []i32) = (take i xs, drop i xs)
