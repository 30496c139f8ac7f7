-- Size parameters on a definition are inferred from the arguments.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { 32 3i64 }

def dot [n] (xs: [n]i32) (ys: [n]i32) : i32 = reduce (+) 0 (map2 (*) xs ys)

def main [n] (xs: [n]i32) (ys: [n]i32) : (i32, i64) = (dot xs ys, n)
