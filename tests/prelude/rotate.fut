-- rotate r xs: element i of the result is xs[(i + r) mod n].
-- ==
-- input { 1i64 [1, 2, 3, 4, 5] } output { [2, 3, 4, 5, 1] }
-- input { -1i64 [1, 2, 3, 4, 5] } output { [5, 1, 2, 3, 4] }
-- input { 0i64 [1, 2, 3] } output { [1, 2, 3] }
-- input { 7i64 [1, 2, 3, 4, 5] } output { [3, 4, 5, 1, 2] }
-- input { -12i64 [1, 2, 3, 4, 5] } output { [4, 5, 1, 2, 3] }
-- input { 5i64 [1, 2, 3, 4, 5] } output { [1, 2, 3, 4, 5] }
-- input { 3i64 empty([0]i32) } output { empty([0]i32) }

-- ==
-- entry: inner
-- input { [[1, 2, 3], [4, 5, 6]] } output { [[3, 1, 2], [6, 4, 5]] }

def main (r: i64) (xs: []i32): []i32 = rotate r xs

entry inner (xss: [][]i32): [][]i32 = map (rotate (-1)) xss
