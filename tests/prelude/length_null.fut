-- length and null.
-- ==
-- input { [1, 2, 3] } output { 3i64 false }
-- input { empty([0]i32) } output { 0i64 true }

-- ==
-- entry: rows
-- input { [[1, 2, 3], [4, 5, 6]] } output { 2i64 3i64 }
-- input { empty([0][4]i32) } output { 0i64 4i64 }

def main (xs: []i32): (i64, bool) = (length xs, null xs)

entry rows [n] [m] (xss: [n][m]i32): (i64, i64) = (length xss, m)
