-- copy makes a fresh unique array that may be updated while the original is still used.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] [0, 2, 3] }

def main (xs: []i32) : ([]i32, []i32) =
  let ys = copy xs
  let ys[0] = 0
  in (xs, ys)
