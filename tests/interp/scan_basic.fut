-- scan computes inclusive prefix results.
-- ==
-- input { [1, 2, 3, 4] } output { [1, 3, 6, 10] [1, 2, 6, 24] [1, 2, 3, 4] }
-- input { empty([0]i32) } output { empty([0]i32) empty([0]i32) empty([0]i32) }

def main (xs: []i32) : ([]i32, []i32, []i32) =
  (scan (+) 0 xs, scan (*) 1 xs, scan i32.max i32.lowest xs)
