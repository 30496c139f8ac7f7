-- `let [n] ...` binds the size of an array in a let pattern.
-- ==
-- input { [1, 2, 3, 4, 5] } output { 3i64 [3, 4, 5] }

def main (xs: []i32) : (i64, []i32) =
  let [n] (ys: [n]i32) = filter (> 2) xs
  in (n, ys)
