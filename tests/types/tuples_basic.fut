-- Tuples as values, parameters and results; arrays of tuples via zip/unzip.
-- ==
-- input { [1, 2, 3] [4, 5, 6] } output { [5, 7, 9] [-3, -3, -3] }

def main (xs: []i32) (ys: []i32) : ([]i32, []i32) =
  let ps = zip xs ys
  in unzip (map (\(a, b) -> (a + b, a - b)) ps)
