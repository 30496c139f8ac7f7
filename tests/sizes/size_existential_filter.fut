-- filter returns an array of existential size.
-- ==
-- input { [1, -2, 3, -4, 5] } output { [1, 3, 5] 3i64 }

def positives (xs: []i32) : []i32 = filter (> 0) xs

def main (xs: []i32) : ([]i32, i64) =
  let ys = positives xs
  in (ys, length ys)
