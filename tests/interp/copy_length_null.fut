-- copy, length and null.
-- ==
-- input { [1, 2] } output { [1, 2] 2i64 false }
-- input { empty([0]i32) } output { empty([0]i32) 0i64 true }

def main (xs: []i32) : ([]i32, i64, bool) = (copy xs, length xs, null xs)
