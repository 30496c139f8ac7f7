-- foldl and foldr are sequential folds with the documented order.
-- ==
-- input { [1, 2, 3] } output { -6 2 }
-- input { empty([0]i32) } output { 0 0 }

-- ==
-- entry: digits
-- input { [1i64, 2i64, 3i64] } output { 123i64 321i64 }

def main (xs: []i32): (i32, i32) =
  (foldl (-) 0 xs, foldr (-) 0 xs)

entry digits (xs: []i64): (i64, i64) =
  (foldl (\acc d -> acc * 10 + d) 0 xs, foldr (\d acc -> acc * 10 + d) 0 xs)
