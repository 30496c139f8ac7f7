-- filter keeps elements satisfying a predicate, in order.
-- ==
-- input { [5, 2, 8, 1, 9] } output { [5, 8, 9] 3i64 }
-- input { [1, 2] } output { empty([0]i32) 0i64 }

def main (xs: []i32) : ([]i32, i64) =
  let ys = filter (> 4) xs
  in (ys, length ys)
