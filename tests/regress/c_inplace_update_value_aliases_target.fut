-- The value written by an in-place update may not alias the array being
-- updated: `a with [i] = a[0]` writes a row of `a` into `a` itself.
-- ==
-- error: U00[123]|in-place|alias

def main [n] (a: *[][n]i32) (i: i64) : [][n]i32 =
  a with [i] = a[0]
