-- Reading from the original array after updating a copy is fine.
-- ==
-- input { [4, 5, 6] } output { 15 [4, 5, 0] }

def main (xs: []i32) : (i32, []i32) =
  let ys = copy xs with [2] = 0
  in (reduce (+) 0 xs, ys)
