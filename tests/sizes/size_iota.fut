-- iota n has size n, so it can be zipped with an array of size n.
-- ==
-- input { [10, 20, 30] } output { [10, 21, 32] }

def main [n] (xs: [n]i32) : [n]i32 =
  map2 (\x i -> x + i32.i64 i) xs (iota n)
