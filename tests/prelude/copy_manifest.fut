-- copy and manifest produce fresh arrays that can be updated in place
-- without affecting the original.
-- ==
-- input { [1, 2, 3] } output { [1, 2, 3] [9, 2, 3] [1, 8, 3] }

-- ==
-- entry: copy_tuple
-- input { 5 [1.5, 2.5] } output { 5 [1.5, 2.5] }

def main (xs: []i32): ([]i32, []i32, []i32) =
  let a = copy xs
  let b = manifest xs
  in (xs, a with [0] = 9, b with [1] = 8)

entry copy_tuple (x: i32) (ys: []f64): (i32, []f64) = copy (x, ys)
