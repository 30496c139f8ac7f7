-- A right section (- y) supplies the right operand.
-- ==
-- input { [10, 20, 30] } output { [7, 17, 27] [5, 10, 15] [false, true, true] }

def main (xs: []i32) : ([]i32, []i32, []bool) =
  (map (+ (-3)) xs, map (/ 2) xs, map (>= 20) xs)
