-- Indexing outside an array is a run-time error naming the index and shape.
-- ==
-- input { [1, 2, 3] 2i64 } output { 3 }
-- input { [1, 2, 3] 3i64 } error: Index \[3\] out of bounds for array of shape \[3\]
-- input { [1, 2, 3] -1i64 } error: Index \[-1\] out of bounds

def main (xs: []i32) (i: i64) : i32 = xs[i]
