-- A `let`-bound partial application that consumes: each application of
-- `f` would consume `xs` again.
-- ==
-- error: U004

def set (xs: *[]i32) (i: i64) (v: i32) : *[]i32 = xs with [i] = v

def main (xs: *[]i32) : []i32 =
  let f = set xs
  in f 0 1
