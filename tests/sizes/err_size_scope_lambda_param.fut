-- A lambda's parameter used as a size is not in scope outside the lambda: the
-- size of `ys`, bound outside, may not become it.
-- ==
-- error: S002

def main (ys: []i32) =
  (\(n: i64) (xs: [n]i32) -> zip xs ys)
