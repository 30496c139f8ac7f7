-- Size parameters of a matrix.
-- ==
-- input { [[1, 2, 3], [4, 5, 6]] } output { 2i64 3i64 6i64 }

def main [n][m] (xss: [n][m]i32) : (i64, i64, i64) = (n, m, n * m)
