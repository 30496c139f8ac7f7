-- `e :> t` coerces an array to a type with a different size name; checked at run time.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] }

def main [n][m] (xs: [n]i32) (ys: [m]i32) : [n]i32 =
  map2 (+) xs (ys :> [n]i32)
