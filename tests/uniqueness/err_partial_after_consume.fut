-- A partial application holds `xs`, which is consumed before it is applied.
-- ==
-- error: U001

def at (xs: []i32) (i: i64) : i32 = xs[i]

def main (xs: *[]i32) (i: i64) : i32 =
  let f = at xs
  let xs[0] = 5
  in f i
