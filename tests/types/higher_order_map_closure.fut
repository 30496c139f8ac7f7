-- map with a closure capturing arrays.
-- ==
-- input { [10, 20, 30] [2, 0, 1] } output { [30, 10, 20] }

def main (xs: []i32) (is: []i32) : []i32 =
  let is = map i64.i32 is
  in map (\i -> xs[i]) is
