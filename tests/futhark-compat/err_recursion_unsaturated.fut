-- A recursive function with a higher-order parameter may only be applied to
-- all its arguments.
-- ==
-- error: T014

def repeat (n: i64) (f: i64 -> i64) (x: i64) : i64 =
  if n == 0 then x else let g = repeat (n - 1) f in g (f x)

def main (n: i64) = repeat n (* 2) 1
