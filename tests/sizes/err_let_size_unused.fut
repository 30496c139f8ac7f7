-- A size bound by a `let` pattern must be used by a type in the pattern.
-- ==
-- error: S002

def main (xs: []i32) : i64 =
  let [k] ys = filter (> 0) xs
  in k + length ys
