-- A slice outside the array is an error.
-- ==
-- input { [1, 2, 3] 1i64 3i64 } output { [2, 3] }
-- input { [1, 2, 3] 2i64 5i64 } error: Invalid slice|out of bounds

def main (xs: []i32) (i: i64) (j: i64) : []i32 = xs[i:j]
