-- The fully applied variant of `err_let_partial_consumes.fut`: the `let`
-- binds an array, so consuming `xs` there is fine.
-- ==
-- input { [1, 2, 3] } output { [1, 9, 3] }

def set (xs: *[]i32) (i: i64) (v: i32) : *[]i32 = xs with [i] = v

def main (xs: *[]i32) : []i32 =
  let ys = set xs 1 9
  in ys
