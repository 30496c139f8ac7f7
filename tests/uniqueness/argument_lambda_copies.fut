-- The accepted variant of `err_argument_partial_consumes.fut`: the function
-- passed to `map` consumes a fresh copy on each application.
-- ==
-- input { [1, 2, 3] [7, 8] } output { [[7, 2, 3], [8, 2, 3]] }

def set (xs: *[]i32) (i: i64) (v: i32) : *[]i32 = xs with [i] = v

def main (xs: []i32) (vs: []i32) : [][]i32 =
  map (\v -> set (copy xs) 0 v) vs
