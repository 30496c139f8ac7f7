-- Out-of-bounds indexing of a matrix names the full index and shape.
-- ==
-- input { [[1, 2], [3, 4], [5, 6]] 2i64 1i64 } output { 6 }
-- input { [[1, 2], [3, 4], [5, 6]] 1i64 2i64 } error: Index \[1, 2\] out of bounds for array of shape \[3\]\[2\]

def main (xss: [][]i32) (i: i64) (j: i64) : i32 = xss[i, j]
