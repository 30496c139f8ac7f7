-- An entry point whose parameters share a size rejects inputs of different sizes.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [4, 10, 18] }
-- input { [1, 2, 3] [4, 5] } error: [Ss]ize|shape

def main [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (*) xs ys
