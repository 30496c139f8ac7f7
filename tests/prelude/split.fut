-- split takes its sizes from the type of its argument.
-- ==
-- input { 2i64 [1, 2, 3, 4, 5] } output { [1, 2] [3, 4, 5] }
-- input { 0i64 [1, 2] } output { empty([0]i32) [1, 2] }
-- input { 2i64 [1, 2] } output { [1, 2] empty([0]i32) }
-- input { 3i64 [1, 2] } error: Invalid slice|Size mismatch

def main [n] (k: i64) (xs: [n]i32): ([]i32, []i32) =
  split (xs :> [k + (n - k)]i32)
