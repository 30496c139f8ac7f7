-- indices and tabulate.
-- ==
-- input { [7, 8, 9] } output { [0i64, 1i64, 2i64] [0, 1, 4] }

def main (xs: []i32) : ([]i64, []i32) =
  (indices xs, tabulate 3 (\i -> i32.i64 (i * i)))
