-- `let a[i] = v` is shorthand for `let a = a with [i] = v`.
-- ==
-- input { [1, 2, 3] 1i64 } output { [1, 42, 3] }
-- input { [1, 2, 3] 2i64 } output { [1, 2, 42] }

def main (xs: *[]i32) (i: i64) : []i32 =
  let xs[i] = 42
  in xs
