-- An in-place update outside the array is an error.
-- ==
-- input { [1, 2, 3] 1i64 } output { [1, 0, 3] }
-- input { [1, 2, 3] 7i64 } error: out of bounds

def main (xs: *[]i32) (i: i64) : []i32 = xs with [i] = 0
