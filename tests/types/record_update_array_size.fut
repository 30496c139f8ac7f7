-- A record update may give an array field an array of another size (only
-- the element type must stay).
-- ==
-- input { [1, 2] [3, 4, 5] } output { [3, 4, 5] 2i64 }

def main [n] [m] (xs: [n]i32) (ys: [m]i32) : ([m]i32, i64) =
  let r = {data = xs, count = n}
  let r' = r with data = ys
  in (r'.data, r'.count)
