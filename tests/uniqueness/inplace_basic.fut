-- An in-place update of a unique parameter.
-- ==
-- input { [1, 2, 3] 0i64 } output { [100, 2, 3] }
-- input { [1, 2, 3] 2i64 } output { [1, 2, 100] }

def main (xs: *[]i32) (i: i64) : *[]i32 = xs with [i] = 100
