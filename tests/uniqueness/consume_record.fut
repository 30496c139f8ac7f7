-- A unique array field of a record can be updated.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 42] 3 }

def main (xs: *[]i32) : ([]i32, i32) =
  let r = {arr = xs, k = 3}
  let k = r.k
  let a = r.arr with [2] = 42
  in (a, k)
