-- foldl and foldr apply a function sequentially from the left or the right.
-- ==
-- input { [1, 2, 3] } output { -6 2 123 }

def main (xs: []i32) : (i32, i32, i32) =
  (foldl (-) 0 xs, foldr (-) 0 xs, foldl (\acc x -> acc * 10 + x) 0 xs)
